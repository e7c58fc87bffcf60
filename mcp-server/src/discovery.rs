//! Discovery mode: `tools/list` shows two meta-tools (plus pinned tools)
//! instead of every tool, and the model finds tools by searching.
//!
//! - `search_tools` (`query`, `limit` 1 to 50 with 5 by default, `tags`,
//!   `detail`, `categories`) ranks every hosted tool for a task and returns
//!   `structuredContent` `{"tools": [...], "total": n, "more": [...]}`:
//!   each tool's name, title, description (first paragraph) and a compact
//!   `inputSchema` (argument types, enums, `required`, one-line
//!   descriptions, field names of object arguments), or the full input
//!   schema with `detail: true`; then the next 15 candidates as `{name,
//!   title}` (`more`). The text block is the same JSON, so a client that
//!   shows a model only the text still gives it every argument; a 5-result
//!   answer's text fits 6000 bytes: the largest results say less first. An empty `query` with `tags`
//!   lists those categories (names and descriptions only, 50 by default);
//!   `categories: true`, or no query and no tags, lists the categories
//!   (name, tool count, and what the category is: the first sentence of
//!   its description, which an OpenAPI tag carries, see
//!   [`ToolSource::describe_toolset`](crate::ToolSource::describe_toolset),
//!   else the titles of its first tools).
//! - `call_tool` (`name`, `arguments`) runs the named tool exactly as a
//!   direct `tools/call` would (middleware, argument checks, tasks,
//!   progress, cancellation) and returns its result unchanged; an unknown
//!   name is an `isError` result naming the closest tools.
//!
//! Every tool also stays callable directly. A hosted tool named like a
//! meta-tool is reachable through `call_tool` only.
//!
//! The ranking is a field-weighted BM25 (see `index`) over each tool's
//! own words: its name (split at `_ - . /` and camelCase), title,
//! description (the first paragraph, and the rest at a lower weight),
//! tags (route map tags and its operation's tags, the tool's toolsets), the
//! words of its OpenAPI path and the intent of its method (list, get,
//! create, update, delete), its arguments (names, descriptions, enum
//! values, and the field names and definitions of object arguments) and
//! its result's field names. Words are stemmed; each request word also
//! matches related words (the WordNet lexicon of `lexicon.rs`, generated
//! by `cargo xtask lexicon`, and a small table of API vocabulary), the
//! longer words it is a part of, and words of the same root; phrasal verbs
//! (`get rid of`) read as one word, and literal values (`deploy.yml`,
//! `pi_123`, quoted text) and words naming a value (`called Pro plan`)
//! count less. Scores then weigh how many request words a tool matches,
//! how much of its operation name the request covers (the tool that does
//! what was asked and no more), and whether the request reads (a question)
//! or changes something. The weights were tuned on the development halves
//! of the task sets only (see `quality`). The index is made once per tool
//! set: when the server is built and after each change.

pub(crate) mod compact;
pub(crate) mod document;
pub(crate) mod finder;
mod index;
mod lexicon;
#[cfg(all(test, feature = "openapi"))]
mod quality;
mod request;
mod signals;
pub(crate) mod suggest;
mod synonyms;
pub(crate) mod toolsets;
pub(crate) mod view;
mod words;

/// Discovery mode's settings: which tools `tools/list` still shows.
///
/// ```
/// use mcp_server::{Discovery, Server};
///
/// let ping = |name: &str| mcp_core::tool(name).description("Answers pong.").run(|| async { "pong" }).unwrap();
/// let server = Server::builder()
///     .tools([ping("whoami"), ping("list_stargazers"), ping("create_issue")])
///     .discovery(Discovery::search().pin(["whoami"]))
///     .build()?;
/// let listed: Vec<String> = server.listed_tools().into_iter().map(|tool| tool.name).collect();
/// assert_eq!(listed, ["search_tools", "call_tool", "whoami"]);
/// // Every tool is still hosted, and callable directly or through `call_tool`.
/// assert_eq!(server.tools().len(), 3);
/// # Ok::<(), mcp_server::BuildError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Discovery {
    pinned: Vec<String>,
}

impl Discovery {
    /// Search-based discovery: `tools/list` shows `search_tools` and
    /// `call_tool`.
    pub fn search() -> Self {
        Self::default()
    }

    /// Also lists the tools named `names` (each must be hosted when the
    /// server is built; one that goes away later is simply not listed).
    pub fn pin(mut self, names: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.pinned.extend(names.into_iter().map(Into::into));
        self
    }

    /// The names of the pinned tools.
    pub fn pinned(&self) -> &[String] {
        &self.pinned
    }
}
