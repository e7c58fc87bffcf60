//! Generated tools and resources with their HTTP handlers: the `ToolDef`s
//! and `ResourceDef`s a server hosts.

use std::collections::{BTreeMap, HashMap};
use std::future::Future;
use std::sync::Arc;

use mcp_core::{
    JsonObject, Tool, ToolCallContext, ToolDef, ToolSchema,
    resource::{Resource, ResourceBuilder, ResourceDef, ResourceRequest, ResourceTemplate},
    tool::CallToolRequest,
    tool::ToolHandler,
};
use serde_json::Value;

use crate::call::client_config::ClientConfig;
use crate::call::execute::HttpToolHandler;
use crate::call::response::tolerant_of;
use crate::error::SpecError;
use crate::generate::generator::{Generated, GeneratedTool};
use crate::ir::{HttpRoute, RequestBinding};

#[cfg_attr(docsrs, doc(cfg(feature = "call")))]
impl GeneratedTool {
    /// The tool with the handler that performs its HTTP call through `config`.
    ///
    /// Real APIs do not always match their documents, so the served tool
    /// declares [`tolerant_output_schema`](crate::call::tolerant_output_schema) of the documented output schema: a
    /// success that does not match is passed on in an envelope that still
    /// validates, for clients that check `structuredContent` against
    /// `outputSchema`.
    ///
    /// The tool is in the toolsets of its operation's tags and of the route
    /// map's `mcp_tags` (see [`ToolDef::in_toolsets`]).
    ///
    /// With a `config` that passes the caller's `Authorization` through, the
    /// tool is marked as
    /// [forwarding its caller's credentials](ToolDef::forwards_caller_credentials).
    pub fn tool_def<C: Send + Sync + 'static>(
        &self,
        config: &Arc<ClientConfig>,
    ) -> Result<ToolDef<C>, SpecError> {
        self.clone()
            .into_tool_def_sharing(config, &mut TolerantSchemas::default())
    }

    fn into_tool_def_sharing<C: Send + Sync + 'static>(
        self,
        config: &Arc<ClientConfig>,
        tolerant: &mut TolerantSchemas,
    ) -> Result<ToolDef<C>, SpecError> {
        let Self {
            mut tool,
            route,
            binding,
        } = self;
        if let Some(declared) = tool.output_schema.take() {
            tool.output_schema = Some(tolerant.of(declared));
        }
        let forwards = config.passthrough_authorization;
        // The operation's tags and the route map's `mcp_tags` are its toolsets.
        let mcp_tags: Vec<String> = tool
            .meta
            .get(crate::generate::customization::TAGS_META_KEY)
            .and_then(Value::as_array)
            .map(|tags| {
                tags.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default();
        let toolsets: Vec<String> = route.tags.iter().cloned().chain(mcp_tags).collect();
        let pointer = route.pointer.clone();
        let handler = HttpToolHandler::new(route, binding, config.clone());
        ToolDef::new(tool, handler)
            .map(|def| {
                def.forwarding_caller_credentials(forwards)
                    .in_toolsets(toolsets)
            })
            .map_err(|error| SpecError::Tool { pointer, error })
    }
}

/// Tolerant output schemas of the declared schemas they wrap: generated
/// tools that share an output schema share its tolerant form too, and the
/// definitions of both stay shared (only the roots are rewritten).
#[derive(Default)]
struct TolerantSchemas(HashMap<*const (), (ToolSchema, ToolSchema)>);

impl TolerantSchemas {
    fn of(&mut self, declared: ToolSchema) -> ToolSchema {
        // The address identifies the schema while it lives: the map keeps
        // each declared schema beside its tolerant form.
        self.0
            .entry(declared.as_ptr())
            .or_insert_with(|| {
                let tolerant = declared.map_root(tolerant_of);
                (declared, tolerant)
            })
            .1
            .clone()
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "call")))]
impl Generated {
    /// Every generated tool with its HTTP handler, in document order.
    ///
    /// [`into_tool_defs`](Self::into_tool_defs) gives the same tools
    /// without copying them, where the generated tools are not needed
    /// after.
    pub fn tool_defs<C: Send + Sync + 'static>(
        &self,
        config: &Arc<ClientConfig>,
    ) -> Result<Vec<ToolDef<C>>, SpecError> {
        let mut tolerant = TolerantSchemas::default();
        self.tools
            .iter()
            .map(|tool| tool.clone().into_tool_def_sharing(config, &mut tolerant))
            .collect()
    }

    /// [`tool_defs`](Self::tool_defs), taking the generated tools: each
    /// tool and its route move into its definition, so a large document's
    /// tools are not held twice while the definitions are made. Take the
    /// [`resource_defs`](Self::resource_defs) first.
    ///
    /// ```
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// use std::sync::Arc;
    /// use mcp_openapi::{ClientConfig, OpenApi};
    ///
    /// let api = OpenApi::from_slice(br#"{"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
    ///     "paths": {"/ping": {"get": {"operationId": "ping", "responses": {"200": {"description": "ok"}}}}}}"#)?;
    /// let generated = api.generator().generate()?;
    /// let config = Arc::new(ClientConfig::builder().build()?);
    /// let resources: Vec<mcp_core::resource::ResourceDef> = generated.resource_defs(&config)?;
    /// let tools: Vec<mcp_core::ToolDef> = generated.into_tool_defs(&config)?;
    /// assert_eq!(tools[0].name(), "ping");
    /// # Ok(())
    /// # }
    /// ```
    pub fn into_tool_defs<C: Send + Sync + 'static>(
        self,
        config: &Arc<ClientConfig>,
    ) -> Result<Vec<ToolDef<C>>, SpecError> {
        let mut tolerant = TolerantSchemas::default();
        self.tools
            .into_iter()
            .map(|tool| tool.into_tool_def_sharing(config, &mut tolerant))
            .collect()
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "call")))]
impl Generated {
    /// Every generated resource and resource template, read by calling its
    /// GET route through `config` (template variables become the route's
    /// arguments), in document order: resources first, then templates.
    pub fn resource_defs<C: Send + Sync + 'static>(
        &self,
        config: &Arc<ClientConfig>,
    ) -> Result<Vec<ResourceDef<C>>, SpecError> {
        let resources = self.resources.iter().map(|generated| {
            let resource = &generated.resource;
            served(
                resource_builder(resource),
                &resource.name,
                &generated.route,
                &generated.binding,
                config,
            )
        });
        let templates = self.resource_templates.iter().map(|generated| {
            let template = &generated.template;
            served(
                template_builder(template),
                &template.name,
                &generated.route,
                &generated.binding,
                config,
            )
        });
        resources.chain(templates).collect()
    }
}

/// A builder of `resource`, ready for its reader.
fn resource_builder(resource: &Resource) -> ResourceBuilder {
    let mut builder = mcp_core::resource::resource(resource.uri.clone(), resource.name.clone());
    if let Some(description) = &resource.description {
        builder = builder.description(description.clone());
    }
    builder = builder
        .meta_object(resource.meta.as_object().clone())
        .icons(resource.icons.clone());
    if let Some(title) = &resource.title {
        builder = builder.title(title.clone());
    }
    if let Some(mime_type) = &resource.mime_type {
        builder = builder.mime_type(mime_type.clone());
    }
    if let Some(size) = resource.size {
        builder = builder.size(size);
    }
    if let Some(annotations) = &resource.annotations {
        builder = builder.annotations(annotations.clone());
    }
    builder
}

/// A builder of `template`, ready for its reader.
fn template_builder(template: &ResourceTemplate) -> ResourceBuilder {
    let mut builder =
        mcp_core::resource::resource_template(template.uri_template.clone(), template.name.clone());
    if let Some(description) = &template.description {
        builder = builder.description(description.clone());
    }
    builder = builder
        .meta_object(template.meta.as_object().clone())
        .icons(template.icons.clone());
    if let Some(title) = &template.title {
        builder = builder.title(title.clone());
    }
    if let Some(mime_type) = &template.mime_type {
        builder = builder.mime_type(mime_type.clone());
    }
    if let Some(annotations) = &template.annotations {
        builder = builder.annotations(annotations.clone());
    }
    builder
}

/// One generated resource or template, read by calling `route`.
fn served<C: Send + Sync + 'static>(
    builder: ResourceBuilder,
    name: &str,
    route: &Arc<HttpRoute>,
    binding: &RequestBinding,
    config: &Arc<ClientConfig>,
) -> Result<ResourceDef<C>, SpecError> {
    let handler = HttpToolHandler::new(route.clone(), binding.clone(), config.clone());
    let reader = HttpReader::new(name, handler).map_err(|error| SpecError::Tool {
        pointer: route.pointer.clone(),
        error,
    })?;
    builder
        .read(move |request: ResourceRequest<C>| reader.read(request.variables()))
        .map_err(|source| SpecError::Resource {
            pointer: route.pointer.clone(),
            error: Box::new(source),
        })
}

/// Reads a generated resource by calling its GET route, the template
/// variables as arguments.
struct HttpReader {
    handler: HttpToolHandler,
    tool: Arc<Tool>,
}

impl HttpReader {
    fn new(name: &str, handler: HttpToolHandler) -> Result<Self, mcp_core::ToolError> {
        // Template variables arrive as strings: the route binding converts them.
        let tool =
            mcp_core::tool(name.replace(|c: char| !c.is_ascii_alphanumeric(), "_")).build()?;
        Ok(Self {
            handler,
            tool: Arc::new(tool),
        })
    }

    fn read(
        &self,
        variables: &BTreeMap<String, String>,
    ) -> impl Future<Output = Result<String, String>> + Send + use<> {
        let arguments: JsonObject = variables
            .iter()
            .map(|(name, value)| (name.clone(), Value::String(value.clone())))
            .collect();
        let call = CallToolRequest::new(self.tool.name.clone(), Some(arguments));
        let result = ToolHandler::<()>::call(
            &self.handler,
            ToolCallContext::new(call, self.tool.clone(), Arc::new(())),
        );
        async move {
            let result = result.await;
            let text = match &result.structured_content {
                Some(value) if result.content.is_empty() => value.to_string(),
                _ => result.text_content(),
            };
            if result.is_error() {
                Err(text)
            } else {
                Ok(text)
            }
        }
    }
}
