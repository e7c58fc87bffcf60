//! OpenAPI Overlays reshape a document before generation: renamed,
//! re-described, removed, annotated and copied operations; unmatched
//! targets; malformed overlays; the specification's own examples.

use std::path::{Path, PathBuf};

use mcp_openapi::document::{Overlay, OverlayVersion, parse_slice};
use mcp_openapi::{GeneratedTool, LoadOptions, OpenApi, SpecError};
use serde_json::{Value, json};

fn overlays(name: &str) -> PathBuf {
    crate::fixture("overlays").join(name)
}

/// `api.yaml` with the overlays `names`, in order.
fn load(names: &[&str]) -> Result<OpenApi, SpecError> {
    load_with(LoadOptions::new(), names)
}

fn load_with(options: LoadOptions, names: &[&str]) -> Result<OpenApi, SpecError> {
    let options = names
        .iter()
        .fold(options, |options, name| options.overlay(overlays(name)));
    OpenApi::from_path_with(overlays("api.yaml"), &options)
}

fn tools(api: &OpenApi) -> Vec<GeneratedTool> {
    api.generator().generate().unwrap().tools
}

fn names(api: &OpenApi) -> Vec<String> {
    tools(api).iter().map(|t| t.tool.name.to_string()).collect()
}

fn tool(api: &OpenApi, name: &str) -> GeneratedTool {
    tools(api)
        .into_iter()
        .find(|t| t.tool.name == name)
        .unwrap_or_else(|| panic!("no tool `{name}` in {:?}", names(api)))
}

fn read_yaml(path: &Path) -> Value {
    parse_slice(&std::fs::read(path).unwrap()).unwrap()
}

#[test]
fn without_overlays_the_fixture_has_five_tools() {
    let api = load(&[]).unwrap();
    assert_eq!(
        names(&api),
        [
            "listPets",
            "createPet",
            "getPet",
            "deletePet",
            "legacyListPets"
        ]
    );
}

#[test]
fn an_updated_operation_id_renames_the_tool() {
    let api = load(&["rename.overlay.yaml"]).unwrap();
    assert!(api.warnings().is_empty(), "{:?}", api.warnings());
    assert_eq!(
        names(&api),
        [
            "list_pets",
            "createPet",
            "pet_get",
            "pet_delete",
            "legacyListPets"
        ]
    );
    // A multi-name selector updated both operations of `/pets/{id}`.
    for pointer in ["/paths/~1pets~1{id}/get", "/paths/~1pets~1{id}/delete"] {
        assert_eq!(api.document().pointer(pointer).unwrap()["x-renamed"], true);
    }
    assert_eq!(api.routes()[0].operation_id.as_deref(), Some("list_pets"));
}

#[test]
fn overlays_re_describe_operations_and_parameters() {
    let api = load(&["describe.overlay.yaml"]).unwrap();
    let list = tool(&api, "listPets").tool;
    assert_eq!(
        list.description.as_deref(),
        Some("All the pets\n\nLists the pets, newest first.")
    );
    assert_eq!(
        list.annotations.as_ref().unwrap().title.as_deref(),
        Some("All the pets")
    );
    assert_eq!(
        list.input_schema["properties"]["limit"]["description"],
        "At most this many pets."
    );
    // Overlay 1.1 replaced the primitive `description` in place.
    let get = tool(&api, "getPet").tool;
    assert_eq!(
        get.description.as_deref(),
        Some("Get a pet\n\nReturns one pet by its id.")
    );
}

#[test]
fn removed_operations_have_no_tools() {
    let api = load(&["remove.overlay.yaml"]).unwrap();
    assert_eq!(names(&api), ["listPets", "createPet", "getPet"]);
    assert!(api.document().pointer("/paths/~1v1~1pets").is_none());
    // The second action's target matched nothing once the first had run.
    let file = overlays("remove.overlay.yaml");
    let warnings: Vec<String> = api.warnings().iter().map(ToString::to_string).collect();
    assert_eq!(
        warnings,
        [format!(
            "{}#/actions/1/target: overlay action 1 (\"so does any deprecated operation (none left)\"): \
             target `$.paths.*[?@.deprecated == true]` matches nothing",
            file.display()
        )]
    );
}

#[test]
fn x_mcp_annotations_added_by_an_overlay_change_the_annotations() {
    let before = load(&[]).unwrap();
    let delete = tool(&before, "deletePet").tool.annotations.unwrap();
    assert_eq!(
        (delete.destructive_hint, delete.open_world_hint),
        (Some(true), Some(true))
    );

    let api = load(&["annotations.overlay.yaml"]).unwrap();
    let delete = tool(&api, "deletePet").tool.annotations.unwrap();
    assert_eq!(delete.title.as_deref(), Some("Archive a pet"));
    assert_eq!(delete.destructive_hint, Some(false));
    assert_eq!(delete.open_world_hint, Some(false));
    assert_eq!(delete.idempotent_hint, Some(true));
    let create = tool(&api, "createPet").tool.annotations.unwrap();
    assert_eq!(create.idempotent_hint, Some(true));
    assert_eq!(create.title.as_deref(), Some("Create a pet"));
}

#[test]
fn copy_duplicates_a_path_item_under_new_names() {
    let api = load(&["copy.overlay.yaml"]).unwrap();
    assert_eq!(
        names(&api),
        [
            "listPets",
            "createPet",
            "getPet",
            "deletePet",
            "legacyListPets",
            "listAnimals",
            "createAnimal"
        ]
    );
    let pets = tool(&api, "createPet").tool;
    let animals = tool(&api, "createAnimal").tool;
    assert_eq!(animals.input_schema, pets.input_schema);
    assert_eq!(animals.description, pets.description);
    assert_eq!(
        animals.meta.get("rs.mcp-toolkit/openapi").unwrap()["path"],
        "/animals"
    );
}

#[test]
fn overlays_apply_in_the_order_given() {
    let api = load(&["rename.overlay.yaml", "second.overlay.yaml"]).unwrap();
    assert_eq!(names(&api)[0], "list_all_pets");
    assert!(api.warnings().is_empty(), "{:?}", api.warnings());

    // The other way round, the second overlay's target does not exist yet.
    let api = load(&["second.overlay.yaml", "rename.overlay.yaml"]).unwrap();
    assert_eq!(names(&api)[0], "list_pets");
    assert_eq!(api.warnings().len(), 1);
    assert!(
        api.warnings()[0]
            .pointer
            .ends_with("second.overlay.yaml#/actions/0/target"),
        "{:?}",
        api.warnings()
    );
}

#[test]
fn a_parsed_overlay_can_be_given_and_mixed_with_files() {
    let parsed: Overlay = r#"{"overlay": "1.1.0", "info": {"title": "t", "version": "1"},
        "actions": [{"target": "$.paths['/pets'].get.operationId", "update": "everyPet"}]}"#
        .parse()
        .unwrap();
    assert_eq!(parsed.version(), OverlayVersion::V1_1);
    assert_eq!(parsed.title(), "t");
    assert_eq!(parsed.file(), None);
    let options = LoadOptions::new()
        .overlay(parsed)
        .overlay(overlays("remove.overlay.yaml"));
    let api = OpenApi::from_path_with(overlays("api.yaml"), &options).unwrap();
    assert_eq!(names(&api), ["everyPet", "createPet", "getPet"]);
}

#[test]
fn an_unmatched_target_is_a_warning_and_in_strict_mode_an_error() {
    let file = overlays("unmatched.overlay.yaml");
    let api = load(&["unmatched.overlay.yaml"]).unwrap();
    assert_eq!(names(&api)[0], "list_pets");
    let warning = &api.warnings()[0];
    assert_eq!(
        warning.pointer,
        format!("{}#/actions/1/target", file.display())
    );
    assert_eq!(
        warning.message,
        "overlay action 1 (\"Rename the cats operation\"): target `$.paths['/cats'].get` matches nothing"
    );
    // The overlay's warnings come with the generator's.
    let generated = api.generator().generate().unwrap();
    assert_eq!(generated.warnings[0], *warning);

    let error =
        load_with(LoadOptions::new().strict(true), &["unmatched.overlay.yaml"]).unwrap_err();
    assert_eq!(
        error.to_string(),
        format!(
            "strict mode: overlay `{}` at /actions/1/target: action 1 (\"Rename the cats operation\"): \
             target `$.paths['/cats'].get` matches nothing",
            file.display()
        )
    );
}

#[test]
fn a_malformed_overlay_file_is_one_error_naming_the_file_and_the_part() {
    let cases = [
        (
            "bad-target.yaml",
            " at /actions/2/target: `$.paths['/pets'` is not a valid JSONPath (RFC 9535): \
             at position 15, in long-hand segment, expected closing ']'",
        ),
        (
            "bad-merge.yaml",
            " at /actions/0/update/parameters: cannot merge an object into an array \
             (#/paths/~1pets/get/parameters)",
        ),
        (
            "missing-actions.yaml",
            ": missing \"actions\" (a list of at least one action)",
        ),
        (
            "version.yaml",
            " at /overlay: unsupported overlay version `2.0.0` (supported: 1.0.x, 1.1.x)",
        ),
        (
            "not-yaml.yaml",
            ": cannot parse YAML: line 3 column 11: unclosed bracket '{'",
        ),
    ];
    for (name, expected) in cases {
        let path = overlays("malformed").join(name);
        let error = load(&[&format!("malformed/{name}")]).unwrap_err();
        assert_eq!(
            error.to_string(),
            format!("overlay `{}`{expected}", path.display())
        );
        assert!(
            matches!(&error, SpecError::Overlay { file: Some(file), .. } if *file == path),
            "{error:?}"
        );
    }

    let missing = load(&["malformed/absent.yaml"]).unwrap_err();
    assert!(
        missing.to_string().starts_with("cannot read `")
            && missing.to_string().contains("absent.yaml"),
        "{missing}"
    );
}

/// Applies `overlay` (a YAML or JSON text) to `document` and returns the error.
fn apply_error(document: Value, text: &str) -> String {
    let overlay: Overlay = text.parse().unwrap();
    let mut changed = document.clone();
    let error = match overlay.apply(&mut changed) {
        Ok(warnings) => panic!("applied:\n{text}\nto {changed:#}\n{warnings:?}"),
        Err(error) => error.to_string(),
    };
    assert_eq!(changed, document, "an error left the document changed");
    error
}

#[test]
fn actions_that_cannot_apply_are_errors_and_change_nothing() {
    let document = json!({
        "openapi": "3.1.0",
        "info": {"title": "t", "version": "1", "description": "old"},
        "paths": {"/a": {"get": {"tags": ["x"]}}, "/b": {"get": {"x-b": {}}}},
    });
    let header = "overlay: 1.1.0\ninfo: {title: t, version: '1'}\nactions:\n";
    let cases = [
        (
            // The first action applies; the second fails: nothing stays applied.
            "  - {target: $.info, update: {x-first: 1}}\n  - {target: $.info, update: text}\n",
            "overlay at /actions/1/update: `update` is a string, but the target (#/info) is an object: \
             an object takes an object to merge",
        ),
        (
            "  - {target: $.info.description, update: {a: 1}}\n",
            "overlay at /actions/0/update: `update` is an object, but the target (#/info/description) \
             is a string: a primitive node takes a primitive value",
        ),
        (
            "  - {target: '$.paths.*.get.*', update: {a: 1}}\n",
            "overlay at /actions/0/target: `$.paths.*.get.*` selects an array (#/paths/~1a/get/tags) \
             and an object (#/paths/~1b/get/x-b): `update` merges into nodes of one kind (all objects, \
             all arrays or all primitives)",
        ),
        (
            "  - {target: '$.paths.*', copy: '$.paths.*.get'}\n",
            "overlay at /actions/0/copy: `$.paths.*.get` selects 2 nodes; `copy` needs exactly one",
        ),
        (
            "  - {target: '$.info', copy: '$.paths[\"/a\"].get.tags'}\n",
            "overlay at /actions/0/copy: the node copied from #/paths/~1a/get/tags is an array, but \
             the target (#/info) is an object: an object takes an object to merge",
        ),
        (
            "  - {target: '$.paths[\"/a\"]', copy: '$.paths[\"/a\"].get.tags'}\n",
            "overlay at /actions/0/copy: the node copied from #/paths/~1a/get/tags is an array, but \
             the target (#/paths/~1a) is an object: an object takes an object to merge",
        ),
        (
            "  - {target: '$.paths[\"/b\"]', update: {get: [1]}}\n",
            "overlay at /actions/0/update/get: cannot merge an array into an object (#/paths/~1b/get)",
        ),
        (
            "  - {target: '$.paths', copy: '$.paths'}\n  - {target: '$', remove: true}\n",
            "overlay at /actions/1/target: `$` selects the document root, which cannot be removed",
        ),
    ];
    for (actions, expected) in cases {
        assert_eq!(
            apply_error(document.clone(), &format!("{header}{actions}")),
            expected
        );
    }

    let one_zero = "overlay: 1.0.0\ninfo: {title: t, version: '1'}\nactions:\n\
                    - {target: $.info.description, update: new}\n";
    assert_eq!(
        apply_error(document, one_zero),
        "overlay at /actions/0/target: `$.info.description` selects a string (#/info/description); \
         overlay 1.0 updates only objects and arrays: select the containing object, or set `overlay: 1.1.0`"
    );
}

#[test]
fn update_and_copy_follow_the_merge_rules() {
    let overlay: Overlay = r#"
overlay: 1.1.0
info: {title: t, version: "1"}
actions:
  - target: $.paths['/a'].get.tags
    update: [u, v]
  - target: $.paths['/a'].get.tags
    update: {name: w}
  - target: $.paths.*.get
    update: {x-n: 1, responses: {"200": {description: ok}}}
  - target: $.paths['/b'].get
    copy: $.paths['/a'].get
  - target: $.info.title
    copy: $.info.version
  - target: $.paths.*.get.tags[?@ == 'x']
    remove: true
"#
    .parse()
    .unwrap();
    let mut document = json!({
        "info": {"title": "t", "version": "2"},
        "paths": {"/a": {"get": {"tags": ["x"]}}, "/b": {"get": {"x-n": 0}}},
    });
    assert!(overlay.apply(&mut document).unwrap().is_empty());
    let a_get = json!({"tags": ["u", "v", {"name": "w"}], "x-n": 1, "responses": {"200": {"description": "ok"}}});
    assert_eq!(
        document,
        json!({
            "info": {"title": "2", "version": "2"},
            "paths": {
                "/a": {"get": a_get},
                "/b": {"get": {
                    "x-n": 1,
                    "responses": {"200": {"description": "ok"}},
                    "tags": ["u", "v", {"name": "w"}],
                }},
            },
        })
    );
}

#[test]
fn remove_takes_nested_and_sibling_nodes_in_one_action() {
    let overlay: Overlay = "overlay: 1.0.0\ninfo: {title: t, version: '1'}\n\
                            actions: [{target: '$.x..*', remove: true}]"
        .parse()
        .unwrap();
    let mut document = json!({"x": {"a": {"b": [1, {"c": 2}]}, "d": [3, 4, 5]}, "y": 1});
    assert!(overlay.apply(&mut document).unwrap().is_empty());
    assert_eq!(document, json!({"x": {}, "y": 1}));
}

#[test]
fn extends_is_read_and_ignored() {
    let overlay =
        Overlay::from_path(overlays("compliant-sets/remove-server/overlay.yaml")).unwrap();
    assert_eq!(overlay.extends(), Some("openapi-with-servers.yaml"));
    assert_eq!(overlay.version(), OverlayVersion::V1_0);
}

#[test]
fn overlays_see_the_parts_lean_loading_skips() {
    // Loaded lean, a JSON document lacks the component schemas no `$ref`
    // reaches; an overlay may refer to them, so it gets the whole document.
    let options = LoadOptions::new().overlay(overlays("components.overlay.yaml"));
    let api = OpenApi::from_path_with(overlays("components.json"), &options).unwrap();
    let create = tool(&api, "createPet").tool;
    assert_eq!(create.input_schema["required"], json!(["name"]));
    assert_eq!(
        create.input_schema["properties"]["tag"],
        json!({"type": "string"})
    );
}

/// Every `<dir>/*/` of `openapi.yaml`, `overlay.yaml` and `output.yaml`
/// under `overlays/`: the overlay applied to the document gives the output.
fn assert_examples(dir: &str) -> usize {
    let mut examples: Vec<PathBuf> = std::fs::read_dir(overlays(dir))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.is_dir())
        .collect();
    examples.sort();
    for example in &examples {
        let overlay = Overlay::from_path(example.join("overlay.yaml"))
            .unwrap_or_else(|e| panic!("{}: {e}", example.display()));
        let mut document = read_yaml(&example.join("openapi.yaml"));
        let warnings = overlay
            .apply(&mut document)
            .unwrap_or_else(|e| panic!("{}: {e}", example.display()));
        assert!(warnings.is_empty(), "{}: {warnings:?}", example.display());
        assert_eq!(
            document,
            read_yaml(&example.join("output.yaml")),
            "{}",
            example.display()
        );
    }
    examples.len()
}

#[test]
fn the_specification_examples_give_the_documented_results() {
    assert_eq!(assert_examples("spec"), 10);
}

#[test]
fn the_specification_compliant_sets_give_their_outputs() {
    assert_eq!(assert_examples("compliant-sets"), 8);
}

#[test]
fn documents_reshaped_by_the_specification_examples_still_load() {
    for example in ["traits", "copy-move", "wildcard"] {
        let dir = overlays("spec").join(example);
        let options = LoadOptions::new().overlay(dir.join("overlay.yaml"));
        let api = OpenApi::from_path_with(dir.join("openapi.yaml"), &options)
            .unwrap_or_else(|e| panic!("{example}: {e}"));
        let expected = OpenApi::from_path(dir.join("output.yaml")).unwrap();
        let sorted = |api: &OpenApi| {
            let mut names = names(api);
            names.sort();
            names
        };
        assert_eq!(sorted(&api), sorted(&expected), "{example}");
    }
}

#[test]
fn an_overlay_reshapes_a_large_vendor_document() {
    let overlay: Overlay = r#"
overlay: 1.1.0
info: {title: GitHub for an issue triage agent, version: "1"}
actions:
  - target: $.paths['/repos/{owner}/{repo}/issues'].post.operationId
    update: open_issue
  - target: $.paths.*[?@.tags[0] == 'orgs' || @.deprecated == true]
    description: no organisation administration, nothing deprecated
    remove: true
"#
    .parse()
    .unwrap();
    let path = crate::corpus("github-api.github.com.json");
    let before = OpenApi::from_path(&path).unwrap();
    let after = OpenApi::from_path_with(&path, &LoadOptions::new().overlay(overlay)).unwrap();
    let operations = |api: &OpenApi| -> Vec<String> {
        api.routes()
            .iter()
            .filter_map(|route| route.operation_id.clone())
            .collect()
    };
    let (before, after) = (operations(&before), operations(&after));
    assert!(before.iter().any(|id| id.starts_with("orgs/")));
    assert!(!after.iter().any(|id| id.starts_with("orgs/")), "{after:?}");
    assert!(after.contains(&"open_issue".to_owned()));
    assert!(!after.contains(&"issues/create".to_owned()));
    assert!(
        after.len() < before.len() && after.len() > 500,
        "{}",
        after.len()
    );
}
