//! `cargo xtask discovery [evaluation|ablation|tune|ceiling]`: discovery
//! mode's ranking measured on the task sets in `testdata/discovery/` (the
//! ignored tests of `mcp-server/src/discovery/quality.rs`, slow in a debug
//! build, run here in release with their output printed): the recall tables
//! by default; the tuning of the weights, or the ceiling of what any
//! setting of the signals reaches, when asked. `DISCOVERY_MISSES`,
//! `DISCOVERY_DOCUMENTS` and `DISCOVERY_CEILING_SETTINGS` pass through.

use std::path::Path;

/// The heading of the section of `BENCHMARKS.md` these measurements fill
/// (by hand, from their output), which `cargo xtask bench` keeps.
pub(crate) const SECTION: &str = "## Discovery per document and half";

use crate::cargo;

/// The measurements, and the ignored test of each (under
/// `discovery::quality::`): recall per document and half, the same with
/// each signal off alone, the coordinate ascent of the weights, and recall
/// with settings of the signals chosen by looking at the answers.
const MEASUREMENTS: &[(&str, &str)] = &[
    ("evaluation", "evaluation"),
    ("ablation", "ablation"),
    ("tune", "tune"),
    ("ceiling", "ceiling::ceiling"),
];

/// What runs when no measurement is named.
const DEFAULT: &[&str] = &["evaluation", "ablation"];

/// Runs the measurements `names` (the recall tables when empty).
pub(crate) fn run(root: &Path, names: &[String]) -> Result<(), String> {
    let chosen: Vec<&str> = if names.is_empty() {
        DEFAULT.to_vec()
    } else {
        names.iter().map(String::as_str).collect()
    };
    let tests = chosen
        .iter()
        .map(|name| {
            let known = MEASUREMENTS.iter().find(|(known, _)| known == name);
            known.map(|(_, test)| test).ok_or_else(|| {
                let known: Vec<&str> = MEASUREMENTS.iter().map(|(name, _)| *name).collect();
                format!(
                    "unknown measurement `{name}`; measurements: {}",
                    known.join(", ")
                )
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    for test in tests {
        let test = format!("discovery::quality::{test}");
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_measurement_is_refused_before_anything_runs() {
        let names = ["evaluation".to_owned(), "ceilling".to_owned()];
        let error = run(Path::new("/nonexistent"), &names).unwrap_err();
        assert_eq!(
            error,
            "unknown measurement `ceilling`; measurements: evaluation, ablation, tune, ceiling"
        );
    }
}
