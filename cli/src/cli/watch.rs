//! Watching the files the flags name, for `serve --watch`.
//!
//! Each file's directory is watched rather than the file: editors often
//! write a new file and rename it over the old one, which a watch on the old
//! file would never see. A file that is a symbolic link counts as changed
//! when its target does (a link swapped to a new version of the file).

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use notify::event::{AccessKind, AccessMode};
use notify::{Event, EventKind, RecommendedWatcher, RecursiveMode, Watcher};

use super::error::CliError;

/// Watches files until dropped.
pub(crate) struct FileWatcher {
    _watcher: RecommendedWatcher,
}

impl std::fmt::Debug for FileWatcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FileWatcher").finish_non_exhaustive()
    }
}

/// Calls `changed` with the path (as given) of each of `paths` that changes,
/// once per file-system event that touches it, until the watcher is dropped.
pub(crate) fn watch(
    paths: &[PathBuf],
    changed: impl Fn(&Path) + Send + 'static,
) -> Result<FileWatcher, CliError> {
    let files = WatchedFiles::new(paths)?;
    let directories: Vec<PathBuf> = files.by_directory.keys().cloned().collect();
    let mut watcher =
        notify::recommended_watcher(move |event: notify::Result<Event>| match event {
            Ok(event) => files
                .changed_by(&event)
                .iter()
                .for_each(|path| changed(path)),
            Err(error) => tracing::warn!("watching the files: {error}"),
        })
        .map_err(|error| CliError::Watch {
            path: "the files".to_owned(),
            reason: error.to_string(),
        })?;
    for directory in &directories {
        watcher
            .watch(directory, RecursiveMode::NonRecursive)
            .map_err(|error| CliError::Watch {
                path: directory.display().to_string(),
                reason: error.to_string(),
            })?;
    }
    Ok(FileWatcher { _watcher: watcher })
}

/// One watched file.
struct WatchedFile {
    /// The path as the flag gave it (for messages).
    given: PathBuf,
    /// The path in its watched directory.
    path: PathBuf,
    /// Where the path led when last looked at (it may be a link).
    target: Mutex<Option<PathBuf>>,
}

impl WatchedFile {
    /// Whether the path leads somewhere else than last time.
    fn retargeted(&self) -> bool {
        let now = std::fs::canonicalize(&self.path).ok();
        let mut target = self.target.lock().unwrap_or_else(PoisonError::into_inner);
        if *target == now {
            return false;
        }
        *target = now;
        true
    }
}

/// The watched files by (canonical) directory and file name.
struct WatchedFiles {
    by_directory: BTreeMap<PathBuf, BTreeMap<OsString, WatchedFile>>,
}

impl WatchedFiles {
    fn new(paths: &[PathBuf]) -> Result<Self, CliError> {
        let mut by_directory: BTreeMap<PathBuf, BTreeMap<OsString, WatchedFile>> = BTreeMap::new();
        for given in paths {
            let cannot = |reason: String| CliError::Watch {
                path: given.display().to_string(),
                reason,
            };
            let name = given
                .file_name()
                .ok_or_else(|| cannot("it names no file".to_owned()))?;
            let directory = match given.parent() {
                Some(parent) if !parent.as_os_str().is_empty() => parent,
                _ => Path::new("."),
            };
            let directory = std::fs::canonicalize(directory)
                .map_err(|error| cannot(format!("its directory: {error}")))?;
            let path = directory.join(name);
            let target = std::fs::canonicalize(&path).ok();
            by_directory.entry(directory).or_default().insert(
                name.to_owned(),
                WatchedFile {
                    given: given.clone(),
                    path,
                    target: Mutex::new(target),
                },
            );
        }
        Ok(Self { by_directory })
    }

    /// The watched files (as given) that `event` changed.
    fn changed_by(&self, event: &Event) -> Vec<PathBuf> {
        if !changes_content(event.kind) {
            return Vec::new();
        }
        let mut changed = Vec::new();
        for path in &event.paths {
            let (Some(directory), Some(name)) = (path.parent(), path.file_name()) else {
                continue;
            };
            let Some(files) = self.by_directory.get(directory) else {
                continue;
            };
            match files.get(name) {
                Some(file) => {
                    file.retargeted();
                    changed.push(file.given.clone());
                }
                // Another entry of the directory: a link among the watched
                // files may lead elsewhere now.
                None => changed.extend(
                    files
                        .values()
                        .filter(|file| file.retargeted())
                        .map(|file| file.given.clone()),
                ),
            }
        }
        changed.dedup();
        changed
    }
}

/// Whether an event of `kind` may mean new content: anything but opening,
/// reading, and closing a file that was only read (as each reload does).
fn changes_content(kind: EventKind) -> bool {
    match kind {
        EventKind::Access(AccessKind::Close(AccessMode::Write)) => true,
        EventKind::Access(_) => false,
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use notify::event::{CreateKind, ModifyKind, RenameMode};

    use super::*;

    fn event(kind: EventKind, paths: &[&Path]) -> Event {
        paths.iter().fold(Event::new(kind), |event, path| {
            event.add_path(path.to_path_buf())
        })
    }

    #[test]
    fn only_events_about_watched_files_count() {
        let dir = tempfile::tempdir().unwrap();
        let api = dir.path().join("api.yaml");
        std::fs::write(&api, "openapi: 3.1.0").unwrap();
        let files = WatchedFiles::new(std::slice::from_ref(&api)).unwrap();
        let canonical = std::fs::canonicalize(dir.path()).unwrap();
        let written = event(
            EventKind::Modify(ModifyKind::Any),
            &[&canonical.join("api.yaml")],
        );
        assert_eq!(files.changed_by(&written), std::slice::from_ref(&api));
        let renamed_over = event(
            EventKind::Modify(ModifyKind::Name(RenameMode::Both)),
            &[
                &canonical.join(".api.yaml.tmp"),
                &canonical.join("api.yaml"),
            ],
        );
        assert_eq!(files.changed_by(&renamed_over), std::slice::from_ref(&api));
        let neighbour = event(
            EventKind::Create(CreateKind::File),
            &[&canonical.join("notes.txt")],
        );
        assert!(files.changed_by(&neighbour).is_empty());
        let read = event(
            EventKind::Access(AccessKind::Close(AccessMode::Read)),
            &[&canonical.join("api.yaml")],
        );
        assert!(files.changed_by(&read).is_empty());
    }

    #[cfg(unix)]
    #[test]
    fn a_link_to_a_new_target_counts_as_a_change() {
        let dir = tempfile::tempdir().unwrap();
        let canonical = std::fs::canonicalize(dir.path()).unwrap();
        std::fs::write(dir.path().join("v1.yaml"), "one").unwrap();
        std::fs::write(dir.path().join("v2.yaml"), "two").unwrap();
        let api = dir.path().join("api.yaml");
        std::os::unix::fs::symlink("v1.yaml", &api).unwrap();
        let files = WatchedFiles::new(std::slice::from_ref(&api)).unwrap();
        let created = event(
            EventKind::Create(CreateKind::File),
            &[&canonical.join("v3.yaml")],
        );
        assert!(files.changed_by(&created).is_empty());
        std::fs::remove_file(&api).unwrap();
        std::os::unix::fs::symlink("v2.yaml", &api).unwrap();
        assert_eq!(files.changed_by(&created), [api]);
    }

    #[test]
    fn a_file_in_a_missing_directory_cannot_be_watched() {
        let error = WatchedFiles::new(&[PathBuf::from("/definitely/missing/api.yaml")])
            .err()
            .unwrap();
        assert!(
            error
                .to_string()
                .starts_with("cannot watch `/definitely/missing/api.yaml`: its directory:"),
            "{error}"
        );
    }
}
