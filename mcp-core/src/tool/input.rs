//! The arguments of a tool: what a typed handler receives, read from the
//! request's argument object.

use serde::de::DeserializeOwned;
use serde_json::Value;

use serde_path_to_error::{Path, Segment};

use crate::arguments::error::pointer_segment;
use crate::arguments::{InvalidArguments, Violation};
use crate::json::JsonObject;

/// The arguments of a tool: deserialized from the request's argument object.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool's arguments",
    note = "derive `serde::Deserialize` and `schemars::JsonSchema` for it"
)]
pub trait ToolInput: DeserializeOwned + schemars::JsonSchema + Send + 'static {}

impl<T: DeserializeOwned + schemars::JsonSchema + Send + 'static> ToolInput for T {}

/// Deserializes checked arguments into `In`, naming the offending value by
/// its JSON pointer on failure (the schema check normally finds it first).
pub(crate) fn parse_arguments<In: DeserializeOwned>(
    tool: &str,
    arguments: JsonObject,
) -> Result<In, InvalidArguments> {
    serde_path_to_error::deserialize(Value::Object(arguments)).map_err(|error| {
        let pointer = json_pointer(error.path());
        let reason = error.into_inner().to_string();
        InvalidArguments::new(tool, vec![violation_of(pointer, reason)])
    })
}

/// A deserialization path as a JSON pointer (empty for the root).
pub(crate) fn json_pointer(path: &Path) -> String {
    let mut pointer = String::new();
    for segment in path.iter() {
        pointer.push('/');
        match segment {
            Segment::Seq { index } => pointer.push_str(&index.to_string()),
            Segment::Map { key } => pointer.push_str(&pointer_segment(key)),
            Segment::Enum { variant } => pointer.push_str(&pointer_segment(variant)),
            Segment::Unknown => pointer.push('?'),
        }
    }
    pointer
}

/// The violation of a deserialization error at `pointer`; errors of the
/// macro's plain parameters come as `/<name>...: reason` from the root.
fn violation_of(pointer: String, reason: String) -> Violation {
    if pointer.is_empty()
        && let Some((at, message)) = reason
            .split_once(": ")
            .filter(|(at, _)| at.starts_with('/'))
    {
        return Violation::new(at, message);
    }
    Violation::new(pointer, reason)
}
