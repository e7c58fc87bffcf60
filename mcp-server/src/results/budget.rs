//! A tool result within the bytes a model can take: a larger JSON result
//! is cut at whole items and stays valid JSON of the same shape, followed
//! by a note saying what was cut and how to get the rest (a link to the
//! whole result, the tool's own paging arguments), and the link itself.

use mcp_core::content::Content;
use mcp_core::resource::Resource;
use mcp_core::schema::json_len;
use mcp_core::{CallToolResult, Tool};
use serde_json::Value;

use super::cut::{Cut, fit};
use super::readable_size as size;
use super::spill::KEPT_FOR;

/// The bytes the note and the link take, kept free of the budget.
const NOTE_BYTES: usize = 600;
/// Arguments by which APIs page through lists.
const PAGING: [&str; 18] = [
    "page",
    "per_page",
    "page_size",
    "pageSize",
    "limit",
    "offset",
    "cursor",
    "after",
    "before",
    "starting_after",
    "ending_before",
    "page_token",
    "pageToken",
    "max_results",
    "maxResults",
    "top",
    "skip",
    "first",
];

/// `result` of `tool` within `budget` bytes of text and of structured
/// content; `keep` keeps the whole result and returns its URI.
pub(crate) fn within(
    tool: &Tool,
    mut result: CallToolResult,
    budget: usize,
    keep: impl FnOnce(String) -> Option<String>,
) -> CallToolResult {
    if result.is_error() || result.protocol_error().is_some() {
        return result;
    }
    let text_bytes: usize = result
        .content
        .iter()
        .filter_map(Content::as_text)
        .map(str::len)
        .sum();
    let structured_bytes = result.structured_content.as_ref().map_or(0, json_len);
    let whole_bytes = text_bytes.max(structured_bytes);
    if whole_bytes <= budget {
        return result;
    }
    let room = budget.saturating_sub(NOTE_BYTES).max(budget / 2);
    let mut cuts = Vec::new();
    let whole = match &result.structured_content {
        Some(structured) => structured.to_string(),
        None => result.text_content(),
    };
    if let Some(structured) = result.structured_content.as_mut() {
        let before = structured.to_string();
        cuts = fit(structured, room, &required(tool));
        let after = structured.to_string();
        for content in &mut result.content {
            if let Content::Text(block) = content {
                block.text = if block.text == before {
                    after.clone()
                } else {
                    cut_text_block(&block.text, room, &mut cuts)
                };
            }
        }
    } else {
        for content in &mut result.content {
            if let Content::Text(block) = content {
                block.text = cut_text_block(&block.text, room, &mut cuts);
            }
        }
    }
    let uri = keep(whole);
    result.content.push(Content::text(note(
        tool,
        budget,
        whole_bytes,
        &cuts,
        uri.as_deref(),
    )));
    if let Some(uri) = uri {
        let mut link = Resource::new(uri, format!("{}-result", tool.name));
        link.description = Some(format!(
            "The whole result of `{}`, before it was cut",
            tool.name
        ));
        link.mime_type = Some("application/json".into());
        link.size = u64::try_from(whole_bytes).ok();
        result.content.push(Content::ResourceLink(link));
    }
    result
}

/// A text block within `room` bytes: JSON cut at whole items, other text
/// cut at a character boundary.
fn cut_text_block(text: &str, room: usize, cuts: &mut Vec<Cut>) -> String {
    if text.len() <= room {
        return text.to_owned();
    }
    if let Ok(mut value) = serde_json::from_str::<Value>(text) {
        let made = fit(&mut value, room, &[]);
        if cuts.is_empty() {
            cuts.extend(made);
        }
        return value.to_string();
    }
    let mut end = room;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    if cuts.is_empty() {
        cuts.push(Cut::Text {
            path: String::new(),
            kept: text[..end].chars().count(),
            total: text.chars().count(),
        });
    }
    text[..end].to_owned()
}

/// The root members the output schema requires (they stay).
fn required(tool: &Tool) -> Vec<String> {
    let Some(schema) = &tool.output_schema else {
        return Vec::new();
    };
    let root = schema.root();
    let branches = root
        .get("anyOf")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    std::iter::once(root.get("required"))
        .chain(branches.iter().map(|branch| branch.get("required")))
        .flatten()
        .filter_map(Value::as_array)
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_owned)
        .collect()
}

/// What the model reads after a cut result.
fn note(tool: &Tool, budget: usize, whole: usize, cuts: &[Cut], uri: Option<&str>) -> String {
    let what: Vec<String> = cuts.iter().map(Cut::describe).collect();
    let mut note = format!(
        "The result was cut to fit {} (the whole result is {})",
        size(budget),
        size(whole)
    );
    if !what.is_empty() {
        note.push_str(&format!(": {}", what.join("; ")));
    }
    note.push('.');
    if let Some(uri) = uri {
        note.push_str(&format!(
            " The whole result: resources/read `{uri}` (for {} minutes).",
            KEPT_FOR.as_secs() / 60
        ));
    }
    let paging: Vec<&str> = PAGING
        .iter()
        .copied()
        .filter(|name| {
            tool.input_schema
                .root()
                .get("properties")
                .and_then(|p| p.get(*name))
                .is_some()
        })
        .collect();
    if !paging.is_empty() {
        let quoted: Vec<String> = paging.iter().map(|name| format!("`{name}`")).collect();
        note.push_str(&format!(
            " Or ask for less at a time with {}.",
            quoted.join(", ")
        ));
    }
    note
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn tool() -> Tool {
        let schema = json!({"type": "object", "properties": {"page": {"type": "integer"}, "per_page": {"type": "integer"}}});
        mcp_core::tool("issues_list")
            .input_schema(schema.as_object().cloned().unwrap())
            .build()
            .unwrap()
    }

    fn issues(count: usize) -> Value {
        Value::Array(
            (0..count)
                .map(|number| json!({"number": number, "title": "t".repeat(1_000)}))
                .collect(),
        )
    }

    #[test]
    fn a_large_list_is_cut_with_a_note_and_a_link() {
        let whole = json!({"result": issues(150)});
        let mut result = CallToolResult::structured(whole.clone());
        result.content = vec![Content::text(whole.to_string())];
        let mut kept = None;
        let cut = within(&tool(), result, 32_000, |text| {
            kept = Some(text);
            Some("mcp-toolkit://results/abc".into())
        });
        assert_eq!(kept.as_deref(), Some(whole.to_string().as_str()));
        let structured = cut.structured_content.clone().unwrap();
        let items = structured["result"].as_array().unwrap();
        assert!(!items.is_empty() && items.len() < 150);
        assert_eq!(
            items[..],
            whole["result"].as_array().unwrap()[..items.len()]
        );
        let text = cut.content[0].as_text().unwrap();
        assert!(text.len() <= 32_000);
        assert_eq!(serde_json::from_str::<Value>(text).unwrap(), structured);
        let note = cut.content[1].as_text().unwrap();
        assert!(
            note.contains(&format!(
                "kept the first {} of 150 items of `result`",
                items.len()
            )),
            "{note}"
        );
        assert!(
            note.contains("resources/read `mcp-toolkit://results/abc`"),
            "{note}"
        );
        assert!(note.contains("`page`, `per_page`"), "{note}");
        assert!(
            matches!(&cut.content[2], Content::ResourceLink(link) if link.uri == "mcp-toolkit://results/abc")
        );
    }

    #[test]
    fn small_results_and_errors_pass_unchanged() {
        let small = CallToolResult::text("fine");
        assert_eq!(within(&tool(), small.clone(), 32_000, |_| None), small);
        let error = CallToolResult::error("x".repeat(50_000));
        assert_eq!(within(&tool(), error.clone(), 32_000, |_| None), error);
    }

    #[test]
    fn plain_text_is_cut_at_a_character_boundary() {
        let long = CallToolResult::text("é".repeat(40_000));
        let cut = within(&tool(), long, 32_000, |_| None);
        let text = cut.content[0].as_text().unwrap();
        assert!(text.len() <= 32_000 && text.chars().all(|c| c == 'é'));
        assert!(
            cut.content[1]
                .as_text()
                .unwrap()
                .contains("characters of the result")
        );
    }
}
