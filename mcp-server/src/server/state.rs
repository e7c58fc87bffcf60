//! What a server hosts and knows, shared by every session and transport.

use std::sync::Arc;

use mcp_core::tool::middleware::Layer;
use mcp_core::{ToolDef, prompt::PromptDef};

use super::live_catalog::LiveCatalog;
use super::notifications::{Change, ChangeListeners};
use super::prompt_set::PromptSet;
use super::session::Session;
use crate::catalog::attachments::Attachments;
use crate::catalog::tool_source::ToolSource;
use crate::catalog::{Catalog, ListChanges};
use crate::discovery::Discovery;
use crate::discovery::view::DiscoveryView;
use crate::error::{AddPromptError, BuildError};

/// Makes a session's context.
pub(crate) type ContextFn<C> = Arc<dyn Fn(&Session) -> Arc<C> + Send + Sync>;

/// Who the server says it is.
#[derive(Clone, Debug)]
pub(crate) struct Identity {
    pub(crate) name: String,
    pub(crate) version: String,
    pub(crate) title: Option<String>,
    pub(crate) instructions: Option<String>,
}

/// The state of a server: its identity, what it hosts, its middleware and
/// the sessions to tell about changes. Tools, resources and prompts can
/// change while it serves; every change is broadcast to the listening
/// sessions.
pub(crate) struct ServerState<C> {
    identity: Identity,
    catalog: LiveCatalog<C>,
    prompts: PromptSet<C>,
    listeners: ChangeListeners,
    layers: Arc<[Layer<C>]>,
    context: ContextFn<C>,
    page_size: usize,
    attachments: Attachments,
    discovery: Option<Discovery>,
    /// The tools served unless a client narrows them.
    view: super::view::ToolView,
    /// The most bytes of a tool result sent (`None`: no bound).
    max_result_bytes: Option<usize>,
    /// The whole results of cut ones, for `resources/read`.
    kept_results: Arc<crate::results::KeptResults>,
    #[cfg(feature = "code-mode")]
    code_mode: Option<crate::code_mode::CodeModeState>,
    /// Where sessions (and tasks) are shared with other replicas.
    #[cfg(feature = "redis")]
    store: Option<crate::store::RedisStore>,
}

impl<C: Send + Sync + 'static> ServerState<C> {
    /// The state of a server hosting what the builder checked.
    pub(crate) fn new(
        identity: Identity,
        catalog: Catalog<C>,
        prompts: PromptSet<C>,
        layers: Arc<[Layer<C>]>,
        context: ContextFn<C>,
        page_size: usize,
        discovery: Option<Discovery>,
    ) -> Self {
        Self {
            identity,
            catalog: LiveCatalog::new(catalog),
            prompts,
            listeners: ChangeListeners::default(),
            layers,
            context,
            page_size,
            attachments: Attachments::default(),
            discovery,
            view: super::view::ToolView::default(),
            max_result_bytes: Some(crate::DEFAULT_MAX_RESULT_BYTES),
            kept_results: Arc::default(),
            #[cfg(feature = "code-mode")]
            code_mode: None,
            #[cfg(feature = "redis")]
            store: None,
        }
    }

    /// Serves only the tools in `view` (clients may narrow it further).
    pub(crate) fn set_view(&mut self, view: super::view::ToolView) {
        self.view = view;
    }

    /// The tools served unless a client narrows them.
    pub(crate) fn view(&self) -> &super::view::ToolView {
        &self.view
    }

    /// Bounds the bytes of tool results (`None`: no bound).
    pub(crate) fn set_max_result_bytes(&mut self, bytes: Option<usize>) {
        self.max_result_bytes = bytes;
    }

    /// The whole results of cut ones.
    pub(crate) fn kept_results(&self) -> &Arc<crate::results::KeptResults> {
        &self.kept_results
    }

    /// The bound on `def`'s results: its own, else the server's.
    pub(crate) fn result_bound(&self, def: &ToolDef<C>) -> Option<usize> {
        def.result_limit().or(self.max_result_bytes)
    }

    /// The tools of the current catalog in `view`.
    pub(crate) fn catalog_in(&self, view: &super::view::ToolView) -> Arc<Catalog<C>> {
        super::view::catalog_in(self.catalog(), view)
    }

    /// Serves the tools in code mode.
    #[cfg(feature = "code-mode")]
    pub(crate) fn set_code_mode(&mut self, code_mode: crate::code_mode::CodeModeState) {
        self.code_mode = Some(code_mode);
    }

    /// Code mode, when the server is in it.
    #[cfg(feature = "code-mode")]
    pub(crate) fn code_mode(&self) -> Option<&crate::code_mode::CodeModeState> {
        self.code_mode.as_ref()
    }

    /// Shares sessions (and tasks) with the other replicas through `store`.
    #[cfg(feature = "redis")]
    pub(crate) fn set_store(&mut self, store: crate::store::RedisStore) {
        self.store = Some(store);
    }

    /// The store shared with the other replicas, if any.
    #[cfg(feature = "redis")]
    pub(crate) fn store(&self) -> Option<&crate::store::RedisStore> {
        self.store.as_ref()
    }

    /// Adds a tool (from `label`, for clash messages) and tells the
    /// listeners; a name already hosted is an error.
    pub(crate) fn add_tool(&self, def: ToolDef<C>, label: &str) -> Result<(), BuildError> {
        let changes = self
            .catalog
            .update(|catalog| catalog.with_tool(def, label).map(Some))?;
        self.tell(changes.unwrap_or_default());
        Ok(())
    }

    /// Removes the tool called `name` and tells the listeners; whether there
    /// was such a tool.
    pub(crate) fn remove_tool(&self, name: &str) -> bool {
        let changes = self
            .catalog
            .update(|catalog| Ok::<_, std::convert::Infallible>(catalog.without_tool(name)))
            .unwrap_or_else(|never| match never {});
        self.tell(changes.unwrap_or_default());
        changes.is_some()
    }

    /// Puts each of `sources` in place of the sources of its name, in one
    /// swap, and tells the listeners which lists changed. An unknown name or
    /// a clash changes nothing.
    pub(crate) fn replace_sources(
        &self,
        sources: Vec<ToolSource<C>>,
    ) -> Result<ListChanges, BuildError> {
        let changes = self
            .catalog
            .update(|catalog| catalog.replacing(sources).map(Some))?
            .unwrap_or_default();
        self.tell(changes);
        Ok(changes)
    }

    /// Tells the listeners about `changes`, one notification per list. In
    /// discovery mode the new tool set's index is made first, so that the
    /// searches after a change do not wait for it.
    fn tell(&self, changes: ListChanges) {
        if let (true, Some(discovery)) = (changes.tools, &self.discovery)
            && let Err(reason) = DiscoveryView::of(&self.catalog(), discovery)
        {
            tracing::error!("discovery mode: {reason}");
        }
        if changes.tools {
            self.listeners.broadcast(&Change::ToolsChanged);
        }
        if changes.resources {
            self.listeners.broadcast(&Change::ResourcesChanged);
        }
    }

    /// Adds a prompt and tells the listeners, unless one has its name.
    pub(crate) fn add_prompt(&self, def: PromptDef<C>) -> Result<(), AddPromptError> {
        self.prompts.add(def)?;
        self.listeners.broadcast(&Change::PromptsChanged);
        Ok(())
    }

    /// Removes the prompt `name` and tells the listeners; whether it existed.
    pub(crate) fn remove_prompt(&self, name: &str) -> bool {
        let removed = self.prompts.remove(name);
        if removed {
            self.listeners.broadcast(&Change::PromptsChanged);
        }
        removed
    }
}

impl<C> ServerState<C> {
    /// Who the server says it is.
    pub(crate) fn identity(&self) -> &Identity {
        &self.identity
    }

    /// The hosted tools, resources and resource templates now.
    pub(crate) fn catalog(&self) -> Arc<Catalog<C>> {
        self.catalog.current()
    }

    /// The hosted prompts.
    pub(crate) fn prompts(&self) -> &PromptSet<C> {
        &self.prompts
    }

    /// Tells the listeners that the resource at `uri` changed.
    pub(crate) fn resource_updated(&self, uri: &str) {
        self.listeners
            .broadcast(&Change::ResourceUpdated(uri.to_owned()));
    }

    /// The sessions (and streams) to tell about changes.
    pub(crate) fn listeners(&self) -> &ChangeListeners {
        &self.listeners
    }

    /// The server-wide middleware, outermost first.
    pub(crate) fn layers(&self) -> &Arc<[Layer<C>]> {
        &self.layers
    }

    /// A new context for `session`.
    pub(crate) fn session_context(&self, session: &Session) -> Arc<C> {
        (self.context)(session)
    }

    /// The number of items per list page.
    pub(crate) fn page_size(&self) -> usize {
        self.page_size
    }

    /// Discovery mode's settings, when it is on.
    pub(crate) fn discovery(&self) -> Option<&Discovery> {
        self.discovery.as_ref()
    }

    /// Values the serving layers keep for the server's lifetime.
    pub(crate) fn attachments(&self) -> &Attachments {
        &self.attachments
    }
}
