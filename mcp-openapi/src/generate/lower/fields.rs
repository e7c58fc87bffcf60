//! The optional `fields` argument of generated tools
//! ([`Generator::result_fields`](crate::Generator::result_fields)): the
//! input property, and the output schema loosened so that it accepts what
//! the handler keeps of a result.
//!
//! A tool offers `fields` when its output is JSON objects (an object, or
//! an array of objects) and its input has no property of that name already
//! (an API with its own `fields` parameter or body property, such as
//! Jira's, selects fields itself: the tool is left as it is).
//!
//! The handler keeps the named fields of each object of the result, at any
//! depth, so every object schema under the payload may see some of its
//! properties left out. The loosened schema accepts every such projection
//! of every value the original accepts: below the payload it has no
//! `required`, `minProperties`, `dependentRequired`, `dependentSchemas` or
//! `dependencies` (fewer properties), no `not`, `if`/`then`/`else`, `uniqueItems`,
//! `maxContains`, `unevaluatedProperties` or `unevaluatedItems` (a
//! projected value could match what it did not, or two items become
//! equal), no `const` or `enum` with objects in them, and its `oneOf`s are
//! `anyOf`s (projected branches may overlap). Everything else stays:
//! projection never changes a value's type nor an array's length. The
//! definitions are loosened copies (an input schema may share the
//! originals), made once per run and shared by the tools that reach them.

use std::collections::HashMap;
use std::sync::Arc;

use mcp_core::ToolSchema;
use mcp_core::schema::walk::Walk;
use serde_json::{Map, Value, json};

use crate::ir::{ArgumentBinding, RequestPart};

/// The name of the input property.
pub(crate) const PROPERTY: &str = "fields";

/// How many `$ref` hops are followed to learn what a schema denotes.
const MAX_REF_HOPS: usize = 16;

/// Keywords that loosening removes from every subschema of the payload.
const DROPPED: [&str; 13] = [
    "required",
    "minProperties",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "not",
    "if",
    "then",
    "else",
    "uniqueItems",
    "maxContains",
    "unevaluatedProperties",
    "unevaluatedItems",
];

/// Keywords whose value maps names to subschemas.
const NAME_MAPS: [&str; 4] = ["properties", "patternProperties", "$defs", "definitions"];

/// Keywords whose value is one subschema.
const SUBSCHEMAS: [&str; 3] = ["additionalProperties", "items", "contains"];

/// Keywords whose value is a list of subschemas.
const SUBSCHEMA_LISTS: [&str; 3] = ["anyOf", "allOf", "prefixItems"];

/// The input property's schema.
fn property_schema() -> Value {
    json!({
        "type": "array",
        "items": {"type": "string"},
        "description": "Only these fields of the result (of each item of a list): top-level names or dotted paths such as user.login"
    })
}

/// Loosened output schemas and definitions of one generation run, by the
/// address of the original (held, so the address is not reused while the
/// run lasts).
#[derive(Debug, Default)]
pub(crate) struct Projections {
    schemas: HashMap<usize, (ToolSchema, Option<ToolSchema>)>,
    defs: HashMap<usize, (Arc<Value>, Arc<Value>)>,
}

impl Projections {
    /// Offers `fields` on a lowered tool when its output is JSON objects
    /// and its input has no property of that name: the property is added
    /// to the input root `input` (with its binding in `arguments`) and
    /// `output` becomes the loosened schema. Otherwise nothing changes.
    pub(crate) fn offer(
        &mut self,
        input: &mut Map<String, Value>,
        arguments: &mut Vec<ArgumentBinding>,
        output: &mut Option<ToolSchema>,
        wrapped: bool,
    ) {
        let Some(Value::Object(properties)) = input.get_mut("properties") else {
            return;
        };
        if properties.contains_key(PROPERTY) {
            return;
        }
        let Some(loosened) = output
            .as_ref()
            .and_then(|schema| self.output(schema, wrapped))
        else {
            return;
        };
        properties.insert(PROPERTY.to_owned(), property_schema());
        arguments.push(ArgumentBinding {
            property: PROPERTY.to_owned(),
            target: RequestPart::ResultFields,
        });
        *output = Some(loosened);
    }

    /// `schema` loosened to accept every projection of its payload (under
    /// `result` when `wrapped`), or `None` when the payload is not JSON
    /// objects.
    fn output(&mut self, schema: &ToolSchema, wrapped: bool) -> Option<ToolSchema> {
        let address = schema.as_ptr() as usize;
        if let Some((_, loosened)) = self.schemas.get(&address) {
            return loosened.clone();
        }
        let loosened = projectable(schema, wrapped).then(|| self.loosened(schema, wrapped));
        self.schemas
            .insert(address, (schema.clone(), loosened.clone()));
        loosened
    }

    fn loosened(&mut self, schema: &ToolSchema, wrapped: bool) -> ToolSchema {
        let mut root = schema.root().clone();
        if wrapped {
            if let Some(Value::Object(properties)) = root.get_mut("properties")
                && let Some(payload) = properties.get_mut("result")
            {
                loosen(payload);
            }
            for section in ["$defs", "definitions"] {
                if let Some(Value::Object(defs)) = root.get_mut(section) {
                    defs.values_mut().for_each(loosen);
                }
            }
        } else {
            loosen_object(&mut root);
        }
        let shared = schema.shared_defs();
        if shared.is_empty() {
            return ToolSchema::new(root);
        }
        let defs: Vec<_> = shared
            .iter()
            .map(|(name, def)| (name.clone(), self.def(def)))
            .collect();
        ToolSchema::with_shared_defs(root, defs)
    }

    /// The loosened copy of a shared definition, made once.
    fn def(&mut self, def: &Arc<Value>) -> Arc<Value> {
        let address = Arc::as_ptr(def) as usize;
        self.defs
            .entry(address)
            .or_insert_with(|| {
                let mut copy = Value::clone(def);
                loosen(&mut copy);
                (def.clone(), Arc::new(copy))
            })
            .1
            .clone()
    }
}

/// Loosens a subschema and everything below it (see the module docs).
fn loosen(schema: &mut Value) {
    if let Value::Object(object) = schema {
        loosen_object(object);
    }
}

fn loosen_object(object: &mut Map<String, Value>) {
    for keyword in DROPPED {
        object.shift_remove(keyword);
    }
    for keyword in ["const", "enum"] {
        if object.get(keyword).is_some_and(holds_object) {
            object.shift_remove(keyword);
        }
    }
    if let Some(branches) = object.shift_remove("oneOf") {
        match object.get_mut("anyOf") {
            None => {
                object.insert("anyOf".to_owned(), branches);
            }
            Some(_) => {
                let all_of = object
                    .entry("allOf")
                    .or_insert_with(|| Value::Array(Vec::new()));
                if let Value::Array(members) = all_of {
                    members.push(json!({ "anyOf": branches }));
                }
            }
        }
    }
    for keyword in NAME_MAPS {
        if let Some(Value::Object(schemas)) = object.get_mut(keyword) {
            schemas.values_mut().for_each(loosen);
        }
    }
    for keyword in SUBSCHEMAS {
        if let Some(subschema) = object.get_mut(keyword) {
            loosen(subschema);
        }
    }
    for keyword in SUBSCHEMA_LISTS {
        if let Some(Value::Array(subschemas)) = object.get_mut(keyword) {
            subschemas.iter_mut().for_each(loosen);
        }
    }
}

/// Whether a value is or holds an object (a projection could change it).
fn holds_object(value: &Value) -> bool {
    match value {
        Value::Object(_) => true,
        Value::Array(items) => items.iter().any(holds_object),
        _ => false,
    }
}

/// Whether the payload of an output schema is JSON objects: the root of an
/// unwrapped one is an object schema by construction; a wrapped `result`
/// has to denote objects or arrays of objects.
fn projectable(schema: &ToolSchema, wrapped: bool) -> bool {
    if !wrapped {
        return true;
    }
    let defs = Defs(schema);
    let Some(payload) = schema
        .root()
        .get("properties")
        .and_then(|p| p.get("result"))
    else {
        return false;
    };
    match defs.resolve(payload) {
        Some(object) if object.get("type").and_then(Value::as_str) == Some("array") => object
            .get("items")
            .is_some_and(|items| defs.denotes_objects(items, &mut Walk::new())),
        Some(_) => defs.denotes_objects(payload, &mut Walk::new()),
        None => false,
    }
}

/// The definitions of an output schema, shared or in its root.
struct Defs<'a>(&'a ToolSchema);

impl<'a> Defs<'a> {
    /// The object a schema denotes, following `#/$defs/` references.
    fn resolve(&self, schema: &'a Value) -> Option<&'a Map<String, Value>> {
        let mut current = schema;
        for _ in 0..MAX_REF_HOPS {
            let object = current.as_object()?;
            let Some(reference) = object.get("$ref").and_then(Value::as_str) else {
                return Some(object);
            };
            let name = reference.strip_prefix("#/$defs/")?;
            let name = name.replace("~1", "/").replace("~0", "~");
            current = match self.0.shared_defs().iter().find(|(n, _)| **n == *name) {
                Some((_, def)) => def,
                None => self.0.root().get("$defs")?.get(&name)?,
            };
        }
        None
    }

    /// Whether every value `schema` accepts is an object (or `null`, which
    /// projection leaves as it is), with at least one object.
    fn denotes_objects(&self, schema: &'a Value, walk: &mut Walk<'a>) -> bool {
        let step = match schema.get("$ref").and_then(Value::as_str) {
            Some(reference) => walk.follow(reference),
            None => walk.step(),
        };
        let Some(mut walk) = step else {
            return false;
        };
        let Some(object) = self.resolve(schema) else {
            return false;
        };
        match object.get("type") {
            Some(Value::String(kind)) => return kind == "object",
            Some(_) => return false,
            None => {}
        }
        if object.contains_key("properties") {
            return true;
        }
        if let Some(Value::Array(members)) = object.get("allOf")
            && members.iter().any(|m| self.denotes_objects(m, &mut walk))
        {
            return true;
        }
        ["anyOf", "oneOf"].iter().any(|keyword| {
            let Some(Value::Array(branches)) = object.get(*keyword) else {
                return false;
            };
            let is_null = |branch: &'a Value| {
                self.resolve(branch)
                    .and_then(|b| b.get("type"))
                    .and_then(Value::as_str)
                    == Some("null")
            };
            branches.iter().any(|b| !is_null(b))
                && branches
                    .iter()
                    .all(|b| is_null(b) || self.denotes_objects(b, &mut walk))
        })
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::{Generated, OpenApi};

    /// Operations answering with each kind of output, and two that have a
    /// `fields` input of their own.
    fn api() -> OpenApi {
        let issue = json!({"$ref": "#/components/schemas/Issue"});
        let ok = |schema: Value| json!({"200": {"description": "ok", "content": {"application/json": {"schema": schema}}}});
        json!({
            "openapi": "3.1.0",
            "info": {"title": "t", "version": "1"},
            "paths": {
                "/issues": {
                    "get": {"operationId": "list", "responses": ok(json!({"type": "array", "items": issue}))},
                    "post": {
                        "operationId": "create",
                        "requestBody": {"content": {"application/json": {"schema": issue}}},
                        "responses": ok(issue.clone())
                    }
                },
                "/issue": {"get": {"operationId": "one", "responses": ok(issue.clone())}},
                "/either": {"get": {"operationId": "either", "responses": ok(json!({"oneOf": [issue, {"type": "null"}]}))}},
                "/names": {"get": {"operationId": "names", "responses": ok(json!({"type": "array", "items": {"type": "string"}}))}},
                "/count": {"get": {"operationId": "count", "responses": ok(json!({"type": "integer"}))}},
                "/empty": {"delete": {"operationId": "empty", "responses": {"204": {"description": "gone"}}}},
                "/search": {"get": {
                    "operationId": "search",
                    "parameters": [{"name": "fields", "in": "query", "schema": {"type": "string"}}],
                    "responses": ok(issue.clone())
                }},
                "/edit": {"put": {
                    "operationId": "edit",
                    "requestBody": {"content": {"application/json": {"schema": {
                        "type": "object", "properties": {"fields": {"type": "object"}}
                    }}}},
                    "responses": ok(issue.clone())
                }}
            },
            "components": {"schemas": {
                "Issue": {
                    "type": "object",
                    "properties": {
                        "number": {"type": "integer"},
                        "title": {"type": "string"},
                        "user": {"$ref": "#/components/schemas/User"},
                        "state": {"oneOf": [{"const": "open"}, {"const": "closed"}]}
                    },
                    "required": ["number", "title", "user"]
                },
                "User": {
                    "type": "object",
                    "properties": {"login": {"type": "string"}, "id": {"type": "integer"}},
                    "required": ["login", "id"],
                    "not": {"required": ["password"]}
                }
            }}
        })
        .to_string()
        .parse()
        .unwrap()
    }

    fn generated(on: bool) -> Generated {
        api()
            .generator()
            .output_budget(None)
            .result_fields(on)
            .generate()
            .unwrap()
    }

    fn offers(generated: &Generated, name: &str) -> bool {
        let tool = generated
            .tools
            .iter()
            .find(|t| t.tool.name == name)
            .unwrap();
        let in_schema =
            tool.tool.input_schema["properties"].get(PROPERTY) == Some(&property_schema());
        let bound = tool
            .binding
            .arguments
            .iter()
            .any(|a| a.target == RequestPart::ResultFields);
        assert_eq!(
            in_schema, bound,
            "{name}: the property and its binding go together"
        );
        in_schema
    }

    #[test]
    fn the_argument_is_offered_only_when_enabled_and_for_json_objects() {
        let off = generated(false);
        for tool in &off.tools {
            assert!(!offers(&off, &tool.tool.name), "{}", tool.tool.name);
        }
        let on = generated(true);
        for name in ["list", "create", "one", "either"] {
            assert!(offers(&on, name), "{name}");
        }
        for name in ["names", "count", "empty"] {
            assert!(!offers(&on, name), "{name}: not JSON objects");
        }
    }

    #[test]
    fn an_operation_with_its_own_fields_input_is_left_as_it_is() {
        let (off, on) = (generated(false), generated(true));
        for name in ["search", "edit"] {
            let tool = |g: &Generated| {
                let t = g.tools.iter().find(|t| t.tool.name == name).unwrap();
                (serde_json::to_value(&t.tool).unwrap(), t.binding.clone())
            };
            assert_eq!(tool(&on), tool(&off), "{name}");
        }
    }

    #[test]
    fn output_schemas_are_loosened_below_the_payload_only() {
        let on = generated(true);
        let tool = |name: &str| &on.tools.iter().find(|t| t.tool.name == name).unwrap().tool;
        let list = tool("list").output_schema.clone().unwrap();
        assert_eq!(
            list["required"],
            json!(["result"]),
            "the wrapper keeps its member"
        );
        let defs = &list["$defs"];
        assert!(defs["Issue"].get("required").is_none());
        assert!(defs["User"].get("required").is_none());
        assert!(defs["User"].get("not").is_none());
        assert_eq!(
            defs["Issue"]["properties"]["state"],
            json!({"anyOf": [{"const": "open"}, {"const": "closed"}]})
        );
        let one = tool("one").output_schema.clone().unwrap();
        assert!(one.get("required").is_none());
        let user = |schema: &ToolSchema| {
            let (_, def) = schema
                .shared_defs()
                .iter()
                .find(|(n, _)| &**n == "User")
                .unwrap();
            def.clone()
        };
        assert!(
            Arc::ptr_eq(&user(&one), &user(&list)),
            "tools share the loosened definitions"
        );
        // The input that shares the original definitions keeps them whole.
        let create = tool("create");
        assert_eq!(
            create.input_schema["required"],
            json!(["number", "title", "user"])
        );
        assert_eq!(
            create.input_schema["$defs"]["User"]["required"],
            json!(["login", "id"])
        );
    }
}
