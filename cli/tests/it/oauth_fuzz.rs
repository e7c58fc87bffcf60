//! Property test of the OAuth check as a whole: whatever a request's
//! `Authorization` header holds (another scheme, garbage, bad base64, wrong
//! JSON, a huge token), the answer is a 401 with a challenge, never a
//! panic or a processed body.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock};

use axum::body::Body;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use mcp_core::{JsonObject, tool};
use mcp_server::auth::{Auth, OAuth};
use mcp_server::{HttpConfig, Server};
use proptest::prelude::*;
use tower::ServiceExt;

fn header_value() -> impl Strategy<Value = String> {
    let part = "[A-Za-z0-9_-]{0,40}";
    let json = prop_oneof![
        Just("{}".to_owned()),
        Just("[]".to_owned()),
        Just(r#"{"alg":"none"}"#.to_owned()),
        Just(r#"{"alg":"RS256","kid":7}"#.to_owned()),
        Just(r#"{"iss":"http://127.0.0.1:1","aud":"x","exp":1}"#.to_owned()),
        ".{0,30}",
    ];
    prop_oneof![
        ".{0,200}",
        "(Bearer|bearer|Basic|Token) .{0,200}",
        (part, part, part).prop_map(|(a, b, c)| format!("Bearer {a}.{b}.{c}")),
        (json.clone(), json).prop_map(|(h, c)| format!(
            "Bearer {}.{}.c2ln",
            URL_SAFE_NO_PAD.encode(h),
            URL_SAFE_NO_PAD.encode(c)
        )),
        (1usize..40_000).prop_map(|n| format!("Bearer {}", "x".repeat(n))),
    ]
}

/// One runtime and one protected server for every case.
static PROTECTED: LazyLock<(tokio::runtime::Runtime, axum::Router, Arc<AtomicUsize>)> =
    LazyLock::new(|| {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let calls = Arc::new(AtomicUsize::new(0));
        let counted = calls.clone();
        let count = tool("count")
            .run(move |_: JsonObject| {
                let calls = counted.clone();
                async move { calls.fetch_add(1, Ordering::SeqCst).to_string() }
            })
            .unwrap();
        let server = Server::builder().tool(count).build().unwrap();
        // The issuer is never reached: no token here names it.
        let oauth = OAuth::new("http://127.0.0.1/mcp")
            .unwrap()
            .issuer("http://127.0.0.1:1")
            .unwrap();
        let config = HttpConfig::new()
            .stateless(true)
            .auth(Auth::oauth(oauth).unwrap());
        let router = runtime.block_on(async { server.router(&config) }).unwrap();
        (runtime, router, calls)
    });

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_authorization_header_gets_a_401_and_runs_nothing(value in header_value()) {
        let (runtime, router, calls) = &*PROTECTED;
        let Ok(header) = http::HeaderValue::from_str(&value) else {
            return Ok(());
        };
        let request = http::Request::post("/mcp")
            .header("host", "127.0.0.1")
            .header("accept", "application/json, text/event-stream")
            .header("content-type", "application/json")
            .header("authorization", header)
            .body(Body::from(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"count"}}"#))
            .unwrap();
        let response = runtime.block_on(router.clone().oneshot(request)).unwrap();
        prop_assert_eq!(response.status(), 401);
        let challenge = response.headers()["www-authenticate"].to_str().unwrap();
        prop_assert!(challenge.starts_with("Bearer "), "{}", challenge);
        prop_assert!(challenge.contains("resource_metadata=\"http://127.0.0.1/.well-known/oauth-protected-resource/mcp\""), "{}", challenge);
        prop_assert_eq!(calls.load(Ordering::SeqCst), 0);
    }
}
