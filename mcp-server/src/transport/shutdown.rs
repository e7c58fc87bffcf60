//! Waiting for SIGINT or SIGTERM.

/// Completes on SIGINT (Ctrl-C) or SIGTERM. On Unix the handlers are
/// installed when this is called, not when the future is first polled, so
/// a signal sent right after (say, once a banner is printed) is not missed.
pub(crate) fn signal() -> impl Future<Output = ()> + Send + 'static {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let interrupt = signal(SignalKind::interrupt());
        let terminate = signal(SignalKind::terminate());
        async move {
            let (mut interrupt, mut terminate) = match (interrupt, terminate) {
                (Ok(interrupt), Ok(terminate)) => (interrupt, terminate),
                (Err(error), _) | (_, Err(error)) => {
                    tracing::error!(%error, "cannot listen for SIGINT and SIGTERM");
                    return std::future::pending().await;
                }
            };
            tokio::select! {
                _ = interrupt.recv() => tracing::info!("SIGINT received"),
                _ = terminate.recv() => tracing::info!("SIGTERM received"),
            }
        }
    }
    #[cfg(not(unix))]
    async {
        match tokio::signal::ctrl_c().await {
            Ok(()) => tracing::info!("SIGINT received"),
            Err(error) => {
                tracing::error!(%error, "cannot listen for SIGINT");
                std::future::pending::<()>().await;
            }
        }
    }
}
