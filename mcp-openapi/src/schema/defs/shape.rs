//! The shape of a root schema: the properties an object schema can be
//! flattened into (tool inputs), and whether a root denotes objects only
//! (tool outputs).

use mcp_core::schema::walk::Walk;
use serde_json::{Map, Value};

use crate::schema::defs::{DEFS_PREFIX, DefCopier, Mode};

/// How deep `allOf` chains are followed when flattening or typing a root.
const MAX_ALL_OF_DEPTH: usize = 16;

/// One level down `walk` into `schema`: into its `$ref`, if it has one
/// (refused when the walk is inside it already), else a plain step.
fn descend<'w, 's>(
    walk: &'w mut Walk<'s>,
    schema: &'s Value,
) -> Option<mcp_core::schema::walk::Step<'w, 's>> {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(reference) => walk.follow(reference),
        None => walk.step(),
    }
}

/// Flattenable properties (name, schema) and the required names among them.
pub(crate) type Flattened = (Vec<(String, Value)>, Vec<String>);

impl DefCopier<'_> {
    /// The properties (and required names) of an object schema that can be
    /// flattened exactly: plain `properties`, possibly merged over `allOf`.
    pub(crate) fn object_properties(&self, schema: &Value, mode: Mode) -> Option<Flattened> {
        let mut walk = Walk::new().max_depth(MAX_ALL_OF_DEPTH);
        self.object_properties_at(schema, mode, &mut walk)
    }

    fn object_properties_at<'s>(
        &'s self,
        schema: &'s Value,
        mode: Mode,
        walk: &mut Walk<'s>,
    ) -> Option<Flattened> {
        // `A: {allOf: [{$ref: A}]}` must not recurse forever.
        let mut walk = descend(walk, schema)?;
        let object = self.resolve(schema)?;
        if ["oneOf", "anyOf", "not", "if"]
            .iter()
            .any(|k| object.contains_key(*k))
        {
            return None;
        }
        match object.get("type") {
            None => {}
            Some(Value::String(kind)) if kind == "object" => {}
            Some(_) => return None,
        }
        let mut props: Vec<(String, Value)> = Vec::new();
        let mut required = Vec::new();
        let mut structured = false;
        if let Some(Value::Array(members)) = object.get("allOf") {
            structured = true;
            for member in members {
                let (more, req) = self.object_properties_at(member, mode, &mut walk)?;
                for (name, prop) in more {
                    if props.iter().any(|(n, _)| *n == name) {
                        return None;
                    }
                    props.push((name, prop));
                }
                required.extend(req);
            }
        }
        if let Some(Value::Object(own)) = object.get("properties") {
            structured = true;
            for (name, prop) in own {
                if self.is_hidden(prop, mode) {
                    continue;
                }
                if props.iter().any(|(n, _)| n == name) {
                    return None;
                }
                props.push((name.clone(), self.strip(prop, mode)));
            }
        }
        if !structured {
            return None;
        }
        if let Some(Value::Array(names)) = object.get("required") {
            required.extend(names.iter().filter_map(Value::as_str).map(str::to_owned));
        }
        required.retain(|r| props.iter().any(|(n, _)| n == r));
        required.dedup();
        Some((props, required))
    }

    /// A root schema: a top-level reference is replaced by its content
    /// (its description sibling kept), so the root can carry `"type": "object"`.
    pub(crate) fn root_copy(&mut self, schema: &Value, mode: Mode) -> Value {
        let name = schema
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| r.strip_prefix(DEFS_PREFIX));
        if let Some(name) = name
            && let Ok(Value::Object(content)) = self.prepared(name, mode).value.as_deref()
        {
            let mut content = content.clone();
            if let Some(description) = schema.get("description") {
                content.insert("description".to_owned(), description.clone());
            }
            return Value::Object(content);
        }
        self.strip(schema, mode)
    }

    /// Whether a root schema denotes objects only.
    pub(crate) fn is_object_schema(&self, object: &Map<String, Value>) -> bool {
        let mut walk = Walk::new().max_depth(MAX_ALL_OF_DEPTH);
        self.is_object_schema_at(object, &mut walk)
    }

    fn is_object_schema_at<'s>(
        &'s self,
        object: &'s Map<String, Value>,
        walk: &mut Walk<'s>,
    ) -> bool {
        match object.get("type") {
            Some(Value::String(kind)) => kind == "object",
            Some(_) => false,
            None => {
                if object.contains_key("properties") {
                    return true;
                }
                match object.get("allOf") {
                    Some(Value::Array(members)) if !members.is_empty() => members.iter().all(|m| {
                        let Some(mut walk) = descend(walk, m) else {
                            return false;
                        };
                        self.resolve(m)
                            .is_some_and(|m| self.is_object_schema_at(m, &mut walk))
                    }),
                    _ => false,
                }
            }
        }
    }
}
