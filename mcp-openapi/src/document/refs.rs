//! `$ref` resolution: local pointers, other local files relative to the
//! document, and (only when allowed) remote documents.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::Value;

use crate::document::parse::parse_path;
use crate::document::pointer::{lookup, percent_decode, unescape_into};
use crate::document::reference_metadata::ReferenceMetadata;
use crate::error::SpecError;

/// Fetches a remote document (`http(s)` `$ref`), when remote references are allowed.
pub type RemoteFetcher = Arc<dyn Fn(&str) -> Result<Value, String> + Send + Sync>;

/// What to do with `$ref`s to `http://` / `https://` documents.
#[derive(Clone, Default)]
#[non_exhaustive]
pub enum RemoteRefs {
    /// Refuse them: the operation using one is skipped (the default).
    #[default]
    Refuse,
    /// Fetch them with this function (this crate does no network I/O itself).
    Fetch(RemoteFetcher),
}

impl fmt::Debug for RemoteRefs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Refuse => f.write_str("Refuse"),
            Self::Fetch(_) => f.write_str("Fetch(..)"),
        }
    }
}

/// One loaded document: the root (index 0) or a file / URL it refers to.
#[derive(Debug)]
struct Doc {
    value: Arc<Value>,
    /// The file or URL it came from, when known.
    location: Option<String>,
}

/// The documents of a load, and how to find more.
#[derive(Debug)]
pub(crate) struct Documents {
    docs: Vec<Doc>,
    by_location: HashMap<String, usize>,
    remote: RemoteRefs,
    /// Which root `components.schemas` may be taken out (see
    /// [`Documents::take_component_schema`]).
    takeable: Takeable,
}

/// Which root component schemas may be moved out of the document.
#[derive(Debug, Default)]
enum Takeable {
    /// None: some `$ref` may point inside any of them.
    #[default]
    None,
    /// Those no `$ref` points inside of; `taken` are out already.
    AllBut {
        referred_into: HashSet<String>,
        taken: HashSet<String>,
    },
}

/// The prefix of the pointers to root component schemas.
const COMPONENT_SCHEMAS: &str = "/components/schemas/";

/// A node of a loaded document reached by following `$ref`s (or the node
/// itself when it is no reference): which document, and the JSON pointer
/// inside it.
#[derive(Clone, Debug)]
pub(crate) struct ResolvedNode {
    pub(crate) doc: usize,
    pub(crate) root: Arc<Value>,
    pub(crate) pointer: String,
    /// `summary` / `description` written beside the first `$ref` of the chain.
    pub(crate) meta: ReferenceMetadata,
}

static NULL: Value = Value::Null;

impl ResolvedNode {
    /// The value pointed at (it exists: resolution checked it).
    pub(crate) fn value(&self) -> &Value {
        lookup(&self.root, &self.pointer).unwrap_or(&NULL)
    }
}

impl Documents {
    pub(crate) fn new(root: Value, location: Option<PathBuf>, remote: RemoteRefs) -> Self {
        let location = location.map(|path| path.to_string_lossy().into_owned());
        let mut by_location = HashMap::new();
        if let Some(location) = &location {
            by_location.insert(location.clone(), 0);
        }
        Self {
            docs: vec![Doc {
                value: Arc::new(root),
                location,
            }],
            by_location,
            remote,
            takeable: Takeable::None,
        }
    }

    /// Lets [`Documents::take_component_schema`] take the root component
    /// schemas not named in `referred_into`: every `$ref` of the root
    /// document was read, and those that point inside a component schema
    /// name it there.
    pub(crate) fn allow_taking(&mut self, referred_into: HashSet<String>) {
        self.takeable = Takeable::AllBut {
            referred_into,
            taken: HashSet::new(),
        };
    }

    /// Moves the root component schema at `pointer` (in document `doc`) out
    /// of the document, when it may be: no `$ref` points inside it, so once
    /// it is converted only `$ref`s to it whole are resolved (a placeholder
    /// stands in for it until [`Documents::drop_taken`]).
    pub(crate) fn take_component_schema(&mut self, doc: usize, pointer: &str) -> Option<Value> {
        let Takeable::AllBut {
            referred_into,
            taken,
        } = &mut self.takeable
        else {
            return None;
        };
        let token = pointer.strip_prefix(COMPONENT_SCHEMAS)?;
        if doc != 0 || token.contains('/') {
            return None;
        }
        let mut name = String::with_capacity(token.len());
        unescape_into(&mut name, token);
        if referred_into.contains(&name) {
            return None;
        }
        let root = Arc::get_mut(&mut self.docs.first_mut()?.value)?;
        let schema = root
            .get_mut("components")?
            .get_mut("schemas")?
            .get_mut(&name)?;
        let schema = std::mem::take(schema);
        taken.insert(name);
        Some(schema)
    }

    /// Removes the placeholders of the component schemas taken out.
    pub(crate) fn drop_taken(&mut self) {
        let Takeable::AllBut { taken, .. } = &mut self.takeable else {
            return;
        };
        if taken.is_empty() {
            return;
        }
        let schemas = self
            .docs
            .first_mut()
            .and_then(|doc| Arc::get_mut(&mut doc.value))
            .and_then(|root| root.get_mut("components"))
            .and_then(|components| components.get_mut("schemas"))
            .and_then(Value::as_object_mut);
        if let Some(schemas) = schemas {
            schemas.retain(|name, _| !taken.contains(name));
        }
        self.takeable = Takeable::None;
    }

    /// The root document.
    pub(crate) fn root(&self) -> &Arc<Value> {
        &self.docs[0].value
    }

    pub(crate) fn doc(&self, doc: usize) -> Arc<Value> {
        self.docs
            .get(doc)
            .map_or_else(|| Arc::new(Value::Null), |d| d.value.clone())
    }

    /// A printable name of a document (`""` for the root).
    pub(crate) fn doc_name(&self, doc: usize) -> &str {
        if doc == 0 {
            return "";
        }
        self.docs
            .get(doc)
            .and_then(|d| d.location.as_deref())
            .unwrap_or("")
    }

    /// Resolves `reference`, written in document `from` at `pointer`, to the node it names.
    pub(crate) fn resolve(
        &mut self,
        from: usize,
        reference: &str,
        pointer: &str,
    ) -> Result<ResolvedNode, SpecError> {
        let (doc, root, fragment) = self.locate(from, reference, pointer)?;
        if lookup(&root, &fragment).is_none() {
            return Err(no_such_node(pointer, reference));
        }
        Ok(ResolvedNode {
            doc,
            root,
            pointer: fragment,
            meta: ReferenceMetadata::default(),
        })
    }

    /// The document and JSON pointer `reference` (written in document
    /// `from` at `pointer`) names, loading the document when needed; the
    /// node itself is not looked up.
    fn locate(
        &mut self,
        from: usize,
        reference: &str,
        pointer: &str,
    ) -> Result<(usize, Arc<Value>, String), SpecError> {
        let (file, fragment) = reference.split_once('#').unwrap_or((reference, ""));
        let doc = if file.is_empty() {
            from
        } else {
            self.load(from, file, pointer, reference)?
        };
        let fragment = percent_decode(fragment);
        if !fragment.is_empty() && !fragment.starts_with('/') {
            return Err(SpecError::Ref {
                pointer: pointer.to_owned(),
                reference: reference.to_owned(),
                reason: "only JSON pointer fragments are supported".to_owned(),
            });
        }
        Ok((doc, self.doc(doc), fragment.into_owned()))
    }

    /// Follows the `$ref` chain of `value`, the node at `pointer` (built
    /// only when it is a reference) of document `doc`, to a non-reference
    /// node; `None` when `value` is no reference: it is read where it is.
    pub(crate) fn follow(
        &mut self,
        doc: usize,
        value: &Value,
        pointer: impl FnOnce() -> String,
    ) -> Result<Option<ResolvedNode>, SpecError> {
        let Some((object, reference)) = reference_of(value) else {
            return Ok(None);
        };
        let meta = ReferenceMetadata::from_ref_object(object);
        let reference = reference.to_owned();
        let pointer = pointer();
        self.chase(doc, pointer.clone(), reference, meta, &pointer)
            .map(Some)
    }

    /// Follows `$ref` chains from `value` (at `pointer` in document `doc`) to a non-reference node.
    pub(crate) fn deref(
        &mut self,
        doc: usize,
        root: &Arc<Value>,
        pointer: &str,
    ) -> Result<ResolvedNode, SpecError> {
        let value = lookup(root, pointer).unwrap_or(&NULL);
        let Some((object, reference)) = reference_of(value) else {
            return Ok(ResolvedNode {
                doc,
                root: root.clone(),
                pointer: pointer.to_owned(),
                meta: ReferenceMetadata::default(),
            });
        };
        let meta = ReferenceMetadata::from_ref_object(object);
        let reference = reference.to_owned();
        self.chase(doc, pointer.to_owned(), reference, meta, pointer)
    }

    /// Follows `reference`, written at `at` in document `doc`, and the
    /// references it leads to, looking each node up once.
    fn chase(
        &mut self,
        mut doc: usize,
        mut at: String,
        mut reference: String,
        meta: ReferenceMetadata,
        pointer: &str,
    ) -> Result<ResolvedNode, SpecError> {
        for link in 1..=64 {
            // Where the `$ref` is written, rendered only for an error.
            let written_at = |docs: &Self| format!("{}#{}", docs.doc_name(doc), at);
            let (target, root, fragment) = match self.locate(doc, &reference, "") {
                Ok(located) => located,
                Err(SpecError::Ref {
                    reference, reason, ..
                }) => {
                    return Err(SpecError::Ref {
                        pointer: written_at(self),
                        reference,
                        reason,
                    });
                }
                Err(other) => return Err(other),
            };
            let Some(value) = lookup(&root, &fragment) else {
                return Err(no_such_node(&written_at(self), &reference));
            };
            if link == 64 {
                break;
            }
            let Some((_, next)) = reference_of(value) else {
                return Ok(ResolvedNode {
                    doc: target,
                    root,
                    pointer: fragment,
                    meta,
                });
            };
            reference = next.to_owned();
            doc = target;
            at = fragment;
        }
        Err(SpecError::Ref {
            pointer: format!("#{pointer}"),
            reference: String::new(),
            reason: "the $ref chain is circular or longer than 64 links".to_owned(),
        })
    }

    fn load(
        &mut self,
        from: usize,
        file: &str,
        pointer: &str,
        reference: &str,
    ) -> Result<usize, SpecError> {
        let error = |reason: String| SpecError::Ref {
            pointer: pointer.to_owned(),
            reference: reference.to_owned(),
            reason,
        };
        let base = self.docs.get(from).and_then(|d| d.location.clone());
        let is_remote = |s: &str| s.starts_with("http://") || s.starts_with("https://");
        let location = if is_remote(file) {
            file.to_owned()
        } else if let Some(base) = base.as_deref().filter(|b| is_remote(b)) {
            join_url(base, file)
        } else {
            let Some(base) = base else {
                return Err(error(
                    "a relative file $ref needs a document loaded from a path".to_owned(),
                ));
            };
            let dir = Path::new(&base).parent().unwrap_or_else(|| Path::new("."));
            normalize_path(&dir.join(percent_decode(file).as_ref()))
                .to_string_lossy()
                .into_owned()
        };
        if let Some(&index) = self.by_location.get(&location) {
            return Ok(index);
        }
        let value = if is_remote(&location) {
            match &self.remote {
                RemoteRefs::Refuse => {
                    return Err(SpecError::RemoteRef {
                        pointer: pointer.to_owned(),
                        reference: reference.to_owned(),
                    });
                }
                RemoteRefs::Fetch(fetch) => fetch(&location).map_err(error)?,
            }
        } else {
            parse_path(Path::new(&location)).map_err(|e| error(e.to_string()))?
        };
        let index = self.docs.len();
        self.docs.push(Doc {
            value: Arc::new(value),
            location: Some(location.clone()),
        });
        self.by_location.insert(location, index);
        Ok(index)
    }
}

/// The object and its `$ref` string, when `value` is a reference.
fn reference_of(value: &Value) -> Option<(&serde_json::Map<String, Value>, &str)> {
    let object = value.as_object()?;
    Some((object, object.get("$ref")?.as_str()?))
}

fn no_such_node(pointer: &str, reference: &str) -> SpecError {
    SpecError::Ref {
        pointer: pointer.to_owned(),
        reference: reference.to_owned(),
        reason: "no such node".to_owned(),
    }
}

fn join_url(base: &str, relative: &str) -> String {
    match base.rfind('/') {
        Some(slash) => format!("{}/{}", &base[..slash], relative.trim_start_matches("./")),
        None => relative.to_owned(),
    }
}

/// Removes `.` and resolves `..` lexically (the file need not exist yet).
fn normalize_path(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn local_chains_and_cycles() {
        let root = json!({
            "a": {"$ref": "#/b", "description": "ctx"},
            "b": {"$ref": "#/c"},
            "c": {"type": "string"},
            "x": {"$ref": "#/y"},
            "y": {"$ref": "#/x"}
        });
        let mut docs = Documents::new(root, None, RemoteRefs::Refuse);
        let root = docs.root().clone();
        let target = docs.deref(0, &root, "/a").unwrap();
        assert_eq!(target.pointer, "/c");
        assert_eq!(target.meta.best_description(), Some("ctx"));
        assert!(docs.deref(0, &root, "/x").is_err());
        assert!(docs.resolve(0, "#/nope", "#/a").is_err());
    }

    #[test]
    fn following_reads_plain_nodes_in_place() {
        let root = json!({
            "a": {"$ref": "#/b", "summary": "ctx"},
            "b": {"$ref": "#/c"},
            "c": {"type": "string"},
            "d": {"$ref": "#/missing"}
        });
        let mut docs = Documents::new(root.clone(), None, RemoteRefs::Refuse);
        let plain = docs
            .follow(0, &root["c"], || {
                unreachable!("no pointer for a plain node")
            })
            .unwrap();
        assert!(plain.is_none());
        let target = docs.follow(0, &root["a"], || "/a".to_owned()).unwrap();
        let target = target.unwrap();
        assert_eq!(target.pointer, "/c");
        assert_eq!(target.value(), &json!({"type": "string"}));
        assert_eq!(target.meta.summary(), Some("ctx"));
        let error = docs.follow(0, &root["d"], || "/d".to_owned()).unwrap_err();
        assert!(error.to_string().contains("#/d"), "{error}");
    }

    #[test]
    fn remote_refs_are_refused_by_default() {
        let mut docs = Documents::new(json!({}), None, RemoteRefs::Refuse);
        let error = docs
            .resolve(0, "https://example.com/s.json#/a", "#/p")
            .unwrap_err();
        assert!(matches!(error, SpecError::RemoteRef { .. }), "{error}");
        let fetch: RemoteFetcher = Arc::new(|_| Ok(json!({"a": 1})));
        let mut docs = Documents::new(json!({}), None, RemoteRefs::Fetch(fetch));
        let target = docs
            .resolve(0, "https://example.com/s.json#/a", "#/p")
            .unwrap();
        assert_eq!(target.value(), &json!(1));
    }

    #[test]
    fn relative_files_need_a_path() {
        let mut docs = Documents::new(json!({}), None, RemoteRefs::Refuse);
        assert!(docs.resolve(0, "./common.yaml#/Pet", "#/p").is_err());
    }
}
