//! Lets a handler close the SSE stream of its `POST` (SEP-1699 polling).
//!
//! rmcp's session manager closes a request's stream by its HTTP request id,
//! which rmcp hands to no handler; it is, however, the suffix of every SSE
//! event id on that stream (`{index}/{http_request_id}`). So this layer
//! reads it from the first event of a `POST`'s SSE response and gives the
//! request a [`RequestStream`] that closes that stream through the
//! session's handle.
//!
//! When sessions are shared through a store, event ids are the store's and
//! do not name the HTTP request; the stream is then closed here, at the
//! HTTP layer: the response body sends the `retry:` field and ends, while
//! the session goes on storing the stream's events, which the client
//! resumes with `Last-Event-ID` on any replica.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::Request;
use axum::middleware::Next;
use axum::response::Response;
use futures_util::StreamExt;
use http::header;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use tokio::sync::watch;

use crate::protocol::sse_stream::RequestStream;

/// How long closing waits for the stream's first event to name it.
const NAMING_TIMEOUT: Duration = Duration::from_secs(5);

/// Gives each `POST` of a session a [`RequestStream`] (see the module docs).
pub(super) async fn track_request_streams(
    manager: Arc<LocalSessionManager>,
    shared: bool,
    mut request: Request,
    next: Next,
) -> Response {
    let session = super::session_id(request.headers()).map(Arc::<str>::from);
    let Some(session) = session.filter(|_| request.method() == http::Method::POST) else {
        return next.run(request).await;
    };
    if shared {
        return end_in_body(request, next).await;
    }
    let (named_tx, named) = watch::channel(None::<u64>);
    request
        .extensions_mut()
        .insert(RequestStream::new(move |retry| {
            let manager = manager.clone();
            let session = session.clone();
            let mut named = named.clone();
            Box::pin(async move {
                let id = tokio::time::timeout(NAMING_TIMEOUT, named.wait_for(Option::is_some))
                    .await
                    .map_err(|_| "the request has no SSE stream".to_owned())?
                    .map_err(|_| "the request's response has ended".to_owned())?
                    .unwrap_or_default();
                let sessions = manager.sessions.read().await;
                let handle = sessions
                    .get(&session)
                    .ok_or_else(|| format!("session {session} has ended"))?;
                handle
                    .close_sse_stream(id, Some(retry))
                    .await
                    .map_err(|error| error.to_string())
            })
        }));
    let response = next.run(request).await;
    if !is_sse(&response) {
        return response;
    }
    let (parts, body) = response.into_parts();
    let mut seen = Vec::new();
    let body = body.into_data_stream().map(move |chunk| {
        if let Ok(bytes) = &chunk
            && named_tx.borrow().is_none()
            && seen.len() < 4096
        {
            seen.extend_from_slice(bytes);
            if let Some(id) = http_request_id(&seen) {
                named_tx.send_replace(Some(id));
            }
        }
        chunk
    });
    Response::from_parts(parts, Body::from_stream(body))
}

/// Gives the request a [`RequestStream`] that ends its SSE response body
/// after a `retry:` field.
async fn end_in_body(mut request: Request, next: Next) -> Response {
    let (close, closed) = watch::channel(None::<Duration>);
    request
        .extensions_mut()
        .insert(RequestStream::new(move |retry| {
            let sent = close.send(Some(retry));
            Box::pin(async move { sent.map_err(|_| "the request's response has ended".to_owned()) })
        }));
    let response = next.run(request).await;
    if !is_sse(&response) {
        return response;
    }
    let (parts, body) = response.into_parts();
    let body = futures_util::stream::unfold(
        (body.into_data_stream(), closed, false),
        |(mut body, mut closed, ended)| async move {
            if ended {
                return None;
            }
            let retry = async {
                let retry = closed.wait_for(Option::is_some).await.map(|retry| *retry);
                match retry {
                    Ok(retry) => retry,
                    // Nobody can close it any more: the body runs its course.
                    Err(_) => std::future::pending().await,
                }
            };
            tokio::select! {
                biased;
                chunk = body.next() => chunk.map(|chunk| (chunk, (body, closed, false))),
                Some(retry) = retry => {
                    let field = format!("retry: {}\n\n", retry.as_millis());
                    Some((Ok(bytes::Bytes::from(field)), (body, closed, true)))
                }
            }
        },
    );
    Response::from_parts(parts, Body::from_stream(body))
}

/// Whether `response` is an SSE stream.
fn is_sse(response: &Response) -> bool {
    response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.starts_with("text/event-stream"))
}

/// The HTTP request id in the first complete `id:` line of an SSE body.
fn http_request_id(events: &[u8]) -> Option<u64> {
    let text = std::str::from_utf8(events).ok()?;
    let line = text.split('\n').find(|line| line.starts_with("id:"))?;
    if !text.contains(&format!("{line}\n")) {
        return None;
    }
    let id = line.trim_start_matches("id:").trim();
    id.rsplit_once('/')?.1.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_http_request_id_is_the_suffix_of_the_first_event_id() {
        assert_eq!(
            http_request_id(b"id: 0/7\nretry: 3000\ndata: \n\n"),
            Some(7)
        );
        assert_eq!(http_request_id(b"id: 0/7"), None);
        assert_eq!(http_request_id(b"id: 3\n"), None);
        assert_eq!(http_request_id(b"data: x\n"), None);
    }
}
