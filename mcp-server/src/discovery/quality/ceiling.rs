//! How far the ranking's signals can go at all: recall with settings of
//! them chosen by looking at the answers, which no real search can do.
//!
//! Many settings are drawn from a fixed seed (every weight of [`Weights`]:
//! fields, lexicon relations, shares and factors; and each signal that has
//! no weight, on or off), each ranks every task, and for each group of
//! tasks two figures come out beside the settings in force: the best single
//! setting chosen on that very group (by recall@5, then by recall@20), and
//! the per-task oracle, the best rank any drawn setting gives each task.
//! Both are upper bounds of what using these signals differently can reach,
//! the second a generous one; a target above them needs a signal the
//! ranking does not have. A second table says how many tasks the settings
//! in force find within 50 and 100: the candidates any reordering of the
//! ranking's first ones could draw on.
//!
//! `cargo xtask discovery ceiling` (about three minutes in release);
//! `DISCOVERY_CEILING_SETTINGS` sets how many are drawn (300 by default).

use super::{Document, Recall, Task, documents, halves, rank_within, read_tasks, untuned};
use crate::discovery::signals::{Signals, Weights};
use testdata::CORPUS_TASKS;

/// The groups of tasks measured, by whether the ranking was developed on
/// the document and by half.
const GROUPS: [&str; 4] = [
    "documents developed on | development halves",
    "documents developed on | test halves",
    "documents never developed on | development halves",
    "documents never developed on | test halves",
];

/// A small xorshift generator: the same settings on every run, with no
/// dependency for it.
struct Draw(u64);

impl Draw {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn one_of(&mut self, values: &[f32]) -> f32 {
        values[(self.next() % values.len() as u64) as usize]
    }

    /// On three times in four.
    fn mostly_on(&mut self) -> bool {
        !self.next().is_multiple_of(4)
    }

    /// A setting: a weighting, and each signal without a weight on or off.
    fn signals(&mut self) -> Signals {
        Signals {
            weights: self.weights(),
            phrasal: self.mostly_on(),
            subwords: self.mostly_on(),
            derivations: self.mostly_on(),
            people: self.mostly_on(),
            verb: self.mostly_on(),
            new_object: self.mostly_on(),
            plural_list: self.mostly_on(),
            values: self.mostly_on(),
            ..Signals::default()
        }
    }

    /// A weighting within the bounds tuning keeps to.
    fn weights(&mut self) -> Weights {
        let mut weights = Weights::default();
        for field in &mut weights.fields {
            *field = self.one_of(&[0.0, 0.25, 0.5, 1.0, 2.0, 4.0]);
        }
        for relation in &mut weights.lexicon {
            *relation = self.one_of(&[0.0, 0.1, 0.3, 0.6]);
        }
        weights.synonym = self.one_of(&[0.0, 0.3, 0.6, 1.0]);
        weights.part = self.one_of(&[0.0, 0.3, 0.6, 1.0]);
        weights.specificity = self.one_of(&[0.0, 0.25, 0.5, 0.75, 1.0]);
        weights.coverage = self.one_of(&[0.25, 0.5, 1.0, 2.0]);
        weights.mood = self.one_of(&[0.5, 0.6, 0.8, 1.0]);
        weights.intent_of_verb = self.one_of(&[0.0, 0.375, 0.75]);
        weights
    }
}

/// The settings measured: those in force, the weights tuning starts from,
/// every field weighing the same, then `drawn` drawn ones.
fn settings(drawn: usize) -> Vec<Signals> {
    let with = |weights| Signals {
        weights,
        ..Signals::default()
    };
    let equal = Weights {
        fields: [1.0; 10],
        ..Weights::default()
    };
    let mut draw = Draw(0x9E37_79B9_7F4A_7C15);
    [Signals::default(), with(untuned()), with(equal)]
        .into_iter()
        .chain((0..drawn).map(|_| draw.signals()))
        .collect()
}

/// How deep each setting's ranking is read: far enough for the second
/// table's cutoffs (50 and 100).
const DEPTH: usize = 100;

/// The rank of every task of each group with each setting (`None`: not
/// within [`DEPTH`]): `ranks[group][setting][task]`.
fn ranks(documents: &[Document], settings: &[Signals]) -> Vec<Vec<Vec<Option<usize>>>> {
    let corpus = read_tasks(CORPUS_TASKS);
    let mut ranks = vec![vec![Vec::new(); settings.len()]; GROUPS.len()];
    for document in documents {
        let tasks = corpus.get(document.label).map_or(&[][..], Vec::as_slice);
        let (development, test) = halves(tasks);
        let never = if document.developed { 0 } else { 2 };
        for (setting, signals) in settings.iter().enumerate() {
            let (tools, index) = document.index(*signals);
            for (half, tasks) in [&development, &test].into_iter().enumerate() {
                let ranks = &mut ranks[never + half][setting];
                ranks.extend(
                    tasks
                        .iter()
                        .map(|task: &&Task| rank_within(&index, &tools, task, DEPTH)),
                );
            }
        }
    }
    ranks
}

fn recall(ranks: &[Option<usize>]) -> Recall {
    let mut recall = Recall::default();
    ranks.iter().for_each(|rank| recall.add(*rank));
    recall
}

#[test]
#[ignore = "slow: `cargo xtask discovery ceiling`"]
fn ceiling() {
    let drawn = std::env::var("DISCOVERY_CEILING_SETTINGS")
        .ok()
        .and_then(|count| count.parse().ok())
        .unwrap_or(300);
    let settings = settings(drawn);
    let documents = documents();
    let ranks = ranks(&documents, &settings);
    println!("{} settings ({drawn} drawn)", settings.len());
    println!("| documents | half | ranking | tasks | recall@1 | recall@5 | recall@20 |");
    println!("|---|---|---|---:|---:|---:|---:|");
    for (group, ranks) in GROUPS.iter().zip(&ranks) {
        let count = ranks[0].len();
        let best = (0..settings.len())
            .max_by_key(|&setting| {
                let found = recall(&ranks[setting]).found;
                (found[1], found[2], found[0])
            })
            .unwrap_or(0);
        let oracle: Vec<Option<usize>> = (0..count)
            .map(|task| ranks.iter().filter_map(|ranks| ranks[task]).min())
            .collect();
        for (ranking, ranks) in [
            ("settings in force", &ranks[0]),
            ("every field the same", &ranks[2]),
            ("best single setting for these tasks", &ranks[best]),
            ("best setting per task (oracle)", &oracle),
        ] {
            println!("| {group} | {ranking} | {count} |{}", recall(ranks).cells());
        }
    }
    println!();
    println!("| documents | half | tasks | settings in force: within 50 | within 100 |");
    println!("|---|---|---:|---:|---:|");
    for (group, ranks) in GROUPS.iter().zip(&ranks) {
        let in_force = &ranks[0];
        let within = |cutoff: usize| {
            let found = in_force
                .iter()
                .filter(|rank| rank.is_some_and(|rank| rank < cutoff));
            found.count() as f64 / in_force.len().max(1) as f64 * 100.0
        };
        println!(
            "| {group} | {} | {:.0} % | {:.0} % |",
            in_force.len(),
            within(50),
            within(DEPTH)
        );
    }
}
