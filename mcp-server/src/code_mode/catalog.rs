//! The sandbox's `catalog`: every tool of the session as data, so a script
//! can search with the model's own knowledge of the API
//! (`catalog.filter(t => /dispatches/.test(t.path))`).

use serde_json::{Value, json};

use super::typescript::summary;
use crate::discovery::document::OPENAPI_META_KEY;
use crate::discovery::finder::Finder;

/// The characters of a description in the catalog.
const DESCRIPTION_CHARS: usize = 200;

/// The catalog of `finder`'s tools as a JSON array of `{name, tool?, title,
/// description, tags, method, path}`: `name` is the identifier a script
/// calls the tool by, `tool` the tool's own name where the two differ
/// (`null` where a tool has no title, description, method or path; method
/// and path are those of generated tools).
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
            let identifier = identifiers.get(position).unwrap_or(&tool.name);
            let mut entry = json!({ "name": identifier });
            if *identifier != tool.name {
                entry["tool"] = tool.name.clone().into();
            }
            entry["title"] = json!(title);
            entry["description"] = summary(tool, DESCRIPTION_CHARS).into();
            entry["tags"] = json!(index.tags_of(position));
            entry["method"] = field("method");
            entry["path"] = field("path");
            Some(entry)
        })
        .collect();
    Value::Array(entries).to_string()
}
