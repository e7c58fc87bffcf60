//! Cutting a JSON value to fit a number of bytes at whole items: the
//! largest array loses its last elements, then the largest object loses
//! its largest members (never those `keep` names), then the longest string
//! is shortened. The value stays of the same shape: an array stays an
//! array, an object keeps its required members.

use mcp_core::schema::json_len;
use serde_json::Value;

/// How deep the cut looks for arrays, objects and strings.
const DEPTH: usize = 3;
/// How many cuts one value may take.
const ROUNDS: usize = 8;

/// What one cut took out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Cut {
    /// The array at `path` kept its first `kept` items of `total`.
    Items {
        path: String,
        kept: usize,
        total: usize,
    },
    /// The object at `path` lost these members.
    Members { path: String, dropped: Vec<String> },
    /// The string at `path` kept its first `kept` characters of `total`.
    Text {
        path: String,
        kept: usize,
        total: usize,
    },
}

impl Cut {
    /// The cut in words: `kept the first 12 of 100 items of result`.
    pub(crate) fn describe(&self) -> String {
        let at = |path: &str| {
            if path.is_empty() {
                "the result".to_owned()
            } else {
                format!("`{path}`")
            }
        };
        match self {
            Self::Items { path, kept, total } => {
                format!("kept the first {kept} of {total} items of {}", at(path))
            }
            Self::Members { path, dropped } => {
                let names: Vec<String> = dropped.iter().map(|name| format!("`{name}`")).collect();
                format!("left out {} of {}", names.join(", "), at(path))
            }
            Self::Text { path, kept, total } => {
                format!(
                    "kept the first {kept} of {total} characters of {}",
                    at(path)
                )
            }
        }
    }
}

/// Cuts `value` until it is at most `budget` bytes of compact JSON (or
/// nothing more can go); `keep` names root members that must stay.
pub(crate) fn fit(value: &mut Value, budget: usize, keep: &[String]) -> Vec<Cut> {
    let mut cuts = Vec::new();
    for _ in 0..ROUNDS {
        let size = json_len(value);
        if size <= budget {
            break;
        }
        let over = size - budget;
        let cut = cut_array(value, over)
            .or_else(|| cut_members(value, over, keep))
            .or_else(|| cut_text(value, over));
        match cut {
            Some(cut) => cuts.push(cut),
            None => break,
        }
    }
    cuts
}

/// The nodes down to [`DEPTH`] with their paths (member names), parents
/// first.
fn nodes(value: &Value) -> Vec<(Vec<String>, &Value)> {
    let mut found = vec![(Vec::new(), value)];
    let mut at = 0;
    while at < found.len() {
        let (path, node) = (found[at].0.clone(), found[at].1);
        at += 1;
        if path.len() >= DEPTH {
            continue;
        }
        if let Value::Object(object) = node {
            for (key, child) in object {
                let mut child_path = path.clone();
                child_path.push(key.clone());
                found.push((child_path, child));
            }
        }
    }
    found
}

/// The node at `path` (object members only).
fn node_mut<'a>(value: &'a mut Value, path: &[String]) -> Option<&'a mut Value> {
    path.iter()
        .try_fold(value, |node, key| node.as_object_mut()?.get_mut(key))
}

/// The largest array loses enough of its last items to save `over` bytes.
fn cut_array(value: &mut Value, over: usize) -> Option<Cut> {
    let (path, size) = nodes(value)
        .into_iter()
        .filter(|(_, node)| node.as_array().is_some_and(|items| !items.is_empty()))
        .map(|(path, node)| (path, json_len(node)))
        .max_by_key(|(_, size)| *size)?;
    let items = node_mut(value, &path)?.as_array_mut()?;
    let path = path.join(".");
    let total = items.len();
    let mut size = size;
    let target = size.saturating_sub(over);
    let mut kept = total;
    while kept > 0 && size > target {
        kept -= 1;
        // The item and the comma before it (none before the first).
        size -= json_len(&items[kept]) + usize::from(kept > 0);
    }
    items.truncate(kept);
    Some(Cut::Items { path, kept, total })
}

/// The largest object loses its largest members (except `keep` at the
/// root) until `over` bytes are saved.
fn cut_members(value: &mut Value, over: usize, keep: &[String]) -> Option<Cut> {
    let (path, _) = nodes(value)
        .into_iter()
        .filter(|(path, node)| {
            node.as_object()
                .is_some_and(|object| object.keys().any(|key| !kept(path, key, keep)))
        })
        .map(|(path, node)| {
            let size = json_len(node);
            (path, size)
        })
        .max_by_key(|(_, size)| *size)?;
    let object = node_mut(value, &path)?.as_object_mut()?;
    let mut members: Vec<(String, usize)> = object
        .iter()
        .filter(|(key, _)| !kept(&path, key, keep))
        .map(|(key, member)| (key.clone(), json_len(member) + key.len() + 4))
        .collect();
    // Dropping what cannot make it fit would lose members for nothing.
    if members.iter().map(|(_, size)| size).sum::<usize>() < over {
        return None;
    }
    members.sort_by_key(|(_, size)| std::cmp::Reverse(*size));
    let mut saved = 0;
    let mut dropped = Vec::new();
    for (key, size) in members {
        if saved >= over {
            break;
        }
        object.remove(&key);
        saved += size;
        dropped.push(key);
    }
    let path = path.join(".");
    (!dropped.is_empty()).then_some(Cut::Members { path, dropped })
}

fn kept(path: &[String], key: &str, keep: &[String]) -> bool {
    path.is_empty() && keep.iter().any(|name| name == key)
}

/// The longest string loses enough of its end to save `over` bytes.
fn cut_text(value: &mut Value, over: usize) -> Option<Cut> {
    let (path, _) = nodes(value)
        .into_iter()
        .filter_map(|(path, node)| Some((path, node.as_str()?.len())))
        .filter(|(_, length)| *length > 0)
        .max_by_key(|(_, length)| *length)?;
    let Value::String(text) = node_mut(value, &path)? else {
        return None;
    };
    let path = path.join(".");
    let total = text.chars().count();
    let mut end = text.len().saturating_sub(over);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.truncate(end);
    let kept = text.chars().count();
    Some(Cut::Text { path, kept, total })
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::json;

    use super::*;

    fn issues(count: usize) -> Value {
        Value::Array(
            (0..count)
                .map(|number| json!({"number": number, "title": "x".repeat(90)}))
                .collect(),
        )
    }

    #[test]
    fn a_list_keeps_its_first_items() {
        let mut value = json!({"result": issues(100)});
        let cuts = fit(&mut value, 2_000, &["result".to_owned()]);
        assert!(json_len(&value) <= 2_000);
        let kept = value["result"].as_array().unwrap().len();
        assert!(kept > 10, "{kept}");
        assert_eq!(
            cuts,
            [Cut::Items {
                path: "result".into(),
                kept,
                total: 100
            }]
        );
        assert_eq!(
            cuts[0].describe(),
            format!("kept the first {kept} of 100 items of `result`")
        );
    }

    #[test]
    fn an_object_loses_its_largest_optional_members() {
        let mut value =
            json!({"id": 1, "body": "y".repeat(300), "notes": "z".repeat(3_000), "name": "n"});
        let cuts = fit(&mut value, 1_000, &["body".to_owned()]);
        assert!(json_len(&value) <= 1_000, "{cuts:?}");
        assert_eq!(
            value,
            json!({"id": 1, "body": "y".repeat(300), "name": "n"})
        );
        assert_eq!(
            cuts,
            [Cut::Members {
                path: String::new(),
                dropped: vec!["notes".into()]
            }]
        );
    }

    #[test]
    fn a_required_text_is_shortened_when_nothing_else_helps() {
        let mut value = json!({"id": 1, "body": "y".repeat(3_000), "notes": "z".repeat(100)});
        let cuts = fit(&mut value, 1_000, &["body".to_owned()]);
        assert!(json_len(&value) <= 1_000, "{cuts:?}");
        assert_eq!(value["id"], 1);
        assert_eq!(value["notes"], "z".repeat(100));
        assert!(matches!(&cuts[..], [Cut::Text { path, total: 3_000, .. }] if path == "body"));
    }

    #[test]
    fn a_small_value_is_left_alone() {
        let mut value = issues(2);
        assert!(fit(&mut value, 10_000, &[]).is_empty());
        assert_eq!(value, issues(2));
    }

    proptest! {
        #[test]
        fn a_cut_list_fits_and_is_a_prefix(count in 0usize..200, budget in 50usize..20_000) {
            let whole = issues(count);
            let mut value = whole.clone();
            fit(&mut value, budget, &[]);
            let kept = value.as_array().unwrap();
            prop_assert!(json_len(&value) <= budget.max(2));
            prop_assert_eq!(&whole.as_array().unwrap()[..kept.len()], kept.as_slice());
        }
    }
}
