//! The TypeScript declaration a script codes against, one per tool: a
//! JSDoc comment (the first paragraph of the description, then a line per
//! described argument), the member `identifier(input: {...}):
//! Promise<Output>` of the sandbox's `tools` object, then the type aliases
//! it names (a definition on a cycle, or reached more than once).
//!
//! ```text
//! /**
//!  * List repository issues
//!  * @param input.owner The account owner of the repository.
//!  */
//! issues_list_for_repo(input: { owner: string; repo: string; state?: "open" | "closed" | "all" }): Promise<Issue[]>
//! type Issue = { id: number; title: string; labels: Label[] };
//! type Label = { name: string };
//! ```
//!
//! The input type comes from the input schema; the output type from the
//! output schema as a script sees the result: unwrapped from `{"result":
//! ...}` when the tool wraps a non-object, and without the envelope a
//! generated tool returns when the upstream response does not match its
//! document (see [`output`]); `unknown` without an output schema.
//!
//! Declarations stay small: a declaration is written at the most detailed
//! of a few [levels](declaration_at) that fits its budget, each spelling
//! out fewer nested objects, properties, enum values and argument
//! descriptions than the one before.

mod arguments;
mod convert;
#[cfg(all(test, feature = "openapi"))]
pub(crate) mod corpus;
mod direct;
mod doc;
pub(crate) mod literal;
mod output;
mod refs;
mod ty;

use mcp_core::Tool;
use serde_json::Value;

pub(crate) use arguments::CommonArguments;
use convert::{Converter, Detail, Document};
use literal::string_literal;
use refs::Definitions;

/// The bytes a declaration should fit in when written alone.
pub(crate) const DECLARATION_BYTES: usize = 1_200;

/// Everything is spelled out up to this many levels of nested objects.
const DEEP: usize = usize::MAX;

/// One level of detail: how the input and the output are spelled out, and
/// how long the descriptions are.
#[derive(Clone, Copy, Debug)]
struct Level {
    input: Detail,
    output: Detail,
    /// The characters of the tool's summary.
    summary: usize,
    /// The characters of each argument's description (0: none).
    argument: usize,
}

const fn detail(
    depth: usize,
    root_properties: usize,
    properties: usize,
    enum_values: usize,
) -> Detail {
    Detail {
        depth,
        root_properties,
        properties,
        enum_values,
    }
}

/// The levels, most detailed first: each spells out less than the one
/// before (output before input, argument descriptions before types).
const LEVELS: [Level; 6] = [
    Level {
        input: detail(4, DEEP, 16, 24),
        output: detail(3, 24, 12, 12),
        summary: 240,
        argument: 100,
    },
    Level {
        input: detail(3, DEEP, 12, 16),
        output: detail(2, 16, 8, 8),
        summary: 160,
        argument: 60,
    },
    Level {
        input: detail(3, DEEP, 12, 16),
        output: detail(1, 10, 0, 6),
        summary: 160,
        argument: 60,
    },
    Level {
        input: detail(2, DEEP, 8, 12),
        output: detail(1, 10, 0, 6),
        summary: 120,
        argument: 0,
    },
    Level {
        input: detail(1, DEEP, 0, 8),
        output: detail(1, 6, 0, 4),
        summary: 120,
        argument: 0,
    },
    Level {
        input: detail(1, DEEP, 0, 6),
        output: detail(0, 0, 0, 4),
        summary: 80,
        argument: 0,
    },
];

/// How many levels of detail there are ([`declaration_at`] accepts
/// `0..LEVEL_COUNT`).
pub(crate) const LEVEL_COUNT: usize = LEVELS.len();

/// The declaration of `tool` as the member `identifier` of the sandbox's
/// `tools` object, within [`DECLARATION_BYTES`] where a level of detail
/// fits.
#[cfg(all(test, feature = "openapi"))]
pub(crate) fn declaration(tool: &Tool, identifier: &str) -> String {
    let common = CommonArguments::default();
    let mut last = String::new();
    for level in 0..LEVEL_COUNT {
        last = declaration_at(tool, identifier, level, &common);
        if last.len() <= DECLARATION_BYTES {
            break;
        }
    }
    last
}

/// The declaration of `tool` at the level of detail `level` (0 is the
/// most detailed; a level past the last is the last), without the argument
/// descriptions in `common`.
pub(crate) fn declaration_at(
    tool: &Tool,
    identifier: &str,
    level: usize,
    common: &CommonArguments,
) -> String {
    let level = LEVELS[level.min(LEVEL_COUNT - 1)];
    // The roots are copied for this declaration; shared definitions are
    // read where they are.
    let input = Value::Object(tool.input_schema.root().clone());
    let output = tool
        .output_schema
        .as_ref()
        .map(|schema| (Value::Object(schema.root().clone()), schema));
    let mut converter = Converter::default();

    let input_definitions = Definitions::Tool {
        root: &input,
        schema: &tool.input_schema,
    };
    let input_document = Document::new(0, input_definitions, &input, level.input);
    let input_ty = converter.convert(&input_document, &input);
    let arguments_abbreviated = converter.abbreviated();
    let output_ty = match &output {
        Some((root, schema)) => {
            let entry = output::entry(tool, root);
            let definitions = Definitions::Tool { root, schema };
            let document = Document::new(1, definitions, entry, level.output);
            converter.convert(&document, entry)
        }
        None => ty::Ty::Unknown,
    };

    let summary = tool
        .description
        .as_deref()
        .map(doc::first_paragraph)
        .map(|summary| doc::cut(&summary, level.summary));
    let mut tags = Vec::new();
    if level.argument > 0 {
        tags.extend(arguments::argument_lines(
            tool.input_schema.root(),
            level.argument,
            common,
        ));
    }
    if arguments_abbreviated {
        tags.push(
            "@remarks Arguments abbreviated: search with `detail: true` for the full input schema."
                .to_owned(),
        );
    }
    let optional = required_count(&input) == 0;
    let member = format!(
        "{}(input{}: {input_ty}): Promise<{output_ty}>",
        member_name(identifier),
        if optional { "?" } else { "" },
    );
    let mut text = String::new();
    if let Some(comment) = doc::comment(summary.as_deref(), &tags) {
        text.push_str(&comment);
        text.push('\n');
    }
    text.push_str(&member);
    for alias in converter.aliases() {
        text.push('\n');
        text.push_str(&alias);
    }
    text
}

/// The first paragraph of `tool`'s description as plain one-line text, cut
/// to `chars` characters (empty without a description).
pub(crate) fn summary(tool: &Tool, chars: usize) -> String {
    let paragraph = doc::first_paragraph(tool.description.as_deref().unwrap_or_default());
    doc::cut(&paragraph, chars)
}

/// Whether `tool` sends a response that does not match its document in the
/// [`unvalidated`](mcp_core::tool::unvalidated) envelope (generated tools
/// do); a script gets the response itself, so its declaration shows the
/// documented shape only.
pub(crate) fn declares_envelope(tool: &Tool) -> bool {
    output::is_tolerant(tool)
}

/// The name of the member: `identifier` when it is one, else quoted (the
/// script then writes `tools["..."]`).
fn member_name(identifier: &str) -> String {
    if literal::is_identifier(identifier) {
        identifier.to_owned()
    } else {
        string_literal(identifier)
    }
}

/// How many arguments the input schema requires.
fn required_count(input: &Value) -> usize {
    input
        .get("required")
        .and_then(Value::as_array)
        .map_or(0, Vec::len)
}

#[cfg(all(test, feature = "openapi"))]
mod tests;
