//! `#[toolbox]`: tools sharing state, with call and session contexts.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use futures_executor::block_on;
use mcp_core::{ToolCallContext, ToolDef, tool::CallToolRequest};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

/// The per-session context of this server.
#[derive(Default)]
pub(crate) struct Tenant {
    name: String,
}

#[derive(Default)]
pub(crate) struct Users {
    calls: AtomicUsize,
}

#[derive(Deserialize, JsonSchema)]
pub(crate) struct Page {
    /// How many users to return.
    limit: usize,
}

#[derive(Serialize, JsonSchema)]
pub(crate) struct Listing {
    users: Vec<String>,
}

#[mcp_core::toolbox]
impl Users {
    /// Lists the users of the caller's tenant.
    #[mcp_core::tool(annotations(read))]
    pub(crate) async fn list(&self, page: Page, tenant: &Tenant) -> Listing {
        self.calls.fetch_add(1, Ordering::SeqCst);
        let users = (0..page.limit)
            .map(|i| format!("{}-{i}", tenant.name))
            .collect();
        Listing { users }
    }

    /// Counts the calls so far.
    #[mcp_core::tool(name = "calls")]
    pub(crate) async fn count(self: Arc<Self>, cx: &ToolCallContext<Tenant>) -> String {
        format!(
            "{} calls for {}",
            self.calls.load(Ordering::SeqCst),
            cx.ctx().name
        )
    }
}

fn call(def: &ToolDef<Tenant>, arguments: serde_json::Value) -> mcp_core::CallToolResult {
    let request = CallToolRequest::new(def.name(), arguments.as_object().cloned());
    let tenant = Arc::new(Tenant {
        name: "acme".to_owned(),
    });
    block_on(def.call(def.context(request, tenant)))
}

#[test]
fn toolbox_tools_share_state_and_see_the_session() {
    let users = Arc::new(Users::default());
    let tools: Vec<ToolDef<Tenant>> = users.tools().unwrap();
    assert_eq!(
        tools.iter().map(ToolDef::name).collect::<Vec<_>>(),
        ["list", "calls"]
    );

    let list = &tools[0];
    assert_eq!(
        list.tool().input_schema["properties"]["limit"]["description"],
        "How many users to return."
    );
    assert_eq!(
        list.tool().description.as_deref(),
        Some("Lists the users of the caller's tenant.")
    );
    let result = call(list, json!({"limit": 2}));
    assert_eq!(
        result.structured_content,
        Some(json!({"users": ["acme-0", "acme-1"]}))
    );
    let bad = call(list, json!({"limit": -1}));
    assert!(bad.is_error());
    assert_eq!(
        bad.text_content(),
        "invalid arguments for tool `list`:\n/limit: -1 is less than the minimum of 0"
    );

    assert_eq!(
        call(&tools[1], json!({})).text_content(),
        "1 calls for acme"
    );
    assert_eq!(users.calls.load(Ordering::SeqCst), 1);
}

#[test]
fn toolbox_methods_stay_callable() {
    let users = Arc::new(Users::default());
    let tenant = Tenant {
        name: "t".to_owned(),
    };
    let listing = block_on(users.list(Page { limit: 1 }, &tenant));
    assert_eq!(listing.users, ["t-0"]);
    let one = users.list_tool().unwrap();
    assert_eq!(one.name(), "list");
}
