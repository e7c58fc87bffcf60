struct Session;

struct Opaque;

#[mcp_core::tool]
async fn tool_keys(
    #[arg(descripton = "The city.")] city: String,
    #[arg(description = "One.", description = "Two.")] unit: String,
    #[arg = "The day."] day: String,
) -> String {
    format!("{city} {unit} {day}")
}

#[mcp_core::tool]
async fn default_not_serialize(#[arg(default = Opaque)] count: u8) -> String {
    count.to_string()
}

#[mcp_core::tool]
async fn on_a_context(#[arg(description = "The session.")] session: &Session) -> String {
    let _ = session;
    String::new()
}

#[mcp_core::prompt]
async fn prompt_default(#[arg(default = "en")] language: String) -> String {
    language
}

#[mcp_core::resource(uri_template = "test://items/{id}")]
async fn resource_variable(#[arg(description = "The id.")] id: String) -> String {
    id
}

fn main() {}
