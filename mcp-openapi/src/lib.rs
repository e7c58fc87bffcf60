//! OpenAPI documents (Swagger 2.0, OpenAPI 3.0 to 3.2) become MCP tools.
//!
//! Pipeline, one module per stage:
//!
//! - [`document`]: bytes are parsed (JSON or YAML by content) into a JSON
//!   value, leaving out what generation never reads (named examples,
//!   webhooks and, in JSON, the component schemas no `$ref` reaches;
//!   [`document::parse_slice`] gives the whole document), reshaped by the
//!   [`document::Overlay`]s of the [`LoadOptions`] if any; `$ref`s and JSON
//!   pointers are followed here.
//! - [`schema`]: the document's schemas normalized to JSON Schema 2020-12,
//!   every `$ref` turned into `#/$defs/<Name>`.
//! - [`load`]: the document loaded as an [`OpenApi`]: one
//!   [`ir::HttpRoute`] per operation, path-level parameters merged, its
//!   schemas converted.
//! - [`generate`]: a [`Generator`] lowers each route to a [`GeneratedTool`]:
//!   the `mcp_core::Tool`, its `Arc<HttpRoute>` and the
//!   [`ir::RequestBinding`] of its arguments; [`route_map`]s
//!   make some routes resources, resource templates or nothing.
//! - [`call`]: [`Generated::tool_defs`] attaches the
//!   [`call::HttpToolHandler`], which performs the HTTP
//!   call; the only module that does I/O.
//!
//! [`ir`] holds the route types every stage shares.
//!
//! ```
//! use mcp_openapi::OpenApi;
//!
//! let api: OpenApi = r#"{"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
//!   "paths": {"/pets/{id}": {"delete": {"operationId": "deletePet",
//!     "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}}],
//!     "responses": {"204": {"description": "gone"}}}}}}"#.parse().unwrap();
//! let generated = api.generator().generate().unwrap();
//! let tool = &generated.tools[0].tool;
//! assert_eq!(tool.name, "deletePet");
//! assert_eq!(tool.annotations.as_ref().unwrap().destructive_hint, Some(true));
//! ```
//!
//! # Serving a document
//!
//! Step by step: load, generate (with [`RouteMap`]s choosing tools,
//! resources, resource templates or nothing), then attach one shared
//! [`ClientConfig`] to the tools and resources:
//!
//! ```
//! use std::sync::Arc;
//!
//! use mcp_openapi::{ClientConfig, OpenApi, RouteKind, RouteMap, ir::HttpMethod};
//!
//! let api = OpenApi::from_path(testdata::openapi("petstore.yaml"))?;
//! let pet = RouteMap::new(RouteKind::ResourceTemplate)
//!     .methods([HttpMethod::Get])
//!     .pattern(r"^/pets/\{petId\}$")?;
//! let generated = api.generator().route_maps([pet]).generate()?;
//! let config = Arc::new(ClientConfig::builder().base_url("http://127.0.0.1:4010").build()?);
//! let tools: Vec<mcp_core::ToolDef> = generated.tool_defs(&config)?;
//! let resources: Vec<mcp_core::resource::ResourceDef> = generated.resource_defs(&config)?;
//! assert_eq!((tools.len(), resources.len()), (2, 1));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! With `mcp-server` (feature `openapi`) the same is one builder call,
//! which also takes the credentials of the document's security schemes from
//! the environment and names the file when loading fails:
//!
//! ```text
//! Server::builder()
//!     .openapi(OpenApiSource::path("petstore.yaml").base_url(url).route_maps([pet]).prefix("pets_"))
//!     .build()?
//! ```
//!
//! # Features
//!
//! - `call` (default): the HTTP call behind each generated tool
//!   ([`call`], [`Generated::tool_defs`], [`ClientConfig`]), on reqwest with
//!   rustls (ring's crypto unless the program installs another provider).
//!   Without it the crate loads documents and generates tool values only,
//!   and compiles no HTTP stack.
//! - `otel`: each upstream exchange's trace context goes upstream as
//!   `traceparent`, and its duration is recorded as
//!   `http.client.request.duration`, through the process's OpenTelemetry
//!   propagator and meter provider (the OpenTelemetry API only; `mcp-server`
//!   installs the SDK). The exchange's `tracing` span is there either way.
//!
//! # Generated tools
//!
//! - **Name**: `operationId`, else `{method}_{path}`, sanitized to
//!   `A-Z a-z 0-9 _ - .`, cut to 64 characters (configurable) with a stable
//!   `_xxxxxxxx` hash suffix, made unique with `_2`, `_3`; `mcp_names`
//!   overrides by `operationId`.
//! - **Input schema**: parameters, then the properties of an object request
//!   body (a non-object body goes under `body`); a parameter whose name
//!   collides with a body property or another parameter becomes
//!   `{name}__{location}` (`id__path`). `readOnly` properties are left out.
//! - **Output schema**: the first 2xx JSON response; a non-object one is
//!   wrapped as `{"result": ...}` and `_meta["rs.mcp-toolkit/output-wrapped"]`
//!   is `true`. `writeOnly` properties are left out. **On a budget**: an
//!   output schema larger than 4 KiB of compact JSON
//!   ([`generate::DEFAULT_OUTPUT_BUDGET`]; [`Generator::output_budget`]
//!   changes it, `None` keeps full schemas) is loosened until it fits, never
//!   made wrong: `oneOf` becomes `anyOf`, expandable unions (an ID string or
//!   a `$ref`, as Stripe's `x-expansionResources` fields) become
//!   `{"anyOf": [{"type": "string"}, {"type": "object"}]}` naming what they
//!   expand to, definitions beyond what fits (breadth first from the root)
//!   become their `type` with their name in the description, and last the
//!   root's deep subschemas become their `type`. The root's properties,
//!   `required` and every remaining `type` stay
//!   ([`generate::trimmed_output_schema`]). Input schemas are never trimmed.
//! - **`_meta`**: `rs.mcp-toolkit/openapi` = `{"method", "path", "operationId"}`,
//!   and `rs.mcp-toolkit/tags` with the route map's `mcp_tags`.
//! - **Schemas** are JSON Schema 2020-12: 3.0 `nullable`, boolean
//!   `exclusiveMinimum`/`exclusiveMaximum` and `example` are rewritten; `xml`,
//!   `externalDocs` and `x-*` extension keywords are left out of schemas
//!   (operation extensions stay on [`ir::HttpRoute::extensions`]). They are
//!   spelled the portable way `#[tool]` and builder tools are (see
//!   `mcp_core::schema`): no `$schema` (2020-12 is the MCP default dialect),
//!   and a nullable value is `"anyOf": [{..}, {"type": "null"}]`, never a
//!   `"type": [.., "null"]` array.
//! - **Schema profiles** ([`schema::SchemaProfile`]): `standard` (only the
//!   `$defs` the tool reaches) or `inline` (no `$defs`).
//! - **Arguments** are checked like every other tool's (see
//!   `mcp_core::arguments`): every violation by JSON pointer, arguments the
//!   input schema does not name refused with the closest known name
//!   ([`call::HttpToolHandler::allow_unknown_arguments`] opts a tool out),
//!   before any request is made.
//!
//! # Annotations and `x-mcp-annotations`
//!
//! Every tool gets all four hints from its method: GET/HEAD/OPTIONS read-only,
//! not destructive, idempotent; POST not read-only, not destructive, not
//! idempotent; PUT and DELETE destructive and idempotent; PATCH destructive,
//! not idempotent; all open-world; `title` from the summary. An operation may
//! override any of them with the extension `x-mcp-annotations`, an object in
//! MCP's `ToolAnnotations` spelling:
//!
//! ```yaml
//! delete:
//!   operationId: archiveThing
//!   x-mcp-annotations: {destructiveHint: false, openWorldHint: false, title: Archive}
//! ```
//!
//! Precedence: the [`Generator::customize`] hook, then `x-mcp-annotations`,
//! then the method default.
//!
//! # Overlays
//!
//! An [OpenAPI Overlay](https://spec.openapis.org/overlay/v1.1.0.html)
//! (1.0 or 1.1) reshapes a vendor's document without forking it: its
//! actions select nodes with RFC 9535 JSONPath and update, copy or remove
//! them, so that operations get other names, descriptions or
//! `x-mcp-annotations`, or disappear. [`LoadOptions::overlay`] takes overlay
//! files (read at load time) or parsed [`document::Overlay`]s, applied in order
//! to the whole document; the [`document::overlay`] module states the rules.
//!
//! ```
//! use mcp_openapi::{LoadOptions, OpenApi, document::Overlay};
//!
//! let rename: Overlay = r#"
//! overlay: 1.0.0
//! info: {title: Names, version: "1"}
//! actions:
//!   - target: $.paths['/pets'].get
//!     update: {operationId: list_pets, x-mcp-annotations: {title: Pets}}
//!   - target: $.paths['/admin']
//!     description: Not for agents
//!     remove: true
//! "#.parse().unwrap();
//! let document = r#"
//! openapi: 3.1.0
//! info: {title: Pets, version: "1"}
//! paths:
//!   /pets: {get: {operationId: listPets, responses: {"200": {description: ok}}}}
//!   /admin: {post: {operationId: resetAll, responses: {"204": {description: done}}}}
//! "#;
//! let options = LoadOptions::new().overlay(rename);
//! let api = OpenApi::from_slice_with(document.as_bytes(), &options).unwrap();
//! let tools = api.generator().generate().unwrap().tools;
//! assert_eq!(tools.len(), 1);
//! assert_eq!(tools[0].tool.name, "list_pets");
//! assert_eq!(tools[0].tool.annotations.as_ref().unwrap().title.as_deref(), Some("Pets"));
//! ```

#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(feature = "call")]
#[cfg_attr(docsrs, doc(cfg(feature = "call")))]
pub mod call;
pub mod document;
mod error;
pub mod generate;
pub mod ir;
pub mod load;
mod media_type;
pub mod schema;

#[cfg(feature = "call")]
#[cfg_attr(docsrs, doc(cfg(feature = "call")))]
pub use call::ClientConfig;
pub use document::ReferenceMetadata;
pub use error::{SpecError, Warning};
pub use generate::route_map::{self, RouteKind, RouteMap};
pub use generate::{Generated, GeneratedTool, Generator};
pub use load::{LoadOptions, OpenApi, Tag};

/// The README's examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
mod readme {}
