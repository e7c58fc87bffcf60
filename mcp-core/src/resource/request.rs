//! One `resources/read` call as a handler sees it.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use crate::scope::RequestScope;

/// One `resources/read` call as a handler sees it: the URI, the template's
/// variables, the request's [scope](RequestScope) (session, caller,
/// `_meta`) and the session's context `C`.
pub struct ResourceRequest<C = ()> {
    uri: String,
    variables: BTreeMap<String, String>,
    ctx: Arc<C>,
    scope: RequestScope,
}

impl<C> ResourceRequest<C> {
    /// A request for `uri` (with a template's `variables`) in a session
    /// whose context is `ctx`.
    pub fn new(uri: impl Into<String>, variables: BTreeMap<String, String>, ctx: Arc<C>) -> Self {
        Self {
            uri: uri.into(),
            variables,
            ctx,
            scope: RequestScope::new(),
        }
    }

    /// Sets the request's scope: its session, its caller and its `_meta`
    /// (the server does).
    pub fn in_scope(mut self, scope: RequestScope) -> Self {
        self.scope = scope;
        self
    }

    /// Who is reading, in which session, with which `_meta`.
    pub fn scope(&self) -> &RequestScope {
        &self.scope
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
}

impl<C> fmt::Debug for ResourceRequest<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ResourceRequest")
            .field("uri", &self.uri)
            .field("variables", &self.variables)
            .field("scope", &self.scope)
            .finish_non_exhaustive()
    }
}
