//! The `mcp-server` command line contract.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::support::http::stops_cleanly_on_sigterm;

const PETSTORE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src/cli/petstore.yaml");
const OVERLAYS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/overlays");

fn mcp_server(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_mcp-server"))
        .args(args)
        .env("RUST_LOG", "off")
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs")
}

#[test]
fn help_names_every_subcommand_and_flag() {
    let help = mcp_server(&["--help"]);
    assert!(help.status.success());
    let text = String::from_utf8_lossy(&help.stdout);
    for word in ["serve", "tools", "routes", "demo"] {
        assert!(text.contains(word), "{text}");
    }
    let serve = String::from_utf8_lossy(&mcp_server(&["serve", "--help"]).stdout).into_owned();
    for flag in [
        "--openapi",
        "--base-url",
        "--header",
        "--route-map",
        "--transport",
        "--bind",
        "--stateless",
        "--auth-token",
        "MCP_SERVER_AUTH_TOKEN",
        "--overlay",
        "--transform",
        "--output-schema-budget",
        "--max-response-bytes",
        "--watch",
        "SIGHUP",
        "--discovery",
        "--pin",
        "--oauth-issuer",
        "--public-url",
        "--oauth-audience",
        "--oauth-scope",
        "--oauth-tool-scope",
        "--oauth-introspection",
        "--oauth-client-id",
        "--oauth-client-secret",
        "MCP_SERVER_OAUTH_CLIENT_SECRET",
    ] {
        assert!(
            serve.contains(flag),
            "`serve --help` lacks {flag}:\n{serve}"
        );
    }
}

#[test]
fn bad_input_is_one_clear_line_and_a_failure() {
    for args in [
        &["serve", "--bogus"][..],
        &["serve", "--transport", "carrier-pigeon"],
        &["serve", "--bind", "not-an-address"],
        &["serve", "--header", "no colon"],
        &["serve", "--openapi", "/definitely/missing.yaml"],
        &["serve", "--watch", "--openapi", "/definitely/missing.yaml"],
        &["tools", "--openapi", "/definitely/missing.yaml"],
        &["routes", "--openapi", "/definitely/missing.yaml"],
        &["tools", "--openapi", PETSTORE, "--openapi", PETSTORE],
        &["serve", "--openapi", PETSTORE, "--base-url", "not a url"],
        &[
            "serve",
            "--openapi",
            PETSTORE,
            "--route-map",
            "/definitely/missing.toml",
        ],
        &["tools", "--overlay", PETSTORE, "--openapi", PETSTORE],
        &["routes", "--overlay", PETSTORE, "--openapi", PETSTORE],
        &[
            "serve",
            "--openapi",
            PETSTORE,
            "--overlay",
            "/definitely/missing.yaml",
        ],
        &["tools", "--openapi", PETSTORE, "--overlay", PETSTORE],
        &[
            "tools",
            "--openapi",
            PETSTORE,
            "--output-schema-budget",
            "0",
        ],
        &[
            "tools",
            "--openapi",
            PETSTORE,
            "--output-schema-budget",
            "big",
        ],
    ] {
        let output = mcp_server(args);
        assert!(!output.status.success(), "{args:?} succeeded");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(
            stderr.trim_end().lines().count(),
            1,
            "{args:?} printed:\n{stderr}"
        );
        assert!(
            stderr.starts_with("mcp-server: "),
            "{args:?} printed:\n{stderr}"
        );
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert!(output.stdout.is_empty(), "{args:?} wrote to stdout");
    }
}

#[test]
fn demo_prints_the_endpoint_on_its_own_line_and_stops_on_sigterm() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mcp-server"))
        .args(["demo", "--bind", "127.0.0.1:0"])
        .env("RUST_LOG", "off")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the demo starts");
    let stdout = child.stdout.take().expect("piped stdout");
    let mut lines = BufReader::new(stdout).lines();
    let url = lines
        .by_ref()
        .map_while(Result::ok)
        .find(|line| line.starts_with("http://"))
        .expect("an endpoint line");
    let port = url
        .strip_prefix("http://127.0.0.1:")
        .and_then(|rest| rest.strip_suffix("/mcp"))
        .expect("http://127.0.0.1:PORT/mcp");
    assert!(port.parse::<u16>().is_ok(), "{url}");
    let listed: Vec<String> = lines
        .map_while(Result::ok)
        .take_while(|line| !line.contains("countdown"))
        .collect();
    assert!(
        listed
            .iter()
            .any(|line| line.trim_start().starts_with("add ")),
        "{listed:?}"
    );

    stops_cleanly_on_sigterm(&mut child);
}

#[test]
fn a_closed_stdout_does_not_stop_the_demo() {
    // A port that was free a moment ago: the banner that would name it goes nowhere.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free port")
        .port();
    let mut child = Command::new(env!("CARGO_BIN_EXE_mcp-server"))
        .args(["demo", "--bind", &format!("127.0.0.1:{port}")])
        .env("RUST_LOG", "off")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the demo starts");
    // Closing the read end makes every write to stdout fail (`| head -0`).
    drop(child.stdout.take());
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        if let Some(status) = child.try_wait().expect("pollable") {
            panic!("the demo exited with {status} before serving");
        }
        assert!(Instant::now() < deadline, "the demo never listened");
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        child.try_wait().expect("pollable").is_none(),
        "the demo stopped once its banner could not be printed"
    );
    stops_cleanly_on_sigterm(&mut child);
}

#[test]
fn tools_prints_what_tools_list_returns() {
    let output = mcp_server(&["tools", "--openapi", PETSTORE]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let tools: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON on stdout");
    insta::assert_json_snapshot!("petstore_tools", tools);
    let named = mcp_server(&["tools", "--openapi", &format!("pets={PETSTORE}")]);
    let named: serde_json::Value = serde_json::from_slice(&named.stdout).expect("JSON on stdout");
    let names: Vec<&str> = named["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["pets_listPets", "pets_createPets", "pets_showPetById"]
    );
}

#[test]
fn discovery_lists_the_meta_tools_and_the_pinned_ones() {
    let output = mcp_server(&[
        "tools",
        "--openapi",
        PETSTORE,
        "--discovery",
        "--pin",
        "listPets",
    ]);
    assert_eq!(
        tool_names(&output),
        ["search_tools", "call_tool", "listPets"]
    );
    let unknown = mcp_server(&[
        "tools",
        "--openapi",
        PETSTORE,
        "--discovery",
        "--pin",
        "listPet",
    ]);
    assert!(!unknown.status.success());
    let stderr = String::from_utf8_lossy(&unknown.stderr);
    assert!(
        stderr.contains("the pinned tool `listPet` is not hosted (closest: `listPets`"),
        "{stderr}"
    );
    let without = mcp_server(&["tools", "--openapi", PETSTORE, "--pin", "listPets"]);
    assert!(!without.status.success(), "--pin needs --discovery");
}

#[test]
fn duplicate_documents_name_both_sources() {
    let output = mcp_server(&["tools", "--openapi", PETSTORE, "--openapi", PETSTORE]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("duplicate tool `listPets`: defined by OpenAPI document")
            && stderr.contains("give one source a prefix"),
        "{stderr}"
    );
}

#[test]
fn routes_prints_one_route_a_line() {
    let output = mcp_server(&["routes", "--openapi", PETSTORE]);
    assert!(output.status.success());
    let text = String::from_utf8_lossy(&output.stdout);
    let routes: Vec<serde_json::Value> = text
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let summary: Vec<(String, String)> = routes
        .iter()
        .map(|r| {
            (
                r["method"].as_str().unwrap().to_owned(),
                r["path"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            ("GET".into(), "/pets".into()),
            ("POST".into(), "/pets".into()),
            ("GET".into(), "/pets/{petId}".into())
        ]
    );
}

fn tool_names(output: &std::process::Output) -> Vec<String> {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let tools: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON on stdout");
    tools["tools"]
        .as_array()
        .expect("a tools array")
        .iter()
        .map(|tool| tool["name"].as_str().expect("a name").to_owned())
        .collect()
}

#[test]
fn tools_applies_each_overlay_to_the_document_before_it() {
    let rename = format!("{OVERLAYS}/rename-pets.overlay.yaml");
    let output = mcp_server(&["tools", "--openapi", PETSTORE, "--overlay", &rename]);
    assert_eq!(
        tool_names(&output),
        ["list_pets", "createPets", "showPetById"]
    );

    let output = mcp_server(&[
        "tools",
        "--openapi",
        &format!("a={PETSTORE}"),
        "--openapi",
        &format!("b={PETSTORE}"),
        "--overlay",
        &rename,
    ]);
    assert_eq!(
        tool_names(&output),
        [
            "a_listPets",
            "a_createPets",
            "a_showPetById",
            "b_list_pets",
            "b_createPets",
            "b_showPetById"
        ]
    );
}

#[test]
fn routes_applies_the_overlays() {
    let rename = format!("{OVERLAYS}/rename-pets.overlay.yaml");
    let output = mcp_server(&["routes", "--openapi", PETSTORE, "--overlay", &rename]);
    assert!(output.status.success());
    let first: serde_json::Value =
        serde_json::from_slice(output.stdout.split(|b| *b == b'\n').next().expect("a line"))
            .expect("a JSON line");
    assert_eq!(first["operation_id"], "list_pets");
}

#[test]
fn an_unmatched_overlay_target_is_a_logged_warning() {
    let stale = format!("{OVERLAYS}/stale.overlay.yaml");
    for command in ["tools", "routes"] {
        let output = Command::new(env!("CARGO_BIN_EXE_mcp-server"))
            .args([command, "--openapi", PETSTORE, "--overlay", &stale])
            .env("RUST_LOG", "warn")
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .output()
            .expect("the binary runs");
        assert!(output.status.success(), "{command}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains(&format!(
                "{stale}#/actions/0/target: overlay action 0 (\"Rename the cats operation\"): \
                 target `$.paths['/cats'].get` matches nothing"
            )),
            "{command}: {stderr}"
        );
    }
}

#[test]
fn a_malformed_overlay_is_one_clear_line_and_a_failure() {
    let bad = format!("{OVERLAYS}/bad-target.overlay.yaml");
    for command in ["serve", "tools", "routes"] {
        let output = mcp_server(&[command, "--openapi", PETSTORE, "--overlay", &bad]);
        assert!(!output.status.success(), "{command} succeeded");
        assert!(output.stdout.is_empty(), "{command} wrote to stdout");
        assert_eq!(
            String::from_utf8_lossy(&output.stderr),
            format!(
                "mcp-server: {PETSTORE}: overlay `{bad}` at /actions/0/target: \
                 `$.paths['/pets'.get` is not a valid JSONPath (RFC 9535): \
                 at position 15, in long-hand segment, expected closing ']'\n"
            ),
            "{command}"
        );
    }
}

/// `mcp-server ARGS` as a child process, and an rmcp client connected to
/// it over its standard input and output.
async fn serve_over_stdio<I, S>(
    args: I,
) -> (
    tokio::process::Child,
    rmcp::service::RunningService<rmcp::RoleClient, ()>,
)
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    use rmcp::ServiceExt;

    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_mcp-server"))
        .args(args)
        .env("RUST_LOG", "off")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("the server starts");
    let io = (
        child.stdout.take().expect("piped stdout"),
        child.stdin.take().expect("piped stdin"),
    );
    let client = ().serve(io).await.expect("the client connects");
    (child, client)
}

#[tokio::test]
async fn serve_lists_the_tools_an_overlay_renamed() {
    let rename = format!("{OVERLAYS}/rename-pets.overlay.yaml");
    let (mut child, client) =
        serve_over_stdio(["serve", "--openapi", PETSTORE, "--overlay", &rename]).await;
    let tools = client.list_all_tools().await.expect("tools/list");
    let names: Vec<&str> = tools.iter().map(|tool| tool.name.as_ref()).collect();
    assert_eq!(names, ["list_pets", "createPets", "showPetById"]);
    client.cancel().await.expect("the session closes");
    let status = tokio::time::timeout(Duration::from_secs(20), child.wait())
        .await
        .expect("the server stops when stdin closes")
        .expect("an exit status");
    assert!(status.success(), "{status}");
}

#[tokio::test]
async fn discovery_describes_categories_with_the_documents_tags() {
    use rmcp::model::CallToolRequestParams;

    let flights = testdata::openapi("tags-example-3.2.yaml");
    let (_child, client) = serve_over_stdio([
        "serve".as_ref(),
        "--discovery".as_ref(),
        "--openapi".as_ref(),
        flights.as_os_str(),
    ])
    .await;
    let arguments = serde_json::json!({"categories": true});
    let result = client
        .call_tool(
            CallToolRequestParams::new("search_tools")
                .with_arguments(arguments.as_object().cloned().unwrap_or_default()),
        )
        .await
        .expect("search_tools answers");
    let listed = result.structured_content.expect("structured content");
    let described: Vec<(&str, &str)> = listed["categories"]
        .as_array()
        .expect("categories")
        .iter()
        .map(|category| {
            (
                category["name"].as_str().unwrap_or_default(),
                category["description"].as_str().unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(
        described,
        [
            ("delays", "Information about flight delays"),
            ("domestic", "Flights within a single country"),
            ("flights", "Core flight operations"),
            ("international", "Flights that cross country borders"),
        ]
    );
    client.cancel().await.expect("the session closes");
}

/// The same transformations of the Petstore tools, in TOML and in YAML.
const PETSTORE_TOML: &str = r#"
[tools.pets_listPets]
name = "list_pets"
description = "A few pets."
annotations = { title = "Pets", readOnlyHint = true }
meta = { "com.example/team" = "zoo" }

[tools.pets_listPets.arguments.limit]
rename = "count"
enum = [1, 2, 3]
default = 2

[tools.pets_listPets.result]
keep = ["name"]

[tools.pets_showPetById]
name = "show_pet"

[tools.pets_showPetById.arguments.petId]
hide = true
value = "7"
"#;

const PETSTORE_YAML: &str = r#"
tools:
  pets_listPets:
    name: list_pets
    description: A few pets.
    annotations: {title: Pets, readOnlyHint: true}
    meta: {com.example/team: zoo}
    arguments:
      limit: {rename: count, enum: [1, 2, 3], default: 2}
    result:
      keep: [name]
  pets_showPetById:
    name: show_pet
    arguments:
      petId: {hide: true, value: "7"}
"#;

/// Writes `text` to a file called `name` in a directory of this test run.
fn write_file(name: &str, text: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, text).expect("write the file");
    path.display().to_string()
}

fn tools_json(args: &[&str]) -> serde_json::Value {
    let output = mcp_server(args);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("JSON on stdout")
}

#[test]
fn transform_files_reshape_the_tools_after_prefixes() {
    let pets = format!("pets={PETSTORE}");
    let toml = write_file("petstore-transform.toml", PETSTORE_TOML);
    let yaml = write_file("petstore-transform.yaml", PETSTORE_YAML);
    let from_toml = tools_json(&["tools", "--openapi", &pets, "--transform", &toml]);
    let from_yaml = tools_json(&["tools", "--openapi", &pets, "--transform", &yaml]);
    assert_eq!(from_toml, from_yaml);
    let tools = from_toml["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["list_pets", "pets_createPets", "show_pet"]);
    assert_eq!(tools[2]["inputSchema"]["properties"], serde_json::json!({}));
    assert!(tools[2]["inputSchema"].get("required").is_none());
    insta::assert_json_snapshot!("petstore_transformed_tools", from_toml);
}

#[test]
fn transform_errors_name_the_file_the_tool_and_the_key() {
    let cases = [
        (
            "unknown-tool.toml",
            "[tools.listPetz]\nname = \"pets\"\n",
            "unknown-tool.toml: no tool is named `listPetz`",
        ),
        (
            "prefixed.toml",
            "[tools.listPets]\nname = \"pets\"\n",
            "prefixed.toml: no tool is named `listPets` (did you mean `pets_listPets`?)",
        ),
        (
            "unknown-argument.yaml",
            "tools:\n  pets_showPetById:\n    arguments:\n      id: {hide: true, value: \"7\"}\n",
            "unknown-argument.yaml: tool `pets_showPetById` has no argument `id` (its arguments: `petId`)",
        ),
        (
            "unknown-key.yaml",
            "tools:\n  pets_showPetById:\n    arguments:\n      petId: {hidden: true}\n",
            "unknown-key.yaml: tools.pets_showPetById.arguments.petId: unknown field `hidden`",
        ),
        (
            "no-value.toml",
            "[tools.pets_showPetById.arguments.petId]\nhide = true\n",
            "no-value.toml: tool `pets_showPetById`, argument `petId`: the tool requires this argument, so hiding it needs a `value`",
        ),
        (
            "syntax.toml",
            "[tools.pets_listPets\n",
            "syntax.toml: TOML syntax, line 1, column ",
        ),
        (
            "format.ini",
            "",
            "format.ini: the format is told by the extension",
        ),
    ];
    let pets = format!("pets={PETSTORE}");
    for (name, text, expected) in cases {
        let file = write_file(name, text);
        for command in ["tools", "serve"] {
            let output = mcp_server(&[command, "--openapi", &pets, "--transform", &file]);
            assert!(!output.status.success(), "{name} was accepted");
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
            assert!(
                stderr.starts_with("mcp-server: ") && stderr.contains(expected),
                "{stderr}\nexpected: {expected}"
            );
            assert!(output.stdout.is_empty(), "{name}: something was served");
        }
    }
}

/// A Petstore upstream on 127.0.0.1 that records the requests it gets.
async fn petstore_upstream(seen: Arc<Mutex<Vec<String>>>) -> String {
    use axum::extract::{OriginalUri, Path};
    use axum::{Json, routing::get};
    let record = move |uri: OriginalUri| {
        seen.lock().unwrap().push(uri.0.to_string());
    };
    let list = record.clone();
    let app = axum::Router::new()
        .route(
            "/pets",
            get(move |uri: OriginalUri| async move {
                list(uri);
                Json(serde_json::json!([
                    {"id": 1, "name": "Rex", "tag": "dog"},
                    {"id": 2, "name": "Tom", "tag": "cat"}
                ]))
            }),
        )
        .route(
            "/pets/{id}",
            get(move |uri: OriginalUri, Path(id): Path<i64>| async move {
                record(uri);
                Json(serde_json::json!({"id": id, "name": "Rex", "tag": "dog"}))
            }),
        );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind the upstream");
    let url = format!("http://{}", listener.local_addr().expect("local address"));
    tokio::spawn(async move { axum::serve(listener, app).await });
    url
}

#[tokio::test]
async fn served_transformed_tools_call_the_original_routes() {
    use rmcp::model::CallToolRequestParams;
    use serde_json::json;

    let seen = Arc::new(Mutex::new(Vec::new()));
    let base_url = petstore_upstream(seen.clone()).await;
    let transform = write_file("served-transform.toml", PETSTORE_TOML);
    let pets = format!("pets={PETSTORE}");
    let (_child, client) = serve_over_stdio([
        "serve",
        "--openapi",
        &pets,
        "--base-url",
        &base_url,
        "--transform",
        &transform,
    ])
    .await;
    let call = |name: &str, arguments: serde_json::Value| {
        let mut params = CallToolRequestParams::new(name.to_owned());
        params.arguments = arguments.as_object().cloned();
        client.call_tool(params)
    };

    let pet = call("show_pet", json!({})).await.expect("tools/call");
    assert_eq!(
        pet.structured_content,
        Some(json!({"id": 7, "name": "Rex", "tag": "dog"}))
    );
    let pets = call("list_pets", json!({})).await.expect("tools/call");
    assert_eq!(
        pets.structured_content,
        Some(json!({"result": [{"name": "Rex"}, {"name": "Tom"}]}))
    );
    assert_eq!(*seen.lock().unwrap(), ["/pets/7", "/pets?limit=2"]);

    let wrong = call("list_pets", json!({"count": 5}))
        .await
        .expect("tools/call");
    assert_eq!(wrong.is_error, Some(true));
    let text = format!("{:?}", wrong.content);
    assert!(text.contains("/count: 5 is not one of"), "{text}");
    let old = call("list_pets", json!({"limit": 1}))
        .await
        .expect("tools/call");
    let text = format!("{:?}", old.content);
    assert!(
        text.contains("/limit: unknown argument `limit`; it is called `count`"),
        "{text}"
    );
    assert_eq!(
        seen.lock().unwrap().len(),
        2,
        "refused calls never reach the API"
    );
    client.cancel().await.expect("close");
}

#[tokio::test]
async fn max_response_bytes_refuses_longer_answers() {
    use rmcp::model::CallToolRequestParams;

    let base_url = petstore_upstream(Arc::new(Mutex::new(Vec::new()))).await;
    let (_child, client) = serve_over_stdio([
        "serve",
        "--openapi",
        PETSTORE,
        "--base-url",
        &base_url,
        "--max-response-bytes",
        "64",
    ])
    .await;
    let call = |name: &str| client.call_tool(CallToolRequestParams::new(name.to_owned()));
    let list = call("listPets").await.expect("tools/call");
    assert_eq!(list.is_error, Some(true));
    let text = format!("{:?}", list.content);
    assert!(
        text.contains("the upstream response is larger than 64 bytes"),
        "{text}"
    );
    client.cancel().await.expect("close");
}

/// A document whose one operation answers with an expandable field (an ID
/// or a large `customer` object) and takes a body of `inputs` properties.
fn budget_document(inputs: usize) -> String {
    let padding = "x".repeat(4000);
    let body: serde_json::Map<String, serde_json::Value> = (0..inputs)
        .map(|index| {
            let schema = serde_json::json!({"type": "string", "description": format!("field {index} {padding}")});
            (format!("field{index}"), schema)
        })
        .collect();
    let document = serde_json::json!({
        "openapi": "3.0.3",
        "info": {"title": "Charges", "version": "1"},
        "paths": {"/charges": {"post": {
            "operationId": "createCharge",
            "requestBody": {"content": {"application/json": {"schema": {"type": "object", "properties": body}}}},
            "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {
                "type": "object",
                "required": ["customer"],
                "properties": {"customer": {"anyOf": [{"type": "string"}, {"$ref": "#/components/schemas/customer"}]}}
            }}}}}
        }}},
        "components": {"schemas": {"customer": {"type": "object", "description": "y".repeat(20_000), "properties": {"id": {"type": "string"}}}}}
    });
    write_file(&format!("budget-{inputs}.json"), &document.to_string())
}

#[test]
fn output_schema_budget_trims_output_schemas_unless_full() {
    let document = budget_document(1);
    let customer = |args: &[&str]| {
        let tools = tools_json(&[&["tools", "--openapi", document.as_str()][..], args].concat());
        let output = &tools["tools"][0]["outputSchema"];
        assert_eq!(
            output["anyOf"][0]["required"],
            serde_json::json!(["customer"])
        );
        (
            output["anyOf"][0]["properties"]["customer"].clone(),
            output.get("$defs").is_some(),
        )
    };
    let (whole, with_defs) = customer(&["--output-schema-budget", "full"]);
    assert!(with_defs);
    assert_eq!(whole["anyOf"][1]["$ref"], "#/$defs/customer");
    for args in [&["--output-schema-budget", "2k"][..], &[]] {
        let (trimmed, with_defs) = customer(args);
        assert!(!with_defs, "{args:?}");
        assert_eq!(
            trimmed["anyOf"],
            serde_json::json!([{"type": "string"}, {"type": "object"}]),
            "{args:?}"
        );
    }
    let (kept, _) = customer(&["--output-schema-budget", "64k"]);
    assert_eq!(kept, whole);
}

#[test]
fn tools_stats_names_the_tools_over_64_kib_by_their_input_schema() {
    let document = budget_document(20);
    let output = mcp_server(&["tools", "--stats", "--openapi", &document]);
    assert!(output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("tools over 65536 bytes: 1"), "{stderr}");
    assert!(
        stderr.contains("createCharge:") && stderr.contains("its input schema alone is larger"),
        "{stderr}"
    );
}
