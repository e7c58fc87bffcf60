//! Reading tools into the index's terms: each tool's text split into words,
//! each distinct word stemmed once, and the terms numbered in the order
//! they are first met. A large tool set is read in chunks on scoped
//! threads, each with a vocabulary of its own; the vocabularies are then
//! merged in chunk order, so the numbering is the one a single reader
//! would give.

use std::num::NonZeroUsize;
use std::thread;

use mcp_core::Tool;

use super::super::document::{Field, ToolText};
use super::super::toolsets::Toolsets;
use super::super::words::{Words, for_each_word, strip_markup};

/// The fewest tools a chunk is worth a thread for.
const TOOLS_PER_THREAD: usize = 512;
/// The most threads reading at once.
const MAX_THREADS: usize = 4;

/// The terms of a tool set, numbered from 0 in the order first met.
#[derive(Default)]
pub(super) struct Vocabulary {
    /// Each distinct word met, with the id of the term it stands for
    /// (`None`: a stop word).
    stems: foldhash::HashMap<String, Option<u32>>,
    pub(super) term_ids: foldhash::HashMap<String, u32>,
    pub(super) terms: Vec<String>,
}

impl Vocabulary {
    /// The id of `term`, made when new.
    pub(super) fn term_id(&mut self, term: &str) -> u32 {
        if let Some(&id) = self.term_ids.get(term) {
            return id;
        }
        let id = self.terms.len() as u32;
        self.term_ids.insert(term.to_owned(), id);
        self.terms.push(term.to_owned());
        id
    }

    /// The id of the term `word` stands for (made when new), or `None` for
    /// a stop word; each distinct word is stemmed once.
    fn word_id(&mut self, words: &Words, word: &str) -> Option<u32> {
        if let Some(&id) = self.stems.get(word) {
            return id;
        }
        let id = words.term(word).map(|term| self.term_id(&term));
        self.stems.insert(word.to_owned(), id);
        id
    }
}

/// The words of a tool's name that may say what it does, stemmed, and
/// those of its path's parameters, kept until every term is known.
pub(super) struct OperationWords {
    pub(super) name: Vec<String>,
    pub(super) parameters: Vec<String>,
    pub(super) method: Option<String>,
}

/// What the index keeps of one tool's text: term ids per field, never the
/// text itself.
pub(super) struct ToolTerms {
    /// The term ids of each field read, in [`Field::ALL`] order.
    pub(super) fields: [Vec<u32>; Field::ALL.len()],
    pub(super) operation: OperationWords,
    /// The name, lowercase.
    pub(super) name: String,
    pub(super) reads: bool,
    pub(super) people: bool,
    pub(super) updates_item: bool,
    pub(super) tags: Vec<String>,
}

/// The terms of `tools` (in the toolsets of `toolsets`, by position),
/// reading the fields `read` says, and the vocabulary that numbers them.
pub(super) fn read_tools(
    tools: &[&Tool],
    toolsets: &Toolsets,
    read: [bool; Field::ALL.len()],
) -> (Vocabulary, Vec<ToolTerms>) {
    let threads = thread::available_parallelism()
        .map_or(1, NonZeroUsize::get)
        .min(MAX_THREADS)
        .min(tools.len() / TOOLS_PER_THREAD)
        .max(1);
    if threads == 1 {
        return read_chunk(tools, 0, toolsets, read);
    }
    let chunk = tools.len().div_ceil(threads);
    let chunks: Vec<(Vocabulary, Vec<ToolTerms>)> = thread::scope(|scope| {
        // The first chunk is read on this thread, which reuses the memory
        // it freed before.
        let mut pieces = tools.chunks(chunk).enumerate();
        let first = pieces.next();
        let readers: Vec<_> = pieces
            .map(|(index, tools)| {
                scope.spawn(move || read_chunk(tools, index * chunk, toolsets, read))
            })
            .collect();
        let first = first.map(|(_, tools)| read_chunk(tools, 0, toolsets, read));
        first
            .into_iter()
            .chain(readers.into_iter().map(|reader| match reader.join() {
                Ok(read) => read,
                Err(panic) => std::panic::resume_unwind(panic),
            }))
            .collect()
    });
    merge(chunks)
}

/// The chunks' terms in one vocabulary: the first chunk's numbering, then
/// the terms each later chunk adds, in the order it met them.
fn merge(chunks: Vec<(Vocabulary, Vec<ToolTerms>)>) -> (Vocabulary, Vec<ToolTerms>) {
    let mut chunks = chunks.into_iter();
    let Some((mut vocabulary, mut all)) = chunks.next() else {
        return Default::default();
    };
    for (local, mut terms) in chunks {
        let global: Vec<u32> = local
            .terms
            .iter()
            .map(|term| vocabulary.term_id(term))
            .collect();
        for tool in &mut terms {
            for ids in &mut tool.fields {
                for id in ids {
                    *id = global[*id as usize];
                }
            }
        }
        all.append(&mut terms);
    }
    (vocabulary, all)
}

/// The terms of `tools`, the first of which is at `first` of the tool set.
fn read_chunk(
    tools: &[&Tool],
    first: usize,
    toolsets: &Toolsets,
    read: [bool; Field::ALL.len()],
) -> (Vocabulary, Vec<ToolTerms>) {
    let words = Words::new();
    let mut vocabulary = Vocabulary::default();
    let terms = tools
        .iter()
        .enumerate()
        .map(|(offset, tool)| {
            let text = ToolText::of(tool, first + offset, toolsets);
            let mut fields: [Vec<u32>; Field::ALL.len()] = Default::default();
            for ((raw, read), ids) in text.fields.iter().zip(read).zip(&mut fields) {
                if read {
                    for_each_word(&strip_markup(raw), |word| {
                        if let Some(id) = vocabulary.word_id(&words, word) {
                            ids.push(id);
                        }
                    });
                }
            }
            ToolTerms {
                fields,
                operation: OperationWords {
                    name: words.terms(&text.operation_name),
                    parameters: words.terms(&text.path_parameters),
                    method: text.method,
                },
                name: text.fields[Field::Name.index()].to_lowercase(),
                reads: text.reads,
                people: text.people,
                updates_item: text.updates_item,
                tags: text.tags,
            }
        })
        .collect();
    (vocabulary, terms)
}

#[cfg(test)]
mod tests {
    use mcp_core::ToolDef;

    use super::*;

    /// A word made of `n`'s digits as letters (`517` is `fbh`).
    fn word(n: usize) -> String {
        n.to_string()
            .bytes()
            .map(|digit| char::from(b'a' + digit - b'0'))
            .collect()
    }

    fn tool(name: &str, description: &str) -> ToolDef {
        mcp_core::tool(name)
            .description(description)
            .run(|| async { "" })
            .unwrap()
    }

    /// Chunks read on threads number the terms as one reader does.
    #[test]
    fn chunked_reading_numbers_terms_as_one_reader() {
        let defs: Vec<ToolDef> = (0..3 * TOOLS_PER_THREAD)
            .map(|index| {
                tool(
                    &format!("thing_{}", word(index)),
                    &format!(
                        "Lists widgets of kind {} and {}",
                        word(index % 97),
                        word(index)
                    ),
                )
            })
            .collect();
        let tools: Vec<&Tool> = defs.iter().map(ToolDef::tool).collect();
        let read = [true; Field::ALL.len()];
        let toolsets = Toolsets::default();
        let (one, one_terms) = read_chunk(&tools, 0, &toolsets, read);
        let chunks = tools
            .chunks(TOOLS_PER_THREAD)
            .enumerate()
            .map(|(index, chunk)| read_chunk(chunk, index * TOOLS_PER_THREAD, &toolsets, read))
            .collect();
        let (merged, merged_terms) = merge(chunks);
        assert!(
            one.terms.len() > 2 * TOOLS_PER_THREAD,
            "later chunks add terms"
        );
        assert_eq!(merged.terms, one.terms);
        assert_eq!(merged_terms.len(), one_terms.len());
        for (merged, one) in merged_terms.iter().zip(&one_terms) {
            assert_eq!(merged.fields, one.fields);
            assert_eq!(merged.name, one.name);
        }
    }
}
