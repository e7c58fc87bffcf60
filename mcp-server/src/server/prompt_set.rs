//! Prompts a server hosts beside its tools and resources: registered on the
//! builder, changeable at runtime (every connected session then gets
//! `notifications/prompts/list_changed`), and the live sessions to notify
//! (also of `notifications/resources/updated` for their subscriptions).

use std::collections::HashSet;
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError, RwLock, Weak};

use mcp_core::PromptDef;

use crate::{Server, ServerBuilder};

/// A prompt could not be registered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SurfaceError {
    /// Two prompts have the same name.
    #[error("duplicate prompt `{name}`: registered twice")]
    DuplicatePrompt {
        /// The name.
        name: String,
    },
}

/// What changed, for the sessions to tell their clients.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum SurfaceEvent {
    /// `notifications/prompts/list_changed`.
    PromptsChanged,
    /// `notifications/tools/list_changed`.
    ToolsChanged,
    /// `notifications/resources/updated` for subscribers of the URI.
    ResourceUpdated(String),
}

/// A connected session that can be told about changes.
pub(crate) trait SessionNotifier: Send + Sync {
    /// Tells the session's client about `event` (without waiting).
    fn notify(&self, event: &SurfaceEvent);
}

/// The prompts of a server and its live sessions.
pub(crate) struct Surface<C> {
    prompts: RwLock<Vec<PromptDef<C>>>,
    sessions: Mutex<Vec<Weak<dyn SessionNotifier>>>,
}

/// The builder's part: what `.prompt(..)` collected.
pub(crate) struct SurfaceParts<C> {
    prompts: Vec<PromptDef<C>>,
}

impl<C> Default for SurfaceParts<C> {
    fn default() -> Self {
        Self {
            prompts: Vec::new(),
        }
    }
}

impl<C: 'static> Surface<C> {
    /// Checks the collected parts for duplicates.
    pub(crate) fn build(parts: SurfaceParts<C>) -> Result<Self, SurfaceError> {
        let mut names = HashSet::new();
        if let Some(def) = parts
            .prompts
            .iter()
            .find(|def| !names.insert(def.name().to_owned()))
        {
            return Err(SurfaceError::DuplicatePrompt {
                name: def.name().to_owned(),
            });
        }
        Ok(Self {
            prompts: RwLock::new(parts.prompts),
            sessions: Mutex::new(Vec::new()),
        })
    }

    /// A snapshot of the prompts, in registration order.
    pub(crate) fn prompts(&self) -> Vec<PromptDef<C>> {
        self.prompts
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// The prompt called `name`.
    pub(crate) fn prompt(&self, name: &str) -> Option<PromptDef<C>> {
        let prompts = self.prompts.read().unwrap_or_else(PoisonError::into_inner);
        prompts.iter().find(|def| def.name() == name).cloned()
    }

    /// Adds a prompt and tells every session, unless one has its name.
    pub(crate) fn add_prompt(&self, def: PromptDef<C>) -> Result<(), SurfaceError> {
        {
            let mut prompts = self.prompts.write().unwrap_or_else(PoisonError::into_inner);
            if prompts.iter().any(|existing| existing.name() == def.name()) {
                return Err(SurfaceError::DuplicatePrompt {
                    name: def.name().to_owned(),
                });
            }
            prompts.push(def);
        }
        self.broadcast(&SurfaceEvent::PromptsChanged);
        Ok(())
    }

    /// Removes the prompt `name` and tells every session; whether it existed.
    pub(crate) fn remove_prompt(&self, name: &str) -> bool {
        let removed = {
            let mut prompts = self.prompts.write().unwrap_or_else(PoisonError::into_inner);
            let before = prompts.len();
            prompts.retain(|def| def.name() != name);
            prompts.len() != before
        };
        if removed {
            self.broadcast(&SurfaceEvent::PromptsChanged);
        }
        removed
    }

    /// Remembers a connected session for notifications.
    pub(crate) fn register(&self, session: Weak<dyn SessionNotifier>) {
        let mut sessions = self.sessions.lock().unwrap_or_else(PoisonError::into_inner);
        sessions.retain(|session| session.strong_count() > 0);
        sessions.push(session);
    }

    /// Tells every live session about `event`.
    pub(crate) fn broadcast(&self, event: &SurfaceEvent) {
        let sessions: Vec<_> = {
            let mut sessions = self.sessions.lock().unwrap_or_else(PoisonError::into_inner);
            sessions.retain(|session| session.strong_count() > 0);
            sessions.iter().filter_map(Weak::upgrade).collect()
        };
        for session in sessions {
            session.notify(event);
        }
    }
}

impl<C> fmt::Debug for Surface<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Surface").finish_non_exhaustive()
    }
}

impl<C: Send + Sync + 'static> ServerBuilder<C> {
    /// Adds a prompt (from [`mcp_core::prompt()`] or `#[mcp_core::prompt]`).
    ///
    /// ```
    /// use mcp_server::Server;
    ///
    /// let server = Server::builder()
    ///     .prompt(mcp_core::prompt("greet").description("Greets.").run(|| async { "Say hello." })?)
    ///     .build()?;
    /// assert_eq!(server.prompt_names(), ["greet"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn prompt(mut self, def: PromptDef<C>) -> Self {
        self.surface.prompts.push(def);
        self
    }

    /// Adds prompts.
    pub fn prompts(mut self, defs: impl IntoIterator<Item = PromptDef<C>>) -> Self {
        self.surface.prompts.extend(defs);
        self
    }
}

impl<C: Send + Sync + 'static> Server<C> {
    /// The names of the hosted prompts, in order.
    pub fn prompt_names(&self) -> Vec<String> {
        self.inner
            .surface
            .prompts()
            .iter()
            .map(|def| def.name().to_owned())
            .collect()
    }

    /// Adds a prompt at runtime; every connected client gets
    /// `notifications/prompts/list_changed`.
    pub fn add_prompt(&self, def: PromptDef<C>) -> Result<(), SurfaceError> {
        self.inner.surface.add_prompt(def)
    }

    /// Removes the prompt `name` at runtime, notifying clients; whether it
    /// existed.
    pub fn remove_prompt(&self, name: &str) -> bool {
        self.inner.surface.remove_prompt(name)
    }

    /// Tells the clients subscribed to `uri` (`resources/subscribe`) that it
    /// changed (`notifications/resources/updated`).
    pub fn resource_updated(&self, uri: &str) {
        self.inner
            .surface
            .broadcast(&SurfaceEvent::ResourceUpdated(uri.to_owned()));
    }
}

/// Keeps a strong reference to a session's notifier alive as long as the
/// session: the surface only holds weak ones.
pub(crate) fn as_notifier<T: SessionNotifier + 'static>(
    session: &Arc<T>,
) -> Weak<dyn SessionNotifier> {
    let session: Arc<dyn SessionNotifier> = session.clone();
    Arc::downgrade(&session)
}
