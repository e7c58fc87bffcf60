//! Discovery mode: `tools/list` shows two meta-tools (plus pinned tools)
//! instead of every tool, and the model finds tools by searching.
//!
//! - `search_tools` (`query`, `limit` 1 to 50 with 5 by default, `tags`,
//!   `detail`) ranks every hosted tool for a task and returns
//!   `structuredContent` `{"tools": [...], "total": n}`: each tool's name,
//!   title, description (first paragraph) and a compact `inputSchema`
//!   (argument types, enums, `required`, one-line descriptions, field
//!   names of object arguments), or the full input schema with
//!   `detail: true`. An empty `query` with `tags` lists those categories
//!   (names and descriptions only, 50 by default).
//! - `call_tool` (`name`, `arguments`) runs the named tool exactly as a
//!   direct `tools/call` would (middleware, argument checks, tasks,
//!   progress, cancellation) and returns its result unchanged; an unknown
//!   name is an `isError` result naming the closest tools.
//!
//! Every tool also stays callable directly. A hosted tool named like a
//! meta-tool is reachable through `call_tool` only.
//!
//! The ranking is a field-weighted BM25 (see `index`) over each tool's
//! name (split at `_ - . /` and camelCase), title, description, tags, the
//! words of its OpenAPI path and the intent of its method (list, get,
//! create, update, delete), and its arguments; words are stemmed, each
//! request word also matches its synonyms (a small table of general API
//! vocabulary) and the longer words it is a part of. Scores then weigh
//! how many request words a tool matches, how much of its operation name
//! the request covers (the tool that does what was asked and no more),
//! whether the request reads (a question) or changes something, and count
//! words naming a value (`called Pro plan`) less. The index is made once
//! per tool set: when the server is built and after each change.

mod compact;
pub(crate) mod document;
pub(crate) mod finder;
mod index;
#[cfg(all(test, feature = "openapi"))]
mod quality;
mod request;
mod signals;
pub(crate) mod suggest;
mod synonyms;
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
