//! The ranking: a field-weighted BM25 (BM25F) over each tool's text, with
//! every term of a request widened to its synonyms and to the words it is
//! a part of (`star` finds `stargazers`, `repo` finds `repositories`).
//!
//! Built once per tool set; a search reads it only. Scores of one request
//! term are the best of its widenings, so a tool is not favoured for
//! matching many spellings of the same word.

mod read;
mod widen;

use std::collections::{HashMap, HashSet};

use mcp_core::Tool;

use super::document::Field;
use super::request::{Mood, Request, VALUE_WEIGHT};
use super::signals::Signals;
use super::synonyms::{Lexicon, Synonyms};
use super::toolsets::Toolsets;
use super::words::Words;
use read::{OperationWords, read_tools};

/// BM25's term-frequency saturation.
const K1: f32 = 1.2;
/// BM25's length normalization, per field.
const B: f32 = 0.75;
/// The best hits whose words feed back into a search.
const FEEDBACK_TOOLS: usize = 3;
/// The words fed back.
const FEEDBACK_TERMS: usize = 5;
/// How much the verb an imperative opens with counts.
const VERB_WEIGHT: f32 = 1.5;
/// The factor of a tool's score when it updates one item and the request
/// asks to do something with a new thing.
const UPDATE_OF_NEW: f32 = 0.85;
/// The factor of a tool's score when the request asks who and the tool's
/// resource is not people.
const NOT_PEOPLE: f32 = 0.8;
/// How much a plural in the request counts as asking for a list.
const PLURAL_LIST_WEIGHT: f32 = 0.4;
/// The (stemmed) words by which tool names say they read.
const READ_WORDS: &[&str] = &["list", "get", "retriev"];

/// The fields every word of which is known, whatever they weigh: the
/// name's words measure specificity, the others feed back (see
/// `feedback`).
const STRONG_FIELDS: [Field; 4] = [Field::Name, Field::Title, Field::Path, Field::Summary];

/// The searchable form of a tool set: postings of stemmed terms with their
/// field-weighted frequencies, and each tool's categories.
pub(crate) struct SearchIndex {
    signals: Signals,
    words: Words,
    synonyms: Synonyms,
    term_ids: foldhash::HashMap<String, u32>,
    terms: Vec<String>,
    /// Per term: the tools containing it and the term's weighted,
    /// length-normalized frequency in each.
    postings: Vec<Vec<(u32, f32)>>,
    idf: Vec<f32>,
    /// Each tool's categories, in tool order.
    tags: Vec<Vec<String>>,
    /// Each tool's name, lowercase, in tool order.
    names: Vec<String>,
    /// Each tool's name terms (without a leading method word), deduplicated.
    name_terms: Vec<Vec<u32>>,
    /// Whether each tool only reads.
    reads: Vec<bool>,
    /// Whether each tool's resource is people.
    people: Vec<bool>,
    /// Whether each tool changes one existing item.
    updates_item: Vec<bool>,
    /// Each tool's terms of its name, title, path and summary.
    strong_terms: Vec<Vec<u32>>,
}

/// One tool found, by its position in the indexed tool set.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Hit {
    pub(crate) tool: usize,
    pub(crate) score: f32,
}

impl SearchIndex {
    /// The index of `tools` in the toolsets `toolsets` (by position; none
    /// for a tool past its end), ranking with `signals` only.
    pub(crate) fn with_signals<'a>(
        tools: impl IntoIterator<Item = &'a Tool>,
        toolsets: &Toolsets,
        signals: Signals,
    ) -> Self {
        let words = Words::new();
        if signals.lexicon {
            Lexicon::prepare();
        }
        let lexicon = signals.lexicon.then_some(signals.weights.lexicon);
        let hand = signals.synonyms.then_some(signals.weights.synonym);
        let synonyms = Synonyms::new(&words, hand, lexicon);
        // A field that is neither weighed nor strong is never read, so its
        // words are not stemmed.
        let fields_read = Field::ALL
            .map(|field| STRONG_FIELDS.contains(&field) || field_weight(field, signals) > 0.0);
        let tools: Vec<&Tool> = tools.into_iter().collect();
        // The index holds words and ids, never a tool's text or schemas.
        let (vocabulary, tool_terms) = read_tools(&tools, toolsets, fields_read);
        let mut index = Self {
            signals,
            words,
            synonyms,
            postings: vec![Vec::new(); vocabulary.terms.len()],
            term_ids: vocabulary.term_ids,
            terms: vocabulary.terms,
            idf: Vec::new(),
            tags: Vec::with_capacity(tool_terms.len()),
            names: Vec::with_capacity(tool_terms.len()),
            name_terms: Vec::new(),
            reads: Vec::with_capacity(tool_terms.len()),
            people: Vec::with_capacity(tool_terms.len()),
            updates_item: Vec::with_capacity(tool_terms.len()),
            strong_terms: Vec::with_capacity(tool_terms.len()),
        };
        let mut fields: Vec<[Vec<u32>; Field::ALL.len()]> = Vec::with_capacity(tool_terms.len());
        let mut operations: Vec<OperationWords> = Vec::with_capacity(tool_terms.len());
        for tool in tool_terms {
            let mut strong: Vec<u32> = STRONG_FIELDS
                .iter()
                .flat_map(|field| tool.fields[field.index()].iter().copied())
                .collect();
            strong.sort_unstable();
            strong.dedup();
            index.strong_terms.push(strong);
            operations.push(tool.operation);
            index.names.push(tool.name);
            index.reads.push(tool.reads);
            index.people.push(tool.people);
            index.updates_item.push(tool.updates_item);
            index.tags.push(tool.tags);
            fields.push(tool.fields);
        }
        let count = fields.len().max(1) as f32;
        let mut average = [0.0_f32; Field::ALL.len()];
        for tool in &fields {
            for (sum, ids) in average.iter_mut().zip(tool) {
                *sum += ids.len() as f32 / count;
            }
        }
        for (tool, ids) in fields.iter().enumerate() {
            let mut weighted: HashMap<u32, f32> = HashMap::new();
            for field in Field::ALL {
                let weight = field_weight(field, signals);
                if weight == 0.0 {
                    continue;
                }
                let ids = &ids[field.index()];
                let average = average[field.index()].max(1.0);
                let norm = 1.0 - B + B * ids.len() as f32 / average;
                for &id in ids {
                    *weighted.entry(id).or_default() += weight / norm;
                }
            }
            for (id, frequency) in weighted {
                index.postings[id as usize].push((tool as u32, frequency));
            }
        }
        index.idf = index
            .postings
            .iter()
            .map(|posting| {
                let df = posting.len() as f32;
                (1.0 + (count - df + 0.5) / (df + 0.5)).ln()
            })
            .collect();
        index.name_terms = operations
            .iter()
            .zip(&fields)
            .map(|(operation, fields)| {
                index.operation_terms(operation, &fields[Field::Path.index()])
            })
            .collect();
        index
    }

    /// The terms naming what a tool does, for its specificity: the words
    /// of its name without the category prefix, a leading method word, or
    /// words that come only from path parameters (`ExposedId`), among the
    /// terms of some tool's fields.
    fn operation_terms(&self, operation: &OperationWords, path: &[u32]) -> Vec<u32> {
        let mut name = operation.name.as_slice();
        if let (Some(first), Some(method)) = (name.first(), &operation.method)
            && first == method
        {
            name = &name[1..];
        }
        let mut ids: Vec<u32> = name
            .iter()
            .filter_map(|term| {
                let id = self.term_ids.get(term).copied()?;
                (!operation.parameters.contains(term) || path.contains(&id)).then_some(id)
            })
            .collect();
        ids.sort_unstable();
        ids.dedup();
        ids
    }

    /// The number of indexed tools.
    pub(crate) fn len(&self) -> usize {
        self.names.len()
    }

    /// The categories of the tool at `tool`.
    pub(crate) fn tags_of(&self, tool: usize) -> &[String] {
        self.tags.get(tool).map_or(&[], Vec::as_slice)
    }

    /// Every category with its number of tools, most tools first (then by
    /// name).
    pub(crate) fn categories(&self) -> Vec<(String, usize)> {
        let mut counts: HashMap<&str, usize> = HashMap::new();
        for tags in &self.tags {
            for tag in tags {
                *counts.entry(tag).or_default() += 1;
            }
        }
        let mut categories: Vec<(String, usize)> = counts
            .into_iter()
            .map(|(tag, count)| (tag.to_owned(), count))
            .collect();
        categories.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        categories
    }

    /// The tools for `query`, best first, at most `limit`, among those
    /// `keep` accepts. A query that is exactly a tool's name finds that
    /// tool first.
    pub(crate) fn search(
        &self,
        query: &str,
        limit: usize,
        keep: impl Fn(usize) -> bool,
    ) -> Vec<Hit> {
        let weights = self.signals.weights;
        let mut scores = vec![0.0_f32; self.len()];
        let mut best = vec![0.0_f32; self.len()];
        let mut seen: Vec<String> = Vec::new();
        let lexicon = self.signals.lexicon.then(Lexicon::get);
        let request = Request::read(&self.words, query, lexicon, self.signals.phrasal);
        let mut groups: Vec<(String, f32)> = request
            .terms
            .into_iter()
            .map(|(term, weight)| (term, if self.signals.values { weight } else { 1.0 }))
            .collect();
        if let Some(verb) = request.verb.filter(|_| self.signals.verb)
            && let Some(group) = groups.get_mut(verb)
        {
            group.1 *= VERB_WEIGHT;
        }
        if weights.intent_of_verb > 0.0
            && self.signals.lexicon
            && let Some((term, _)) = request.verb.and_then(|verb| groups.get(verb))
            && let Some(intent) = Lexicon::get().intent_of(term)
        {
            groups.push((intent.to_owned(), weights.intent_of_verb));
        }
        if request.plural && request.mood == Mood::Read && self.signals.plural_list {
            groups.push(("list".to_owned(), PLURAL_LIST_WEIGHT));
        }
        let mut matched = vec![0_u32; self.len()];
        let mut asked = 0;
        // Every indexed term some word of the operation (not of a value) stands for.
        let mut covered: HashSet<u32> = HashSet::new();
        for (term, group_weight) in groups {
            if seen.contains(&term) {
                continue;
            }
            if group_weight >= 1.0 {
                asked += 1;
            }
            best.iter_mut().for_each(|score| *score = 0.0);
            for (id, weight) in self.widen(&term) {
                if group_weight > VALUE_WEIGHT {
                    covered.insert(id);
                }
                let weight = weight * group_weight;
                let idf = self.idf[id as usize];
                for &(tool, frequency) in &self.postings[id as usize] {
                    let score = weight * idf * frequency * (K1 + 1.0) / (K1 + frequency);
                    let slot = &mut best[tool as usize];
                    *slot = slot.max(score);
                }
            }
            for ((total, score), matched) in scores.iter_mut().zip(&best).zip(&mut matched) {
                *total += score;
                if *score > 0.0 && group_weight >= 1.0 {
                    *matched += 1;
                }
            }
            seen.push(term);
        }
        if self.signals.mood && request.mood == Mood::Read {
            // Reading explains a tool name's `list` or `get`.
            for word in READ_WORDS {
                if let Some(&id) = self.term_ids.get(*word) {
                    covered.insert(id);
                }
            }
        }
        if self.signals.specificity {
            for (total, name) in scores.iter_mut().zip(&self.name_terms) {
                if *total > 0.0 && !name.is_empty() {
                    let share = name.iter().filter(|id| covered.contains(id)).count() as f32
                        / name.len() as f32;
                    *total *= 1.0 - weights.specificity + weights.specificity * share;
                }
            }
        }
        if self.signals.mood {
            for (total, reads) in scores.iter_mut().zip(&self.reads) {
                if *reads != (request.mood == Mood::Read) {
                    *total *= weights.mood;
                }
            }
        }
        if self.signals.new_object && request.new_object {
            for (total, updates) in scores.iter_mut().zip(&self.updates_item) {
                if *updates {
                    *total *= UPDATE_OF_NEW;
                }
            }
        }
        if self.signals.people && request.who {
            for (total, people) in scores.iter_mut().zip(&self.people) {
                if !*people {
                    *total *= NOT_PEOPLE;
                }
            }
        }
        // Tools matching more of the request's words come first.
        if asked > 1 && self.signals.coverage {
            for (total, matched) in scores.iter_mut().zip(&matched) {
                *total *= (*matched as f32 / asked as f32).powf(weights.coverage);
            }
        }
        if weights.feedback > 0.0 {
            self.feed_back(&mut scores, &covered, weights.feedback, &keep);
        }
        let exact = query.trim().to_lowercase();
        if let Some(tool) = self.names.iter().position(|name| *name == exact) {
            scores[tool] = f32::MAX;
        }
        let mut hits: Vec<Hit> = scores
            .into_iter()
            .enumerate()
            .filter(|&(tool, score)| score > 0.0 && keep(tool))
            .map(|(tool, score)| Hit { tool, score })
            .collect();
        hits.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.tool.cmp(&b.tool)));
        hits.truncate(limit);
        hits
    }

    /// Pseudo-relevance feedback: the words the best [`FEEDBACK_TOOLS`]
    /// hits share (in their name, title, path or summary; not words the
    /// request already covers), the [`FEEDBACK_TERMS`] of them most
    /// telling, are searched too at `weight`.
    fn feed_back(
        &self,
        scores: &mut [f32],
        covered: &HashSet<u32>,
        weight: f32,
        keep: &impl Fn(usize) -> bool,
    ) {
        let mut top: Vec<(usize, f32)> = scores
            .iter()
            .copied()
            .enumerate()
            .filter(|&(tool, score)| score > 0.0 && keep(tool))
            .collect();
        top.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        top.truncate(FEEDBACK_TOOLS);
        let Some(&(_, best)) = top.first() else {
            return;
        };
        let mut votes: HashMap<u32, f32> = HashMap::new();
        for (tool, score) in &top {
            for id in &self.strong_terms[*tool] {
                if !covered.contains(id) {
                    *votes.entry(*id).or_default() += score / best;
                }
            }
        }
        let mut expansion: Vec<(u32, f32)> = votes
            .into_iter()
            .map(|(id, votes)| (id, votes * self.idf[id as usize]))
            .filter(|&(_, strength)| strength > 0.0)
            .collect();
        expansion.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        expansion.truncate(FEEDBACK_TERMS);
        let Some(&(_, strongest)) = expansion.first() else {
            return;
        };
        for (id, strength) in expansion {
            let term_weight = weight * strength / strongest;
            let idf = self.idf[id as usize];
            for &(tool, frequency) in &self.postings[id as usize] {
                scores[tool as usize] +=
                    term_weight * idf * frequency * (K1 + 1.0) / (K1 + frequency);
            }
        }
    }
}

/// How much a term in `field` counts with `signals` (0 for a field not used).
fn field_weight(field: Field, signals: Signals) -> f32 {
    let used = match field {
        Field::Path => signals.path,
        Field::Intent => signals.intent,
        Field::Tags => signals.tags,
        Field::Category => signals.categories,
        Field::Arguments => signals.arguments,
        Field::Response => signals.response,
        Field::Name | Field::Title | Field::Summary | Field::Description => true,
    };
    match (used, signals.field_weights) {
        (false, _) => 0.0,
        (true, true) => signals.weights.fields[field.index()],
        (true, false) => 1.0,
    }
}
