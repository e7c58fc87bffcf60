//! Answers to `search_tools`: the index of one tool set plus what results
//! show of each tool.

use mcp_core::{CallToolResult, Tool, ToolSchema, content::Content};
use serde::Deserialize;
use serde_json::{Map, Value, json};

use super::compact::{compact_schema, cut, one_line, sentence_within};
use super::document::split_first_paragraph;
use super::index::SearchIndex;
use super::signals::Signals;
use super::toolsets::Toolsets;
use super::words::strip_markup;

/// The results of a search when `limit` is not given.
pub(crate) const DEFAULT_LIMIT: usize = 5;
/// The results of a category listing when `limit` is not given.
pub(crate) const DEFAULT_LIST_LIMIT: usize = 50;
/// The most results one search gives.
pub(crate) const MAX_LIMIT: usize = 50;
/// How many candidates after the results an answer names (`more`).
pub(crate) const MORE: usize = 15;
/// The bytes a search answer of up to [`DEFAULT_LIMIT`] results aims at
/// (its text, the structured content as JSON); each result beyond adds
/// [`BYTES_PER_RESULT`].
const ANSWER_BYTES: usize = 6000;
/// The bytes each result beyond [`DEFAULT_LIMIT`] adds to the budget.
const BYTES_PER_RESULT: usize = 1000;
/// What each result says at each level of detail, from the most: the
/// bytes its compact input schema aims at and the characters of its
/// description. An answer over its budget lowers the largest results
/// first, later ranks sooner.
const DETAIL_LEVELS: [(usize, usize); 5] =
    [(900, 300), (600, 200), (400, 160), (250, 120), (0, 100)];
/// How much more a result's size weighs, for lowering its detail, than the
/// one before it: a size counts `RANK_WEIGHT + rank` times.
const RANK_WEIGHT: usize = 4;
/// The longest title a result or candidate shows, in characters (some
/// documents' summaries run to paragraphs).
const TITLE_CHARS: usize = 100;
/// The longest description of a category, in characters.
const CATEGORY_DESCRIPTION_CHARS: usize = 100;

/// The arguments of `search_tools`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SearchArgs {
    /// What the caller wants to do, in words (empty to list `tags`, or
    /// the categories without `tags`).
    #[serde(default)]
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
    /// Whether to list the categories (names, descriptions, tool counts)
    /// instead of tools.
    #[serde(default)]
    pub(crate) categories: bool,
}

/// What a `search_tools` call asks for, its arguments checked.
pub(crate) enum Ask<'a> {
    /// The categories, at most `limit`.
    Categories { limit: usize },
    /// Every tool of the categories in `tags`, at most `limit`.
    Listing { tags: Vec<String>, limit: usize },
    /// The best tools for `query` (among `tags`, if any), at most `limit`.
    Search {
        query: &'a str,
        tags: Vec<String>,
        limit: usize,
    },
}

impl SearchArgs {
    /// What these arguments ask of `finder`, or the message of the error
    /// result to return: a limit out of range, or an unknown tag.
    pub(crate) fn ask(&self, finder: &Finder) -> Result<Ask<'_>, String> {
        let query = self.query.trim();
        let tags: Vec<String> = self.tags.iter().map(|tag| tag.to_lowercase()).collect();
        let categories = self.categories || (query.is_empty() && tags.is_empty());
        let limit = self.limit.unwrap_or(if categories || query.is_empty() {
            DEFAULT_LIST_LIMIT
        } else {
            DEFAULT_LIMIT
        });
        if !(1..=MAX_LIMIT).contains(&limit) {
            return Err(format!(
                "`limit` must be between 1 and {MAX_LIMIT}, not {limit}"
            ));
        }
        if categories {
            return Ok(Ask::Categories { limit });
        }
        if let Some(unknown) = finder.unknown_tag(&tags) {
            return Err(unknown);
        }
        Ok(if query.is_empty() {
            Ask::Listing { tags, limit }
        } else {
            Ask::Search { query, tags, limit }
        })
    }
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
    toolsets: Toolsets,
    /// The tools themselves, for code mode's declarations.
    #[cfg(feature = "code-mode")]
    tools: Vec<Tool>,
}

impl Finder {
    /// The finder of `tools`, in their order.
    #[cfg(all(test, feature = "code-mode"))]
    pub(crate) fn new(tools: &[&Tool]) -> Self {
        Self::with_toolsets(tools, Toolsets::default())
    }

    /// The finder of `tools`, in their order, each in its toolsets of
    /// `toolsets` (its categories, and words to search).
    pub(crate) fn with_toolsets(tools: &[&Tool], toolsets: Toolsets) -> Self {
        let index = SearchIndex::with_signals(tools.iter().copied(), &toolsets, Signals::default());
        let entries = tools
            .iter()
            .map(|tool| Entry {
                name: tool.name.clone(),
                title: tool
                    .title
                    .as_deref()
                    .or_else(|| tool.annotations.as_ref()?.title.as_deref())
                    .map(|title| cut(strip_markup(title).trim(), TITLE_CHARS)),
                description: short_description(tool.description.as_deref().unwrap_or_default()),
                input_schema: tool.input_schema.clone(),
            })
            .collect();
        Self {
            index,
            entries,
            toolsets,
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

    /// The answer to `search_tools` with `args`: `{"tools": [...],
    /// "total": n, "more": [...]}` as structured content and, the same, as
    /// JSON text; the categories with `categories` (or no query and no
    /// tags); bad arguments give an error result saying what to change.
    pub(crate) fn answer(&self, args: &SearchArgs) -> CallToolResult {
        let (query, tags, limit) = match args.ask(self) {
            Err(message) => return CallToolResult::error(message),
            Ok(Ask::Categories { limit }) => return self.categories_answer(limit),
            Ok(Ask::Listing { tags, limit }) => ("", tags, limit),
            Ok(Ask::Search { query, tags, limit }) => (query, tags, limit),
        };
        let in_tags = |tool: usize| self.in_tags(tool, &tags);
        if query.is_empty() {
            let found: Vec<usize> = (0..self.entries.len())
                .filter(|&tool| in_tags(tool))
                .collect();
            let tools: Vec<Value> = found
                .iter()
                .take(limit)
                .map(|&tool| self.entry_json(tool, None, DETAIL_LEVELS[0].1))
                .collect();
            return self.result(tools, found.len(), Vec::new());
        }
        let found: Vec<usize> = self
            .index
            .search(query, usize::MAX, in_tags)
            .into_iter()
            .map(|hit| hit.tool)
            .collect();
        let shown = &found[..limit.min(found.len())];
        let more = self.more(&found[shown.len()..]);
        if args.detail {
            let tools = shown
                .iter()
                .map(|&tool| self.entry_json(tool, Some(usize::MAX), DETAIL_LEVELS[0].1))
                .collect();
            return self.result(tools, found.len(), more);
        }
        self.fitted(shown, found.len(), more, limit)
    }

    /// The answer showing `shown` at the most detail that keeps the whole
    /// answer within its budget: the largest results are lowered first,
    /// later ranks sooner.
    fn fitted(
        &self,
        shown: &[usize],
        total: usize,
        more: Vec<Value>,
        limit: usize,
    ) -> CallToolResult {
        let budget = ANSWER_BYTES + limit.saturating_sub(DEFAULT_LIMIT) * BYTES_PER_RESULT;
        let mut levels = vec![0; shown.len()];
        let entry = |tool: usize, level: usize| {
            let (schema, description) = DETAIL_LEVELS[level];
            self.entry_json(tool, Some(schema), description)
        };
        let mut entries: Vec<Value> = shown.iter().map(|&tool| entry(tool, 0)).collect();
        loop {
            let result = self.result(entries.clone(), total, more.clone());
            if text_bytes(&result) <= budget {
                return result;
            }
            let largest = (0..shown.len())
                .filter(|&position| levels[position] + 1 < DETAIL_LEVELS.len())
                .max_by_key(|&position| {
                    entries[position].to_string().len() * (RANK_WEIGHT + position)
                });
            let Some(position) = largest else {
                // Every result says the least it can: the candidates go
                // without titles.
                let untitled: Vec<Value> = more
                    .iter()
                    .map(|candidate| json!({ "name": candidate["name"] }))
                    .collect();
                return self.result(entries, total, untitled);
            };
            levels[position] += 1;
            entries[position] = entry(shown[position], levels[position]);
        }
    }

    /// The result of `tools` out of `total` found, with the candidates
    /// after them: structured content, and the same JSON as text (what a
    /// client that shows a model only the text gives it).
    fn result(&self, tools: Vec<Value>, total: usize, more: Vec<Value>) -> CallToolResult {
        let mut structured = json!({ "tools": tools, "total": total });
        if !more.is_empty() {
            structured["more"] = Value::Array(more);
        }
        let text = structured.to_string();
        let mut result = CallToolResult::structured(structured);
        result.content = vec![Content::text(text)];
        result
    }

    /// The candidates after the results: `{name, title}` of the first
    /// [`MORE`] of `rest`.
    pub(crate) fn more(&self, rest: &[usize]) -> Vec<Value> {
        rest.iter()
            .take(MORE)
            .filter_map(|&tool| self.entries.get(tool))
            .map(|entry| match &entry.title {
                Some(title) => json!({ "name": entry.name, "title": one_line(title) }),
                None => json!({ "name": entry.name }),
            })
            .collect()
    }

    /// Whether the tool at `tool` is in one of `tags` (lowercase; none:
    /// every tool is).
    pub(crate) fn in_tags(&self, tool: usize, tags: &[String]) -> bool {
        tags.is_empty()
            || self
                .index
                .tags_of(tool)
                .iter()
                .any(|tag| tags.contains(&tag.to_lowercase()))
    }

    /// The categories, most tools first, at most `limit`: each one's name,
    /// number of tools and a description (its own, else the titles of its
    /// first tools).
    pub(crate) fn categories_answer(&self, limit: usize) -> CallToolResult {
        let categories = self.index.categories();
        let total = categories.len();
        let listed: Vec<Value> = categories
            .into_iter()
            .take(limit)
            .map(|(tag, count)| {
                json!({ "name": tag, "description": self.category_description(&tag), "tools": count })
            })
            .collect();
        let mut text = String::new();
        for category in &listed {
            text.push_str(&format!(
                "{} ({}): {}\n",
                category["name"].as_str().unwrap_or_default(),
                category["tools"],
                category["description"].as_str().unwrap_or_default()
            ));
        }
        text.push_str(&format!(
            "{} of {total} categories; list one with `tags` and an empty query, or search within it with `tags` and a query",
            listed.len()
        ));
        let mut result =
            CallToolResult::structured(json!({ "categories": listed, "total": total }));
        result.content = vec![Content::text(text)];
        result
    }

    /// What the category `tag` is: the first sentence of its description,
    /// else the titles (or names) of its first tools, cut to
    /// [`CATEGORY_DESCRIPTION_CHARS`].
    fn category_description(&self, tag: &str) -> String {
        if let Some(description) = self.toolsets.description(tag) {
            return sentence_within(description, CATEGORY_DESCRIPTION_CHARS);
        }
        let wanted = [tag.to_lowercase()];
        let titles: Vec<&str> = (0..self.entries.len())
            .filter(|&tool| self.in_tags(tool, &wanted))
            .map(|tool| {
                let entry = &self.entries[tool];
                entry.title.as_deref().unwrap_or(&entry.name)
            })
            .take(4)
            .collect();
        cut(&titles.join("; "), CATEGORY_DESCRIPTION_CHARS)
    }

    /// A message naming the categories when one of `wanted` is none.
    pub(crate) fn unknown_tag(&self, wanted: &[String]) -> Option<String> {
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

    /// One result: name, title, description cut to `description_chars`,
    /// and the input schema: none, compact within `schema_bytes`, or whole
    /// for `usize::MAX`.
    fn entry_json(
        &self,
        tool: usize,
        schema_bytes: Option<usize>,
        description_chars: usize,
    ) -> Value {
        let entry = &self.entries[tool];
        let mut json = Map::new();
        json.insert("name".to_owned(), entry.name.clone().into());
        if let Some(title) = &entry.title {
            json.insert("title".to_owned(), title.clone().into());
        }
        json.insert(
            "description".to_owned(),
            cut(&entry.description, description_chars).into(),
        );
        match schema_bytes {
            None => {}
            Some(usize::MAX) => {
                json.insert(
                    "inputSchema".to_owned(),
                    Value::Object(entry.input_schema.to_object()),
                );
            }
            Some(bytes) => {
                json.insert(
                    "inputSchema".to_owned(),
                    compact_schema(&entry.input_schema, bytes),
                );
            }
        }
        Value::Object(json)
    }
}

/// The bytes of `result`'s text.
fn text_bytes(result: &CallToolResult) -> usize {
    result
        .content
        .iter()
        .filter_map(Content::as_text)
        .map(str::len)
        .sum()
}

/// The first paragraph of `description`, without markup, cut to
/// the most a result shows.
fn short_description(description: &str) -> String {
    let (first, _) = split_first_paragraph(description);
    cut(strip_markup(first).trim(), DETAIL_LEVELS[0].1)
}

#[cfg(test)]
mod tests {
    use mcp_core::ToolDef;

    use super::*;

    fn tool(name: &str, title: &str, toolset: &str) -> ToolDef {
        mcp_core::tool(name)
            .title(title)
            .toolset(toolset)
            .run(|| async { "" })
            .unwrap()
    }

    #[test]
    fn a_category_is_its_own_description_else_its_first_titles() {
        let defs = [
            tool("star", "Star a repository", "activity"),
            tool("watch", "Watch a repository", "activity"),
            tool("open_issue", "Open an issue", "issues"),
        ];
        let tools: Vec<&Tool> = defs.iter().map(ToolDef::tool).collect();
        let toolsets = Toolsets::new(
            &defs,
            [(
                "Activity",
                "<p>Activity APIs provide access to notifications. And more.</p>",
            )],
        );
        let finder = Finder::with_toolsets(&tools, toolsets);
        let listed = finder.categories_answer(10).structured_content.unwrap();
        assert_eq!(
            listed["categories"],
            json!([
                {"name": "activity", "description": "Activity APIs provide access to notifications.", "tools": 2},
                {"name": "issues", "description": "Open an issue", "tools": 1},
            ])
        );
    }
}
