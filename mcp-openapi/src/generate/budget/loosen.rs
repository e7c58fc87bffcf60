//! The looser forms trimming puts in place of a subschema: each accepts
//! every instance the original accepted, and keeps its `type`.

use std::collections::HashMap;

use mcp_core::schema::portable;
use serde_json::{Map, Value};

use super::walk::{Target, loosenable_subschemas_mut, subschemas, target};

/// The `type` of each definition by name (`Some(None)` when it has none,
/// `None` for a name that is not a definition), which is what a reference
/// to it keeps when the definition is not expanded.
pub(super) trait DefTypes {
    /// The `type` of the definition `name`.
    fn def_type(&self, name: &str) -> Option<Option<&Value>>;
}

impl DefTypes for HashMap<String, Option<Value>> {
    fn def_type(&self, name: &str) -> Option<Option<&Value>> {
        self.get(name).map(Option::as_ref)
    }
}

/// The `type` keyword of every definition in `defs`.
pub(super) fn def_types(defs: &Map<String, Value>) -> HashMap<String, Option<Value>> {
    defs.iter()
        .map(|(name, def)| (name.clone(), def.as_object().and_then(kind_of)))
        .collect()
}

/// The `type` of `schema`; for the portable nullable spelling
/// `{"anyOf": [{"type": T, ..}, {"type": "null"}]}` it is `[T, "null"]`,
/// which the trimmed schema's portable spelling turns back into an `anyOf`.
pub(super) fn kind_of(schema: &Map<String, Value>) -> Option<Value> {
    if let Some(kind) = schema.get("type") {
        return Some(kind.clone());
    }
    let [first, second] = schema.get("anyOf")?.as_array()?.as_slice() else {
        return None;
    };
    if second.as_object().is_none_or(|null| null.len() != 1)
        || second.get("type").and_then(Value::as_str) != Some("null")
    {
        return None;
    }
    match first.get("type")? {
        Value::String(kind) => Some(Value::Array(vec![kind.as_str().into(), "null".into()])),
        _ => None,
    }
}

/// A schema that only keeps the type of `kind` (the empty schema when there
/// is none): what an unexpanded schema of that type becomes.
fn of_type(kind: Option<&Value>) -> Value {
    let mut stub = Map::new();
    if let Some(kind) = kind {
        stub.insert("type".to_owned(), kind.clone());
    }
    Value::Object(stub)
}

/// Appends `sentence` to the description of `schema` (or makes it the
/// description).
fn describe(schema: &mut Map<String, Value>, sentence: &str) {
    let text = match schema.get("description").and_then(Value::as_str) {
        Some(existing) if !existing.is_empty() => format!("{} {sentence}", existing.trim_end()),
        _ => sentence.to_owned(),
    };
    schema.insert("description".to_owned(), text.into());
}

/// The definitions named in `names`, quoted, as a sentence fragment.
fn quoted(names: &[String]) -> String {
    let quoted: Vec<String> = names.iter().map(|name| format!("`{name}`")).collect();
    match quoted.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// Replaces the `$ref` of `schema` to the definition `name` by the type of
/// that definition, and names it in the description.
pub(super) fn unexpand_ref(schema: &mut Map<String, Value>, name: &str, types: &dyn DefTypes) {
    schema.remove("$ref");
    if let Some(Some(kind)) = types.def_type(name)
        && !schema.contains_key("type")
    {
        schema.insert("type".to_owned(), kind.clone());
    }
    describe(
        schema,
        &format!("A `{name}` (not detailed in this schema)."),
    );
    // A nullable type is spelled portably before the schema is measured.
    portable(schema);
}

/// Whether `branch` is a plain string schema (`{"type": "string", ...}`
/// with no subschemas or references).
fn is_plain_string(branch: &Map<String, Value>) -> bool {
    branch.get("type").and_then(Value::as_str) == Some("string")
        && !branch.contains_key("$ref")
        && branch.iter().all(|(key, value)| {
            matches!(key.as_str(), "enum" | "examples" | "default" | "const")
                || !(value.is_object() || value.is_array())
        })
}

/// An expandable union's looser form: `anyOf` of its branches loosened to
/// their types (a string, the definitions' types, `null` when allowed),
/// described by the definitions it may expand to. `None` when `schema` is
/// not an expandable union: an `anyOf` of a plain string, one or more
/// references to definitions and nothing else but `{"type": "null"}`.
pub(super) fn loosened_union(
    schema: &Map<String, Value>,
    types: &dyn DefTypes,
) -> Option<Map<String, Value>> {
    let branches = schema.get("anyOf")?.as_array()?;
    let mut strings = 0;
    let mut expandable = Vec::new();
    let mut loose: Vec<Value> = Vec::new();
    let push = |mut value: Value, loose: &mut Vec<Value>| {
        if let Value::Object(object) = &mut value {
            portable(object);
        }
        if !loose.contains(&value) {
            loose.push(value);
        }
    };
    for branch in branches {
        let branch = branch.as_object()?;
        if is_plain_string(branch) {
            strings += 1;
            push(of_type(branch.get("type")), &mut loose);
        } else if branch.len() == 1
            && let Some(Target::Def(name)) = target(branch)
        {
            push(of_type(types.def_type(&name)?), &mut loose);
            expandable.push(name.into_owned());
        } else if branch.len() == 1 && branch.get("type").and_then(Value::as_str) == Some("null") {
            push(of_type(branch.get("type")), &mut loose);
        } else {
            return None;
        }
    }
    if strings == 0 || expandable.is_empty() {
        return None;
    }
    let mut out = schema.clone();
    out.insert("anyOf".to_owned(), Value::Array(loose));
    describe(
        &mut out,
        &format!(
            "Expandable {}: its ID, or the object when expanded.",
            quoted(&expandable)
        ),
    );
    Some(out)
}

/// Whether [`loosened_union`] has a looser form of `schema` (without
/// making it).
fn is_expandable_union(schema: &Map<String, Value>, types: &dyn DefTypes) -> bool {
    let Some(Value::Array(branches)) = schema.get("anyOf") else {
        return false;
    };
    let (mut strings, mut expandable) = (false, false);
    for branch in branches {
        let Some(branch) = branch.as_object() else {
            return false;
        };
        if is_plain_string(branch) {
            strings = true;
        } else if branch.len() == 1
            && let Some(Target::Def(name)) = target(branch)
        {
            if types.def_type(&name).is_none() {
                return false;
            }
            expandable = true;
        } else if !(branch.len() == 1 && branch.get("type").and_then(Value::as_str) == Some("null"))
        {
            return false;
        }
    }
    strings && expandable
}

/// Loosens `schema` and what it may loosen below it: each `oneOf` without
/// an `anyOf` beside it becomes an `anyOf` (every instance matching exactly
/// one branch matches at least one), and each expandable union becomes its
/// [`loosened_union`]. Fixed subschemas are left as they are.
pub(super) fn relax(schema: &mut Map<String, Value>, types: &dyn DefTypes) {
    if !schema.contains_key("anyOf")
        && let Some(branches) = schema.remove("oneOf")
    {
        schema.insert("anyOf".to_owned(), branches);
    }
    if let Some(loose) = loosened_union(schema, types) {
        *schema = loose;
        return;
    }
    loosenable_subschemas_mut(schema, |sub| relax(sub, types));
}

/// Whether [`relax`] would change `schema`.
pub(super) fn relaxes(schema: &Map<String, Value>, types: &dyn DefTypes) -> bool {
    if !schema.contains_key("anyOf") && schema.contains_key("oneOf") {
        return true;
    }
    if is_expandable_union(schema, types) {
        return true;
    }
    let mut found = false;
    subschemas(schema, |sub, loosenable| {
        found = found || (loosenable && relaxes(sub, types));
    });
    found
}

/// The one-line form of a subschema cut below the nesting depth: its type
/// and the first line of its description (for a bare reference, the
/// definition it names).
pub(super) fn stub(schema: &Map<String, Value>) -> Map<String, Value> {
    let kind = kind_of(schema);
    let Value::Object(mut out) = of_type(kind.as_ref()) else {
        return Map::new();
    };
    if let Some(first) = schema
        .get("description")
        .and_then(Value::as_str)
        .and_then(|text| text.lines().next())
    {
        out.insert("description".to_owned(), first.into());
    } else if let Some(name) = schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|target| target.strip_prefix("#/$defs/"))
    {
        describe(
            &mut out,
            &format!("A `{name}` (not detailed in this schema)."),
        );
    }
    portable(&mut out);
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn object(value: Value) -> Map<String, Value> {
        match value {
            Value::Object(map) => map,
            other => panic!("not an object: {other}"),
        }
    }

    #[test]
    fn a_stub_keeps_type_and_first_description_line() {
        let cut = stub(&object(json!({
            "type": "object",
            "description": "A user.\nWith details.",
            "properties": {"login": {"type": "string"}}
        })));
        assert_eq!(
            Value::Object(cut),
            json!({"type": "object", "description": "A user."})
        );
    }

    #[test]
    fn a_stub_of_a_reference_names_its_definition() {
        let cut = stub(&object(json!({"$ref": "#/$defs/simple-user"})));
        assert_eq!(
            Value::Object(cut),
            json!({"description": "A `simple-user` (not detailed in this schema)."})
        );
    }
}
