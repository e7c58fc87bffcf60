//! The parties of a conversation.

use serde::{Deserialize, Serialize};

/// A party of the conversation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The user.
    User,
    /// The assistant (the model).
    Assistant,
}
