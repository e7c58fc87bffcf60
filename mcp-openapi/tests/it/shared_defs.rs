//! Generated schemas share their definitions between tools, and write
//! exactly the JSON of the whole schema they stand for.

use std::sync::Arc;

use mcp_openapi::OpenApi;
use serde_json::Value;

const TWO_ROUTES: &str = r##"{
  "openapi": "3.1.0",
  "info": {"title": "t", "version": "1"},
  "paths": {
    "/pets": {"get": {"operationId": "listPets", "responses": {"200": {"description": "ok",
      "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/Pet"}}}}}}}},
    "/pets/{id}": {"get": {"operationId": "getPet",
      "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}],
      "responses": {"200": {"description": "ok",
      "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Owned"}}}}}}}
  },
  "components": {"schemas": {
    "Pet": {"type": "object", "properties": {"name": {"type": "string"}, "owner": {"$ref": "#/components/schemas/Owner"}}},
    "Owner": {"type": "object", "properties": {"name": {"type": "string"}}},
    "Owned": {"type": "object", "properties": {"pet": {"$ref": "#/components/schemas/Pet"}}}
  }}
}"##;

#[test]
fn tools_reaching_a_definition_share_one_copy() {
    let api: OpenApi = TWO_ROUTES.parse().unwrap();
    let tools = api.tools().unwrap();
    let def = |tool: usize, name: &str| -> Arc<Value> {
        let schema = tools[tool].output_schema.as_ref().unwrap();
        let (_, value) = schema
            .shared_defs()
            .iter()
            .find(|(n, _)| &**n == name)
            .unwrap_or_else(|| panic!("`{}` does not share `{name}`", tools[tool].name));
        value.clone()
    };
    assert!(Arc::ptr_eq(&def(0, "Pet"), &def(1, "Pet")));
    assert!(Arc::ptr_eq(&def(0, "Owner"), &def(1, "Owner")));
    let schema = tools[1].output_schema.as_ref().unwrap();
    assert_eq!(
        serde_json::to_string(schema).unwrap(),
        serde_json::to_string(&**schema).unwrap()
    );
    assert_eq!(
        schema["$defs"]["Owner"]["properties"]["name"]["type"],
        "string"
    );
}

/// On GitHub's document (1,223 tools, output schemas not budgeted): every
/// tool written from shared definitions is byte for byte the tool written
/// from its whole schemas.
#[test]
fn shared_schemas_write_the_json_of_whole_ones() {
    let api = OpenApi::from_path(testdata::openapi("github-api.github.com.json")).unwrap();
    // Whole output schemas: trimming assembles the schemas it changes.
    let generated = api.generator().output_budget(None).generate().unwrap();
    let mut shared = 0;
    for tool in generated.tools.iter().map(|generated| &generated.tool) {
        let schemas = std::iter::once(&tool.input_schema).chain(&tool.output_schema);
        for schema in schemas {
            shared += usize::from(!schema.shared_defs().is_empty());
            let written = serde_json::to_string(schema).unwrap();
            let whole = serde_json::to_string(&**schema).unwrap();
            assert_eq!(written, whole, "`{}`", tool.name);
        }
    }
    assert!(shared > 600, "only {shared} schemas share definitions");
}
