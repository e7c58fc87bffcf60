//! One fixture per feature: explicit assertions, plus a snapshot of the tools.

use mcp_openapi::ir::RequestPart;
use mcp_openapi::route_map::RouteKind;
use mcp_openapi::{
    GeneratedTool, LoadOptions, OpenApi, RouteMap, SpecError,
    ir::{ParameterLocation, ParameterStyle},
    route_map::route_maps_from_toml,
    schema::SchemaProfile,
};
use serde_json::{Value, json};

fn load(name: &str) -> OpenApi {
    OpenApi::from_path(crate::fixture(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn tools(api: &OpenApi) -> Vec<GeneratedTool> {
    api.generator().generate().unwrap().tools
}

fn wire(tool: &GeneratedTool) -> Value {
    serde_json::to_value(&tool.tool).unwrap()
}

fn snapshot_all(name: &str, api: &OpenApi) {
    let all: Vec<Value> = tools(api).iter().map(wire).collect();
    insta::assert_json_snapshot!(name, all);
}

#[test]
fn collisions_get_location_suffixes_and_path_parameters_merge() {
    let api = load("collisions.yaml");
    let route = &api.routes()[0];
    let verbose = route
        .parameters
        .iter()
        .find(|p| p.name == "verbose")
        .unwrap();
    assert_eq!(verbose.description.as_deref(), Some("operation wins"));
    assert_eq!(
        route
            .parameters
            .iter()
            .filter(|p| p.name == "verbose")
            .count(),
        1
    );
    let filter = route
        .parameters
        .iter()
        .find(|p| p.name == "filter")
        .unwrap();
    assert_eq!(
        (filter.style, filter.explode),
        (ParameterStyle::DeepObject, false)
    );
    let tags = route.parameters.iter().find(|p| p.name == "tags").unwrap();
    assert_eq!((tags.style, tags.explode), (ParameterStyle::Form, true));
    let session = route
        .parameters
        .iter()
        .find(|p| p.name == "session")
        .unwrap();
    assert_eq!(
        (session.location, session.style),
        (ParameterLocation::Cookie, ParameterStyle::Form)
    );

    let tool = &tools(&api)[0];
    let properties = tool.tool.input_schema["properties"].as_object().unwrap();
    let names: Vec<&str> = properties.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        [
            "id__path",
            "verbose",
            "id__header",
            "tags",
            "filter",
            "session",
            "id",
            "name"
        ]
    );
    assert_eq!(
        tool.tool.input_schema["required"],
        json!(["id__path", "id", "name"])
    );
    let id = tool
        .binding
        .arguments
        .iter()
        .find(|a| a.property == "id")
        .unwrap();
    assert_eq!(id.target, RequestPart::BodyProperty("id".into()));
    assert_eq!(
        tool.binding.body_media_type.as_deref(),
        Some("application/json")
    );
    assert_eq!(properties["name"]["examples"], json!(["widget"]));
    snapshot_all("collisions", &api);
}

#[test]
fn cycles_stay_as_defs_and_only_used_defs_are_kept() {
    let api = load("cycles.yaml");
    let tool = &tools(&api)[0];
    let input = &tool.tool.input_schema;
    // 2020-12 is the MCP default dialect: no `$schema`, as for macro tools.
    assert!(input.get("$schema").is_none());
    let defs = input["$defs"].as_object().unwrap();
    assert_eq!(defs.keys().collect::<Vec<_>>(), ["Meta", "Node"]);
    assert_eq!(
        input["properties"]["children"]["items"],
        json!({"$ref": "#/$defs/Node"})
    );
    let output = tool.tool.output_schema.as_ref().unwrap();
    assert_eq!(output["type"], "object");
    assert!(output["$defs"].get("Node").is_some());
    // The inline profile cuts the cycle and has neither `$defs` nor `$schema`.
    let inline = api
        .generator()
        .profile(SchemaProfile::Inline)
        .generate()
        .unwrap();
    let input = serde_json::to_string(&inline.tools[0].tool.input_schema).unwrap();
    assert!(
        !input.contains("$ref") && !input.contains("$defs") && !input.contains("$schema"),
        "{input}"
    );
    assert!(input.contains("recursive schema `Node`"));
    snapshot_all("cycles", &api);
    let inline: Vec<Value> = inline.tools.iter().map(wire).collect();
    insta::assert_json_snapshot!("cycles_inline", inline);
}

#[test]
fn openapi_30_keywords_become_2020_12() {
    let api = load("nullable30.yaml");
    let route = &api.routes()[0];
    assert_eq!(
        route.parameters[0].schema,
        json!({"type": "integer", "exclusiveMinimum": 0, "maximum": 100, "examples": [10]})
    );
    assert_eq!(
        route.parameters[1].schema,
        json!({"type": ["string", "null"], "enum": ["a", "b", null]})
    );
    let tool = &tools(&api)[0];
    let owner = &tool.tool.output_schema.as_ref().unwrap()["properties"]["owner"];
    assert_eq!(
        owner,
        &json!({"anyOf": [{"allOf": [{"$ref": "#/$defs/Owner"}]}, {"type": "null"}]})
    );
    snapshot_all("nullable30", &api);
}

#[test]
fn reference_metadata_feeds_parameter_descriptions() {
    let api = load("ref_siblings31.yaml");
    let params = &api.routes()[0].parameters;
    assert_eq!(
        params[0].description.as_deref(),
        Some("petId: The pet to fetch from the store")
    );
    assert_eq!(
        params[1].description.as_deref(),
        Some("fields: Fields to return")
    );
    assert_eq!(params[2].description.as_deref(), Some("Schema-level only"));
    let tool = &tools(&api)[0];
    let output = tool.tool.output_schema.as_ref().unwrap();
    assert_eq!(output["description"], "The pet, as stored");
    assert!(
        output["properties"].get("password").is_none(),
        "writeOnly left out of outputs"
    );
    snapshot_all("ref_siblings31", &api);
}

#[test]
fn read_only_out_of_inputs_write_only_out_of_outputs() {
    let api = load("readonly.yaml");
    let tool = &tools(&api)[0];
    let input = &tool.tool.input_schema;
    assert!(input["properties"].get("id").is_none());
    assert_eq!(input["required"], json!(["name", "password"]));
    assert!(
        input["$defs"]["Profile"]["properties"]
            .get("created")
            .is_none()
    );
    let output = tool.tool.output_schema.as_ref().unwrap();
    assert!(output["properties"].get("password").is_none());
    assert_eq!(output["required"], json!(["id", "name"]));
    assert!(
        output["$defs"]["Profile"]["properties"]
            .get("created")
            .is_some()
    );
    snapshot_all("readonly", &api);
}

#[test]
fn non_object_outputs_are_wrapped_and_recorded() {
    let api = load("wrapped.yaml");
    let all = tools(&api);
    assert_eq!(all[0].tool.name, "get_names");
    assert_eq!(all[0].tool.description.as_deref(), Some("List names"));
    let output = all[0].tool.output_schema.as_ref().unwrap();
    assert_eq!(output["required"], json!(["result"]));
    assert_eq!(
        all[0].tool.meta.get("rs.mcp-toolkit/output-wrapped"),
        Some(&json!(true))
    );
    assert!(all[0].binding.output_wrapped);
    assert!(all[1].tool.output_schema.is_none(), "no JSON 2xx response");
    assert_eq!(all[1].tool.description.as_deref(), Some("GET /count"));
    assert_eq!(
        all[2].tool.input_schema["properties"]["body"]["format"],
        "binary"
    );
    assert_eq!(all[2].binding.arguments[0].target, RequestPart::Body);
    snapshot_all("wrapped", &api);
}

#[test]
fn annotations_from_methods_and_extension() {
    let api = load("annotations.yaml");
    let all = tools(&api);
    let hints = |name: &str| {
        let tool = all.iter().find(|t| t.tool.name == name).unwrap();
        serde_json::to_value(tool.tool.annotations.as_ref().unwrap()).unwrap()
    };
    let h = |r: bool, d: bool, i: bool| json!({"readOnlyHint": r, "destructiveHint": d, "idempotentHint": i, "openWorldHint": true});
    let mut get = h(true, false, true);
    get["title"] = "List things".into();
    assert_eq!(hints("listThings"), get);
    assert_eq!(hints("createThing"), h(false, false, false));
    assert_eq!(hints("replaceThing"), h(false, true, true));
    assert_eq!(hints("patchThing"), h(false, true, false));
    assert_eq!(hints("headThings"), h(true, false, true));
    assert_eq!(hints("optionsThings"), h(true, false, true));
    assert_eq!(
        hints("deleteThing"),
        json!({"title": "Archive things", "readOnlyHint": false, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false})
    );
    // The customization hook has the last word.
    let custom = api
        .generator()
        .customize(|route, c| {
            if route.operation_id.as_deref() == Some("deleteThing") {
                c.annotations.destructive_hint = Some(true);
                c.name = "archive".into();
            }
        })
        .generate()
        .unwrap();
    let archive = custom
        .tools
        .iter()
        .find(|t| t.tool.name == "archive")
        .unwrap();
    assert_eq!(
        archive.tool.annotations.as_ref().unwrap().destructive_hint,
        Some(true)
    );
    assert_eq!(
        archive.tool.meta.get("rs.mcp-toolkit/openapi"),
        Some(&json!({"method": "DELETE", "path": "/things", "operationId": "deleteThing"}))
    );
    snapshot_all("annotations", &api);
}

#[test]
fn broken_operations_are_skipped_with_pointers_unless_strict() {
    let api = load("broken.yaml");
    let ids: Vec<_> = api
        .routes()
        .iter()
        .filter_map(|r| r.operation_id.as_deref())
        .collect();
    assert_eq!(ids, ["fine"]);
    let messages: Vec<String> = api.warnings().iter().map(ToString::to_string).collect();
    assert_eq!(messages.len(), 3, "{messages:#?}");
    assert!(
        messages[0].contains("#/paths/~1pets/get/parameters/1: missing \"in\""),
        "{}",
        messages[0]
    );
    assert!(
        messages[1].contains("cannot resolve $ref `#/components/schemas/Missing`"),
        "{}",
        messages[1]
    );
    assert!(
        messages[2].contains("remote $ref `https://example.com/schemas.json#/Q` refused"),
        "{}",
        messages[2]
    );
    let strict = OpenApi::from_path_with(
        crate::fixture("broken.yaml"),
        &LoadOptions::new().strict(true),
    );
    assert!(matches!(strict, Err(SpecError::Strict(_))));
}

#[test]
fn refs_into_other_local_files_resolve_relative_to_the_document() {
    let api = load("external_main.yaml");
    let tool = &tools(&api)[0];
    let input = &tool.tool.input_schema;
    assert_eq!(input["properties"]["X-Trace"]["type"], "string");
    assert_eq!(
        input["properties"]["owner"],
        json!({"$ref": "#/$defs/Owner"})
    );
    assert_eq!(
        input["$defs"]["Owner"]["properties"]["email"]["format"],
        "email"
    );
    // From a string, a relative file has nothing to resolve against.
    let text = std::fs::read_to_string(crate::fixture("external_main.yaml")).unwrap();
    let api: OpenApi = text.parse().unwrap();
    assert!(api.routes().is_empty());
    assert!(
        api.warnings()[0]
            .message
            .contains("needs a document loaded from a path")
    );
}

#[test]
fn swagger_2_becomes_the_same_ir() {
    let api = load("swagger2_form.json");
    let route = &api.routes()[0];
    assert_eq!(route.servers[0].url, "https://api.example.com/v1");
    assert_eq!(route.servers[1].url, "http://api.example.com/v1");
    let tags = &route.parameters[1];
    assert_eq!(
        (tags.style, tags.explode),
        (ParameterStyle::PipeDelimited, false)
    );
    assert_eq!(
        (route.parameters[2].style, route.parameters[2].explode),
        (ParameterStyle::Form, true)
    );
    let body = route.request_body.as_ref().unwrap();
    assert_eq!(body.content[0].media_type, "multipart/form-data");
    assert_eq!(
        route.security[0].schemes.keys().collect::<Vec<_>>(),
        ["basic"]
    );
    assert_eq!(
        api.security_schemes()["basic"],
        json!({"type": "http", "scheme": "basic"})
    );
    let all = tools(&api);
    let input = &all[0].tool.input_schema;
    assert_eq!(
        input["properties"]["file"],
        json!({"type": "string", "format": "binary", "description": "the photo"})
    );
    assert_eq!(
        input["properties"]["caption"]["anyOf"],
        json!([{"type": "string"}, {"type": "null"}])
    );
    assert_eq!(input["required"], json!(["petId", "file"]));
    assert_eq!(
        all[0].tool.output_schema.as_ref().unwrap()["properties"]["size"],
        json!({"type": "integer", "exclusiveMinimum": 0})
    );
    assert!(all[1].binding.output_wrapped);
    snapshot_all("swagger2_form", &api);
}

#[test]
fn route_maps_decide_tools_resources_templates_and_exclusions() {
    let api = load("route_maps.yaml");
    let maps = route_maps_from_toml(
        r#"
        [[route_map]]
        tags = ["admin"]
        mcp_type = "exclude"

        [[route_map]]
        methods = ["GET"]
        pattern = "^/users/\\{"
        mcp_type = "resource_template"
        mcp_tags = ["orders"]

        [[route_map]]
        tags = ["settings"]
        mcp_type = "resource"
        "#,
    )
    .unwrap();
    let out = api.generator().route_maps(maps).generate().unwrap();
    assert_eq!(out.excluded, ["#/paths/~1admin~1reset/post"]);
    assert_eq!(out.resources.len(), 1);
    assert_eq!(out.resources[0].resource.uri, "resource://getConfig");
    assert_eq!(
        out.resources[0].resource.mime_type.as_deref(),
        Some("application/json")
    );
    assert_eq!(out.resource_templates.len(), 1);
    let template = &out.resource_templates[0];
    assert_eq!(
        template.template.uri_template,
        "resource://getOrder/{userId}/{orderId}{?expand}"
    );
    assert_eq!(
        template.template.meta.get("rs.mcp-toolkit/tags"),
        Some(&json!(["orders"]))
    );
    assert_eq!(template.binding.arguments.len(), 3);
    assert_eq!(
        out.tools
            .iter()
            .map(|t| t.tool.name.as_str())
            .collect::<Vec<_>>(),
        ["listUsers"]
    );
    // A callback has the last word; the first matching map wins.
    let out = api
        .generator()
        .route_maps([
            RouteMap::new(RouteKind::Exclude).operation_ids(["listUsers"]),
            RouteMap::new(RouteKind::Tool),
        ])
        .route_map_fn(|route, kind| {
            if route.path == "/config" {
                RouteKind::Exclude
            } else {
                kind
            }
        })
        .generate()
        .unwrap();
    assert_eq!(out.tools.len(), 2);
    assert_eq!(out.excluded.len(), 2);
}

#[test]
fn names_are_sanitized_truncated_and_overridable() {
    let long = "x".repeat(80);
    let text = format!(
        r#"{{"openapi": "3.0.0", "info": {{"title": "t", "version": "1"}}, "paths": {{
            "/a/{{id}}": {{"get": {{"operationId": "repos/get content", "responses": {{}}}}}},
            "/b": {{"get": {{"operationId": "{long}", "responses": {{}}}}, "post": {{"operationId": "{long}", "responses": {{}}}}}},
            "/c": {{"get": {{"operationId": "renameMe", "responses": {{}}}}}}
        }}}}"#
    );
    let api: OpenApi = text.parse().unwrap();
    let out = api
        .generator()
        .mcp_names([("renameMe", "renamed")])
        .generate()
        .unwrap();
    let names: Vec<&str> = out.tools.iter().map(|t| t.tool.name.as_str()).collect();
    assert_eq!(names[0], "repos_get_content");
    assert_eq!(names[1].len(), 64);
    assert_eq!(names[2].len(), 64);
    assert_ne!(names[1], names[2]);
    assert_eq!(names[3], "renamed");
    let short = api.generator().max_name_len(32).generate().unwrap();
    assert!(short.tools.iter().all(|t| t.tool.name.len() <= 32));
}

/// A client configuration for tools that are built but never called.
fn unreachable_api_config() -> std::sync::Arc<mcp_openapi::ClientConfig> {
    std::sync::Arc::new(
        mcp_openapi::ClientConfig::builder()
            .base_url("http://127.0.0.1:9")
            .build()
            .unwrap(),
    )
}

#[test]
fn generated_tools_become_tool_defs_with_http_handlers() {
    let api = load("collisions.yaml");
    let generated = api.generator().generate().unwrap();
    let config = unreachable_api_config();
    let defs = generated.tool_defs::<()>(&config).unwrap();
    assert_eq!(defs.len(), 1);
    // The served tool is the generated one, its output schema made tolerant.
    let mut expected = generated.tools[0].tool.clone();
    if let Some(declared) = &expected.output_schema {
        expected.output_schema = Some(mcp_core::ToolSchema::new(
            mcp_openapi::call::tolerant_output_schema(declared),
        ));
    }
    assert_eq!(defs[0].tool(), &expected);
    let served = defs[0]
        .tool()
        .output_schema
        .as_deref()
        .expect("an output schema");
    assert_eq!(served["anyOf"].as_array().map(Vec::len), Some(2));
}

#[test]
fn stats_list_tools_largest_first_with_token_estimates() {
    let api = OpenApi::from_path(crate::corpus("swagger-petstore3.yaml")).unwrap();
    let tools: Vec<mcp_core::Tool> = api.tools().unwrap();
    let stats = mcp_openapi::generate::tool_stats(&tools);
    assert_eq!(stats.tools, 19);
    assert!(stats.per_tool.windows(2).all(|w| w[0].bytes >= w[1].bytes));
    let sum: usize = stats.per_tool.iter().map(|t| t.bytes).sum();
    let listed = serde_json::to_vec(&json!({"tools": tools})).unwrap().len();
    assert_eq!(
        stats.total_bytes, listed,
        "total is the size of the tools/list result"
    );
    assert!(sum < stats.total_bytes);
    assert_eq!(stats.total_tokens, stats.total_bytes.div_ceil(4));
    assert!(
        stats
            .per_tool
            .iter()
            .all(|t| t.schema_bytes < t.bytes && t.tokens == t.bytes.div_ceil(4))
    );
    let table = stats.to_string();
    assert!(
        table
            .lines()
            .nth(1)
            .unwrap()
            .ends_with(&stats.per_tool[0].name)
    );
    assert!(table.ends_with("in tools/list"));
}

#[test]
fn openapi_3_2_query_method_and_unsupported_additional_operations() {
    let api: OpenApi = r#"{"openapi": "3.2.0", "info": {"title": "t", "version": "1"}, "paths": {"/search": {
        "query": {"operationId": "search", "requestBody": {"content": {"application/json": {"schema": {"type": "object", "properties": {"q": {"type": "string"}}}}}}, "responses": {"200": {"description": "ok"}}},
        "additionalOperations": {"COPY": {"operationId": "copy", "responses": {"200": {"description": "ok"}}}}
    }}}"#
        .parse()
        .unwrap();
    assert_eq!(api.routes().len(), 1);
    assert_eq!(api.routes()[0].method, mcp_openapi::ir::HttpMethod::Query);
    let tool = &tools(&api)[0];
    assert_eq!(
        tool.tool.annotations.as_ref().unwrap().read_only_hint,
        Some(true)
    );
    assert_eq!(api.warnings().len(), 1);
    assert!(
        api.warnings()[0]
            .to_string()
            .starts_with("#/paths/~1search/additionalOperations/COPY: skipped"),
        "{:?}",
        api.warnings()
    );
}

#[test]
fn properties_named_like_keywords_keep_their_refs() {
    let api: OpenApi = r##"{"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {"/limits": {"get": {
        "operationId": "limits", "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {
            "type": "object", "properties": {"default": {"$ref": "#/components/schemas/Quantity"}, "enum": {"type": "object", "additionalProperties": {"$ref": "#/components/schemas/Quantity"}}}
        }}}}}}}},
        "components": {"schemas": {"Quantity": {"type": "string", "pattern": "^[0-9]+$"}}}}"##
        .parse()
        .unwrap();
    let standard = tools(&api);
    let output = standard[0].tool.output_schema.as_ref().unwrap();
    assert_eq!(output["$defs"]["Quantity"]["pattern"], "^[0-9]+$");
    let inline = api
        .generator()
        .profile(SchemaProfile::Inline)
        .generate()
        .unwrap();
    let output = inline.tools[0].tool.output_schema.as_ref().unwrap();
    assert_eq!(output["properties"]["default"]["pattern"], "^[0-9]+$");
    assert_eq!(
        output["properties"]["enum"]["additionalProperties"]["pattern"],
        "^[0-9]+$"
    );
}

#[test]
fn self_referencing_all_of_does_not_recurse_forever() {
    let api: OpenApi = r##"{"openapi": "3.0.0", "info": {"title": "t", "version": "1"}, "paths": {"/a": {"post": {
        "operationId": "a",
        "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/A"}}}},
        "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/A"}}}}}}}},
        "components": {"schemas": {"A": {"allOf": [{"$ref": "#/components/schemas/A"}, {"$ref": "#/components/schemas/B"}]},
                                   "B": {"$ref": "#/components/schemas/B"}}}}"##
        .parse()
        .unwrap();
    for profile in [SchemaProfile::Standard, SchemaProfile::Inline] {
        let out = api.generator().profile(profile).generate().unwrap();
        assert_eq!(out.tools.len(), 1);
        assert_eq!(out.tools[0].binding.arguments[0].target, RequestPart::Body);
    }
}

#[test]
fn routes_answering_the_same_schema_share_one_output_schema() {
    let api: OpenApi = r##"
openapi: 3.1.0
info: {title: t, version: "1"}
paths:
  /pets/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
    get:
      responses: {"200": {description: ok, content: {application/json: {schema: {$ref: "#/components/schemas/Pet"}}}}}
    put:
      requestBody: {content: {application/json: {schema: {$ref: "#/components/schemas/Pet"}}}}
      responses: {"200": {description: ok, content: {application/json: {schema: {$ref: "#/components/schemas/Pet"}}}}}
  /pets:
    get:
      responses: {"200": {description: ok, content: {application/json: {schema: {type: array, items: {$ref: "#/components/schemas/Pet"}}}}}}
components:
  schemas:
    Pet: {type: object, properties: {name: {type: string}, id: {type: integer, readOnly: true}}}
"##
    .parse()
    .unwrap();
    let generated = api.generator().generate().unwrap();
    let outputs: Vec<&mcp_core::ToolSchema> = generated
        .tools
        .iter()
        .map(|t| t.tool.output_schema.as_ref().expect("an output schema"))
        .collect();
    // Same source schema: one value; a different one (the array): its own.
    assert!(outputs[0].ptr_eq(outputs[1]));
    assert!(!outputs[0].ptr_eq(outputs[2]));
    assert_eq!(outputs[2]["properties"]["result"]["type"], "array");
    // Serving keeps the sharing: one tolerant schema for both.
    let config = unreachable_api_config();
    let defs = generated.tool_defs::<()>(&config).unwrap();
    let served = |i: usize| defs[i].tool().output_schema.clone().unwrap();
    assert!(served(0).ptr_eq(&served(1)));
    assert_eq!(
        *served(0),
        mcp_openapi::call::tolerant_output_schema(outputs[0])
    );
}
