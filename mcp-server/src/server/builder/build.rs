//! What [`ServerBuilder::build`] checks, and the server state it assembles:
//! the catalog of the sources, the toolset view, discovery or code mode,
//! the prompts and the task store.

use std::any::Any;
use std::sync::Arc;

use super::ServerBuilder;
use crate::Server;
use crate::catalog::Catalog;
use crate::discovery::suggest::levenshtein;
use crate::discovery::view::DiscoveryView;
use crate::error::BuildError;
use crate::server::prompt_set::PromptSet;
use crate::server::session::Session;
use crate::server::state::{ContextFn, ServerState};
use crate::server::view::{ToolView, toolsets_of};
use crate::store::task::backend::TaskBackend;

impl<C: Send + Sync + 'static> ServerBuilder<C> {
    /// Checks the configuration and builds the server.
    ///
    /// Fails on an OpenAPI document that could not be loaded (see
    /// [`openapi`](Self::openapi)), on duplicate tool names (naming both sources), resource URIs or
    /// prompt names, on a prefix that makes a name invalid, on a zero page
    /// size, when a context type other than `()` has no
    /// [`context`](Self::context) function, and on a pinned tool that is
    /// not hosted. In discovery mode the search index is made here.
    pub fn build(self) -> Result<Server<C>, BuildError> {
        #[cfg(feature = "openapi")]
        if let Some(error) = self.openapi_error {
            return Err(BuildError::OpenApi(Box::new(error)));
        }
        if self.page_size == 0 {
            return Err(BuildError::ZeroPageSize);
        }
        let context = match self.context {
            Some(context) => context,
            None => unit_context::<C>()?,
        };
        let catalog = Catalog::new(self.sources)?;
        if let Some(toolsets) = &self.toolsets {
            check_toolsets(&catalog, toolsets)?;
        }
        let view = ToolView::new(self.toolsets.as_deref(), self.read_only);
        if let Some(discovery) = &self.discovery {
            check_pins(&catalog, discovery.pinned())?;
            DiscoveryView::of(&catalog, discovery)
                .map_err(|reason| BuildError::MetaTools { reason })?;
        }
        #[cfg(feature = "code-mode")]
        let code_mode = match self.code_mode {
            Some(_) if self.discovery.is_some() => return Err(BuildError::TwoModes),
            Some(settings) => {
                check_pins(&catalog, settings.pinned())?;
                let code_mode = crate::code_mode::CodeModeState::new(settings);
                code_mode
                    .view(&catalog)
                    .map_err(|reason| BuildError::MetaTools { reason })?;
                Some(code_mode)
            }
            None => None,
        };
        let prompts = PromptSet::new(self.prompts)?;
        let mut state = ServerState::new(
            self.identity,
            catalog,
            prompts,
            self.layers.into(),
            context,
            self.page_size,
            self.discovery,
        );
        state.set_view(view);
        state.set_max_result_bytes(self.max_result_bytes);
        #[cfg(feature = "code-mode")]
        if let Some(code_mode) = code_mode {
            state.set_code_mode(code_mode);
        }
        #[cfg_attr(not(feature = "redis"), allow(unused_mut))]
        let mut tasks = TaskBackend::in_memory(self.task_heartbeat);
        #[cfg(feature = "redis")]
        if let Some(store) = self.store {
            tasks.store = Arc::new(crate::store::task::redis::RedisTaskStore::new(
                store.clone(),
            ));
            state.set_store(store);
        }
        state.attachments().get_or_insert_with(|| tasks);
        Ok(Server::new(state))
    }
}

/// Fails on a toolset name that no hosted tool has (`all` stands for every
/// toolset).
fn check_toolsets<C: Send + Sync + 'static>(
    catalog: &Catalog<C>,
    toolsets: &[String],
) -> Result<(), BuildError> {
    let known = toolsets_of(catalog);
    match unknown_toolset(toolsets, &known) {
        Some(name) => Err(BuildError::UnknownToolset { name, known }),
        None => Ok(()),
    }
}

/// The first of `asked` that is none of `known` (compared without case).
pub(crate) fn unknown_toolset(asked: &[String], known: &[String]) -> Option<String> {
    asked
        .iter()
        .find(|name| !known.iter().any(|known| known.eq_ignore_ascii_case(name)))
        .cloned()
}

/// Fails on a pinned name that no hosted tool has.
fn check_pins<C: Send + Sync + 'static>(
    catalog: &Catalog<C>,
    pinned: &[String],
) -> Result<(), BuildError> {
    let Some(unknown) = pinned
        .iter()
        .find(|name| catalog.tools().get(name).is_none())
    else {
        return Ok(());
    };
    let mut near: Vec<(usize, &str)> = catalog
        .tools()
        .all()
        .iter()
        .map(|def| (levenshtein(unknown, def.name()), def.name()))
        .collect();
    near.sort();
    Err(BuildError::UnknownPin {
        name: unknown.clone(),
        closest: near
            .iter()
            .take(3)
            .map(|(_, name)| (*name).to_owned())
            .collect(),
    })
}

/// The context function of a server whose context type is `()`: every
/// session shares the one `()` value.
fn unit_context<C: Send + Sync + 'static>() -> Result<ContextFn<C>, BuildError> {
    let unit: Box<dyn Any> = Box::new(());
    match unit.downcast::<C>() {
        Ok(unit) => {
            let unit: Arc<C> = Arc::from(unit);
            Ok(Arc::new(move |_: &Session| unit.clone()))
        }
        Err(_) => Err(BuildError::MissingContext {
            type_name: std::any::type_name::<C>(),
        }),
    }
}
