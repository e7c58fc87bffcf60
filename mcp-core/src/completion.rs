//! Argument completion (`completion/complete`) for prompt arguments and
//! resource-template variables: the request and result values, and the
//! [`Completer`] a prompt or resource builder attaches to an argument.
//!
//! ```
//! use mcp_core::completion::Completer;
//! use mcp_core::JsonObject;
//!
//! let cities = Completer::values(["Paris", "Parma", "Porto"]);
//! let completion = cities.complete("par", &JsonObject::new());
//! assert_eq!(completion.values, ["Paris", "Parma"]);
//! ```

use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::json::JsonObject;

/// The most values one completion may carry (the specification's limit).
pub const MAX_COMPLETION_VALUES: usize = 100;

/// What is being completed: a prompt or a resource template.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type")]
#[non_exhaustive]
pub enum CompletionReference {
    /// A prompt's argument (`ref/prompt`).
    #[serde(rename = "ref/prompt")]
    Prompt {
        /// The prompt's name.
        name: String,
    },
    /// A resource template's variable (`ref/resource`).
    #[serde(rename = "ref/resource")]
    Resource {
        /// The template's URI template.
        uri: String,
    },
}

/// The argument being completed and what the user typed so far.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct CompletionArgument {
    /// The argument's (or variable's) name.
    pub name: String,
    /// The partial value.
    pub value: String,
}

/// The parameters of a `completion/complete` request.
///
/// ```
/// use mcp_core::{completion::{CompleteRequest, CompletionReference}};
///
/// let request: CompleteRequest = serde_json::from_str(
///     r#"{"ref":{"type":"ref/prompt","name":"greet"},"argument":{"name":"who","value":"Ad"}}"#,
/// )
/// .unwrap();
/// assert_eq!(request.reference, CompletionReference::Prompt { name: "greet".into() });
/// assert_eq!(request.argument.value, "Ad");
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct CompleteRequest {
    /// The prompt or template.
    #[serde(rename = "ref")]
    pub reference: CompletionReference,
    /// The argument being completed.
    pub argument: CompletionArgument,
    /// Arguments already resolved (`context.arguments`), as JSON.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<JsonObject>,
}

/// Completion values for one argument.
///
/// ```
/// use mcp_core::completion::Completion;
///
/// let completion = Completion::from_values((0..150).map(|i| format!("v{i}")));
/// assert_eq!(completion.values.len(), 100);
/// assert_eq!(completion.total, Some(150));
/// assert_eq!(completion.has_more, Some(true));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Completion {
    /// Up to 100 suggestions, best first.
    pub values: Vec<String>,
    /// How many suggestions exist in all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<u64>,
    /// Whether more exist than `values` holds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub has_more: Option<bool>,
}

impl Completion {
    /// A completion of these values, keeping the first 100 and recording the
    /// total when there are more.
    pub fn from_values(values: impl IntoIterator<Item = impl Into<String>>) -> Self {
        let mut values: Vec<String> = values.into_iter().map(Into::into).collect();
        let total = values.len();
        if total > MAX_COMPLETION_VALUES {
            values.truncate(MAX_COMPLETION_VALUES);
            return Self {
                values,
                total: Some(total as u64),
                has_more: Some(true),
            };
        }
        Self {
            values,
            total: None,
            has_more: None,
        }
    }

    /// The candidates that start with `prefix` (case-insensitively), in order.
    pub fn matching<S: AsRef<str>>(prefix: &str, candidates: impl IntoIterator<Item = S>) -> Self {
        let prefix = prefix.to_lowercase();
        Self::from_values(
            candidates
                .into_iter()
                .filter(|candidate| candidate.as_ref().to_lowercase().starts_with(&prefix))
                .map(|candidate| candidate.as_ref().to_owned()),
        )
    }
}

/// The result of `completion/complete`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct CompleteResult {
    /// The suggestions.
    pub completion: Completion,
}

impl CompleteResult {
    /// A result carrying `completion`.
    pub fn new(completion: Completion) -> Self {
        Self { completion }
    }
}

/// Completes one argument of a prompt or variable of a resource template:
/// given the partial value and the arguments already resolved, suggests
/// values. Made from a closure by the prompt and resource builders'
/// `complete` methods.
#[derive(Clone)]
pub struct Completer(Arc<CompleteFn>);

type CompleteFn = dyn Fn(&str, &JsonObject) -> Completion + Send + Sync;

impl Completer {
    /// A completer from `f(partial_value, resolved_arguments)`.
    pub fn new(f: impl Fn(&str, &JsonObject) -> Completion + Send + Sync + 'static) -> Self {
        Self(Arc::new(f))
    }

    /// A completer offering the `values` that start with the partial value.
    pub fn values(values: impl IntoIterator<Item = impl Into<String>>) -> Self {
        let values: Vec<String> = values.into_iter().map(Into::into).collect();
        Self::new(move |partial, _| Completion::matching(partial, &values))
    }

    /// Suggests values for `partial`.
    pub fn complete(&self, partial: &str, resolved: &JsonObject) -> Completion {
        (self.0)(partial, resolved)
    }
}

impl fmt::Debug for Completer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Completer(..)")
    }
}
