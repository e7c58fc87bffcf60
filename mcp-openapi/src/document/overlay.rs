//! OpenAPI Overlays ([Overlay 1.0.0] and [1.1.0]): documents of actions
//! that reshape an OpenAPI document before tools are generated from it, so
//! that a vendor's document can be renamed, re-described or trimmed without
//! forking it.
//!
//! An overlay lists `actions`, applied in order, each to the result of the
//! one before. An action's `target` is an [RFC 9535] JSONPath query; the
//! nodes it selects are
//!
//! - removed from their object or array, with `remove: true` (any node but
//!   the root);
//! - merged with the `update` value: an object merges into an object
//!   recursively (properties only in the update are inserted, properties in
//!   both merge by these same rules), an array is concatenated to an array,
//!   an object or primitive is appended to an array, and a primitive
//!   replaces a primitive; any other pair is an error;
//! - merged, as by `update`, with the one node that the `copy` JSONPath
//!   selects (Overlay 1.1; a `copy` selecting no node or several is an error).
//!
//! With `remove: true`, `update` and `copy` are ignored; `update` and `copy`
//! together are an error. An action's target may select several nodes; for
//! `update` and `copy` they must all be objects, all arrays or all
//! primitives. Overlay 1.0 updates only objects and arrays (its targets
//! "MUST be objects or arrays"); 1.1 also replaces primitives. Both
//! versions concatenate an array update to an array node, as 1.1 states
//! (1.0 says "append"). `extends` is read and otherwise ignored: the
//! document an overlay applies to is the one it is given to.
//!
//! An overlay is checked when it is read: its `overlay` version (1.0.x or
//! 1.1.x; any other is refused), `info`, a non-empty list of distinct
//! actions, valid JSONPath queries, and no unknown fields besides `x-`
//! extensions. Each error names the overlay file and the JSON pointer of
//! the bad part (`/actions/2/target`). An action whose target selects
//! nothing changes nothing and gives a [`Warning`] (an error in strict
//! loading).
//!
//! ```
//! use mcp_openapi::{LoadOptions, OpenApi, document::Overlay};
//!
//! let overlay: Overlay = r#"
//! overlay: 1.1.0
//! info: {title: Friendlier names, version: "1"}
//! actions:
//!   - target: $.paths['/pets'].get
//!     description: Rename the list operation
//!     update: {operationId: list_pets, x-mcp-annotations: {title: Pets}}
//!   - target: $.paths['/pets'].delete
//!     remove: true
//! "#.parse().unwrap();
//!
//! let document = r#"
//! openapi: 3.1.0
//! info: {title: Pets, version: "1"}
//! paths:
//!   /pets:
//!     get: {operationId: listPets, responses: {"200": {description: ok}}}
//!     delete: {operationId: deletePets, responses: {"204": {description: gone}}}
//! "#;
//! let options = LoadOptions::new().overlay(overlay);
//! let api = OpenApi::from_slice_with(document.as_bytes(), &options).unwrap();
//! let tools = api.generator().generate().unwrap().tools;
//! assert_eq!(tools.len(), 1);
//! assert_eq!(tools[0].tool.name, "list_pets");
//! assert_eq!(tools[0].tool.annotations.as_ref().unwrap().title.as_deref(), Some("Pets"));
//! ```
//!
//! [Overlay 1.0.0]: https://spec.openapis.org/overlay/v1.0.0.html
//! [1.1.0]: https://spec.openapis.org/overlay/v1.1.0.html
//! [RFC 9535]: https://www.rfc-editor.org/rfc/rfc9535

pub(crate) mod action;
pub(crate) mod apply;
pub(crate) mod fault;
pub(crate) mod location;
pub(crate) mod merge;
pub(crate) mod read;
pub(crate) mod version;

use std::path::{Path, PathBuf};
use std::str::FromStr;

use serde_json::Value;

use crate::document::parse::{parse_slice, read};
use crate::error::{SpecError, Warning};
use action::Action;
use apply::{Outcome, apply_action};
use fault::{Fault, action_field};
use read::{Contents, read_contents};
pub use version::OverlayVersion;

/// A parsed and checked overlay document, ready to apply to OpenAPI
/// documents (see the [module docs](self) for what it may say).
///
/// ```
/// use mcp_openapi::document::Overlay;
/// use serde_json::json;
///
/// let overlay = Overlay::from_value(json!({
///     "overlay": "1.0.0",
///     "info": {"title": "Add a licence", "version": "1"},
///     "actions": [{"target": "$.info", "update": {"license": {"name": "MIT"}}}],
/// }))
/// .unwrap();
/// let mut document = json!({"openapi": "3.1.0", "info": {"title": "t", "version": "1"}});
/// let warnings = overlay.apply(&mut document).unwrap();
/// assert!(warnings.is_empty());
/// assert_eq!(document["info"]["license"]["name"], "MIT");
/// ```
#[derive(Clone, Debug)]
pub struct Overlay {
    contents: Contents,
    file: Option<PathBuf>,
}

impl Overlay {
    /// Reads and checks an overlay file (JSON or YAML, by content); its
    /// errors name the file.
    pub fn from_path(path: impl AsRef<Path>) -> Result<Self, SpecError> {
        let path = path.as_ref();
        Self::parse(&read(path)?, Some(path))
    }

    /// Parses and checks an overlay held in bytes (JSON or YAML, by content).
    pub fn from_slice(bytes: &[u8]) -> Result<Self, SpecError> {
        Self::parse(bytes, None)
    }

    /// Checks an already parsed overlay.
    pub fn from_value(value: Value) -> Result<Self, SpecError> {
        Self::checked(&value, None)
    }

    fn parse(bytes: &[u8], file: Option<&Path>) -> Result<Self, SpecError> {
        let value = parse_slice(bytes).map_err(|error| syntax_fault(&error).into_error(file))?;
        Self::checked(&value, file)
    }

    fn checked(value: &Value, file: Option<&Path>) -> Result<Self, SpecError> {
        let contents = read_contents(value).map_err(|fault| fault.into_error(file))?;
        Ok(Self {
            contents,
            file: file.map(Path::to_owned),
        })
    }

    /// The version the overlay declares.
    pub fn version(&self) -> OverlayVersion {
        self.contents.version
    }

    /// `info.title`.
    pub fn title(&self) -> &str {
        &self.contents.title
    }

    /// `extends`, the document the overlay was written for; informative
    /// only, never fetched nor checked.
    pub fn extends(&self) -> Option<&str> {
        self.contents.extends.as_deref()
    }

    /// The file the overlay was read from.
    pub fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    /// Applies the actions in order. On success, the warnings name the
    /// actions whose target selected nothing; on error, `document` is left
    /// as it was.
    pub fn apply(&self, document: &mut Value) -> Result<Vec<Warning>, SpecError> {
        let mut changed = document.clone();
        let warnings = self.apply_in_place(&mut changed, false)?;
        *document = changed;
        Ok(warnings)
    }

    /// Applies the actions to `document`, which an error leaves half
    /// changed; `strict` makes a target that selects nothing an error.
    pub(crate) fn apply_in_place(
        &self,
        document: &mut Value,
        strict: bool,
    ) -> Result<Vec<Warning>, SpecError> {
        let mut warnings = Vec::new();
        for action in &self.contents.actions {
            let outcome = apply_action(action, self.contents.version, document)
                .map_err(|fault| fault.into_error(self.file()))?;
            if outcome == Outcome::Unmatched {
                let fault = unmatched(action);
                if strict {
                    return Err(SpecError::Strict(Box::new(fault.into_error(self.file()))));
                }
                warnings.push(self.warning(fault));
            }
        }
        Ok(warnings)
    }

    /// `fix.yaml#/actions/3/target: overlay action 3 ...`.
    fn warning(&self, fault: Fault) -> Warning {
        let file = self
            .file
            .as_deref()
            .map(|file| file.display().to_string())
            .unwrap_or_default();
        Warning::new(
            format!("{file}#{}", fault.pointer),
            format!("overlay {}", fault.message),
        )
    }
}

/// The parser's error on one line: its first (`line 3 column 11: unclosed
/// bracket`), without the excerpt of the file that follows.
fn syntax_fault(error: &SpecError) -> Fault {
    let message = error.to_string();
    let first = message.lines().next().unwrap_or_default();
    Fault::new("", first.replacen(": error: ", ": ", 1))
}

fn unmatched(action: &Action) -> Fault {
    Fault::new(
        action_field(action.index, "target"),
        format!(
            "{}: target `{}` matches nothing",
            action.label(),
            action.target.text
        ),
    )
}

impl FromStr for Overlay {
    type Err = SpecError;

    /// Parses and checks an overlay held in a string (JSON or YAML).
    fn from_str(text: &str) -> Result<Self, SpecError> {
        Self::from_slice(text.as_bytes())
    }
}

/// An overlay to apply while loading: a file, read at load time, or an
/// overlay already parsed. Built by `From` from a path or an [`Overlay`].
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum OverlaySource {
    /// A file (JSON or YAML), read when the document is loaded.
    File(PathBuf),
    /// An overlay already parsed.
    Parsed(Overlay),
}

impl From<Overlay> for OverlaySource {
    fn from(overlay: Overlay) -> Self {
        Self::Parsed(overlay)
    }
}

impl From<PathBuf> for OverlaySource {
    fn from(path: PathBuf) -> Self {
        Self::File(path)
    }
}

impl From<&Path> for OverlaySource {
    fn from(path: &Path) -> Self {
        Self::File(path.to_owned())
    }
}

impl From<&str> for OverlaySource {
    /// A file path (not overlay text: parse that with [`Overlay::from_str`]).
    fn from(path: &str) -> Self {
        Self::File(PathBuf::from(path))
    }
}

impl From<String> for OverlaySource {
    /// A file path (not overlay text: parse that with [`Overlay::from_str`]).
    fn from(path: String) -> Self {
        Self::File(PathBuf::from(path))
    }
}

/// Applies `overlays` in order to `document` (which an error leaves half
/// changed), reading the files among them now.
pub(crate) fn apply_overlays(
    overlays: &[OverlaySource],
    document: &mut Value,
    strict: bool,
) -> Result<Vec<Warning>, SpecError> {
    let mut warnings = Vec::new();
    for source in overlays {
        let read;
        let overlay = match source {
            OverlaySource::File(path) => {
                read = Overlay::from_path(path)?;
                &read
            }
            OverlaySource::Parsed(overlay) => overlay,
        };
        warnings.extend(overlay.apply_in_place(document, strict)?);
    }
    Ok(warnings)
}
