//! End to end against a real mock of the API: Stoplight Prism
//! (`@stoplight/prism-cli@5.14.2`) serves a corpus document on 127.0.0.1
//! with `--errors`, so any request that violates the document comes back
//! as 401/400/422 (Prism's `sl-violations`) and the tool result is an error.
//! Violations Prism finds in the *responses* it makes from the document's
//! own examples (GitHub's examples do not always match its schemas) come
//! back as 500 with only `response` locations: those are not request
//! violations and are tolerated.
//!
//! Prism is found through `MCP_PRISM`, else at
//! `target/peers/node_modules/.bin/prism` (installed by `.ci/run`); without
//! it these tests fail with the install command.

use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use mcp_core::ToolDef;
use mcp_openapi::{
    ClientConfig, OpenApi,
    call::{Credential, Credentials, HttpToolHandler, Secret, SecurityScheme, SecuritySchemes},
};
use serde_json::{Value, json};

use crate::sample_args::sample_arguments;

fn prism_binary() -> PathBuf {
    if let Some(path) = std::env::var_os("MCP_PRISM") {
        return PathBuf::from(path);
    }
    let default =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/peers/node_modules/.bin/prism");
    assert!(
        default.exists(),
        "Prism is missing: set MCP_PRISM or install it with \
         `mkdir -p target/peers && cd target/peers && npm install --no-audit --no-fund @stoplight/prism-cli@5.14.2` \
         (looked for {})",
        default.display()
    );
    default
}

/// A running `prism mock`, killed on drop.
struct Prism {
    child: Child,
    base: String,
}

impl Drop for Prism {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start_prism(document: &PathBuf) -> Prism {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let log = std::env::temp_dir().join(format!("prism-{port}.log"));
    let child = Command::new(prism_binary())
        .args([
            "mock",
            "--errors",
            "-h",
            "127.0.0.1",
            "-p",
            &port.to_string(),
        ])
        .arg(document)
        .stdin(Stdio::null())
        .stdout(
            std::fs::File::create(&log)
                .map(Stdio::from)
                .unwrap_or_else(|_| Stdio::null()),
        )
        .stderr(Stdio::null())
        .spawn()
        .expect("prism starts");
    let mut prism = Prism {
        child,
        base: format!("http://127.0.0.1:{port}"),
    };
    let started = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        if let Ok(Some(status)) = prism.child.try_wait() {
            panic!("prism exited with {status}; see {}", log.display());
        }
        assert!(
            started.elapsed() < Duration::from_secs(180),
            "prism did not start within 180 s; see {}",
            log.display()
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    prism
}

/// Credentials for every scheme of the document (Prism checks presence).
fn dummy_credentials(schemes: &SecuritySchemes) -> Credentials {
    let mut credentials = Credentials::new();
    for (name, scheme) in schemes.iter() {
        let credential = match scheme {
            SecurityScheme::ApiKey { .. } => Credential::ApiKey(Secret::new("test-api-key")),
            SecurityScheme::Basic => Credential::Basic {
                username: "user".to_owned(),
                password: Secret::new("password"),
            },
            _ => Credential::Bearer(Secret::new("test-token")),
        };
        credentials.insert(name, credential);
    }
    credentials
}

/// Whether an error result is Prism's `--errors` report of violations found
/// only in the *response* it generated from the document's own examples
/// (the document's problem, not the request's): a 500 whose `validation`
/// entries all have a `response` location.
fn only_response_violations(structured: Option<&Value>) -> bool {
    let Some(body) = structured
        .filter(|s| s["status"] == 500)
        .map(|s| &s["body"])
    else {
        return false;
    };
    let violations = body["validation"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    body["type"]
        .as_str()
        .is_some_and(|t| t.ends_with("#VIOLATIONS"))
        && !violations.is_empty()
        && violations.iter().all(|v| v["location"][0] == "response")
}

/// Calls every generated tool whose operation id `select` accepts through
/// Prism; gives the failures and the number of calls.
/// Besides the calls, a negative control: `control` names an operation and
/// arguments that break the document; it is sent with local validation
/// switched off and must come back as a request violation (`true`), which
/// shows that the check above can fail.
async fn call_all(
    document: &str,
    select: impl Fn(&str) -> bool,
    control: (&str, Value),
) -> (Vec<String>, usize, bool) {
    let path = crate::corpus(document);
    let api = OpenApi::from_path(&path).expect("the document loads");
    let generated = api.generator().generate().expect("tools generate");
    let prism = start_prism(&path);
    let schemes =
        SecuritySchemes::from_components(&api.security_schemes()).expect("security schemes");
    let config = ClientConfig::builder()
        .base_url(&prism.base)
        .credentials(dummy_credentials(&schemes))
        .security_schemes(schemes)
        .build()
        .expect("config");
    let config = Arc::new(config);
    let mut failures = Vec::new();
    let mut calls = 0;
    let mut flagged = false;
    for generated in generated.tools {
        if generated.route.operation_id.as_deref() == Some(control.0) {
            let handler = HttpToolHandler::new(
                generated.route.clone(),
                generated.binding.clone(),
                config.clone(),
            );
            let unchecked: ToolDef = ToolDef::new(generated.tool.clone(), handler)
                .expect("tool def")
                .map_tool(|t| t.input_schema = serde_json::Map::new().into());
            let result = unchecked.call_detached(control.1.clone()).await;
            let text = result.text_content();
            flagged = result.is_error()
                && ["400", "401", "422"]
                    .iter()
                    .any(|s| text.starts_with(&format!("the upstream API answered {s} ")))
                && !only_response_violations(result.structured_content.as_ref());
        }
        if !generated.route.operation_id.as_deref().is_some_and(&select) {
            continue;
        }
        let name = generated.tool.name.clone();
        let arguments = sample_arguments(&Value::Object((*generated.tool.input_schema).clone()));
        let tool: ToolDef = generated.tool_def(&config).expect("tool def");
        let result = tool.call_detached(arguments.clone()).await;
        calls += 1;
        if result.is_error() {
            if only_response_violations(result.structured_content.as_ref()) {
                eprintln!("{name}: Prism found its own example response invalid (tolerated)");
            } else {
                failures.push(format!("{name} {arguments}: {}", result.text_content()));
            }
        }
    }
    drop(prism);
    (failures, calls, flagged)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_petstore_operation_passes_prism_validation() {
    let control = ("getPetById", json!({"petId": "not-a-number"}));
    let (failures, calls, flagged) = call_all("swagger-petstore3.yaml", |_| true, control).await;
    assert!(flagged, "Prism flags a request that breaks the document");
    assert!(
        failures.is_empty(),
        "Prism reported violations:\n{}",
        failures.join("\n")
    );
    assert_eq!(
        calls, 19,
        "every operation of the Petstore document was called"
    );
}

/// GitHub operations with path, query and body parameters (the document
/// has no header parameters; the Petstore test covers those).
const GITHUB: &[&str] = &[
    "meta/root",
    "rate-limit/get",
    "emojis/get",
    "users/get-by-username",
    "users/list",
    "orgs/get",
    "repos/get",
    "repos/list-for-org",
    "repos/list-branches",
    "repos/get-branch",
    "repos/list-commits",
    "repos/get-commit",
    "repos/list-tags",
    "repos/list-contributors",
    "repos/get-content",
    "issues/list-for-repo",
    "issues/get",
    "pulls/list",
    "pulls/get",
    "search/repos",
    "search/issues-and-pull-requests",
    "gists/list-public",
    "activity/list-repo-events",
    "git/get-ref",
    "git/get-tree",
    "markdown/render",
    "issues/create",
    "issues/update",
    "issues/create-comment",
    "repos/create-for-authenticated-user",
    "gists/create",
    "pulls/create",
    "git/create-ref",
    "reactions/create-for-issue",
    "repos/create-webhook",
    "issues/lock",
    "activity/star-repo-for-authenticated-user",
    "repos/delete",
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn github_operations_pass_prism_validation() {
    let control = ("search/repos", json!({"per_page": "many"}));
    let (failures, calls, flagged) = call_all(
        "github-api.github.com.json",
        |id| GITHUB.contains(&id),
        control,
    )
    .await;
    assert!(flagged, "Prism flags a request that breaks the document");
    assert!(
        failures.is_empty(),
        "Prism reported violations:\n{}",
        failures.join("\n")
    );
    assert_eq!(
        calls,
        GITHUB.len(),
        "every selected operation became a tool and was called"
    );
}
