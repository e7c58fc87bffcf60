//! Route maps: which routes become tools, resources, resource templates or
//! nothing. Ordered, first match wins, default: every route is a tool.
//!
//! A [`RouteMap`] matches routes by method, path pattern, tags and
//! operation ids and says what they become ([`RouteKind`]). Route maps are
//! built in code or read from TOML or YAML ([`route_maps_from_toml`],
//! [`route_maps_from_path`]);
//! [`Generator::route_maps`](crate::generate::Generator::route_maps) applies
//! them.

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;

use regex::Regex;
use serde::Deserialize;

use crate::document::parse::parse_str;
use crate::error::SpecError;
use crate::ir::{HttpMethod, HttpRoute};

/// What a route becomes: a tool, a resource, a resource template, or
/// nothing (spelled `tool`, `resource`, `resource_template` and `exclude`
/// in route map files).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum RouteKind {
    /// A callable tool (the default).
    #[default]
    Tool,
    /// A `resources/list` entry (GET routes without path parameters).
    Resource,
    /// A resource template whose URI template holds the path parameters (GET routes).
    ResourceTemplate,
    /// Nothing: the route is left out.
    Exclude,
}

/// One rule: a route matches when every given criterion matches.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct RouteMap {
    /// Methods to match; empty matches any.
    pub methods: Vec<HttpMethod>,
    /// A regular expression searched in the path template (`/users/.*`).
    pub pattern: Option<Regex>,
    /// Tags that must all be on the route.
    pub tags: BTreeSet<String>,
    /// Operation ids to match; empty matches any.
    pub operation_ids: BTreeSet<String>,
    /// What a matching route becomes.
    pub kind: RouteKind,
    /// Tags added to the generated component (`_meta` `rs.mcp-toolkit/tags`).
    pub mcp_tags: BTreeSet<String>,
}

impl RouteMap {
    /// A rule matching every route, mapping it to `kind`.
    pub fn new(kind: RouteKind) -> Self {
        Self {
            kind,
            ..Self::default()
        }
    }

    /// Restricts the rule to these methods.
    pub fn methods(mut self, methods: impl IntoIterator<Item = HttpMethod>) -> Self {
        self.methods = methods.into_iter().collect();
        self
    }

    /// Restricts the rule to paths matching this regular expression.
    pub fn pattern(mut self, pattern: &str) -> Result<Self, SpecError> {
        self.pattern = Some(
            Regex::new(pattern)
                .map_err(|e| SpecError::RouteMap(format!("pattern `{pattern}`: {e}")))?,
        );
        Ok(self)
    }

    /// Restricts the rule to routes carrying all these tags.
    pub fn tags(mut self, tags: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.tags = tags.into_iter().map(Into::into).collect();
        self
    }

    /// Restricts the rule to these operation ids.
    pub fn operation_ids(mut self, ids: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.operation_ids = ids.into_iter().map(Into::into).collect();
        self
    }

    /// Tags to add to the generated components.
    pub fn mcp_tags(mut self, tags: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.mcp_tags = tags.into_iter().map(Into::into).collect();
        self
    }

    /// Whether the rule matches a route.
    pub fn matches(&self, route: &HttpRoute) -> bool {
        (self.methods.is_empty() || self.methods.contains(&route.method))
            && self
                .pattern
                .as_ref()
                .is_none_or(|p| p.is_match(&route.path))
            && self.tags.iter().all(|t| route.tags.contains(t))
            && (self.operation_ids.is_empty()
                || route
                    .operation_id
                    .as_ref()
                    .is_some_and(|id| self.operation_ids.contains(id)))
    }
}

/// A callback deciding a route's kind after the route maps: `(route, kind so far) -> kind`.
pub(crate) type RouteMapFn = Arc<dyn Fn(&HttpRoute, RouteKind) -> RouteKind + Send + Sync>;

/// The first matching rule of `maps`, if any.
pub(crate) fn classify<'m>(maps: &'m [RouteMap], route: &HttpRoute) -> Option<&'m RouteMap> {
    maps.iter().find(|m| m.matches(route))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMap {
    #[serde(default)]
    methods: Vec<String>,
    pattern: Option<String>,
    #[serde(default)]
    tags: BTreeSet<String>,
    #[serde(default)]
    operation_ids: BTreeSet<String>,
    mcp_type: RouteKind,
    #[serde(default)]
    mcp_tags: BTreeSet<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    #[serde(default)]
    route_map: Vec<RawMap>,
}

/// Reads route maps from TOML (`[[route_map]]` tables).
///
/// ```
/// let maps = mcp_openapi::route_map::route_maps_from_toml(r#"
/// [[route_map]]
/// methods = ["GET"]
/// pattern = "^/pets/\\{"
/// mcp_type = "resource_template"
///
/// [[route_map]]
/// tags = ["admin"]
/// mcp_type = "exclude"
/// "#).unwrap();
/// assert_eq!(maps.len(), 2);
/// ```
pub fn route_maps_from_toml(text: &str) -> Result<Vec<RouteMap>, SpecError> {
    let raw: RawFile = toml::from_str(text).map_err(|e| SpecError::RouteMap(e.to_string()))?;
    raw.route_map.into_iter().map(compile).collect()
}

/// Reads route maps from YAML (`route_map:` list, or a bare list).
fn route_maps_from_yaml(text: &str) -> Result<Vec<RouteMap>, SpecError> {
    let value = parse_str(text).map_err(|e| SpecError::RouteMap(e.to_string()))?;
    let raw: Vec<RawMap> = if value.is_array() {
        serde_json::from_value(value)
    } else {
        serde_json::from_value::<RawFile>(value).map(|f| f.route_map)
    }
    .map_err(|e| SpecError::RouteMap(e.to_string()))?;
    raw.into_iter().map(compile).collect()
}

/// Reads route maps from a file: TOML for `.toml`, YAML (or JSON) otherwise.
pub fn route_maps_from_path(path: impl AsRef<Path>) -> Result<Vec<RouteMap>, SpecError> {
    let path = path.as_ref();
    let text = std::fs::read_to_string(path).map_err(|error| SpecError::Io {
        path: path.to_owned(),
        error,
    })?;
    if path.extension().is_some_and(|e| e == "toml") {
        route_maps_from_toml(&text)
    } else {
        route_maps_from_yaml(&text)
    }
}

fn compile(raw: RawMap) -> Result<RouteMap, SpecError> {
    let methods = raw
        .methods
        .iter()
        .map(|m| {
            serde_json::from_value::<HttpMethod>(m.to_ascii_uppercase().into())
                .map_err(|_| SpecError::RouteMap(format!("unknown method `{m}`")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let map = RouteMap {
        methods,
        pattern: None,
        tags: raw.tags,
        operation_ids: raw.operation_ids,
        kind: raw.mcp_type,
        mcp_tags: raw.mcp_tags,
    };
    match raw.pattern {
        Some(pattern) => map.pattern(&pattern),
        None => Ok(map),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_and_toml_agree() {
        let yaml = route_maps_from_yaml(
            "- {methods: [get], pattern: '^/a', mcp_type: resource, mcp_tags: [x]}\n",
        )
        .unwrap();
        let toml = route_maps_from_toml("[[route_map]]\nmethods = [\"GET\"]\npattern = \"^/a\"\nmcp_type = \"resource\"\nmcp_tags = [\"x\"]\n").unwrap();
        assert_eq!(yaml[0].methods, toml[0].methods);
        assert_eq!(yaml[0].kind, RouteKind::Resource);
        assert_eq!(toml[0].mcp_tags, BTreeSet::from(["x".to_owned()]));
    }

    #[test]
    fn bad_files_are_errors() {
        assert!(route_maps_from_toml("[[route_map]]\nmcp_type = \"nope\"\n").is_err());
        assert!(
            route_maps_from_toml("[[route_map]]\nmethods = [\"FETCH\"]\nmcp_type = \"tool\"\n")
                .is_err()
        );
        assert!(route_maps_from_yaml("- {pattern: '(', mcp_type: tool}\n").is_err());
        assert!(route_maps_from_yaml("- {mcp_type: tool, color: red}\n").is_err());
    }
}
