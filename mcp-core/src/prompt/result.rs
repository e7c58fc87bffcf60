//! The result of `prompts/get`, and what a prompt handler may return.

use std::any::Any;
use std::fmt::Display;

use serde::{Deserialize, Serialize};

use crate::meta::Meta;
use crate::prompt::error::PromptError;
use crate::prompt::message::PromptMessage;

/// The result of `prompts/get`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct GetPromptResult {
    /// A description of the rendered prompt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The messages.
    pub messages: Vec<PromptMessage>,
    /// Extension metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Meta::is_empty")]
    pub meta: Meta,
}

impl GetPromptResult {
    /// A result with these messages.
    pub fn new(messages: Vec<PromptMessage>) -> Self {
        Self {
            description: None,
            messages,
            meta: Meta::new(),
        }
    }

    /// Sets the description.
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }
}

/// What a prompt handler may return: a [`GetPromptResult`], messages, one
/// message, text (one user message), or a `Result` of these whose error is
/// displayed (a [`PromptError`] is kept as is).
pub trait IntoGetPromptResult {
    /// Converts the value for the prompt `prompt`.
    fn into_prompt_result(self, prompt: &str) -> Result<GetPromptResult, PromptError>;
}

impl IntoGetPromptResult for GetPromptResult {
    fn into_prompt_result(self, _: &str) -> Result<GetPromptResult, PromptError> {
        Ok(self)
    }
}

impl IntoGetPromptResult for Vec<PromptMessage> {
    fn into_prompt_result(self, _: &str) -> Result<GetPromptResult, PromptError> {
        Ok(GetPromptResult::new(self))
    }
}

impl IntoGetPromptResult for PromptMessage {
    fn into_prompt_result(self, _: &str) -> Result<GetPromptResult, PromptError> {
        Ok(GetPromptResult::new(vec![self]))
    }
}

impl IntoGetPromptResult for String {
    fn into_prompt_result(self, _: &str) -> Result<GetPromptResult, PromptError> {
        Ok(GetPromptResult::new(vec![PromptMessage::user_text(self)]))
    }
}

impl IntoGetPromptResult for &'static str {
    fn into_prompt_result(self, prompt: &str) -> Result<GetPromptResult, PromptError> {
        self.to_owned().into_prompt_result(prompt)
    }
}

impl<T: IntoGetPromptResult, E: Display + 'static> IntoGetPromptResult for Result<T, E> {
    fn into_prompt_result(self, prompt: &str) -> Result<GetPromptResult, PromptError> {
        match self {
            Ok(value) => value.into_prompt_result(prompt),
            Err(error) => match (&error as &dyn Any).downcast_ref::<PromptError>() {
                Some(error) => Err(error.clone()),
                None => Err(PromptError::Failed {
                    prompt: prompt.to_owned(),
                    message: error.to_string(),
                }),
            },
        }
    }
}
