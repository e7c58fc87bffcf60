//! The walk over `paths`: every operation of every path item becomes a
//! route, or a warning (in strict mode, the error).

use serde_json::Value;

use crate::document::pointer::child;
use crate::document::version::SpecVersion;
use crate::error::SpecError;
use crate::ir::{HttpMethod, HttpRoute};
use crate::load::route_reader::{PathItem, RouteReader};

/// Method keys of a path item, in the order routes are emitted.
const METHODS: &[(&str, HttpMethod)] = &[
    ("get", HttpMethod::Get),
    ("put", HttpMethod::Put),
    ("post", HttpMethod::Post),
    ("delete", HttpMethod::Delete),
    ("options", HttpMethod::Options),
    ("head", HttpMethod::Head),
    ("patch", HttpMethod::Patch),
    ("trace", HttpMethod::Trace),
    ("query", HttpMethod::Query),
];

impl RouteReader<'_> {
    /// Every route of the document; malformed operations become warnings
    /// (or, in strict mode, the error).
    pub(crate) fn read_routes(&mut self) -> Result<Vec<HttpRoute>, SpecError> {
        let root = self.root.clone();
        let Some(paths) = root.get("paths") else {
            return Ok(Vec::new());
        };
        let Some(paths) = paths.as_object() else {
            return Err(SpecError::invalid("#/paths", "must be an object"));
        };
        let mut routes = Vec::new();
        for path in paths.keys() {
            let pointer = child("#/paths", path);
            let item = match self.converter.docs.deref(0, &root, &pointer[1..]) {
                Ok(node) => PathItem {
                    path,
                    pointer,
                    node,
                },
                Err(error) => {
                    self.skip(&pointer, error)?;
                    continue;
                }
            };
            let item_value = item.node.value();
            if !item_value.is_object() {
                self.skip(
                    &item.pointer,
                    SpecError::invalid(&item.pointer, "a path item must be an object"),
                )?;
                continue;
            }
            for (key, method) in METHODS {
                if item_value.get(*key).is_none() {
                    continue;
                }
                if *method == HttpMethod::Query && self.version < SpecVersion::V3_2 {
                    continue;
                }
                let op_pointer = child(&item.pointer, key);
                let result = if self.version == SpecVersion::Swagger2 {
                    self.swagger2_operation(&item, key, *method, &op_pointer)
                } else {
                    self.openapi3_operation(&item, key, *method, &op_pointer)
                };
                match result {
                    Ok(route) => routes.push(route),
                    Err(error) => self.skip(&op_pointer, error)?,
                }
            }
            if let Some(Value::Object(more)) = item_value.get("additionalOperations") {
                for method in more.keys() {
                    let pointer = child(&child(&item.pointer, "additionalOperations"), method);
                    let error =
                        SpecError::invalid(&pointer, format!("method `{method}` is not supported"));
                    self.skip(&pointer, error)?;
                }
            }
        }
        Ok(routes)
    }
}
