//! `ToolAnnotations` is a commutative monoid with the seed's conflict rule.

use mcp_core::{Hint, ToolAnnotations};
use proptest::prelude::*;

/// Every value of the four hints: 3^4 = 81 states, no title.
fn all_hint_states() -> Vec<ToolAnnotations> {
    let axis = [None, Some(false), Some(true)];
    let mut states = Vec::with_capacity(81);
    for read_only in axis {
        for destructive in axis {
            for idempotent in axis {
                for open_world in axis {
                    let mut a = ToolAnnotations::new();
                    a.read_only_hint = read_only;
                    a.destructive_hint = destructive;
                    a.idempotent_hint = idempotent;
                    a.open_world_hint = open_world;
                    states.push(a);
                }
            }
        }
    }
    states
}

#[test]
fn identity_over_all_81_states() {
    for a in all_hint_states() {
        assert_eq!(a.clone() + ToolAnnotations::default(), a);
        assert_eq!(ToolAnnotations::default() + a.clone(), a);
    }
}

#[test]
fn commutativity_over_all_pairs() {
    let states = all_hint_states();
    for a in &states {
        for b in &states {
            assert_eq!(
                a.clone() + b.clone(),
                b.clone() + a.clone(),
                "{a:?} + {b:?}"
            );
        }
    }
}

#[test]
fn associativity_over_all_531441_triples() {
    let states = all_hint_states();
    for a in &states {
        for b in &states {
            let ab = a.clone() + b.clone();
            for c in &states {
                let left = ab.clone() + c.clone();
                let right = a.clone() + (b.clone() + c.clone());
                assert_eq!(left, right, "({a:?} + {b:?}) + {c:?}");
            }
        }
    }
}

#[test]
fn disagreement_resolves_to_the_spec_default() {
    let disagree = |field: fn(&mut ToolAnnotations) -> &mut Option<bool>| {
        let mut yes = ToolAnnotations::new();
        *field(&mut yes) = Some(true);
        let mut no = ToolAnnotations::new();
        *field(&mut no) = Some(false);
        let mut combined = yes + no;
        *field(&mut combined)
    };
    assert_eq!(disagree(|a| &mut a.read_only_hint), Some(false));
    assert_eq!(disagree(|a| &mut a.destructive_hint), Some(true));
    assert_eq!(disagree(|a| &mut a.idempotent_hint), Some(false));
    assert_eq!(disagree(|a| &mut a.open_world_hint), Some(true));
}

#[test]
fn seed_worked_examples() {
    // `read |+| destroy` is destroy-shaped.
    assert_eq!(
        ToolAnnotations::read() + ToolAnnotations::destroy(),
        ToolAnnotations::destroy()
    );
    // `closedWorld |+| openWorld` is openWorld-shaped.
    assert_eq!(
        ToolAnnotations::closed_world() + ToolAnnotations::open_world(),
        ToolAnnotations::open_world()
    );
    // The same through hints, in either order.
    let from_hints: ToolAnnotations = [Hint::Read, Hint::Destroy].into();
    assert_eq!(from_hints, ToolAnnotations::destroy());
    let from_hints: ToolAnnotations = [Hint::Destroy, Hint::Read].into();
    assert_eq!(from_hints, ToolAnnotations::destroy());
}

#[test]
fn hints_declare_the_seed_table() {
    let cases: [(Hint, [Option<bool>; 4]); 7] = [
        (Hint::Read, [Some(true), Some(false), None, None]),
        (Hint::Write, [Some(false), Some(false), None, None]),
        (Hint::Destroy, [Some(false), Some(true), None, None]),
        (Hint::Idempotent, [None, None, Some(true), None]),
        (Hint::NotIdempotent, [None, None, Some(false), None]),
        (Hint::OpenWorld, [None, None, None, Some(true)]),
        (Hint::ClosedWorld, [None, None, None, Some(false)]),
    ];
    for (hint, [read_only, destructive, idempotent, open_world]) in cases {
        let a = ToolAnnotations::from(hint.clone());
        assert_eq!(
            [
                a.read_only_hint,
                a.destructive_hint,
                a.idempotent_hint,
                a.open_world_hint
            ],
            [read_only, destructive, idempotent, open_world],
            "{hint:?}"
        );
        assert_eq!(a.title, None);
    }
    assert_eq!(
        ToolAnnotations::from(Hint::Title("T".into()))
            .title
            .as_deref(),
        Some("T")
    );
}

#[test]
fn with_defaults_fills_only_gaps_and_defaults_is_all_defaults() {
    let filled = (ToolAnnotations::destroy() + ToolAnnotations::closed_world()).with_defaults();
    assert_eq!(
        [
            filled.read_only_hint,
            filled.destructive_hint,
            filled.idempotent_hint,
            filled.open_world_hint
        ],
        [Some(false), Some(true), Some(false), Some(false)]
    );
    assert_eq!(
        ToolAnnotations::default().with_defaults(),
        ToolAnnotations::defaults()
    );
    for a in all_hint_states() {
        assert_eq!(
            a.clone().with_defaults().with_defaults(),
            a.clone().with_defaults()
        );
    }
    // The seed's warning: stacking `defaults` undoes declared presets.
    assert_eq!(
        ToolAnnotations::read() + ToolAnnotations::defaults(),
        ToolAnnotations::defaults()
    );
}

#[test]
fn sum_folds_from_the_identity() {
    let total: ToolAnnotations = [ToolAnnotations::read(), ToolAnnotations::idempotent()]
        .into_iter()
        .sum();
    assert_eq!(
        total,
        ToolAnnotations::read() + ToolAnnotations::idempotent()
    );
    let empty: ToolAnnotations = std::iter::empty::<ToolAnnotations>().sum();
    assert_eq!(empty, ToolAnnotations::default());
}

fn any_annotations() -> impl Strategy<Value = ToolAnnotations> {
    let hint = || prop_oneof![Just(None), Just(Some(false)), Just(Some(true))];
    (
        proptest::option::of("[a-zA-Z ]{0,6}"),
        hint(),
        hint(),
        hint(),
        hint(),
    )
        .prop_map(|(title, read_only, destructive, idempotent, open_world)| {
            let mut a = ToolAnnotations::new();
            a.title = title;
            a.read_only_hint = read_only;
            a.destructive_hint = destructive;
            a.idempotent_hint = idempotent;
            a.open_world_hint = open_world;
            a
        })
}

proptest! {
    #[test]
    fn laws_hold_with_titles(a in any_annotations(), b in any_annotations(), c in any_annotations()) {
        prop_assert_eq!(a.clone() + ToolAnnotations::default(), a.clone());
        prop_assert_eq!(a.clone() + b.clone(), b.clone() + a.clone());
        prop_assert_eq!((a.clone() + b.clone()) + c.clone(), a.clone() + (b.clone() + c.clone()));
    }

    #[test]
    fn different_titles_resolve_to_the_smallest(x in "[a-z]{1,5}", y in "[a-z]{1,5}") {
        let combined = ToolAnnotations::titled(x.clone()) + ToolAnnotations::titled(y.clone());
        prop_assert_eq!(combined.title, Some(std::cmp::min(x, y)));
    }
}
