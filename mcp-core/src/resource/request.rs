//! One `resources/read` call as a handler sees it.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use crate::meta::Meta;

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
