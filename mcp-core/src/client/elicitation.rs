//! Asking the user for input through the client (`elicitation/create`).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::SchemaError;
use crate::json::JsonObject;
use crate::meta::Meta;
use crate::schema::{check_object_schema, json_kind};

/// The parameters of an `elicitation/create` request in form mode: a
/// message for the user and the flat object schema of the answer.
///
/// The schema's properties are primitives (string, number, integer,
/// boolean), single- and multi-select enums (`enum`, `oneOf` of
/// `const`/`title`, `items.enum`, `items.anyOf`, the legacy `enumNames`),
/// each optionally with a `default`.
///
/// ```
/// use mcp_core::client::ElicitRequest;
/// use serde_json::json;
///
/// let request = ElicitRequest::new(
///     "Who are you?",
///     json!({"type": "object", "properties": {"name": {"type": "string", "default": "Ada"}}}),
/// )
/// .unwrap();
/// assert_eq!(serde_json::to_value(&request).unwrap()["requestedSchema"]["properties"]["name"]["default"], "Ada");
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ElicitRequest {
    /// What the user is asked.
    pub message: String,
    /// The JSON Schema of the answer; its root is `"type": "object"`.
    pub requested_schema: JsonObject,
    /// Extension metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Meta::is_empty")]
    pub meta: Meta,
    /// The key of this request in a 2026-07-28 input-required result
    /// (`inputRequests`); generated when absent. Not part of the request's
    /// JSON.
    #[serde(skip)]
    pub input_key: Option<String>,
    /// Whether the answer is gathered before the call becomes a task (see
    /// [`before_task`](Self::before_task)). Not part of the request's JSON.
    #[serde(skip)]
    pub before_task: bool,
}

impl ElicitRequest {
    /// Asks this before the call becomes a task: when a 2026-07-28 client
    /// calls a tool that may run as a task, a question marked so and asked
    /// before the handler first waits on anything else is gathered through
    /// an input-required round of the `tools/call` itself; once answered,
    /// the call continues (and escalates to a task when the handler waits
    /// on work). Other questions of a task wait in the task (`tasks/get`
    /// lists them, `tasks/update` answers). Elsewhere the mark changes
    /// nothing.
    ///
    /// ```
    /// use mcp_core::client::ElicitRequest;
    /// use serde_json::json;
    ///
    /// let request = ElicitRequest::new("Name?", json!({"type": "object"}))?
    ///     .input_key("user_name")
    ///     .before_task();
    /// assert!(request.before_task);
    /// # Ok::<(), mcp_core::SchemaError>(())
    /// ```
    pub fn before_task(mut self) -> Self {
        self.before_task = true;
        self
    }

    /// Names this request in a 2026-07-28 input-required result, where the
    /// client answers it under the same key.
    pub fn input_key(mut self, key: impl Into<String>) -> Self {
        self.input_key = Some(key.into());
        self
    }

    /// A form request; `schema` must be a JSON object whose `type` is
    /// `"object"`.
    pub fn new(message: impl Into<String>, schema: Value) -> Result<Self, SchemaError> {
        let Value::Object(schema) = schema else {
            return Err(SchemaError::NotAnObject {
                found: json_kind(&schema).to_owned(),
            });
        };
        check_object_schema(&schema)?;
        Ok(Self {
            message: message.into(),
            requested_schema: schema,
            meta: Meta::new(),
            input_key: None,
            before_task: false,
        })
    }
}

/// What the user did with an elicitation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ElicitAction {
    /// The user submitted the form: `content` holds the answer.
    Accept,
    /// The user explicitly declined.
    Decline,
    /// The user dismissed the request without choosing.
    Cancel,
}

/// The client's answer to `elicitation/create`.
///
/// ```
/// use mcp_core::{client::{ElicitAction, ElicitResult}};
///
/// let answer: ElicitResult =
///     serde_json::from_str(r#"{"action":"accept","content":{"name":"Ada"}}"#).unwrap();
/// assert_eq!(answer.action, ElicitAction::Accept);
/// assert_eq!(answer.content.unwrap()["name"], "Ada");
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ElicitResult {
    /// Accept, decline or cancel.
    pub action: ElicitAction,
    /// The submitted values, when accepted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<JsonObject>,
    /// Extension metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Meta::is_empty")]
    pub meta: Meta,
}

impl ElicitResult {
    /// An answer with `action` and `content`.
    pub fn new(action: ElicitAction, content: Option<JsonObject>) -> Self {
        Self {
            action,
            content,
            meta: Meta::new(),
        }
    }
}
