//! The one adapter over a response body: it restores parked executions in
//! SSE events, shows the bytes to the stream's namer, and holds the
//! request's place in the limits until the body is sent or dropped.

use std::pin::Pin;
use std::task::{Context, Poll};

use axum::body::{Body, BodyDataStream};
use axum::response::Response;
use bytes::Bytes;
use futures_util::stream::Fuse;
use futures_util::{Stream, StreamExt};

use super::super::limits::Held;
use super::super::streams::StreamNamer;
use crate::protocol::v2025::park_out::SseRestorer;

/// A response body passed through (see the module docs).
pub(super) struct Tap {
    inner: Fuse<BodyDataStream>,
    events: Option<SseRestorer>,
    namer: Option<StreamNamer>,
    _held: Option<Held>,
}

impl Tap {
    /// An SSE `response` with its events restored, shown to `namer`, and
    /// `held` kept while it is sent.
    pub(super) fn events(
        response: Response,
        namer: Option<StreamNamer>,
        held: Option<Held>,
    ) -> Response {
        let (mut parts, body) = response.into_parts();
        parts.headers.remove(http::header::CONTENT_LENGTH);
        let tap = Self {
            inner: body.into_data_stream().fuse(),
            events: Some(SseRestorer::default()),
            namer,
            _held: held,
        };
        Response::from_parts(parts, Body::from_stream(tap))
    }

    /// `response` unchanged, with `held` kept while it is sent.
    pub(super) fn hold(response: Response, held: Held) -> Response {
        let (parts, body) = response.into_parts();
        let tap = Self {
            inner: body.into_data_stream().fuse(),
            events: None,
            namer: None,
            _held: Some(held),
        };
        Response::from_parts(parts, Body::from_stream(tap))
    }

    /// Shows `chunk` to the namer and passes it on.
    fn pass(&mut self, chunk: Bytes) -> Poll<Option<Result<Bytes, axum::Error>>> {
        if let Some(namer) = &mut self.namer {
            namer.observe(&chunk);
        }
        Poll::Ready(Some(Ok(chunk)))
    }
}

impl Stream for Tap {
    type Item = Result<Bytes, axum::Error>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        loop {
            let chunk = match self.inner.poll_next_unpin(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Some(Ok(chunk))) => chunk,
                Poll::Ready(Some(Err(error))) => return Poll::Ready(Some(Err(error))),
                Poll::Ready(None) => {
                    return match self.events.as_mut().and_then(SseRestorer::finish) {
                        Some(rest) => self.pass(rest),
                        None => Poll::Ready(None),
                    };
                }
            };
            let chunk = match &mut self.events {
                Some(events) => match events.push(chunk) {
                    Some(complete) => complete,
                    // A partial event: wait for its end.
                    None => continue,
                },
                None => chunk,
            };
            return self.pass(chunk);
        }
    }
}
