//! Parses `#[tool(...)]`: every key is a `ToolBuilder` method name; only
//! `name`, `crate` and a few keys with a compact syntax get bespoke parsing.

use proc_macro2::TokenStream;
use syn::meta::ParseNestedMeta;
use syn::punctuated::Punctuated;
use syn::{Expr, Ident, LitStr, Path, Token};

use crate::ctxt::Ctxt;
use crate::suggest::with_suggestion;

/// What `#[tool(...)]` says.
#[derive(Default)]
pub(crate) struct ToolAttrs {
    /// `name = ".."`: the tool's name (default: the function's).
    pub(crate) name: Option<LitStr>,
    /// Whether `description` was given (then doc comments are not used).
    pub(crate) has_description: bool,
    /// `crate = path`: where `mcp_core` is (default `::mcp_core`).
    pub(crate) krate: Option<Path>,
    /// `uri = ".."` or `uri_template = ".."` of `#[resource]`.
    pub(crate) target: Option<(Ident, Expr)>,
    /// The builder calls, in the order written.
    pub(crate) setters: Vec<Setter>,
}

/// One builder method call, emitted at the span of its key.
pub(crate) struct Setter {
    /// The key: the builder method's name.
    pub(crate) key: Ident,
    /// Its arguments.
    pub(crate) value: SetterValue,
}

/// The arguments of a builder call.
pub(crate) enum SetterValue {
    /// `key` -> `.key()`.
    Bare,
    /// `key = v` -> `.key(v)`; `key(a, b)` -> `.key(a, b)`.
    Args(Vec<Expr>),
    /// `annotations(destroy, title = "..")` -> `.annotations([Hint::Destroy, Hint::Title(..)])`.
    Annotations(Vec<HintArg>),
    /// `icon(png = "..", sizes = [..], theme = "dark")` -> `.icon(Icon::png(.., &[..]).theme(..))`.
    Icon(IconArg),
    /// `execution = "optional"` -> `.execution(ToolExecution::optional())`.
    Execution(Ident),
    /// `meta("k" = v, ..)` -> `.meta("k", json!(v))` for each entry.
    Meta(Vec<(LitStr, Expr)>),
    /// `metadata = path` -> `.metadata(&path)`.
    Metadata(Expr),
}

/// One `Hint`, spanned at its name.
pub(crate) struct HintArg {
    /// The name as written.
    pub(crate) ident: Ident,
    /// The `Hint` variant.
    pub(crate) variant: Ident,
    /// The title of `title = ".."`.
    pub(crate) title: Option<Expr>,
}

/// An icon.
pub(crate) struct IconArg {
    /// `png`, `jpeg`, `svg` or `webp`: the `Icon` constructor.
    pub(crate) kind: Ident,
    /// The icon's URL.
    pub(crate) src: Expr,
    /// `sizes = [..]`.
    pub(crate) sizes: Vec<Expr>,
    /// `theme = "light" | "dark"`: the `IconTheme` variant.
    pub(crate) theme: Option<Ident>,
}

const HINTS: &[(&str, &str)] = &[
    ("read", "Read"),
    ("write", "Write"),
    ("destroy", "Destroy"),
    ("idempotent", "Idempotent"),
    ("not_idempotent", "NotIdempotent"),
    ("open_world", "OpenWorld"),
    ("closed_world", "ClosedWorld"),
    ("title", "Title"),
];
const ICON_KINDS: &[&str] = &["png", "jpeg", "svg", "webp"];
const EXECUTIONS: &[&str] = &["forbidden", "optional", "required"];
const REPEATABLE: &[&str] = &["icon", "meta"];
const SET_BY_MACRO: &[&str] = &[
    "run",
    "build",
    "input",
    "output",
    "input_schema",
    "output_schema",
];

/// Parses the attribute's arguments, recording every problem in `cx`.
pub(crate) fn parse(cx: &mut Ctxt, tokens: TokenStream) -> ToolAttrs {
    let mut attrs = ToolAttrs::default();
    let mut seen: Vec<String> = Vec::new();
    let parser = syn::meta::parser(|meta| parse_one(cx, &mut attrs, &mut seen, meta));
    if let Err(error) = syn::parse::Parser::parse2(parser, tokens) {
        cx.syn_error(error);
    }
    attrs
}

fn parse_one(
    cx: &mut Ctxt,
    attrs: &mut ToolAttrs,
    seen: &mut Vec<String>,
    meta: ParseNestedMeta<'_>,
) -> syn::Result<()> {
    let Some(key) = meta.path.get_ident().cloned() else {
        return Err(meta.error("expected an attribute name such as `title` or `annotations`"));
    };
    let name = key.to_string().trim_start_matches("r#").to_owned();
    if !REPEATABLE.contains(&name.as_str()) && seen.contains(&name) {
        cx.error_spanned_by(&key, format!("duplicate attribute `{name}`; give it once"));
    }
    seen.push(name.clone());
    match name.as_str() {
        "name" => attrs.name = Some(meta.value()?.parse()?),
        "crate" => attrs.krate = Some(meta.value()?.parse()?),
        "uri" | "uri_template" => {
            if let Some((previous, _)) = &attrs.target
                && *previous != key
            {
                cx.error_spanned_by(&key, "give `uri` or `uri_template`, not both");
            }
            attrs.target = Some((key, meta.value()?.parse()?));
        }
        "annotations" => {
            let hints = parse_hints(cx, &meta)?;
            attrs.setters.push(Setter {
                key,
                value: SetterValue::Annotations(hints),
            });
        }
        "icon" => {
            if let Some(icon) = parse_icon(cx, &key, &meta)? {
                attrs.setters.push(Setter {
                    key,
                    value: SetterValue::Icon(icon),
                });
            }
        }
        "meta" if meta.input.peek(syn::token::Paren) => {
            let entries = parse_meta_entries(&meta)?;
            attrs.setters.push(Setter {
                key,
                value: SetterValue::Meta(entries),
            });
        }
        "execution" => {
            let value: Expr = meta.value()?.parse()?;
            let value = match lit_str(&value) {
                Some(lit) => match EXECUTIONS.iter().find(|e| **e == lit.value()) {
                    Some(variant) => SetterValue::Execution(Ident::new(variant, lit.span())),
                    None => {
                        let message = format!(
                            "invalid `execution` value `{}`: expected `forbidden`, `optional` or `required`",
                            lit.value()
                        );
                        cx.error_spanned_by(
                            lit,
                            with_suggestion(message, &lit.value(), EXECUTIONS),
                        );
                        return Ok(());
                    }
                },
                None => SetterValue::Args(vec![value]),
            };
            attrs.setters.push(Setter { key, value });
        }
        "metadata" => {
            let value = SetterValue::Metadata(meta.value()?.parse()?);
            attrs.setters.push(Setter { key, value });
        }
        _ => {
            let value = parse_generic(&meta)?;
            if SET_BY_MACRO.contains(&name.as_str()) {
                cx.error_spanned_by(
                    &key,
                    format!("`{name}` is not an attribute: `#[tool]` derives it from the function's signature"),
                );
                return Ok(());
            }
            attrs.has_description |= name == "description";
            attrs.setters.push(Setter { key, value });
        }
    }
    Ok(())
}

fn parse_generic(meta: &ParseNestedMeta<'_>) -> syn::Result<SetterValue> {
    if meta.input.peek(Token![=]) {
        Ok(SetterValue::Args(vec![meta.value()?.parse()?]))
    } else if meta.input.peek(syn::token::Paren) {
        let content;
        syn::parenthesized!(content in meta.input);
        let args = Punctuated::<Expr, Token![,]>::parse_terminated(&content)?;
        Ok(SetterValue::Args(args.into_iter().collect()))
    } else {
        Ok(SetterValue::Bare)
    }
}

fn parse_hints(cx: &mut Ctxt, meta: &ParseNestedMeta<'_>) -> syn::Result<Vec<HintArg>> {
    let mut hints = Vec::new();
    meta.parse_nested_meta(|hint| {
        let Some(ident) = hint.path.get_ident().cloned() else {
            return Err(hint.error("expected a hint name such as `read` or `destroy`"));
        };
        let name = ident.to_string();
        let title = if hint.input.peek(Token![=]) {
            Some(hint.value()?.parse::<Expr>()?)
        } else {
            None
        };
        match HINTS.iter().find(|(n, _)| *n == name) {
            Some((_, variant)) if (*variant == "Title") == title.is_some() => hints.push(HintArg {
                variant: Ident::new(variant, ident.span()),
                ident,
                title,
            }),
            Some((_, "Title")) => cx.error_spanned_by(&ident, "`title` needs a value: `title = \"..\"`"),
            Some(_) => cx.error_spanned_by(&ident, format!("hint `{name}` takes no value")),
            None => {
                let names: Vec<&str> = HINTS.iter().map(|(n, _)| *n).collect();
                let message = format!(
                    "unknown hint `{name}`: expected one of `read`, `write`, `destroy`, `idempotent`, `not_idempotent`, `open_world`, `closed_world`, `title = \"..\"`"
                );
                cx.error_spanned_by(&ident, with_suggestion(message, &name, &names));
            }
        }
        Ok(())
    })?;
    Ok(hints)
}

fn parse_icon(
    cx: &mut Ctxt,
    key: &Ident,
    meta: &ParseNestedMeta<'_>,
) -> syn::Result<Option<IconArg>> {
    let mut source: Option<(Ident, Expr)> = None;
    let mut sizes = Vec::new();
    let mut theme = None;
    let mut part_error = false;
    meta.parse_nested_meta(|part| {
        let Some(ident) = part.path.get_ident().cloned() else {
            return Err(part.error("expected `png`, `jpeg`, `svg`, `webp`, `sizes` or `theme`"));
        };
        let name = ident.to_string();
        let value: Expr = part.value()?.parse()?;
        match name.as_str() {
            "sizes" => match value {
                Expr::Array(array) => sizes = array.elems.into_iter().collect(),
                other => cx.error_spanned_by(other, "`sizes` is a list: `sizes = [\"48x48\", \"any\"]`"),
            },
            "theme" => match lit_str(&value).map(|lit| (lit.value(), lit.span())) {
                Some((t, span)) if t == "light" => theme = Some(Ident::new("Light", span)),
                Some((t, span)) if t == "dark" => theme = Some(Ident::new("Dark", span)),
                _ => cx.error_spanned_by(value, "`theme` is `\"light\"` or `\"dark\"`"),
            },
            kind if ICON_KINDS.contains(&kind) => match source {
                Some(_) => cx.error_spanned_by(&ident, "an icon has one source; use another `icon(..)` for more"),
                None => source = Some((ident, value)),
            },
            other => {
                let mut names = ICON_KINDS.to_vec();
                names.extend(["sizes", "theme"]);
                let message = format!("unknown icon part `{other}`: expected `png`, `jpeg`, `svg`, `webp`, `sizes` or `theme`");
                cx.error_spanned_by(&ident, with_suggestion(message, other, &names));
                part_error = true;
            }
        }
        Ok(())
    })?;
    match source {
        Some((kind, src)) => Ok(Some(IconArg {
            kind,
            src,
            sizes,
            theme,
        })),
        None => {
            cx.error_spanned_by(
                key,
                "`icon(..)` needs a source: `png = \"https://..\"` (or `jpeg`, `svg`, `webp`)",
            );
            Ok(None)
        }
    }
}

fn parse_meta_entries(meta: &ParseNestedMeta<'_>) -> syn::Result<Vec<(LitStr, Expr)>> {
    let content;
    syn::parenthesized!(content in meta.input);
    let mut entries = Vec::new();
    while !content.is_empty() {
        let key: LitStr = content.parse()?;
        content.parse::<Token![=]>()?;
        let value: Expr = content.parse()?;
        // The key is checked at compile time by `mcp_core::meta::meta_key_problem`
        // in the expansion (see `expand::checks`).
        entries.push((key, value));
        if content.is_empty() {
            break;
        }
        content.parse::<Token![,]>()?;
    }
    Ok(entries)
}

fn lit_str(expr: &Expr) -> Option<&LitStr> {
    match expr {
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(lit),
            ..
        }) => Some(lit),
        _ => None,
    }
}
