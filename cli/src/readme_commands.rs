//! Every `mcp-server` command line the workspace README shows is one the CLI
//! accepts: the shell blocks (`mcp-server ...`, `cargo run -p mcp-server --
//! ...`, and `mcp-server` after another command such as `claude mcp add NAME
//! --` or `npx @modelcontextprotocol/inspector`) and the JSON client
//! configurations (`"command": "mcp-server"` with its `"args"`), parsed by
//! the real argument parser.

use std::path::Path;

use clap::Parser;
use clap::error::ErrorKind;
use serde_json::Value;

use crate::cli::Cli;

/// The fenced code blocks of `markdown`: info string and body.
fn code_blocks(markdown: &str) -> Vec<(String, String)> {
    let mut blocks = Vec::new();
    let mut open: Option<(String, String)> = None;
    for line in markdown.lines() {
        let trimmed = line.trim_start();
        match open.take() {
            None => {
                if let Some(info) = trimmed.strip_prefix("```") {
                    open = Some((info.trim().to_owned(), String::new()));
                }
            }
            Some((info, mut body)) => {
                if trimmed.starts_with("```") {
                    blocks.push((info, body));
                } else {
                    body.push_str(line);
                    body.push('\n');
                    open = Some((info, body));
                }
            }
        }
    }
    blocks
}

/// The words of one shell command line, quotes removed, up to a comment.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                word.extend(chars.by_ref().take_while(|&c| c != '\''));
            }
            '"' => {
                in_word = true;
                word.extend(chars.by_ref().take_while(|&c| c != '"'));
            }
            '#' if !in_word => break,
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

/// The arguments given to `mcp-server` in one shell command, if it runs it.
fn mcp_server_arguments(words: &[String]) -> Option<Vec<String>> {
    let at = words.iter().position(|word| word == "mcp-server")?;
    let start = if at > 0 && matches!(words[at - 1].as_str(), "-p" | "--package") {
        // `cargo run -p mcp-server -- ARGS`
        at + words[at..].iter().position(|word| word == "--")? + 1
    } else {
        at + 1
    };
    let arguments = words[start..]
        .iter()
        .take_while(|word| !matches!(word.as_str(), "|" | "||" | "&&" | ";" | "&" | ">" | "2>"))
        .cloned()
        .collect();
    Some(arguments)
}

/// Every `mcp-server` command line of the shell blocks of `markdown`.
fn shell_commands(markdown: &str) -> Vec<Vec<String>> {
    let mut commands = Vec::new();
    for (info, body) in code_blocks(markdown) {
        if !matches!(info.as_str(), "sh" | "bash" | "shell" | "console") {
            continue;
        }
        // Continued lines are one command.
        let joined = body.replace("\\\n", " ");
        for line in joined.lines() {
            if let Some(arguments) = mcp_server_arguments(&shell_words(line)) {
                commands.push(arguments);
            }
        }
    }
    commands
}

/// The `args` of every object whose `command` is `mcp-server`, anywhere in
/// `value`.
fn json_commands(value: &Value, commands: &mut Vec<Vec<String>>) {
    match value {
        Value::Object(object) => {
            let command = object.get("command").and_then(Value::as_str);
            if command.is_some_and(|command| command.rsplit('/').next() == Some("mcp-server")) {
                let arguments = object
                    .get("args")
                    .and_then(Value::as_array)
                    .map(|args| {
                        args.iter()
                            .map(|arg| arg.as_str().unwrap_or_default().to_owned())
                            .collect()
                    })
                    .unwrap_or_default();
                commands.push(arguments);
            }
            object
                .values()
                .for_each(|value| json_commands(value, commands));
        }
        Value::Array(items) => items.iter().for_each(|item| json_commands(item, commands)),
        _ => {}
    }
}

/// Every `mcp-server` command of the JSON blocks of `markdown`, which must
/// parse.
fn json_block_commands(markdown: &str) -> Vec<Vec<String>> {
    let mut commands = Vec::new();
    for (info, body) in code_blocks(markdown) {
        if info != "json" {
            continue;
        }
        let value: Value = serde_json::from_str(&body).unwrap_or_else(|error| {
            panic!("a README JSON block does not parse ({error}):\n{body}")
        });
        json_commands(&value, &mut commands);
    }
    commands
}

/// Why the CLI refuses `arguments`, if it does (help and version are fine).
fn refusal(arguments: &[String]) -> Option<String> {
    let argv = std::iter::once("mcp-server").chain(arguments.iter().map(String::as_str));
    match Cli::try_parse_from(argv) {
        Ok(_) => None,
        Err(error)
            if matches!(
                error.kind(),
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion
            ) =>
        {
            None
        }
        Err(error) => Some(format!(
            "`mcp-server {}`: {}",
            arguments.join(" "),
            error
                .render()
                .to_string()
                .lines()
                .next()
                .unwrap_or_default()
        )),
    }
}

fn readme() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the cli package is inside the workspace")
        .join("README.md");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn every_readme_command_line_parses() {
    let readme = readme();
    let shell = shell_commands(&readme);
    let json = json_block_commands(&readme);
    // The first screen's demo, the replicas and each client's set-up are there.
    assert!(
        shell.len() >= 15,
        "only {} shell commands found",
        shell.len()
    );
    assert!(json.len() >= 3, "only {} JSON commands found", json.len());
    assert!(shell.contains(&vec!["demo".to_owned()]));
    let refused: Vec<String> = shell
        .iter()
        .chain(&json)
        .filter_map(|a| refusal(a))
        .collect();
    assert!(
        refused.is_empty(),
        "README command lines the CLI refuses:\n{}",
        refused.join("\n")
    );
}

#[test]
fn readme_extraction_finds_each_form() {
    let markdown = r#"
```sh
cargo run --release -p mcp-server -- demo    # a comment
claude mcp add pets -- mcp-server serve --openapi 'my api.yaml' \
  --transport http
OTEL_SERVICE_NAME=x mcp-server tools --openapi a.json --stats | head
RUST_LOG=debug cargo run -p mcp-server -- routes --openapi a.json
npx @modelcontextprotocol/inspector --cli http://127.0.0.1:8000/mcp --method tools/list
cargo run -p examples --bin hello
```

```json
{"servers": {"a": {"command": "mcp-server", "args": ["serve", "--nope"]}, "b": {"url": "http://x/mcp"}}}
```
"#;
    let words = |list: &[&str]| list.iter().map(|w| (*w).to_owned()).collect::<Vec<_>>();
    assert_eq!(
        shell_commands(markdown),
        [
            words(&["demo"]),
            words(&["serve", "--openapi", "my api.yaml", "--transport", "http"]),
            words(&["tools", "--openapi", "a.json", "--stats"]),
            words(&["routes", "--openapi", "a.json"]),
        ]
    );
    let json = json_block_commands(markdown);
    assert_eq!(json, [words(&["serve", "--nope"])]);
    assert!(refusal(&json[0]).is_some_and(|why| why.contains("--nope")));
    assert_eq!(refusal(&words(&["--help"])), None);
}
