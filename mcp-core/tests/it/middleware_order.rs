//! The middleware onion of the seed: server `a`, `b` + tool `c`, `d`.

use std::sync::{Arc, Mutex};

use mcp_core::tool::middleware::{self, Layer, Next, ToolMiddleware};
use mcp_core::{
    BoxFuture, CallToolResult, Meta, RequestScope, ToolCallContext, ToolDef, tool,
    tool::CallToolRequest,
};
use serde_json::{Value, json};

type Trace = Arc<Mutex<Vec<String>>>;

/// A layer that records when the request passes in and the result passes out.
struct Recorder {
    name: &'static str,
    trace: Trace,
}

impl ToolMiddleware for Recorder {
    fn call<'a>(&'a self, cx: ToolCallContext, next: Next) -> BoxFuture<'a, CallToolResult> {
        Box::pin(async move {
            self.trace.lock().unwrap().push(format!("-> {}", self.name));
            let result = next.run(cx).await;
            self.trace.lock().unwrap().push(format!("<- {}", self.name));
            result
        })
    }
}

fn recorder(name: &'static str, trace: &Trace) -> Recorder {
    Recorder {
        name,
        trace: trace.clone(),
    }
}

pub(crate) fn onion_tool() -> ToolDef {
    tool("onion")
        .description("Records the order of its layers.")
        .run(|| async { "handled" })
        .unwrap()
}

#[test]
fn request_flows_a_b_c_d_handler_and_back_in_reverse() {
    let trace = Trace::default();
    let handler_trace = trace.clone();
    let def: ToolDef = tool("onion")
        .run(move || {
            handler_trace.lock().unwrap().push("handler".to_owned());
            async { "handled" }
        })
        .unwrap()
        .layer(recorder("c", &trace))
        .layer(recorder("d", &trace));
    let server: Arc<[Layer]> = Arc::from(vec![
        Arc::new(recorder("a", &trace)) as Layer,
        Arc::new(recorder("b", &trace)) as Layer,
    ]);
    let cx = def.context(CallToolRequest::new("onion", None), Arc::new(()));
    let result = futures_executor::block_on(def.call_inside(server, cx));
    assert_eq!(result.text_content(), "handled");
    assert_eq!(
        *trace.lock().unwrap(),
        [
            "-> a", "-> b", "-> c", "-> d", "handler", "<- d", "<- c", "<- b", "<- a"
        ]
    );
}

#[test]
fn a_layer_can_short_circuit() {
    let def = onion_tool().layer(middleware::from_fn(|_cx: ToolCallContext, _next| async {
        CallToolResult::error("rate limited")
    }));
    let result = futures_executor::block_on(def.call_detached(json!({})));
    assert!(result.is_error());
    assert_eq!(result.text_content(), "rate limited");
}

/// The seed's `audit` middleware: reads `progressToken` from the request's
/// `_meta` and writes an audit `_meta` on the response.
fn audit() -> impl ToolMiddleware {
    middleware::from_fn(|cx: ToolCallContext, next: Next| async move {
        let tool = cx.request().name.clone();
        let session = cx.scope().session().map(str::to_owned);
        let token = cx.scope().progress_token().cloned().unwrap_or(Value::Null);
        let mut result = next.run(cx).await;
        let audit = [
            ("com.example.audit/tool", Value::String(tool)),
            (
                "com.example.audit/session",
                session.map_or(Value::Null, Value::String),
            ),
            ("com.example.audit/token", token),
        ];
        for (key, value) in audit {
            if let Err(error) = result.meta.insert(key, value) {
                return CallToolResult::error(error.to_string());
            }
        }
        result
    })
}

#[test]
fn audit_middleware_reads_the_progress_token_and_writes_response_meta() {
    let def = onion_tool().layer(audit());
    let mut meta = mcp_core::JsonObject::new();
    meta.insert("progressToken".into(), json!("tok-1"));
    let scope = RequestScope::new()
        .meta(Meta::from_wire(meta))
        .session_id("session-9");
    let cx = def
        .context(CallToolRequest::new("onion", None), Arc::new(()))
        .in_scope(scope);
    let result = futures_executor::block_on(def.call(cx));
    assert_eq!(
        serde_json::to_value(&result.meta).unwrap(),
        json!({
            "com.example.audit/tool": "onion",
            "com.example.audit/session": "session-9",
            "com.example.audit/token": "tok-1"
        })
    );
}
