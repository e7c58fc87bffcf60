//! What is emitted when `#[tool]` finds errors: the function untouched, the
//! errors, and a stub of the sibling item with the same signature, so the
//! user sees the errors and not a cascade of "cannot find `x_tool`".

use proc_macro2::TokenStream;
use quote::quote;

use crate::expand::Tool;

/// A sibling with the real signature whose body is never run (the crate
/// does not compile while the errors stand).
pub(crate) fn stub(tool: &Tool<'_>) -> TokenStream {
    let signature = tool.signature();
    let checks = tool.checks();
    let message = format!("`#[{}]` reported a compile error", tool.kind.name());
    quote! {
        #[allow(unused_variables, clippy::diverging_sub_expression)]
        #signature {
            #checks
            ::core::unreachable!(#message)
        }
    }
}
