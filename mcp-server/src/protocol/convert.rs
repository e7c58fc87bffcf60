//! `mcp_core` values to `rmcp::model` values.
//!
//! Every field `rmcp::model::Tool` can carry survives the conversion.
//! `execution` is the one `mcp_core::Tool` field rmcp 3.11 has no slot for
//! (the 2026-07-28 protocol moved tasks into an extension): converting
//! drops it, and [`super::v2025::park_out`] puts it back on the wire for
//! 2025-11-25 peers.
//!
//! Values whose JSON is the same on both sides go through that JSON
//! ([`via_wire_json`]); the rest are converted field by field.

use mcp_core::{
    CallToolResult, Icon, Meta, Tool, ToolAnnotations, ToolSchema, client::ChannelError,
    content::Content, icon::IconTheme,
};
use rmcp::ErrorData;
use rmcp::model as rm;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// A tool as rmcp's value, without `execution`.
pub(crate) fn tool_to_rmcp(tool: Tool) -> rm::Tool {
    let mut out = rm::Tool::default();
    out.name = tool.name.into();
    out.title = tool.title;
    out.description = tool.description.map(Into::into);
    out.input_schema = tool.input_schema.to_arc();
    out.output_schema = tool.output_schema.as_ref().map(ToolSchema::to_arc);
    out.annotations = tool.annotations.map(annotations_to_rmcp);
    out.icons =
        (!tool.icons.is_empty()).then(|| tool.icons.into_iter().map(icon_to_rmcp).collect());
    out.meta = (!tool.meta.is_empty()).then(|| rm::MetaObject(tool.meta.into_object()));
    out
}

/// Tool annotations as rmcp's value.
fn annotations_to_rmcp(annotations: ToolAnnotations) -> rm::ToolAnnotations {
    let mut out = rm::ToolAnnotations::default();
    out.title = annotations.title;
    out.read_only_hint = annotations.read_only_hint;
    out.destructive_hint = annotations.destructive_hint;
    out.idempotent_hint = annotations.idempotent_hint;
    out.open_world_hint = annotations.open_world_hint;
    out
}

/// An icon as rmcp's value.
fn icon_to_rmcp(icon: Icon) -> rm::Icon {
    let mut out = rm::Icon::new(icon.src);
    out.mime_type = icon.mime_type;
    out.sizes = icon.sizes;
    out.theme = icon.theme.map(|theme| match theme {
        IconTheme::Light => rm::IconTheme::Light,
        IconTheme::Dark => rm::IconTheme::Dark,
    });
    out
}

/// The JSON-RPC error a handler raised, as rmcp's value.
pub(crate) fn protocol_error_to_rmcp(error: &mcp_core::ProtocolError) -> ErrorData {
    ErrorData::new(
        rm::ErrorCode(error.code),
        error.message.clone(),
        error.data.clone(),
    )
}

/// A tool result as rmcp's value.
pub(crate) fn result_to_rmcp(result: CallToolResult) -> rm::CallToolResult {
    let content = result.content.into_iter().map(content_to_rmcp).collect();
    let mut out = rm::CallToolResult::success(content);
    out.structured_content = result.structured_content;
    out.is_error = result.is_error;
    out.meta = (!result.meta.is_empty()).then(|| rm::MetaObject(result.meta.into_object()));
    out
}

/// A content block as rmcp's value: text without annotations directly,
/// everything else through its (identical) wire JSON.
fn content_to_rmcp(content: Content) -> rm::ContentBlock {
    match content {
        Content::Text(text) if text.annotations.is_none() && text.meta.is_empty() => {
            rm::ContentBlock::text(text.text)
        }
        other => serde_json::to_value(&other)
            .and_then(serde_json::from_value)
            .unwrap_or_else(|error| {
                tracing::error!(%error, "a content block has no rmcp equivalent");
                rm::ContentBlock::text(format!(
                    "the server could not encode a content block: {error}"
                ))
            }),
    }
}

/// The `_meta` of a request as a `mcp_core` value: what rmcp keeps on the
/// request context, plus anything only the parameters carry.
pub(crate) fn request_meta(
    context: &rm::RequestMetaObject,
    params: Option<&rm::RequestMetaObject>,
) -> Meta {
    let mut object = context.0.0.clone();
    for (key, value) in params.map(|meta| &meta.0.0).into_iter().flatten() {
        object.entry(key.clone()).or_insert_with(|| value.clone());
    }
    Meta::from_wire(object)
}

/// The caller's validated token claims, which the HTTP transport's OAuth
/// check put on the HTTP request (none over stdio or without OAuth).
pub(crate) fn request_auth(
    context: &rmcp::service::RequestContext<rmcp::service::RoleServer>,
) -> Option<std::sync::Arc<mcp_core::auth::AuthInfo>> {
    #[cfg(feature = "http")]
    {
        let parts = context.extensions.get::<http::request::Parts>()?;
        parts
            .extensions
            .get::<std::sync::Arc<mcp_core::auth::AuthInfo>>()
            .cloned()
    }
    #[cfg(not(feature = "http"))]
    {
        let _ = context;
        None
    }
}

/// The scopes the OAuth settings ask of each tool (on top of those the
/// tools declare): the HTTP transport's OAuth check puts them on the HTTP
/// request for the calls made inside it (code mode's scripts).
#[cfg(all(feature = "oauth", feature = "code-mode"))]
#[derive(Clone)]
pub(crate) struct ToolScopes(pub(crate) crate::code_mode::invoke::ConfiguredScopes);

/// The scope of a request as a handler sees it: the session `session_id`,
/// the caller the HTTP transport vouched for ([`request_auth`]) and the
/// request's `_meta` ([`request_meta`], `params` being the parameters'
/// own).
pub(crate) fn request_scope(
    session_id: Option<String>,
    context: &rmcp::service::RequestContext<rmcp::service::RoleServer>,
    params: Option<&rm::RequestMetaObject>,
) -> mcp_core::RequestScope {
    let mut scope = mcp_core::RequestScope::new().meta(request_meta(&context.meta, params));
    if let Some(id) = session_id {
        scope = scope.session_id(id);
    }
    if let Some(auth) = request_auth(context) {
        scope = scope.authenticated(auth);
    }
    scope
}

/// One of our protocol values as rmcp's, or the other way round, through
/// the wire JSON they share; failing is an internal error about `what`.
pub(crate) fn via_wire_json<T: Serialize, U: DeserializeOwned>(
    value: &T,
    what: &str,
) -> Result<U, ErrorData> {
    serde_json::to_value(value)
        .and_then(serde_json::from_value)
        .map_err(|error| ErrorData::internal_error(format!("cannot encode {what}: {error}"), None))
}

/// The JSON parameters of a request to the client.
pub(crate) fn request_params<T: Serialize>(request: &T) -> Result<Value, ChannelError> {
    serde_json::to_value(request).map_err(|error| ChannelError::Transport(error.to_string()))
}

#[cfg(test)]
mod tests {
    use mcp_core::{
        Hint, JsonObject, ToolDef, ToolExecution, content::Content, resource::ResourceContents,
        tool,
    };
    use serde_json::json;

    use super::*;

    /// The inverse of [`tool_to_rmcp`], field by field, to show that
    /// nothing but `execution` is lost.
    fn tool_from_rmcp(tool: rm::Tool) -> Tool {
        let mut out: Tool =
            serde_json::from_value(json!({"name": tool.name, "inputSchema": {}})).unwrap();
        out.title = tool.title;
        out.description = tool.description.map(|d| d.into_owned());
        out.input_schema = tool.input_schema.into();
        out.output_schema = tool.output_schema.map(Into::into);
        out.annotations = tool.annotations.map(|a| {
            let mut out = ToolAnnotations::default();
            out.title = a.title;
            out.read_only_hint = a.read_only_hint;
            out.destructive_hint = a.destructive_hint;
            out.idempotent_hint = a.idempotent_hint;
            out.open_world_hint = a.open_world_hint;
            out
        });
        out.icons = tool
            .icons
            .unwrap_or_default()
            .into_iter()
            .map(|icon| {
                let mut out = Icon::new(icon.src);
                out.mime_type = icon.mime_type;
                out.sizes = icon.sizes;
                out.theme = icon.theme.and_then(|theme| match theme {
                    rm::IconTheme::Light => Some(IconTheme::Light),
                    rm::IconTheme::Dark => Some(IconTheme::Dark),
                    _ => None,
                });
                out
            })
            .collect();
        out.execution = None;
        out.meta = tool
            .meta
            .map(|meta| Meta::from_wire(meta.0))
            .unwrap_or_default();
        out
    }

    /// Tools using every field rmcp can carry, and `execution`.
    fn tools() -> Vec<Tool> {
        let schema = |value: Value| -> JsonObject { serde_json::from_value(value).unwrap() };
        let rich: ToolDef = tool("delete_user")
            .title("Delete user")
            .description("Permanently remove a user account by id. This cannot be undone.")
            .icon(Icon::png(
                "https://example.com/icons/delete.png",
                &["48x48", "any"],
            ))
            .icon(Icon::svg("https://example.com/icons/delete.svg", &[]).theme(IconTheme::Dark))
            .annotations([Hint::Destroy, Hint::ClosedWorld])
            .execution(ToolExecution::optional())
            .meta("com.example.acme/audit-tier", json!("high"))
            .input_schema(schema(
                json!({"type": "object", "properties": {"id": {"type": "string"}}}),
            ))
            .output_schema(schema(json!({"type": "object"})))
            .run(|_: JsonObject| async { "" })
            .unwrap();
        let titled: ToolDef = tool("titled.v2-x")
            .annotations([Hint::Read, Hint::Idempotent, Hint::Title("Read it".into())])
            .icon(Icon::jpeg("https://example.com/a.jpg", &["16x16"]).theme(IconTheme::Light))
            .execution(ToolExecution::required())
            .run(|| async { "" })
            .unwrap();
        let plain: ToolDef = tool("plain").run(|| async { "" }).unwrap();
        [rich, titled, plain]
            .iter()
            .map(|def| def.tool().clone())
            .collect()
    }

    #[test]
    fn tools_survive_rmcp_and_back_except_execution() {
        for original in tools() {
            let via_rmcp = tool_to_rmcp(original.clone());
            let mut expected = original.clone();
            expected.execution = None;
            assert_eq!(tool_from_rmcp(via_rmcp.clone()), expected);

            // The rmcp value puts the same JSON on the wire, minus `execution`.
            let mut ours = serde_json::to_value(&original).unwrap();
            ours.as_object_mut().unwrap().remove("execution");
            assert_eq!(serde_json::to_value(&via_rmcp).unwrap(), ours);
        }
    }

    #[test]
    fn results_keep_their_wire_json() {
        let mut result = CallToolResult::success(vec![
            Content::text("hi"),
            Content::image("aGk=", "image/png"),
            Content::resource(ResourceContents::text(
                "file:///a",
                Some("text/plain".into()),
                "A",
            )),
        ]);
        result.structured_content = Some(json!({"n": 1}));
        result.meta.insert("com.example/trace", json!("t")).unwrap();
        let ours = serde_json::to_value(&result).unwrap();
        let mut theirs = serde_json::to_value(result_to_rmcp(result)).unwrap();
        // rmcp adds the 2026-07-28 discriminator; the handler strips it for older peers.
        theirs.as_object_mut().unwrap().remove("resultType");
        assert_eq!(ours, theirs);
    }
}
