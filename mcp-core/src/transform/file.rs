//! The transformation file: the same changes as the builder, as data. A
//! program reads the file (TOML, YAML, JSON) into a [`serde_json::Value`]
//! or straight into [`TransformFile`] with its serde deserializer of choice.
//!
//! One table per tool, keyed by the tool's name as served (after any
//! prefix). In TOML:
//!
//! ```toml
//! [tools.issues_list-for-repo]
//! name = "list_issues"
//! description = "Issues of the acme/widgets repository."
//! annotations = { readOnlyHint = true, openWorldHint = true }
//! meta = { "com.example/team" = "support" }
//!
//! [tools.issues_list-for-repo.arguments.owner]
//! hide = true
//! value = "acme"
//!
//! [tools.issues_list-for-repo.arguments.state]
//! rename = "status"
//! enum = ["open", "closed"]
//! default = "open"
//!
//! [tools.issues_list-for-repo.result]
//! keep = ["number", "title", "state"]
//! max_bytes = 16000
//! ```
//!
//! `toolsets = ["triage"]` puts a tool in exactly those toolsets.

use std::collections::{BTreeMap, HashMap};

use serde::Deserialize;
use serde_json::Value;

use crate::icon::Icon;
use crate::json::JsonObject;
use crate::tool::annotations::ToolAnnotations;
use crate::tool::def::ToolDef;
use crate::transform::arg::ArgTransform;
use crate::transform::builder::{ToolTransform, from_tool};
use crate::transform::error::TransformError;

/// A transformation file: the changes of each tool, by the tool's name.
///
/// ```
/// use mcp_core::transform::TransformFile;
/// use mcp_core::{tool, ToolDef};
/// use serde_json::json;
///
/// let file = TransformFile::from_value(json!({
///     "tools": {"ping": {"name": "health", "description": "Is the service up?"}}
/// }))?;
/// let ping: ToolDef = tool("ping").run(|| async { "pong" })?;
/// let tools = file.apply(vec![ping])?;
/// assert_eq!(tools[0].name(), "health");
///
/// let typo = TransformFile::from_value(json!({"tools": {"ping": {"nmae": "health"}}}));
/// assert!(typo.unwrap_err().to_string().starts_with("tools.ping: unknown field `nmae`"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct TransformFile {
    /// The changes of each tool, keyed by the tool's name as served.
    #[serde(default)]
    pub tools: BTreeMap<String, ToolEntry>,
}

/// The changes of one tool.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct ToolEntry {
    /// The new name.
    pub name: Option<String>,
    /// The new display title.
    pub title: Option<String>,
    /// The new description.
    pub description: Option<String>,
    /// The new annotations (wire names: `title`, `readOnlyHint`, ...).
    pub annotations: Option<AnnotationsEntry>,
    /// The new icons (wire form: `src`, `mimeType`, `sizes`, `theme`).
    pub icons: Option<Vec<Icon>>,
    /// The new `_meta`.
    pub meta: Option<JsonObject>,
    /// The changes of each argument, by its original name.
    #[serde(default)]
    pub arguments: BTreeMap<String, ArgEntry>,
    /// How to trim the structured result.
    pub result: Option<ResultEntry>,
    /// OAuth scopes a call needs, on top of the original tool's (see
    /// [`ToolDef::require_scopes`]).
    #[serde(default)]
    pub scopes: Vec<String>,
    /// The toolsets the tool is in, in place of the original's (see
    /// [`ToolDef::in_toolsets_only`]).
    pub toolsets: Option<Vec<String>>,
}

/// Annotations as a file spells them: the wire names, every one optional,
/// no other key.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[non_exhaustive]
pub struct AnnotationsEntry {
    /// A human-readable title.
    pub title: Option<String>,
    /// The tool does not modify its environment.
    pub read_only_hint: Option<bool>,
    /// The tool may perform destructive updates.
    pub destructive_hint: Option<bool>,
    /// Repeated calls with the same arguments have no additional effect.
    pub idempotent_hint: Option<bool>,
    /// The tool may interact with an open world of external entities.
    pub open_world_hint: Option<bool>,
}

/// The changes of one argument (see [`ArgTransform`] for their meaning).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct ArgEntry {
    /// The new name.
    pub rename: Option<String>,
    /// The new description.
    pub description: Option<String>,
    /// Hide it from clients.
    #[serde(default)]
    pub hide: bool,
    /// The value of a hidden argument.
    pub value: Option<Value>,
    /// The values it may take.
    #[serde(rename = "enum")]
    pub enum_values: Option<Vec<Value>>,
    /// Its default.
    pub default: Option<Value>,
    /// `true` makes it required; `false` is accepted only where it changes
    /// nothing.
    pub required: Option<bool>,
}

/// How to trim a structured result.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct ResultEntry {
    /// The fields each object of the result keeps.
    #[serde(default)]
    pub keep: Vec<String>,
    /// The most bytes of a result the server sends (see
    /// [`ToolDef::max_result_bytes`]).
    pub max_bytes: Option<usize>,
}

impl TransformFile {
    /// Reads a file already parsed into JSON; a misplaced or unknown key is
    /// an error naming where it is (`tools.NAME.arguments.ARG`).
    pub fn from_value(value: Value) -> Result<Self, TransformError> {
        serde_path_to_error::deserialize(value).map_err(|error| {
            let path = error.path().to_string();
            let reason = error.into_inner().to_string();
            TransformError::Format {
                at: location(&path, &reason),
                reason,
            }
        })
    }

    /// Transforms the tools the file names, keeping the others and the
    /// order. A name no tool has, or two tools ending with one name, is an
    /// error, and then nothing is transformed.
    pub fn apply<C: Send + Sync + 'static>(
        &self,
        tools: Vec<ToolDef<C>>,
    ) -> Result<Vec<ToolDef<C>>, TransformError> {
        for name in self.tools.keys() {
            if !tools.iter().any(|def| def.name() == name) {
                return Err(TransformError::UnknownTool {
                    tool: name.clone(),
                    hint: hint(name, &tools),
                });
            }
        }
        let mut transformed = Vec::with_capacity(tools.len());
        let mut names: HashMap<String, String> = HashMap::new();
        for def in tools {
            let original = def.name().to_owned();
            let def = match self.tools.get(&original) {
                Some(entry) => entry.transform(def)?,
                None => def,
            };
            if let Some(first) = names.insert(def.name().to_owned(), original.clone()) {
                return Err(TransformError::DuplicateTool {
                    name: def.name().to_owned(),
                    first,
                    second: original,
                });
            }
            transformed.push(def);
        }
        Ok(transformed)
    }
}

/// Where an error is: the path, without the unknown key an "unknown field"
/// message names already; `(root)` for the top level.
fn location(path: &str, reason: &str) -> String {
    let unknown = reason
        .strip_prefix("unknown field `")
        .and_then(|rest| rest.split_once('`'))
        .map(|(key, _)| key);
    let path = match unknown {
        Some(key) if path == key => "",
        Some(key) => path
            .strip_suffix(key)
            .and_then(|parent| parent.strip_suffix('.'))
            .unwrap_or(path),
        None => path,
    };
    if path.is_empty() || path == "." {
        "(root)".to_owned()
    } else {
        path.to_owned()
    }
}

/// Suggests the tools whose name ends with `name` (it was probably given
/// without its source's prefix).
fn hint<C: Send + Sync + 'static>(name: &str, tools: &[ToolDef<C>]) -> String {
    let near: Vec<String> = tools
        .iter()
        .map(ToolDef::name)
        .filter(|candidate| candidate.ends_with(name) || name.ends_with(candidate))
        .map(|candidate| format!("`{candidate}`"))
        .collect();
    if near.is_empty() {
        String::new()
    } else {
        format!(" (did you mean {}?)", near.join(" or "))
    }
}

impl ToolEntry {
    /// The builder these changes amount to, for `original`.
    pub fn transform<C: Send + Sync + 'static>(
        &self,
        original: ToolDef<C>,
    ) -> Result<ToolDef<C>, TransformError> {
        let tool = original.name().to_owned();
        let mut builder: ToolTransform<C> = from_tool(original);
        if let Some(name) = &self.name {
            builder = builder.name(name.clone());
        }
        if let Some(title) = &self.title {
            builder = builder.title(title.clone());
        }
        if let Some(description) = &self.description {
            builder = builder.description(description.clone());
        }
        if let Some(annotations) = &self.annotations {
            builder = builder.annotations(annotations.to_annotations());
        }
        if let Some(icons) = &self.icons {
            builder = builder.icons(icons.clone());
        }
        if let Some(meta) = &self.meta {
            builder = builder.meta_object(meta.clone());
        }
        for (name, entry) in &self.arguments {
            let change = entry.to_arg(&tool, name, &builder)?;
            builder = builder.arg(name.clone(), change);
        }
        // A `result` entry that only bounds the result's size keeps every
        // field; one that names no field and no bound is refused.
        if let Some(result) = self
            .result
            .as_ref()
            .filter(|result| !result.keep.is_empty() || result.max_bytes.is_none())
        {
            builder = builder.keep_fields(result.keep.iter().cloned());
        }
        let mut def = builder.build()?.require_scopes(self.scopes.iter().cloned());
        if let Some(toolsets) = &self.toolsets {
            def = def.in_toolsets_only(toolsets.iter().cloned());
        }
        if let Some(bytes) = self.result.as_ref().and_then(|result| result.max_bytes) {
            def = def.max_result_bytes(bytes);
        }
        Ok(def)
    }
}

impl AnnotationsEntry {
    /// The annotations these fields declare.
    pub fn to_annotations(&self) -> ToolAnnotations {
        let mut annotations = ToolAnnotations::new();
        annotations.title.clone_from(&self.title);
        annotations.read_only_hint = self.read_only_hint;
        annotations.destructive_hint = self.destructive_hint;
        annotations.idempotent_hint = self.idempotent_hint;
        annotations.open_world_hint = self.open_world_hint;
        annotations
    }
}

impl ArgEntry {
    fn to_arg<C: Send + Sync + 'static>(
        &self,
        tool: &str,
        name: &str,
        builder: &ToolTransform<C>,
    ) -> Result<ArgTransform<C>, TransformError> {
        let mut change = ArgTransform::new();
        if let Some(rename) = &self.rename {
            change = change.rename(rename.clone());
        }
        if let Some(description) = &self.description {
            change = change.description(description.clone());
        }
        if self.hide {
            change = change.hide();
        }
        if let Some(value) = &self.value {
            change = change.value(value.clone());
        }
        if let Some(values) = &self.enum_values {
            change = change.enum_values(values.iter().cloned());
        }
        if let Some(default) = &self.default {
            change = change.default_value(default.clone());
        }
        match self.required {
            Some(true) => change = change.required(),
            Some(false) if builder.requires(name) && self.default.is_none() => {
                return Err(TransformError::Argument {
                    tool: tool.to_owned(),
                    argument: name.to_owned(),
                    reason: "`required = false` cannot make a required argument optional: give it a `default`".to_owned(),
                });
            }
            Some(false) | None => {}
        }
        Ok(change)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn keys_follow_the_documented_spelling() {
        let file = TransformFile::from_value(json!({"tools": {"t": {
            "annotations": {"readOnlyHint": true},
            "arguments": {"a": {"hide": true, "value": 1}, "b": {"enum": [1, 2], "required": true}},
            "result": {"keep": ["x"]}
        }}}))
        .unwrap();
        let entry = &file.tools["t"];
        assert_eq!(
            entry.annotations.as_ref().unwrap().read_only_hint,
            Some(true)
        );
        assert!(entry.arguments["a"].hide);
        assert_eq!(
            entry.arguments["b"].enum_values,
            Some(vec![json!(1), json!(2)])
        );
        assert_eq!(entry.result.as_ref().unwrap().keep, ["x"]);
    }

    #[test]
    fn unknown_keys_are_named_with_where_they_are() {
        let error = TransformFile::from_value(
            json!({"tools": {"t": {"arguments": {"a": {"hdie": true}}}}}),
        )
        .unwrap_err()
        .to_string();
        assert!(
            error.starts_with("tools.t.arguments.a: unknown field `hdie`, expected one of"),
            "{error}"
        );
        let error = TransformFile::from_value(json!({"tool": {}}))
            .unwrap_err()
            .to_string();
        assert!(error.starts_with("(root): unknown field `tool`"), "{error}");
        let error =
            TransformFile::from_value(json!({"tools": {"t": {"annotations": {"readOnly": true}}}}))
                .unwrap_err()
                .to_string();
        assert!(
            error.starts_with("tools.t.annotations: unknown field `readOnly`"),
            "{error}"
        );
    }
}
