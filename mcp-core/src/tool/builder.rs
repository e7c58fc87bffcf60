//! The fluent tool builder.

use std::marker::PhantomData;
use std::sync::Arc;

use serde_json::Value;

use crate::error::{SchemaError, ToolError};
use crate::icon::Icon;
use crate::json::JsonObject;
use crate::meta::Meta;
use crate::meta::Metadata;
use crate::meta::WRAPPED_OUTPUT_META_KEY;
use crate::name::validate_tool_name;
use crate::schema::{any_object, check_object_schema, input_schema_for, output_schema_for};
use crate::tool::annotations::ToolAnnotations;
use crate::tool::def::ToolDef;
use crate::tool::execution::ToolExecution;
use crate::tool::handler::{ToolFn, ToolFnHandler};
use crate::tool::input::ToolInput;
use crate::tool::lazy_check::LazyArgumentCheck;
use crate::tool::output::{IntoToolResult, ToolOutput, Unstructured};
use crate::tool::schema::ToolSchema;
use crate::tool::value::Tool;

/// Starts building the tool `name`. Required things are arguments here;
/// everything optional is a chain method; [`run`](ToolBuilder::run) gives the
/// handler and ends the chain.
///
/// Problems (a bad name, a reserved `_meta` key, an input type whose schema is
/// not an object) are remembered and returned by `run`, the first one only.
///
/// ```
/// use mcp_core::{tool, Hint, Icon, ToolDef, ToolExecution};
/// use schemars::JsonSchema;
/// use serde::{Deserialize, Serialize};
///
/// #[derive(Deserialize, JsonSchema)]
/// struct DeleteRequest {
///     /// The user's id.
///     id: String,
/// }
///
/// #[derive(Serialize, JsonSchema)]
/// struct DeleteResponse {
///     ok: bool,
/// }
///
/// async fn do_delete(_id: String) -> Result<DeleteResponse, std::io::Error> {
///     Ok(DeleteResponse { ok: true })
/// }
///
/// let def: ToolDef = tool("delete_user")
///     .title("Delete user")
///     .description("Permanently remove a user account by id.")
///     .icon(Icon::png("https://example.com/icons/delete.png", &["48x48", "any"]))
///     .annotations([Hint::Destroy, Hint::ClosedWorld])
///     .execution(ToolExecution::optional())
///     .meta("com.example.acme/audit-tier", "high".into())
///     .input::<DeleteRequest>()
///     .output::<DeleteResponse>()
///     .run(|req: DeleteRequest| do_delete(req.id))?;
///
/// let result = futures_executor::block_on(def.call_detached(serde_json::json!({"id": "7"})));
/// assert_eq!(result.structured_content, Some(serde_json::json!({"ok": true})));
/// # Ok::<(), mcp_core::ToolError>(())
/// ```
pub fn tool(name: impl Into<String>) -> ToolBuilder {
    let name = name.into();
    let error = validate_tool_name(&name).err();
    ToolBuilder {
        name,
        title: None,
        description: None,
        icons: Vec::new(),
        annotations: None,
        execution: None,
        meta: Meta::new(),
        input_schema: any_object(),
        output_schema: None,
        output_wrapped: false,
        allow_unknown_arguments: false,
        scopes: Vec::new(),
        toolsets: Vec::new(),
        error,
        types: PhantomData,
    }
}

/// A tool under construction; see [`tool`].
///
/// `In` is the arguments type (a JSON object map until
/// [`input`](Self::input)); `Out` the structured output type
/// ([`Unstructured`] until [`output`](Self::output)).
#[derive(Debug)]
#[must_use = "a tool builder does nothing until `.run(handler)`"]
pub struct ToolBuilder<In = JsonObject, Out = Unstructured> {
    name: String,
    title: Option<String>,
    description: Option<String>,
    icons: Vec<Icon>,
    annotations: Option<ToolAnnotations>,
    execution: Option<ToolExecution>,
    meta: Meta,
    input_schema: JsonObject,
    output_schema: Option<JsonObject>,
    output_wrapped: bool,
    allow_unknown_arguments: bool,
    scopes: Vec<String>,
    toolsets: Vec<String>,
    error: Option<ToolError>,
    types: PhantomData<fn(In) -> Out>,
}

impl<In, Out> ToolBuilder<In, Out> {
    /// Sets the display title.
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// OAuth scopes a call of the tool needs, on top of the ones every
    /// request needs (an OAuth-protected HTTP server answers 403 without
    /// them; see [`ToolDef::required_scopes`]).
    ///
    /// ```
    /// use mcp_core::{tool, ToolDef};
    ///
    /// let delete: ToolDef = tool("delete_pet").scopes(["pets:write"]).run(|| async { "deleted" })?;
    /// assert_eq!(delete.required_scopes(), ["pets:write"]);
    /// # Ok::<(), mcp_core::ToolError>(())
    /// ```
    pub fn scopes(mut self, scopes: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.scopes.extend(scopes.into_iter().map(Into::into));
        self
    }

    /// Puts the tool in the toolset `name` (repeatable): a server serving a
    /// selection of toolsets serves it when one of its toolsets is selected
    /// (see [`ToolDef::in_toolsets`]). In `#[tool]`: `toolset = "issues"`.
    ///
    /// ```
    /// use mcp_core::{tool, ToolDef};
    ///
    /// let close: ToolDef = tool("close_issue").toolset("issues").run(|| async { "closed" })?;
    /// assert_eq!(close.toolsets(), ["issues"]);
    /// # Ok::<(), mcp_core::ToolError>(())
    /// ```
    pub fn toolset(mut self, name: impl Into<String>) -> Self {
        self.toolsets.push(name.into());
        self
    }

    /// Sets the description people and models read.
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// Appends an icon.
    pub fn icon(mut self, icon: Icon) -> Self {
        self.icons.push(icon);
        self
    }

    /// Replaces the icons.
    pub fn icons(mut self, icons: impl IntoIterator<Item = Icon>) -> Self {
        self.icons = icons.into_iter().collect();
        self
    }

    /// Declares behaviour hints: a [`ToolAnnotations`] value, one
    /// [`Hint`](crate::Hint) or an array of them. Calls accumulate with
    /// [`ToolAnnotations::combine`].
    pub fn annotations(mut self, annotations: impl Into<ToolAnnotations>) -> Self {
        let annotations = annotations.into();
        self.annotations = Some(match self.annotations.take() {
            Some(existing) => existing.combine(annotations),
            None => annotations,
        });
        self
    }

    /// Sets whether the tool may run as a task.
    pub fn execution(mut self, execution: impl Into<ToolExecution>) -> Self {
        self.execution = Some(execution.into());
        self
    }

    /// Adds an `_meta` entry; the key is checked with
    /// [`validate_meta_key`](crate::meta::validate_meta_key).
    pub fn meta(mut self, key: impl Into<String>, value: Value) -> Self {
        if let Err(error) = self.meta.insert(key, value) {
            self.error.get_or_insert(error);
        }
        self
    }

    /// Replaces the whole `_meta` with `object`, checking every key.
    pub fn meta_object(mut self, object: JsonObject) -> Self {
        match Meta::from_object(object) {
            Ok(meta) => self.meta = meta,
            Err(error) => {
                self.error.get_or_insert(error);
            }
        }
        self
    }

    /// Applies a shared [`Metadata`] bundle: overwrites title, icons and
    /// `_meta`; later setters win again.
    pub fn metadata(mut self, bundle: &Metadata) -> Self {
        self.title.clone_from(&bundle.title);
        self.icons.clone_from(&bundle.icons);
        self.meta = bundle.meta.clone();
        if let Some(error) = &bundle.error {
            self.error.get_or_insert_with(|| error.clone());
        }
        self
    }

    /// Types the arguments: the input schema is derived from `T` (its root
    /// must be an object) and the handler receives a `T`.
    pub fn input<T: ToolInput>(self) -> ToolBuilder<T, Out> {
        let schema = input_schema_for::<T>();
        let mut next = self.retype();
        match schema {
            Ok(schema) => next.input_schema = schema,
            Err(source) => next.schema_error(source),
        }
        next
    }

    /// Types the structured output: the output schema is derived from `T` and
    /// the handler returns `T` or `Result<T, E>`. A `T` whose schema is not an
    /// object is wrapped as `{"result": ...}` (see
    /// [`output_schema_for`](crate::schema::output_schema_for)), and the tool's
    /// `_meta` records it under [`WRAPPED_OUTPUT_META_KEY`](crate::meta::WRAPPED_OUTPUT_META_KEY).
    pub fn output<T: ToolOutput>(self) -> ToolBuilder<In, T> {
        let (schema, wrapped) = output_schema_for::<T>();
        let mut next = self.retype();
        next.output_schema = Some(schema);
        next.output_wrapped = wrapped;
        next
    }

    /// Sets a hand-written input schema (the arguments stay as they are
    /// typed); its root must be `"type": "object"`.
    pub fn input_schema(mut self, schema: JsonObject) -> Self {
        match check_object_schema(&schema) {
            Ok(()) => self.input_schema = schema,
            Err(source) => self.schema_error(source),
        }
        self
    }

    /// Sets a hand-written output schema; its root must be `"type": "object"`.
    /// The handler is responsible for matching it.
    pub fn output_schema(mut self, schema: JsonObject) -> Self {
        match check_object_schema(&schema) {
            Ok(()) => self.output_schema = Some(schema),
            Err(source) => self.schema_error(source),
        }
        self
    }

    /// Lets calls through with top-level arguments the input schema does
    /// not name (by default they are refused with an error naming each one;
    /// see [`arguments`](crate::arguments)). For `#[tool]` functions:
    /// `#[tool(allow_unknown_arguments)]`.
    ///
    /// ```
    /// use mcp_core::{JsonObject, ToolDef, tool};
    /// use serde_json::json;
    ///
    /// let def: ToolDef = tool("echo")
    ///     .input_schema(json!({"type": "object", "properties": {"text": {"type": "string"}}}).as_object().cloned().unwrap())
    ///     .allow_unknown_arguments()
    ///     .run(|arguments: JsonObject| async move { format!("{} arguments", arguments.len()) })?;
    /// let result = futures_executor::block_on(def.call_detached(json!({"text": "hi", "mood": "calm"})));
    /// assert_eq!(result.text_content(), "2 arguments");
    /// # Ok::<(), mcp_core::ToolError>(())
    /// ```
    pub fn allow_unknown_arguments(mut self) -> Self {
        self.allow_unknown_arguments = true;
        self
    }

    /// The protocol value built so far, or the first problem found.
    pub fn build(&self) -> Result<Tool, ToolError> {
        if let Some(error) = &self.error {
            return Err(error.clone());
        }
        let mut meta = self.meta.clone();
        if self.output_wrapped {
            meta.extend(Meta::from_wire(JsonObject::from_iter([(
                WRAPPED_OUTPUT_META_KEY.to_owned(),
                Value::Bool(true),
            )])));
        }
        Ok(Tool {
            name: self.name.clone(),
            title: self.title.clone(),
            description: self.description.clone(),
            input_schema: ToolSchema::new(self.input_schema.clone()),
            output_schema: self.output_schema.clone().map(ToolSchema::new),
            annotations: self.annotations.clone(),
            icons: self.icons.clone(),
            execution: self.execution,
            meta,
        })
    }

    /// Ends the chain with the tool's code: `async fn()`, `async fn(In)` or
    /// `async fn(In, ToolCallContext<C>)`.
    ///
    /// Arguments are checked against the tool's input schema first (see
    /// [`arguments`](crate::arguments)); arguments that break it or do not
    /// deserialize into `In` give a result with `isError: true` listing
    /// every violation by JSON pointer; the handler's `Err` gives one with
    /// the error's message.
    pub fn run<C, M, H>(self, handler: H) -> Result<ToolDef<C>, ToolError>
    where
        H: ToolFn<M, In, C>,
        H::Output: IntoToolResult<Out>,
        In: serde::de::DeserializeOwned + 'static,
        Out: 'static,
        M: 'static,
        C: Send + Sync + 'static,
    {
        let tool = self.build()?;
        let handler = ToolFnHandler::<H, M, In, Out> {
            handler,
            wrapped: self.output_wrapped,
            check: LazyArgumentCheck::new(self.allow_unknown_arguments),
            marker: PhantomData,
        };
        Ok(ToolDef::from_parts(tool, Arc::new(handler))
            .require_scopes(self.scopes)
            .in_toolsets(self.toolsets))
    }

    /// Records that the arguments' description of `argument` is wrong
    /// (what `#[arg(..)]` says of a parameter).
    pub(crate) fn argument_error(&mut self, argument: &'static str, reason: String) {
        self.schema_error(SchemaError::Argument { argument, reason });
    }

    fn schema_error(&mut self, source: SchemaError) {
        let tool = self.name.clone();
        self.error.get_or_insert(ToolError::Schema {
            tool,
            error: source,
        });
    }

    fn retype<In2, Out2>(self) -> ToolBuilder<In2, Out2> {
        ToolBuilder {
            name: self.name,
            title: self.title,
            description: self.description,
            icons: self.icons,
            annotations: self.annotations,
            execution: self.execution,
            meta: self.meta,
            input_schema: self.input_schema,
            output_schema: self.output_schema,
            output_wrapped: self.output_wrapped,
            allow_unknown_arguments: self.allow_unknown_arguments,
            scopes: self.scopes,
            toolsets: self.toolsets,
            error: self.error,
            types: PhantomData,
        }
    }
}
