//! Talking to the client while serving a request: what a server asks of
//! it (sampling, elicitation, roots), what it tells it (logs, progress),
//! and the [`CallChannel`] a server implements to carry them.
//!
//! A handler reaches the client through its
//! [`ToolCallContext`](crate::ToolCallContext) (or
//! [`PromptRequest`](crate::prompt::PromptRequest)); outside a server every
//! request reports that the client cannot answer.
//!
//! ```
//! use mcp_core::client::CreateMessageRequest;
//! use mcp_core::{tool, JsonObject, ToolCallContext, ToolDef};
//!
//! let summarize: ToolDef = tool("summarize")
//!     .run(|_: JsonObject, cx: ToolCallContext| async move {
//!         let request = CreateMessageRequest::text("Summarize the news.", 200);
//!         let answer = cx.sample(request).await.map_err(|e| e.to_string())?;
//!         Ok::<_, String>(answer.text())
//!     })?;
//! let result = futures_executor::block_on(summarize.call_detached(serde_json::json!({})));
//! assert_eq!(result.text_content(), "the client does not support sampling");
//! # Ok::<(), mcp_core::ToolError>(())
//! ```

pub(crate) mod channel;
pub(crate) mod elicitation;
pub(crate) mod logging;
pub(crate) mod roots;
pub(crate) mod sampling;

pub use channel::{CallChannel, ChannelError, Progress};
pub use elicitation::{ElicitAction, ElicitRequest, ElicitResult};
pub use logging::{InvalidLoggingLevel, LogMessage, LoggingLevel};
pub use roots::Root;
pub use sampling::{CreateMessageRequest, CreateMessageResult, SamplingMessage};
