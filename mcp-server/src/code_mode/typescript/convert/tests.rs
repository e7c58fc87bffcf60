use serde_json::{Value, json};

use super::*;

/// Everything spelled out.
const FULL: Detail = Detail {
    depth: usize::MAX,
    root_properties: usize::MAX,
    properties: usize::MAX,
    enum_values: usize::MAX,
};

/// The type of `schema` (its own root) and the aliases it needs.
fn convert_with(schema: &Value, detail: Detail) -> (String, Vec<String>) {
    let document = Document::new(0, schema, schema, detail);
    let mut converter = Converter::default();
    let ty = converter.convert(&document, schema);
    (ty.to_string(), converter.aliases().collect())
}

fn ts(schema: Value) -> String {
    let (ty, aliases) = convert_with(&schema, FULL);
    assert!(aliases.is_empty(), "{aliases:?}");
    ty
}

#[test]
fn scalars_and_formats() {
    assert_eq!(
        ts(json!({"type": "string", "format": "date-time"})),
        "string"
    );
    assert_eq!(
        ts(json!({"type": "integer", "format": "int64", "minimum": 1})),
        "number"
    );
    assert_eq!(ts(json!({"type": "number"})), "number");
    assert_eq!(ts(json!({"type": "boolean"})), "boolean");
    assert_eq!(ts(json!({"type": "null"})), "null");
    assert_eq!(ts(json!({})), "unknown");
    assert_eq!(ts(json!(true)), "unknown");
    assert_eq!(ts(json!(false)), "never");
    assert_eq!(ts(json!({"type": "mystery"})), "unknown");
    assert_eq!(ts(json!({"description": "anything"})), "unknown");
}

#[test]
fn enums_and_consts_are_literals() {
    assert_eq!(
        ts(json!({"type": "string", "enum": ["open", "closed", "all"]})),
        r#""open" | "closed" | "all""#
    );
    assert_eq!(
        ts(json!({"enum": [1, 2.5, -3, true, null]})),
        "1 | 2.5 | -3 | true | null"
    );
    assert_eq!(ts(json!({"enum": []})), "never");
    assert_eq!(ts(json!({"const": "list"})), r#""list""#);
    assert_eq!(ts(json!({"const": {"a": [1]}})), "{ a: [1] }");
    assert_eq!(
        ts(json!({"enum": ["say \"hi\"", "back\\slash", "new\nline"]})),
        r#""say \"hi\"" | "back\\slash" | "new\nline""#
    );
}

#[test]
fn long_enums_become_their_type_when_cut() {
    let schema = json!({"type": "string", "enum": ["a", "b", "c"]});
    let detail = Detail {
        enum_values: 2,
        ..FULL
    };
    assert_eq!(convert_with(&schema, detail).0, "string");
    assert_eq!(
        convert_with(&json!({"enum": ["a", "b", "c"]}), detail).0,
        "unknown"
    );
}

#[test]
fn nullables_are_unions_with_null() {
    assert_eq!(
        ts(json!({"anyOf": [{"type": "string"}, {"type": "null"}]})),
        "string | null"
    );
    assert_eq!(ts(json!({"type": ["integer", "null"]})), "number | null");
    assert_eq!(
        ts(json!({"type": "string", "nullable": true})),
        "string | null"
    );
    assert_eq!(
        ts(json!({"anyOf": [{"type": "string", "enum": ["a", "b"]}, {"type": "null"}]})),
        r#""a" | "b" | null"#
    );
}

#[test]
fn unions_and_intersections() {
    assert_eq!(
        ts(json!({"oneOf": [{"type": "string"}, {"type": "integer"}, {"type": "string"}]})),
        "string | number"
    );
    assert_eq!(
        ts(json!({"allOf": [
            {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
            {"type": "object", "properties": {"b": {"type": "number"}}}
        ]})),
        "{ a: string; b?: number }"
    );
    assert_eq!(
        ts(json!({"allOf": [
            {"type": "object", "properties": {"a": {"type": "string"}}},
            {"anyOf": [{"type": "object", "properties": {"b": {"type": "number"}}}, {"type": "null"}]}
        ]})),
        "{ a?: string } & ({ b?: number } | null)"
    );
    // Branches that only constrain (`required`, `pattern`) add no type.
    assert_eq!(
        ts(json!({
            "type": "object",
            "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
            "anyOf": [{"required": ["a"]}, {"required": ["b"]}]
        })),
        "{ a?: string; b?: string }"
    );
    // A bare `type` beside typed branches restates them.
    assert_eq!(
        ts(json!({"type": "object", "anyOf": [
            {"type": "object", "properties": {"id": {"type": "integer"}}},
            {"type": "object", "properties": {"error": {"type": "string"}}}
        ]})),
        "{ id?: number } | { error?: string }"
    );
}

#[test]
fn arrays_and_tuples() {
    assert_eq!(
        ts(json!({"type": "array", "items": {"type": "string"}})),
        "string[]"
    );
    assert_eq!(ts(json!({"type": "array"})), "unknown[]");
    assert_eq!(
        ts(json!({"type": "array", "items": {"anyOf": [{"type": "string"}, {"type": "null"}]}})),
        "(string | null)[]"
    );
    assert_eq!(
        ts(
            json!({"type": "array", "prefixItems": [{"type": "number"}, {"type": "number"}], "items": false, "minItems": 2})
        ),
        "[number, number]"
    );
    assert_eq!(
        ts(
            json!({"type": "array", "prefixItems": [{"type": "string"}, {"type": "boolean"}], "minItems": 1})
        ),
        "[string, boolean?, ...unknown[]]"
    );
    assert_eq!(
        ts(
            json!({"type": "array", "prefixItems": [{"type": "string"}], "items": {"type": "number"}, "minItems": 1})
        ),
        "[string, ...number[]]"
    );
    assert_eq!(
        ts(
            json!({"type": "array", "prefixItems": [{"type": "string"}, {"type": "string"}], "maxItems": 2, "minItems": 2})
        ),
        "[string, string]"
    );
    // Draft 7 spells tuples with `items` as a list.
    assert_eq!(
        ts(
            json!({"type": "array", "items": [{"type": "string"}, {"type": "integer"}], "additionalItems": false, "minItems": 2})
        ),
        "[string, number]"
    );
}

#[test]
fn objects_keys_and_additional_properties() {
    assert_eq!(
        ts(json!({
            "type": "object",
            "properties": {"id": {"type": "integer"}, "x-rate": {"type": "string"}, "default": {"type": "boolean"}},
            "required": ["id"]
        })),
        r#"{ id: number; "x-rate"?: string; default?: boolean }"#
    );
    assert_eq!(ts(json!({"type": "object"})), "Record<string, unknown>");
    assert_eq!(
        ts(json!({"type": "object", "properties": {}})),
        "Record<string, unknown>"
    );
    assert_eq!(
        ts(json!({"type": "object", "additionalProperties": false})),
        "Record<string, never>"
    );
    assert_eq!(
        ts(json!({"type": "object", "additionalProperties": {"type": "string"}})),
        "Record<string, string>"
    );
    assert_eq!(
        ts(json!({"type": "object", "patternProperties": {"^x-": {"type": "integer"}}})),
        "Record<string, number>"
    );
    assert_eq!(
        ts(
            json!({"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": {"type": "number"}})
        ),
        "{ a?: string; [key: string]: unknown }"
    );
    assert_eq!(
        ts(
            json!({"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false})
        ),
        "{ a?: string }"
    );
    assert_eq!(
        ts(json!({"properties": {"a": {"type": "string"}}})),
        "{ a?: string }"
    );
    assert_eq!(
        ts(json!({"type": "object", "properties": {"\"q\"\n": {"type": "string"}}})),
        r#"{ "\"q\"\n"?: string }"#
    );
}

#[test]
fn deep_and_wide_objects_are_cut() {
    let schema = json!({
        "type": "object",
        "properties": {
            "url": {"type": "string"},
            "id": {"type": "integer"},
            "html_url": {"type": "string"},
            "owner": {"type": "object", "properties": {"login": {"type": "string"}}},
            "name": {"type": "string"},
            "list": {"type": "array", "items": {"type": "object", "properties": {"a": {"type": "string"}}}}
        },
        "required": ["id"]
    });
    let shallow = Detail {
        depth: 1,
        root_properties: 3,
        ..FULL
    };
    let document = Document::new(0, &schema, &schema, shallow);
    let mut converter = Converter::default();
    let ty = converter.convert(&document, &schema).to_string();
    assert_eq!(
        ty,
        "{ id: number; owner?: Record<string, unknown>; name?: string /* 3 more */ }"
    );
    assert!(converter.abbreviated());
    let whole = convert_with(&schema, FULL).0;
    assert!(
        whole.contains("owner?: { login?: string }") && whole.contains("list?: { a?: string }[]"),
        "{whole}"
    );
}

#[test]
fn references_resolve_or_stay_unknown() {
    assert_eq!(
        ts(json!({
            "type": "object",
            "properties": {"pet": {"$ref": "#/$defs/pet"}, "old": {"$ref": "#/definitions/Old"}, "far": {"$ref": "other.json#/x"}},
            "$defs": {"pet": {"type": "object", "properties": {"name": {"type": "string"}}}},
            "definitions": {"Old": {"type": "string"}}
        })),
        "{ pet?: { name?: string }; old?: string; far?: unknown }"
    );
    assert_eq!(
        ts(
            json!({"$ref": "#/$defs/state", "$defs": {"state": {"enum": ["a"]}}, "description": "x"})
        ),
        r#""a""#
    );
}

#[test]
fn shared_and_cyclic_definitions_are_named_once() {
    let schema = json!({
        "type": "object",
        "properties": {
            "author": {"$ref": "#/$defs/simple-user"},
            "committer": {"anyOf": [{"$ref": "#/$defs/simple-user"}, {"type": "null"}]},
            "tree": {"$ref": "#/$defs/node"}
        },
        "$defs": {
            "simple-user": {"type": "object", "properties": {"login": {"type": "string"}}, "required": ["login"]},
            "node": {"type": "object", "properties": {"name": {"type": "string"}, "children": {"type": "array", "items": {"$ref": "#/$defs/node"}}}}
        }
    });
    let (ty, aliases) = convert_with(&schema, FULL);
    assert_eq!(
        ty,
        "{ author?: SimpleUser; committer?: SimpleUser | null; tree?: Node }"
    );
    assert_eq!(
        aliases,
        [
            "type SimpleUser = { login: string };",
            "type Node = { name?: string; children?: Node[] };"
        ]
    );
}

#[test]
fn a_cycle_past_the_depth_is_cut_not_followed() {
    let schema = json!({
        "$ref": "#/$defs/list",
        "$defs": {
            "list": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"$ref": "#/$defs/list"}}]}
        }
    });
    let (ty, aliases) = convert_with(&schema, FULL);
    assert_eq!(ty, "List");
    assert_eq!(aliases, ["type List = string | List[];"]);
    let cut = Detail { depth: 0, ..FULL };
    assert_eq!(
        convert_with(&schema, cut),
        ("string | unknown[]".to_owned(), Vec::new())
    );
    let root_cycle = json!({"type": "object", "properties": {"next": {"$ref": "#"}}});
    let (ty, aliases) = convert_with(&root_cycle, FULL);
    assert_eq!(ty, "{ next?: Root }");
    assert_eq!(aliases, ["type Root = { next?: Root };"]);
}

#[test]
fn names_never_shadow_what_declarations_use() {
    let schema = json!({
        "type": "object",
        "properties": {
            "a": {"$ref": "#/$defs/promise"}, "b": {"$ref": "#/$defs/promise"},
            "c": {"$ref": "#/$defs/a-b"}, "d": {"$ref": "#/$defs/a-b"},
            "e": {"$ref": "#/$defs/a_b"}, "f": {"$ref": "#/$defs/a_b"}
        },
        "$defs": {
            "promise": {"type": "object", "properties": {"then": {"type": "string"}}},
            "a-b": {"type": "object", "properties": {"x": {"type": "string"}}},
            "a_b": {"type": "object", "properties": {"y": {"type": "string"}}}
        }
    });
    let (ty, aliases) = convert_with(&schema, FULL);
    assert_eq!(
        ty,
        "{ a?: Promise2; b?: Promise2; c?: AB; d?: AB; e?: AB2; f?: AB2 }"
    );
    assert_eq!(aliases.len(), 3, "{aliases:?}");
}

#[test]
fn long_chains_of_references_stop_without_exhausting_the_stack() {
    let mut defs = serde_json::Map::new();
    for n in 0..5_000 {
        defs.insert(
            format!("d{n}"),
            json!({"type": "array", "items": {"$ref": format!("#/$defs/d{}", n + 1)}}),
        );
    }
    let schema = json!({"$ref": "#/$defs/d0", "$defs": defs});
    let document = Document::new(0, &schema, &schema, FULL);
    let mut converter = Converter::default();
    let ty = converter.convert(&document, &schema).to_string();
    assert!(ty.starts_with("unknown[][]") && ty.len() < 200, "{ty}");
    assert!(converter.abbreviated());
}
