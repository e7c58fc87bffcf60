//! Code mode's `search_tools`: discovery mode's arguments and ranking,
//! answered with each tool's TypeScript declaration, the signature a
//! script for `execute` codes against.
//!
//! Every tool an answer names is named as scripts call it: `name` is the
//! tool's identifier (`tools.<name>`), with the tool's own name beside it
//! as `tool` where the two differ. `structuredContent` is `{"tools":
//! [{"name", "tool"?, "typescript"}], "total": n}` (`detail: true` adds
//! each tool's full `inputSchema`); the text holds the same declarations
//! as one block of TypeScript. The declarations of one answer share a
//! budget of [`ANSWER_BYTES_PER_TOOL`] per tool: the largest is written at
//! a lower level of detail until they fit, so small declarations stay
//! whole. An empty `query` with `tags` lists those categories as
//! `{"name", "tool"?, "description"}`; `categories: true` (or no query and
//! no tags) lists the categories themselves. After the declarations,
//! `more` names the next candidates (`{"name", "tool"?, "title"}`, and
//! their identifiers in one comment line of the text), their bytes taken
//! from the declarations' budget. A query that is a tool's identifier or
//! name finds that tool first; a request that names several steps is
//! ranked step by step, the steps taking turns in the hits (see
//! [`steps`]).

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use mcp_core::{CallToolResult, Hint, JsonObject, ToolDef, ToolError, content::Content};
use serde_json::{Map, Value, json};

use super::typescript::{CommonArguments, DECLARATION_BYTES, LEVEL_COUNT, declaration_at, summary};
use crate::discovery::finder::{Ask, DEFAULT_LIMIT, Finder, MAX_LIMIT, MORE, SearchArgs};
use crate::discovery::view::{SEARCH_TOOLS, object};
use steps::{interleave, steps};

/// The bytes of declarations an answer holds per tool it shows.
pub(crate) const ANSWER_BYTES_PER_TOOL: usize = 520;
/// The bytes of an answer past which its `more` candidates go without
/// titles.
const MORE_TITLES_BYTES: usize = 6000;
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
            "query": {"type": "string", "description": "The task, in a few words (empty: list `tags`, or the categories)"},
            "limit": {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT, "default": DEFAULT_LIMIT},
            "tags": {"type": "array", "items": {"type": "string"}, "description": "Only tools of these categories"},
            "detail": {"type": "boolean", "default": false, "description": "Declarations in full (output fields too), with each tool's input JSON Schema"},
            "categories": {"type": "boolean", "default": false, "description": "List the categories with their tool counts"}
        }
    });
    let search = Arc::new(Search::new(finder, identifiers));
    mcp_core::tool(SEARCH_TOOLS)
        .description(description)
        .input_schema(object(schema))
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
    /// Each tool by its identifier and by its name.
    exact: HashMap<String, usize>,
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
        // Identifiers first: a name equal to another tool's identifier
        // does not take its place.
        let mut exact: HashMap<String, usize> = HashMap::new();
        for (position, identifier) in identifiers.iter().enumerate() {
            exact.entry(identifier.clone()).or_insert(position);
        }
        for (position, name) in finder.names().enumerate() {
            exact.entry(name.to_owned()).or_insert(position);
        }
        Self {
            finder,
            identifiers,
            exact,
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

    /// How an answer names the tool at `tool`: `name`, the identifier a
    /// script calls it by, and `tool`, its own name, where the two differ.
    fn named(&self, tool: usize) -> Map<String, Value> {
        let mut entry = Map::new();
        let Some(found) = self.finder.tool(tool) else {
            return entry;
        };
        let identifier = self.identifier(tool, &found.name);
        let differs = identifier != found.name;
        entry.insert("name".to_owned(), identifier.into());
        if differs {
            entry.insert("tool".to_owned(), found.name.clone().into());
        }
        entry
    }

    /// The candidates after the hits: how each is named, and its title.
    fn more(&self, rest: &[usize]) -> Vec<Value> {
        let rest = &rest[..rest.len().min(MORE)];
        self.finder
            .more(rest)
            .into_iter()
            .zip(rest)
            .map(|(candidate, &tool)| {
                let mut entry = self.named(tool);
                if let Some(title) = candidate.get("title") {
                    entry.insert("title".to_owned(), title.clone());
                }
                Value::Object(entry)
            })
            .collect()
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
        let (query, wanted, limit) = match args.ask(&self.finder) {
            Err(message) => return CallToolResult::error(message),
            Ok(Ask::Categories { limit }) => return self.finder.categories_answer(limit),
            Ok(Ask::Listing { tags, limit }) => ("", tags, limit),
            Ok(Ask::Search { query, tags, limit }) => (query, tags, limit),
        };
        let index = self.finder.index();
        let in_tags = |tool: usize| self.finder.in_tags(tool, &wanted);
        if query.is_empty() {
            let found: Vec<usize> = (0..index.len()).filter(|&tool| in_tags(tool)).collect();
            let shown: Vec<usize> = found.iter().copied().take(limit).collect();
            return self.listing(&shown, found.len());
        }
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
        let mut found = interleave(rankings);
        // A tool asked for by its identifier or name comes first.
        if let Some(&exact) = self.exact.get(query).filter(|&&tool| in_tags(tool)) {
            found.retain(|&tool| tool != exact);
            found.insert(0, exact);
        }
        let shown = &found[..limit.min(found.len())];
        let more = self.more(&found[shown.len()..]);
        self.declarations_of(shown, found.len(), args.detail, more)
    }

    /// The declarations of the tools at `shown`, within the answer's budget.
    fn declarations_of(
        &self,
        shown: &[usize],
        total: usize,
        detail: bool,
        more: Vec<Value>,
    ) -> CallToolResult {
        // The candidates after the hits, by name in the text: their bytes
        // (in the text and the structured content) come out of the
        // declarations' budget.
        let more_line = if more.is_empty() {
            String::new()
        } else {
            let named: Vec<&str> = more
                .iter()
                .filter_map(|candidate| candidate["name"].as_str())
                .collect();
            format!(
                "\n// more (search one for its declaration): {}\n",
                named.join(", ")
            )
        };
        let more_bytes = more_line.len() + Value::Array(more.clone()).to_string().len();
        // With `detail`, every declaration is written in full.
        let levels = if detail {
            vec![0; shown.len()]
        } else {
            self.fitted_levels(shown, more_bytes)
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
            let mut entry = self.named(tool);
            entry.insert("typescript".to_owned(), typescript.into());
            if detail {
                let schema = Value::Object(found.input_schema.to_object());
                text.push_str(&format!("// input schema: {schema}\n"));
                entry.insert("inputSchema".to_owned(), schema);
            }
            tools.push(Value::Object(entry));
        }
        let answer = |more: &[Value]| {
            let mut structured = json!({ "tools": tools, "total": total });
            let mut text = text.clone();
            if !more.is_empty() {
                text.push_str(&more_line);
                structured["more"] = Value::Array(more.to_vec());
            }
            let mut result = CallToolResult::structured(structured);
            result.content = vec![Content::text(text)];
            result
        };
        // Declarations at their least detail may leave too little room:
        // then the candidates go without titles.
        let result = answer(&more);
        let bytes = serde_json::to_string(&result).map_or(0, |text| text.len());
        if detail || bytes <= MORE_TITLES_BYTES {
            return result;
        }
        let untitled: Vec<Value> = more
            .iter()
            .map(|candidate| json!({ "name": candidate["name"] }))
            .collect();
        answer(&untitled)
    }

    /// The level of detail of each tool at `shown`: the most detailed ones
    /// within [`ANSWER_BYTES_PER_TOOL`] per tool less the `reserved` bytes
    /// (or one declaration's [`DECLARATION_BYTES`] for fewer tools),
    /// lowering the largest
    /// declaration first (the sizes of later hits weigh more), then raising
    /// the best hits again while the answer still fits.
    fn fitted_levels(&self, shown: &[usize], reserved: usize) -> Vec<usize> {
        let budget = (ANSWER_BYTES_PER_TOOL * shown.len())
            .saturating_sub(reserved)
            .max(DECLARATION_BYTES);
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

    /// A category listing: how each tool is named, and its description.
    fn listing(&self, shown: &[usize], total: usize) -> CallToolResult {
        let mut tools = Vec::with_capacity(shown.len());
        let mut text = format!(
            "// {} of {total} tools; search one for its declaration\n",
            shown.len()
        );
        for &tool in shown {
            let Some(found) = self.finder.tool(tool) else {
                continue;
            };
            let identifier = self.identifier(tool, &found.name);
            let description = summary(found, LISTED_DESCRIPTION_CHARS);
            text.push_str(&format!("{identifier}: {description}\n"));
            let mut entry = self.named(tool);
            entry.insert("description".to_owned(), description.into());
            tools.push(Value::Object(entry));
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
         `await tools.<name>(input)`, every name shown being callable so (`tool`: the tool's own name, where it differs). \
         An empty `query` with `tags` lists a category; `categories: true` lists the categories; `more` names the \
         next candidates."
    );
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
