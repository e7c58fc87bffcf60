//! A local HTTP server on 127.0.0.1 that records every request it gets and
//! answers with a response chosen by the test.

use std::sync::{Arc, Mutex};

use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, Method, Request, StatusCode};
use axum::response::{IntoResponse, Response};

/// One request as the server saw it.
#[derive(Clone, Debug)]
pub(crate) struct Recorded {
    pub(crate) method: Method,
    /// The raw request target (path and query), as sent.
    pub(crate) target: String,
    pub(crate) headers: HeaderMap,
    pub(crate) body: Bytes,
}

impl Recorded {
    /// The raw query string (empty when there is none).
    pub(crate) fn query(&self) -> &str {
        self.target.split_once('?').map(|(_, q)| q).unwrap_or("")
    }

    /// The raw path.
    pub(crate) fn path(&self) -> &str {
        self.target
            .split_once('?')
            .map(|(p, _)| p)
            .unwrap_or(&self.target)
    }

    /// A header as text.
    pub(crate) fn header(&self, name: &str) -> Option<String> {
        let values: Vec<String> = self
            .headers
            .get_all(name)
            .iter()
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
            .collect();
        (!values.is_empty()).then(|| values.join(", "))
    }
}

type Responder = Arc<dyn Fn(&Recorded) -> Response + Send + Sync>;

/// A running recording server.
#[derive(Clone)]
pub(crate) struct Recorder {
    pub(crate) base: String,
    seen: Arc<Mutex<Vec<Recorded>>>,
}

impl Recorder {
    /// Starts a server answering `200 {"ok":true}`.
    pub(crate) async fn start() -> Self {
        Self::with(|_| {
            (
                StatusCode::OK,
                [("content-type", "application/json")],
                r#"{"ok":true}"#,
            )
                .into_response()
        })
        .await
    }

    /// Starts a server answering with `respond`.
    pub(crate) async fn with(
        respond: impl Fn(&Recorded) -> Response + Send + Sync + 'static,
    ) -> Self {
        Self::on("127.0.0.1", respond).await
    }

    /// Starts a server on the loopback address `ip` (any of `127.0.0.0/8`),
    /// answering with `respond`.
    pub(crate) async fn on(
        ip: &str,
        respond: impl Fn(&Recorded) -> Response + Send + Sync + 'static,
    ) -> Self {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let respond: Responder = Arc::new(respond);
        let listener = tokio::net::TcpListener::bind((ip, 0)).await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        let record = seen.clone();
        let app = axum::Router::new().fallback(move |request: Request<Body>| {
            let record = record.clone();
            let respond = respond.clone();
            async move {
                let (parts, body) = request.into_parts();
                let body = axum::body::to_bytes(body, usize::MAX)
                    .await
                    .unwrap_or_default();
                let target = parts
                    .uri
                    .path_and_query()
                    .map(|pq| pq.as_str().to_owned())
                    .unwrap_or_default();
                let recorded = Recorded {
                    method: parts.method,
                    target,
                    headers: parts.headers,
                    body,
                };
                let response = respond(&recorded);
                record.lock().expect("lock").push(recorded);
                response
            }
        });
        tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Self {
            base: format!("http://{addr}"),
            seen,
        }
    }

    /// Every request so far.
    pub(crate) fn requests(&self) -> Vec<Recorded> {
        self.seen.lock().expect("lock").clone()
    }

    /// The last request; panics when there was none.
    pub(crate) fn last(&self) -> Recorded {
        self.requests().pop().expect("the server got no request")
    }
}
