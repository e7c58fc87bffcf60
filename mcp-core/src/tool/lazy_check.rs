//! [`LazyArgumentCheck`]: what a tool's handler holds of its input schema,
//! an [`ArgumentCheck`] compiled on the first call and kept among the most
//! recently used.

use std::sync::LazyLock;

use crate::arguments::{ArgumentCheck, InvalidArguments, Violation};
use crate::json::JsonObject;
use crate::schema::compiled::{CacheSlot, CompiledCache};
use crate::schema::json_len;
use crate::tool::ToolSchema;

/// How many bytes of input schemas (as JSON) the compiled checks kept at
/// once are made of: past it, the checks of the tools called least recently
/// are dropped, to be compiled again on their next call.
pub const KEPT_CHECKS_SCHEMA_BYTES: usize = 16 << 20;

/// The compiled checks of every [`LazyArgumentCheck`] of the process.
static COMPILED: LazyLock<CompiledCache<Result<ArgumentCheck, String>>> =
    LazyLock::new(|| CompiledCache::new(KEPT_CHECKS_SCHEMA_BYTES));

/// An [`ArgumentCheck`] compiled from the tool's input schema on the first
/// call that needs it: what a tool's handler holds. A schema that cannot be
/// compiled fails every call, saying why.
///
/// The compiled checks of the process are kept for the tools called most
/// recently, within [`KEPT_CHECKS_SCHEMA_BYTES`] of schemas (see
/// [`compiled`](crate::schema::compiled)): a server of thousands of tools
/// holds the checks of those in use, not one per tool.
///
/// A clone starts uncompiled (with the same setting), so that a handler
/// cloned for another tool compiles that tool's schema.
///
/// ```
/// use mcp_core::ToolSchema;
/// use mcp_core::tool::LazyArgumentCheck;
/// use serde_json::json;
///
/// let schema = json!({"type": "object", "properties": {"a": {"type": "number"}}});
/// let schema = ToolSchema::new(schema.as_object().cloned().unwrap_or_default());
/// let check = LazyArgumentCheck::new(false);
/// let arguments = json!({"a": 1}).as_object().cloned();
/// assert!(check.check("add", &schema, arguments).is_ok());
/// ```
#[derive(Debug)]
pub struct LazyArgumentCheck {
    allow_unknown: bool,
    compiled: CacheSlot<Result<ArgumentCheck, String>>,
}

impl Default for LazyArgumentCheck {
    fn default() -> Self {
        Self::new(false)
    }
}

impl LazyArgumentCheck {
    /// A check not yet compiled; `allow_unknown` as in
    /// [`ArgumentCheck::allow_unknown_arguments`].
    pub fn new(allow_unknown: bool) -> Self {
        Self {
            allow_unknown,
            compiled: COMPILED.slot(),
        }
    }

    /// Checks the arguments of a call of `tool` against `schema` (compiled
    /// on the first call, and again after its check was dropped) as
    /// [`ArgumentCheck::check`] does.
    pub fn check(
        &self,
        tool: &str,
        schema: &ToolSchema,
        arguments: Option<JsonObject>,
    ) -> Result<JsonObject, InvalidArguments> {
        let compiled = self.compiled.get_or_make(|| {
            // Assembled for the compiler only: nothing is kept per schema.
            let whole = schema.to_arc();
            let check = ArgumentCheck::new(&whole)
                .map(|check| check.allow_unknown_arguments(self.allow_unknown))
                .map_err(|error| error.to_string());
            (json_len(schema), check)
        });
        match &*compiled {
            Ok(check) => check.check(tool, arguments),
            Err(reason) => Err(InvalidArguments::new(
                tool,
                vec![Violation::new(
                    "",
                    format!("the input schema cannot be used: {reason}"),
                )],
            )),
        }
    }
}

impl Clone for LazyArgumentCheck {
    fn clone(&self) -> Self {
        Self::new(self.allow_unknown)
    }
}
