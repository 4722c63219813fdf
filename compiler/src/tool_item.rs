//! What a procedural macro expands a tool schema to: its validator and, when asked, its typed
//! arguments, from one build of the schema. [`Builder`](crate::Builder) serves build scripts;
//! this serves `tool_schema!`, which names its own items and keeps the schema's text.

use crate::runtime::Runtime;
use crate::types::{self, ArgumentTypes};
use crate::{emit, snake_case};
use proc_macro2::TokenStream;
use quote::format_ident;
use serde_json::Value;
use toolschema_core::Options;

/// One tool schema as a macro invocation gives it.
#[derive(Clone, Copy)]
pub struct ToolItem<'a> {
    /// The validator struct's attributes and visibility.
    pub decl: &'a TokenStream,
    /// The validator struct's name; its node functions go in a sibling module named after it
    /// in snake case with `_nodes` appended.
    pub ty: &'a syn::Ident,
    /// The schema.
    pub schema: &'a Value,
    /// The schema's text, kept byte for byte as the validator's `SCHEMA_JSON`.
    pub schema_json: &'a str,
    /// The typed arguments to generate beside the validator: their visibility and name.
    pub types: Option<(&'a TokenStream, &'a str)>,
}

/// The code of a [`ToolItem`].
#[derive(Debug)]
pub struct ToolItemTokens {
    /// The validator struct and its node functions.
    pub validator: TokenStream,
    /// The typed arguments, when asked for.
    pub types: Option<ArgumentTypes>,
}

/// The validator of `item` (and its typed arguments), under the rules of the tool-call
/// boundary, as with [`Builder::tool_schemas`](crate::Builder::tool_schemas); the front end's
/// error when it rejects the schema.
///
/// ```
/// use quote::{format_ident, quote};
/// use serde_json::json;
/// let text = r#"{"properties": {"q": {"type": "string"}}, "required": ["q"]}"#;
/// let schema: serde_json::Value = serde_json::from_str(text).unwrap();
/// let item = toolschema_compiler::ToolItem {
///     decl: &quote! { pub(crate) },
///     ty: &format_ident!("SearchSchema"),
///     schema: &schema,
///     schema_json: text,
///     types: Some((&quote! { pub }, "SearchArgs")),
/// };
/// let tokens = toolschema_compiler::tool_item(item, &toolschema::Options::new()).unwrap();
/// let code = toolschema_compiler::format_file(tokens.validator);
/// assert!(code.contains("pub(crate) struct SearchSchema;"));
/// assert!(code.contains("mod search_schema_nodes"));
/// assert_eq!(tokens.types.unwrap().names[0], "SearchArgs");
///
/// let item = toolschema_compiler::ToolItem { schema: &json!(true), ..item };
/// assert!(toolschema_compiler::tool_item(item, &toolschema::Options::new()).is_err());
/// ```
pub fn tool_item(
    item: ToolItem<'_>,
    options: &Options,
) -> Result<ToolItemTokens, toolschema_core::Error> {
    let ir = toolschema_core::frontend::build_tool(item.schema, options)?;
    let name = item.ty.to_string();
    let module = format_ident!("{}_nodes", snake_case(&name));
    let emitted = emit::Item {
        decl: item.decl,
        name: &name,
        ty: item.ty,
        module: &module,
        json: item.schema_json,
    };
    let runtime = Runtime::default();
    let validator = emit::schema(emitted, &ir, options.get_limits(), &runtime);
    let types = item.types.map(|(vis, type_name)| {
        types::argument_types(
            &TokenStream::new(),
            vis,
            type_name,
            item.ty,
            &ir,
            item.schema,
        )
    });
    Ok(ToolItemTokens { validator, types })
}
