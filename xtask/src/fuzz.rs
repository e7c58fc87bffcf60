//! `cargo xtask fuzz [SECS] [TARGET]...`: seeds the corpora, builds the fuzz
//! package (`fuzz/`, outside the workspace: nightly, AddressSanitizer, its
//! own target directory) and runs each target for SECS seconds.
//!
//! - `cargo xtask fuzz seed DIR`: writes only the seeds, one folder per
//!   target (what a long campaign starts its corpora from).
//! - `cargo xtask fuzz build`: builds the targets only.
//! - `cargo xtask fuzz hours`: the CPU hours run so far, per target (from
//!   the ledger, below).
//! - `cargo xtask fuzz --dev [SECS]`: what CI runs (see below).
//!
//! CI runs each target for [`CI_SECONDS`] from a development build
//! (unoptimized, so it builds in a fraction of the time: only the smoke
//! test's speed suffers); longer runs use the optimized build.
//!
//! Everything lives under `target/fuzz/`: `build/` (the target directory),
//! `corpus/<target>/` (kept between runs, so coverage accumulates),
//! `artifacts/<target>/` (an input that crashed, hung or ran out of memory;
//! the run then fails, naming it) and `hours.tsv`, the ledger of the CPU
//! time each run took, which `cargo xtask fuzz hours` sums per target. A
//! found input becomes a regression test next to the code it broke.

mod ledger;
mod seeds;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use crate::run;

/// The cargo-fuzz release `cargo xtask fuzz` installs when it is missing.
const CARGO_FUZZ_VERSION: &str = "0.13.2";

/// Every target of the fuzz package, with the longest input it is given.
pub(crate) const TARGETS: [(&str, usize); 8] = [
    ("openapi", 64 * 1024),
    ("modes", 64 * 1024),
    ("overlay", 16 * 1024),
    ("transform", 8 * 1024),
    ("route_map", 4 * 1024),
    ("uri_template", 1024),
    ("stdio", 16 * 1024),
    ("http_body", 16 * 1024),
];

/// What CI runs each target for, in seconds.
pub(crate) const CI_SECONDS: u64 = 10;

/// How the fuzz targets are compiled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Build {
    /// Unoptimized: quick to build, for short runs.
    Dev,
    /// Optimized (with debug assertions): for long runs.
    Release,
}

impl Build {
    /// The profile's folder in the target directory.
    fn folder(self) -> &'static str {
        match self {
            Self::Dev => "debug",
            Self::Release => "release",
        }
    }
}

/// `cargo xtask fuzz ...` with the arguments after `fuzz`.
pub(crate) fn task(root: &Path, args: &[String]) -> Result<(), String> {
    match args.first().map(String::as_str) {
        Some("seed") => {
            let dir = args.get(1).ok_or("usage: cargo xtask fuzz seed DIR")?;
            seeds::write_all(root, Path::new(dir))
        }
        Some("build") => {
            install_cargo_fuzz(root)?;
            build(root, Build::Release)
        }
        Some("hours") => {
            let hours = ledger::summary(&fuzz_dir(root))?;
            println!("{hours}");
            Ok(())
        }
        Some("--dev") => {
            let seconds = args.get(1).map_or(Ok(CI_SECONDS), |secs| {
                secs.parse()
                    .map_err(|_| format!("`{secs}` is not a number of seconds"))
            })?;
            run_targets(root, Build::Dev, seconds, &[])
        }
        _ => {
            let seconds = match args.first() {
                Some(secs) => secs
                    .parse()
                    .map_err(|_| format!("`{secs}` is not a number of seconds"))?,
                None => 60,
            };
            let chosen: Vec<&str> = args.iter().skip(1).map(String::as_str).collect();
            run_targets(root, Build::Release, seconds, &chosen)
        }
    }
}

/// Seeds, builds and runs every target (or those `chosen`) for `seconds`
/// each; fails on the first target that finds a crash.
pub(crate) fn run_targets(
    root: &Path,
    profile: Build,
    seconds: u64,
    chosen: &[&str],
) -> Result<(), String> {
    for name in chosen {
        if !TARGETS.iter().any(|(target, _)| target == name) {
            return Err(format!("no fuzz target `{name}`; targets: {}", names()));
        }
    }
    install_cargo_fuzz(root)?;
    let started = Instant::now();
    build(root, profile)?;
    eprintln!(
        "xtask fuzz: built the targets in {:.0} s",
        started.elapsed().as_secs_f64()
    );
    let corpus_root = fuzz_dir(root).join("corpus");
    seeds::write_all(root, &corpus_root)?;
    let mut report = Vec::new();
    for (name, max_len) in TARGETS {
        if !chosen.is_empty() && !chosen.contains(&name) {
            continue;
        }
        let artifacts = fuzz_dir(root).join("artifacts").join(name);
        fs::create_dir_all(&artifacts)
            .map_err(|e| format!("cannot create {}: {e}", artifacts.display()))?;
        let started = Instant::now();
        let cpu_before = ledger::children_cpu_seconds();
        let outcome = run(Command::new(binary(root, profile, name))
            .arg(corpus_root.join(name))
            .arg(format!("-max_total_time={seconds}"))
            .arg(format!("-max_len={max_len}"))
            .args(["-timeout=10", "-rss_limit_mb=2048", "-print_final_stats=1"])
            .arg(format!("-artifact_prefix={}/", artifacts.display()))
            .current_dir(root));
        let cpu = ledger::children_cpu_seconds() - cpu_before;
        let wall = started.elapsed().as_secs_f64();
        ledger::record(&fuzz_dir(root), name, profile, cpu, wall)?;
        if let Err(why) = outcome {
            return Err(format!(
                "fuzz target `{name}` found an input that fails ({why}); it is in {}",
                artifacts.display()
            ));
        }
        report.push(format!("{name}: {wall:.0} s ({cpu:.0} s of CPU), no crash"));
    }
    eprintln!("xtask fuzz: {}", report.join("; "));
    Ok(())
}

/// Builds every target with `cargo +nightly fuzz build` (with debug
/// assertions and AddressSanitizer) into `target/fuzz/build`.
fn build(root: &Path, profile: Build) -> Result<(), String> {
    let mut command = Command::new("cargo");
    command.args(["+nightly", "fuzz", "build"]);
    if profile == Build::Dev {
        command.arg("--dev");
    }
    run(command
        .arg("--fuzz-dir")
        .arg(root.join("fuzz"))
        .arg("--target-dir")
        .arg(fuzz_dir(root).join("build"))
        .current_dir(root.join("fuzz"))
        .env_remove("RUSTUP_TOOLCHAIN")
        .env_remove("CARGO"))
}

/// Installs the pinned cargo-fuzz unless `cargo fuzz` is that version.
fn install_cargo_fuzz(root: &Path) -> Result<(), String> {
    let installed = Command::new("cargo")
        .args(["fuzz", "--version"])
        .current_dir(root)
        .output()
        .ok()
        .filter(|output| output.status.success())
        .map(|output| String::from_utf8_lossy(&output.stdout).into_owned());
    if installed.is_some_and(|version| version.contains(CARGO_FUZZ_VERSION)) {
        return Ok(());
    }
    run(Command::new("cargo")
        .args(["install", "cargo-fuzz", "--locked", "--version"])
        .arg(CARGO_FUZZ_VERSION)
        .current_dir(root))
}

/// The built binary of target `name` (cargo-fuzz builds for the host's
/// triple; libFuzzer runs on Linux).
fn binary(root: &Path, profile: Build, name: &str) -> PathBuf {
    let triple = format!("{}-unknown-linux-gnu", std::env::consts::ARCH);
    fuzz_dir(root)
        .join("build")
        .join(triple)
        .join(profile.folder())
        .join(name)
}

/// `target/fuzz`.
fn fuzz_dir(root: &Path) -> PathBuf {
    root.join("target/fuzz")
}

/// The targets' names, comma-separated.
fn names() -> String {
    TARGETS.map(|(name, _)| name).join(", ")
}
