//! Which protocol generation a request speaks.

use rmcp::model::ProtocolVersion;
use rmcp::service::{RequestContext, RoleServer};

/// Whether the request comes from a 2026-07-28 (or later) client.
pub(crate) fn is_modern(context: &RequestContext<RoleServer>) -> bool {
    context
        .protocol_version()
        .is_some_and(|version| version.as_str() >= ProtocolVersion::V_2026_07_28.as_str())
}
