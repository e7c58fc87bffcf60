//! Lets a handler close the SSE stream of its `POST` (SEP-1699 polling).
//!
//! rmcp's session manager closes a request's stream by its HTTP request id,
//! which rmcp hands to no handler; it is, however, the suffix of every SSE
//! event id on that stream (`{index}/{http_request_id}`). So a
//! [`StreamNamer`] reads it from the first event of a `POST`'s SSE response
//! and gives the request a [`RequestStream`] that closes that stream
//! through the session's handle.
//!
//! When sessions are shared through a store, event ids are the store's and
//! do not name the HTTP request; the stream is then closed here, at the
//! HTTP layer: the response body sends the `retry:` field and ends, while
//! the session goes on storing the stream's events, which the client
//! resumes with `Last-Event-ID` on any replica.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use axum::body::Body;
use axum::extract::Request;
use axum::response::Response;
use futures_util::StreamExt;
use http::header;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use tokio::sync::{Notify, watch};

use crate::protocol::sse_stream::RequestStream;

/// How long closing waits for the stream's first event to name it.
const NAMING_TIMEOUT: Duration = Duration::from_secs(5);

/// The most bytes of a stream read for its name.
const NAMING_WINDOW: usize = 4096;

/// Learns which HTTP request id rmcp gave a `POST`'s SSE stream, from the
/// bytes of its response body (see the module docs).
pub(super) struct StreamNamer {
    name: Arc<StreamName>,
    seen: Vec<u8>,
}

/// The HTTP request id of one stream, once its first event is seen.
#[derive(Default)]
struct StreamName {
    id: OnceLock<u64>,
    found: Notify,
}

impl StreamName {
    /// The id, waiting up to [`NAMING_TIMEOUT`] for the first event.
    async fn wait(&self) -> Result<u64, String> {
        let deadline = tokio::time::Instant::now() + NAMING_TIMEOUT;
        loop {
            let found = self.found.notified();
            if let Some(id) = self.id.get() {
                return Ok(*id);
            }
            tokio::time::timeout_at(deadline, found)
                .await
                .map_err(|_| "the request has no SSE stream".to_owned())?;
        }
    }
}

impl StreamNamer {
    /// Gives `request` (a `POST` of `session`) a [`RequestStream`] that
    /// closes its SSE stream through `manager`, once the namer returned has
    /// seen the stream's first event.
    pub(super) fn attach(
        request: &mut Request,
        manager: Arc<LocalSessionManager>,
        session: Arc<str>,
    ) -> Self {
        let name = Arc::new(StreamName::default());
        let named = name.clone();
        request
            .extensions_mut()
            .insert(RequestStream::new(move |retry| {
                let manager = manager.clone();
                let session = session.clone();
                let named = named.clone();
                Box::pin(async move {
                    let id = named.wait().await?;
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
        Self {
            name,
            seen: Vec::new(),
        }
    }

    /// Reads `chunk`, the next bytes of the SSE body, until the stream is
    /// named (or its first bytes name nothing).
    pub(super) fn observe(&mut self, chunk: &[u8]) {
        if self.name.id.get().is_some() || self.seen.len() >= NAMING_WINDOW {
            return;
        }
        let id = if self.seen.is_empty() {
            http_request_id(chunk)
        } else {
            self.seen.extend_from_slice(chunk);
            http_request_id(&self.seen)
        };
        match id {
            Some(id) => {
                let _ = self.name.id.set(id);
                self.name.found.notify_waiters();
                self.seen = Vec::new();
            }
            None if self.seen.is_empty() => self.seen.extend_from_slice(chunk),
            None => {}
        }
    }
}

/// Gives `request` a [`RequestStream`] that ends its SSE response body
/// after a `retry:` field (sessions shared through a store); the returned
/// closure puts the ending into the response.
pub(super) fn end_in_body(request: &mut Request) -> impl FnOnce(Response) -> Response + use<> {
    let (close, closed) = watch::channel(None::<Duration>);
    request
        .extensions_mut()
        .insert(RequestStream::new(move |retry| {
            let sent = close.send(Some(retry));
            Box::pin(async move { sent.map_err(|_| "the request's response has ended".to_owned()) })
        }));
    move |response| {
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
}

/// Whether `response` is an SSE stream.
pub(super) fn is_sse(response: &Response) -> bool {
    response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.starts_with("text/event-stream"))
}

/// The HTTP request id in the first complete `id:` line of an SSE body.
fn http_request_id(events: &[u8]) -> Option<u64> {
    let line = events
        .split_inclusive(|byte| *byte == b'\n')
        .find(|line| line.starts_with(b"id:"))?
        .strip_suffix(b"\n")?;
    let id = std::str::from_utf8(&line[3..]).ok()?.trim();
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
