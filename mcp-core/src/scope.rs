//! What every request a handler serves carries besides its own
//! parameters: the session, the caller, and the request's `_meta`.

use std::fmt;
use std::sync::Arc;

use serde_json::Value;

use crate::auth::AuthInfo;
use crate::meta::Meta;

/// The scope of one request: the session it belongs to, who made it (the
/// validated claims of its access token, when the server checks tokens)
/// and its `_meta`. Tool calls ([`ToolCallContext`](crate::ToolCallContext)),
/// prompt requests ([`PromptRequest`](crate::prompt::PromptRequest)) and
/// resource reads ([`ResourceRequest`](crate::resource::ResourceRequest))
/// each carry one; the server fills it in.
///
/// ```
/// use std::sync::Arc;
///
/// use mcp_core::auth::AuthInfo;
/// use mcp_core::{Meta, RequestScope};
/// use serde_json::json;
///
/// let claims = json!({"sub": "alice"}).as_object().unwrap().clone();
/// let meta = Meta::from_wire(json!({"progressToken": 7}).as_object().unwrap().clone());
/// let scope = RequestScope::new()
///     .session_id("session-1")
///     .authenticated(Arc::new(AuthInfo::from_claims(claims)))
///     .meta(meta);
/// assert_eq!(scope.session(), Some("session-1"));
/// assert_eq!(scope.auth().and_then(AuthInfo::subject), Some("alice"));
/// assert_eq!(scope.progress_token(), Some(&json!(7)));
/// ```
#[derive(Clone, Default)]
pub struct RequestScope {
    session_id: Option<Arc<str>>,
    auth: Option<Arc<AuthInfo>>,
    meta: Meta,
}

impl RequestScope {
    /// A scope without a session, a caller or `_meta`.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the id of the session the request belongs to.
    pub fn session_id(mut self, id: impl Into<Arc<str>>) -> Self {
        self.session_id = Some(id.into());
        self
    }

    /// Sets the caller's validated token claims (the HTTP transport does,
    /// when it checks access tokens).
    pub fn authenticated(mut self, auth: Arc<AuthInfo>) -> Self {
        self.auth = Some(auth);
        self
    }

    /// Sets the request's `_meta`, as received from the client.
    pub fn meta(mut self, meta: Meta) -> Self {
        self.meta = meta;
        self
    }

    /// The session's id, when the transport has sessions.
    pub fn session(&self) -> Option<&str> {
        self.session_id.as_deref()
    }

    /// Who is asking: the validated claims of the request's access token,
    /// when the server checks tokens.
    pub fn auth(&self) -> Option<&AuthInfo> {
        self.auth.as_deref()
    }

    /// The request's `_meta`.
    pub fn request_meta(&self) -> &Meta {
        &self.meta
    }

    /// The request's `_meta`, mutably (a middleware may rewrite it).
    pub fn request_meta_mut(&mut self) -> &mut Meta {
        &mut self.meta
    }

    /// The `progressToken` of the request's `_meta`, when the client asked
    /// for progress notifications.
    pub fn progress_token(&self) -> Option<&Value> {
        self.meta.get("progressToken")
    }
}

impl fmt::Debug for RequestScope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RequestScope")
            .field("session_id", &self.session_id)
            .field("subject", &self.auth().and_then(AuthInfo::subject))
            .field("meta", &self.meta)
            .finish()
    }
}
