//! The wire JSON: exact, absent fields omitted, lossless round trip.

use mcp_core::{
    CallToolResult, Tool, ToolAnnotations, ToolExecution, content::Content,
    resource::ResourceContents,
};
use serde_json::json;

#[test]
fn a_minimal_tool_has_only_name_and_input_schema() {
    let tool: Tool =
        serde_json::from_value(json!({"name": "x", "inputSchema": {"type": "object"}})).unwrap();
    assert_eq!(
        serde_json::to_value(&tool).unwrap(),
        json!({"name": "x", "inputSchema": {"type": "object"}})
    );
    assert_eq!(tool.annotations, None);
    assert!(tool.icons.is_empty() && tool.meta.is_empty());
}

#[test]
fn a_full_tool_round_trips_losslessly() {
    let wire = json!({
        "name": "delete_user",
        "title": "Delete user",
        "description": "Deletes.",
        "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]},
        "outputSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}},
        "annotations": {"title": "Del", "readOnlyHint": false, "destructiveHint": true, "idempotentHint": true, "openWorldHint": false},
        "icons": [{"src": "data:image/png;base64,AA==", "mimeType": "image/png", "sizes": ["any"], "theme": "light"}],
        "execution": {"taskSupport": "required"},
        "_meta": {"com.example/x": {"nested": [1, 2]}}
    });
    let tool: Tool = serde_json::from_value(wire.clone()).unwrap();
    assert_eq!(serde_json::to_value(&tool).unwrap(), wire);
    assert_eq!(tool.execution, Some(ToolExecution::required()));
    assert_eq!(
        tool.annotations.as_ref().map(|a| a.idempotent_hint),
        Some(Some(true))
    );
}

#[test]
fn annotations_use_the_spec_names() {
    assert_eq!(
        serde_json::to_value(ToolAnnotations::defaults()).unwrap(),
        json!({"readOnlyHint": false, "destructiveHint": true, "idempotentHint": false, "openWorldHint": true})
    );
    assert_eq!(
        serde_json::to_value(ToolAnnotations::default()).unwrap(),
        json!({})
    );
}

#[test]
fn results_serialize_every_content_kind() {
    let mut result = CallToolResult::success(vec![
        Content::text("t"),
        Content::image("AA==", "image/png"),
        Content::audio("AA==", "audio/wav"),
        Content::resource(ResourceContents::text(
            "file:///a",
            Some("text/plain".into()),
            "a",
        )),
        Content::resource(ResourceContents::blob("file:///b", None, "AA==")),
    ]);
    result.is_error = Some(false);
    let wire = serde_json::to_value(&result).unwrap();
    insta::assert_json_snapshot!("every_content_kind", wire);
    let back: CallToolResult = serde_json::from_value(wire).unwrap();
    assert_eq!(back, result);
}

#[test]
fn a_resource_link_is_a_resource_with_its_type_tag() {
    let wire = json!({
        "type": "resource_link",
        "uri": "file:///a.txt",
        "name": "a",
        "mimeType": "text/plain",
        "size": 3
    });
    let content: Content = serde_json::from_value(wire.clone()).unwrap();
    match &content {
        Content::ResourceLink(resource) => assert_eq!(resource.size, Some(3)),
        other => panic!("expected a resource link, got {other:?}"),
    }
    assert_eq!(serde_json::to_value(&content).unwrap(), wire);
}
