//! Answers to `search_tools`: the index of one tool set plus what results
//! show of each tool.

use mcp_core::{CallToolResult, Tool, ToolSchema, content::Content};
use serde::Deserialize;
use serde_json::{Map, Value, json};

use super::compact::{compact_schema, cut, one_line};
use super::document::split_first_paragraph;
use super::index::SearchIndex;
use super::words::strip_markup;

/// The results of a search when `limit` is not given.
pub(crate) const DEFAULT_LIMIT: usize = 5;
/// The results of a category listing when `limit` is not given.
pub(crate) const DEFAULT_LIST_LIMIT: usize = 50;
/// The most results one search gives.
pub(crate) const MAX_LIMIT: usize = 50;
/// The longest description a result carries, in characters.
const DESCRIPTION_CHARS: usize = 300;

/// The arguments of `search_tools`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SearchArgs {
    /// What the caller wants to do, in words (empty to list `tags`).
    pub(crate) query: String,
    /// How many results (1 to 50).
    #[serde(default)]
    pub(crate) limit: Option<usize>,
    /// Only tools in one of these categories.
    #[serde(default)]
    pub(crate) tags: Vec<String>,
    /// Whether results carry each tool's full input schema.
    #[serde(default)]
    pub(crate) detail: bool,
}

/// What a result says of one tool.
struct Entry {
    name: String,
    title: Option<String>,
    /// The first paragraph of the description, without markup, cut.
    description: String,
    input_schema: ToolSchema,
}

/// The index of a tool set and the entries results are made of.
pub(crate) struct Finder {
    index: SearchIndex,
    entries: Vec<Entry>,
    /// The tools themselves, for code mode's declarations.
    #[cfg(feature = "code-mode")]
    tools: Vec<Tool>,
}

impl Finder {
    /// The finder of `tools`, in their order.
    pub(crate) fn new(tools: &[&Tool]) -> Self {
        let index = SearchIndex::new(tools.iter().copied());
        let entries = tools
            .iter()
            .map(|tool| Entry {
                name: tool.name.clone(),
                title: tool
                    .title
                    .clone()
                    .or_else(|| tool.annotations.as_ref()?.title.clone()),
                description: short_description(tool.description.as_deref().unwrap_or_default()),
                input_schema: tool.input_schema.clone(),
            })
            .collect();
        Self {
            index,
            entries,
            #[cfg(feature = "code-mode")]
            tools: tools.iter().map(|tool| (*tool).clone()).collect(),
        }
    }

    /// The tool at `index` in the finder's order, as it was given.
    #[cfg(feature = "code-mode")]
    pub(crate) fn tool(&self, index: usize) -> Option<&Tool> {
        self.tools.get(index)
    }

    /// The index.
    pub(crate) fn index(&self) -> &SearchIndex {
        &self.index
    }

    /// The names of the tools, in order.
    pub(crate) fn names(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|entry| entry.name.as_str())
    }

    /// The answer to `search_tools` with `args`: `{"tools": [...]}` as
    /// structured content, names and one-line descriptions as text; bad
    /// arguments give an error result saying what to change.
    pub(crate) fn answer(&self, args: &SearchArgs) -> CallToolResult {
        let query = args.query.trim();
        let listing = query.is_empty();
        if listing && args.tags.is_empty() {
            return CallToolResult::error(
                "`query` is empty: describe the task in a few words, or give `tags` to list a category",
            );
        }
        let default = if listing {
            DEFAULT_LIST_LIMIT
        } else {
            DEFAULT_LIMIT
        };
        let limit = args.limit.unwrap_or(default);
        if !(1..=MAX_LIMIT).contains(&limit) {
            return CallToolResult::error(format!(
                "`limit` must be between 1 and {MAX_LIMIT}, not {limit}"
            ));
        }
        let wanted: Vec<String> = args.tags.iter().map(|tag| tag.to_lowercase()).collect();
        if let Some(unknown) = self.unknown_tag(&wanted) {
            return CallToolResult::error(unknown);
        }
        let in_tags = |tool: usize| {
            wanted.is_empty()
                || self
                    .index
                    .tags_of(tool)
                    .iter()
                    .any(|tag| wanted.contains(&tag.to_lowercase()))
        };
        let found: Vec<usize> = if listing {
            (0..self.entries.len())
                .filter(|&tool| in_tags(tool))
                .collect()
        } else {
            self.index
                .search(query, usize::MAX, in_tags)
                .into_iter()
                .map(|hit| hit.tool)
                .collect()
        };
        let total = found.len();
        let tools: Vec<Value> = found
            .into_iter()
            .take(limit)
            .map(|tool| self.entry_json(tool, !listing, args.detail))
            .collect();
        let brief: Vec<Value> = tools
            .iter()
            .map(|tool| {
                let line = tool["description"]
                    .as_str()
                    .map(one_line)
                    .unwrap_or_default();
                json!({ "name": tool["name"], "description": line })
            })
            .collect();
        let mut result = CallToolResult::structured(json!({ "tools": tools, "total": total }));
        let text = json!({ "tools": brief, "total": total, "next": "call_tool with a name and its arguments; input schemas are in structuredContent" });
        result.content = vec![Content::text(text.to_string())];
        result
    }

    /// A message naming the categories when one of `wanted` is none.
    fn unknown_tag(&self, wanted: &[String]) -> Option<String> {
        let categories = self.index.categories();
        let unknown = wanted.iter().find(|tag| {
            !categories
                .iter()
                .any(|(known, _)| known.to_lowercase() == **tag)
        })?;
        let known: Vec<&str> = categories.iter().map(|(tag, _)| tag.as_str()).collect();
        Some(format!(
            "no tool has the tag `{unknown}`; the tags are: {}",
            if known.is_empty() {
                "(none)".to_owned()
            } else {
                known.join(", ")
            }
        ))
    }

    /// One result: name, title, description, and (for searches) the input
    /// schema, compact unless `detail`.
    fn entry_json(&self, tool: usize, with_schema: bool, detail: bool) -> Value {
        let entry = &self.entries[tool];
        let mut json = Map::new();
        json.insert("name".to_owned(), entry.name.clone().into());
        if let Some(title) = &entry.title {
            json.insert("title".to_owned(), title.clone().into());
        }
        json.insert("description".to_owned(), entry.description.clone().into());
        if with_schema {
            let schema = if detail {
                Value::Object((*entry.input_schema).clone())
            } else {
                compact_schema(&entry.input_schema)
            };
            json.insert("inputSchema".to_owned(), schema);
        }
        Value::Object(json)
    }
}

/// The first paragraph of `description`, without markup, cut to
/// [`DESCRIPTION_CHARS`].
fn short_description(description: &str) -> String {
    let (first, _) = split_first_paragraph(description);
    cut(strip_markup(first).trim(), DESCRIPTION_CHARS)
}
