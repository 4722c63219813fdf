//! # toolschema-macros
//!
//! [`tool_schema!`] compiles a JSON Schema Draft 2020-12 tool input schema into a validator
//! while the crate compiles: the same code `toolschema-compiler` writes from a build script,
//! with every schema error reported as a compile error at the input at fault.
//!
//! Users reach it as `toolschema::tool_schema!`, with `toolschema`'s `macros` feature on; the
//! generated code names the runtime as `::toolschema`. (The macro is built on the compiler,
//! which is built on `toolschema-core`, the engine `toolschema` re-exports; so `toolschema`
//! can depend on this crate without a cycle.)
//!
//! ```
//! use serde_json::json;
//! use toolschema::{Validate, tool_schema};
//!
//! tool_schema!(pub SearchArgs = {
//!     "type": "object",
//!     "properties": {
//!         "query": {"type": "string", "minLength": 1},
//!         "limit": {"type": "integer", "minimum": 1, "maximum": 100}
//!     },
//!     "required": ["query"]
//! });
//!
//! assert!(SearchArgs.is_valid(&json!({"query": "fn main"})));
//! let err = SearchArgs.validate(&json!({"limit": 0})).unwrap_err();
//! assert_eq!(err.failures().len(), 2);
//! assert_eq!(SearchArgs::schema()["required"], json!(["query"]));
//! ```

use toolschema_compiler::macro_json as json;

use proc_macro2::{Delimiter, TokenStream, TokenTree};
use quote::quote;
use serde_json::Value;
use std::path::PathBuf;
use syn::parse::{Parse, ParseStream};
use syn::{Attribute, Ident, LitBool, LitStr, Token, Visibility};

/// Defines a validator for a tool's input schema, checked and compiled at compile time.
///
/// Two forms, each followed by options:
///
/// ```text
/// tool_schema!(VISIBILITY NAME = { JSON }, OPTIONS...);
/// tool_schema!(VISIBILITY NAME, path = "FILE", OPTIONS...);
/// ```
///
/// - The inline form takes the schema as JSON tokens. Strings are Rust string literals (so
///   escapes are Rust's: `"\u{e9}"`, `"\\d+"`, or raw strings `r"\d+"`); numbers, arrays,
///   objects, `true`, `false` and `null` are written as in JSON. `SCHEMA_JSON` is the
///   compact JSON text of the tokens, members in the order written.
/// - The file form reads `FILE` relative to `CARGO_MANIFEST_DIR`; `SCHEMA_JSON` is the
///   file's text as written. Editing the file rebuilds the crate.
///
/// Options:
/// - `format_assertion = true` asserts `format`; `content_assertion = true` asserts
///   `contentEncoding` / `contentMediaType` / `contentSchema`.
/// - `resources = { "URI" => "FILE", "URI" => { JSON }, ... }` makes documents available to
///   `$ref` under their URIs, read from files (relative to `CARGO_MANIFEST_DIR`) or inline.
/// - `types = Type` also generates `Type`, the typed arguments, from the same IR (with
///   `toolschema`'s `types` feature): serde derives, `Type::parse`, which validates and then
///   deserializes, and `Type::FALLBACKS` (see `docs/types.md`).
///
/// Attributes (such as doc comments) before the visibility go on the struct.
///
/// The item is a unit struct `NAME` implementing `toolschema::Validate`, exactly as the
/// build-script output does, under the tool-call rules (`toolschema::frontend::build_tool`):
/// the root must be an object schema and arguments must be an object. It has
/// `NAME::SCHEMA_JSON: &'static str` and `NAME::schema() -> &'static serde_json::Value`.
///
/// Any schema error the runtime would report is a compile error with the same class,
/// message and JSON Pointer, at the offending JSON value (inline) or at the path (file).
///
/// ```
/// use serde_json::json;
/// use toolschema::Validate;
///
/// toolschema_macros::tool_schema!(
///     /// The arguments of `add`.
///     pub AddArgs = {
///         "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
///         "required": ["a", "b"],
///         "additionalProperties": false
///     }
/// );
/// assert!(AddArgs.is_valid(&json!({"a": 1, "b": -2.5})));
/// assert!(!AddArgs.is_valid(&json!([1, 2])));
/// ```
///
/// ```
/// use serde_json::json;
/// use toolschema::Validate;
///
/// toolschema_macros::tool_schema!(
///     UserArgs = {
///         "properties": {"email": {"$ref": "https://example.test/common.json#/$defs/email"}}
///     },
///     format_assertion = true,
///     resources = {
///         "https://example.test/common.json" => {
///             "$defs": {"email": {"type": "string", "format": "email"}}
///         }
///     }
/// );
/// assert!(UserArgs.is_valid(&json!({"email": "a@example.test"})));
/// assert!(!UserArgs.is_valid(&json!({"email": "not an address"})));
/// ```
///
/// ```
/// use serde_json::json;
///
/// toolschema_macros::tool_schema!(
///     pub MoveSchema = {
///         "type": "object",
///         "properties": {"from": {"type": "string"}, "to": {"type": "string"}, "overwrite": {"type": "boolean"}},
///         "required": ["from", "to"]
///     },
///     types = MoveArgs
/// );
/// let args = MoveArgs::parse(&json!({"from": "a", "to": "b"})).unwrap();
/// assert_eq!((args.from.as_str(), args.overwrite), ("a", None));
/// let err = MoveArgs::parse(&json!({"from": 1})).unwrap_err();
/// assert_eq!(err.failures().len(), 2);
/// ```
#[proc_macro]
pub fn tool_schema(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    let input = syn::parse_macro_input!(input as Input);
    expand(input).into()
}

/// A schema, inline or from a file.
enum Schema {
    Inline(Box<json::Json>),
    File(LitStr),
}

enum Resource {
    Inline(json::Json),
    File(LitStr),
}

struct Input {
    attrs: Vec<Attribute>,
    vis: Visibility,
    name: Ident,
    /// The rest, parsed after the name so that a stub can be emitted when it is malformed.
    body: syn::Result<Body>,
}

struct Body {
    schema: Schema,
    format_assertion: bool,
    content_assertion: bool,
    resources: Vec<(LitStr, Resource)>,
    /// `types = Name`: the typed arguments to generate beside the validator.
    types: Option<Ident>,
}

impl Parse for Input {
    fn parse(input: ParseStream) -> syn::Result<Input> {
        let attrs = input.call(Attribute::parse_outer)?;
        let vis: Visibility = input.parse()?;
        let name: Ident = input.parse()?;
        let body = parse_body(input);
        if body.is_err() {
            // Leave the rest unread: the error is reported with a stub.
            let _ = input.step(|cursor| {
                let mut rest = *cursor;
                while let Some((_, next)) = rest.token_tree() {
                    rest = next;
                }
                Ok(((), rest))
            });
        }
        Ok(Input {
            attrs,
            vis,
            name,
            body,
        })
    }
}

fn braced_json(input: ParseStream, what: &str) -> syn::Result<json::Json> {
    match input.parse::<TokenTree>()? {
        TokenTree::Group(g) if g.delimiter() == Delimiter::Brace => json::from_group(&g),
        other => Err(syn::Error::new(
            other.span(),
            format!("expected {what} as a JSON object in braces"),
        )),
    }
}

fn parse_body(input: ParseStream) -> syn::Result<Body> {
    let schema = if input.peek(Token![=]) {
        input.parse::<Token![=]>()?;
        if !input.peek(syn::token::Brace) {
            return Err(
                input.error("expected the schema as a JSON object in braces: `Name = { ... }`")
            );
        }
        Schema::Inline(Box::new(braced_json(input, "the schema")?))
    } else if input.peek(Token![,]) {
        input.parse::<Token![,]>()?;
        let key: Ident = input
            .parse()
            .map_err(|e| syn::Error::new(e.span(), "expected `path = \"FILE\"` or `= { JSON }`"))?;
        if key != "path" {
            return Err(syn::Error::new(
                key.span(),
                "expected `path = \"FILE\"` or `= { JSON }` after the name",
            ));
        }
        input.parse::<Token![=]>()?;
        Schema::File(input.parse()?)
    } else {
        return Err(input.error("expected `= { JSON }` or `, path = \"FILE\"` after the name"));
    };
    let mut body = Body {
        schema,
        format_assertion: false,
        content_assertion: false,
        resources: Vec::new(),
        types: None,
    };
    let mut seen: Vec<String> = Vec::new();
    while !input.is_empty() {
        input.parse::<Token![,]>()?;
        if input.is_empty() {
            break;
        }
        let key: Ident = input.parse()?;
        let word = key.to_string();
        if seen.contains(&word) {
            return Err(syn::Error::new(
                key.span(),
                format!("`{word}` is given twice"),
            ));
        }
        input.parse::<Token![=]>()?;
        match word.as_str() {
            "format_assertion" => body.format_assertion = input.parse::<LitBool>()?.value,
            "content_assertion" => body.content_assertion = input.parse::<LitBool>()?.value,
            "types" => body.types = Some(input.parse()?),
            "resources" => {
                let content;
                syn::braced!(content in input);
                while !content.is_empty() {
                    let uri: LitStr = content.parse()?;
                    content.parse::<Token![=>]>()?;
                    let resource = if content.peek(syn::token::Brace) {
                        Resource::Inline(braced_json(&content, "the document")?)
                    } else {
                        Resource::File(content.parse()?)
                    };
                    body.resources.push((uri, resource));
                    if content.is_empty() {
                        break;
                    }
                    content.parse::<Token![,]>()?;
                }
            }
            "path" => {
                return Err(syn::Error::new(
                    key.span(),
                    "`path` must come right after the name, instead of `= { JSON }`",
                ));
            }
            _ => {
                return Err(syn::Error::new(
                    key.span(),
                    format!(
                        "unknown option `{word}`: expected `format_assertion`, `content_assertion`, `resources` or `types`"
                    ),
                ));
            }
        }
        seen.push(word);
    }
    Ok(body)
}

/// A file relative to `CARGO_MANIFEST_DIR`, read and parsed; errors at the path's span.
fn read(path: &LitStr) -> syn::Result<(PathBuf, String, Value)> {
    let dir = std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .unwrap_or_default();
    let full = dir.join(path.value());
    let text = std::fs::read_to_string(&full).map_err(|e| {
        syn::Error::new(path.span(), format!("cannot read {:?}: {e}", path.value()))
    })?;
    let value = serde_json::from_str(&text).map_err(|e| {
        syn::Error::new(
            path.span(),
            format!("{:?} is not valid JSON: {e}", path.value()),
        )
    })?;
    Ok((full, text, value))
}

fn expand(input: Input) -> TokenStream {
    let types = input.body.as_ref().ok().and_then(|b| b.types.clone());
    match input
        .body
        .and_then(|body| generate(&input.attrs, &input.vis, &input.name, &body))
    {
        Ok(tokens) => tokens,
        Err(e) => {
            let error = e.to_compile_error();
            let stub = stub(&input.attrs, &input.vis, &input.name);
            let types_stub = types.map(|t| types_stub(&input.vis, &t, &input.name));
            quote! { #error #stub #types_stub }
        }
    }
}

fn generate(
    attrs: &[Attribute],
    vis: &Visibility,
    name: &Ident,
    body: &Body,
) -> syn::Result<TokenStream> {
    let mut tracked: Vec<PathBuf> = Vec::new();
    let mut options = toolschema_core::Options::new()
        .format_assertion(body.format_assertion)
        .content_assertion(body.content_assertion);
    for (uri, resource) in &body.resources {
        let document = match resource {
            Resource::Inline(json) => serde_json::from_str(&json.text)
                .map_err(|e| syn::Error::new(uri.span(), format!("not valid JSON: {e}")))?,
            Resource::File(path) => {
                let (full, _, value) = read(path)?;
                tracked.push(full);
                value
            }
        };
        options = options.registry_document(uri.value(), document);
    }
    let (schema, text) = match &body.schema {
        Schema::Inline(json) => {
            let value = serde_json::from_str(&json.text)
                .map_err(|e| syn::Error::new(json.span(""), format!("not valid JSON: {e}")))?;
            (value, json.text.clone())
        }
        Schema::File(path) => {
            let (full, text, value) = read(path)?;
            tracked.push(full);
            (value, text)
        }
    };
    // Where a schema error points: the value at its pointer, or the path of the file.
    let error_at = |pointer: &str| match &body.schema {
        Schema::Inline(json) => (json.span(pointer), String::new()),
        Schema::File(path) => (path.span(), format!("{}: ", path.value())),
    };
    let decl = quote! { #(#attrs)* #vis };
    let type_vis = quote! { #vis };
    let type_name = body.types.as_ref().map(ToString::to_string);
    let item = toolschema_compiler::ToolItem {
        decl: &decl,
        ty: name,
        schema: &schema,
        schema_json: &text,
        types: type_name.as_deref().map(|t| (&type_vis, t)),
    };
    let generated = toolschema_compiler::tool_item(item, &options).map_err(|e| {
        let pointer = e
            .failures()
            .first()
            .map(|f| f.instance_location().to_string())
            .unwrap_or_default();
        let (span, prefix) = error_at(&pointer);
        syn::Error::new(span, format!("{prefix}{}", describe(&e)))
    })?;
    let tracked = tracked.iter().map(|path| {
        let path = path.to_string_lossy();
        quote! { const _: &str = include_str!(#path); }
    });
    let validator = generated.validator;
    let schema_fn = schema_fn(name);
    // What the type cannot express falls back to `serde_json::Value` and is listed in its
    // `FALLBACKS`, not reported as an error; a generated name that is the validator's is.
    let types = match (generated.types, &body.types) {
        (Some(types), Some(type_name)) => {
            if let Some(clash) = types.names.iter().find(|n| *name == n.as_str()) {
                return Err(syn::Error::new(
                    type_name.span(),
                    format!(
                        "the typed arguments would define `{clash}`, which is the validator's \
                         name: choose another name for the validator or for `types`"
                    ),
                ));
            }
            types.tokens
        }
        _ => TokenStream::new(),
    };
    Ok(quote! {
        #(#tracked)*
        #validator
        #schema_fn
        #types
    })
}

/// What stands in for the typed arguments when the schema is rejected: a type whose
/// `parse` rejects everything, so that uses of it raise no further errors.
fn types_stub(vis: &Visibility, name: &Ident, validator: &Ident) -> TokenStream {
    quote! {
        #[derive(Clone, Copy, Debug)]
        #vis struct #name;

        #[allow(dead_code)]
        impl #name {
            /// Rejects everything: the schema was rejected.
            pub fn parse(
                _: &::toolschema::__private::Value,
            ) -> ::std::result::Result<#name, ::toolschema::Error> {
                ::core::result::Result::Err(::toolschema::Error::invalid_instance(::std::vec::Vec::new()))
            }

            /// None: the schema was rejected.
            pub const FALLBACKS: &'static [(&'static str, &'static str)] = &[];
        }

        impl ::toolschema::Arguments for #name {
            type Validator = #validator;
            const SCHEMA_JSON: &'static str = #validator::SCHEMA_JSON;

            fn parse(
                arguments: &::toolschema::__private::Value,
            ) -> ::std::result::Result<#name, ::toolschema::Error> {
                #name::parse(arguments)
            }

            fn from_valid(
                arguments: &::toolschema::__private::Value,
            ) -> ::std::result::Result<#name, ::toolschema::Error> {
                #name::parse(arguments)
            }
        }
    }
}

fn schema_fn(name: &Ident) -> TokenStream {
    quote! {
        #[allow(dead_code)]
        impl #name {
            /// The schema as a value, parsed from `SCHEMA_JSON` on first use.
            pub fn schema() -> &'static ::toolschema::__private::Value {
                static SCHEMA: ::toolschema::__private::LazyLock<::toolschema::__private::Value> =
                    ::toolschema::__private::LazyLock::new(|| {
                        ::toolschema::__private::value(#name::SCHEMA_JSON)
                    });
                &SCHEMA
            }
        }
    }
}

/// What stands in for the item when the schema is rejected, so that the schema error is the
/// only diagnostic: the struct, its constants, and a `Validate` impl rejecting everything.
fn stub(attrs: &[Attribute], vis: &Visibility, name: &Ident) -> TokenStream {
    let schema_fn = schema_fn(name);
    quote! {
        #(#attrs)*
        #[derive(Clone, Copy, Debug, Default)]
        #vis struct #name;

        #[allow(dead_code)]
        impl #name {
            /// The schema this validator was generated from (none: it was rejected).
            pub const SCHEMA_JSON: &'static str = "false";
        }

        #schema_fn

        impl ::toolschema::Validate for #name {
            fn is_valid(&self, _: &::toolschema::__private::Value) -> bool {
                false
            }

            fn validate(
                &self,
                _: &::toolschema::__private::Value,
            ) -> ::core::result::Result<(), ::toolschema::Error> {
                ::core::result::Result::Err(::toolschema::Error::invalid_instance(::std::vec::Vec::new()))
            }

            fn evaluate(
                &self,
                _: &::toolschema::__private::Value,
            ) -> ::core::result::Result<::toolschema::Evaluation, ::toolschema::Error> {
                ::core::result::Result::Err(::toolschema::Error::invalid_instance(::std::vec::Vec::new()))
            }
        }
    }
}

/// The runtime's account of a schema error: its `Display` when it has one failure; with
/// more, the class and message and the first failure (the rest repeat it through the
/// meta-schema's branches).
fn describe(e: &toolschema_core::Error) -> String {
    match e.failures() {
        [_] | [] => e.to_string(),
        [first, rest @ ..] => format!(
            "{}: {}\n  {first}\n  (and {} more failures at schema locations the meta-schema reaches)",
            e.class(),
            e.message(),
            rest.len()
        ),
    }
}
