//! `cargo xtask package`: the four library packages as crates.io would get
//! them, packaged together and verified (each `.crate` unpacked and built
//! against the others through cargo's temporary local registry), and each
//! under the size crates.io allows.
//!
//! Verification builds in the workspace's `target/` with the workspace's
//! `[profile.dev]` (passed as `--config`, since a packaged manifest carries
//! no profile), so it reuses what the tests compiled wherever the feature
//! sets agree.

use std::fs;
use std::path::Path;

use crate::cargo;

/// The published packages, in no particular order (cargo sorts them).
pub(crate) const PACKAGES: &[&str] = &[
    "mcp-toolkit-core",
    "mcp-toolkit-macros",
    "mcp-toolkit-openapi",
    "mcp-toolkit-server",
];

/// The most a compressed `.crate` may weigh: well under crates.io's 10 MB,
/// so test corpora and snapshots never slip in.
const MAX_CRATE_BYTES: u64 = 1024 * 1024;

/// Packages and verifies every published package; fails on one that does
/// not build from its `.crate` or is too large.
pub(crate) fn check(root: &Path) -> Result<(), String> {
    let mut args = vec![
        "package",
        // The files a package holds are chosen by `include`, not by git.
        "--allow-dirty",
        "--config",
        "profile.dev.debug=\"line-tables-only\"",
        "--config",
        "profile.dev.package.\"*\".debug=false",
    ];
    for package in PACKAGES {
        args.extend(["-p", package]);
    }
    cargo(root, &args, &[])?;
    let version = env!("CARGO_PKG_VERSION");
    let mut too_large = Vec::new();
    for package in PACKAGES {
        let path = root
            .join("target")
            .join("package")
            .join(format!("{package}-{version}.crate"));
        let bytes = fs::metadata(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?
            .len();
        eprintln!("xtask package: {package} {version}: {bytes} bytes");
        if bytes > MAX_CRATE_BYTES {
            too_large.push(format!(
                "{package} is {bytes} bytes compressed, over {MAX_CRATE_BYTES} (see `cargo package --list -p {package}`)"
            ));
        }
    }
    if too_large.is_empty() {
        Ok(())
    } else {
        Err(too_large.join("; "))
    }
}
