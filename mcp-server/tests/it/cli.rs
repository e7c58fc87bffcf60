//! The `mcp-server` command line contract.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const PETSTORE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src/cli/petstore.yaml");

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
        "--watch",
        "SIGHUP",
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

/// Sends SIGTERM and expects a successful exit within 20 seconds.
fn stops_cleanly_on_sigterm(child: &mut std::process::Child) {
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Some(status) = child.try_wait().expect("pollable") {
            assert!(status.success(), "the demo exited with {status} on SIGTERM");
            break;
        }
        assert!(Instant::now() < deadline, "the demo ignored SIGTERM");
        std::thread::sleep(Duration::from_millis(50));
    }
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
