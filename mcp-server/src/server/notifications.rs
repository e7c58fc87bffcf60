//! The sessions a server tells about changes: tool, resource and prompt
//! list changes and updates of subscribed resources.

use std::sync::{Arc, Mutex, PoisonError, Weak};

/// What changed, for the sessions to tell their clients.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Change {
    /// `notifications/prompts/list_changed`.
    PromptsChanged,
    /// `notifications/tools/list_changed`.
    ToolsChanged,
    /// `notifications/resources/list_changed`.
    ResourcesChanged,
    /// `notifications/resources/updated` for subscribers of the URI.
    ResourceUpdated(String),
}

/// A connected session (or one of its streams) that can be told about
/// changes.
pub(crate) trait ChangeListener: Send + Sync {
    /// Tells the client about `change` (without waiting).
    fn notify(&self, change: &Change);
}

/// The live listeners of a server. It holds them weakly: a listener is
/// told about changes for as long as its session keeps it alive.
#[derive(Default)]
pub(crate) struct ChangeListeners {
    listeners: Mutex<Vec<Weak<dyn ChangeListener>>>,
}

impl ChangeListeners {
    /// Tells `listener` about every later change, while it lives.
    pub(crate) fn register<L: ChangeListener + 'static>(&self, listener: &Arc<L>) {
        let listener: Arc<dyn ChangeListener> = listener.clone();
        let mut listeners = self
            .listeners
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        listeners.retain(|listener| listener.strong_count() > 0);
        listeners.push(Arc::downgrade(&listener));
    }

    /// Tells every live listener about `change`.
    pub(crate) fn broadcast(&self, change: &Change) {
        let listeners: Vec<_> = {
            let mut listeners = self
                .listeners
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            listeners.retain(|listener| listener.strong_count() > 0);
            listeners.iter().filter_map(Weak::upgrade).collect()
        };
        for listener in listeners {
            listener.notify(change);
        }
    }
}
