//! Snapshot of the exact request every Petstore tool sends for sample
//! arguments: method, URL, headers and body (request building is pure).

use serde_json::{Value, json};

use crate::sample_args::sample_arguments;

#[test]
fn petstore_requests() {
    let path = crate::corpus("swagger-petstore3.yaml");
    let api = mcp_openapi::OpenApi::from_path(&path).expect("the document loads");
    let generated = api.generator().generate().expect("tools generate");
    let base = url::Url::parse("https://petstore3.example/api/v3").expect("base");
    let requests: Vec<Value> = generated
        .tools
        .iter()
        .map(|tool| {
            let arguments = sample_arguments(&Value::Object((*tool.tool.input_schema).clone()));
            let object = arguments.as_object().cloned().unwrap_or_default();
            match mcp_openapi::call::build_request(&tool.route, &tool.binding, &base, &object) {
                Ok(request) => json!({
                    "tool": tool.tool.name,
                    "arguments": arguments,
                    "method": request.method.as_str(),
                    "url": request.url.as_str(),
                    "headers": request.headers.iter().map(|(k, v)| format!("{k}: {}", v.to_str().unwrap_or("<binary>"))).collect::<Vec<_>>(),
                    "body": request.body.map(|b| String::from_utf8_lossy(&b).into_owned()),
                }),
                Err(error) => json!({"tool": tool.tool.name, "error": error.to_string()}),
            }
        })
        .collect();
    assert_eq!(requests.len(), 19);
    insta::assert_json_snapshot!(requests);
}
