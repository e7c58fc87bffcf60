//! Newline-delimited JSON-RPC (stdio and other byte streams) with
//! `params.task` parked before rmcp reads it.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use futures_util::{Stream, StreamExt};
use tokio::io::{AsyncBufRead, AsyncRead, ReadBuf};
use tokio_util::codec::{FramedRead, LinesCodec, LinesCodecError};
use tokio_util::io::StreamReader;

use super::park_in_bytes;

type Lines = Pin<Box<dyn Stream<Item = io::Result<Bytes>> + Send>>;

/// Wraps the reading half of a newline-delimited JSON-RPC stream so that
/// `params.task` survives rmcp's parser.
pub(crate) struct ParkingReader {
    inner: StreamReader<Lines, Bytes>,
}

impl ParkingReader {
    pub(crate) fn new<R: AsyncRead + Send + Unpin + 'static>(reader: R) -> Self {
        let lines = FramedRead::new(reader, LinesCodec::new()).map(|line| {
            line.map(|line| {
                let mut bytes = park_in_bytes(Bytes::from(line)).to_vec();
                bytes.push(b'\n');
                Bytes::from(bytes)
            })
            .map_err(|error| match error {
                LinesCodecError::Io(error) => error,
                other => io::Error::new(io::ErrorKind::InvalidData, other),
            })
        });
        Self {
            inner: StreamReader::new(Box::pin(lines) as Lines),
        }
    }
}

impl AsyncRead for ParkingReader {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl AsyncBufRead for ParkingReader {
    fn poll_fill_buf(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<&[u8]>> {
        Pin::new(&mut self.get_mut().inner).poll_fill_buf(cx)
    }

    fn consume(mut self: Pin<&mut Self>, amt: usize) {
        Pin::new(&mut self.inner).consume(amt);
    }
}
