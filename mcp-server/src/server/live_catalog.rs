//! The current catalog, swapped whole when tools or resources change at
//! runtime.

use std::sync::{Arc, Mutex, PoisonError, RwLock};

use crate::catalog::{Catalog, ListChanges};

/// The swappable catalog. Readers take the current catalog and keep it for
/// as long as they need it (a `tools/list` page, a running call): a change
/// never alters a catalog someone holds, it installs a new one, so every
/// reader sees the catalog before a change or the one after it, never a mix.
pub(crate) struct LiveCatalog<C> {
    current: RwLock<Arc<Catalog<C>>>,
    /// Held while a change is computed, so changes apply one after another
    /// while readers go on reading the current catalog.
    changing: Mutex<()>,
}

impl<C> LiveCatalog<C> {
    pub(crate) fn new(catalog: Catalog<C>) -> Self {
        Self {
            current: RwLock::new(Arc::new(catalog)),
            changing: Mutex::new(()),
        }
    }

    /// The catalog now.
    pub(crate) fn current(&self) -> Arc<Catalog<C>> {
        self.current
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

impl<C: Send + Sync + 'static> LiveCatalog<C> {
    /// Replaces the catalog with `change(current)` when it gives one, and
    /// says which lists that changed; `None` when it gave none. Changes are
    /// serialized; an error leaves the current catalog in place.
    pub(crate) fn update<E>(
        &self,
        change: impl FnOnce(&Catalog<C>) -> Result<Option<Catalog<C>>, E>,
    ) -> Result<Option<ListChanges>, E> {
        let _turn = self.changing.lock().unwrap_or_else(PoisonError::into_inner);
        let before = self.current();
        let Some(after) = change(&before)? else {
            return Ok(None);
        };
        let changes = after.changes_from(&before);
        *self.current.write().unwrap_or_else(PoisonError::into_inner) = Arc::new(after);
        Ok(Some(changes))
    }
}
