//! The workspace's features for the third-party crates of a crate outside
//! it, so that a build of that crate in the shared `target/` reuses the
//! workspace's artifacts instead of compiling them again.
//!
//! Cargo compiles a crate once per set of features (and of its
//! dependencies' artifacts): a crate outside the workspace that asks for
//! fewer features of, say, `syn` or `tokio` than the workspace's union
//! gets its own copy of them and of everything built on them. A pin is a
//! dependency on such a crate, at its locked version, with the workspace's
//! features: a normal dependency where the crate is compiled for the
//! target, a build dependency where it is compiled for the host (proc
//! macros, build scripts). The pinned crates are found by resolving the
//! outside crate, pinning what differs, and resolving again until nothing
//! does. Workspace packages and the crates named in `UNPINNED` keep the
//! features the outside crate asks for: those are what it checks.

use std::collections::{BTreeMap, BTreeSet};
use std::env;
use std::path::Path;
use std::process::Command;

use serde_json::Value;

use crate::stdout_of;

/// Third-party crates left with the features the outside crate asks for:
/// rmcp's features are chosen by `mcp-toolkit-server`'s, which the outside
/// crate is there to check.
const UNPINNED: &[&str] = &["rmcp"];

/// How many times the outside crate is resolved at most.
const ROUNDS: usize = 8;

/// A third-party crate at one version, as `name@version`.
type PackageId = String;

/// What cargo resolves for a manifest on this machine's platform.
struct Resolution {
    /// The features of each third-party crate.
    features: BTreeMap<PackageId, Vec<String>>,
    /// Whether each is compiled for the target, the host, or both.
    compiled_for: BTreeMap<PackageId, CompiledFor>,
}

/// Where a crate is compiled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct CompiledFor {
    /// As a dependency of the program (normal and dev dependencies).
    pub(crate) target: bool,
    /// As a dependency of a proc macro or a build script.
    pub(crate) host: bool,
}

/// One pinned crate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Pin {
    /// The crate's name.
    pub(crate) name: String,
    /// Its exact version.
    pub(crate) version: String,
    /// The workspace's features of it.
    pub(crate) features: Vec<String>,
    /// Where the outside crate compiles it.
    pub(crate) compiled_for: CompiledFor,
}

/// The pins of the crate whose manifest `write` writes (given the pins so
/// far) in `dir`, next to a copy of the workspace's lock file at `root`.
pub(crate) fn find(
    root: &Path,
    dir: &Path,
    mut write: impl FnMut(&[Pin]) -> Result<(), String>,
) -> Result<Vec<Pin>, String> {
    let platform = host_platform()?;
    let workspace = resolve(root, &platform)?;
    let mut pins: Vec<Pin> = Vec::new();
    for _ in 0..ROUNDS {
        write(&pins)?;
        let outside = resolve(dir, &platform)?;
        let mut found = Vec::new();
        for (id, features) in &outside.features {
            let Some(wanted) = workspace.features.get(id) else {
                continue;
            };
            let (name, version) = id.split_once('@').unwrap_or((id, ""));
            if wanted == features || UNPINNED.contains(&name) {
                continue;
            }
            found.push(Pin {
                name: name.to_owned(),
                version: version.to_owned(),
                features: wanted.clone(),
                compiled_for: outside.compiled_for.get(id).copied().unwrap_or_default(),
            });
        }
        if found.is_empty() {
            return Ok(pins);
        }
        for pin in found {
            match pins
                .iter_mut()
                .find(|p| p.name == pin.name && p.version == pin.version)
            {
                Some(known) => known.compiled_for = pin.compiled_for,
                None => pins.push(pin),
            }
        }
    }
    Err(format!(
        "the features of {} still differ from the workspace's after {ROUNDS} rounds",
        dir.display()
    ))
}

/// `cargo metadata` of the manifest in `dir`, for `platform`.
fn resolve(dir: &Path, platform: &str) -> Result<Resolution, String> {
    let cargo = env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .args([
            "metadata",
            "--format-version",
            "1",
            "--filter-platform",
            platform,
        ])
        .current_dir(dir);
    let metadata: Value = serde_json::from_str(&stdout_of(&mut command)?)
        .map_err(|e| format!("cannot read `cargo metadata` of {}: {e}", dir.display()))?;
    Ok(resolution(&metadata))
}

/// The platform rustc compiles for by default.
fn host_platform() -> Result<String, String> {
    let rustc = env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = stdout_of(Command::new(rustc).arg("-vV"))?;
    version
        .lines()
        .find_map(|line| line.strip_prefix("host: "))
        .map(str::to_owned)
        .ok_or_else(|| "`rustc -vV` names no host".to_owned())
}

/// The registry crates of `cargo metadata`'s resolution, with their
/// features and where they are compiled (everything a proc macro or a
/// build script depends on is compiled for the host).
fn resolution(metadata: &Value) -> Resolution {
    let text = |value: &Value| value.as_str().unwrap_or_default().to_owned();
    let proc_macros: BTreeSet<String> = list(&metadata["packages"])
        .filter(|package| {
            list(&package["targets"])
                .any(|target| list(&target["kind"]).any(|kind| kind == "proc-macro"))
        })
        .map(|package| text(&package["id"]))
        .collect();
    let nodes: BTreeMap<String, &Value> = list(&metadata["resolve"]["nodes"])
        .map(|node| (text(&node["id"]), node))
        .collect();
    let mut reached: BTreeMap<String, CompiledFor> = BTreeMap::new();
    let mut stack = vec![(text(&metadata["resolve"]["root"]), false)];
    while let Some((id, for_host)) = stack.pop() {
        let seen = reached.entry(id.clone()).or_default();
        let flag = if for_host {
            &mut seen.host
        } else {
            &mut seen.target
        };
        if *flag {
            continue;
        }
        *flag = true;
        let Some(node) = nodes.get(&id) else { continue };
        for dep in list(&node["deps"]) {
            let child = text(&dep["pkg"]);
            for kind in list(&dep["dep_kinds"]) {
                let build = kind["kind"] == "build";
                stack.push((
                    child.clone(),
                    for_host || build || proc_macros.contains(&child),
                ));
            }
        }
    }
    let mut resolution = Resolution {
        features: BTreeMap::new(),
        compiled_for: BTreeMap::new(),
    };
    for (id, node) in &nodes {
        let Some(package) = id
            .strip_prefix("registry+")
            .and_then(|rest| rest.rsplit_once('#'))
            .map(|(_, package)| package.to_owned())
        else {
            continue;
        };
        let features = list(&node["features"]).map(text).collect();
        resolution.features.insert(package.clone(), features);
        if let Some(compiled_for) = reached.get(id) {
            resolution.compiled_for.insert(package, *compiled_for);
        }
    }
    resolution
}

fn list(value: &Value) -> impl Iterator<Item = &Value> {
    value.as_array().into_iter().flatten()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn host_crates_are_those_of_proc_macros_and_build_scripts() {
        let registry = |name: &str| format!("registry+https://example.invalid/index#{name}@1.0.0");
        let dep =
            |name: &str, kind: Value| json!({"pkg": registry(name), "dep_kinds": [{"kind": kind}]});
        let metadata = json!({
            "packages": [
                {"id": registry("derive"), "targets": [{"kind": ["proc-macro"]}]},
                {"id": registry("syn"), "targets": [{"kind": ["lib"]}]},
                {"id": registry("tokio"), "targets": [{"kind": ["lib"]}]},
                {"id": registry("cc"), "targets": [{"kind": ["lib"]}]}
            ],
            "resolve": {
                "root": "path+file:///app#0.0.0",
                "nodes": [
                    {"id": "path+file:///app#0.0.0", "features": [], "deps": [
                        dep("derive", Value::Null), dep("tokio", Value::Null), dep("syn", json!("dev"))
                    ]},
                    {"id": registry("derive"), "features": [], "deps": [dep("syn", Value::Null)]},
                    {"id": registry("syn"), "features": ["full"], "deps": []},
                    {"id": registry("tokio"), "features": ["rt"], "deps": [dep("cc", json!("build"))]},
                    {"id": registry("cc"), "features": [], "deps": []}
                ]
            }
        });
        let resolved = resolution(&metadata);
        let both = CompiledFor {
            target: true,
            host: true,
        };
        let host = CompiledFor {
            target: false,
            host: true,
        };
        let target = CompiledFor {
            target: true,
            host: false,
        };
        assert_eq!(resolved.compiled_for["syn@1.0.0"], both);
        assert_eq!(resolved.compiled_for["derive@1.0.0"], host);
        assert_eq!(resolved.compiled_for["cc@1.0.0"], host);
        assert_eq!(resolved.compiled_for["tokio@1.0.0"], target);
        assert_eq!(resolved.features["syn@1.0.0"], ["full"]);
        assert!(!resolved.features.contains_key("0.0.0"));
    }
}
