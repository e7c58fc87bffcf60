//! Audience, priority and last-modified hints of content blocks and
//! resources.

use serde::{Deserialize, Serialize};

use crate::role::Role;

/// Hints about who a content block is for and how much it matters.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Annotations {
    /// Who the block is meant for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub audience: Option<Vec<Role>>,
    /// 0 (least) to 1 (most important).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<f64>,
    /// An ISO 8601 timestamp of the last change.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_modified: Option<String>,
}
