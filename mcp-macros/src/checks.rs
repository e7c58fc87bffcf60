//! Compile-time checks of literals, through `mcp_core`'s `const fn`s: the
//! name rule and the `_meta` key rule are written once, in `mcp_core`, and
//! evaluated in a `const _` spanned at the literal, so a bad one is an error
//! there.

use proc_macro2::TokenStream;
use quote::quote;
use quote::quote_spanned;
use syn::LitStr;

use crate::attr::SetterValue;
use crate::expand::Tool;
use crate::kind::Kind;

impl Tool<'_> {
    /// The compile-time checks of the name and the `_meta` keys, through
    /// `mcp_core`'s `const fn`s (the rules are written once, there): one
    /// `const _` each, spanned at the literal.
    pub(crate) fn checks(&self) -> TokenStream {
        let krate = self.krate();
        let name = (self.kind == Kind::Tool).then(|| name_check(&krate, &self.tool_name()));
        let keys: Vec<TokenStream> = self
            .attrs
            .setters
            .iter()
            .filter_map(|setter| match &setter.value {
                SetterValue::Meta(entries) => Some(entries),
                _ => None,
            })
            .flatten()
            .map(|(key, _)| meta_key_check(&krate, key))
            .collect();
        quote!(#name #(#keys)*)
    }
}

/// `const _: () = ..` panicking with `meta_key_message(key)`, spanned at the key.
fn meta_key_check(krate: &TokenStream, key: &LitStr) -> TokenStream {
    quote_spanned! {key.span()=>
        const _: () = if let ::core::option::Option::Some(message) = &#krate::__private::meta_key_message(#key) {
            ::core::panic!("{}", message.as_str())
        };
    }
}

/// `const _: () = assert!(is_valid_tool_name(..))`, spanned at the name.
fn name_check(krate: &TokenStream, name: &LitStr) -> TokenStream {
    let message = format!(
        "invalid tool name `{}`: a tool name is 1 to 128 characters of A-Z a-z 0-9 _ - .",
        name.value()
    )
    .replace('{', "{{")
    .replace('}', "}}");
    quote_spanned! {name.span()=>
        const _: () = ::core::assert!(#krate::name::is_valid_tool_name(#name), #message);
    }
}
