//! Code mode as a server holds it: the settings and the places for
//! running scripts, shared by every session.

use std::sync::Arc;

use mcp_core::ToolDef;
use mcp_core::tool::middleware::Layer;
use tokio::sync::Semaphore;

use super::CodeMode;
use super::execute::Execute;
use super::invoke::ConfiguredScopes;
use super::sandbox::Pool;
use super::view::CodeModeView;
use crate::catalog::Catalog;

/// Code mode's settings and the server-wide bound on running scripts.
#[derive(Debug)]
pub(crate) struct CodeModeState {
    settings: CodeMode,
    running: Arc<Semaphore>,
    pool: Arc<Pool>,
}

impl CodeModeState {
    pub(crate) fn new(settings: CodeMode) -> Self {
        let running = Arc::new(Semaphore::new(settings.scripts_at_once()));
        let pool = Pool::new(settings.spare(), settings.limits().stack_bytes);
        Self {
            settings,
            running,
            pool,
        }
    }

    /// The view of `catalog`, made on first use.
    pub(crate) fn view<C: Send + Sync + 'static>(
        &self,
        catalog: &Catalog<C>,
    ) -> Result<Arc<CodeModeView<C>>, String> {
        CodeModeView::of(catalog, &self.settings)
    }

    /// The `execute` tool over `view`, calling tools inside `layers`; behind
    /// OAuth, `scopes` gives the scopes configured per tool.
    pub(crate) fn execute_def<C: Send + Sync + 'static>(
        &self,
        view: Arc<CodeModeView<C>>,
        layers: Arc<[Layer<C>]>,
        scopes: Option<ConfiguredScopes>,
    ) -> Result<ToolDef<C>, String> {
        let tool = view.execute_tool().clone();
        let handler = Execute {
            view,
            layers,
            scopes,
            settings: self.settings.clone(),
            running: self.running.clone(),
            pool: self.pool.clone(),
        };
        // Its results have a bound of their own (the sandbox's).
        let bound = self.settings.limits().result_bytes;
        ToolDef::new(tool, handler)
            .map(|def| def.max_result_bytes(bound))
            .map_err(|error| error.to_string())
    }
}
