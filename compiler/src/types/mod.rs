//! Typed arguments: from the IR a validator is generated from, a Rust type that accepts
//! exactly what the validator accepts, with `serde` derives and a `parse` entry that
//! validates first.
//!
//! The mapping (see `docs/types.md`) reads the lowered IR, not the schema JSON: `$ref`s are
//! resolved, `allOf` members and reference targets are the in-place conjuncts the validator
//! applies, and discriminators are the ones the validator uses. Only `title`, `description`
//! and `deprecated`, which the IR leaves out, are read from the schema document.
//!
//! ```
//! use quote::{format_ident, quote};
//! use serde_json::json;
//! let schema = json!({
//!     "type": "object",
//!     "properties": {"query": {"type": "string"}, "maxResults": {"type": "integer", "minimum": 1, "maximum": 50}},
//!     "required": ["query"]
//! });
//! let ir = toolschema::frontend::build_tool(&schema, &toolschema::Options::new()).unwrap();
//! let types = toolschema_compiler::types::argument_types(
//!     &quote! {},
//!     &quote! { pub },
//!     "SearchArgs",
//!     &format_ident!("SearchSchema"),
//!     &ir,
//!     &schema,
//! );
//! assert!(types.fallbacks.is_empty());
//! let code = toolschema_compiler::format_file(types.tokens);
//! assert!(code.contains("pub max_results: ::std::option::Option<u8>"));
//! ```

mod map;
mod model;
mod names;
mod render;

pub use model::Fallback;

use crate::runtime::Runtime;
use proc_macro2::TokenStream;
use serde_json::Value;
use toolschema_core::ir::Ir;

/// A schema's argument types as code, and what they could not type.
#[derive(Debug)]
pub struct ArgumentTypes {
    /// The items: the root type, the types it holds, and the root's `parse` and `FALLBACKS`.
    pub tokens: TokenStream,
    /// The name of every generated item, the root's first.
    pub names: Vec<String>,
    /// Every subschema typed as `serde_json::Value` although it says more, and why.
    pub fallbacks: Vec<Fallback>,
    /// Members and items typed as `serde_json::Value` because the schema allows any value
    /// there (`true`, `{}`, an object's undeclared members): exact, not a fallback.
    pub open_values: usize,
}

/// The argument type `name` of the schema `ir` (built from `schema`), with `attrs` and
/// visibility `vis` on the root type and `vis` on the others. The root's `parse` validates
/// with the unit struct `validator`, generated from the same IR.
pub fn argument_types(
    attrs: &TokenStream,
    vis: &TokenStream,
    name: &str,
    validator: &syn::Ident,
    ir: &Ir,
    schema: &Value,
) -> ArgumentTypes {
    argument_types_in(attrs, vis, name, validator, ir, schema, &Runtime::default())
}

/// [`argument_types`] naming the runtime crate by `runtime`.
pub(crate) fn argument_types_in(
    attrs: &TokenStream,
    vis: &TokenStream,
    name: &str,
    validator: &syn::Ident,
    ir: &Ir,
    schema: &Value,
    runtime: &Runtime,
) -> ArgumentTypes {
    let types = map::map(ir, schema, name);
    let tokens = render::render(&types, attrs, vis, validator, runtime);
    let mut names: Vec<String> = vec![types.defs[types.root].name.clone()];
    for (i, def) in types.defs.iter().enumerate() {
        let seen_through = matches!(def.kind, model::Kind::Alias(model::Ty::Named(_)));
        if i != types.root && !seen_through && !def.name.is_empty() {
            names.push(def.name.clone());
        }
    }
    ArgumentTypes {
        tokens,
        names,
        fallbacks: types.fallbacks,
        open_values: types.open_values,
    }
}
