//! The fluent prompt builder.

use std::collections::BTreeMap;
use std::marker::PhantomData;
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::completion::Completer;
use crate::icon::Icon;
use crate::json::JsonObject;
use crate::meta::Meta;
use crate::meta::Metadata;
use crate::prompt::def::PromptDef;
use crate::prompt::error::PromptError;
use crate::prompt::handler::{PromptFn, PromptFnHandler};
use crate::prompt::value::{Prompt, PromptArgument};
use crate::schema::input_schema_for;

/// Starts building the prompt `name`: the same metadata family as
/// [`tool`](fn@crate::tool) (title, description, icons, `_meta`, [`Metadata`]
/// bundles; prompts carry no behavioural annotations), arguments declared one
/// by one ([`argument`](PromptBuilder::argument)) or derived from a type
/// ([`arguments`](PromptBuilder::arguments)), then [`run`](PromptBuilder::run).
///
/// ```
/// use mcp_core::completion::Completer;
/// use mcp_core::prompt::{PromptDef, prompt};
/// use schemars::JsonSchema;
/// use serde::Deserialize;
///
/// #[derive(Deserialize, JsonSchema)]
/// struct Review {
///     /// The code to review.
///     code: String,
///     /// The language, when known.
///     language: Option<String>,
/// }
///
/// let review: PromptDef = prompt("code_review")
///     .title("Review code")
///     .description("Asks for a careful code review.")
///     .arguments::<Review>()
///     .complete("language", Completer::values(["rust", "python"]))
///     .run(|args: Review| async move {
///         format!("Review this {} code:\n{}", args.language.as_deref().unwrap_or("unknown"), args.code)
///     })?;
/// assert_eq!(review.prompt().arguments.len(), 2);
/// assert_eq!(review.prompt().arguments[0].required, Some(true));
///
/// let args = serde_json::json!({"code": "fn main() {}"});
/// let result = futures_executor::block_on(review.get_detached(args.as_object().unwrap().clone()))?;
/// assert_eq!(result.messages[0].content.as_text(), Some("Review this unknown code:\nfn main() {}"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn prompt(name: impl Into<String>) -> PromptBuilder {
    PromptBuilder {
        prompt: Prompt {
            name: name.into(),
            title: None,
            description: None,
            arguments: Vec::new(),
            icons: Vec::new(),
            meta: Meta::new(),
        },
        completers: BTreeMap::new(),
        error: None,
        types: PhantomData,
    }
}

/// A prompt under construction; see [`prompt`]. `In` is what the handler
/// receives: the raw argument object until [`arguments`](Self::arguments).
#[derive(Debug)]
#[must_use = "a prompt builder does nothing until `.run(handler)`"]
pub struct PromptBuilder<In = JsonObject> {
    prompt: Prompt,
    completers: BTreeMap<String, Completer>,
    error: Option<PromptError>,
    types: PhantomData<fn(In)>,
}

impl<In> PromptBuilder<In> {
    /// Sets the display title.
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.prompt.title = Some(title.into());
        self
    }

    /// Sets the description.
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.prompt.description = Some(description.into());
        self
    }

    /// Appends an icon.
    pub fn icon(mut self, icon: Icon) -> Self {
        self.prompt.icons.push(icon);
        self
    }

    /// Replaces the icons.
    pub fn icons(mut self, icons: impl IntoIterator<Item = Icon>) -> Self {
        self.prompt.icons = icons.into_iter().collect();
        self
    }

    /// Adds an `_meta` entry; the key is checked like a tool's.
    pub fn meta(mut self, key: impl Into<String>, value: Value) -> Self {
        if let Err(error) = self.prompt.meta.insert(key, value) {
            self.error.get_or_insert(error.into());
        }
        self
    }

    /// Replaces the whole `_meta`, checking every key.
    pub fn meta_object(mut self, object: JsonObject) -> Self {
        match Meta::from_object(object) {
            Ok(meta) => self.prompt.meta = meta,
            Err(error) => {
                self.error.get_or_insert(error.into());
            }
        }
        self
    }

    /// Applies a shared [`Metadata`] bundle: overwrites title, icons and
    /// `_meta`; later setters win again.
    pub fn metadata(mut self, bundle: &Metadata) -> Self {
        self.prompt.title.clone_from(&bundle.title);
        self.prompt.icons.clone_from(&bundle.icons);
        self.prompt.meta = bundle.meta.clone();
        if let Some(error) = &bundle.error {
            self.error.get_or_insert_with(|| error.clone().into());
        }
        self
    }

    /// Declares one argument (after those declared before).
    pub fn argument(mut self, argument: PromptArgument) -> Self {
        self.prompt.arguments.push(argument);
        self
    }

    /// Completes the argument `name` for `completion/complete`.
    pub fn complete(mut self, name: impl Into<String>, completer: Completer) -> Self {
        self.completers.insert(name.into(), completer);
        self
    }

    /// Types the arguments: they are derived from `T`'s JSON Schema (each
    /// property an argument, its description the argument's, `required`
    /// from the schema) and the handler receives a `T`.
    pub fn arguments<T: DeserializeOwned + schemars::JsonSchema>(self) -> PromptBuilder<T> {
        let mut next = PromptBuilder {
            prompt: self.prompt,
            completers: self.completers,
            error: self.error,
            types: PhantomData,
        };
        match input_schema_for::<T>() {
            Ok(schema) => next.prompt.arguments = arguments_of(&schema),
            Err(source) => {
                let prompt = next.prompt.name.clone();
                next.error.get_or_insert(PromptError::Schema {
                    prompt,
                    error: source,
                });
            }
        }
        next
    }

    /// Ends the chain with the prompt's code: `async fn()`, `async fn(In)`
    /// or `async fn(In, PromptRequest<C>)`, returning anything
    /// [`IntoGetPromptResult`](crate::prompt::IntoGetPromptResult).
    pub fn run<C, M, H>(self, handler: H) -> Result<PromptDef<C>, PromptError>
    where
        H: PromptFn<M, In, C>,
        In: DeserializeOwned + Send + 'static,
        C: Send + Sync + 'static,
        M: 'static,
    {
        if let Some(error) = self.error {
            return Err(error);
        }
        let unknown = self
            .completers
            .keys()
            .find(|name| !self.prompt.arguments.iter().any(|a| &a.name == *name));
        if let Some(argument) = unknown {
            return Err(PromptError::UnknownArgument {
                prompt: self.prompt.name.clone(),
                argument: argument.clone(),
            });
        }
        let handler = PromptFnHandler::<H, M, In> {
            handler,
            marker: PhantomData,
        };
        Ok(PromptDef::from_parts(
            self.prompt,
            Arc::new(handler),
            self.completers,
        ))
    }
}

fn arguments_of(schema: &JsonObject) -> Vec<PromptArgument> {
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return Vec::new();
    };
    properties
        .iter()
        .map(|(name, property)| {
            let mut argument =
                PromptArgument::new(name).required(required.contains(&name.as_str()));
            if let Some(title) = property.get("title").and_then(Value::as_str) {
                argument = argument.title(title);
            }
            if let Some(description) = property.get("description").and_then(Value::as_str) {
                argument = argument.description(description);
            }
            argument
        })
        .collect()
}
