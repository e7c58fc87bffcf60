//! The example in `execute`'s description, drawn from the server's own
//! tools: a call of one, or two run at once with `Promise.all`, each with
//! its required arguments.

use mcp_core::{JsonObject, Tool};
use serde_json::Value;

use super::typescript::literal::property_key;

/// How many tools the example calls at most.
const CALLED: usize = 2;

/// The example script over `tools` (with their identifiers, in the same
/// order): read-only tools first, in order. `None` for a server without
/// tools.
pub(crate) fn example(tools: &[&Tool], identifiers: &[String]) -> Option<String> {
    let reads_first = tools
        .iter()
        .zip(identifiers)
        .filter(|(tool, _)| reads(tool))
        .chain(
            tools
                .iter()
                .zip(identifiers)
                .filter(|(tool, _)| !reads(tool)),
        );
    let calls: Vec<String> = reads_first
        .take(CALLED)
        .map(|(tool, identifier)| format!("tools.{identifier}({})", input(tool)))
        .collect();
    match calls.as_slice() {
        [] => None,
        [call] => Some(format!("const result = await {call};\nreturn result;")),
        calls => Some(format!(
            "const [first, second] = await Promise.all([\n  {},\n]);\nreturn {{ first, second }};",
            calls.join(",\n  ")
        )),
    }
}

/// Whether the tool says it only reads.
fn reads(tool: &Tool) -> bool {
    tool.annotations
        .as_ref()
        .and_then(|annotations| annotations.read_only_hint)
        .unwrap_or(false)
}

/// The tool's required arguments with a value each, as a JavaScript
/// object literal.
fn input(tool: &Tool) -> String {
    let schema = &tool.input_schema;
    let required = schema.get("required").and_then(Value::as_array);
    let properties = schema.get("properties").and_then(Value::as_object);
    let entries: Vec<String> = required
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(|name| {
            let property = properties.and_then(|properties| properties.get(name));
            let value = property.map_or(Value::Null, |property| sample(schema, property));
            format!("{}: {value}", property_key(name))
        })
        .collect();
    if entries.is_empty() {
        "{}".to_owned()
    } else {
        format!("{{ {} }}", entries.join(", "))
    }
}

/// A value for `property` (a schema inside `root`): its first example, its
/// default, its constant or first allowed value, else a placeholder of its
/// type.
fn sample(root: &JsonObject, property: &Value) -> Value {
    let property = resolved(root, property);
    let first = |key: &str| {
        property
            .get(key)
            .and_then(Value::as_array)?
            .first()
            .cloned()
    };
    if let Some(value) = first("examples")
        .or_else(|| property.get("default").cloned())
        .or_else(|| property.get("const").cloned())
        .or_else(|| first("enum"))
    {
        return value;
    }
    for branches in ["oneOf", "anyOf"] {
        if let Some(branch) = property
            .get(branches)
            .and_then(Value::as_array)
            .and_then(|b| b.first())
        {
            return sample(root, branch);
        }
    }
    let kind = match property.get("type") {
        Some(Value::Array(kinds)) => kinds.iter().find(|kind| *kind != "null"),
        kind => kind,
    };
    match kind.and_then(Value::as_str) {
        Some("string") => Value::String("...".to_owned()),
        Some("integer" | "number") => Value::from(1),
        Some("boolean") => Value::Bool(true),
        Some("array") => Value::Array(Vec::new()),
        Some("object") => Value::Object(JsonObject::new()),
        _ => Value::Null,
    }
}

/// `property` with a local `$ref` (to `#/$defs/..`) followed, a few deep.
fn resolved<'a>(root: &'a JsonObject, mut property: &'a Value) -> &'a Value {
    for _ in 0..4 {
        let Some(name) = property
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|target| target.strip_prefix("#/$defs/"))
        else {
            break;
        };
        match root.get("$defs").and_then(|defs| defs.get(name)) {
            Some(found) => property = found,
            None => break,
        }
    }
    property
}

#[cfg(test)]
mod tests {
    use mcp_core::Hint;
    use serde_json::json;

    use super::*;

    fn tool(name: &str, schema: Value, hints: &[Hint]) -> Tool {
        mcp_core::tool(name)
            .input_schema(schema.as_object().cloned().unwrap_or_default())
            .annotations(hints.iter().cloned().collect::<mcp_core::ToolAnnotations>())
            .build()
            .unwrap()
    }

    #[test]
    fn the_example_calls_the_servers_own_read_only_tools_first() {
        let forecast = tool(
            "forecast",
            json!({
                "type": "object",
                "properties": {
                    "city": {"type": "string", "examples": ["Paris"]},
                    "unit": {"$ref": "#/$defs/Unit"},
                    "days": {"type": "integer"},
                    "extra-info": {"type": "boolean"},
                    "note": {"type": "string"}
                },
                "required": ["city", "unit", "days", "extra-info"],
                "$defs": {"Unit": {"oneOf": [{"const": "celsius"}, {"const": "fahrenheit"}]}}
            }),
            &[Hint::Read],
        );
        let delete = tool("delete", json!({"type": "object"}), &[Hint::Destroy]);
        let ping = tool("ping", json!({"type": "object"}), &[Hint::Read]);
        let identifiers = [
            "delete".to_owned(),
            "forecast".to_owned(),
            "ping".to_owned(),
        ];
        assert_eq!(
            example(&[&delete, &forecast, &ping], &identifiers).as_deref(),
            Some(
                "const [first, second] = await Promise.all([\n  \
                 tools.forecast({ city: \"Paris\", unit: \"celsius\", days: 1, \"extra-info\": true }),\n  \
                 tools.ping({}),\n]);\nreturn { first, second };"
            )
        );
        assert_eq!(
            example(&[&delete], &identifiers[..1]).as_deref(),
            Some("const result = await tools.delete({});\nreturn result;")
        );
        assert_eq!(example(&[], &[]), None);
    }
}
