//! The current tool set, swapped whole when tools change at runtime.

use std::sync::{Arc, PoisonError, RwLock};

use super::attachments::Attachments;
use super::tool_set::ToolSet;

/// The tool set at one moment, plus what the serving layers derived from
/// it (see [`Attachments`]); a change of tools makes a new snapshot.
pub(crate) struct ToolSnapshot<C> {
    set: ToolSet<C>,
    attachments: Attachments,
}

impl<C> ToolSnapshot<C> {
    fn new(set: ToolSet<C>) -> Self {
        Self {
            set,
            attachments: Attachments::default(),
        }
    }

    /// The tools.
    pub(crate) fn set(&self) -> &ToolSet<C> {
        &self.set
    }

    /// Values derived from these tools, made once per snapshot.
    pub(crate) fn attachments(&self) -> &Attachments {
        &self.attachments
    }
}

/// The swappable tool set.
pub(crate) struct LiveTools<C> {
    current: RwLock<Arc<ToolSnapshot<C>>>,
}

impl<C> LiveTools<C> {
    pub(crate) fn new(set: ToolSet<C>) -> Self {
        Self {
            current: RwLock::new(Arc::new(ToolSnapshot::new(set))),
        }
    }

    /// The tool set now.
    pub(crate) fn current(&self) -> Arc<ToolSnapshot<C>> {
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
                *current = Arc::new(ToolSnapshot::new(set));
                Ok(true)
            }
            None => Ok(false),
        }
    }
}
