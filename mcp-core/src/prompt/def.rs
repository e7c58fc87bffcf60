//! A prompt together with the code that renders it.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use crate::completion::Completer;
use crate::future::BoxFuture;
use crate::json::JsonObject;
use crate::prompt::error::PromptError;
use crate::prompt::handler::PromptHandler;
use crate::prompt::request::PromptRequest;
use crate::prompt::result::GetPromptResult;
use crate::prompt::value::Prompt;

/// A [`Prompt`] plus its handler and argument completers: what a server
/// hosts. Make one with [`prompt`](fn@crate::prompt::prompt).
pub struct PromptDef<C = ()> {
    prompt: Arc<Prompt>,
    handler: Arc<dyn PromptHandler<C>>,
    completers: Arc<BTreeMap<String, Completer>>,
}

impl<C: 'static> PromptDef<C> {
    pub(crate) fn from_parts(
        prompt: Prompt,
        handler: Arc<dyn PromptHandler<C>>,
        completers: BTreeMap<String, Completer>,
    ) -> Self {
        Self {
            prompt: Arc::new(prompt),
            handler,
            completers: Arc::new(completers),
        }
    }

    /// The protocol value.
    pub fn prompt(&self) -> &Prompt {
        &self.prompt
    }

    /// The protocol value, shared.
    pub fn prompt_arc(&self) -> &Arc<Prompt> {
        &self.prompt
    }

    /// The prompt's name.
    pub fn name(&self) -> &str {
        &self.prompt.name
    }

    /// The completer of the argument `name`.
    pub fn completer(&self, name: &str) -> Option<&Completer> {
        self.completers.get(name)
    }

    /// Renders the prompt. Missing required arguments are
    /// [`PromptError::MissingArgument`], before the handler runs.
    pub fn get(
        &self,
        request: PromptRequest<C>,
    ) -> BoxFuture<'static, Result<GetPromptResult, PromptError>> {
        let missing = self.prompt.arguments.iter().find(|argument| {
            argument.is_required() && !request.arguments().contains_key(&argument.name)
        });
        if let Some(argument) = missing {
            let error = PromptError::MissingArgument {
                prompt: self.prompt.name.clone(),
                argument: argument.name.clone(),
            };
            return Box::pin(std::future::ready(Err(error)));
        }
        self.handler.get(request)
    }

    /// The request to render this prompt with `arguments` in a session whose
    /// context is `ctx`.
    pub fn request(&self, arguments: JsonObject, ctx: Arc<C>) -> PromptRequest<C> {
        PromptRequest::new(self.prompt.clone(), arguments, ctx)
    }
}

impl<C: Default + 'static> PromptDef<C> {
    /// Renders the prompt with `arguments` and a default context, detached
    /// from any server (handy in tests).
    pub fn get_detached(
        &self,
        arguments: JsonObject,
    ) -> BoxFuture<'static, Result<GetPromptResult, PromptError>> {
        self.get(self.request(arguments, Arc::new(C::default())))
    }
}

impl<C> Clone for PromptDef<C> {
    fn clone(&self) -> Self {
        Self {
            prompt: self.prompt.clone(),
            handler: self.handler.clone(),
            completers: self.completers.clone(),
        }
    }
}

impl<C> fmt::Debug for PromptDef<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PromptDef")
            .field("prompt", &self.prompt)
            .field("completers", &self.completers.keys().collect::<Vec<_>>())
            .finish_non_exhaustive()
    }
}
