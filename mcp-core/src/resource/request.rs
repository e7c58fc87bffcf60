//! One `resources/read` call as a handler sees it.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use crate::auth::AuthInfo;
use crate::meta::Meta;

/// One `resources/read` call as a handler sees it: the URI, the template's
/// variables, and the session's context `C`.
pub struct ResourceRequest<C = ()> {
    uri: String,
    variables: BTreeMap<String, String>,
    ctx: Arc<C>,
    session_id: Option<Arc<str>>,
    meta: Meta,
    auth: Option<Arc<AuthInfo>>,
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
            auth: None,
        }
    }

    /// Sets the session id.
    pub fn session_id(mut self, id: impl Into<Arc<str>>) -> Self {
        self.session_id = Some(id.into());
        self
    }

    /// Sets the caller's validated token claims.
    pub fn authenticated(mut self, auth: Arc<AuthInfo>) -> Self {
        self.auth = Some(auth);
        self
    }

    /// Who is reading: the validated claims of the request's access token,
    /// when the server checks tokens.
    pub fn auth(&self) -> Option<&AuthInfo> {
        self.auth.as_deref()
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
