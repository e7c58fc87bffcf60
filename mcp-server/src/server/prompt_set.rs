//! The prompts a server hosts, in registration order; they can change
//! while the server runs.

use std::collections::HashSet;
use std::sync::{PoisonError, RwLock};

use mcp_core::prompt::PromptDef;

use crate::error::AddPromptError;

/// The hosted prompts, with unique names.
pub(crate) struct PromptSet<C> {
    prompts: RwLock<Vec<PromptDef<C>>>,
}

impl<C: 'static> PromptSet<C> {
    /// The prompts `defs`, unless two have the same name.
    pub(crate) fn new(defs: Vec<PromptDef<C>>) -> Result<Self, AddPromptError> {
        let mut names = HashSet::new();
        if let Some(def) = defs.iter().find(|def| !names.insert(def.name().to_owned())) {
            return Err(AddPromptError::DuplicatePrompt {
                name: def.name().to_owned(),
            });
        }
        Ok(Self {
            prompts: RwLock::new(defs),
        })
    }

    /// A snapshot of the prompts, in registration order.
    pub(crate) fn all(&self) -> Vec<PromptDef<C>> {
        self.prompts
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// The prompt called `name`.
    pub(crate) fn get(&self, name: &str) -> Option<PromptDef<C>> {
        let prompts = self.prompts.read().unwrap_or_else(PoisonError::into_inner);
        prompts.iter().find(|def| def.name() == name).cloned()
    }

    /// Adds a prompt, unless one has its name.
    pub(crate) fn add(&self, def: PromptDef<C>) -> Result<(), AddPromptError> {
        let mut prompts = self.prompts.write().unwrap_or_else(PoisonError::into_inner);
        if prompts.iter().any(|existing| existing.name() == def.name()) {
            return Err(AddPromptError::DuplicatePrompt {
                name: def.name().to_owned(),
            });
        }
        prompts.push(def);
        Ok(())
    }

    /// Removes the prompt `name`; whether it existed.
    pub(crate) fn remove(&self, name: &str) -> bool {
        let mut prompts = self.prompts.write().unwrap_or_else(PoisonError::into_inner);
        let before = prompts.len();
        prompts.retain(|def| def.name() != name);
        prompts.len() != before
    }
}
