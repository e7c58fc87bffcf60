//! The fluent builders of resources and resource templates.

use std::collections::BTreeMap;
use std::marker::PhantomData;
use std::sync::Arc;

use serde_json::Value;

use crate::annotations::Annotations;
use crate::completion::Completer;
use crate::icon::Icon;
use crate::json::JsonObject;
use crate::meta::Meta;
use crate::meta::Metadata;
use crate::resource::def::{ResourceDef, ResourceKind};
use crate::resource::error::ResourceError;
use crate::resource::handler::{ResourceFn, ResourceFnHandler};
use crate::resource::uri_template::{UriTemplate, UriTemplateError};
use crate::resource::value::{Resource, ResourceTemplate};

/// Starts building the resource at `uri` called `name`; the same metadata
/// family as [`tool`](fn@crate::tool) (title, description, icons, `_meta`,
/// [`Metadata`] bundles) plus MIME type, size and annotations.
/// [`read`](ResourceBuilder::read) gives the handler and ends the chain.
///
/// ```
/// use mcp_core::resource::{ResourceDef, resource};
///
/// let readme: ResourceDef = resource("file:///README.md", "readme")
///     .title("Read me")
///     .mime_type("text/markdown")
///     .size(5)
///     .read(|| async { "# Hi" })?;
/// let result = futures_executor::block_on(readme.read_detached("file:///README.md"))?;
/// assert_eq!(
///     serde_json::to_value(&result)?,
///     serde_json::json!({"contents": [{"uri": "file:///README.md", "mimeType": "text/markdown", "text": "# Hi"}]})
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn resource(uri: impl Into<String>, name: impl Into<String>) -> ResourceBuilder {
    ResourceBuilder::new(Target::Static(uri.into()), name.into())
}

/// Starts building a resource template: every URI matching the RFC 6570
/// `uri_template` is read by one handler, which gets the variables through
/// [`ResourceRequest::variable`](crate::resource::ResourceRequest::variable).
///
/// ```
/// use mcp_core::{resource::{resource_template, ResourceDef, ResourceRequest}, completion::Completer};
///
/// let data: ResourceDef = resource_template("test://template/{id}/data", "data")
///     .mime_type("application/json")
///     .complete("id", Completer::values(["123", "124"]))
///     .read(|req: ResourceRequest| async move {
///         format!(r#"{{"id":"{}"}}"#, req.variable("id").unwrap_or_default())
///     })?;
/// let result = futures_executor::block_on(data.read_detached("test://template/123/data"))?;
/// assert_eq!(serde_json::to_value(&result)?["contents"][0]["text"], r#"{"id":"123"}"#);
/// assert!(futures_executor::block_on(data.read_detached("test://other")).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn resource_template(
    uri_template: impl Into<String>,
    name: impl Into<String>,
) -> ResourceBuilder {
    ResourceBuilder::new(Target::Template(uri_template.into()), name.into())
}

#[derive(Debug)]
enum Target {
    Static(String),
    Template(String),
}

/// A resource or resource template under construction; see [`resource`]
/// and [`resource_template`].
#[derive(Debug)]
#[must_use = "a resource builder does nothing until `.read(handler)`"]
pub struct ResourceBuilder {
    target: Target,
    name: String,
    title: Option<String>,
    description: Option<String>,
    mime_type: Option<String>,
    size: Option<u64>,
    icons: Vec<Icon>,
    annotations: Option<Annotations>,
    meta: Meta,
    completers: BTreeMap<String, Completer>,
    error: Option<ResourceError>,
}

impl ResourceBuilder {
    fn new(target: Target, name: String) -> Self {
        Self {
            target,
            name,
            title: None,
            description: None,
            mime_type: None,
            size: None,
            icons: Vec::new(),
            annotations: None,
            meta: Meta::new(),
            completers: BTreeMap::new(),
            error: None,
        }
    }

    /// Sets the display title.
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// Sets the description.
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// Sets the MIME type of the contents; text and bytes returned by the
    /// handler carry it.
    pub fn mime_type(mut self, mime_type: impl Into<String>) -> Self {
        self.mime_type = Some(mime_type.into());
        self
    }

    /// Sets the size in bytes (fixed resources only: the specification's
    /// templates have no size, so a template ignores it).
    pub fn size(mut self, bytes: u64) -> Self {
        self.size = Some(bytes);
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

    /// Sets the audience, priority and last-modified hints.
    pub fn annotations(mut self, annotations: Annotations) -> Self {
        self.annotations = Some(annotations);
        self
    }

    /// Adds an `_meta` entry; the key is checked like a tool's.
    pub fn meta(mut self, key: impl Into<String>, value: Value) -> Self {
        if let Err(error) = self.meta.insert(key, value) {
            self.error.get_or_insert(error.into());
        }
        self
    }

    /// Replaces the whole `_meta`, checking every key.
    pub fn meta_object(mut self, object: JsonObject) -> Self {
        match Meta::from_object(object) {
            Ok(meta) => self.meta = meta,
            Err(error) => {
                self.error.get_or_insert(error.into());
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
            self.error.get_or_insert_with(|| error.clone().into());
        }
        self
    }

    /// Completes the template variable `name` for `completion/complete`.
    pub fn complete(mut self, name: impl Into<String>, completer: Completer) -> Self {
        self.completers.insert(name.into(), completer);
        self
    }

    /// Ends the chain with the code that reads the resource:
    /// `async fn()` or `async fn(ResourceRequest<C>)`, returning anything
    /// [`IntoReadResourceResult`](crate::resource::IntoReadResourceResult).
    ///
    /// Fails on a malformed URI template, a completer for a variable the
    /// template does not have, or a bad `_meta` key.
    pub fn read<C: 'static, M: 'static, H: ResourceFn<M, C>>(
        self,
        handler: H,
    ) -> Result<ResourceDef<C>, ResourceError> {
        if let Some(error) = self.error {
            return Err(error);
        }
        let kind = match self.target {
            Target::Static(uri) => {
                if let Some(name) = self.completers.keys().next() {
                    return Err(unknown_variable(&uri, name));
                }
                ResourceKind::Static(Arc::new(Resource {
                    uri,
                    name: self.name,
                    title: self.title,
                    description: self.description,
                    mime_type: self.mime_type.clone(),
                    size: self.size,
                    icons: self.icons,
                    annotations: self.annotations,
                    meta: self.meta,
                }))
            }
            Target::Template(uri_template) => {
                let parsed = UriTemplate::parse(&uri_template)?;
                if let Some(name) = self
                    .completers
                    .keys()
                    .find(|name| !parsed.variables().any(|v| v == *name))
                {
                    return Err(unknown_variable(&uri_template, name));
                }
                ResourceKind::Template {
                    template: Arc::new(ResourceTemplate {
                        uri_template,
                        name: self.name,
                        title: self.title,
                        description: self.description,
                        mime_type: self.mime_type.clone(),
                        icons: self.icons,
                        annotations: self.annotations,
                        meta: self.meta,
                    }),
                    parsed: Arc::new(parsed),
                }
            }
        };
        let handler = ResourceFnHandler {
            handler,
            mime_type: self.mime_type.map(Arc::from),
            marker: PhantomData,
        };
        Ok(ResourceDef::from_parts(
            kind,
            Arc::new(handler),
            self.completers,
        ))
    }
}

fn unknown_variable(template: &str, name: &str) -> ResourceError {
    ResourceError::InvalidTemplate(UriTemplateError {
        template: template.to_owned(),
        reason: format!(
            "a completer is given for `{name}`, which is not a variable of the template"
        ),
    })
}
