//! Conversions to and from `rmcp::model` (feature `rmcp`).
//!
//! Every field `rmcp::model::Tool` can carry survives the round trip.
//! `execution` is the one `mcp_core::Tool` field rmcp 3.11 has no slot for
//! (the 2026-07-28 protocol moved tasks into an extension): converting to
//! rmcp drops it, and `mcp-server` adds it back to the wire for 2025-11-25
//! peers.

use rmcp::model as rm;

use crate::{Icon, IconTheme, Meta, Tool, ToolAnnotations};

impl From<Tool> for rm::Tool {
    fn from(tool: Tool) -> Self {
        let mut out = rm::Tool::default();
        out.name = tool.name.into();
        out.title = tool.title;
        out.description = tool.description.map(Into::into);
        out.input_schema = tool.input_schema;
        out.output_schema = tool.output_schema;
        out.annotations = tool.annotations.map(Into::into);
        out.icons =
            (!tool.icons.is_empty()).then(|| tool.icons.into_iter().map(Into::into).collect());
        out.meta = (!tool.meta.is_empty()).then(|| rm::MetaObject(tool.meta.into_object()));
        out
    }
}

impl From<rm::Tool> for Tool {
    fn from(tool: rm::Tool) -> Self {
        Tool {
            name: tool.name.into_owned(),
            title: tool.title,
            description: tool.description.map(|d| d.into_owned()),
            input_schema: tool.input_schema,
            output_schema: tool.output_schema,
            annotations: tool.annotations.map(Into::into),
            icons: tool
                .icons
                .unwrap_or_default()
                .into_iter()
                .map(Into::into)
                .collect(),
            execution: None,
            meta: tool
                .meta
                .map(|meta| Meta::from_wire(meta.0))
                .unwrap_or_default(),
        }
    }
}

impl From<ToolAnnotations> for rm::ToolAnnotations {
    fn from(a: ToolAnnotations) -> Self {
        let mut out = rm::ToolAnnotations::default();
        out.title = a.title;
        out.read_only_hint = a.read_only_hint;
        out.destructive_hint = a.destructive_hint;
        out.idempotent_hint = a.idempotent_hint;
        out.open_world_hint = a.open_world_hint;
        out
    }
}

impl From<rm::ToolAnnotations> for ToolAnnotations {
    fn from(a: rm::ToolAnnotations) -> Self {
        ToolAnnotations {
            title: a.title,
            read_only_hint: a.read_only_hint,
            destructive_hint: a.destructive_hint,
            idempotent_hint: a.idempotent_hint,
            open_world_hint: a.open_world_hint,
        }
    }
}

impl From<Icon> for rm::Icon {
    fn from(icon: Icon) -> Self {
        let mut out = rm::Icon::new(icon.src);
        out.mime_type = icon.mime_type;
        out.sizes = icon.sizes;
        out.theme = icon.theme.map(|theme| match theme {
            IconTheme::Light => rm::IconTheme::Light,
            IconTheme::Dark => rm::IconTheme::Dark,
        });
        out
    }
}

impl From<rm::Icon> for Icon {
    fn from(icon: rm::Icon) -> Self {
        Icon {
            src: icon.src,
            mime_type: icon.mime_type,
            sizes: icon.sizes,
            theme: icon.theme.and_then(|theme| match theme {
                rm::IconTheme::Light => Some(IconTheme::Light),
                rm::IconTheme::Dark => Some(IconTheme::Dark),
                _ => None,
            }),
        }
    }
}
