//! The tools the tests build the same way in several crates: `delete_user`
//! (typed input and output, icons, hints, `execution`, `_meta`), the
//! [`BRAND`] metadata bundle, and one tool of every kind the builder makes
//! ([`every_kind_of_tool`]). Feature `tools`.
//!
//! ```
//! let tools = testdata::tools::every_kind_of_tool();
//! assert_eq!(tools[0].name(), "delete_user");
//! assert!(tools.iter().any(|def| def.name() == "branded"));
//! ```

use std::sync::LazyLock;

use mcp_core::{
    Hint, Icon, Metadata, ToolAnnotations, ToolDef, ToolExecution, icon::IconTheme, tool,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

/// The arguments of `delete_user`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct DeleteRequest {
    /// The user's id.
    pub id: String,
    /// Also remove their files.
    #[serde(default)]
    pub purge: bool,
}

/// What `delete_user` answers: `ok` (always `true`) and `purged` (whether
/// the files went too). The fields have no doc comments, which would
/// become descriptions in the output schema.
#[derive(Debug, Serialize, JsonSchema)]
#[allow(missing_docs, reason = "the schema of this output has no descriptions")]
pub struct DeleteResponse {
    pub ok: bool,
    pub purged: bool,
}

/// `delete_user`'s error: the user `404` does not exist.
#[derive(Debug, thiserror::Error)]
#[error("user {0} does not exist")]
pub struct NoSuchUser(pub String);

async fn do_delete(req: DeleteRequest) -> Result<DeleteResponse, NoSuchUser> {
    if req.id == "404" {
        return Err(NoSuchUser(req.id));
    }
    Ok(DeleteResponse {
        ok: true,
        purged: req.purge,
    })
}

/// A tool using every field a tool has: title, description, two icons,
/// hints, `execution`, `_meta`, typed input and output.
pub fn delete_user() -> ToolDef {
    tool("delete_user")
        .title("Delete user")
        .description("Permanently remove a user account by id. This cannot be undone.")
        .icon(Icon::png(
            "https://example.com/icons/delete.png",
            &["48x48", "any"],
        ))
        .icon(Icon::svg("https://example.com/icons/delete.svg", &[]).theme(IconTheme::Dark))
        .annotations([Hint::Destroy, Hint::ClosedWorld])
        .execution(ToolExecution::optional())
        .meta("com.example.acme/audit-tier", json!("high"))
        .input::<DeleteRequest>()
        .output::<DeleteResponse>()
        .run(do_delete)
        .expect("delete_user is a valid tool")
}

/// A shared metadata bundle: a title, an icon and a `_meta` entry.
pub static BRAND: LazyLock<Metadata> = LazyLock::new(|| {
    Metadata::new()
        .title("Brand title")
        .icon(Icon::svg("https://example.com/brand.svg", &[]))
        .meta("com.example.acme/team", json!("platform"))
});

/// Tools built every way the builder allows, [`delete_user`] first: raw
/// JSON arguments, a wrapped non-object output, a [`BRAND`]ed tool, every
/// hint at its default, a titled tool with two icons, hand-written
/// schemas, and the longest name the rule allows.
pub fn every_kind_of_tool() -> Vec<ToolDef> {
    let raw: ToolDef = tool("raw")
        .run(|_: mcp_core::JsonObject| async { "ok" })
        .expect("valid");
    let wrapped: ToolDef = tool("count")
        .output::<Vec<u32>>()
        .run(|| async { vec![1, 2] })
        .expect("valid");
    let branded: ToolDef = tool("branded")
        .metadata(&BRAND)
        .title("Own title")
        .run(|| async { "" })
        .expect("valid");
    let all_defaults: ToolDef = tool("defaults")
        .annotations(ToolAnnotations::defaults())
        .icon(Icon::data_encode("image/svg+xml", "<svg/>"))
        .execution(ToolExecution::required())
        .run(|| async { "" })
        .expect("valid");
    let titled: ToolDef = tool("titled.v2-x")
        .annotations([Hint::Read, Hint::Idempotent, Hint::Title("Read it".into())])
        .icon(Icon::jpeg("https://example.com/a.jpg", &["16x16"]).theme(IconTheme::Light))
        .icon(Icon::webp("https://example.com/a.webp", &[]))
        .run(|| async { "" })
        .expect("valid");
    let schema: ToolDef = tool("hand_schema")
        .input_schema(
            serde_json::from_value(
                json!({"type": "object", "properties": {"q": {"type": "string"}}}),
            )
            .expect("an object"),
        )
        .output_schema(serde_json::from_value(json!({"type": "object"})).expect("an object"))
        .run(|_: mcp_core::JsonObject| async { "" })
        .expect("valid");
    let mut max_name = "n".repeat(128);
    max_name.replace_range(0..1, "N");
    let long: ToolDef = tool(max_name).run(|| async { "" }).expect("valid");
    vec![
        delete_user(),
        raw,
        wrapped,
        branded,
        all_defaults,
        titled,
        schema,
        long,
    ]
}
