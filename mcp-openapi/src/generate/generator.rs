//! Options and the generation run: routes to tools, resources and resource templates.

use std::collections::{BTreeSet, HashMap};
use std::fmt;
use std::sync::Arc;

use mcp_core::Tool;

use crate::error::{SpecError, Warning};
use crate::generate::budget::{DEFAULT_OUTPUT_BUDGET, OutputBudget};
use crate::generate::customization::{Customization, CustomizeFn, annotations, description, meta};
use crate::generate::lower::{Lowering, lower};
use crate::generate::names::{Names, base_name, sanitize};
use crate::generate::resource::{GeneratedResource, GeneratedResourceTemplate, resource, template};
use crate::generate::route_map::{RouteKind, RouteMap, RouteMapFn, classify};
use crate::ir::{HttpMethod, HttpRoute, ParameterLocation, RequestBinding};
use crate::load::open_api::OpenApi;
use crate::schema::profile::SchemaProfile;

/// The default maximum tool name length (what most clients enforce).
const DEFAULT_MAX_NAME_LEN: usize = 64;

/// One generated tool: the protocol value, its route and how its arguments bind to the request.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct GeneratedTool {
    /// The tool as `tools/list` shows it.
    pub tool: Tool,
    /// The route it calls.
    pub route: Arc<HttpRoute>,
    /// Where each input property goes in the request.
    pub binding: RequestBinding,
}

/// Everything a generation run produced.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Generated {
    /// Tools, in document order.
    pub tools: Vec<GeneratedTool>,
    /// Resources (`resources/list` entries).
    pub resources: Vec<GeneratedResource>,
    /// Resource templates.
    pub resource_templates: Vec<GeneratedResourceTemplate>,
    /// Routes left out by route maps (`Exclude`), as pointers.
    pub excluded: Vec<String>,
    /// Skipped operations (with reasons) and approximations, loading's included.
    pub warnings: Vec<Warning>,
}

/// Turns the routes of an [`OpenApi`] into tools, with options.
#[derive(Clone)]
pub struct Generator<'a> {
    api: &'a OpenApi,
    max_name_len: usize,
    mcp_names: HashMap<String, String>,
    profile: SchemaProfile,
    inline_cycle_depth: usize,
    output_budget: Option<usize>,
    result_fields: bool,
    strict: bool,
    route_maps: Vec<RouteMap>,
    route_map_fn: Option<RouteMapFn>,
    customize: Option<CustomizeFn>,
}

impl fmt::Debug for Generator<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Generator")
            .field("max_name_len", &self.max_name_len)
            .field("mcp_names", &self.mcp_names)
            .field("profile", &self.profile)
            .field("output_budget", &self.output_budget)
            .field("result_fields", &self.result_fields)
            .field("strict", &self.strict)
            .field("route_maps", &self.route_maps)
            .finish_non_exhaustive()
    }
}

impl OpenApi {
    /// A generator over this document's routes, with default options.
    pub fn generator(&self) -> Generator<'_> {
        Generator {
            api: self,
            max_name_len: DEFAULT_MAX_NAME_LEN,
            mcp_names: HashMap::new(),
            profile: SchemaProfile::Standard,
            inline_cycle_depth: 1,
            output_budget: Some(DEFAULT_OUTPUT_BUDGET),
            result_fields: false,
            strict: false,
            route_maps: Vec::new(),
            route_map_fn: None,
            customize: None,
        }
    }

    /// Every tool with default options (route maps: all routes are tools).
    pub fn tools(&self) -> Result<Vec<Tool>, SpecError> {
        Ok(self
            .generator()
            .generate()?
            .tools
            .into_iter()
            .map(|t| t.tool)
            .collect())
    }
}

impl<'a> Generator<'a> {
    /// Maximum tool name length (default 64); longer names are cut and get a stable 8-hex suffix.
    pub fn max_name_len(mut self, max: usize) -> Self {
        self.max_name_len = max.clamp(16, 128);
        self
    }

    /// Explicit names by `operationId`.
    pub fn mcp_names(
        mut self,
        names: impl IntoIterator<Item = (impl Into<String>, impl Into<String>)>,
    ) -> Self {
        self.mcp_names
            .extend(names.into_iter().map(|(k, v)| (k.into(), v.into())));
        self
    }

    /// The schema profile (default [`SchemaProfile::Standard`]).
    pub fn profile(mut self, profile: SchemaProfile) -> Self {
        self.profile = profile;
        self
    }

    /// How many times the `inline` profile nests a recursive schema in itself before cutting it.
    pub fn inline_cycle_depth(mut self, depth: usize) -> Self {
        self.inline_cycle_depth = depth.max(1);
        self
    }

    /// The most bytes (compact JSON) of each generated output schema:
    /// larger ones are loosened until they fit, as
    /// [`trimmed_output_schema`](crate::generate::trimmed_output_schema)
    /// says. Default [`DEFAULT_OUTPUT_BUDGET`] (4 KiB); `None` keeps every
    /// output schema whole. Input schemas are never trimmed.
    ///
    /// ```
    /// let api: mcp_openapi::OpenApi = r#"{"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
    ///   "paths": {"/a": {"get": {"operationId": "a", "responses": {"200": {"description": "ok",
    ///     "content": {"application/json": {"schema": {"type": "object", "properties": {
    ///       "note": {"type": "string", "maxLength": 5000, "description": "A note."}}}}}}}}}}}"#
    ///     .parse().unwrap();
    /// let full = api.generator().output_budget(None).generate().unwrap();
    /// let small = api.generator().output_budget(Some(40)).generate().unwrap();
    /// let note = |tools: &mcp_openapi::Generated| {
    ///     tools.tools[0].tool.output_schema.as_ref().unwrap()["properties"]["note"].clone()
    /// };
    /// assert_eq!(note(&full)["maxLength"], 5000);
    /// assert_eq!(note(&small), serde_json::json!({"type": "string", "description": "A note."}));
    /// ```
    pub fn output_budget(mut self, max_bytes: Option<usize>) -> Self {
        self.output_budget = max_bytes;
        self
    }

    /// Whether every tool whose output is JSON (an object, or an array of
    /// objects) takes an optional `fields` argument: a list of top-level
    /// names or dotted paths (`user.login`) of the result to keep, for a
    /// model that needs only a few fields of a large response. Off by
    /// default.
    ///
    /// The handler takes `fields` out of the arguments (it is never sent
    /// upstream) and keeps only those fields of the JSON response: of the
    /// object, or of each item of an array; a path through an array applies
    /// to each of its items (`labels.name`), and unknown names are absent.
    /// An empty list keeps the whole result. The text content mirrors the
    /// kept part. So that a kept part still validates, the tool's output
    /// schema is loosened below its payload: no `required` lists, `oneOf`s
    /// as `anyOf`s, and no other keyword a part could fail.
    ///
    /// A tool whose input already has a property named `fields` (an API
    /// that selects fields itself, such as Jira's) is left as it is.
    ///
    /// ```
    /// let api: mcp_openapi::OpenApi = r#"{"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
    ///   "paths": {"/issues": {"get": {"operationId": "list", "responses": {"200": {"description": "ok",
    ///     "content": {"application/json": {"schema": {"type": "array", "items": {"type": "object",
    ///       "properties": {"number": {"type": "integer"}, "title": {"type": "string"}},
    ///       "required": ["number", "title"]}}}}}}}}}}"#
    ///     .parse().unwrap();
    /// let plain = api.generator().generate().unwrap();
    /// assert!(plain.tools[0].tool.input_schema["properties"].get("fields").is_none());
    ///
    /// let generated = api.generator().result_fields(true).generate().unwrap();
    /// let tool = &generated.tools[0].tool;
    /// assert_eq!(tool.input_schema["properties"]["fields"]["type"], "array");
    /// let items = &tool.output_schema.as_ref().unwrap()["properties"]["result"]["items"];
    /// assert!(items.get("required").is_none());
    /// ```
    pub fn result_fields(mut self, on: bool) -> Self {
        self.result_fields = on;
        self
    }

    /// Fail on the first route that cannot become a tool instead of skipping it.
    pub fn strict(mut self, strict: bool) -> Self {
        self.strict = strict;
        self
    }

    /// Ordered route maps (first match wins; unmatched routes are tools).
    pub fn route_maps(mut self, maps: impl IntoIterator<Item = RouteMap>) -> Self {
        self.route_maps.extend(maps);
        self
    }

    /// A callback with the last word on each route's kind.
    pub fn route_map_fn(
        mut self,
        f: impl Fn(&HttpRoute, RouteKind) -> RouteKind + Send + Sync + 'static,
    ) -> Self {
        self.route_map_fn = Some(Arc::new(f));
        self
    }

    /// A hook that may change name, title, description, annotations and `_meta` of each component.
    pub fn customize(
        mut self,
        f: impl Fn(&HttpRoute, &mut Customization) + Send + Sync + 'static,
    ) -> Self {
        self.customize = Some(Arc::new(f));
        self
    }

    /// Runs the generation.
    pub fn generate(&self) -> Result<Generated, SpecError> {
        let mut out = Generated {
            tools: Vec::with_capacity(self.api.routes().len()),
            warnings: self.api.warnings().to_vec(),
            ..Generated::default()
        };
        let mut lowering = Lowering::new(&self.api.registry, self.profile, self.inline_cycle_depth)
            .result_fields(self.result_fields);
        let mut names = Names::default();
        for name in self.mcp_names.values() {
            names.take(name);
        }
        for route in self.api.routes() {
            let rule = classify(&self.route_maps, route);
            let mut kind = rule.map_or(RouteKind::Tool, |r| r.kind);
            if let Some(f) = &self.route_map_fn {
                kind = f(route, kind);
            }
            let tags = rule.map(|r| r.mcp_tags.clone()).unwrap_or_default();
            let result = match kind {
                RouteKind::Exclude => {
                    out.excluded.push(route.pointer.clone());
                    Ok(())
                }
                RouteKind::Tool => self
                    .tool(route, &tags, &mut lowering, &mut names)
                    .map(|t| out.tools.push(t)),
                RouteKind::Resource | RouteKind::ResourceTemplate => self.resource_or_template(
                    route,
                    kind,
                    &tags,
                    &mut lowering,
                    &mut names,
                    &mut out,
                ),
            };
            if let Err(error) = result {
                if self.strict {
                    return Err(SpecError::Strict(Box::new(error)));
                }
                out.warnings
                    .push(Warning::new(&route.pointer, format!("skipped: {error}")));
            }
        }
        // Its shared outputs let go, an output schema of one tool only is
        // trimmed without a copy.
        drop(lowering);
        let mut budget = OutputBudget::new(self.output_budget);
        for generated in &mut out.tools {
            if let Some(schema) = generated.tool.output_schema.take() {
                generated.tool.output_schema = Some(budget.apply(schema));
            }
        }
        Ok(out)
    }

    fn name_for(&self, route: &HttpRoute, names: &mut Names) -> String {
        if let Some(name) = route
            .operation_id
            .as_ref()
            .and_then(|id| self.mcp_names.get(id))
        {
            return name.clone();
        }
        names.unique(&sanitize(&base_name(route)), self.max_name_len)
    }

    fn tool(
        &self,
        route: &Arc<HttpRoute>,
        tags: &BTreeSet<String>,
        lowering: &mut Lowering<'_>,
        names: &mut Names,
    ) -> Result<GeneratedTool, SpecError> {
        let lowered = lower(route, lowering)?;
        let custom = self.customization(route, names, tags, lowered.binding.output_wrapped)?;
        let tool_error = |error| SpecError::Tool {
            pointer: route.pointer.clone(),
            error,
        };
        let mut builder = mcp_core::tool(custom.name)
            .description(custom.description)
            .annotations(custom.annotations)
            .meta_object(custom.meta);
        if let Some(title) = custom.title {
            builder = builder.title(title);
        }
        // The builder validates name and `_meta`; the schemas (roots of
        // `"type": "object"` by construction) are moved in afterwards rather
        // than cloned by `build`: they are most of the work on large documents.
        let mut tool = builder.build().map_err(tool_error)?;
        tool.input_schema = lowered.input_schema;
        tool.output_schema = lowered.output_schema;
        Ok(GeneratedTool {
            tool,
            route: route.clone(),
            binding: lowered.binding,
        })
    }

    /// The metadata of the component generated from `route`, after the hook.
    fn customization(
        &self,
        route: &HttpRoute,
        names: &mut Names,
        tags: &BTreeSet<String>,
        wrapped: bool,
    ) -> Result<Customization, SpecError> {
        let description = description(route);
        let annotations = annotations(route)?;
        let mut custom = Customization {
            name: self.name_for(route, names),
            title: route.summary.clone(),
            description,
            annotations,
            meta: meta(route, tags, wrapped),
        };
        if let Some(hook) = &self.customize {
            hook(route, &mut custom);
        }
        Ok(custom)
    }

    fn resource_or_template(
        &self,
        route: &Arc<HttpRoute>,
        kind: RouteKind,
        tags: &BTreeSet<String>,
        lowering: &mut Lowering<'_>,
        names: &mut Names,
        out: &mut Generated,
    ) -> Result<(), SpecError> {
        if route.method != HttpMethod::Get {
            out.warnings.push(Warning::new(
                &route.pointer,
                "only GET routes can be resources; made a tool instead",
            ));
            out.tools.push(self.tool(route, tags, lowering, names)?);
            return Ok(());
        }
        let has_path_params = route
            .parameters
            .iter()
            .any(|p| p.location == ParameterLocation::Path);
        // A resource is read, not called: no schemas to lower.
        let custom = self.customization(route, names, tags, false)?;
        if kind == RouteKind::Resource && !has_path_params {
            out.resources.push(resource(route, custom)?);
        } else {
            out.resource_templates.push(template(route, custom)?);
        }
        Ok(())
    }
}
