//! A resource (or resource template) together with the code that reads it.

use std::any::Any;
use std::collections::BTreeMap;
use std::fmt::{self, Display};
use std::future::Future;
use std::sync::Arc;

use base64::Engine as _;

use crate::{
    BoxFuture, Completer, Meta, ReadResourceResult, Resource, ResourceContents, ResourceTemplate,
    ToolError, UriTemplate, UriTemplateError,
};

/// Why a resource could not be defined or read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ResourceError {
    /// No resource has this URI (JSON-RPC error -32002 on the wire).
    #[error("resource `{uri}` not found")]
    NotFound {
        /// The requested URI.
        uri: String,
    },
    /// The handler failed.
    #[error("reading resource `{uri}` failed: {message}")]
    Read {
        /// The requested URI.
        uri: String,
        /// What went wrong.
        message: String,
    },
    /// The URI template does not parse.
    #[error(transparent)]
    InvalidTemplate(#[from] UriTemplateError),
    /// The metadata is invalid (for example a reserved `_meta` key).
    #[error(transparent)]
    Metadata(#[from] ToolError),
}

impl ResourceError {
    /// A not-found error for `uri`, for handlers of templates whose
    /// variables name nothing.
    pub fn not_found(uri: impl Into<String>) -> Self {
        Self::NotFound { uri: uri.into() }
    }
}

/// One `resources/read` call as a handler sees it: the URI, the template's
/// variables, and the session's context `C`.
pub struct ResourceRequest<C = ()> {
    uri: String,
    variables: BTreeMap<String, String>,
    ctx: Arc<C>,
    session_id: Option<Arc<str>>,
    meta: Meta,
}

impl<C> ResourceRequest<C> {
    /// A request for `uri` (with a template's `variables`) in a session
    /// whose context is `ctx`.
    pub fn new(uri: impl Into<String>, variables: BTreeMap<String, String>, ctx: Arc<C>) -> Self {
        Self {
            uri: uri.into(),
            variables,
            ctx,
            session_id: None,
            meta: Meta::new(),
        }
    }

    /// Sets the session id.
    pub fn session_id(mut self, id: impl Into<Arc<str>>) -> Self {
        self.session_id = Some(id.into());
        self
    }

    /// Sets the request's `_meta`.
    pub fn meta(mut self, meta: Meta) -> Self {
        self.meta = meta;
        self
    }

    /// The requested URI.
    pub fn uri(&self) -> &str {
        &self.uri
    }

    /// The value of the template variable `name`.
    pub fn variable(&self, name: &str) -> Option<&str> {
        self.variables.get(name).map(String::as_str)
    }

    /// Every template variable.
    pub fn variables(&self) -> &BTreeMap<String, String> {
        &self.variables
    }

    /// The per-session context.
    pub fn ctx(&self) -> &C {
        &self.ctx
    }

    /// The session id, when the transport has sessions.
    pub fn session(&self) -> Option<&str> {
        self.session_id.as_deref()
    }

    /// The request's `_meta`.
    pub fn request_meta(&self) -> &Meta {
        &self.meta
    }
}

impl<C> fmt::Debug for ResourceRequest<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ResourceRequest")
            .field("uri", &self.uri)
            .field("variables", &self.variables)
            .field("session_id", &self.session_id)
            .finish_non_exhaustive()
    }
}

/// The object-safe form of a resource's code.
pub trait ResourceHandler<C = ()>: Send + Sync + 'static {
    /// Reads the resource.
    fn read(
        &self,
        request: ResourceRequest<C>,
    ) -> BoxFuture<'static, Result<ReadResourceResult, ResourceError>>;
}

/// An async function usable as a resource's code: `Fn() -> Fut` or
/// `Fn(ResourceRequest<C>) -> Fut`, whose output is
/// [`IntoReadResourceResult`].
#[diagnostic::on_unimplemented(
    message = "this function cannot read a resource",
    note = "a resource handler is `async fn()` or `async fn(ResourceRequest<C>)` returning text, bytes, `ResourceContents` or a `Result` of them"
)]
pub trait ResourceFn<M, C>: Send + Sync + 'static {
    /// What the function's future yields.
    type Output: IntoReadResourceResult;
    /// The function's future.
    type Future: Future<Output = Self::Output> + Send + 'static;
    /// Calls the function.
    fn call(&self, request: ResourceRequest<C>) -> Self::Future;
}

impl<F, Fut, C> ResourceFn<fn(), C> for F
where
    F: Fn() -> Fut + Send + Sync + 'static,
    Fut: Future + Send + 'static,
    Fut::Output: IntoReadResourceResult,
{
    type Output = Fut::Output;
    type Future = Fut;
    fn call(&self, _request: ResourceRequest<C>) -> Fut {
        self()
    }
}

impl<F, Fut, C> ResourceFn<fn(ResourceRequest<C>), C> for F
where
    F: Fn(ResourceRequest<C>) -> Fut + Send + Sync + 'static,
    Fut: Future + Send + 'static,
    Fut::Output: IntoReadResourceResult,
{
    type Output = Fut::Output;
    type Future = Fut;
    fn call(&self, request: ResourceRequest<C>) -> Fut {
        self(request)
    }
}

/// What a resource handler may return: text (`String`, `&'static str`),
/// bytes (`Vec<u8>`, sent base64-encoded as a blob), [`ResourceContents`],
/// a `Vec` of them, a [`ReadResourceResult`], or a `Result` of any of these
/// whose error is displayed (a [`ResourceError`] is kept as is).
///
/// Text and bytes take the requested URI and the resource's MIME type.
pub trait IntoReadResourceResult {
    /// Converts the value for a read of `uri` whose MIME type is `mime_type`.
    fn into_read_result(
        self,
        uri: &str,
        mime_type: Option<&str>,
    ) -> Result<ReadResourceResult, ResourceError>;
}

impl IntoReadResourceResult for ReadResourceResult {
    fn into_read_result(
        self,
        _: &str,
        _: Option<&str>,
    ) -> Result<ReadResourceResult, ResourceError> {
        Ok(self)
    }
}

impl IntoReadResourceResult for Vec<ResourceContents> {
    fn into_read_result(
        self,
        _: &str,
        _: Option<&str>,
    ) -> Result<ReadResourceResult, ResourceError> {
        Ok(ReadResourceResult::new(self))
    }
}

impl IntoReadResourceResult for ResourceContents {
    fn into_read_result(
        self,
        _: &str,
        _: Option<&str>,
    ) -> Result<ReadResourceResult, ResourceError> {
        Ok(ReadResourceResult::new(vec![self]))
    }
}

impl IntoReadResourceResult for String {
    fn into_read_result(
        self,
        uri: &str,
        mime: Option<&str>,
    ) -> Result<ReadResourceResult, ResourceError> {
        ResourceContents::text(uri, mime.map(str::to_owned), self).into_read_result(uri, mime)
    }
}

impl IntoReadResourceResult for &'static str {
    fn into_read_result(
        self,
        uri: &str,
        mime: Option<&str>,
    ) -> Result<ReadResourceResult, ResourceError> {
        self.to_owned().into_read_result(uri, mime)
    }
}

impl IntoReadResourceResult for Vec<u8> {
    fn into_read_result(
        self,
        uri: &str,
        mime: Option<&str>,
    ) -> Result<ReadResourceResult, ResourceError> {
        let data = base64::engine::general_purpose::STANDARD.encode(self);
        ResourceContents::blob(uri, mime.map(str::to_owned), data).into_read_result(uri, mime)
    }
}

impl<T: IntoReadResourceResult, E: Display + 'static> IntoReadResourceResult for Result<T, E> {
    fn into_read_result(
        self,
        uri: &str,
        mime: Option<&str>,
    ) -> Result<ReadResourceResult, ResourceError> {
        match self {
            Ok(value) => value.into_read_result(uri, mime),
            Err(error) => match (&error as &dyn Any).downcast_ref::<ResourceError>() {
                Some(error) => Err(error.clone()),
                None => Err(ResourceError::Read {
                    uri: uri.to_owned(),
                    message: error.to_string(),
                }),
            },
        }
    }
}

pub(crate) struct FnResource<H, M> {
    pub(crate) handler: H,
    pub(crate) mime_type: Option<Arc<str>>,
    pub(crate) marker: std::marker::PhantomData<fn(M)>,
}

impl<H: ResourceFn<M, C>, M: 'static, C: 'static> ResourceHandler<C> for FnResource<H, M> {
    fn read(
        &self,
        request: ResourceRequest<C>,
    ) -> BoxFuture<'static, Result<ReadResourceResult, ResourceError>> {
        let uri = request.uri.clone();
        let mime = self.mime_type.clone();
        let future = self.handler.call(request);
        Box::pin(async move { future.await.into_read_result(&uri, mime.as_deref()) })
    }
}

/// Whether a definition is a fixed resource or a template.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum ResourceKind {
    /// A resource at one URI.
    Static(Arc<Resource>),
    /// A family of resources following a URI template.
    Template {
        /// The protocol value.
        template: Arc<ResourceTemplate>,
        /// The parsed template.
        parsed: Arc<UriTemplate>,
    },
}

/// A resource or resource template plus its read handler and the
/// completers of its template variables: what a server hosts. Make one with
/// [`resource`](fn@crate::resource) or [`resource_template`](fn@crate::resource_template).
pub struct ResourceDef<C = ()> {
    kind: ResourceKind,
    handler: Arc<dyn ResourceHandler<C>>,
    completers: Arc<BTreeMap<String, Completer>>,
}

impl<C: 'static> ResourceDef<C> {
    pub(crate) fn from_parts(
        kind: ResourceKind,
        handler: Arc<dyn ResourceHandler<C>>,
        completers: BTreeMap<String, Completer>,
    ) -> Self {
        Self {
            kind,
            handler,
            completers: Arc::new(completers),
        }
    }

    /// Fixed resource or template.
    pub fn kind(&self) -> &ResourceKind {
        &self.kind
    }

    /// The protocol value of a fixed resource.
    pub fn resource(&self) -> Option<&Resource> {
        match &self.kind {
            ResourceKind::Static(resource) => Some(resource),
            ResourceKind::Template { .. } => None,
        }
    }

    /// The protocol value of a template.
    pub fn template(&self) -> Option<&ResourceTemplate> {
        match &self.kind {
            ResourceKind::Template { template, .. } => Some(template),
            ResourceKind::Static(_) => None,
        }
    }

    /// The programmatic name.
    pub fn name(&self) -> &str {
        match &self.kind {
            ResourceKind::Static(resource) => &resource.name,
            ResourceKind::Template { template, .. } => &template.name,
        }
    }

    /// The URI (of a fixed resource) or the URI template.
    pub fn uri(&self) -> &str {
        match &self.kind {
            ResourceKind::Static(resource) => &resource.uri,
            ResourceKind::Template { template, .. } => &template.uri_template,
        }
    }

    /// The variables of `uri` when this definition serves it (no variables
    /// for a fixed resource).
    pub fn matches(&self, uri: &str) -> Option<BTreeMap<String, String>> {
        match &self.kind {
            ResourceKind::Static(resource) => (resource.uri == uri).then(BTreeMap::new),
            ResourceKind::Template { parsed, .. } => parsed.match_uri(uri),
        }
    }

    /// The completer of the template variable `name`.
    pub fn completer(&self, name: &str) -> Option<&Completer> {
        self.completers.get(name)
    }

    /// Reads the resource.
    pub fn read(
        &self,
        request: ResourceRequest<C>,
    ) -> BoxFuture<'static, Result<ReadResourceResult, ResourceError>> {
        self.handler.read(request)
    }
}

impl<C: Default + 'static> ResourceDef<C> {
    /// Reads `uri` with a default context, outside any server (handy in
    /// tests); a URI this definition does not serve is
    /// [`ResourceError::NotFound`].
    pub fn invoke(
        &self,
        uri: &str,
    ) -> BoxFuture<'static, Result<ReadResourceResult, ResourceError>> {
        match self.matches(uri) {
            Some(variables) => {
                self.read(ResourceRequest::new(uri, variables, Arc::new(C::default())))
            }
            None => Box::pin(std::future::ready(Err(ResourceError::not_found(uri)))),
        }
    }
}

impl<C> Clone for ResourceDef<C> {
    fn clone(&self) -> Self {
        Self {
            kind: self.kind.clone(),
            handler: self.handler.clone(),
            completers: self.completers.clone(),
        }
    }
}

impl<C> fmt::Debug for ResourceDef<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ResourceDef")
            .field("kind", &self.kind)
            .field("completers", &self.completers.keys().collect::<Vec<_>>())
            .finish_non_exhaustive()
    }
}
