//! Compile-time checks the macros emit: `_meta` key messages and the
//! bounds of tool arguments.

use crate::meta::{MetaKeyProblemKind, meta_key_problem};

/// Why `key` cannot be an `_meta` key, as a compile error message (the
/// macro panics with it in a `const` spanned at the key), or `None`. The
/// rule is [`meta_key_problem`](crate::meta::meta_key_problem)'s.
pub const fn meta_key_message(key: &str) -> Option<&'static str> {
    let Some(problem) = meta_key_problem(key) else {
        return None;
    };
    Some(match problem.kind {
        MetaKeyProblemKind::ReservedPrefix => {
            "this `_meta` key uses a reserved prefix: labels `modelcontextprotocol` and `mcp` belong to the MCP specification; use your own reverse-DNS prefix such as `com.example/`"
        }
        MetaKeyProblemKind::EmptyLabel => {
            "invalid `_meta` key: a prefix label is empty; a key is `[prefix/]name`, e.g. `com.example.acme/audit-tier`"
        }
        MetaKeyProblemKind::LabelStart => {
            "invalid `_meta` key: a prefix label must start with a letter; a key is `[prefix/]name`, e.g. `com.example.acme/audit-tier`"
        }
        MetaKeyProblemKind::LabelEnd => {
            "invalid `_meta` key: a prefix label must end with a letter or digit; a key is `[prefix/]name`, e.g. `com.example.acme/audit-tier`"
        }
        MetaKeyProblemKind::LabelCharacters => {
            "invalid `_meta` key: a prefix label may only contain letters, digits and hyphens; a key is `[prefix/]name`, e.g. `com.example.acme/audit-tier`"
        }
        MetaKeyProblemKind::NameEnds => {
            "invalid `_meta` key: the name must begin and end with a letter or digit; a key is `[prefix/]name`, e.g. `com.example.acme/audit-tier`"
        }
        MetaKeyProblemKind::NameCharacters => {
            "invalid `_meta` key: the name may only contain letters, digits, `-`, `_` and `.`; a key is `[prefix/]name`, e.g. `com.example.acme/audit-tier`"
        }
    })
}

/// A tool argument must deserialize; checked at the argument's type.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool argument: it does not implement `serde::Deserialize`",
    label = "this type does not implement `serde::Deserialize`",
    note = "derive `serde::Deserialize` for it (tool arguments are read from the call's JSON)"
)]
pub trait ArgDeserialize {}

impl<T: serde::de::DeserializeOwned> ArgDeserialize for T {}

/// A tool argument must have a schema; checked at the argument's type.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool argument: it does not implement `schemars::JsonSchema`",
    label = "this type does not implement `schemars::JsonSchema`",
    note = "derive `schemars::JsonSchema` for it (the tool's input schema is derived from it)"
)]
pub trait ArgSchema {}

impl<T: schemars::JsonSchema> ArgSchema for T {}

/// Asserts at compile time that `T` can be a tool argument.
pub const fn assert_arg<T: ?Sized + ArgDeserialize + ArgSchema>() {}
