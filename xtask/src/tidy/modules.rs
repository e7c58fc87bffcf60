//! The module tree of a crate and the file-level graph of its `crate::`,
//! `super::` and `self::` paths: a cycle between files is an error.
//!
//! A path is followed through `use` imports and re-exports to the file that
//! defines the item, so `crate::Foo` (re-exported by `lib.rs` from `foo.rs`)
//! is a dependency on `foo.rs`. A module's dependencies on its own
//! descendants (a folder module re-exporting or using its children) are not
//! edges; inline modules (`mod tests { … }`) are left out.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use super::lexer::{Token, tokens};

/// One module file of a crate.
#[derive(Debug, Default)]
struct Module {
    /// Its path from the crate root (`["load", "refs"]`).
    path: Vec<String>,
    file: PathBuf,
    children: BTreeMap<String, usize>,
    /// Names of the items it defines.
    defined: BTreeSet<String>,
    /// Names brought in by `use`, with the path they stand for (as written).
    imports: BTreeMap<String, Vec<String>>,
    /// Targets of glob imports (`use x::*`), as written.
    globs: Vec<Vec<String>>,
    /// Paths its code names, as written, starting with `crate`, `super`,
    /// `self`, or (in `use`) a local name.
    references: Vec<Vec<String>>,
}

impl Module {
    /// The folder the module's file is in, as a module path.
    fn folder(&self) -> Vec<String> {
        if self.children.is_empty() {
            self.path[..self.path.len().saturating_sub(1)].to_vec()
        } else {
            self.path.clone()
        }
    }
}

/// A crate's modules, the root first.
#[derive(Debug)]
pub(crate) struct ModuleTree {
    modules: Vec<Module>,
}

/// A dependency between two module files, with one path that makes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Edge {
    pub(crate) from: PathBuf,
    pub(crate) to: PathBuf,
    pub(crate) via: String,
    /// The folder (module path) each file is in: a module with children is
    /// in its own folder, any other in its parent's.
    pub(crate) folders: [Vec<String>; 2],
}

impl ModuleTree {
    /// Reads the module tree rooted at the crate root file `root`
    /// (`src/lib.rs`, `src/main.rs`, `src/bin/x.rs`).
    pub(crate) fn read(root: &Path) -> Result<Self, String> {
        let mut tree = ModuleTree {
            modules: Vec::new(),
        };
        let dir = root.parent().map(Path::to_path_buf).unwrap_or_default();
        tree.read_module(Vec::new(), root.to_path_buf(), dir)?;
        Ok(tree)
    }

    fn read_module(
        &mut self,
        path: Vec<String>,
        file: PathBuf,
        children_dir: PathBuf,
    ) -> Result<usize, String> {
        let source = fs::read_to_string(&file)
            .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
        let parsed = parse(&tokens(&source));
        let index = self.modules.len();
        self.modules.push(Module {
            path: path.clone(),
            file: file.clone(),
            defined: parsed.defined,
            imports: parsed.imports,
            globs: parsed.globs,
            references: parsed.references,
            children: BTreeMap::new(),
        });
        for child in parsed.children {
            let flat = children_dir.join(format!("{child}.rs"));
            let (child_file, grandchildren) = if flat.is_file() {
                (flat, children_dir.join(&child))
            } else {
                let nested = children_dir.join(&child).join("mod.rs");
                if !nested.is_file() {
                    return Err(format!(
                        "{}: `mod {child};` has no file {} or {} (modules live where Rust looks for them: no `#[path]`)",
                        file.display(),
                        flat.display(),
                        nested.display()
                    ));
                }
                (nested, children_dir.join(&child))
            };
            let mut child_path = path.clone();
            child_path.push(child.clone());
            let child_index = self.read_module(child_path, child_file, grandchildren)?;
            self.modules[index].children.insert(child, child_index);
        }
        Ok(index)
    }

    /// Every file-level dependency (descendant edges left out).
    pub(crate) fn edges(&self) -> Vec<Edge> {
        let mut edges = Vec::new();
        let mut seen = BTreeSet::new();
        for (from, module) in self.modules.iter().enumerate() {
            for written in &module.references {
                let Some(absolute) = self.absolute(from, written) else {
                    continue;
                };
                let Some(to) = self.resolve(&absolute, 0) else {
                    continue;
                };
                let target = &self.modules[to];
                if to == from || target.path.starts_with(&module.path) {
                    continue;
                }
                if seen.insert((from, to)) {
                    edges.push(Edge {
                        from: module.file.clone(),
                        to: target.file.clone(),
                        via: written.join("::"),
                        folders: [module.folder(), target.folder()],
                    });
                }
            }
        }
        edges
    }

    /// `written`, named in module `at`, as a path from the crate root, or
    /// `None` for a path into another crate.
    fn absolute(&self, at: usize, written: &[String]) -> Option<Vec<String>> {
        let module = &self.modules[at];
        let (first, rest) = written.split_first()?;
        match first.as_str() {
            "crate" => Some(rest.to_vec()),
            "self" => Some([module.path.as_slice(), rest].concat()),
            "super" => {
                let mut base = module.path.clone();
                base.pop()?;
                let mut rest = rest;
                while rest.first().is_some_and(|s| s == "super") {
                    base.pop()?;
                    rest = &rest[1..];
                }
                Some([base.as_slice(), rest].concat())
            }
            local if module.children.contains_key(local) || module.imports.contains_key(local) => {
                Some([module.path.as_slice(), written].concat())
            }
            _ => None,
        }
    }

    /// The module whose file defines what `path` (from the root) names.
    fn resolve(&self, path: &[String], depth: usize) -> Option<usize> {
        if depth > 32 {
            return None;
        }
        let mut current = 0;
        for (i, segment) in path.iter().enumerate() {
            let module = &self.modules[current];
            if let Some(&child) = module.children.get(segment) {
                current = child;
                continue;
            }
            if module.defined.contains(segment) {
                return Some(current);
            }
            if let Some(target) = module.imports.get(segment) {
                let absolute = self.absolute(current, target)?;
                return self.resolve(&[absolute.as_slice(), &path[i + 1..]].concat(), depth + 1);
            }
            for glob in &module.globs {
                let Some(absolute) = self.absolute(current, glob) else {
                    continue;
                };
                let Some(source) = self.resolve(&absolute, depth + 1) else {
                    continue;
                };
                let source_module = &self.modules[source];
                if source_module.path == absolute
                    && (source_module.defined.contains(segment)
                        || source_module.imports.contains_key(segment)
                        || source_module.children.contains_key(segment))
                {
                    return self.resolve(&[absolute.as_slice(), &path[i..]].concat(), depth + 1);
                }
            }
            return Some(current);
        }
        Some(current)
    }
}

/// What one file declares and names.
#[derive(Debug, Default)]
struct Parsed {
    children: Vec<String>,
    defined: BTreeSet<String>,
    imports: BTreeMap<String, Vec<String>>,
    globs: Vec<Vec<String>>,
    references: Vec<Vec<String>>,
}

const ITEM_KEYWORDS: &[&str] = &[
    "struct", "enum", "fn", "trait", "type", "const", "static", "union",
];

fn parse(tokens: &[Token]) -> Parsed {
    let mut parsed = Parsed::default();
    let mut i = 0;
    while i < tokens.len() {
        match &tokens[i] {
            Token::Ident(word) if word == "mod" => {
                if let Some(Token::Ident(name)) = tokens.get(i + 1) {
                    match tokens.get(i + 2) {
                        Some(Token::Punct(';')) => {
                            parsed.children.push(name.clone());
                            i += 3;
                            continue;
                        }
                        Some(Token::Punct('{')) => {
                            i = skip_braces(tokens, i + 2);
                            continue;
                        }
                        _ => {}
                    }
                }
                i += 1;
            }
            Token::Ident(word) if word == "use" && !follows_path_sep(tokens, i) => {
                let mut leaves = Vec::new();
                i = use_tree(tokens, i + 1, Vec::new(), &mut leaves);
                for leaf in leaves {
                    parsed.references.push(leaf.path.clone());
                    match leaf.name {
                        Some(name) if name != "_" => {
                            parsed.imports.insert(name, leaf.path);
                        }
                        Some(_) => {}
                        None => parsed.globs.push(leaf.path),
                    }
                }
            }
            Token::Ident(word) if ITEM_KEYWORDS.contains(&word.as_str()) => {
                if let Some(Token::Ident(name)) = tokens.get(i + 1) {
                    parsed.defined.insert(name.clone());
                }
                i += 1;
            }
            Token::Ident(word) if word == "macro_rules" => {
                if let (Some(Token::Punct('!')), Some(Token::Ident(name))) =
                    (tokens.get(i + 1), tokens.get(i + 2))
                {
                    parsed.defined.insert(name.clone());
                }
                i += 1;
            }
            Token::Ident(word)
                if matches!(word.as_str(), "crate" | "super" | "self")
                    && tokens.get(i + 1) == Some(&Token::PathSep)
                    && !follows_path_sep(tokens, i) =>
            {
                let mut path = vec![word.clone()];
                let mut j = i + 1;
                while tokens.get(j) == Some(&Token::PathSep) {
                    match tokens.get(j + 1) {
                        Some(Token::Ident(segment)) => {
                            path.push(segment.clone());
                            j += 2;
                        }
                        _ => break,
                    }
                }
                parsed.references.push(path);
                i = j;
            }
            _ => i += 1,
        }
    }
    parsed
}

fn follows_path_sep(tokens: &[Token], i: usize) -> bool {
    i > 0 && tokens[i - 1] == Token::PathSep
}

/// The index after the brace group opening at `open`.
fn skip_braces(tokens: &[Token], open: usize) -> usize {
    let mut depth = 0;
    for (offset, token) in tokens[open..].iter().enumerate() {
        match token {
            Token::Punct('{') => depth += 1,
            Token::Punct('}') => {
                depth -= 1;
                if depth == 0 {
                    return open + offset + 1;
                }
            }
            _ => {}
        }
    }
    tokens.len()
}

/// One imported path of a `use` tree: `name` is what it is known as, or
/// `None` for a glob.
struct UseLeaf {
    path: Vec<String>,
    name: Option<String>,
}

/// Parses the use tree at `i` under `prefix`; returns the index after it
/// (after the `;` at the top level).
fn use_tree(tokens: &[Token], mut i: usize, prefix: Vec<String>, out: &mut Vec<UseLeaf>) -> usize {
    let mut path = prefix;
    if tokens.get(i) == Some(&Token::PathSep) {
        // `use ::std::…`: another crate.
        path.push(String::from("::"));
        i += 1;
    }
    loop {
        match tokens.get(i) {
            Some(Token::Ident(segment)) => {
                path.push(segment.clone());
                i += 1;
                if tokens.get(i) == Some(&Token::PathSep) {
                    i += 1;
                    continue;
                }
                let mut name = segment.clone();
                if tokens.get(i) == Some(&Token::Ident(String::from("as"))) {
                    if let Some(Token::Ident(alias)) = tokens.get(i + 1) {
                        name = alias.clone();
                    }
                    i += 2;
                }
                if segment == "self" {
                    path.pop();
                    name = if name == "self" {
                        path.last().cloned().unwrap_or_default()
                    } else {
                        name
                    };
                }
                if path.first().is_some_and(|s| s != "::") {
                    out.push(UseLeaf {
                        path,
                        name: Some(name),
                    });
                }
                return finish(tokens, i);
            }
            Some(Token::Punct('*')) => {
                if path.first().is_some_and(|s| s != "::") {
                    out.push(UseLeaf { path, name: None });
                }
                return finish(tokens, i + 1);
            }
            Some(Token::Punct('{')) => {
                i += 1;
                while i < tokens.len() && tokens[i] != Token::Punct('}') {
                    i = use_tree(tokens, i, path.clone(), out);
                }
                return finish(tokens, i + 1);
            }
            _ => return finish(tokens, i),
        }
    }
}

/// Steps over the `,` or `;` that ends a use tree (not over a `}`).
fn finish(tokens: &[Token], i: usize) -> usize {
    match tokens.get(i) {
        Some(Token::Punct(',' | ';')) => i + 1,
        _ => i,
    }
}

/// The cycles of `edges`: each strongly connected set of files with more
/// than one member, with the edges inside it.
pub(crate) fn cycles(edges: &[Edge]) -> Vec<Vec<Edge>> {
    let mut nodes: BTreeMap<&Path, Vec<&Path>> = BTreeMap::new();
    for edge in edges {
        nodes.entry(&edge.from).or_default().push(&edge.to);
        nodes.entry(&edge.to).or_default();
    }
    let components = strongly_connected(&nodes);
    components
        .into_iter()
        .filter(|component| component.len() > 1)
        .map(|component| {
            edges
                .iter()
                .filter(|e| {
                    component.contains(&e.from.as_path()) && component.contains(&e.to.as_path())
                })
                .cloned()
                .collect()
        })
        .collect()
}

/// Tarjan's algorithm.
fn strongly_connected<'a>(graph: &BTreeMap<&'a Path, Vec<&'a Path>>) -> Vec<Vec<&'a Path>> {
    struct State<'a> {
        index: BTreeMap<&'a Path, usize>,
        low: BTreeMap<&'a Path, usize>,
        stack: Vec<&'a Path>,
        on_stack: BTreeSet<&'a Path>,
        components: Vec<Vec<&'a Path>>,
    }
    fn visit<'a>(node: &'a Path, graph: &BTreeMap<&'a Path, Vec<&'a Path>>, s: &mut State<'a>) {
        let n = s.index.len();
        s.index.insert(node, n);
        s.low.insert(node, n);
        s.stack.push(node);
        s.on_stack.insert(node);
        for &next in graph.get(node).into_iter().flatten() {
            if !s.index.contains_key(next) {
                visit(next, graph, s);
                let low = s.low[node].min(s.low[next]);
                s.low.insert(node, low);
            } else if s.on_stack.contains(next) {
                let low = s.low[node].min(s.index[next]);
                s.low.insert(node, low);
            }
        }
        if s.low[node] == s.index[node] {
            let mut component = Vec::new();
            while let Some(top) = s.stack.pop() {
                s.on_stack.remove(top);
                component.push(top);
                if top == node {
                    break;
                }
            }
            s.components.push(component);
        }
    }
    let mut state = State {
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        components: Vec::new(),
    };
    for &node in graph.keys() {
        if !state.index.contains_key(node) {
            visit(node, graph, &mut state);
        }
    }
    state.components
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes `files` (path, text) under a fresh folder and returns it.
    fn crate_with(name: &str, files: &[(&str, &str)]) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("xtask-tidy-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        for (path, text) in files {
            let path = dir.join(path);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, text).unwrap();
        }
        dir
    }

    fn cycle_files(dir: &Path) -> Vec<Vec<String>> {
        let tree = ModuleTree::read(&dir.join("lib.rs")).unwrap();
        cycles(&tree.edges())
            .into_iter()
            .map(|cycle| {
                let mut files: Vec<String> = cycle
                    .iter()
                    .map(|e| e.from.strip_prefix(dir).unwrap().display().to_string())
                    .collect();
                files.sort();
                files.dedup();
                files
            })
            .collect()
    }

    #[test]
    fn siblings_naming_each_other_through_root_reexports_are_a_cycle() {
        let dir = crate_with(
            "reexport",
            &[
                (
                    "lib.rs",
                    "mod a;\nmod b;\npub use a::A;\npub use b::{B as Bee};\n",
                ),
                ("a.rs", "use crate::Bee;\npub struct A(Bee);\n"),
                ("b.rs", "pub struct B;\nfn f() { let _ = crate::A; }\n"),
            ],
        );
        assert_eq!(cycle_files(&dir), [["a.rs", "b.rs"]]);
    }

    #[test]
    fn a_folder_using_its_children_is_no_cycle() {
        let dir = crate_with(
            "folder",
            &[
                ("lib.rs", "mod load;\npub use load::Doc;\n"),
                (
                    "load.rs",
                    "mod parse;\npub use parse::Doc;\npub(crate) struct Limit;\nfn f() { parse::go() }\n",
                ),
                (
                    "load/parse.rs",
                    "use super::Limit;\npub struct Doc;\n// use crate::nothing;\n",
                ),
            ],
        );
        assert!(cycle_files(&dir).is_empty());
    }

    #[test]
    fn a_longer_loop_through_a_folder_is_found() {
        let dir = crate_with(
            "longer",
            &[
                ("lib.rs", "mod a;\nmod b;\nmod c;\n"),
                ("a.rs", "pub struct A;\nuse crate::b::x::X;\n"),
                ("b.rs", "pub mod x;\n"),
                ("b/x.rs", "pub struct X;\nuse crate::c::*;\nfn f(_: C) {}\n"),
                ("c.rs", "pub struct C;\nfn g() { super::a::A; }\n"),
            ],
        );
        assert_eq!(cycle_files(&dir), [["a.rs", "b/x.rs", "c.rs"]]);
    }

    #[test]
    fn inline_test_modules_and_other_crates_are_left_out() {
        let dir = crate_with(
            "inline",
            &[
                ("lib.rs", "mod a;\nmod b;\n"),
                (
                    "a.rs",
                    "use std::fmt;\nuse ::serde::Serialize;\npub struct A;\n#[cfg(test)]\nmod tests { use crate::b::B; }\n",
                ),
                ("b.rs", "pub struct B;\nuse crate::a::A;\n"),
            ],
        );
        assert!(cycle_files(&dir).is_empty());
    }
}
