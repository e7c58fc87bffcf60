//! Reads a tool function's signature: its receiver, which arguments are
//! tool arguments and which are contexts, and its return type.

use syn::{FnArg, GenericArgument, Ident, Pat, PathArguments, ReturnType, Signature, Type};

use crate::arg::{self, ArgMeta};
use crate::ctxt::Ctxt;
use crate::kind::Kind;

/// How a method receives `self`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Receiver {
    /// A free function or an associated function.
    None,
    /// `&self`: the toolbox clones its `Arc<Self>` into each call.
    Ref,
    /// `self: Arc<Self>`.
    Arc,
}

/// What an argument is.
pub(crate) enum ArgKind {
    /// A tool argument: a property of the arguments object.
    Plain,
    /// `ToolCallContext<C>` (by value) or `&ToolCallContext<C>`.
    CallContext {
        /// Whether it is taken by reference.
        by_ref: bool,
    },
    /// `&T`: the per-session context (`C = T`); a reference can never be
    /// deserialized from the call's arguments, so it must be the session's.
    Session,
}

/// One argument after the receiver.
pub(crate) struct Arg {
    /// The argument's name (the property name of a plain argument).
    pub(crate) ident: Ident,
    /// Its type as written.
    pub(crate) ty: Type,
    /// What it is.
    pub(crate) kind: ArgKind,
    /// What its `#[arg(..)]` says.
    pub(crate) meta: ArgMeta,
}

/// A tool function's signature.
pub(crate) struct ToolSig {
    /// The function's name.
    pub(crate) ident: Ident,
    /// The receiver.
    pub(crate) receiver: Receiver,
    /// The arguments after the receiver.
    pub(crate) args: Vec<Arg>,
    /// The per-session context type `C`, when an argument fixes it.
    pub(crate) context: Option<Type>,
    /// The return type (`()` when there is none).
    pub(crate) output: Type,
}

impl ToolSig {
    /// The plain (tool) arguments.
    pub(crate) fn plain(&self) -> impl Iterator<Item = &Arg> {
        self.args
            .iter()
            .filter(|arg| matches!(arg.kind, ArgKind::Plain))
    }

    /// Whether some argument needs the call context.
    pub(crate) fn needs_context(&self) -> bool {
        self.args
            .iter()
            .any(|arg| !matches!(arg.kind, ArgKind::Plain))
    }
}

/// Reads `sig`; `in_toolbox` says whether `self` receivers are allowed.
pub(crate) fn read(cx: &mut Ctxt, sig: &Signature, kind: Kind, in_toolbox: bool) -> ToolSig {
    if sig.asyncness.is_none() {
        cx.error_spanned_by(
            sig.fn_token,
            format!("`#[{}]` requires an `async fn`; add `async`", kind.name()),
        );
    }
    let mut receiver = Receiver::None;
    let mut args = Vec::new();
    let mut context: Option<Type> = None;
    let mut by_value_contexts = 0;
    for input in &sig.inputs {
        match input {
            FnArg::Receiver(recv) => {
                receiver = read_receiver(cx, recv, kind, in_toolbox);
            }
            FnArg::Typed(typed) => {
                let Some(ident) = arg_ident(&typed.pat) else {
                    cx.error_spanned_by(
                        &typed.pat,
                        "a tool argument must be a plain name (`id: Type`): the name is its property in the arguments object",
                    );
                    continue;
                };
                let ty = (*typed.ty).clone();
                let arg_kind = classify(cx, &ty, kind);
                let meta = arg::read(cx, &typed.attrs);
                check_meta(cx, &meta, &arg_kind, &ident, kind);
                match &arg_kind {
                    ArgKind::CallContext { by_ref } => {
                        by_value_contexts += usize::from(!by_ref);
                        if by_value_contexts > 1 {
                            let context = kind.context_type();
                            cx.error_spanned_by(&ty, format!("take `{context}` by value at most once; take `&{context}` instead"));
                        }
                        context.get_or_insert_with(|| call_context_param(&ty));
                    }
                    ArgKind::Session => {
                        if let Type::Reference(reference) = &ty {
                            context = Some((*reference.elem).clone());
                        }
                    }
                    ArgKind::Plain => {}
                }
                args.push(Arg {
                    ident,
                    ty,
                    kind: arg_kind,
                    meta,
                });
            }
        }
    }
    let output = match &sig.output {
        ReturnType::Default => syn::parse_quote!(()),
        ReturnType::Type(_, ty) => (**ty).clone(),
    };
    ToolSig {
        ident: sig.ident.clone(),
        receiver,
        args,
        context,
        output,
    }
}

/// Refuses an `#[arg(..)]` where it says nothing: on a context argument,
/// on a resource's parameter, and (but for `description`) on a prompt's.
fn check_meta(cx: &mut Ctxt, meta: &ArgMeta, arg_kind: &ArgKind, ident: &Ident, kind: Kind) {
    let Some(attr) = &meta.attr else {
        return;
    };
    let message = match (arg_kind, kind) {
        (ArgKind::CallContext { .. } | ArgKind::Session, _) => format!(
            "`#[arg]` describes a tool argument, and `{ident}` is a context the macro passes, not an argument; remove `#[arg]`"
        ),
        (_, Kind::Resource) => format!(
            "`#[arg]` describes a tool argument; `{ident}` is a variable of the resource's URI template"
        ),
        (_, Kind::Prompt) if meta.has_values() => {
            "a prompt argument is a string a person fills in: `#[arg]` takes only `description` here".to_owned()
        }
        _ => return,
    };
    cx.error_spanned_by(attr, message);
}

fn read_receiver(cx: &mut Ctxt, recv: &syn::Receiver, kind: Kind, in_toolbox: bool) -> Receiver {
    if kind == Kind::Prompt {
        cx.error_spanned_by(
            recv,
            "`#[prompt]` goes on a free `async fn`, not on a method",
        );
        return Receiver::None;
    }
    if !in_toolbox {
        cx.error_spanned_by(
            recv,
            "a `#[tool]` method with a `self` receiver must be inside a `#[toolbox]` impl block; add `#[toolbox]` to the `impl`",
        );
        return Receiver::None;
    }
    match (&recv.reference, recv.mutability) {
        (Some(_), None) => Receiver::Ref,
        (None, _) if recv.colon_token.is_some() && is_arc_self(&recv.ty) => Receiver::Arc,
        _ => {
            cx.error_spanned_by(recv, "a tool method takes `&self` or `self: Arc<Self>`: tools run concurrently on shared state");
            Receiver::None
        }
    }
}

fn is_arc_self(ty: &Type) -> bool {
    match ty {
        Type::Path(path) => path.path.segments.last().is_some_and(|s| s.ident == "Arc"),
        _ => false,
    }
}

fn arg_ident(pat: &Pat) -> Option<Ident> {
    match pat {
        Pat::Ident(pat) if pat.subpat.is_none() && pat.by_ref.is_none() => Some(pat.ident.clone()),
        _ => None,
    }
}

fn classify(cx: &mut Ctxt, ty: &Type, kind: Kind) -> ArgKind {
    match ty {
        Type::Reference(reference) if is_call_context(&reference.elem, kind) => {
            ArgKind::CallContext { by_ref: true }
        }
        Type::Reference(reference) if reference.mutability.is_some() => {
            cx.error_spanned_by(
                ty,
                "a tool cannot take `&mut` arguments; take `&T` for the session context",
            );
            ArgKind::Plain
        }
        Type::Reference(reference) if is_borrowed_data(&reference.elem) => {
            cx.error_spanned_by(
                ty,
                "tool arguments are owned values: take `String` or `Vec<T>` (a `&T` argument is the per-session context)",
            );
            ArgKind::Plain
        }
        Type::Reference(_) => ArgKind::Session,
        ty if is_call_context(ty, kind) => ArgKind::CallContext { by_ref: false },
        _ => ArgKind::Plain,
    }
}

/// Whether `ty` is `str` or a slice: `&str` and `&[T]` are borrowed
/// arguments by mistake, never a session context.
fn is_borrowed_data(ty: &Type) -> bool {
    match ty {
        Type::Slice(_) => true,
        Type::Path(path) => path.qself.is_none() && path.path.is_ident("str"),
        _ => false,
    }
}

/// Whether `ty` names `ToolCallContext` (under any path).
fn is_call_context(ty: &Type, kind: Kind) -> bool {
    match ty {
        Type::Path(path) if path.qself.is_none() => path
            .path
            .segments
            .last()
            .is_some_and(|s| s.ident == kind.context_type()),
        _ => false,
    }
}

/// The `C` of `ToolCallContext<C>` or `&ToolCallContext<C>` (`()` when omitted).
fn call_context_param(ty: &Type) -> Type {
    let ty = match ty {
        Type::Reference(reference) => &*reference.elem,
        ty => ty,
    };
    if let Type::Path(path) = ty
        && let Some(segment) = path.path.segments.last()
        && let PathArguments::AngleBracketed(args) = &segment.arguments
        && let Some(GenericArgument::Type(ty)) = args.args.first()
    {
        return ty.clone();
    }
    syn::parse_quote!(())
}
