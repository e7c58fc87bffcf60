//! Schema profiles: how generated schemas are spelled, for client
//! compatibility.

use std::str::FromStr;

use crate::error::SpecError;

/// How generated schemas are spelled, for client compatibility.
///
/// Both profiles follow the portable spelling every kind of tool shares
/// (see `mcp_core::schema`): no `$schema` (JSON Schema 2020-12 is the MCP
/// default dialect) and no `"type": [..., "null"]` arrays (nullable values
/// are an `anyOf` with `{"type": "null"}`).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum SchemaProfile {
    /// JSON Schema 2020-12, shared schemas under `$defs`.
    #[default]
    Standard,
    /// No `$schema`, no `$defs`: references inlined; a recursive schema is cut
    /// (replaced by `{}` with a description) once it is nested in itself
    /// `inline_cycle_depth` times (default 1), and after 100 inlined
    /// definitions per schema the remaining references are cut the same way,
    /// as are references nested over 64 levels of JSON deep (so a client's
    /// JSON parser, often limited to 128 levels, reads the schema).
    Inline,
}

impl FromStr for SchemaProfile {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<Self, SpecError> {
        match text {
            "standard" => Ok(Self::Standard),
            "inline" => Ok(Self::Inline),
            other => Err(SpecError::invalid(
                "schema profile",
                format!("unknown profile `{other}` (standard, inline)"),
            )),
        }
    }
}
