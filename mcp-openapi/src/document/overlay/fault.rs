//! What is wrong with an overlay, and where in it: a JSON pointer into the
//! overlay and a message, before the overlay's file is known.

use std::path::Path;

use crate::document::pointer::child;
use crate::error::SpecError;

/// A malformed or inapplicable part of an overlay.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Fault {
    /// The JSON pointer into the overlay (`/actions/2/target`).
    pub(crate) pointer: String,
    /// What is wrong, lowercase.
    pub(crate) message: String,
}

impl Fault {
    /// A fault at `pointer`.
    pub(crate) fn new(pointer: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            pointer: pointer.into(),
            message: message.into(),
        }
    }

    /// The error naming `file` (when the overlay came from one).
    pub(crate) fn into_error(self, file: Option<&Path>) -> SpecError {
        SpecError::Overlay {
            file: file.map(Path::to_owned),
            pointer: self.pointer,
            message: self.message,
        }
    }
}

/// The pointer of action `index` (`/actions/2`).
pub(crate) fn action_pointer(index: usize) -> String {
    format!("/actions/{index}")
}

/// The pointer of a field of action `index` (`/actions/2/target`).
pub(crate) fn action_field(index: usize, field: &str) -> String {
    child(&action_pointer(index), field)
}
