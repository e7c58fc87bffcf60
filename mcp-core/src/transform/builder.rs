//! The fluent builder of a transformed tool.

use std::fmt;
use std::future::Future;
use std::marker::PhantomData;
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::error::ToolError;
use crate::icon::Icon;
use crate::json::JsonObject;
use crate::meta::{Meta, WRAPPED_OUTPUT_META_KEY};
use crate::name::validate_tool_name;
use crate::schema::check_object_schema;
use crate::tool::annotations::ToolAnnotations;
use crate::tool::def::ToolDef;
use crate::tool::result::IntoCallToolResult;
use crate::tool::schema::ToolSchema;
use crate::tool::unvalidated;
use crate::transform::arg::ArgTransform;
use crate::transform::error::TransformError;
use crate::transform::forward::Forward;
use crate::transform::handler::TransformHandler;
use crate::transform::keep::Keep;
use crate::transform::schema::rewrite_input;
use crate::transform::wrap::{Wrap, WrapFn};

/// Starts a new tool derived from `original`, which is left as it is (clone
/// it first to serve both).
///
/// Everything not changed is inherited: name, title, description,
/// annotations, icons, `_meta`, execution, schemas. The new tool's input
/// schema is regenerated from the [`arg`](ToolTransform::arg) changes, and
/// each call is checked against it first (so errors name the new argument
/// names), then mapped back and sent to `original` through its own
/// middleware and handler.
///
/// ```
/// use mcp_core::transform::{ArgTransform, from_tool};
/// use mcp_core::{tool, ToolDef};
/// use schemars::JsonSchema;
/// use serde::Deserialize;
/// use serde_json::json;
///
/// #[derive(Deserialize, JsonSchema)]
/// struct Search {
///     q: String,
///     owner: String,
/// }
///
/// let search: ToolDef = tool("search")
///     .input::<Search>()
///     .run(|s: Search| async move { format!("{} in {}", s.q, s.owner) })?;
///
/// let find: ToolDef = from_tool(search)
///     .name("find")
///     .description("Finds things of acme.")
///     .arg("q", ArgTransform::new().rename("query"))
///     .arg("owner", ArgTransform::new().hide().value("acme"))
///     .build()?;
///
/// assert_eq!(find.tool().input_schema["required"], json!(["query"]));
/// let found = futures_executor::block_on(find.call_detached(json!({"query": "bolts"})));
/// assert_eq!(found.text_content(), "bolts in acme");
/// let bad = futures_executor::block_on(find.call_detached(json!({"q": "bolts"})));
/// assert!(bad.text_content().contains("\"query\" is a required property"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn from_tool<C: Send + Sync + 'static>(original: ToolDef<C>) -> ToolTransform<C> {
    ToolTransform {
        original,
        name: None,
        title: None,
        description: None,
        annotations: None,
        icons: None,
        meta: None,
        output_schema: None,
        args: Vec::new(),
        wrap: None,
        keep: None,
        error: None,
    }
}

/// A transformed tool under construction; see [`from_tool`].
#[must_use = "a tool transformation does nothing until `.build()`"]
pub struct ToolTransform<C = ()> {
    original: ToolDef<C>,
    name: Option<String>,
    title: Option<String>,
    description: Option<String>,
    annotations: Option<ToolAnnotations>,
    icons: Option<Vec<Icon>>,
    meta: Option<Meta>,
    output_schema: Option<JsonObject>,
    args: Vec<(String, ArgTransform<C>)>,
    wrap: Option<Arc<dyn Wrap<C>>>,
    keep: Option<Vec<String>>,
    error: Option<TransformError>,
}

impl<C: Send + Sync + 'static> ToolTransform<C> {
    /// Renames the tool.
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// Replaces the display title.
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// Replaces the description.
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// Replaces the annotations (a [`ToolAnnotations`], a
    /// [`Hint`](crate::Hint) or an array of hints).
    pub fn annotations(mut self, annotations: impl Into<ToolAnnotations>) -> Self {
        self.annotations = Some(annotations.into());
        self
    }

    /// Replaces the icons.
    pub fn icons(mut self, icons: impl IntoIterator<Item = Icon>) -> Self {
        self.icons = Some(icons.into_iter().collect());
        self
    }

    /// Replaces the whole `_meta`, checking every key. What the original
    /// recorded about its output's shape
    /// ([`WRAPPED_OUTPUT_META_KEY`](crate::meta::WRAPPED_OUTPUT_META_KEY))
    /// stays, since the results keep that shape.
    pub fn meta_object(mut self, object: JsonObject) -> Self {
        match Meta::from_object(object) {
            Ok(meta) => self.meta = Some(meta),
            Err(error) => self.tool_error(error),
        }
        self
    }

    /// Adds or replaces one `_meta` entry, checking the key.
    pub fn meta(mut self, key: impl Into<String>, value: Value) -> Self {
        let mut meta = self
            .meta
            .take()
            .unwrap_or_else(|| self.original.tool().meta.clone());
        if let Err(error) = meta.insert(key, value) {
            self.tool_error(error);
        }
        self.meta = Some(meta);
        self
    }

    /// Replaces the output schema (its root must be `"type": "object"`), for
    /// a [`wrap`](Self::wrap) function that changes the result's shape.
    pub fn output_schema(mut self, schema: JsonObject) -> Self {
        self.output_schema = Some(schema);
        self
    }

    /// Changes the argument the original tool calls `name`; see
    /// [`ArgTransform`]. Naming an argument the tool does not have is an
    /// error of [`build`](Self::build).
    pub fn arg(mut self, name: impl Into<String>, change: ArgTransform<C>) -> Self {
        self.args.push((name.into(), change));
        self
    }

    /// Keeps only these fields of each object of the structured result (the
    /// result itself, or each item of a list); the output schema is trimmed
    /// to match.
    pub fn keep_fields<S: Into<String>>(mut self, fields: impl IntoIterator<Item = S>) -> Self {
        self.keep = Some(fields.into_iter().map(Into::into).collect());
        self
    }

    /// Runs `function` for each call instead of forwarding it directly. It
    /// gets the arguments (checked against the new input schema, defaults
    /// filled in, under the new names) deserialized into `In`, and a
    /// [`Forward`] to call the original tool; what it returns becomes the
    /// result (anything [`IntoCallToolResult`], such as a
    /// [`CallToolResult`](crate::CallToolResult) or a `Result` of one).
    ///
    /// ```
    /// use mcp_core::transform::{Forward, from_tool};
    /// use mcp_core::{tool, CallToolResult, JsonObject, ToolDef};
    /// use serde::Deserialize;
    /// use serde_json::json;
    ///
    /// let search: ToolDef = tool("search")
    ///     .run(|args: JsonObject| async move { CallToolResult::structured(json!({"q": args["q"], "hits": 3, "debug": "..."})) })?;
    ///
    /// #[derive(Deserialize)]
    /// struct Query {
    ///     q: String,
    /// }
    ///
    /// let careful: ToolDef = from_tool(search)
    ///     .wrap(|query: Query, forward: Forward| async move {
    ///         if query.q.trim().is_empty() {
    ///             return Err("say what to search for");
    ///         }
    ///         let mut result = forward.call(json!({"q": query.q.trim()})).await;
    ///         if let Some(found) = result.structured_content.as_mut().and_then(|v| v.as_object_mut()) {
    ///             found.remove("debug");
    ///         }
    ///         Ok(result)
    ///     })
    ///     .build()?;
    ///
    /// let found = futures_executor::block_on(careful.call_detached(json!({"q": " bolts "})));
    /// assert_eq!(found.structured_content, Some(json!({"q": "bolts", "hits": 3})));
    /// let refused = futures_executor::block_on(careful.call_detached(json!({"q": ""})));
    /// assert_eq!(refused.text_content(), "say what to search for");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn wrap<F, Fut, In, R>(mut self, function: F) -> Self
    where
        F: Fn(In, Forward<C>) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = R> + Send + 'static,
        R: IntoCallToolResult + 'static,
        In: DeserializeOwned + 'static,
    {
        self.wrap = Some(Arc::new(WrapFn {
            function,
            marker: PhantomData,
        }));
        self
    }

    /// The transformed tool, or the first problem found: a bad name or
    /// `_meta` key, an unknown argument, contradicting or ill-fitting
    /// argument changes, an output schema that is not an object.
    pub fn build(self) -> Result<ToolDef<C>, TransformError> {
        let original_name = self.original.name().to_owned();
        if let Some(error) = self.error {
            return Err(error);
        }
        let fail_tool = |error: ToolError| TransformError::Tool {
            tool: original_name.clone(),
            error,
        };
        let mut tool = self.original.tool().clone();
        if let Some(name) = self.name {
            validate_tool_name(&name).map_err(fail_tool)?;
            tool.name = name;
        }
        if let Some(title) = self.title {
            tool.title = Some(title);
        }
        if let Some(description) = self.description {
            tool.description = Some(description);
        }
        if let Some(annotations) = self.annotations {
            tool.annotations = Some(annotations);
        }
        if let Some(icons) = self.icons {
            tool.icons = icons;
        }
        let wrapped = tool.meta.get(WRAPPED_OUTPUT_META_KEY) == Some(&Value::Bool(true));
        if let Some(meta) = self.meta {
            let mut meta = meta.into_object();
            if wrapped {
                meta.insert(WRAPPED_OUTPUT_META_KEY.to_owned(), Value::Bool(true));
            }
            tool.meta = Meta::from_wire(meta);
        }
        let rewritten = rewrite_input(&original_name, &tool.name, &tool.input_schema, &self.args)?;
        tool.input_schema = ToolSchema::new(rewritten.schema);

        let tolerant = tool
            .output_schema
            .as_ref()
            .is_some_and(|schema| unvalidated::documented(schema.root()).is_some());
        let keep = match self.keep {
            None => None,
            Some(fields) => Some(keep_rule(&original_name, fields, wrapped, tolerant)?),
        };
        if let Some(schema) = self.output_schema {
            check_object_schema(&schema).map_err(|error| {
                fail_tool(ToolError::Schema {
                    tool: tool.name.clone(),
                    error,
                })
            })?;
            tool.output_schema = Some(ToolSchema::new(schema));
        } else if let (Some(keep), Some(schema)) = (&keep, &tool.output_schema) {
            tool.output_schema = Some(ToolSchema::new(keep.schema(schema)));
        }

        let scopes = self.original.required_scopes().to_vec();
        let toolsets = self.original.toolsets().to_vec();
        let result_limit = self.original.result_limit();
        let forwards = self.original.forwards_caller_credentials();
        let handler = TransformHandler {
            original: self.original,
            plan: Arc::new(rewritten.plan),
            wrap: self.wrap,
            keep: keep.map(Arc::new),
        };
        // A derived tool calls the original, so it needs what the original
        // needs and sends what the original sends.
        let derived = ToolDef::from_parts(tool, Arc::new(handler))
            .require_scopes(scopes)
            .in_toolsets(toolsets)
            .forwarding_caller_credentials(forwards);
        // It is in the original's toolsets and has its result bound.
        Ok(match result_limit {
            Some(bytes) => derived.max_result_bytes(bytes),
            None => derived,
        })
    }

    /// Whether the original tool requires the argument `name`.
    pub(crate) fn requires(&self, name: &str) -> bool {
        self.original
            .tool()
            .input_schema
            .get("required")
            .and_then(Value::as_array)
            .is_some_and(|required| required.iter().any(|n| n.as_str() == Some(name)))
    }

    fn tool_error(&mut self, error: ToolError) {
        let tool = self.original.name().to_owned();
        self.error
            .get_or_insert(TransformError::Tool { tool, error });
    }
}

fn keep_rule(
    tool: &str,
    fields: Vec<String>,
    wrapped: bool,
    tolerant: bool,
) -> Result<Keep, TransformError> {
    let fail = |reason: &str| TransformError::Result {
        tool: tool.to_owned(),
        reason: reason.to_owned(),
    };
    if fields.is_empty() {
        return Err(fail("`keep` needs at least one field"));
    }
    if fields.iter().any(String::is_empty) {
        return Err(fail("`keep` names an empty field"));
    }
    Ok(Keep::new(fields, wrapped, tolerant))
}

impl<C: Send + Sync + 'static> fmt::Debug for ToolTransform<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolTransform")
            .field("original", &self.original.tool().name)
            .field("name", &self.name)
            .field("args", &self.args)
            .field("wrapped", &self.wrap.is_some())
            .field("keep", &self.keep)
            .finish_non_exhaustive()
    }
}
