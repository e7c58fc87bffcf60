//! The `mcp-server` command line contract.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

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
        &["tools", "--openapi", "/definitely/missing.yaml"],
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
