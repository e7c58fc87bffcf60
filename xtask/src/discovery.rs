//! `cargo xtask discovery [evaluation|ablation]`: discovery mode's ranking
//! measured on the task sets in `testdata/discovery/` (the ignored tests of
//! `mcp-server/src/discovery/quality.rs`, slow in a debug build, run here
//! in release with their tables printed). `DISCOVERY_MISSES` and
//! `DISCOVERY_DOCUMENTS` pass through.

use std::path::Path;

use crate::cargo;

/// The measurements: recall per document and half, and the same with each
/// signal off alone.
const MEASUREMENTS: &[&str] = &["evaluation", "ablation"];

/// Runs the measurements `names` (both when empty).
pub(crate) fn run(root: &Path, names: &[String]) -> Result<(), String> {
    if let Some(unknown) = names.iter().find(|n| !MEASUREMENTS.contains(&n.as_str())) {
        return Err(format!(
            "unknown measurement `{unknown}`; measurements: {}",
            MEASUREMENTS.join(", ")
        ));
    }
    let chosen: Vec<&str> = if names.is_empty() {
        MEASUREMENTS.to_vec()
    } else {
        names.iter().map(String::as_str).collect()
    };
    for name in chosen {
        let test = format!("discovery::quality::{name}");
        cargo(
            root,
            &[
                "test",
                "--release",
                "-p",
                "mcp-toolkit-server",
                "--features",
                "openapi",
                "--lib",
                "--",
                &test,
                "--exact",
                "--ignored",
                "--nocapture",
            ],
            &[],
        )?;
    }
    Ok(())
}
