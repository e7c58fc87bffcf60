//! The one check every kind of tool runs on a call's arguments, and the one
//! error format it reports.
//!
//! Builder and `#[tool]` tools, generated OpenAPI tools and transformed
//! tools check the arguments of a call against the tool's input schema
//! (with the `jsonschema` crate) before their code sees them. A call that
//! fails gets a result with `isError: true` whose text lists **every**
//! violation, one line each, as `<JSON pointer>: <message>` (`(root)` for
//! the argument object itself):
//!
//! ```text
//! invalid arguments for tool `divide`:
//! (root): "b" is a required property
//! /a: "one" is not of type "number"
//! /c: unknown argument `c`; the tool takes `a`, `b`
//! ```
//!
//! The rules beyond the schema itself:
//!
//! - **Unknown arguments are refused**: a top-level argument the schema
//!   does not name in `properties` (or in the `properties` of its root
//!   `allOf`/`anyOf`/`oneOf` branches) is reported, with the closest known
//!   name when one is near. A schema that decides itself
//!   (`additionalProperties`, `patternProperties`, `unevaluatedProperties`,
//!   a root `$ref`) or names no `properties` at all (a tool taking any
//!   object) is left to decide. A tool opts out with
//!   [`ToolBuilder::allow_unknown_arguments`](crate::ToolBuilder::allow_unknown_arguments)
//!   (`#[tool(allow_unknown_arguments)]`), a generated one with
//!   `HttpToolHandler::allow_unknown_arguments`.
//! - **`null` for an optional argument counts as left out**: optional
//!   arguments are spelled without `null` in schemas (see
//!   [`schema`](crate::schema)), yet some clients send `null` for every
//!   argument they do not set; such a `null` is dropped when the argument
//!   is not `required` and its schema refuses `null`.
//!
//! ```
//! use mcp_core::arguments::ArgumentCheck;
//! use serde_json::json;
//!
//! let schema = json!({
//!     "type": "object",
//!     "properties": {"limit": {"type": "integer"}, "query": {"type": "string"}},
//!     "required": ["query"]
//! });
//! let check = ArgumentCheck::new(schema.as_object().unwrap())?;
//!
//! let arguments = json!({"query": "cats", "limit": null});
//! let checked = check.check("search", arguments.as_object().cloned())?;
//! assert_eq!(serde_json::Value::Object(checked), json!({"query": "cats"}));
//!
//! let arguments = json!({"limt": "ten"});
//! let error = check.check("search", arguments.as_object().cloned()).unwrap_err();
//! assert_eq!(
//!     error.to_string(),
//!     "invalid arguments for tool `search`:\n\
//!      (root): \"query\" is a required property\n\
//!      /limt: unknown argument `limt`; did you mean `limit`?"
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod check;
pub(crate) mod error;
mod known;

pub use check::ArgumentCheck;
pub use error::{InvalidArguments, Violation};
