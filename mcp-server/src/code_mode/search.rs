//! Code mode's `search_tools`: discovery mode's arguments and ranking,
//! answered with each tool's TypeScript declaration, the signature a
//! script for `execute` codes against.
//!
//! `structuredContent` is `{"tools": [{"name", "typescript"}], "total": n}`
//! (`detail: true` adds each tool's full `inputSchema`); the text holds the
//! same declarations as one block of TypeScript. The declarations of one
//! answer share a budget of [`ANSWER_BYTES_PER_TOOL`] per tool: the largest
//! is written at a lower level of detail until they fit, so small
//! declarations stay whole. An empty `query` with `tags` lists those
//! categories as `{"name", "identifier", "description"}`. A request that
//! names several steps is ranked step by step, the steps taking turns in
//! the hits (see [`steps`]).

use std::sync::{Arc, OnceLock};

use mcp_core::{CallToolResult, Hint, JsonObject, ToolDef, ToolError, content::Content};
use serde_json::{Map, Value, json};

use super::typescript::{
    CommonArguments, DECLARATION_BYTES, LEVEL_COUNT, declaration_at, declares_envelope, summary,
};
use crate::discovery::finder::{DEFAULT_LIMIT, DEFAULT_LIST_LIMIT, Finder, MAX_LIMIT, SearchArgs};
use crate::discovery::view::SEARCH_TOOLS;
use steps::{interleave, steps};

/// The bytes of declarations an answer holds per tool it shows.
pub(crate) const ANSWER_BYTES_PER_TOOL: usize = 520;
/// How much more a hit's size weighs, for lowering its detail, than the one
/// before it: a size counts `RANK_WEIGHT + rank` times.
const RANK_WEIGHT: usize = 4;
/// How many bytes of the tool's description may name categories.
const TAG_LIST_BYTES: usize = 600;
/// The longest description a category listing shows, in characters.
const LISTED_DESCRIPTION_CHARS: usize = 120;

/// The `search_tools` tool of code mode over `finder`, whose `i`-th tool is
/// `tools.<identifiers[i]>` in the sandbox.
pub(crate) fn search_tool<C: Send + Sync + 'static>(
    finder: Arc<Finder>,
    identifiers: Arc<[String]>,
) -> Result<ToolDef<C>, ToolError> {
    let description = description(&finder);
    let schema = json!({
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "The task, in a few words (empty to list `tags`)"},
            "limit": {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT, "default": DEFAULT_LIMIT},
            "tags": {"type": "array", "items": {"type": "string"}, "description": "Only tools of these categories"},
            "detail": {"type": "boolean", "default": false, "description": "Declarations in full (output fields too), with each tool's input JSON Schema"}
        },
        "required": ["query"]
    });
    let search = Arc::new(Search::new(finder, identifiers));
    mcp_core::tool(SEARCH_TOOLS)
        .description(description)
        .input_schema(match schema {
            Value::Object(schema) => schema,
            _ => JsonObject::new(),
        })
        .annotations([Hint::Read, Hint::ClosedWorld])
        .run(move |arguments: JsonObject| {
            let search = search.clone();
            async move {
                match serde_json::from_value::<SearchArgs>(Value::Object(arguments)) {
                    Ok(args) => search.answer(&args),
                    Err(error) => CallToolResult::error(format!("invalid arguments: {error}")),
                }
            }
        })
}

/// The tool set searched, with the declarations written so far.
struct Search {
    finder: Arc<Finder>,
    identifiers: Arc<[String]>,
    /// The argument descriptions declarations leave out.
    common: CommonArguments,
    /// Each tool's declaration at each level of detail, written on first use.
    declarations: Box<[OnceLock<String>]>,
}

impl Search {
    fn new(finder: Arc<Finder>, identifiers: Arc<[String]>) -> Self {
        let declarations = (0..finder.index().len() * LEVEL_COUNT)
            .map(|_| OnceLock::new())
            .collect();
        let count = finder.index().len();
        let common = CommonArguments::of((0..count).filter_map(|tool| finder.tool(tool)));
        Self {
            finder,
            identifiers,
            common,
            declarations,
        }
    }

    /// The sandbox identifier of the tool at `tool`.
    fn identifier(&self, tool: usize, name: &str) -> String {
        self.identifiers
            .get(tool)
            .cloned()
            .unwrap_or_else(|| name.to_owned())
    }

    /// The declaration of the tool at `tool` at `level`.
    fn declaration(&self, tool: usize, level: usize) -> &str {
        let slot = &self.declarations[tool * LEVEL_COUNT + level];
        slot.get_or_init(|| match self.finder.tool(tool) {
            Some(found) => declaration_at(
                found,
                &self.identifier(tool, &found.name),
                level,
                &self.common,
            ),
            None => String::new(),
        })
    }

    /// The answer to `args`; bad arguments give an error result saying
    /// what to change.
    fn answer(&self, args: &SearchArgs) -> CallToolResult {
        let query = args.query.trim();
        let listing = query.is_empty();
        if listing && args.tags.is_empty() {
            return CallToolResult::error(
                "`query` is empty: describe the task in a few words, or give `tags` to list a category",
            );
        }
        let limit = args.limit.unwrap_or(if listing {
            DEFAULT_LIST_LIMIT
        } else {
            DEFAULT_LIMIT
        });
        if !(1..=MAX_LIMIT).contains(&limit) {
            return CallToolResult::error(format!(
                "`limit` must be between 1 and {MAX_LIMIT}, not {limit}"
            ));
        }
        let wanted: Vec<String> = args.tags.iter().map(|tag| tag.to_lowercase()).collect();
        let index = self.finder.index();
        let categories = index.categories();
        if let Some(unknown) = wanted.iter().find(|tag| {
            !categories
                .iter()
                .any(|(known, _)| known.to_lowercase() == **tag)
        }) {
            let known: Vec<&str> = categories.iter().map(|(tag, _)| tag.as_str()).collect();
            let known = if known.is_empty() {
                "(none)".to_owned()
            } else {
                known.join(", ")
            };
            return CallToolResult::error(format!(
                "no tool has the tag `{unknown}`; the tags are: {known}"
            ));
        }
        let in_tags = |tool: usize| {
            wanted.is_empty()
                || index
                    .tags_of(tool)
                    .iter()
                    .any(|tag| wanted.contains(&tag.to_lowercase()))
        };
        let found: Vec<usize> = if listing {
            (0..index.len()).filter(|&tool| in_tags(tool)).collect()
        } else {
            let rankings = steps(query)
                .into_iter()
                .map(|step| {
                    index
                        .search(step, usize::MAX, in_tags)
                        .into_iter()
                        .map(|hit| hit.tool)
                        .collect()
                })
                .collect();
            interleave(rankings)
        };
        let total = found.len();
        let shown: Vec<usize> = found.into_iter().take(limit).collect();
        if listing {
            self.listing(&shown, total)
        } else {
            self.declarations_of(&shown, total, args.detail)
        }
    }

    /// The declarations of the tools at `shown`, within the answer's budget.
    fn declarations_of(&self, shown: &[usize], total: usize, detail: bool) -> CallToolResult {
        // With `detail`, every declaration is written in full.
        let levels = if detail {
            vec![0; shown.len()]
        } else {
            self.fitted_levels(shown)
        };
        let mut tools = Vec::with_capacity(shown.len());
        let mut text = format!(
            "// {} of {total} tools; in `execute`, call one as `await tools.<identifier>(input)`\n",
            shown.len()
        );
        for (&tool, &level) in shown.iter().zip(&levels) {
            let Some(found) = self.finder.tool(tool) else {
                continue;
            };
            let typescript = self.declaration(tool, level);
            text.push('\n');
            text.push_str(typescript);
            text.push('\n');
            let mut entry = Map::new();
            entry.insert("name".to_owned(), found.name.clone().into());
            entry.insert("typescript".to_owned(), typescript.into());
            if detail {
                let schema = Value::Object((*found.input_schema).clone());
                text.push_str(&format!("// input schema: {schema}\n"));
                entry.insert("inputSchema".to_owned(), schema);
            }
            tools.push(Value::Object(entry));
        }
        let mut result = CallToolResult::structured(json!({ "tools": tools, "total": total }));
        result.content = vec![Content::text(text)];
        result
    }

    /// The level of detail of each tool at `shown`: the most detailed ones
    /// within [`ANSWER_BYTES_PER_TOOL`] per tool (or one declaration's
    /// [`DECLARATION_BYTES`] for fewer tools), lowering the largest
    /// declaration first (the sizes of later hits weigh more), then raising
    /// the best hits again while the answer still fits.
    fn fitted_levels(&self, shown: &[usize]) -> Vec<usize> {
        let budget = (ANSWER_BYTES_PER_TOOL * shown.len()).max(DECLARATION_BYTES);
        let mut levels = vec![0; shown.len()];
        let mut sizes: Vec<usize> = shown
            .iter()
            .map(|&tool| self.declaration(tool, 0).len())
            .collect();
        while sizes.iter().sum::<usize>() > budget {
            // The largest declaration goes down first, a later hit's
            // counting more: the best hits keep most.
            let largest = (0..shown.len())
                .filter(|&position| levels[position] + 1 < LEVEL_COUNT)
                .max_by_key(|&position| sizes[position] * (RANK_WEIGHT + position));
            let Some(position) = largest else {
                break;
            };
            levels[position] += 1;
            sizes[position] = self.declaration(shown[position], levels[position]).len();
        }
        // A step down may free more than needed: give it back to the best
        // hits first.
        for position in 0..shown.len() {
            while levels[position] > 0 {
                let richer = self
                    .declaration(shown[position], levels[position] - 1)
                    .len();
                let total = sizes.iter().sum::<usize>() - sizes[position] + richer;
                if total > budget {
                    break;
                }
                levels[position] -= 1;
                sizes[position] = richer;
            }
        }
        levels
    }

    /// A category listing: each tool's name, identifier and description.
    fn listing(&self, shown: &[usize], total: usize) -> CallToolResult {
        let mut tools = Vec::with_capacity(shown.len());
        let mut text = format!(
            "// {} of {total} tools; search a tool's name for its declaration\n",
            shown.len()
        );
        for &tool in shown {
            let Some(found) = self.finder.tool(tool) else {
                continue;
            };
            let identifier = self.identifier(tool, &found.name);
            let description = summary(found, LISTED_DESCRIPTION_CHARS);
            text.push_str(&format!("{identifier}: {description}\n"));
            tools.push(
                json!({ "name": found.name, "identifier": identifier, "description": description }),
            );
        }
        let mut result = CallToolResult::structured(json!({ "tools": tools, "total": total }));
        result.content = vec![Content::text(text)];
        result
    }
}

/// The description of `search_tools`: what it answers and how to call what
/// it finds, then the categories with their tool counts (the largest first,
/// within [`TAG_LIST_BYTES`]).
fn description(finder: &Finder) -> String {
    let index = finder.index();
    let count = index.len();
    let mut description = format!(
        "Find tools of this server ({count}) for a task. Returns each tool's TypeScript declaration \
         (`detail`: in full, output fields too, with the input JSON Schema). Call them from a script run by `execute`: \
         `await tools.<identifier>(input)`. An empty `query` with `tags` lists a category \
         (name, identifier, description)."
    );
    if (0..count).any(|tool| finder.tool(tool).is_some_and(declares_envelope)) {
        description.push_str(
            " A generated API tool resolves to `{unvalidatedResponse, schemaViolations}` instead when \
             the upstream response does not match its document.",
        );
    }
    let categories = index.categories();
    if categories.is_empty() {
        return description;
    }
    let start = description.len();
    description.push_str(" Tags: ");
    let mut listed = 0;
    for (tag, tools) in &categories {
        let item = format!("{tag} ({tools})");
        if listed > 0 && description.len() - start + item.len() > TAG_LIST_BYTES {
            break;
        }
        if listed > 0 {
            description.push_str(", ");
        }
        description.push_str(&item);
        listed += 1;
    }
    if listed < categories.len() {
        description.push_str(&format!(", and {} more", categories.len() - listed));
    }
    description.push('.');
    description
}

mod steps;
#[cfg(all(test, feature = "openapi"))]
mod tests;
