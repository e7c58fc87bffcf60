//! The metadata of a generated component: defaults from its route (name,
//! title, description, annotations, `_meta`), then the customization hook.

use std::collections::BTreeSet;
use std::sync::Arc;

use mcp_core::ToolAnnotations;
use serde_json::{Map, Value};

use crate::error::SpecError;
use crate::ir::{HttpMethod, HttpRoute};

/// The `_meta` key recording method, path and operationId of a generated tool.
const OPENAPI_META_KEY: &str = "rs.mcp-toolkit/openapi";
/// The `_meta` key listing the route map's `mcp_tags` of a generated component.
pub(crate) const TAGS_META_KEY: &str = "rs.mcp-toolkit/tags";

/// What the customization hook may change on a generated component.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Customization {
    /// The tool (or resource) name.
    pub name: String,
    /// The display title.
    pub title: Option<String>,
    /// The description.
    pub description: String,
    /// The annotations (every hint already set from the method).
    pub annotations: ToolAnnotations,
    /// `_meta` entries (keys must be valid `_meta` keys).
    pub meta: Map<String, Value>,
}

/// A hook called for every generated component, last word on its metadata.
pub(crate) type CustomizeFn = Arc<dyn Fn(&HttpRoute, &mut Customization) + Send + Sync>;

/// Summary and description, or a sentence made from method and path.
pub(crate) fn description(route: &HttpRoute) -> String {
    match (route.summary.as_deref(), route.description.as_deref()) {
        (Some(summary), Some(description)) if description.starts_with(summary) => {
            description.to_owned()
        }
        (Some(summary), Some(description)) => format!("{summary}\n\n{description}"),
        (Some(text), None) | (None, Some(text)) => text.to_owned(),
        (None, None) => format!("{} {}", route.method.as_str(), route.path),
    }
}

/// Method defaults, then `x-mcp-annotations` on the operation.
pub(crate) fn annotations(route: &HttpRoute) -> Result<ToolAnnotations, SpecError> {
    let (read_only, destructive, idempotent) = match route.method {
        HttpMethod::Get
        | HttpMethod::Head
        | HttpMethod::Options
        | HttpMethod::Trace
        | HttpMethod::Query => (true, false, true),
        HttpMethod::Post => (false, false, false),
        HttpMethod::Put | HttpMethod::Delete => (false, true, true),
        HttpMethod::Patch => (false, true, false),
    };
    let mut annotations = ToolAnnotations::default();
    annotations.title = route.summary.clone();
    annotations.read_only_hint = Some(read_only);
    annotations.destructive_hint = Some(destructive);
    annotations.idempotent_hint = Some(idempotent);
    annotations.open_world_hint = Some(true);
    if let Some(extension) = route.extensions.get("x-mcp-annotations") {
        let declared: ToolAnnotations =
            serde_json::from_value(extension.clone()).map_err(|error| {
                SpecError::invalid(
                    format!("{}/x-mcp-annotations", route.pointer),
                    format!("invalid annotations: {error}"),
                )
            })?;
        annotations.title = declared.title.or(annotations.title);
        annotations.read_only_hint = declared.read_only_hint.or(annotations.read_only_hint);
        annotations.destructive_hint = declared.destructive_hint.or(annotations.destructive_hint);
        annotations.idempotent_hint = declared.idempotent_hint.or(annotations.idempotent_hint);
        annotations.open_world_hint = declared.open_world_hint.or(annotations.open_world_hint);
    }
    Ok(annotations)
}

/// The `_meta` of a component: method, path and operationId, whether the
/// output is wrapped, and the route map's tags.
pub(crate) fn meta(
    route: &HttpRoute,
    tags: &BTreeSet<String>,
    wrapped: bool,
) -> Map<String, Value> {
    let mut meta = Map::new();
    let mut openapi = Map::new();
    openapi.insert("method".to_owned(), route.method.as_str().into());
    openapi.insert("path".to_owned(), route.path.clone().into());
    if let Some(id) = &route.operation_id {
        openapi.insert("operationId".to_owned(), id.clone().into());
    }
    meta.insert(OPENAPI_META_KEY.to_owned(), Value::Object(openapi));
    if wrapped {
        meta.insert(
            mcp_core::meta::WRAPPED_OUTPUT_META_KEY.to_owned(),
            true.into(),
        );
    }
    if !tags.is_empty() {
        meta.insert(
            TAGS_META_KEY.to_owned(),
            tags.iter().cloned().map(Value::from).collect(),
        );
    }
    meta
}
