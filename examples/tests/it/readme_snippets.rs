//! The client snippets of `examples/README.md`, run as written with the
//! official Python SDK (`mcp==2.3.0`) against the example each names: the
//! stdio binary path (`target/debug/<example>`) is pointed at the binary
//! Cargo built, the HTTP URL (`http://127.0.0.1:8000/mcp`) at an
//! `everything` server started on a free port. What a snippet prints must
//! equal the `text` block after it.
//!
//! Python comes from `MCP_E2E_PYTHON`, else the venv `cargo xtask peers`
//! creates at `target/peers/venv`. A missing interpreter fails the test.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The URL the README's HTTP snippets connect to.
const README_URL: &str = "http://127.0.0.1:8000/mcp";
/// The prefix of the README's stdio binary paths.
const README_BINARY: &str = "target/debug/";

/// A fenced Python block and the output block that follows it.
#[derive(Debug)]
struct Snippet {
    code: String,
    prints: String,
}

/// The `python` blocks of `markdown`, each with the next `text` block.
fn snippets(markdown: &str) -> Vec<Snippet> {
    let mut found = Vec::new();
    let mut lines = markdown.lines();
    let mut code: Option<String> = None;
    while let Some(line) = lines.next() {
        let fence = line.trim_end();
        if fence == "```python" || fence == "```text" {
            let mut block = String::new();
            for inner in lines.by_ref() {
                if inner.trim_end() == "```" {
                    break;
                }
                block.push_str(inner);
                block.push('\n');
            }
            match (fence, code.take()) {
                ("```python", previous) => {
                    assert!(
                        previous.is_none(),
                        "a python block without output:\n{previous:?}"
                    );
                    code = Some(block);
                }
                (_, Some(code)) => found.push(Snippet {
                    code,
                    prints: block,
                }),
                (_, None) => {}
            }
        }
    }
    assert!(code.is_none(), "the last python block has no output block");
    found
}

fn python() -> PathBuf {
    if let Some(path) = std::env::var_os("MCP_E2E_PYTHON") {
        return PathBuf::from(path);
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/peers/venv/bin/python")
}

/// The binary Cargo built for the example `name`.
fn example_binary(name: &str) -> &'static str {
    match name {
        "hello" => env!("CARGO_BIN_EXE_hello"),
        "builder" => env!("CARGO_BIN_EXE_builder"),
        "toolbox" => env!("CARGO_BIN_EXE_toolbox"),
        other => panic!("the README names `{README_BINARY}{other}`, which is not a stdio example"),
    }
}

/// An `everything` server on a free port, killed when dropped.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn start_everything() -> (Server, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_everything"))
        .args(["--bind", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start everything");
    let stdout = child.stdout.take().expect("piped stdout");
    let server = Server(child);
    let mut url = String::new();
    BufReader::new(stdout)
        .read_line(&mut url)
        .expect("the endpoint URL line");
    (server, url.trim().to_owned())
}

/// The snippet's code pointed at a running example (and the server to
/// keep alive while it runs).
fn pointed(code: &str) -> (String, Option<Server>) {
    if code.contains(README_URL) {
        let (server, url) = start_everything();
        return (code.replace(README_URL, &url), Some(server));
    }
    let start = code
        .find(README_BINARY)
        .unwrap_or_else(|| panic!("the snippet names no example:\n{code}"));
    let rest = &code[start + README_BINARY.len()..];
    let name: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    let path = example_binary(&name);
    (code.replace(&format!("{README_BINARY}{name}"), path), None)
}

/// Runs `code` with the SDK's Python; its stdout.
fn run(code: &str) -> String {
    let python = python();
    assert!(
        python.exists(),
        "the Python peer is missing at {}: run `cargo xtask peers`, or set MCP_E2E_PYTHON",
        python.display()
    );
    let mut child = Command::new(&python)
        .arg("-c")
        .arg(code)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python starts");
    let deadline = Instant::now() + Duration::from_secs(120);
    while child.try_wait().expect("the child can be polled").is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let output = child.wait_with_output().expect("python's output");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "the snippet failed ({}):\n{code}\n{stdout}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

#[test]
fn every_python_snippet_of_the_readme_runs_and_prints_what_it_says() {
    let readme = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"));
    let found = snippets(readme);
    assert!(
        found.len() >= 2,
        "expected the stdio and the HTTP snippet: {found:?}"
    );
    for snippet in found {
        let (code, _server) = pointed(&snippet.code);
        assert_eq!(run(&code), snippet.prints, "the snippet:\n{}", snippet.code);
    }
}

#[test]
fn snippets_pair_code_with_the_output_after_it() {
    let markdown =
        "x\n```python\nprint(1)\n```\n\nIt prints:\n\n```text\n1\n```\n```text\nlone\n```\n";
    let found = snippets(markdown);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].code, "print(1)\n");
    assert_eq!(found[0].prints, "1\n");
}
