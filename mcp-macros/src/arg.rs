//! `#[arg(description = "..", default = .., example = ..)]` on a parameter:
//! what the property of a plain argument says beside its type (rustc
//! refuses `///` on a parameter, so this is the way to describe one). The
//! attribute is read here and taken off the function the macro emits.

use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::meta::ParseNestedMeta;
use syn::{Attribute, Expr, FnArg, LitStr, Signature};

use crate::ctxt::Ctxt;
use crate::suggest::closest;

/// The keys `#[arg(..)]` takes.
const KEYS: &[&str] = &["description", "default", "example"];

/// What a parameter's `#[arg(..)]` says.
#[derive(Default)]
pub(crate) struct ArgMeta {
    /// The (first) attribute as written, for errors about it as a whole.
    pub(crate) attr: Option<TokenStream>,
    /// `description = ".."`: the property's `description`.
    pub(crate) description: Option<LitStr>,
    /// `default = v`: the property's `default` (`json!(v)`), the value of a
    /// call that leaves the argument out.
    pub(crate) default: Option<Expr>,
    /// `example = v`, repeatable: the property's `examples`, in order.
    pub(crate) examples: Vec<Expr>,
}

impl ArgMeta {
    /// Whether it says more than a description.
    pub(crate) fn has_values(&self) -> bool {
        self.default.is_some() || !self.examples.is_empty()
    }
}

/// Reads the `#[arg(..)]`s among a parameter's attributes (several read
/// as one).
pub(crate) fn read(cx: &mut Ctxt, attrs: &[Attribute]) -> ArgMeta {
    let mut meta = ArgMeta::default();
    for attr in attrs.iter().filter(|attr| is_arg(attr)) {
        meta.attr.get_or_insert_with(|| attr.to_token_stream());
        if !matches!(attr.meta, syn::Meta::List(_)) {
            cx.error_spanned_by(
                attr,
                "write `#[arg(description = \"..\", default = .., example = ..)]`",
            );
            continue;
        }
        let parsed = attr.parse_nested_meta(|key| read_key(cx, &mut meta, key));
        if let Err(error) = parsed {
            cx.syn_error(error);
        }
    }
    meta
}

fn read_key(cx: &mut Ctxt, meta: &mut ArgMeta, key: ParseNestedMeta<'_>) -> syn::Result<()> {
    let name = key
        .path
        .get_ident()
        .map(ToString::to_string)
        .unwrap_or_default();
    match name.as_str() {
        "description" => {
            let text: LitStr = key.value()?.parse()?;
            if meta.description.replace(text).is_some() {
                cx.error_spanned_by(&key.path, "duplicate `description`; give it once");
            }
        }
        "default" => {
            let value: Expr = key.value()?.parse()?;
            if meta.default.replace(value).is_some() {
                cx.error_spanned_by(&key.path, "duplicate `default`; give it once");
            }
        }
        "example" => meta.examples.push(key.value()?.parse()?),
        _ => {
            let message = match closest(&name, KEYS) {
                Some(key) => format!("unknown `#[arg]` key `{name}`; did you mean `{key}`?"),
                None => format!(
                    "unknown `#[arg]` key `{name}`; it takes `description`, `default` and `example`"
                ),
            };
            return Err(key.error(message));
        }
    }
    Ok(())
}

/// Takes every `#[arg(..)]` off the parameters of `sig` (rustc knows no
/// such attribute).
pub(crate) fn strip(sig: &mut Signature) {
    for input in &mut sig.inputs {
        if let FnArg::Typed(typed) = input {
            typed.attrs.retain(|attr| !is_arg(attr));
        }
    }
}

fn is_arg(attr: &Attribute) -> bool {
    attr.path().is_ident("arg")
}
