//! Compile-time checks the macros emit: `_meta` key messages and the
//! bounds of tool arguments.

use crate::meta::{MetaKeyProblemKind, meta_key_problem};

/// A compile-time error message built in a `const fn` (const panics take
/// one `&str`, so the text naming the key is assembled here).
#[derive(Debug)]
pub struct ConstMessage {
    bytes: [u8; 512],
    len: usize,
}

impl ConstMessage {
    const fn new() -> Self {
        Self {
            bytes: [0; 512],
            len: 0,
        }
    }

    /// Appends `text`, cut at a character boundary when it does not fit.
    const fn push(mut self, text: &str) -> Self {
        let text = text.as_bytes();
        let mut end = text.len();
        if end > self.bytes.len() - self.len {
            end = self.bytes.len() - self.len;
            while end > 0 && (text[end] & 0xC0) == 0x80 {
                end -= 1;
            }
        }
        let mut i = 0;
        while i < end {
            self.bytes[self.len + i] = text[i];
            i += 1;
        }
        self.len += end;
        self
    }

    /// The message.
    pub const fn as_str(&self) -> &str {
        match core::str::from_utf8(self.bytes.split_at(self.len).0) {
            Ok(text) => text,
            Err(_) => "invalid `_meta` key",
        }
    }
}

/// Why `key` cannot be an `_meta` key, as a compile error message naming
/// it (the macro panics with it in a `const` spanned at the key), or
/// `None`. The rule is [`meta_key_problem`](crate::meta::meta_key_problem)'s.
pub const fn meta_key_message(key: &str) -> Option<ConstMessage> {
    let Some(problem) = meta_key_problem(key) else {
        return None;
    };
    let example = "; a key is `[prefix/]name`, e.g. `com.example.acme/audit-tier`";
    let (head, reason, tail) = match problem.kind {
        MetaKeyProblemKind::ReservedPrefix => (
            "` uses a reserved prefix",
            ": labels `modelcontextprotocol` and `mcp` belong to the MCP specification",
            "; use your own reverse-DNS prefix such as `com.example/`",
        ),
        MetaKeyProblemKind::EmptyLabel => (": ", "a prefix label is empty", example),
        MetaKeyProblemKind::LabelStart => {
            (": ", "a prefix label must start with a letter", example)
        }
        MetaKeyProblemKind::LabelEnd => (
            ": ",
            "a prefix label must end with a letter or digit",
            example,
        ),
        MetaKeyProblemKind::LabelCharacters => (
            ": ",
            "a prefix label may only contain letters, digits and hyphens",
            example,
        ),
        MetaKeyProblemKind::NameEnds => (
            ": ",
            "the name must begin and end with a letter or digit",
            example,
        ),
        MetaKeyProblemKind::NameCharacters => (
            ": ",
            "the name may only contain letters, digits, `-`, `_` and `.`",
            example,
        ),
    };
    let start = match problem.kind {
        MetaKeyProblemKind::ReservedPrefix => "`_meta` key `",
        _ => "invalid `_meta` key `",
    };
    let message = ConstMessage::new().push(start).push(key);
    let message = match problem.kind {
        MetaKeyProblemKind::ReservedPrefix => message.push(head),
        _ => message.push("`").push(head),
    };
    Some(message.push(reason).push(tail))
}

/// A tool argument must deserialize; checked at the argument's type.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool argument: it does not implement `serde::Deserialize`",
    label = "this type does not implement `serde::Deserialize`",
    note = "derive `serde::Deserialize` for it (tool arguments are read from the call's JSON)"
)]
pub trait ArgDeserialize: serde::de::DeserializeOwned {}

impl<T: serde::de::DeserializeOwned> ArgDeserialize for T {}

/// A tool argument must have a schema; checked at the argument's type.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool argument: it does not implement `schemars::JsonSchema`",
    label = "this type does not implement `schemars::JsonSchema`",
    note = "derive `schemars::JsonSchema` for it (the tool's input schema is derived from it)"
)]
pub trait ArgSchema: schemars::JsonSchema {}

impl<T: schemars::JsonSchema> ArgSchema for T {}
