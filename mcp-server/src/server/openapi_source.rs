//! An OpenAPI document as a tool source in one call: load, generate, attach
//! the HTTP client, prefix ([`OpenApiSource`], for
//! [`ServerBuilder::openapi`](crate::ServerBuilder::openapi)).

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

use mcp_openapi::call::{ClientConfigBuilder, SecuritySchemes};
use mcp_openapi::{ClientConfig, LoadOptions, OpenApi, RouteMap};

use crate::catalog::tool_source::ToolSource;
use crate::error::OpenApiError;

/// Changes the HTTP client settings of a document's tools.
type ConfigureClient = Box<dyn FnOnce(ClientConfigBuilder) -> ClientConfigBuilder + Send>;

/// An OpenAPI document to serve as tools (and resources, as its route maps
/// say), for [`ServerBuilder::openapi`](crate::ServerBuilder::openapi): the
/// one-call form of loading it ([`OpenApi::from_path_with`]), generating
/// ([`OpenApi::generator`] with [`RouteMap`]s), making the HTTP client
/// ([`ClientConfig`], with the credentials of the document's security
/// schemes from the environment) and grouping the result in a prefixed
/// [`ToolSource`].
///
/// ```
/// use mcp_openapi::{RouteKind, RouteMap, ir::HttpMethod};
/// use mcp_server::{OpenApiSource, Server};
///
/// let reads = RouteMap::new(RouteKind::Tool).methods([HttpMethod::Get]);
/// let server = Server::builder()
///     .openapi(
///         OpenApiSource::path(testdata::openapi("petstore.yaml"))
///             .base_url("http://127.0.0.1:4010")
///             .route_maps([reads, RouteMap::new(RouteKind::Exclude)])
///             .prefix("pets_"),
///     )
///     .build()?;
/// assert!(server.tool("pets_listPets").is_some());
/// assert!(server.tool("pets_createPets").is_none());
/// # Ok::<(), mcp_server::BuildError>(())
/// ```
///
/// The steps it takes, for when you need one of them on its own (a
/// [`Generator`](mcp_openapi::Generator) setting, the generated values
/// themselves, or one client shared by two documents):
///
/// ```
/// use std::sync::Arc;
///
/// use mcp_openapi::{ClientConfig, OpenApi, RouteKind, RouteMap, call::SecuritySchemes, ir::HttpMethod};
/// use mcp_server::{Server, ToolSource};
///
/// let api = OpenApi::from_path(testdata::openapi("petstore.yaml"))?;
/// let generated = api
///     .generator()
///     .route_maps([RouteMap::new(RouteKind::ResourceTemplate).methods([HttpMethod::Get]).pattern(r"^/pets/\{petId\}$")?])
///     .generate()?;
/// let config = Arc::new(
///     ClientConfig::builder()
///         .security_schemes(SecuritySchemes::from_components(&api.security_schemes())?)
///         .base_url("http://127.0.0.1:4010")
///         .build()?,
/// );
/// let source = ToolSource::new("petstore", generated.tool_defs(&config)?)
///     .resources(generated.resource_defs(&config)?)
///     .prefix("pets_");
/// let server = Server::builder().source(source).build()?;
/// assert_eq!(server.resources().len(), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct OpenApiSource {
    document: Document,
    name: Option<String>,
    load_options: LoadOptions,
    route_maps: Vec<RouteMap>,
    result_fields: bool,
    prefix: Option<String>,
    base_url: Option<String>,
    headers: Vec<(String, String)>,
    configure_client: Option<ConfigureClient>,
}

/// Where the document comes from.
enum Document {
    Path(PathBuf),
    Loaded(Box<OpenApi>),
}

impl OpenApiSource {
    /// The document in the file at `path` (JSON or YAML). The source is
    /// named after the path unless [`name`](Self::name) says otherwise.
    pub fn path(path: impl Into<PathBuf>) -> Self {
        Self::new(Document::Path(path.into()))
    }

    /// A document already loaded (for example with
    /// [`OpenApi::from_slice`]); name it with [`name`](Self::name) (by
    /// default its `info.title`).
    pub fn api(api: OpenApi) -> Self {
        Self::new(Document::Loaded(Box::new(api)))
    }

    fn new(document: Document) -> Self {
        Self {
            document,
            name: None,
            load_options: LoadOptions::default(),
            route_maps: Vec::new(),
            result_fields: false,
            prefix: None,
            base_url: None,
            headers: Vec::new(),
            configure_client: None,
        }
    }

    /// The source's name: in error messages, and for
    /// [`Server::replace_source`](crate::Server::replace_source).
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// How a file is loaded (overlays, strictness, remote references).
    pub fn load_options(mut self, options: LoadOptions) -> Self {
        self.load_options = options;
        self
    }

    /// Which routes become tools, resources, resource templates or nothing
    /// (the first map that matches a route decides; unmatched routes are
    /// tools).
    pub fn route_maps(mut self, maps: impl IntoIterator<Item = RouteMap>) -> Self {
        self.route_maps.extend(maps);
        self
    }

    /// Whether every tool whose result is JSON (an object, or a list of
    /// objects) takes an optional `fields` argument: the top-level names or
    /// dotted paths (`user.login`) of the result to keep, of each item of a
    /// list, for a model that needs a few fields of a large response. The
    /// argument is never sent to the API, and the tool's output schema is
    /// loosened so that what is kept still validates. A tool whose
    /// operation has a `fields` input of its own is left as it is. Off by
    /// default (see [`Generator::result_fields`](mcp_openapi::Generator::result_fields)).
    ///
    /// ```
    /// use mcp_server::{OpenApiSource, Server};
    ///
    /// let server = Server::builder()
    ///     .openapi(
    ///         OpenApiSource::path(testdata::openapi("petstore.yaml"))
    ///             .base_url("http://127.0.0.1:4010")
    ///             .result_fields(true),
    ///     )
    ///     .build()?;
    /// let pets = server.tool("listPets").unwrap();
    /// let fields = &pets.tool().input_schema["properties"]["fields"];
    /// assert_eq!(fields["items"]["type"], "string");
    /// // A call such as {"fields": ["id", "name"]} gets `{"result": [{"id": 1, "name": "Rex"}, ...]}`.
    /// # Ok::<(), mcp_server::BuildError>(())
    /// ```
    pub fn result_fields(mut self, on: bool) -> Self {
        self.result_fields = on;
        self
    }

    /// Prefixes every tool name (not the resources' URIs).
    pub fn prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = Some(prefix.into());
        self
    }

    /// Sends every request to `url` instead of the document's servers.
    pub fn base_url(mut self, url: impl Into<String>) -> Self {
        self.base_url = Some(url.into());
        self
    }

    /// Sends a header with every request.
    pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// Any other client setting (timeout, retries, credentials, ...), on a
    /// [`ClientConfigBuilder`] that already has the document's security
    /// schemes, the [`base_url`](Self::base_url) and the
    /// [`header`](Self::header)s.
    ///
    /// ```
    /// use std::time::Duration;
    ///
    /// use mcp_server::OpenApiSource;
    ///
    /// let source = OpenApiSource::path("petstore.yaml")
    ///     .client(|config| config.timeout(Duration::from_secs(5)));
    /// ```
    pub fn client(
        mut self,
        configure: impl FnOnce(ClientConfigBuilder) -> ClientConfigBuilder + Send + 'static,
    ) -> Self {
        self.configure_client = Some(Box::new(configure));
        self
    }

    /// Loads and generates: the [`ToolSource`] that
    /// [`ServerBuilder::openapi`](crate::ServerBuilder::openapi) adds, for
    /// [`Server::replace_source`](crate::Server::replace_source) when the
    /// document changes. Warnings of generation are logged.
    ///
    /// ```
    /// use mcp_server::OpenApiSource;
    ///
    /// let error = OpenApiSource::path("missing.yaml").into_source::<()>().unwrap_err();
    /// assert!(error.to_string().starts_with("OpenAPI document `missing.yaml`: cannot read"));
    /// ```
    pub fn into_source<C: Send + Sync + 'static>(self) -> Result<ToolSource<C>, OpenApiError> {
        let (api, default_name) = match self.document {
            Document::Path(path) => {
                let name = path.display().to_string();
                let api = OpenApi::from_path_with(&path, &self.load_options).map_err(|error| {
                    OpenApiError::Spec {
                        document: name.clone(),
                        error,
                    }
                })?;
                (api, name)
            }
            Document::Loaded(api) => {
                let name = api.title().unwrap_or("OpenAPI document").to_owned();
                (*api, name)
            }
        };
        let name = self.name.unwrap_or(default_name);
        let spec_error = |error| OpenApiError::Spec {
            document: name.clone(),
            error,
        };
        let generated = api
            .generator()
            .route_maps(self.route_maps)
            .result_fields(self.result_fields)
            .generate()
            .map_err(spec_error)?;
        for warning in &generated.warnings {
            tracing::warn!(document = name, "{warning}");
        }
        let client_error = |error| OpenApiError::Client {
            document: name.clone(),
            error,
        };
        let schemes =
            SecuritySchemes::from_components(&api.security_schemes()).map_err(client_error)?;
        let mut config = ClientConfig::builder().security_schemes(schemes);
        if let Some(url) = self.base_url {
            config = config.base_url(url);
        }
        for (header, value) in self.headers {
            config = config.header(header, value);
        }
        if let Some(configure) = self.configure_client {
            config = configure(config);
        }
        let config = Arc::new(config.build().map_err(client_error)?);
        let tags = api.tags();
        // The document is not needed past this point; the tools move into
        // their definitions.
        drop(api);
        let resources = generated.resource_defs(&config).map_err(spec_error)?;
        let tools = generated.into_tool_defs(&config).map_err(spec_error)?;
        let mut source = ToolSource::new(name, tools)
            .resources(resources)
            .describe_tags(&tags);
        if let Some(prefix) = self.prefix {
            source = source.prefix(prefix);
        }
        Ok(source)
    }
}

impl fmt::Debug for OpenApiSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let document = match &self.document {
            Document::Path(path) => path.display().to_string(),
            Document::Loaded(api) => api.title().unwrap_or("a loaded document").to_owned(),
        };
        f.debug_struct("OpenApiSource")
            .field("document", &document)
            .field("name", &self.name)
            .field("route_maps", &self.route_maps.len())
            .field("result_fields", &self.result_fields)
            .field("prefix", &self.prefix)
            .field("base_url", &self.base_url)
            .finish_non_exhaustive()
    }
}
