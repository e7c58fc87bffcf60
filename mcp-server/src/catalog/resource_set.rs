//! The resources and resource templates a server hosts.

use std::collections::{BTreeMap, HashMap};

use mcp_core::resource::ResourceDef;

use crate::error::BuildError;

/// Fixed resources by URI and templates in listing order.
pub(crate) struct ResourceSet<C> {
    fixed: Vec<ResourceDef<C>>,
    by_uri: HashMap<String, usize>,
    templates: Vec<ResourceDef<C>>,
}

impl<C> Clone for ResourceSet<C> {
    fn clone(&self) -> Self {
        Self {
            fixed: self.fixed.clone(),
            by_uri: self.by_uri.clone(),
            templates: self.templates.clone(),
        }
    }
}

impl<C: 'static> ResourceSet<C> {
    /// Sorts `defs` into fixed resources and templates; a URI (or URI
    /// template) defined twice is an error.
    pub(crate) fn new(defs: Vec<ResourceDef<C>>) -> Result<Self, BuildError> {
        let mut fixed = Vec::new();
        let mut by_uri = HashMap::new();
        let mut templates: Vec<ResourceDef<C>> = Vec::new();
        for def in defs {
            if def.resource().is_some() {
                if by_uri.insert(def.uri().to_owned(), fixed.len()).is_some() {
                    return Err(BuildError::DuplicateResource {
                        uri: def.uri().to_owned(),
                    });
                }
                fixed.push(def);
            } else {
                if templates.iter().any(|known| known.uri() == def.uri()) {
                    return Err(BuildError::DuplicateResource {
                        uri: def.uri().to_owned(),
                    });
                }
                templates.push(def);
            }
        }
        Ok(Self {
            fixed,
            by_uri,
            templates,
        })
    }

    /// Whether there is anything to list.
    pub(crate) fn is_empty(&self) -> bool {
        self.fixed.is_empty() && self.templates.is_empty()
    }

    /// The fixed resources in listing order.
    pub(crate) fn fixed(&self) -> &[ResourceDef<C>] {
        &self.fixed
    }

    /// The templates in listing order.
    pub(crate) fn templates(&self) -> &[ResourceDef<C>] {
        &self.templates
    }

    /// The definition serving `uri` and the template variables: a fixed
    /// resource first, else the first template that matches.
    pub(crate) fn resolve(&self, uri: &str) -> Option<(&ResourceDef<C>, BTreeMap<String, String>)> {
        if let Some(&index) = self.by_uri.get(uri) {
            return Some((&self.fixed[index], BTreeMap::new()));
        }
        self.templates
            .iter()
            .find_map(|def| def.matches(uri).map(|variables| (def, variables)))
    }
}
