//! Conversion to and from `rmcp::model::Tool` keeps every field rmcp carries.

use mcp_core::Tool;

#[test]
fn tool_survives_rmcp_and_back_except_execution() {
    let original = crate::builder::delete_user().tool().clone();
    let via_rmcp: rmcp::model::Tool = original.clone().into();
    let back = Tool::from(via_rmcp.clone());
    let mut expected = original.clone();
    expected.execution = None;
    assert_eq!(back, expected);

    // The rmcp value puts the same JSON on the wire, minus `execution`.
    let mut ours = serde_json::to_value(&original).unwrap();
    ours.as_object_mut().unwrap().remove("execution");
    assert_eq!(serde_json::to_value(&via_rmcp).unwrap(), ours);
}

#[test]
fn every_suite_tool_survives_the_round_trip() {
    for tool in crate::builder::every_tool_the_suite_builds() {
        let mut expected = tool.clone();
        expected.execution = None;
        assert_eq!(Tool::from(rmcp::model::Tool::from(tool)), expected);
    }
}
