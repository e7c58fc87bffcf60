//! A macro tool and a builder tool with the same metadata are the same
//! `Tool`.

use mcp_core::{Hint, Icon, ToolDef, ToolExecution, icon::IconTheme, tool};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use testdata::tools::BRAND;

#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct DeleteRequest {
    /// The user's id.
    pub(crate) id: String,
}

#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct DeleteResponse {
    pub(crate) ok: bool,
}

#[derive(Debug)]
pub(crate) struct MyError;

impl std::fmt::Display for MyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("no such user")
    }
}

/// Permanently remove a user account by id. This cannot be undone.
#[mcp_core::tool(
    name = "delete_user",
    title = "Delete user",
    annotations(destroy, closed_world),
    icon(png = "https://example.com/delete.png", sizes = ["48x48", "any"]),
    execution = "optional",
    meta("com.example.acme/audit-tier" = "high"),
    scopes = ["users:delete"],
)]
pub(crate) async fn delete_user(req: DeleteRequest) -> Result<DeleteResponse, MyError> {
    if req.id == "missing" {
        Err(MyError)
    } else {
        Ok(DeleteResponse { ok: true })
    }
}

/// Adds two numbers.
///
/// Both are integers.
#[mcp_core::tool(
    name = "everything.add",
    metadata = BRAND,
    title = "Add",
    annotations(read, idempotent, open_world, title = "Adder"),
    icon(svg = "https://example.com/add.svg", theme = "dark"),
    icon(jpeg = "https://example.com/add.jpg", sizes = ["16x16"]),
    execution = "required",
    meta("com.example/a" = 1, "com.example/b" = true),
    meta("plain" = "x"),
)]
pub(crate) async fn add(a: i64, b: Option<i64>) -> i64 {
    a + b.unwrap_or(0)
}

#[derive(Deserialize, JsonSchema)]
struct AddArgs {
    a: i64,
    b: Option<i64>,
}

#[test]
fn delete_user_is_the_builder_chain_of_the_issue() {
    let macro_tool = delete_user_tool().unwrap();
    let builder_tool: ToolDef = tool("delete_user")
        .description("Permanently remove a user account by id. This cannot be undone.")
        .title("Delete user")
        .annotations([Hint::Destroy, Hint::ClosedWorld])
        .icon(Icon::png(
            "https://example.com/delete.png",
            &["48x48", "any"],
        ))
        .execution(ToolExecution::optional())
        .meta("com.example.acme/audit-tier", "high".into())
        .scopes(["users:delete"])
        .input::<DeleteRequest>()
        .output::<DeleteResponse>()
        .run(delete_user)
        .unwrap();
    assert_eq!(macro_tool.tool(), builder_tool.tool());
    assert_eq!(macro_tool.required_scopes(), ["users:delete"]);
    assert_eq!(macro_tool.required_scopes(), builder_tool.required_scopes());
    assert_eq!(
        serde_json::to_value(macro_tool.tool()).unwrap(),
        serde_json::to_value(builder_tool.tool()).unwrap()
    );
    insta::assert_json_snapshot!("delete_user", macro_tool.tool());
}

#[test]
fn every_attribute_matches_the_builder() {
    let macro_tool = add_tool().unwrap();
    let builder_tool: ToolDef = tool("everything.add")
        .description("Adds two numbers.\n\nBoth are integers.")
        .metadata(&BRAND)
        .title("Add")
        .annotations([
            Hint::Read,
            Hint::Idempotent,
            Hint::OpenWorld,
            Hint::Title("Adder".into()),
        ])
        .icon(Icon::svg("https://example.com/add.svg", &[]).theme(IconTheme::Dark))
        .icon(Icon::jpeg("https://example.com/add.jpg", &["16x16"]))
        .execution(ToolExecution::required())
        .meta("com.example/a", 1.into())
        .meta("com.example/b", true.into())
        .meta("plain", "x".into())
        .input::<AddArgs>()
        .output::<i64>()
        .run(|args: AddArgs| add(args.a, args.b))
        .unwrap();
    assert_eq!(macro_tool.tool(), builder_tool.tool());
    insta::assert_json_snapshot!("everything_add", macro_tool.tool());
}
