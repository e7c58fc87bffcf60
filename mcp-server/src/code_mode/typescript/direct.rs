//! Type aliases that refer to themselves outside any object, array or
//! tuple (`type A = string | A`, `type B = B`, `type C = Record<string, C>`,
//! or around a loop of such aliases), which TypeScript refuses ("circularly
//! references itself"). A union or an intersection with itself says nothing
//! more than the rest of it, so such a member is dropped; a `Record` is
//! written with its index signature instead (`{ [key: string]: C }`), which
//! TypeScript reads lazily.

use std::collections::{HashMap, HashSet};

use super::ty::Ty;

/// The names `ty` refers to directly: itself a name, or a member of a
/// union or an intersection, or the value of a `Record`, that is.
fn direct_names(ty: &Ty) -> Vec<&str> {
    match ty {
        Ty::Named(name) => vec![name.as_str()],
        Ty::Union(members) | Ty::Intersection(members) => {
            members.iter().flat_map(direct_names).collect()
        }
        Ty::Object(object) => object.record_value().map(direct_names).unwrap_or_default(),
        _ => Vec::new(),
    }
}

/// `ty` without the direct references to `names`; `unknown` when nothing
/// else is left.
fn without(ty: &Ty, names: &HashSet<&str>) -> Ty {
    match ty {
        Ty::Named(name) if names.contains(name.as_str()) => Ty::Unknown,
        Ty::Union(members) | Ty::Intersection(members) => {
            let kept: Vec<Ty> = members
                .iter()
                .filter(
                    |member| !matches!(member, Ty::Named(name) if names.contains(name.as_str())),
                )
                .map(|member| without(member, names))
                .collect();
            match (ty, kept.is_empty()) {
                (_, true) => Ty::Unknown,
                (Ty::Union(_), false) => Ty::union(kept),
                _ => Ty::intersection(kept),
            }
        }
        Ty::Object(object)
            if object
                .record_value()
                .is_some_and(|value| direct_names(value).iter().any(|n| names.contains(n))) =>
        {
            let mut spelled = object.clone();
            spelled.signature = true;
            Ty::Object(spelled)
        }
        other => other.clone(),
    }
}

/// The aliases `(name, type)` with every direct reference that leads back
/// to its own alias (through direct references only) dropped.
pub(crate) fn without_direct_cycles<'t>(
    aliases: impl IntoIterator<Item = (&'t str, &'t Ty)>,
) -> Vec<(&'t str, Ty)> {
    let aliases: Vec<(&str, &Ty)> = aliases.into_iter().collect();
    let edges: HashMap<&str, Vec<&str>> = aliases
        .iter()
        .map(|(name, ty)| (*name, direct_names(ty)))
        .collect();
    aliases
        .iter()
        .map(|&(name, ty)| {
            let looping: HashSet<&str> = edges[name]
                .iter()
                .copied()
                .filter(|next| reaches(&edges, next, name))
                .collect();
            if looping.is_empty() {
                (name, ty.clone())
            } else {
                (name, without(ty, &looping))
            }
        })
        .collect()
}

/// Whether `from` leads to `to` through direct references.
fn reaches(edges: &HashMap<&str, Vec<&str>>, from: &str, to: &str) -> bool {
    let mut seen = HashSet::new();
    let mut pending = vec![from];
    while let Some(name) = pending.pop() {
        if name == to {
            return true;
        }
        if seen.insert(name) {
            pending.extend(edges.get(name).into_iter().flatten().copied());
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(name: &str) -> Ty {
        Ty::Named(name.to_owned())
    }

    fn written(aliases: &[(&str, Ty)]) -> Vec<String> {
        without_direct_cycles(aliases.iter().map(|(name, ty)| (*name, ty)))
            .into_iter()
            .map(|(name, ty)| format!("type {name} = {ty};"))
            .collect()
    }

    #[test]
    fn a_union_or_intersection_with_itself_keeps_the_rest() {
        assert_eq!(
            written(&[
                ("A", Ty::union([Ty::String, named("A")])),
                ("B", named("B")),
                ("C", Ty::intersection([named("C"), Ty::Number])),
            ]),
            ["type A = string;", "type B = unknown;", "type C = number;"]
        );
    }

    #[test]
    fn loops_of_aliases_are_broken_and_structure_is_kept() {
        assert_eq!(
            written(&[
                ("A", Ty::union([Ty::Boolean, named("B")])),
                ("B", Ty::union([Ty::Null, named("A")])),
                (
                    "List",
                    Ty::union([Ty::Number, Ty::Array(Box::new(named("List")))])
                ),
                ("Map", Ty::union([Ty::String, Ty::record(named("Map"))])),
                ("Table", Ty::record(Ty::Array(Box::new(named("Table"))))),
            ]),
            [
                "type A = boolean;",
                "type B = null;",
                "type List = number | List[];",
                "type Map = string | { [key: string]: Map };",
                "type Table = Record<string, Table[]>;"
            ]
        );
    }
}
