//! `cargo xtask lexicon [DIR]`: writes `mcp-server/src/discovery/lexicon.rs`
//! and its rows, `lexicon.txt`,
//! discovery's table of related words, from the WordNet 3.0 database files
//! in DIR (`/usr/share/wordnet` by default: Debian's `wordnet-base`).
//!
//! The table is committed; nothing builds or tests it from WordNet again,
//! so CI never needs the database. For each word or phrase of up to three
//! words that WordNet's sense-tagged corpus uses at least [`USES`] times
//! (`cntlist.rev`), in its [`SENSES`] most frequent senses of each part of
//! speech (those tagged in the corpus):
//! the other words of the sense (synonyms), the words of the verb senses
//! it is a kind of (hypernyms, for verbs only: `kick off` is a way to
//! `start`), and the nouns derived from a verb or the verbs from a noun
//! (`removal`, `remove`). Of phrases, only verbs are kept (`get rid of`),
//! whatever their count. Only words of letters (and `-`) are kept; phrases
//! keep their `_`.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

/// The fewest uses in WordNet's sense-tagged corpus of a word the table
/// gives related words for.
const USES: usize = 3;
/// The senses of each word looked at, most frequent first.
const SENSES: usize = 2;
/// The most words a phrase may have.
const PHRASE_WORDS: usize = 3;
/// The most related words kept per relation and word.
const RELATED: usize = 6;
/// The most related words one sense gives per relation.
const PER_SENSE: usize = 3;
/// Debian's copyright file of `wordnet-base`, which holds WordNet's licence.
const COPYRIGHT: &str = "/usr/share/doc/wordnet-base/copyright";
/// The parts of speech, by WordNet's file suffix.
const PARTS: [&str; 4] = ["noun", "verb", "adj", "adv"];

/// One synset: its words (lowercase) and its pointers.
struct Synset {
    words: Vec<String>,
    /// (symbol, target offset, target part, source word, target word):
    /// word numbers from 1; 0 for the whole synset.
    pointers: Vec<(String, u32, char, usize, usize)>,
}

pub(crate) fn write(root: &Path, args: &[String]) -> Result<(), String> {
    let dir = args.first().map_or("/usr/share/wordnet", String::as_str);
    let dir = Path::new(dir);
    let read = |name: &str| {
        fs::read_to_string(dir.join(name)).map_err(|e| {
            format!(
                "cannot read {}: {e} (apt-get install wordnet-base)",
                dir.join(name).display()
            )
        })
    };
    // Synsets by (part letter, offset).
    let mut synsets: HashMap<(char, u32), Synset> = HashMap::new();
    // Each lemma's tagged sense count and synsets, per part.
    let mut senses: BTreeMap<String, Vec<(char, usize, Vec<u32>)>> = BTreeMap::new();
    for part in PARTS {
        for line in read(&format!("data.{part}"))?.lines() {
            if line.starts_with(' ') {
                continue;
            }
            if let Some((offset, synset)) = parse_synset(line) {
                let letter = part_letter(part);
                synsets.insert((letter, offset), synset);
            }
        }
        for line in read(&format!("index.{part}"))?.lines() {
            if line.starts_with(' ') {
                continue;
            }
            let fields: Vec<&str> = line.split_whitespace().collect();
            let (Some(lemma), Some(count)) = (fields.first(), fields.get(3)) else {
                continue;
            };
            let Ok(pointers) = count.parse::<usize>() else {
                continue;
            };
            let rest = &fields[4 + pointers..];
            let (Some(tagged), offsets) = (rest.get(1), rest.get(2..).unwrap_or_default()) else {
                continue;
            };
            let tagged: usize = tagged.parse().unwrap_or(0);
            let offsets: Vec<u32> = offsets.iter().filter_map(|o| o.parse().ok()).collect();
            senses
                .entry(lemma.to_string())
                .or_default()
                .push((part_letter(part), tagged, offsets));
        }
    }
    // How often the tagged corpus uses each lemma (`cntlist.rev`:
    // `lemma%sense_key sense_number count`).
    let mut uses: HashMap<String, usize> = HashMap::new();
    for line in read("cntlist.rev")?.lines() {
        let mut fields = line.split_whitespace();
        let (Some(key), Some(count)) = (fields.next(), fields.nth(1)) else {
            continue;
        };
        let lemma = key.split('%').next().unwrap_or_default();
        *uses.entry(lemma.to_owned()).or_default() += count.parse::<usize>().unwrap_or(0);
    }
    let keep = |word: &str| {
        word.split('_').count() <= PHRASE_WORDS
            && word
                .chars()
                .all(|c| c.is_ascii_lowercase() || c == '_' || c == '-')
    };
    // Related words of up to two words: what a document says in one term.
    let related = |word: &str| keep(word) && word.split('_').count() <= 2;
    let mut table = String::new();
    let mut rows = 0;
    for (lemma, parts) in &senses {
        // Words people use: those of the sense-tagged corpus, and phrasal
        // verbs (`kick off`, `get rid of`) whatever their count.
        let phrasal_verb = lemma.contains('_') && parts.iter().any(|(letter, _, _)| *letter == 'v');
        let used = uses.get(lemma).copied().unwrap_or(0) >= USES;
        // Phrases are read as one word in requests: verbs only, so that
        // `credit card` stays two words.
        let phrase = lemma.contains('_');
        if !keep(lemma) || lemma.len() < 3 || !(used || phrasal_verb) || (phrase && !phrasal_verb) {
            continue;
        }
        // In sense order: the most frequent senses' words first.
        let (mut synonyms, mut kinds, mut derived) =
            (Ordered::default(), Ordered::default(), Ordered::default());
        for (letter, tagged, offsets) in parts {
            if *tagged == 0 && !phrasal_verb {
                continue;
            }
            for offset in offsets.iter().take(SENSES) {
                let Some(synset) = synsets.get(&(*letter, *offset)) else {
                    continue;
                };
                let own = synset.words.iter().position(|word| word == lemma);
                // A few of each sense, so that every sense has its say.
                synonyms.extend(
                    synset
                        .words
                        .iter()
                        .filter(|word| *word != lemma && related(word))
                        .take(PER_SENSE)
                        .cloned(),
                );
                for (symbol, target, part, source, word) in &synset.pointers {
                    let Some(found) = synsets.get(&(*part, *target)) else {
                        continue;
                    };
                    match symbol.as_str() {
                        "@" if *letter == 'v' => {
                            kinds.extend(
                                found
                                    .words
                                    .iter()
                                    .filter(|w| related(w))
                                    .take(PER_SENSE)
                                    .cloned(),
                            );
                        }
                        // Derived nouns of verbs and verbs of nouns only.
                        "+" if own.is_some_and(|own| own + 1 == *source)
                            && matches!((*letter, *part), ('v', 'n') | ('n', 'v')) =>
                        {
                            if let Some(word) = found.words.get(word.wrapping_sub(1))
                                && related(word)
                                && word != lemma
                            {
                                derived.insert(word.clone());
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
        kinds.0.retain(|word| !synonyms.0.contains(word));
        if synonyms.0.is_empty() && kinds.0.is_empty() && derived.0.is_empty() {
            continue;
        }
        let list = |set: &Ordered| {
            set.0
                .iter()
                .take(RELATED)
                .cloned()
                .collect::<Vec<_>>()
                .join(",")
        };
        let _ = writeln!(
            table,
            "{lemma}:{};{};{}",
            list(&synonyms),
            list(&kinds),
            list(&derived)
        );
        rows += 1;
    }
    let licence = fs::read_to_string(COPYRIGHT).unwrap_or_default();
    let licence = licence_text(&licence);
    let mut out = String::new();
    out.push_str(
        "//! Related English words, generated by `cargo xtask lexicon` (see\n\
         //! `xtask/src/lexicon.rs`, which says what is kept) from the WordNet 3.0\n\
         //! database of Princeton University, as Debian's `wordnet-base` ships it.\n\
         //! Not edited by hand; nothing regenerates it during builds or tests.\n\
         //! The rows are in `lexicon.txt`, beside this file.\n\
         //!\n\
         //! Each line: `word:synonyms;verbs it is a kind of;derived words`.\n\
         //!\n\
         //! WordNet's licence, which applies to this table:\n\
         //!\n",
    );
    for line in licence.lines() {
        if line.is_empty() {
            out.push_str("//!\n");
        } else {
            let _ = writeln!(out, "//! {line}");
        }
    }
    out.push_str(
        "\n/// The table, one word per line.\npub(crate) const LEXICON: &str = include_str!(\"lexicon.txt\");\n",
    );
    let folder = root.join("mcp-server/src/discovery");
    let path = folder.join("lexicon.rs");
    fs::write(&path, out).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    let rows_path = folder.join("lexicon.txt");
    fs::write(&rows_path, &table)
        .map_err(|e| format!("cannot write {}: {e}", rows_path.display()))?;
    println!("{rows} words written to {}", path.display());
    Ok(())
}

/// Words in the order first inserted, each once.
#[derive(Default)]
struct Ordered(Vec<String>);

impl Ordered {
    fn insert(&mut self, word: String) {
        if !self.0.contains(&word) {
            self.0.push(word);
        }
    }

    fn extend(&mut self, words: impl IntoIterator<Item = String>) {
        for word in words {
            self.insert(word);
        }
    }
}

fn part_letter(part: &str) -> char {
    match part {
        "noun" => 'n',
        "verb" => 'v',
        "adj" => 'a',
        _ => 'r',
    }
}

/// One line of a `data.*` file.
fn parse_synset(line: &str) -> Option<(u32, Synset)> {
    let data = line.split(" | ").next()?;
    let fields: Vec<&str> = data.split_whitespace().collect();
    let offset: u32 = fields.first()?.parse().ok()?;
    let count = usize::from_str_radix(fields.get(3)?, 16).ok()?;
    let mut words = Vec::with_capacity(count);
    for index in 0..count {
        let word = fields.get(4 + index * 2)?;
        // Adjectives may carry a marker: `word(a)`.
        let word = word.split('(').next().unwrap_or(word);
        words.push(word.to_lowercase());
    }
    let at = 4 + count * 2;
    let pointer_count: usize = fields.get(at)?.parse().ok()?;
    let mut pointers = Vec::with_capacity(pointer_count);
    for index in 0..pointer_count {
        let base = at + 1 + index * 4;
        let symbol = fields.get(base)?.to_string();
        let target: u32 = fields.get(base + 1)?.parse().ok()?;
        let part = match fields.get(base + 2)?.chars().next()? {
            's' => 'a',
            other => other,
        };
        let words_field = fields.get(base + 3)?;
        let source = usize::from_str_radix(&words_field[..2], 16).ok()?;
        let target_word = usize::from_str_radix(&words_field[2..], 16).ok()?;
        pointers.push((symbol, target, part, source, target_word));
    }
    Some((offset, Synset { words, pointers }))
}

/// The WordNet licence paragraph of Debian's copyright file.
fn licence_text(copyright: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for line in copyright.lines() {
        if line.starts_with("License: WordNet3.0") {
            inside = true;
            continue;
        }
        if inside {
            if !line.starts_with(' ') {
                break;
            }
            let text = line.trim();
            out.push_str(if text == "." { "" } else { text });
            out.push('\n');
        }
    }
    if out.is_empty() {
        out.push_str("WordNet 3.0 Copyright 2006 by Princeton University. All rights reserved.\n");
    }
    out
}
