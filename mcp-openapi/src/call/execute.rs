//! The handler behind every generated tool: validate the arguments, build
//! the request, authenticate, send (with retries, a timeout and
//! cancellation), and map the response, keeping only the result's
//! [`fields`] the call asks for. The only module that touches the network.

mod fields;

use std::sync::{Arc, LazyLock};
use std::time::Duration;

use mcp_core::{
    BoxFuture, CallToolResult, ToolCallContext,
    schema::Validator,
    schema::compiled::{CacheSlot, CompiledCache},
    schema::json_len,
    tool::LazyArgumentCheck,
    tool::ToolHandler,
};
use serde_json::Value;
use tracing::Instrument;

use crate::call::authorizer::{Applied, bearer};
use crate::call::client_config::ClientConfig;
use crate::call::error::CallError;
use crate::call::passthrough::incoming_authorization;
use crate::call::request::{PreparedRequest, build_request};
use crate::call::response::{Check, Mapping, OutputSchema, ReadResponse, map_response, redact};
use crate::call::retry::Attempt;
use crate::call::server_url::resolve_base_url;
use crate::call::telemetry::UpstreamTrace;
use crate::ir::{HttpRoute, RequestBinding, RequestPart};

/// The [`ToolHandler`] of a generated tool: performs the HTTP call its
/// route describes. Cheap to clone; works for any session context `C`.
#[derive(Clone, Debug)]
pub struct HttpToolHandler {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    route: Arc<HttpRoute>,
    binding: RequestBinding,
    config: Arc<ClientConfig>,
    timeout: Option<Duration>,
    input: LazyArgumentCheck,
    /// The output schema compiled, on the first call that needs it (and
    /// again after it was dropped, see [`OUTPUT_CHECKS`]).
    output: CacheSlot<Option<(Validator, bool)>>,
}

/// How many bytes of output schemas (as JSON) the compiled validators kept
/// at once are made of: those of the tools called least recently go first.
pub const KEPT_OUTPUT_SCHEMA_BYTES: usize = 16 << 20;

/// The compiled output schemas of every generated tool of the process.
static OUTPUT_CHECKS: LazyLock<CompiledCache<Option<(Validator, bool)>>> =
    LazyLock::new(|| CompiledCache::new(KEPT_OUTPUT_SCHEMA_BYTES));

impl HttpToolHandler {
    /// The handler of `route`, whose tool's input properties map onto the
    /// request as `binding` says, calling through `config`.
    pub fn new(route: Arc<HttpRoute>, binding: RequestBinding, config: Arc<ClientConfig>) -> Self {
        Self {
            inner: Arc::new(Inner {
                route,
                binding,
                config,
                timeout: None,
                input: LazyArgumentCheck::new(false),
                output: OUTPUT_CHECKS.slot(),
            }),
        }
    }

    /// This tool's timeout, instead of the configuration's default.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        match Arc::get_mut(&mut self.inner) {
            Some(inner) => inner.timeout = Some(timeout),
            None => {
                let mut inner = (*self.inner).clone();
                inner.timeout = Some(timeout);
                self.inner = Arc::new(inner);
            }
        }
        self
    }

    /// Whether calls may carry top-level arguments the tool's input schema
    /// does not name; by default they are refused, naming each one, as for
    /// every kind of tool (see `mcp_core::arguments`).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use mcp_openapi::{ClientConfig, OpenApi, call::HttpToolHandler};
    ///
    /// let api = OpenApi::from_slice(br#"{"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
    ///     "paths": {"/pets": {"get": {"operationId": "list_pets", "responses": {"200": {"description": "ok"}}}}}}"#)?;
    /// let generated = api.generator().generate()?;
    /// let config = Arc::new(ClientConfig::builder().base_url("http://127.0.0.1:9").build()?);
    /// let pets = &generated.tools[0];
    /// let handler = HttpToolHandler::new(pets.route.clone(), pets.binding.clone(), config)
    ///     .allow_unknown_arguments(true);
    /// let def: mcp_core::ToolDef = mcp_core::ToolDef::new(pets.tool.clone(), handler)?;
    /// # let _ = def;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn allow_unknown_arguments(mut self, allow: bool) -> Self {
        match Arc::get_mut(&mut self.inner) {
            Some(inner) => inner.input = LazyArgumentCheck::new(allow),
            None => {
                let mut inner = (*self.inner).clone();
                inner.input = LazyArgumentCheck::new(allow);
                self.inner = Arc::new(inner);
            }
        }
        self
    }

    /// The route this handler calls.
    pub fn route(&self) -> &HttpRoute {
        &self.inner.route
    }
}

impl Clone for Inner {
    fn clone(&self) -> Self {
        Self {
            route: self.route.clone(),
            binding: self.binding.clone(),
            config: self.config.clone(),
            timeout: self.timeout,
            input: self.input.clone(),
            output: OUTPUT_CHECKS.slot(),
        }
    }
}

impl<C: Send + Sync + 'static> ToolHandler<C> for HttpToolHandler {
    fn call(&self, cx: ToolCallContext<C>) -> BoxFuture<'static, CallToolResult> {
        let inner = self.inner.clone();
        Box::pin(async move {
            let timeout = inner.timeout.unwrap_or(inner.config.timeout);
            let outcome = tokio::select! {
                outcome = tokio::time::timeout(timeout, inner.run(&cx)) => {
                    outcome.unwrap_or_else(|_| Err(CallError::Timeout(timeout.as_millis())))
                }
                () = cx.cancelled() => Err(CallError::Cancelled),
            };
            outcome.unwrap_or_else(|error| CallToolResult::error(error.to_string()))
        })
    }
}

impl Inner {
    async fn run<C>(&self, cx: &ToolCallContext<C>) -> Result<CallToolResult, CallError> {
        let tool = cx.tool();
        let mut arguments = self.input.check(
            &tool.name,
            &tool.input_schema,
            cx.request().arguments.clone(),
        )?;
        // The fields to keep of the result are the handler's, never sent.
        let fields = fields::requested(
            self.binding
                .arguments
                .iter()
                .find(|argument| argument.target == RequestPart::ResultFields)
                .and_then(|argument| arguments.shift_remove(&argument.property)),
        );

        let config = &self.config;
        let base = resolve_base_url(
            &self.route.servers,
            config.base_url.as_ref(),
            &config.server_variables,
        )?;
        let mut request = build_request(&self.route, &self.binding, &base, &arguments)?;
        for (name, value) in &config.headers {
            request.headers.insert(name.clone(), value.clone());
        }
        let applied = config
            .authorizer
            .apply(&config.client, &base, &self.route.security, &mut request)
            .await?;
        let mut secrets = Vec::new();
        if let Some(incoming) = config
            .passthrough_authorization
            .then(incoming_authorization)
            .flatten()
        {
            let mut value = http::HeaderValue::from_str(incoming.expose())
                .map_err(|_| CallError::InvalidHeader("authorization".to_owned()))?;
            value.set_sensitive(true);
            request.headers.insert(http::header::AUTHORIZATION, value);
            let credential = incoming
                .expose()
                .split_once(' ')
                .map_or(incoming.expose(), |(_, c)| c);
            secrets.extend([incoming.expose().to_owned(), credential.to_owned()]);
        }
        if let Some(hook) = &config.upstream_credentials {
            let caller = cx.scope().auth().ok_or_else(|| {
                CallError::UpstreamCredentials(
                    "the call has no authenticated caller to act for".to_owned(),
                )
            })?;
            let token = hook
                .0
                .bearer_token(caller)
                .await
                .map_err(CallError::UpstreamCredentials)?;
            bearer(&mut request, &token)
                .map_err(|()| CallError::InvalidHeader("authorization".to_owned()))?;
            secrets.push(token);
        }
        let response = self.exchange(&base, request.clone(), applied).await?;
        secrets.extend(config.authorizer.secrets().await);
        secrets.retain(|s| !s.is_empty());

        let compiled = self.output.get_or_make(|| {
            let Some(schema) = cx.tool().output_schema.as_ref() else {
                return (0, None);
            };
            // Assembled for the compiler only: nothing is kept per schema.
            let output = OutputSchema::of(&schema.to_arc());
            let compiled = Validator::new(&output.declared)
                .ok()
                .map(|v| (v, output.tolerant));
            (json_len(schema), compiled)
        });
        let output: &Option<(Validator, bool)> = &compiled;
        let check = |candidate: &Value| {
            output
                .as_ref()
                .map(|(v, _)| v.violations(candidate))
                .unwrap_or_default()
        };
        let mut resource = request.url.clone();
        resource.set_query(None);
        resource.set_fragment(None);
        let mapping = Mapping {
            wrapped: self.binding.output_wrapped,
            check: output
                .as_ref()
                .map(|(_, tolerant)| (&check as Check<'_>, *tolerant)),
            resource_uri: resource.as_str(),
        };
        let mut result = map_response(&response, &mapping);
        if let Some(fields) = &fields {
            fields::project_result(&mut result, fields, self.binding.output_wrapped);
        }
        redact(&mut result, &secrets);
        Ok(result)
    }

    /// Sends with retries (idempotent methods only) and one re-authentication
    /// when an OAuth2 token is refused, in a span of its own whose trace
    /// context goes upstream (see [`crate::call::telemetry`]).
    async fn exchange(
        &self,
        base: &url::Url,
        request: PreparedRequest,
        applied: Applied,
    ) -> Result<ReadResponse, CallError> {
        let trace = UpstreamTrace::start(&self.route, &request.method, base);
        let mut resends = 0;
        let outcome = self
            .attempts(base, request, applied, &trace, &mut resends)
            .instrument(trace.span().clone())
            .await;
        match &outcome {
            Ok(response) => trace.finish(Some(response.status), resends, None),
            Err(error) => trace.finish(None, resends, Some(error.kind())),
        }
        outcome
    }

    /// The attempts of [`Self::exchange`], counting the resends.
    async fn attempts(
        &self,
        base: &url::Url,
        mut request: PreparedRequest,
        applied: Applied,
        trace: &UpstreamTrace,
        resends: &mut u32,
    ) -> Result<ReadResponse, CallError> {
        let config = &self.config;
        let mut retry = 0;
        let mut reauthenticated = applied.oauth_schemes.is_empty();
        let mut first = true;
        loop {
            if !std::mem::take(&mut first) {
                *resends += 1;
            }
            let mut headers = request.headers.clone();
            trace.propagate(&mut headers);
            let mut builder = config
                .client
                .request(request.method.clone(), request.url.clone())
                .headers(headers);
            if let Some(body) = &request.body {
                builder = builder.body(body.clone());
            }
            let response = match builder.send().await {
                Ok(response) => response,
                Err(error) => {
                    match config
                        .retry
                        .delay(&request.method, retry, Attempt::ConnectionError)
                    {
                        Some(delay) if error.is_connect() || error.is_request() => {
                            tokio::time::sleep(delay).await;
                            retry += 1;
                            continue;
                        }
                        _ => return Err(CallError::transport(&error)),
                    }
                }
            };
            let status = response.status();
            if status == http::StatusCode::UNAUTHORIZED && !reauthenticated {
                reauthenticated = true;
                for scheme in &applied.oauth_schemes {
                    config.authorizer.invalidate(scheme).await;
                }
                config
                    .authorizer
                    .apply(&config.client, base, &self.route.security, &mut request)
                    .await?;
                continue;
            }
            if let Some(delay) = config.retry.delay(
                &request.method,
                retry,
                Attempt::Response(status, response.headers()),
            ) {
                drop(response);
                tokio::time::sleep(delay).await;
                retry += 1;
                continue;
            }
            return read_capped(response, config.max_response_bytes).await;
        }
    }
}

/// Reads the body. A success longer than `cap` bytes is refused, unread
/// when its `Content-Length` says so; of a failure, the first `cap` bytes
/// are kept for the error's excerpt. The rest is never read (the connection
/// is dropped), so no response holds more than `cap` bytes in memory.
async fn read_capped(
    mut response: reqwest::Response,
    cap: usize,
) -> Result<ReadResponse, CallError> {
    let status = response.status();
    let too_large = || CallError::ResponseTooLarge(cap);
    let announced = response.content_length();
    if status.is_success() && announced.is_some_and(|n| n > cap as u64) {
        return Err(too_large());
    }
    let headers = response.headers().clone();
    let url = response.url().clone();
    let expected = announced.and_then(|n| usize::try_from(n).ok()).unwrap_or(0);
    let mut body = Vec::with_capacity(expected.min(cap));
    let mut truncated = None;
    while let Some(chunk) = response
        .chunk()
        .await
        .map_err(|e| CallError::transport(&e.with_url(url.clone())))?
    {
        let room = cap.saturating_sub(body.len());
        if chunk.len() > room {
            if status.is_success() {
                return Err(too_large());
            }
            body.extend_from_slice(&chunk[..room]);
            truncated = Some(cap);
            break;
        }
        body.extend_from_slice(&chunk);
    }
    Ok(ReadResponse {
        status,
        headers,
        body,
        truncated,
    })
}
