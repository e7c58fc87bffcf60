//! An upstream speaking raw HTTP/1.1 over TCP, to misbehave in ways a
//! well-behaved server framework will not: silence, trickles, floods,
//! resets.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::Notify;

/// How the upstream answers every request.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Reply {
    /// Reads the request and never answers (the connection stays open).
    Silence,
    /// Sends its status line and headers one byte a second.
    TrickleHead,
    /// Sends its headers at once, then the body one byte a second.
    TrickleBody,
    /// Sends `total` bytes of body as fast as the client reads them, with
    /// a `Content-Length` when `announced`, else until the connection is
    /// closed; stops when the client hangs up.
    Flood { total: u64, announced: bool },
    /// Announces 1,000 bytes, sends 100, then resets the connection.
    ResetMidBody,
}

/// A running raw upstream on 127.0.0.1.
pub(crate) struct RawUpstream {
    /// `http://127.0.0.1:PORT`.
    pub(crate) base: String,
    sent: Arc<AtomicU64>,
    done: Arc<Notify>,
}

impl RawUpstream {
    /// Starts the upstream answering with `reply`.
    pub(crate) async fn start(reply: Reply) -> Self {
        let (listener, base) = crate::http_fixtures::local_listener().await;
        let sent = Arc::new(AtomicU64::new(0));
        let done = Arc::new(Notify::new());
        let (counter, finished) = (sent.clone(), done.clone());
        tokio::spawn(async move {
            let mut held = Vec::new();
            while let Ok((mut socket, _)) = listener.accept().await {
                let (counter, finished) = (counter.clone(), finished.clone());
                if read_head(&mut socket).await.is_none() {
                    continue;
                }
                match reply {
                    Reply::Silence => held.push(socket),
                    _ => {
                        tokio::spawn(async move {
                            answer(socket, reply, &counter).await;
                            finished.notify_one();
                        });
                    }
                }
            }
        });
        Self { base, sent, done }
    }

    /// Waits until the upstream has stopped sending (the client hung up,
    /// or everything was sent): the body bytes it got out.
    pub(crate) async fn finished_sending(&self) -> u64 {
        let waited = tokio::time::timeout(Duration::from_secs(30), self.done.notified()).await;
        assert!(waited.is_ok(), "the upstream was still sending after 30 s");
        self.sent.load(Ordering::SeqCst)
    }
}

/// Reads a request's head (up to its blank line); `None` when the client
/// went away first.
async fn read_head(socket: &mut TcpStream) -> Option<()> {
    let mut head = Vec::new();
    let mut buffer = [0u8; 4096];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        let read = socket.read(&mut buffer).await.ok()?;
        if read == 0 {
            return None;
        }
        head.extend_from_slice(&buffer[..read]);
    }
    Some(())
}

async fn answer(mut socket: TcpStream, reply: Reply, sent: &AtomicU64) {
    let json_head =
        |length: &str| format!("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n{length}\r\n");
    match reply {
        Reply::Silence => {}
        Reply::TrickleHead => {
            for byte in json_head("content-length: 2\r\n").bytes().chain(*b"{}") {
                if socket.write_all(&[byte]).await.is_err() {
                    return;
                }
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        }
        Reply::TrickleBody => {
            let head = json_head("content-length: 64\r\n");
            if socket.write_all(head.as_bytes()).await.is_err() {
                return;
            }
            for _ in 0..64 {
                if socket.write_all(b" ").await.is_err() {
                    return;
                }
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        }
        Reply::Flood { total, announced } => {
            let length = if announced {
                format!("content-length: {total}\r\n")
            } else {
                "connection: close\r\n".to_owned()
            };
            if socket
                .write_all(json_head(&length).as_bytes())
                .await
                .is_err()
            {
                return;
            }
            let chunk = vec![b' '; 64 * 1024];
            let mut left = total;
            while left > 0 {
                let size = usize::try_from(left.min(chunk.len() as u64)).unwrap_or(chunk.len());
                if socket.write_all(&chunk[..size]).await.is_err() {
                    return;
                }
                sent.fetch_add(size as u64, Ordering::SeqCst);
                left -= size as u64;
            }
        }
        Reply::ResetMidBody => {
            let head = json_head("content-length: 1000\r\n");
            let _ = socket.write_all(head.as_bytes()).await;
            let _ = socket.write_all(&[b' '; 100]).await;
            let _ = socket.flush().await;
            // A zero linger turns the close into a reset (RST).
            let _ = socket.set_zero_linger();
        }
    }
}
