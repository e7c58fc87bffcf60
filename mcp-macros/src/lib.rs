#![cfg_attr(docsrs, feature(doc_cfg))]
#![doc = include_str!("lib.md")]

mod arg;
mod attr;
mod checks;
mod ctxt;
mod expand;
mod fallback;
mod kind;
mod resource;
mod signature;
mod suggest;
mod toolbox;

use proc_macro::TokenStream;
use proc_macro2::TokenStream as TokenStream2;
use quote::quote;

use crate::ctxt::Ctxt;
use crate::expand::Tool;
use crate::kind::Kind;

/// Makes an `async fn` an MCP tool: keeps the function and adds
/// `<fn>_tool() -> Result<ContextFreeToolDef, ToolError>` (or
/// `Result<ToolDef<C>, ToolError>` when an argument fixes the session
/// context `C`), the `ToolBuilder` chain its signature and attributes spell.
///
/// Attribute keys are `ToolBuilder` method names (`title = ".."`,
/// `annotations(read, ..)`, `icon(png = "..")`, `execution = "optional"`,
/// `meta("k" = v)`, `metadata = BUNDLE`, `scopes = ["pets:write"]`, ...),
/// plus `name = ".."` and `crate = path`; the crate documentation walks
/// through each. A parameter is described with
/// `#[arg(description = "..", default = .., example = ..)]` (rustc refuses
/// `///` on a parameter).
///
/// ```
/// /// Adds two numbers.
/// #[mcp_core::tool(title = "Add", annotations(read))]
/// async fn add(#[arg(description = "The first term.")] a: i64, b: i64) -> i64 {
///     a + b
/// }
///
/// let def = add_tool()?;
/// assert_eq!(def.tool().title.as_deref(), Some("Add"));
/// assert_eq!(def.tool().input_schema["properties"]["a"]["description"], "The first term.");
/// # Ok::<(), mcp_core::ToolError>(())
/// ```
#[proc_macro_attribute]
pub fn tool(args: TokenStream, item: TokenStream) -> TokenStream {
    expand_fn(Kind::Tool, args.into(), item.into()).into()
}

/// Makes an `async fn` an MCP prompt: keeps the function and adds
/// `<fn>_prompt() -> Result<PromptDef<C>, PromptError>`, the `PromptBuilder`
/// chain (`mcp_core::prompt::prompt(..)`) its signature and attributes spell.
///
/// It reads like [`macro@tool`]: the doc comment is the description, keys
/// are `PromptBuilder` methods (`title`, `icon(..)`, `meta(..)`,
/// `metadata = ..`, ...), parameters are the prompt's arguments (an
/// `Option` one is optional), and a `PromptRequest<C>` or `&T` (the session
/// context) parameter is not an argument. It returns anything
/// `IntoGetPromptResult` (text, messages, a `Result` of them).
///
/// ```
/// /// Asks for a careful code review.
/// #[mcp_macros::prompt(title = "Review code")]
/// async fn code_review(code: String, language: Option<String>) -> String {
///     format!("Review this {} code:\n{code}", language.as_deref().unwrap_or("unknown"))
/// }
///
/// let def: mcp_core::prompt::PromptDef = code_review_prompt()?;
/// assert_eq!(def.prompt().arguments.len(), 2);
/// assert_eq!(def.prompt().arguments[0].required, Some(true));
/// assert_eq!(def.prompt().arguments[1].required, Some(false));
/// # Ok::<(), mcp_core::prompt::PromptError>(())
/// ```
#[proc_macro_attribute]
pub fn prompt(args: TokenStream, item: TokenStream) -> TokenStream {
    expand_fn(Kind::Prompt, args.into(), item.into()).into()
}

/// Makes an `async fn` an MCP resource (`uri = ".."`) or resource template
/// (`uri_template = ".."`): keeps the function and adds
/// `<fn>_resource() -> Result<ResourceDef<C>, ResourceError>`, the
/// `mcp_core::resource::resource(uri, name)` (or `resource_template`) chain ending in
/// `.read(handler)`.
///
/// The name defaults to the function's, the doc comment is the
/// description, other keys are `ResourceBuilder` methods (`title`,
/// `mime_type = ".."`, `size = ..`, `icon(..)`, `meta(..)`, ...). A template's
/// variables are the function's plain parameters, by name (`String`, or any
/// `From<&str>` type); `ResourceRequest<C>` and `&T` (the session context)
/// parameters are passed too. It returns text, bytes, `ResourceContents` or a
/// `Result` of them.
///
/// ```
/// /// The data of one item.
/// #[mcp_macros::resource(uri_template = "test://items/{id}", mime_type = "application/json")]
/// async fn item(id: String) -> String {
///     format!(r#"{{"id":"{id}"}}"#)
/// }
///
/// let def: mcp_core::resource::ResourceDef = item_resource()?;
/// let result = futures_executor::block_on(def.read_detached("test://items/7"))?;
/// assert_eq!(serde_json::to_value(&result)?["contents"][0]["text"], r#"{"id":"7"}"#);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[proc_macro_attribute]
pub fn resource(args: TokenStream, item: TokenStream) -> TokenStream {
    expand_fn(Kind::Resource, args.into(), item.into()).into()
}

/// Makes the `#[tool]` methods of an impl block tools that share `self`:
/// adds `<method>_tool(self: &Arc<Self>)` for each and
/// `tools(self: &Arc<Self>) -> Result<Vec<ToolDef<C>>, ToolError>`.
///
/// ```
/// use std::sync::Arc;
///
/// struct Greeter {
///     greeting: String,
/// }
///
/// #[mcp_core::toolbox]
/// impl Greeter {
///     /// Greets someone.
///     #[tool]
///     async fn greet(&self, name: String) -> String {
///         format!("{} {name}", self.greeting)
///     }
/// }
///
/// let greeter = Arc::new(Greeter { greeting: "hi".into() });
/// let tools: Vec<mcp_core::ToolDef> = greeter.tools()?;
/// let result = futures_executor::block_on(tools[0].call_detached(serde_json::json!({"name": "ada"})));
/// assert_eq!(result.text_content(), "hi ada");
/// # Ok::<(), mcp_core::ToolError>(())
/// ```
#[proc_macro_attribute]
pub fn toolbox(args: TokenStream, item: TokenStream) -> TokenStream {
    let item: TokenStream2 = item.into();
    match syn::parse2::<syn::ItemImpl>(item.clone()) {
        Ok(block) => toolbox::expand(args.into(), block).into(),
        Err(_) => {
            let error = syn::Error::new_spanned(&item, "`#[toolbox]` goes on an `impl` block")
                .to_compile_error();
            quote!(#item #error).into()
        }
    }
}

/// `#[tool(args)] item` or `#[prompt(args)] item`, on proc-macro2 tokens
/// (unit-testable).
fn expand_fn(kind: Kind, args: TokenStream2, item: TokenStream2) -> TokenStream2 {
    let mut function = match syn::parse2::<syn::ItemFn>(item.clone()) {
        Ok(function) => function,
        Err(_) => {
            let message = format!("`#[{}]` goes on an `async fn`", kind.name());
            let error = syn::Error::new_spanned(&item, message).to_compile_error();
            return quote!(#item #error);
        }
    };
    let mut cx = Ctxt::default();
    let attrs = attr::parse(&mut cx, args);
    let sig = signature::read(&mut cx, &function.sig, kind, false);
    let tool = Tool {
        attrs: &attrs,
        sig: &sig,
        fn_attrs: &function.attrs,
        generics: &function.sig.generics,
        vis: &function.vis,
        in_toolbox: false,
        kind,
    };
    resource::validate(&mut cx, &tool);
    let sibling = if cx.has_errors() {
        fallback::stub(&tool)
    } else {
        tool.sibling()
    };
    let errors = cx.into_compile_errors();
    // The function as written, without the `#[arg(..)]`s rustc does not know.
    arg::strip(&mut function.sig);
    quote!(#function #errors #sibling)
}

#[cfg(test)]
mod tests {
    use quote::quote;

    /// The expansion of the issue's `delete_user` example, pretty-printed.
    #[test]
    fn delete_user_expansion() {
        let args = quote! {
            name = "delete_user",
            title = "Delete user",
            annotations(destroy, closed_world),
            icon(png = "https://example.com/delete.png", sizes = ["48x48", "any"]),
            execution = "optional",
            meta("com.example.acme/audit-tier" = "high"),
        };
        let item = quote! {
            /// Permanently remove a user account by id. This cannot be undone.
            async fn delete_user(req: DeleteRequest) -> Result<DeleteResponse, MyError> {
                do_delete(req.id).await
            }
        };
        let expanded = super::expand_fn(super::Kind::Tool, args, item);
        let file = syn::parse2::<syn::File>(expanded).expect("the expansion parses as items");
        insta::assert_snapshot!(prettyplease::unparse(&file));
    }

    /// Errors leave the function alone and add a stub, not a cascade.
    #[test]
    fn errors_expand_to_the_fallback() {
        let expanded = super::expand_fn(
            super::Kind::Tool,
            quote!(execution = "sometimes"),
            quote!(
                fn add(a: i64) -> i64 {
                    a
                }
            ),
        );
        let file = syn::parse2::<syn::File>(expanded).expect("the expansion parses as items");
        insta::assert_snapshot!(prettyplease::unparse(&file));
    }
}

/// The README's examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
mod readme {}
