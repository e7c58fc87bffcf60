//! A resource (or resource template) together with the code that reads it.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use crate::completion::Completer;
use crate::future::BoxFuture;
use crate::resource::error::ResourceError;
use crate::resource::handler::ResourceHandler;
use crate::resource::request::ResourceRequest;
use crate::resource::result::ReadResourceResult;
use crate::resource::uri_template::UriTemplate;
use crate::resource::value::{Resource, ResourceTemplate};

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
/// [`resource`](fn@crate::resource::resource) or [`resource_template`](fn@crate::resource::resource_template).
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
    /// Reads `uri` with a default context, detached from any server (handy
    /// in tests); a URI this definition does not serve is
    /// [`ResourceError::NotFound`].
    pub fn read_detached(
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
