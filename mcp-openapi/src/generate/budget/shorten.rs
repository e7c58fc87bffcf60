//! Descriptions cut to their first sentence (the first trimming step's
//! second half: descriptions do not take part in validation), and the
//! length of a JSON string, measured without a serializer.

use serde_json::Value;

use super::walk::{loosenable_subschemas_mut, subschemas};
use crate::ir::JsonObject;

/// The length of `text` as a JSON string, quoted and escaped as
/// [`json_len`] counts it (without going through a serializer).
pub(super) fn str_len(text: &str) -> usize {
    let escaped: usize = text
        .bytes()
        .map(|byte| match byte {
            b'"' | b'\\' | b'\n' | b'\r' | b'\t' | 0x08 | 0x0c => 2,
            0..=0x1f => 6,
            _ => 1,
        })
        .sum();
    escaped + 2
}

/// The longest description kept below the root, in characters.
const SHORT_DESCRIPTION: usize = 120;

/// Cuts every description under `schema` (and its own unless `is_root`) to
/// its first sentence, at most [`SHORT_DESCRIPTION`] characters.
pub(super) fn shorten_descriptions(schema: &mut JsonObject, is_root: bool) {
    if !is_root
        && let Some(Value::String(text)) = schema.get_mut("description")
        && let Some(short) = short_description(text)
    {
        *text = short;
    }
    loosenable_subschemas_mut(schema, |sub| shorten_descriptions(sub, false));
}

/// How many bytes of compact JSON [`shorten_descriptions`] takes off
/// `schema`, without changing it.
pub(super) fn shortened_by(schema: &JsonObject, is_root: bool) -> usize {
    let mut saved = 0;
    if !is_root
        && let Some(Value::String(text)) = schema.get("description")
        && let Some((kept, cut)) = short_parts(text)
    {
        let short_len = str_len(kept) + if cut { '…'.len_utf8() } else { 0 } + 1;
        saved += str_len(text) - short_len;
    }
    subschemas(schema, |sub, loosenable| {
        if loosenable {
            saved += shortened_by(sub, false);
        }
    });
    saved
}

/// The first sentence of `text`, at most [`SHORT_DESCRIPTION`] characters,
/// when that is shorter than `text`.
fn short_description(text: &str) -> Option<String> {
    let (kept, cut) = short_parts(text)?;
    let mut short = String::with_capacity(kept.len() + 4);
    short.push_str(kept);
    if cut {
        short.push('…');
    }
    short.push('.');
    Some(short)
}

/// [`short_description`] as the text it keeps of `text` and whether it
/// cut that text short (then an ellipsis follows, before the period).
fn short_parts(text: &str) -> Option<(&str, bool)> {
    let first = text
        .split(". ")
        .next()
        .unwrap_or_default()
        .trim_end_matches('.');
    let kept = first
        .char_indices()
        .nth(SHORT_DESCRIPTION)
        .map_or(first, |(at, _)| &first[..at]);
    let cut = kept.len() < first.len();
    let len = kept.len() + if cut { '…'.len_utf8() } else { 0 } + 1;
    (len < text.len()).then_some((kept, cut))
}
