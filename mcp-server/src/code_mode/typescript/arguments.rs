//! The JSDoc lines of a tool's arguments, `@param input.name ...`, and the
//! argument descriptions common to a whole tool set (an API's `owner`,
//! `page`, `expand`), which say nothing a script needs and are left out
//! when declarations are shown together.

use std::collections::{HashMap, HashSet};

use mcp_core::Tool;
use serde_json::Value;

use super::doc;
use super::literal::property_key;
use crate::sentence::first_sentence;

/// The share of a tool set's tools an argument description must be in to
/// be common.
const COMMON_SHARE: f64 = 0.05;
/// The fewest tools an argument description must be in to be common.
const COMMON_TOOLS: usize = 3;

/// The argument descriptions shared by many tools of a set: pairs of an
/// argument name and the first sentence of its description.
#[derive(Debug, Default)]
pub(crate) struct CommonArguments(HashSet<(String, String)>);

impl CommonArguments {
    /// The descriptions shared by at least 5 % of `tools` (and at least
    /// three of them).
    pub(crate) fn of<'a>(tools: impl IntoIterator<Item = &'a Tool>) -> Self {
        let mut counts: HashMap<(String, String), usize> = HashMap::new();
        let mut total = 0;
        for tool in tools {
            total += 1;
            for (name, description) in described(tool.input_schema.root()) {
                *counts.entry((name.to_owned(), description)).or_default() += 1;
            }
        }
        let floor = ((total as f64 * COMMON_SHARE).ceil() as usize).max(COMMON_TOOLS);
        Self(
            counts
                .into_iter()
                .filter(|(_, count)| *count >= floor)
                .map(|(pair, _)| pair)
                .collect(),
        )
    }

    fn contains(&self, name: &str, description: &str) -> bool {
        self.0.contains(&(name.to_owned(), description.to_owned()))
    }
}

/// A `@param input.name ...` line per top-level argument of `input` with a
/// description that is not common: its first sentence, cut to `chars`.
pub(crate) fn argument_lines(
    input: &mcp_core::JsonObject,
    chars: usize,
    common: &CommonArguments,
) -> Vec<String> {
    described(input)
        .filter(|(name, description)| !common.contains(name, description))
        .map(|(name, description)| {
            let key = property_key(name);
            let path = if key.starts_with('"') {
                format!("input[{key}]")
            } else {
                format!("input.{key}")
            };
            format!("@param {path} {}", doc::cut(&description, chars))
        })
        .collect()
}

/// Each top-level argument with a description, and its first sentence.
fn described(input: &mcp_core::JsonObject) -> impl Iterator<Item = (&str, String)> {
    input
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .filter_map(|(name, schema)| {
            let paragraph = doc::first_paragraph(schema.get("description")?.as_str()?);
            let description = first_sentence(&paragraph).to_owned();
            (!description.is_empty()).then_some((name.as_str(), description))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tool(name: &str, properties: Value) -> Tool {
        let schema = json!({"type": "object", "properties": properties});
        mcp_core::tool(name)
            .input_schema(schema.as_object().cloned().unwrap_or_default())
            .build()
            .unwrap()
    }

    #[test]
    fn descriptions_many_tools_share_are_left_out() {
        let owner =
            json!({"type": "string", "description": "The account owner. Not case sensitive."});
        let tools: Vec<Tool> = (0..4)
            .map(|n| tool(&format!("t{n}"), json!({"owner": owner, "id": {"type": "integer", "description": format!("Tool {n}'s id.")}})))
            .collect();
        let common = CommonArguments::of(&tools);
        let lines = argument_lines(&tools[0].input_schema, 100, &common);
        assert_eq!(lines, ["@param input.id Tool 0's id."]);
        let alone = argument_lines(&tools[0].input_schema, 100, &CommonArguments::default());
        assert_eq!(
            alone,
            [
                "@param input.owner The account owner.",
                "@param input.id Tool 0's id."
            ]
        );
    }

    #[test]
    fn lines_cut_descriptions_and_quote_odd_names() {
        let tool = tool(
            "t",
            json!({
                "x-rate": {"type": "string", "description": "The rate, in requests per second of the whole account."},
                "bare": {"type": "string"},
                "blank": {"type": "string", "description": " "}
            }),
        );
        let lines = argument_lines(&tool.input_schema, 20, &CommonArguments::default());
        assert_eq!(lines, ["@param input[\"x-rate\"] The rate, in…"]);
    }
}
