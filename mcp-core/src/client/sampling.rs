//! Asking the client's model for a completion (`sampling/createMessage`).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::content::block::Content;
use crate::meta::Meta;
use crate::role::Role;

/// One message of a sampling conversation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct SamplingMessage {
    /// Who speaks.
    pub role: Role,
    /// What is said: a text, image or audio block.
    pub content: Content,
}

impl SamplingMessage {
    /// A user message.
    pub fn user(content: Content) -> Self {
        Self {
            role: Role::User,
            content,
        }
    }

    /// An assistant message.
    pub fn assistant(content: Content) -> Self {
        Self {
            role: Role::Assistant,
            content,
        }
    }
}

/// The parameters of a `sampling/createMessage` request.
///
/// ```
/// use mcp_core::client::CreateMessageRequest;
/// use serde_json::json;
///
/// let request = CreateMessageRequest::text("Say hi", 100).system_prompt("Be brief.");
/// assert_eq!(
///     serde_json::to_value(&request).unwrap(),
///     json!({
///         "messages": [{"role": "user", "content": {"type": "text", "text": "Say hi"}}],
///         "maxTokens": 100,
///         "systemPrompt": "Be brief."
///     })
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct CreateMessageRequest {
    /// The conversation so far.
    pub messages: Vec<SamplingMessage>,
    /// The most tokens the client may sample.
    pub max_tokens: u32,
    /// A system prompt the client may use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system_prompt: Option<String>,
    /// The sampling temperature.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temperature: Option<f64>,
    /// Sequences that stop sampling.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stop_sequences: Vec<String>,
    /// The server's model preferences (`ModelPreferences`), as JSON.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_preferences: Option<Value>,
    /// Which MCP context to include (`none`, `thisServer`, `allServers`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub include_context: Option<String>,
    /// Provider-specific metadata.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Value>,
    /// Extension metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Meta::is_empty")]
    pub meta: Meta,
    /// The key of this request in a 2026-07-28 input-required result
    /// (`inputRequests`); generated when absent. Not part of the request's
    /// JSON.
    #[serde(skip)]
    pub input_key: Option<String>,
}

impl CreateMessageRequest {
    /// Names this request in a 2026-07-28 input-required result, where the
    /// client answers it under the same key.
    pub fn input_key(mut self, key: impl Into<String>) -> Self {
        self.input_key = Some(key.into());
        self
    }

    /// A request to continue `messages`, sampling at most `max_tokens`.
    pub fn new(messages: Vec<SamplingMessage>, max_tokens: u32) -> Self {
        Self {
            messages,
            max_tokens,
            system_prompt: None,
            temperature: None,
            stop_sequences: Vec::new(),
            model_preferences: None,
            include_context: None,
            metadata: None,
            meta: Meta::new(),
            input_key: None,
        }
    }

    /// A request with one user text message.
    pub fn text(prompt: impl Into<String>, max_tokens: u32) -> Self {
        Self::new(
            vec![SamplingMessage::user(Content::text(prompt))],
            max_tokens,
        )
    }

    /// Sets the system prompt.
    pub fn system_prompt(mut self, prompt: impl Into<String>) -> Self {
        self.system_prompt = Some(prompt.into());
        self
    }

    /// Sets the temperature.
    pub fn temperature(mut self, temperature: f64) -> Self {
        self.temperature = Some(temperature);
        self
    }
}

/// The client's answer to `sampling/createMessage`.
///
/// `content` stays JSON: a 2025-11-25 client may answer with one block or an
/// array of them, including tool-use blocks. [`text`](Self::text) reads the
/// text out of either shape.
///
/// ```
/// use mcp_core::client::CreateMessageResult;
///
/// let answer: CreateMessageResult = serde_json::from_str(
///     r#"{"role":"assistant","content":{"type":"text","text":"hi"},"model":"m","stopReason":"endTurn"}"#,
/// )
/// .unwrap();
/// assert_eq!(answer.text(), "hi");
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct CreateMessageResult {
    /// Who produced the message (the assistant).
    pub role: Role,
    /// The sampled content: one block or an array of blocks.
    pub content: Value,
    /// The model that sampled.
    pub model: String,
    /// Why sampling stopped (`endTurn`, `stopSequence`, `maxTokens`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<String>,
    /// Extension metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Meta::is_empty")]
    pub meta: Meta,
}

impl CreateMessageResult {
    /// The text of every text block, joined with newlines.
    pub fn text(&self) -> String {
        let blocks = match &self.content {
            Value::Array(blocks) => blocks.iter().collect(),
            block => vec![block],
        };
        blocks
            .into_iter()
            .filter(|block| block.get("type").and_then(Value::as_str) == Some("text"))
            .filter_map(|block| block.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n")
    }
}
