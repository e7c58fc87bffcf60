//! One session over stdio or any pair of byte streams.

use rmcp::ServiceExt;
use rmcp::transport::IntoTransport;
use tokio::io::{AsyncRead, AsyncWrite};

use crate::error::ServeError;
use crate::protocol::handler::SessionHandler;
use crate::protocol::v2025::park_in::ParkingReader;
use crate::protocol::v2025::park_out::RestoringTransport;
use crate::server::Server;
use crate::server::session::TransportKind;

#[cfg_attr(docsrs, doc(cfg(feature = "stdio")))]
impl<C: Send + Sync + 'static> Server<C> {
    /// Serves one session over standard input and output until the client
    /// closes it. Nothing but protocol messages is written to stdout; log
    /// through `tracing` to stderr.
    ///
    /// With the `http` feature too (which brings tokio's `net`), pipes are
    /// read and written on tokio's reactor (rmcp's `stdio_pipes`); with
    /// `stdio` alone, through tokio's blocking standard streams.
    pub async fn serve_stdio(self) -> Result<(), ServeError> {
        #[cfg(feature = "http")]
        let (reader, writer) = rmcp::transport::stdio_pipes();
        #[cfg(not(feature = "http"))]
        let (reader, writer) = (tokio::io::stdin(), tokio::io::stdout());
        self.serve_rw(reader, writer, TransportKind::Stdio).await
    }

    /// Serves one session over a reader and a writer (for example the two
    /// halves of a `tokio::io::duplex`) until the client closes it.
    pub async fn serve_io<R, W>(self, reader: R, writer: W) -> Result<(), ServeError>
    where
        R: AsyncRead + Send + Unpin + 'static,
        W: AsyncWrite + Send + Unpin + 'static,
    {
        self.serve_rw(reader, writer, TransportKind::Io).await
    }

    async fn serve_rw<R, W>(
        self,
        reader: R,
        writer: W,
        kind: TransportKind,
    ) -> Result<(), ServeError>
    where
        R: AsyncRead + Send + Unpin + 'static,
        W: AsyncWrite + Send + Unpin + 'static,
    {
        let transport =
            RestoringTransport::new(IntoTransport::<_, std::io::Error, _>::into_transport((
                ParkingReader::new(reader),
                writer,
            )));
        let running = SessionHandler::new(self.state().clone(), kind)
            .serve(transport)
            .await
            .map_err(|error| ServeError::Session(error.to_string()))?;
        running
            .waiting()
            .await
            .map_err(|error| ServeError::Session(format!("the session task failed: {error}")))?;
        Ok(())
    }
}
