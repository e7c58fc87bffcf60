//! Prompts: the protocol values ([`Prompt`], its arguments and messages,
//! the result of `prompts/get`), the fluent [`prompt`](fn@prompt) builder,
//! the handler that renders a prompt and the [`PromptDef`] a server hosts.
//!
//! ```
//! use mcp_core::prompt::{prompt, PromptArgument, PromptDef, PromptMessage};
//!
//! let greet: PromptDef = prompt("greet")
//!     .description("Greets someone.")
//!     .argument(PromptArgument::new("who").required(true))
//!     .run(|args: mcp_core::JsonObject| async move {
//!         let who = args.get("who").and_then(|w| w.as_str()).unwrap_or("you");
//!         PromptMessage::user_text(format!("Say hello to {who}."))
//!     })?;
//! let arguments = serde_json::json!({"who": "Ada"});
//! let result = futures_executor::block_on(greet.get_detached(arguments.as_object().cloned().unwrap_or_default()))?;
//! assert_eq!(result.messages[0].content.as_text(), Some("Say hello to Ada."));
//! # Ok::<(), mcp_core::prompt::PromptError>(())
//! ```

pub(crate) mod builder;
pub(crate) mod def;
pub(crate) mod error;
pub(crate) mod handler;
pub(crate) mod message;
pub(crate) mod request;
pub(crate) mod result;
pub(crate) mod value;

pub use builder::{PromptBuilder, prompt};
pub use def::PromptDef;
pub use error::PromptError;
pub use handler::{PromptFn, PromptHandler};
pub use message::PromptMessage;
pub use request::PromptRequest;
pub use result::{GetPromptResult, IntoGetPromptResult};
pub use value::{Prompt, PromptArgument};
