//! Every row of the OpenAPI 3.1 style examples table (`color` = `blue` /
//! `["blue","black","brown"]` / `{"R":100,"G":200,"B":150}`), sent to a
//! local recording server and checked on the wire.

use mcp_openapi::call::build_request;
use serde_json::{Value, json};

use crate::http_fixtures::{binding, param, route};
use crate::recorder::{Recorded, Recorder};

const EMPTY: &str = "";

/// The table's `.` (label style, empty value) would be a `.` path segment,
/// which every URL parser (and so every HTTP client) removes: the request
/// is refused instead of silently going to the parent path.
const DOT: &str = "<refused: dot segment>";

fn values() -> [Value; 4] {
    [
        json!(EMPTY),
        json!("blue"),
        json!(["blue", "black", "brown"]),
        json!({"R": 100, "G": 200, "B": 150}),
    ]
}

/// `(location, style, explode, [empty, string, array, object])`; `None` is
/// "n/a" in the specification's table.
#[rustfmt::skip]
const TABLE: &[(&str, &str, bool, [Option<&str>; 4])] = &[
    ("path", "matrix", false, [Some(";color"), Some(";color=blue"), Some(";color=blue,black,brown"), Some(";color=R,100,G,200,B,150")]),
    ("path", "matrix", true, [Some(";color"), Some(";color=blue"), Some(";color=blue;color=black;color=brown"), Some(";R=100;G=200;B=150")]),
    ("path", "label", false, [Some(DOT), Some(".blue"), Some(".blue,black,brown"), Some(".R,100,G,200,B,150")]),
    ("path", "label", true, [Some(DOT), Some(".blue"), Some(".blue.black.brown"), Some(".R=100.G=200.B=150")]),
    ("query", "form", false, [Some("color="), Some("color=blue"), Some("color=blue,black,brown"), Some("color=R,100,G,200,B,150")]),
    ("query", "form", true, [Some("color="), Some("color=blue"), Some("color=blue&color=black&color=brown"), Some("R=100&G=200&B=150")]),
    ("path", "simple", false, [None, Some("blue"), Some("blue,black,brown"), Some("R,100,G,200,B,150")]),
    ("path", "simple", true, [None, Some("blue"), Some("blue,black,brown"), Some("R=100,G=200,B=150")]),
    ("header", "simple", false, [None, Some("blue"), Some("blue,black,brown"), Some("R,100,G,200,B,150")]),
    ("header", "simple", true, [None, Some("blue"), Some("blue,black,brown"), Some("R=100,G=200,B=150")]),
    ("query", "spaceDelimited", false, [None, None, Some("color=blue%20black%20brown"), Some("color=R%20100%20G%20200%20B%20150")]),
    ("query", "pipeDelimited", false, [None, None, Some("color=blue|black|brown"), Some("color=R|100|G|200|B|150")]),
    ("query", "deepObject", true, [None, None, None, Some("color[R]=100&color[G]=200&color[B]=150")]),
    ("cookie", "form", false, [Some("color="), Some("color=blue"), Some("color=blue,black,brown"), Some("color=R,100,G,200,B,150")]),
    ("cookie", "form", true, [Some("color="), Some("color=blue"), Some("color=blue; color=black; color=brown"), Some("R=100; G=200; B=150")]),
];

fn seen(location: &str, request: &Recorded) -> String {
    match location {
        "path" => request
            .path()
            .strip_prefix("/colors/")
            .unwrap_or("?")
            .to_owned(),
        "query" => request.query().to_owned(),
        "header" => request.header("color").unwrap_or_default(),
        _ => request.header("cookie").unwrap_or_default(),
    }
}

#[tokio::test]
async fn every_row_of_the_style_table_on_the_wire() {
    let server = Recorder::start().await;
    let base = url::Url::parse(&server.base).expect("base");
    let client = reqwest::Client::new();
    let mut checked = 0;
    let mut failures = Vec::new();
    for (location, style, explode, expected) in TABLE {
        let path = if *location == "path" {
            "/colors/{color}"
        } else {
            "/colors/"
        };
        let route = route(
            "GET",
            path,
            json!([param("color", location, style, *explode)]),
            Value::Null,
        );
        let binding = binding(&["color"], &[], false, None);
        for (value, expected) in values().iter().zip(expected) {
            let Some(expected) = expected else { continue };
            let arguments = json!({ "color": value })
                .as_object()
                .cloned()
                .expect("object");
            let request = match build_request(&route, &binding, &base, &arguments) {
                Err(mcp_openapi::call::CallError::DotSegment(name))
                    if *expected == DOT && name == "color" =>
                {
                    checked += 1;
                    continue;
                }
                other => other.expect("request builds"),
            };
            client
                .request(request.method.clone(), request.url.clone())
                .headers(request.headers.clone())
                .send()
                .await
                .expect("sent");
            let got = seen(location, &server.last());
            checked += 1;
            if got != *expected {
                failures.push(format!("{location} {style} explode={explode} {value}: expected `{expected}`, got `{got}`"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(checked, 49);
}

#[tokio::test]
async fn absent_optional_parameters_are_left_out() {
    let server = Recorder::start().await;
    let base = url::Url::parse(&server.base).expect("base");
    let route = route(
        "GET",
        "/colors",
        json!([
            param("a", "query", "form", true),
            param("b", "header", "simple", false),
            param("c", "cookie", "form", true)
        ]),
        Value::Null,
    );
    let binding = binding(&["a", "b", "c"], &[], false, None);
    let arguments = json!({"b": null}).as_object().cloned().expect("object");
    let request = build_request(&route, &binding, &base, &arguments).expect("request builds");
    assert_eq!(request.url.as_str(), format!("{}/colors", server.base));
    assert!(request.headers.is_empty());
}
