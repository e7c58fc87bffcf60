//! `cargo xtask soak [SECS]`: mixed calls over HTTP against the release
//! `mcp-server demo` on loopback for SECS seconds (600 by default), its RSS
//! sampled every 5 s (the ignored test
//! `session_flood::soak::soak_of_the_release_binary`), and its table as a
//! section of `BENCHMARKS.md`.

use std::fs;
use std::path::Path;

use crate::{benchmarks_md, cargo, load};

/// The heading of the section this task writes.
pub(crate) const SECTION: &str = "## Soak: mixed calls over HTTP";

/// Runs the soak for the seconds `args` names (600 by default;
/// `MCP_SOAK_CLIENTS` passes through) and writes its section.
pub(crate) fn run(root: &Path, args: &[String]) -> Result<(), String> {
    let seconds: u64 = match args.first() {
        None => 600,
        Some(arg) => arg
            .parse()
            .map_err(|_| format!("usage: cargo xtask soak [SECS] (`{arg}` is not seconds)"))?,
    };
    let report = root.join("target/load/soak.md");
    if let Some(dir) = report.parent() {
        fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let _ = fs::remove_file(&report);
    let envs = vec![
        load::release_binary(root)?,
        ("MCP_SOAK_SECONDS".to_owned(), seconds.to_string()),
        (
            "MCP_SOAK_REPORT".to_owned(),
            report.to_string_lossy().into_owned(),
        ),
    ];
    let ran = cargo(
        root,
        &[
            "test",
            "-p",
            "mcp-server",
            "--test",
            "it",
            "--",
            "session_flood::soak::soak_of_the_release_binary",
            "--exact",
            "--ignored",
            "--nocapture",
        ],
        &envs,
    );
    // A run whose figures miss the target still writes them.
    let table = fs::read_to_string(&report).map_err(|e| {
        let failed = ran.clone().err().unwrap_or_default();
        format!(
            "the soak run wrote no table at {}: {e} {failed}",
            report.display()
        )
    })?;
    let clients = std::env::var("MCP_SOAK_CLIENTS").unwrap_or_else(|_| "8".to_owned());
    let text = format!(
        "{SECTION}\n\n\
         Made by `cargo xtask soak {seconds}`: the release build of `mcp-server demo` on loopback\n\
         with its defaults, the clients in one process on the same 2 cores (shared with other work).\n\
         {clients} steady clients each hold a session and call the demo's tools in turn (`add`,\n\
         `countdown` from 3, `listPets`, `showPetById`), every 20th request a `tools/list`, checking\n\
         every answer; 2 churning clients open a session, make three such requests and end it with\n\
         `DELETE`, and every tenth time abandon a session right after `initialize` instead (ended by\n\
         the server after the 60 s grace for never-used sessions). RSS is read from `/proc` every\n\
         5 s: idle before the load, at start (once the load has run a fifth of the time, at most\n\
         90 s: past the 60 s grace, so the abandoned sessions have reached their steady number),\n\
         in the middle and at the end; the target is RSS flat within 10 % of the start and no error.\n\n{table}\n"
    );
    benchmarks_md::write_section(root, SECTION, &text)?;
    print!("{text}");
    ran
}
