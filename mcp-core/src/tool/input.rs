//! The arguments of a tool: what a typed handler receives, read from the
//! request's argument object.

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::json::JsonObject;

/// The arguments of a tool: deserialized from the request's argument object.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool's arguments",
    note = "derive `serde::Deserialize` and `schemars::JsonSchema` for it"
)]
pub trait ToolInput: DeserializeOwned + schemars::JsonSchema + Send + 'static {}

impl<T: DeserializeOwned + schemars::JsonSchema + Send + 'static> ToolInput for T {}

/// Deserializes arguments into `In`, naming the offending field on failure.
pub(crate) fn parse_arguments<In: DeserializeOwned>(
    tool: &str,
    arguments: Option<JsonObject>,
) -> Result<In, String> {
    let value = Value::Object(arguments.unwrap_or_default());
    serde_path_to_error::deserialize(value).map_err(|error| {
        let path = error.path().to_string();
        let reason = error.into_inner();
        if path == "." {
            format!("invalid arguments for tool `{tool}`: {reason}")
        } else {
            format!("invalid arguments for tool `{tool}`: `{path}`: {reason}")
        }
    })
}
