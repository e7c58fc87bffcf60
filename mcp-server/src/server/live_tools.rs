//! The current tool set, swapped whole when tools change at runtime (the
//! sessions are told through [`crate::server::prompt_set`]).

use std::sync::{Arc, OnceLock, PoisonError, RwLock};

use crate::protocol::WireTools;
use crate::server::tool_set::ToolSet;

/// One version of the tool set plus its rmcp form, made on first use.
pub(crate) struct Catalog<C> {
    pub(crate) set: ToolSet<C>,
    wire: OnceLock<WireTools>,
}

impl<C: Send + Sync + 'static> Catalog<C> {
    /// The tools as rmcp values, converted on first use.
    pub(crate) fn wire(&self) -> &WireTools {
        self.wire.get_or_init(|| WireTools::new(self.set.all()))
    }
}

impl<C> Catalog<C> {
    pub(crate) fn new(set: ToolSet<C>) -> Self {
        Self {
            set,
            wire: OnceLock::new(),
        }
    }
}

/// The swappable tool set.
pub(crate) struct Live<C> {
    current: RwLock<Arc<Catalog<C>>>,
}

impl<C> Live<C> {
    pub(crate) fn new(set: ToolSet<C>) -> Self {
        Self {
            current: RwLock::new(Arc::new(Catalog::new(set))),
        }
    }

    /// The tool set now.
    pub(crate) fn current(&self) -> Arc<Catalog<C>> {
        self.current
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Replaces the tool set with `change(current)` when it gives one;
    /// returns whether it did. Changes are serialized.
    pub(crate) fn update<E>(
        &self,
        change: impl FnOnce(&ToolSet<C>) -> Result<Option<ToolSet<C>>, E>,
    ) -> Result<bool, E> {
        let mut current = self.current.write().unwrap_or_else(PoisonError::into_inner);
        match change(&current.set)? {
            Some(set) => {
                *current = Arc::new(Catalog::new(set));
                Ok(true)
            }
            None => Ok(false),
        }
    }
}
