//! Streamable HTTP: the `/mcp` endpoint, its checks, and graceful shutdown.

pub mod auth;
mod config;
mod endpoint;
mod jsonrpc;
mod limits;
#[cfg(feature = "oauth")]
mod protected;
mod rebinding;
#[cfg(feature = "redis")]
mod shared;
mod streams;

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

pub use self::config::HttpConfig;
use self::endpoint::{Endpoint, EndpointLayer};
use self::rebinding::Rebinding;
use crate::error::ServeError;
use crate::protocol::handler::SessionHandler;
use crate::protocol::task::limit as task_limit;
use crate::server::Server;
use crate::server::session::TransportKind;

#[cfg_attr(docsrs, doc(cfg(feature = "http")))]
impl<C: Send + Sync + 'static> Server<C> {
    /// The MCP endpoint as an axum [`Router`] to mount in an existing app
    /// (serving [`HttpConfig::path`], `/mcp` by default), with the Host,
    /// Origin, authorization and body-size checks of `config`, its limits on
    /// sessions and requests in flight (and, with OAuth, the Protected
    /// Resource Metadata routes).
    ///
    /// Cancel [`HttpConfig::cancellation_token`] to end every session.
    ///
    /// With OAuth, a tool that passes its caller's credentials through to
    /// its upstream API (see
    /// [`ToolDef::forwards_caller_credentials`](mcp_core::ToolDef::forwards_caller_credentials))
    /// is refused: [`ServeError::CredentialPassthrough`] names every such
    /// tool (one swapped in later is refused when called).
    pub fn router(&self, config: &HttpConfig) -> Result<Router, ServeError> {
        #[cfg(feature = "oauth")]
        if let Some(auth::Mode::OAuth(_)) = config.auth.as_ref().map(|auth| &auth.mode) {
            protected::refuse_credential_passthrough(self.state())?;
        }
        let state = self.state().clone();
        if !config.stateless {
            task_limit::set_per_session(&state, config.max_tasks_per_session);
        }
        #[cfg_attr(
            not(feature = "redis"),
            expect(unused_mut, reason = "the store is set with redis")
        )]
        let mut rmcp_config = StreamableHttpServerConfig::default()
            // The endpoint checks `Host` and `Origin` itself (see `rebinding`).
            .disable_allowed_hosts()
            .disable_allowed_origins()
            .with_legacy_session_mode(!config.stateless)
            .with_json_response(config.stateless)
            .with_max_request_body_bytes(config.max_body_bytes)
            .with_cancellation_token(config.cancellation.clone());
        let mut sessions = LocalSessionManager::default();
        sessions.session_config.keep_alive = Some(config.session_idle_timeout);
        #[cfg(feature = "redis")]
        let store = self.state().store().filter(|_| !config.stateless).cloned();
        #[cfg(feature = "redis")]
        if let Some(store) = &store {
            store.set_idle_ttl(config.session_idle_timeout);
            sessions = sessions.with_event_store(Arc::new(shared::RedisEventStore(store.clone())));
            rmcp_config.session_store = Some(Arc::new(shared::RedisSessionStore(store.clone())));
        }
        let sessions = Arc::new(sessions);
        let limits = limits::Limits::new(sessions.clone(), config);
        #[cfg(feature = "redis")]
        let limits = limits.shared_through(store.clone());
        let limits = Arc::new(limits);
        let handler = move || Ok(SessionHandler::new(state.clone(), TransportKind::Http));
        let router = Router::new();
        #[cfg(feature = "redis")]
        let shared = store.is_some();
        #[cfg(not(feature = "redis"))]
        let shared = false;
        #[cfg(feature = "redis")]
        let router = match store {
            Some(store) => {
                let service = StreamableHttpService::new(
                    handler,
                    Arc::new(shared::SharedSessions {
                        local: sessions.clone(),
                        store: store.clone(),
                    }),
                    rmcp_config,
                );
                let updates = shared::ResourceUpdates::new(store.clone());
                self.state().listeners().register(&updates);
                let gate = shared::Gate::new(store, sessions.clone(), config.cancellation.clone());
                mount(router, &config.path, service).layer(axum::middleware::from_fn(
                    move |request, next| {
                        // The listener lives as long as the router.
                        let _updates = &updates;
                        shared::check(gate.clone(), request, next)
                    },
                ))
            }
            None => mount(
                router,
                &config.path,
                StreamableHttpService::new(handler, sessions.clone(), rmcp_config),
            ),
        };
        #[cfg(not(feature = "redis"))]
        let router = mount(
            router,
            &config.path,
            StreamableHttpService::new(handler, sessions.clone(), rmcp_config),
        );
        let router = router.layer(EndpointLayer(Arc::new(Endpoint {
            rebinding: Rebinding::new(&config.allowed_hosts, &config.allowed_origins),
            limits,
            sessions,
            shared,
            max_body_bytes: config.max_body_bytes,
        })));
        Ok(match config.auth.as_ref().map(|auth| &auth.mode) {
            None => router,
            Some(auth::Mode::Bearer(token)) => router.layer(axum::middleware::from_fn_with_state(
                token.clone(),
                auth::bearer::require_bearer,
            )),
            #[cfg(feature = "oauth")]
            Some(auth::Mode::OAuth(verifier)) => protected::protect(
                router,
                verifier.clone(),
                self.state().clone(),
                config.max_body_bytes,
            ),
        })
    }

    /// Serves Streamable HTTP at `http://{addr}/mcp` with the default
    /// [`HttpConfig`] until SIGINT or SIGTERM.
    pub async fn serve_http(self, addr: SocketAddr) -> Result<(), ServeError> {
        self.bind_http(addr, HttpConfig::default())
            .await?
            .run()
            .await
    }

    /// Binds the listening socket (port 0 picks a free port) without serving
    /// yet, so the caller can learn the address first.
    pub async fn bind_http(
        self,
        addr: SocketAddr,
        config: HttpConfig,
    ) -> Result<HttpServer, ServeError> {
        let listener = TcpListener::bind(addr)
            .await
            .map_err(|error| ServeError::Bind {
                addr: addr.to_string(),
                error,
            })?;
        let local_addr = listener.local_addr().map_err(|error| ServeError::Io {
            context: "reading the bound address",
            error,
        })?;
        Ok(HttpServer {
            router: self.router(&config)?,
            listener,
            local_addr,
            config,
        })
    }
}

/// A bound Streamable HTTP server, ready to [`run`](Self::run).
#[derive(Debug)]
pub struct HttpServer {
    listener: TcpListener,
    local_addr: SocketAddr,
    router: Router,
    config: HttpConfig,
}

impl HttpServer {
    /// The bound address.
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// The endpoint URL, for example `http://127.0.0.1:8000/mcp`.
    pub fn url(&self) -> String {
        format!("http://{}{}", self.local_addr, self.config.path)
    }

    /// Serves until SIGINT or SIGTERM, then stops accepting connections and
    /// lets in-flight calls finish (up to [`HttpConfig::shutdown_grace`]).
    ///
    /// The signal handlers are installed by this call (on Unix), before the
    /// returned future is awaited: a URL printed in between cannot race a
    /// SIGTERM sent by whoever read it. Call it inside a Tokio runtime.
    pub fn run(self) -> impl Future<Output = Result<(), ServeError>> + Send {
        let shutdown = super::shutdown::signal();
        self.run_until(shutdown)
    }

    /// Serves until `shutdown` completes, then shuts down gracefully as
    /// [`run`](Self::run) does.
    pub async fn run_until(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> Result<(), ServeError> {
        let sessions: CancellationToken = self.config.cancellation.clone();
        let grace = self.config.shutdown_grace;
        let end_sessions = sessions.clone();
        let graceful = async move {
            shutdown.await;
            tracing::info!("shutting down: no new connections, finishing in-flight calls");
            tokio::spawn(async move {
                tokio::time::sleep(grace).await;
                end_sessions.cancel();
            });
        };
        tracing::info!(url = %self.url(), "serving MCP over Streamable HTTP");
        let served = axum::serve(self.listener, self.router)
            .with_graceful_shutdown(graceful)
            .await;
        sessions.cancel();
        served.map_err(|error| ServeError::Io {
            context: "serving HTTP",
            error,
        })
    }
}

/// The `Mcp-Session-Id` a request names, if it is text.
fn session_id(headers: &http::HeaderMap) -> Option<&str> {
    headers
        .get(rmcp::transport::common::http_header::HEADER_SESSION_ID)
        .and_then(|value| value.to_str().ok())
}

/// Routes the endpoint `path` to `service`, and the paths that select a
/// view of the tools for clients that cannot send headers:
/// `{path}/readonly`, `{path}/x/{toolsets}` and `{path}/x/{toolsets}/readonly`.
fn mount<S>(router: Router, path: &str, service: S) -> Router
where
    S: tower::Service<axum::extract::Request, Error = std::convert::Infallible>
        + Clone
        + Send
        + Sync
        + 'static,
    S::Response: axum::response::IntoResponse + 'static,
    S::Future: Send + 'static,
{
    let base = path.trim_end_matches('/');
    router
        .route_service(path, service.clone())
        .route_service(&format!("{base}/readonly"), service.clone())
        .route_service(&format!("{base}/x/{{toolsets}}"), service.clone())
        .route_service(&format!("{base}/x/{{toolsets}}/readonly"), service)
}
