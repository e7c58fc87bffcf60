//! One message of a rendered prompt.

use serde::{Deserialize, Serialize};

use crate::content::block::Content;
use crate::role::Role;

/// One message of a prompt: a role and a content block (text, image,
/// audio, resource link or embedded resource).
///
/// ```
/// use mcp_core::prompt::PromptMessage;
///
/// assert_eq!(
///     serde_json::to_value(PromptMessage::user_text("hi")).unwrap(),
///     serde_json::json!({"role": "user", "content": {"type": "text", "text": "hi"}})
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct PromptMessage {
    /// Who speaks.
    pub role: Role,
    /// What is said.
    pub content: Content,
}

impl PromptMessage {
    /// A message from `role`.
    pub fn new(role: Role, content: Content) -> Self {
        Self { role, content }
    }

    /// A user message.
    pub fn user(content: Content) -> Self {
        Self::new(Role::User, content)
    }

    /// An assistant message.
    pub fn assistant(content: Content) -> Self {
        Self::new(Role::Assistant, content)
    }

    /// A user message with one text block.
    pub fn user_text(text: impl Into<String>) -> Self {
        Self::user(Content::text(text))
    }
}
