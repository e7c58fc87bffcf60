//! A caller may choose the body's media type when the operation offers
//! several with the same schema (`body_content_type`).

use mcp_openapi::{OpenApi, call::build_request};
use serde_json::{Value, json};

fn add_pet() -> mcp_openapi::GeneratedTool {
    let api = OpenApi::from_path(crate::corpus("swagger-petstore3.yaml")).unwrap();
    let generated = api.generator().generate().unwrap();
    generated
        .tools
        .into_iter()
        .find(|t| t.tool.name == "addPet")
        .expect("swagger-petstore3 has addPet")
}

fn request(
    arguments: Value,
) -> Result<mcp_openapi::call::PreparedRequest, mcp_openapi::call::CallError> {
    let tool = add_pet();
    let base = url::Url::parse("http://127.0.0.1:9/api/v3").unwrap();
    build_request(
        &tool.route,
        &tool.binding,
        &base,
        arguments.as_object().unwrap(),
    )
}

#[test]
fn the_choice_lists_same_schema_encodings_and_defaults_to_json() {
    let tool = add_pet();
    let property = &tool.tool.input_schema["properties"]["body_content_type"];
    // XML takes a differently shaped input (a document string), so it is not offered.
    assert_eq!(
        property["enum"],
        json!(["application/json", "application/x-www-form-urlencoded"])
    );
    assert_eq!(property["default"], "application/json");
    let required = tool.tool.input_schema["required"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(!required.contains(&json!("body_content_type")));
}

#[test]
fn the_request_follows_the_choice() {
    let pet = json!({"name": "Rex", "photoUrls": ["a"]});
    let mut as_json = pet.clone();
    as_json["body_content_type"] = json!("application/json");
    let sent = request(pet.clone()).unwrap();
    assert_eq!(sent.headers["content-type"], "application/json");
    assert_eq!(request(as_json).unwrap().body, sent.body);

    let mut as_form = pet.clone();
    as_form["body_content_type"] = json!("application/x-www-form-urlencoded");
    let sent = request(as_form).unwrap();
    assert_eq!(
        sent.headers["content-type"],
        "application/x-www-form-urlencoded"
    );
    let body = String::from_utf8(sent.body.unwrap()).unwrap();
    assert!(body.contains("name=Rex"), "{body}");
    assert!(!body.contains("body_content_type"), "{body}");
}

#[test]
fn a_media_type_the_operation_does_not_offer_is_refused() {
    let mut pet = json!({"name": "Rex", "photoUrls": []});
    pet["body_content_type"] = json!("text/csv");
    let error = request(pet).unwrap_err().to_string();
    assert!(error.contains("text/csv"), "{error}");
}
