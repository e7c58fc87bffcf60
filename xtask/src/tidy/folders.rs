//! Arrows between folders point one way: no two folders of a crate use
//! each other, directly or around a loop.
//!
//! Each file-level dependency ([`Edge`]) between two folders, neither inside
//! the other, counts as a dependency between the two sibling folders that
//! hold them under their closest common folder (`protocol/task/x.rs` naming
//! `protocol/channel/y.rs` makes `protocol/task -> protocol/channel`). A
//! folder and the folders inside it may use each other: the folder's files
//! are its children's parent module, and its children use what it shares.

use std::collections::BTreeMap;
use std::path::PathBuf;

use super::modules::{Edge, cycles};

/// The loops of folders in the file-level dependencies `edges`: each one
/// as the folder-level edges inside it, `via` naming one file-level edge.
pub(crate) fn folder_cycles(edges: &[Edge]) -> Vec<Vec<Edge>> {
    let mut lifted: BTreeMap<(PathBuf, PathBuf), Edge> = BTreeMap::new();
    for edge in edges {
        let [from, to] = &edge.folders;
        if from.starts_with(to) || to.starts_with(from) {
            continue;
        }
        let common = from.iter().zip(to).take_while(|(a, b)| a == b).count();
        let from_folder = folder_name(&from[..=common]);
        let to_folder = folder_name(&to[..=common]);
        lifted
            .entry((from_folder.clone(), to_folder.clone()))
            .or_insert_with(|| Edge {
                from: from_folder,
                to: to_folder,
                via: format!(
                    "{} names `{}` in {}",
                    edge.from.display(),
                    edge.via,
                    edge.to.display()
                ),
                folders: edge.folders.clone(),
            });
    }
    let lifted: Vec<Edge> = lifted.into_values().collect();
    cycles(&lifted)
}

fn folder_name(path: &[String]) -> PathBuf {
    PathBuf::from(format!("{}/", path.join("/")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edge(from: &str, to: &str) -> Edge {
        let folder = |file: &str| -> Vec<String> {
            let mut parts: Vec<String> = file.split('/').map(str::to_owned).collect();
            parts.pop();
            parts
        };
        Edge {
            from: PathBuf::from(from),
            to: PathBuf::from(to),
            via: String::from("crate::x"),
            folders: [folder(from), folder(to)],
        }
    }

    fn loops(edges: &[Edge]) -> Vec<Vec<String>> {
        folder_cycles(edges)
            .into_iter()
            .map(|cycle| {
                let mut folders: Vec<String> =
                    cycle.iter().map(|e| e.from.display().to_string()).collect();
                folders.sort();
                folders
            })
            .collect()
    }

    #[test]
    fn sibling_folders_using_each_other_are_a_loop() {
        let edges = [
            edge("load/routes.rs", "schema/convert.rs"),
            edge("schema/convert.rs", "load/refs.rs"),
        ];
        assert_eq!(loops(&edges), [["load/", "schema/"]]);
    }

    #[test]
    fn nested_folders_lift_to_the_siblings_that_hold_them() {
        let edges = [
            edge("protocol/task/engine.rs", "protocol/channel/peer.rs"),
            edge("protocol/channel/escalation.rs", "protocol/task/channel.rs"),
            edge("protocol/tools.rs", "server/state.rs"),
        ];
        assert_eq!(loops(&edges), [["protocol/channel/", "protocol/task/"]]);
    }

    #[test]
    fn a_folder_and_its_own_folders_may_use_each_other() {
        let edges = [
            edge("protocol/tools.rs", "protocol/task/engine.rs"),
            edge("protocol/task/engine.rs", "protocol/convert.rs"),
            edge("protocol/task/engine.rs", "store/task/memory.rs"),
        ];
        assert!(loops(&edges).is_empty());
    }
}
