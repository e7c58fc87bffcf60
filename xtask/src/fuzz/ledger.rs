//! The ledger of fuzzing time, `target/fuzz/hours.tsv`: one line per run of
//! a target (when, which target, which build, CPU seconds, wall seconds),
//! so that hours spread over many runs and days add up.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs::{self, OpenOptions};
use std::io::Write as _;
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use super::Build;

/// The ledger's file name in `target/fuzz`.
const FILE: &str = "hours.tsv";

/// Clock ticks per second of `/proc`'s times (`USER_HZ`, 100 on Linux).
const TICKS_PER_SECOND: f64 = 100.0;

/// The CPU seconds (user and system) of this process's children that have
/// ended, from `/proc/self/stat`; 0 where there is no `/proc`.
pub(super) fn children_cpu_seconds() -> f64 {
    fs::read_to_string("/proc/self/stat").map_or(0.0, |stat| children_cpu_of(&stat))
}

/// The children's CPU seconds of a `/proc/<pid>/stat` line.
fn children_cpu_of(stat: &str) -> f64 {
    // The fields after the command name, which is in parentheses and may
    // hold spaces: cutime and cstime are the 16th and 17th of the line.
    let Some((_, after_name)) = stat.rsplit_once(')') else {
        return 0.0;
    };
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let ticks = |index: usize| {
        fields
            .get(index)
            .and_then(|field| field.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    (ticks(13) + ticks(14)) / TICKS_PER_SECOND
}

/// Appends one run of `target` to the ledger in `dir`.
pub(super) fn record(
    dir: &Path,
    target: &str,
    build: Build,
    cpu_seconds: f64,
    wall_seconds: f64,
) -> Result<(), String> {
    fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let path = dir.join(FILE);
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| since.as_secs());
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    writeln!(
        file,
        "{now}\t{target}\t{}\t{cpu_seconds:.1}\t{wall_seconds:.1}",
        build.folder()
    )
    .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// The CPU hours of the ledger in `dir`, per target and in all, of the
/// optimized runs (the short runs of development builds listed apart).
pub(super) fn summary(dir: &Path) -> Result<String, String> {
    let path = dir.join(FILE);
    let text = match fs::read_to_string(&path) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(error) => return Err(format!("cannot read {}: {error}", path.display())),
    };
    let (release, debug) = totals(&text);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "CPU hours of fuzzing, optimized builds ({}):",
        path.display()
    );
    for (target, seconds) in &release {
        let _ = writeln!(out, "  {target}: {:.2} h", seconds / 3600.0);
    }
    let all = release.values().fold(0.0, |sum, seconds| sum + seconds);
    let _ = writeln!(out, "  all targets: {:.2} h", all / 3600.0);
    let short = debug.values().fold(0.0, |sum, seconds| sum + seconds);
    let _ = write!(
        out,
        "development builds (short runs): {:.2} h",
        short / 3600.0
    );
    Ok(out)
}

/// CPU seconds per target of the ledger `text`: optimized runs, then
/// development ones. Lines it cannot read are left out.
fn totals(text: &str) -> (BTreeMap<String, f64>, BTreeMap<String, f64>) {
    let mut release = BTreeMap::new();
    let mut debug = BTreeMap::new();
    for line in text.lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        let [_, target, build, cpu, _] = fields.as_slice() else {
            continue;
        };
        let Ok(cpu) = cpu.parse::<f64>() else {
            continue;
        };
        let totals = if *build == Build::Release.folder() {
            &mut release
        } else {
            &mut debug
        };
        *totals.entry((*target).to_owned()).or_default() += cpu;
    }
    (release, debug)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_add_up_per_target_and_build() {
        let text = "1\topenapi\trelease\t3600.0\t3700.0\n\
                    2\topenapi\trelease\t1800.0\t1800.0\n\
                    3\tstdio\tdebug\t10.0\t10.5\n\
                    not a line\n";
        let (release, debug) = totals(text);
        assert_eq!(release.get("openapi"), Some(&5400.0));
        assert_eq!(debug.get("stdio"), Some(&10.0));
        assert_eq!(release.len() + debug.len(), 2);
    }

    #[test]
    fn the_children_cpu_time_is_read_past_a_command_name_with_spaces() {
        // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt
        // majflt cmajflt utime stime cutime cstime ...
        let stat = "42 (x task) S 1 42 42 0 -1 4194560 100 0 0 0 7 3 250 50 20 0 1 0";
        assert_eq!(children_cpu_of(stat), 3.0);
        assert_eq!(children_cpu_of("garbage"), 0.0);
    }
}
