//! The sandbox's `catalog`: every tool of the session as data, so a script
//! can search with the model's own knowledge of the API
//! (`catalog.filter(t => /dispatches/.test(t.path))`).

use serde_json::{Value, json};

use super::typescript::summary;
use crate::discovery::document::OPENAPI_META_KEY;
use crate::discovery::finder::Finder;

/// The characters of a description in the catalog.
const DESCRIPTION_CHARS: usize = 200;

/// The catalog of `finder`'s tools as a JSON array of `{name, identifier,
/// title, description, tags, method, path}` (`null` where a tool has no
/// such thing; method and path are those of generated tools).
pub(crate) fn catalog_json(finder: &Finder, identifiers: &[String]) -> String {
    let index = finder.index();
    let entries: Vec<Value> = (0..index.len())
        .filter_map(|position| {
            let tool = finder.tool(position)?;
            let openapi = tool.meta.get(OPENAPI_META_KEY);
            let field = |key: &str| {
                openapi
                    .and_then(|o| o.get(key))
                    .cloned()
                    .unwrap_or(Value::Null)
            };
            let title = tool
                .title
                .clone()
                .or_else(|| tool.annotations.as_ref()?.title.clone());
            Some(json!({
                "name": tool.name,
                "identifier": identifiers.get(position),
                "title": title,
                "description": summary(tool, DESCRIPTION_CHARS),
                "tags": index.tags_of(position),
                "method": field("method"),
                "path": field("path"),
            }))
        })
        .collect();
    Value::Array(entries).to_string()
}
