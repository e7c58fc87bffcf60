//! The toolsets of a tool set as discovery reads them: each tool's, and
//! what the sources say each toolset is (an OpenAPI tag's description).

use std::collections::HashMap;

use mcp_core::ToolDef;

use crate::catalog::Catalog;

/// Each tool's toolsets, in tool order, and the toolsets' descriptions.
#[derive(Debug, Default)]
pub(crate) struct Toolsets {
    of_tool: Vec<Vec<String>>,
    /// Descriptions by lowercase toolset name.
    descriptions: HashMap<String, String>,
}

impl Toolsets {
    /// The toolsets of `defs`, described by `descriptions` (name, then
    /// description; the first description of a name is kept).
    pub(crate) fn new<'a, C: Send + Sync + 'static>(
        defs: &[ToolDef<C>],
        descriptions: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Self {
        let mut described = HashMap::new();
        for (name, description) in descriptions {
            described
                .entry(name.to_lowercase())
                .or_insert_with(|| description.to_owned());
        }
        Self {
            of_tool: defs.iter().map(|def| def.toolsets().to_vec()).collect(),
            descriptions: described,
        }
    }

    /// The toolsets of the tools of `catalog`, as its sources describe them.
    pub(crate) fn of_catalog<C: Send + Sync + 'static>(catalog: &Catalog<C>) -> Self {
        Self::new(catalog.tools().all(), catalog.toolset_descriptions())
    }

    /// The toolsets of the tool at `position` (none past the end).
    pub(crate) fn of_tool(&self, position: usize) -> &[String] {
        self.of_tool.get(position).map_or(&[], Vec::as_slice)
    }

    /// What the toolset (or category) `name` is, in any case.
    pub(crate) fn description(&self, name: &str) -> Option<&str> {
        self.descriptions
            .get(&name.to_lowercase())
            .map(String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptions_are_found_in_any_case_and_the_first_is_kept() {
        let tool: ToolDef = mcp_core::tool("star")
            .toolset("Activity")
            .run(|| async { "" })
            .unwrap();
        let toolsets = Toolsets::new(
            &[tool],
            [("Activity", "Stars and watching."), ("activity", "Later.")],
        );
        assert_eq!(toolsets.of_tool(0), ["Activity"]);
        assert_eq!(toolsets.of_tool(1), [] as [String; 0]);
        assert_eq!(
            toolsets.description("ACTIVITY"),
            Some("Stars and watching.")
        );
        assert_eq!(toolsets.description("issues"), None);
    }
}
