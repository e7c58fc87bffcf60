//! `cargo xtask discovery [evaluation|ablation|tune]`: discovery mode's
//! ranking measured on the task sets in `testdata/discovery/` (the ignored
//! tests of `mcp-server/src/discovery/quality.rs`, slow in a debug build,
//! run here in release with their output printed): the recall tables by
//! default, the tuning of the weights when asked. `DISCOVERY_MISSES` and
//! `DISCOVERY_DOCUMENTS` pass through.

use std::path::Path;

/// The heading of the section of `BENCHMARKS.md` these measurements fill
/// (by hand, from their output), which `cargo xtask bench` keeps.
pub(crate) const SECTION: &str = "## Discovery per document and half";

use crate::cargo;

/// The measurements: recall per document and half, the same with each
/// signal off alone, and the coordinate ascent of the weights.
const MEASUREMENTS: &[&str] = &["evaluation", "ablation", "tune"];

/// What runs when no measurement is named.
const DEFAULT: &[&str] = &["evaluation", "ablation"];

/// Runs the measurements `names` (the recall tables when empty).
pub(crate) fn run(root: &Path, names: &[String]) -> Result<(), String> {
    if let Some(unknown) = names.iter().find(|n| !MEASUREMENTS.contains(&n.as_str())) {
        return Err(format!(
            "unknown measurement `{unknown}`; measurements: {}",
            MEASUREMENTS.join(", ")
        ));
    }
    let chosen: Vec<&str> = if names.is_empty() {
        DEFAULT.to_vec()
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
