//! The span and measurements of each request (see
//! [`crate::telemetry`]): what rmcp's request context says about it, and
//! how its answer ends it.

use std::future::Future;

use rmcp::ErrorData;
use rmcp::model::{CallToolResponse, RequestMetaObject};
use rmcp::service::{RequestContext, RoleServer};
use tracing::Instrument;

use crate::telemetry::request::{Outcome, RequestInfo, RequestTrace};

/// What a request names besides its method: the span's target.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Target<'a> {
    pub(crate) tool: Option<&'a str>,
    pub(crate) prompt: Option<&'a str>,
}

/// Opens the span of the request `method` of `context`; `params_meta` is
/// the `_meta` rmcp left in the parameters, if any, where the client's
/// `traceparent` may also be.
pub(crate) fn start(
    method: &str,
    target: Target<'_>,
    context: &RequestContext<RoleServer>,
    params_meta: Option<&RequestMetaObject>,
    session_id: Option<&str>,
) -> RequestTrace {
    let field = |name: &str| {
        [Some(&context.meta), params_meta]
            .into_iter()
            .flatten()
            .find_map(|meta| meta.0.0.get(name).and_then(|value| value.as_str()))
    };
    let info = RequestInfo {
        method,
        tool: target.tool,
        prompt: target.prompt,
        request_id: context.id.to_string(),
        session_id,
        protocol_version: context
            .protocol_version()
            .map(|version| version.to_string()),
        traceparent: field("traceparent"),
        tracestate: field("tracestate"),
    };
    RequestTrace::start(&info)
}

/// Runs `answer` in the request's span and ends it: a JSON-RPC error or a
/// result.
///
/// `answer` is boxed at once: rmcp moves each request's future into a task
/// of its own, and the future of a request handler that held its answer
/// inline would be as large as the largest answer of any request, copied
/// whole for every request.
pub(crate) fn run<'a, T: 'a>(
    trace: RequestTrace,
    answer: impl Future<Output = Result<T, ErrorData>> + 'a,
) -> impl Future<Output = Result<T, ErrorData>> + 'a {
    let answer = Box::pin(answer.instrument(trace.span().clone()));
    async move {
        let answered = answer.await;
        trace.finish(match &answered {
            Ok(_) => Outcome::Answered,
            Err(error) => Outcome::Error(error.code.0),
        });
        answered
    }
}

/// [`run`] for `tools/call`, whose result may be a tool error
/// (`isError: true`).
pub(crate) fn run_call<'a>(
    trace: RequestTrace,
    answer: impl Future<Output = Result<CallToolResponse, ErrorData>> + 'a,
) -> impl Future<Output = Result<CallToolResponse, ErrorData>> + 'a {
    let answer = Box::pin(answer.instrument(trace.span().clone()));
    async move {
        let answered = answer.await;
        trace.finish(match &answered {
            Ok(CallToolResponse::Complete(result)) if result.is_error == Some(true) => {
                Outcome::ToolError
            }
            Ok(_) => Outcome::Answered,
            Err(error) => Outcome::Error(error.code.0),
        });
        answered
    }
}
