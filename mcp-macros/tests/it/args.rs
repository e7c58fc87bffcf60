//! `#[arg(..)]` on plain parameters: each property's description, default
//! and examples, and what a call with a wrong enum value is told.

use futures_executor::block_on;
use mcp_core::{SchemaError, ToolDef, ToolError};
use serde_json::json;

/// A temperature unit.
#[derive(serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Unit {
    /// Degrees Celsius.
    Celsius,
    /// Degrees Fahrenheit.
    Fahrenheit,
}

/// Tomorrow's weather in a city.
#[mcp_core::tool]
async fn forecast(
    #[arg(
        description = "The city to forecast, e.g. Paris or Lyon.",
        example = "Paris"
    )]
    city: String,
    #[arg(description = "The unit of the temperatures.", default = Unit::Celsius)] unit: Unit,
    #[arg(default = 1, example = 1, example = 7)] days: u8,
) -> String {
    let unit = match unit {
        Unit::Celsius => "°C",
        Unit::Fahrenheit => "°F",
    };
    format!("{city}: 21 {unit} for {days} day(s)")
}

#[test]
fn arg_sets_the_description_default_and_examples_of_the_property() {
    let def = forecast_tool().unwrap();
    assert_eq!(def.name(), "forecast");
    let schema = &def.tool().input_schema;
    let city = &schema["properties"]["city"];
    assert_eq!(
        city["description"],
        "The city to forecast, e.g. Paris or Lyon."
    );
    assert_eq!(city["examples"], json!(["Paris"]));
    assert_eq!(
        schema["properties"]["unit"]["description"],
        "The unit of the temperatures."
    );
    assert_eq!(schema["properties"]["unit"]["default"], "celsius");
    assert_eq!(schema["properties"]["days"]["default"], 1);
    assert_eq!(schema["properties"]["days"]["examples"], json!([1, 7]));
    // A parameter with a default may be left out.
    assert_eq!(schema["required"], json!(["city"]));
    insta::assert_json_snapshot!("forecast_input_schema", schema);
}

#[test]
fn a_left_out_argument_takes_its_default() {
    let def = forecast_tool().unwrap();
    let result = block_on(def.call_detached(json!({"city": "Lyon"})));
    assert_eq!(result.text_content(), "Lyon: 21 °C for 1 day(s)");
}

#[test]
fn a_wrong_enum_value_names_the_values_allowed() {
    let def = forecast_tool().unwrap();
    let result = block_on(def.call_detached(json!({"city": "Paris", "unit": "kelvin"})));
    assert!(result.is_error());
    assert_eq!(
        result.text_content(),
        "invalid arguments for tool `forecast`:\n/unit: \"kelvin\" is not one of \"celsius\", \"fahrenheit\""
    );
}

/// Counts up.
#[mcp_core::tool]
async fn count(#[arg(default = "many")] to: u8) -> String {
    to.to_string()
}

#[test]
fn a_default_outside_the_type_fails_the_build_naming_it() {
    let error = count_tool().unwrap_err();
    assert!(matches!(
        error,
        ToolError::Schema {
            error: SchemaError::Argument { .. },
            ..
        }
    ));
    let message = error.to_string();
    assert!(
        message.starts_with(
            "tool `count`: argument `to`: the default \"many\" is not a value of its type: invalid type"
        ),
        "{message}"
    );
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Request {
    /// The id.
    id: String,
}

/// Takes a whole arguments object.
#[mcp_core::tool]
async fn whole(#[arg(description = "Not a property.")] request: Request) -> String {
    request.id
}

#[test]
fn arg_on_the_whole_arguments_object_fails_the_build() {
    let message = whole_tool().unwrap_err().to_string();
    assert_eq!(
        message,
        "tool `whole`: argument `request`: `#[arg(..)]` describes one property, but `Request` is the whole arguments object: document its fields instead"
    );
}

#[test]
fn a_context_free_tool_goes_to_a_server_of_any_context() {
    let def = forecast_tool().unwrap();
    let hosted: ToolDef<String> = def.into();
    let cx = hosted.context(
        mcp_core::tool::CallToolRequest::new(
            "forecast",
            json!({"city": "Nice"}).as_object().cloned(),
        ),
        std::sync::Arc::new("session".to_owned()),
    );
    assert_eq!(
        block_on(hosted.call(cx)).text_content(),
        "Nice: 21 °C for 1 day(s)"
    );
}
