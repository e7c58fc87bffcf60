//! The seed corpora of the fuzz targets: copied from the test data (OpenAPI
//! documents, overlays) or derived here (the small formats), so the
//! repository holds no corpus files.

use std::fs;
use std::path::Path;

/// The largest document copied as a seed: libFuzzer mutates small inputs
/// faster, and the large ones add no grammar the small ones lack.
const MAX_SEED_BYTES: u64 = 64 * 1024;

/// Writes every target's seeds into `dir/<target>/` (as `seed-*` files,
/// replacing earlier seeds, keeping whatever else the corpus holds).
pub(crate) fn write_all(root: &Path, dir: &Path) -> Result<(), String> {
    let fixtures = root.join("mcp-openapi/tests/fixtures");
    let mut documents = small_files(&testdata::openapi_dir(), |_| true)?;
    documents.extend(small_files(&fixtures, |_| true)?);
    let mut modes = bytes(SELF_REFERRING_DOCUMENTS);
    for path in MODES_SEEDS {
        let path = root.join(path);
        modes.push(fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?);
    }
    write(dir, "modes", modes)?;
    write(dir, "openapi", documents)?;

    let overlays = small_files(&fixtures.join("overlays"), |path| {
        path.file_name()
            .and_then(|name| name.to_str())
            .is_some_and(|name| name.contains("overlay") || path.starts_with("malformed"))
    })?;
    write(dir, "overlay", overlays)?;

    write(dir, "transform", prefixed(TRANSFORMS))?;
    write(dir, "route_map", prefixed(ROUTE_MAPS))?;
    write(dir, "uri_template", bytes(URI_TEMPLATES))?;
    write(dir, "stdio", bytes(&stdio_sessions()))?;
    write(dir, "http_body", prefixed(&http_bodies()))?;
    Ok(())
}

/// Writes `seeds` as `dir/<target>/seed-<n>`.
fn write(dir: &Path, target: &str, seeds: Vec<Vec<u8>>) -> Result<(), String> {
    let folder = dir.join(target);
    fs::create_dir_all(&folder).map_err(|e| format!("cannot create {}: {e}", folder.display()))?;
    for (index, seed) in seeds.iter().enumerate() {
        let path = folder.join(format!("seed-{index:03}"));
        fs::write(&path, seed).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    eprintln!("xtask fuzz: {} seeds for `{target}`", seeds.len());
    Ok(())
}

/// The contents of the files under `dir` (recursively) that `keep` accepts
/// (by path relative to `dir`) and that are at most `MAX_SEED_BYTES` long.
fn small_files(dir: &Path, keep: impl Fn(&Path) -> bool + Copy) -> Result<Vec<Vec<u8>>, String> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(folder) = pending.pop() {
        let entries =
            fs::read_dir(&folder).map_err(|e| format!("cannot list {}: {e}", folder.display()))?;
        let mut paths: Vec<_> = entries
            .filter_map(|entry| Some(entry.ok()?.path()))
            .collect();
        paths.sort();
        for path in paths {
            let relative = path.strip_prefix(dir).unwrap_or(&path);
            let size = fs::metadata(&path).map(|m| m.len()).unwrap_or(u64::MAX);
            if path.is_dir() {
                pending.push(path);
            } else if size <= MAX_SEED_BYTES && keep(relative) {
                files.push(
                    fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?,
                );
            }
        }
    }
    Ok(files)
}

fn bytes(texts: &[impl AsRef<str>]) -> Vec<Vec<u8>> {
    texts
        .iter()
        .map(|text| text.as_ref().as_bytes().to_vec())
        .collect()
}

/// The documents `modes` starts from besides [`SELF_REFERRING_DOCUMENTS`]:
/// each of its inputs builds two servers, and libFuzzer runs the initial
/// corpus whole however short the run, so it is a few small documents of
/// each version and shape.
const MODES_SEEDS: [&str; 5] = [
    "testdata/openapi/petstore.yaml",
    "testdata/openapi/tags-example-3.2.yaml",
    "testdata/openapi/petstore-swagger2.json",
    "mcp-openapi/tests/fixtures/cycles.yaml",
    "mcp-openapi/tests/fixtures/nullable30.yaml",
];

/// Documents whose schemas refer to themselves through `items`, `anyOf`,
/// `allOf`, `additionalProperties` and a loop of two definitions.
const SELF_REFERRING_DOCUMENTS: &[&str] = &[
    r##"{"openapi": "3.1.0", "info": {"title": "trees", "version": "1"},
  "paths": {"/trees": {"post": {"operationId": "plant", "tags": ["trees"],
    "parameters": [{"name": "filter", "in": "query", "schema": {"$ref": "#/components/schemas/Filter"}}],
    "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Tree"}}}},
    "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Json"}}}}}}}},
  "components": {"schemas": {
    "Tree": {"type": "array", "items": {"$ref": "#/components/schemas/Tree"}},
    "Filter": {"anyOf": [{"type": "string"}, {"$ref": "#/components/schemas/Filter"}], "allOf": [{"$ref": "#/components/schemas/Filter"}]},
    "Json": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"$ref": "#/components/schemas/Json"}},
      {"type": "object", "additionalProperties": {"$ref": "#/components/schemas/Json"}}]}}}}"##,
    "openapi: 3.0.3\ninfo: {title: loop, version: '1'}\npaths:\n  /a:\n    get:\n      operationId: getA\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema: {$ref: '#/components/schemas/A'}\ncomponents:\n  schemas:\n    A: {type: array, items: {$ref: '#/components/schemas/B'}}\n    B: {oneOf: [{type: boolean}, {$ref: '#/components/schemas/A'}]}\n",
];

/// Inputs whose first byte picks a format or mode, then the text.
fn prefixed(seeds: &[(u8, impl AsRef<str>)]) -> Vec<Vec<u8>> {
    seeds
        .iter()
        .map(|(first, text)| [&[*first][..], text.as_ref().as_bytes()].concat())
        .collect()
}

/// Transformation files: 0 TOML, 1 YAML, 2 JSON (the target's first byte).
const TRANSFORMS: &[(u8, &str)] = &[
    (
        0,
        r#"[tools.echo]
name = "say"
description = "Says it."
annotations = { readOnlyHint = true, openWorldHint = false }
meta = { "com.example/team" = "support" }

[tools.echo.arguments.text]
rename = "words"
description = "What to say."
default = "hello"

[tools.echo.arguments.count]
hide = true
value = 1

[tools.echo.result]
keep = ["text"]
"#,
    ),
    (
        1,
        "tools:\n  ping:\n    name: health\n    title: Health\n    icons: [{src: \"https://example.com/i.png\", mimeType: image/png}]\n  echo:\n    arguments:\n      text: {enum: [a, b], rename: t}\n",
    ),
    (
        2,
        r#"{"tools": {"echo": {"scopes": ["read"], "arguments": {"count": {"hide": true}}}}}"#,
    ),
    (1, "tools: {ping: {nmae: typo}}\n"),
];

/// Route map files: 0 TOML, 1 YAML (the target's first byte).
const ROUTE_MAPS: &[(u8, &str)] = &[
    (
        0,
        r#"[[route_map]]
methods = ["GET"]
pattern = "^/pets/\\{"
mcp_type = "resource_template"

[[route_map]]
tags = ["admin"]
mcp_type = "exclude"

[[route_map]]
operation_ids = ["listPets"]
mcp_tags = ["listing"]
mcp_type = "resource"
"#,
    ),
    (
        1,
        "route_map:\n  - {methods: [get, post], pattern: '^/pets$', mcp_type: tool}\n  - {tags: [pets], mcp_type: exclude}\n",
    ),
    (
        1,
        "- {methods: [DELETE], mcp_type: exclude}\n- {pattern: '(', mcp_type: tool}\n",
    ),
];

/// `TEMPLATE\nURI` pairs, one per RFC 6570 operator and some mismatches.
const URI_TEMPLATES: &[&str] = &[
    "test://template/{id}/data\ntest://template/123/data",
    "file:///logs/{date}/{+path}{?lines,level}\nfile:///logs/2024-01-01/a/b.log?lines=10&level=warn",
    "http://example.com{/segments*}{;params}\nhttp://example.com/a/b;x=1",
    "mail://{user}{.domain*}{#section}\nmail://me.example.org#top",
    "q://x{?a,b}{&c}\nq://x?a=1&c=%20",
    "{var:3}{x,y}\nabc,def",
    "unclosed/{id\nunclosed/1",
    "bad/}{\nbad/",
    "pct/{a%20b}\npct/%E2%82%AC",
];

/// Newline-delimited JSON-RPC sessions a client could write over stdio.
fn stdio_sessions() -> Vec<String> {
    let initialize = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"roots":{}},"clientInfo":{"name":"fuzz","version":"1"}}}"#;
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    let requests = [
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi","count":2}}}"#,
        r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","arguments":{"count":"x"},"_meta":{"progressToken":7}}}"#,
        r#"{"jsonrpc":"2.0","id":"five","method":"resources/read","params":{"uri":"file:///logs/2024-01-01/app/x.log?lines=3"}}"#,
        r#"{"jsonrpc":"2.0","id":6,"method":"resources/templates/list","params":{"cursor":"abc"}}"#,
        r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"ping","task":{"ttl":1000}}}"#,
        r#"{"jsonrpc":"2.0","id":8,"method":"ping"}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}"#,
        r#"{"jsonrpc":"2.0","id":9,"method":"completion/complete","params":{"ref":{"type":"ref/resource","uri":"file:///logs/{date}/{+path}{?lines,level}"},"argument":{"name":"date","value":"20"}}}"#,
        r#"{"jsonrpc":"2.0","id":10,"method":"logging/setLevel","params":{"level":"debug"}}"#,
        "{not json",
        r#"[{"jsonrpc":"2.0","id":11,"method":"ping"}]"#,
    ];
    let mut sessions = vec![format!(
        "{initialize}\n{initialized}\n{}\n",
        requests.join("\n")
    )];
    sessions.extend(
        requests
            .iter()
            .map(|request| format!("{initialize}\n{initialized}\n{request}\n")),
    );
    sessions.push(format!("{initialize}\n"));
    sessions
}

/// `POST /mcp` bodies, each with the target's mode byte: 0 stateless,
/// 1 in a session, 3 in a session without sending its id.
fn http_bodies() -> Vec<(u8, String)> {
    let bodies = [
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"fuzz","version":"1"}}}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}"#,
        r#"{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"file:///logs/d/p?lines=1"}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","id":5,"result":{}}"#,
        r#"[{"jsonrpc":"2.0","id":6,"method":"ping"}]"#,
        r#"{"jsonrpc":"1.0","id":null}"#,
        "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"",
    ];
    [0u8, 1, 3]
        .iter()
        .flat_map(|mode| bodies.iter().map(|body| (*mode, (*body).to_owned())))
        .collect()
}
