//! The error of a call whose arguments break the tool's input schema.

use std::fmt;

/// One way the arguments break the input schema: where, and what.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Violation {
    /// The JSON pointer of the offending value inside the argument object
    /// (empty for the object itself).
    pub pointer: String,
    /// What is wrong with it.
    pub message: String,
}

impl Violation {
    /// The violation `message` at `pointer`.
    ///
    /// ```
    /// use mcp_core::arguments::Violation;
    ///
    /// assert_eq!(Violation::new("/a", "too big").to_string(), "/a: too big");
    /// assert_eq!(Violation::new("", "not an object").to_string(), "(root): not an object");
    /// ```
    pub fn new(pointer: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            pointer: pointer.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.pointer.is_empty() {
            write!(f, "(root): {}", self.message)
        } else {
            write!(f, "{}: {}", self.pointer, self.message)
        }
    }
}

/// The arguments of a call of `tool` break its input schema: every
/// violation, one line each (see the [module docs](crate::arguments)).
///
/// ```
/// use mcp_core::arguments::{InvalidArguments, Violation};
///
/// let error = InvalidArguments::new("divide", vec![Violation::new("/b", "must not be 0")]);
/// assert_eq!(error.to_string(), "invalid arguments for tool `divide`:\n/b: must not be 0");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub struct InvalidArguments {
    /// The tool called.
    pub tool: String,
    /// What is wrong, in the order found (at least one).
    pub violations: Vec<Violation>,
}

impl InvalidArguments {
    /// The error of a call of `tool` with these violations.
    pub fn new(tool: impl Into<String>, violations: Vec<Violation>) -> Self {
        Self {
            tool: tool.into(),
            violations,
        }
    }
}

impl fmt::Display for InvalidArguments {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid arguments for tool `{}`:", self.tool)?;
        for violation in &self.violations {
            write!(f, "\n{violation}")?;
        }
        Ok(())
    }
}

/// `name` as one JSON pointer segment (`~` and `/` escaped).
pub(crate) fn pointer_segment(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}
