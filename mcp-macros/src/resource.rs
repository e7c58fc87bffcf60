//! `#[resource]`: the sibling is `mcp_core::resource::resource(uri, name)` (or
//! `resource_template(uri_template, name)`) ending in `.read(handler)`; the
//! function's plain parameters are the template's variables.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};
use syn::LitStr;

use crate::ctxt::Ctxt;
use crate::expand::Tool;
use crate::kind::Kind;
use crate::signature::ArgKind;

/// Checks what only `#[resource]` has: a `uri` or `uri_template`, and plain
/// parameters only with a template.
pub(crate) fn validate(cx: &mut Ctxt, tool: &Tool<'_>) {
    match (&tool.attrs.target, tool.kind) {
        (None, Kind::Resource) => cx.error_spanned_by(
            &tool.sig.ident,
            "`#[resource]` needs `uri = \"..\"` or `uri_template = \"..\"`",
        ),
        (Some((key, _)), Kind::Tool | Kind::Prompt) => {
            cx.error_spanned_by(key, format!("`{key}` is only for `#[resource]`"));
        }
        (Some((key, _)), Kind::Resource) if key == "uri" => {
            for arg in tool.sig.plain() {
                cx.error_spanned_by(
                    &arg.ident,
                    "a resource at a fixed `uri` takes no arguments; use `uri_template` and name a parameter after each variable",
                );
            }
        }
        _ => {}
    }
}

impl Tool<'_> {
    /// The body of `<fn>_resource()`, after the checks and the builder's
    /// metadata calls.
    pub(crate) fn resource_run(
        &self,
        krate: &TokenStream,
        name: &LitStr,
        metadata: TokenStream,
    ) -> TokenStream {
        let kind_path = self.kind_path();
        let (builder, target) = match &self.attrs.target {
            Some((key, uri)) if key == "uri_template" => {
                (quote!(resource_template), uri.to_token_stream())
            }
            Some((_, uri)) => (quote!(resource), uri.to_token_stream()),
            None => (quote!(resource), quote!("")),
        };
        let ident = &self.sig.ident;
        let callee = quote!(#ident);
        let handler = if self.sig.args.is_empty() {
            let turbofish = self.generics.split_for_impl().1;
            let turbofish = turbofish.as_turbofish();
            quote!(#callee #turbofish)
        } else {
            let ctx = self.context_type();
            let variables = self.sig.plain().map(|arg| {
                let (ident, ty) = (&arg.ident, &arg.ty);
                let name = LitStr::new(ident.to_string().trim_start_matches("r#"), ident.span());
                quote! {
                    let #ident: #ty = ::core::convert::From::from(__cx.variable(#name).unwrap_or_default());
                }
            });
            let args = self.sig.args.iter().map(|arg| match arg.kind {
                ArgKind::Plain => arg.ident.to_token_stream(),
                ArgKind::CallContext { by_ref: true } => quote!(&__cx),
                ArgKind::CallContext { by_ref: false } => quote!(__cx),
                ArgKind::Session => quote!(__cx.ctx()),
            });
            quote! {
                move |__cx: #krate::resource::ResourceRequest<#ctx>| async move {
                    #(#variables)*
                    #callee(#(#args),*).await
                }
            }
        };
        quote! {
            let __builder = #kind_path::#builder(#target, #name) #metadata;
            __builder.read(#handler)
        }
    }
}
