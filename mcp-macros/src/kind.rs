//! What an attribute makes: a tool (`#[tool]`) or a prompt (`#[prompt]`).
//! Both expand the same way into their `mcp_core` builder; this table holds
//! the names that differ.

use proc_macro2::{Ident, Span};

/// The kind of item an attribute makes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// `#[tool]`: `mcp_core::tool(..)`, a `ToolDef`.
    Tool,
    /// `#[prompt]`: `mcp_core::prompt::prompt(..)`, a `PromptDef`.
    Prompt,
    /// `#[resource]`: `mcp_core::resource::resource(..)` or `resource_template(..)`, a
    /// `ResourceDef`.
    Resource,
}

impl Kind {
    /// The attribute's (and the builder function's) name.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Self::Tool => "tool",
            Self::Prompt => "prompt",
            Self::Resource => "resource",
        }
    }

    /// The `mcp_core` module of its builder, def and error types (`None`:
    /// the crate root).
    pub(crate) fn module(self) -> Option<Ident> {
        match self {
            Self::Tool => None,
            Self::Prompt | Self::Resource => Some(Ident::new(self.name(), Span::call_site())),
        }
    }

    /// The builder function.
    pub(crate) fn builder(self) -> Ident {
        Ident::new(self.name(), Span::call_site())
    }

    /// The builder method that types the arguments.
    pub(crate) fn input_method(self) -> Ident {
        let name = match self {
            Self::Tool => "input",
            Self::Prompt | Self::Resource => "arguments",
        };
        Ident::new(name, Span::call_site())
    }

    /// The type the sibling returns.
    pub(crate) fn def_type(self) -> Ident {
        let name = match self {
            Self::Tool => "ToolDef",
            Self::Prompt => "PromptDef",
            Self::Resource => "ResourceDef",
        };
        Ident::new(name, Span::call_site())
    }

    /// The builder's error type.
    pub(crate) fn error_type(self) -> Ident {
        let name = match self {
            Self::Tool => "ToolError",
            Self::Prompt => "PromptError",
            Self::Resource => "ResourceError",
        };
        Ident::new(name, Span::call_site())
    }

    /// The name of the per-call context type a handler may take.
    pub(crate) fn context_type(self) -> &'static str {
        match self {
            Self::Tool => "ToolCallContext",
            Self::Prompt => "PromptRequest",
            Self::Resource => "ResourceRequest",
        }
    }
}
