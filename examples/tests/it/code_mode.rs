//! `code_mode`: a `#[tool]` and the Petstore document behind `search_tools`
//! and `execute`, over stdio.

use serde_json::json;

use crate::stdio_examples::spawn_with;

#[tokio::test]
async fn code_mode_lists_two_meta_tools_and_runs_a_script_over_both_kinds() {
    let petstore = testdata::openapi("petstore.yaml").display().to_string();
    let example = spawn_with(env!("CARGO_BIN_EXE_code_mode"), &[&petstore]).await;
    assert_eq!(example.tool_names().await, ["search_tools", "execute"]);
    let found = example
        .call(
            "search_tools",
            json!({"query": "list all pets", "limit": 1}),
        )
        .await;
    let hit = &found.structured_content.as_ref().unwrap()["tools"][0];
    assert_eq!(hit["name"], "pets_listPets");
    assert!(
        hit["typescript"]
            .as_str()
            .unwrap()
            .contains("pets_listPets(input?: { limit?: number }): Promise<"),
        "{hit}"
    );
    let code = "const generated = catalog.filter((tool) => tool.method === 'GET').map((tool) => tool.name);\n\
        return { generated, score: await tools.score({ names: generated }) };";
    let ran = example.call("execute", json!({ "code": code })).await;
    assert_eq!(
        ran.structured_content,
        Some(json!({
            "result": {"generated": ["pets_listPets", "pets_showPetById"], "score": 29},
            "logs": [],
            "calls": 1
        })),
        "{ran:?}"
    );
    example.stop().await;
}
