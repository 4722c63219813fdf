//! [`Types`] as Rust items: serde derives through the runtime's `__types` (`::toolschema::__types`
//! unless the runtime is re-exported elsewhere), and `parse` on the root.

use super::model::{Def, Kind, Struct, Ty, Types, Union};
use super::names::{field_ident, type_ident};
use crate::runtime::Runtime;
use proc_macro2::TokenStream;
use quote::quote;

/// Lints generated items may trip without anything being wrong: unused private types,
/// variant names taken from the schema, doc text taken from the schema.
fn allowances() -> TokenStream {
    quote! {
        #[allow(
            dead_code,
            clippy::large_enum_variant,
            clippy::enum_variant_names,
            clippy::upper_case_acronyms,
            clippy::doc_lazy_continuation,
            clippy::doc_overindented_list_items,
            clippy::too_long_first_doc_paragraph,
            rustdoc::all
        )]
    }
}

fn derives(runtime: &Runtime) -> TokenStream {
    let types = runtime.types();
    let serde = runtime.serde_crate();
    quote! {
        #[derive(
            Clone,
            Debug,
            PartialEq,
            #types::Deserialize,
            #types::Serialize
        )]
        #[serde(crate = #serde)]
    }
}

/// The items of `types`: the root with `attrs` and visibility `vis`, the others with `vis`;
/// the root's `parse` validates with `validator`.
pub fn render(
    types: &Types,
    attrs: &TokenStream,
    vis: &TokenStream,
    validator: &syn::Ident,
    runtime: &Runtime,
) -> TokenStream {
    let w = Writer::new(types, runtime);
    let rt = runtime.path();
    let rt_types = runtime.types();
    let mut items = Vec::new();
    for (i, def) in types.defs.iter().enumerate() {
        if w.is_seen_through(i) {
            continue;
        }
        let root_attrs = if i == types.root {
            attrs.clone()
        } else {
            quote! {}
        };
        items.push(w.item(i, def, &root_attrs, vis));
    }
    let root = type_ident(&types.defs[types.root].name);
    let fallbacks = types.fallbacks.iter().map(|f| {
        let (location, reason) = (&f.location, f.reason);
        quote! { (#location, #reason) }
    });
    let parse_doc = format!(
        " Validates `arguments` with [`{validator}`], then deserializes them: the \
         validator's error, with every failure, when they fail; the typed arguments \
         otherwise."
    );
    quote! {
        #(#items)*

        #[allow(dead_code)]
        impl #root {
            #[doc = #parse_doc]
            pub fn parse(
                arguments: &#rt_types::serde_json::Value,
            ) -> ::std::result::Result<#root, #rt::Error> {
                #rt_types::parse(&#validator, arguments)
            }

            /// Where the type says less than the schema: each subschema typed as
            /// `serde_json::Value` although it says more, and why. The validator guards them.
            pub const FALLBACKS: &'static [(&'static str, &'static str)] = &[#(#fallbacks),*];
        }

        impl #rt::Arguments for #root {
            type Validator = #validator;
            const SCHEMA_JSON: &'static str = #validator::SCHEMA_JSON;

            fn parse(
                arguments: &#rt_types::serde_json::Value,
            ) -> ::std::result::Result<#root, #rt::Error> {
                #root::parse(arguments)
            }

            fn from_valid(
                arguments: &#rt_types::serde_json::Value,
            ) -> ::std::result::Result<#root, #rt::Error> {
                #rt_types::from_valid(arguments)
            }
        }
    }
}

struct Writer<'t> {
    types: &'t Types,
    runtime: &'t Runtime,
    /// Items each item holds directly (not behind a `Vec` or map), aliases seen through.
    direct: Vec<Vec<usize>>,
    /// Items each item holds at all.
    all: Vec<Vec<usize>>,
}

impl<'t> Writer<'t> {
    fn new(types: &'t Types, runtime: &'t Runtime) -> Writer<'t> {
        let mut w = Writer {
            types,
            runtime,
            direct: Vec::new(),
            all: Vec::new(),
        };
        for def in &types.defs {
            let mut direct = Vec::new();
            let mut all = Vec::new();
            for ty in contents(&def.kind) {
                w.collect(ty, true, &mut direct, &mut all);
            }
            w.direct.push(direct);
            w.all.push(all);
        }
        w
    }

    fn collect(&self, ty: &Ty, direct: bool, d: &mut Vec<usize>, a: &mut Vec<usize>) {
        match ty {
            Ty::Named(i) => {
                let i = self.resolve(*i);
                if direct {
                    d.push(i);
                }
                a.push(i);
            }
            Ty::Option(t) => self.collect(t, direct, d, a),
            Ty::Tuple(ts) => ts.iter().for_each(|t| self.collect(t, direct, d, a)),
            Ty::Vec(t) | Ty::Map(t) => self.collect(t, false, d, a),
            _ => {}
        }
    }

    /// An alias of another item is that item.
    fn resolve(&self, mut i: usize) -> usize {
        for _ in 0..self.types.defs.len() {
            match &self.types.defs[i].kind {
                Kind::Alias(Ty::Named(j)) if *j != i => i = *j,
                _ => break,
            }
        }
        i
    }

    fn is_seen_through(&self, i: usize) -> bool {
        self.resolve(i) != i || matches!(self.types.defs[i].kind, Kind::Pending)
    }

    /// Whether a path of one edge or more leads from `from` to `to`.
    fn reaches(&self, graph: &[Vec<usize>], from: usize, to: usize) -> bool {
        let mut seen = vec![false; graph.len()];
        let mut stack = graph[from].clone();
        while let Some(at) = stack.pop() {
            if at == to {
                return true;
            }
            if !std::mem::replace(&mut seen[at], true) {
                stack.extend(&graph[at]);
            }
        }
        false
    }

    /// `ty` as it appears inside item `owner`: an item that holds `owner` again, directly,
    /// is boxed.
    fn ty(&self, ty: &Ty, owner: usize, direct: bool) -> TokenStream {
        let rt_types = self.runtime.types();
        match ty {
            Ty::Any | Ty::Fallback(_) => quote! { #rt_types::serde_json::Value },
            Ty::Unit => quote! { () },
            Ty::Bool => quote! { bool },
            Ty::String => quote! { ::std::string::String },
            Ty::F64 => quote! { f64 },
            Ty::Number => quote! { #rt_types::serde_json::Number },
            Ty::Int(name) => {
                let ident = quote::format_ident!("{name}");
                quote! { #ident }
            }
            Ty::Option(t) => {
                let t = self.ty(t, owner, direct);
                quote! { ::std::option::Option<#t> }
            }
            Ty::Vec(t) => {
                let t = self.ty(t, owner, false);
                quote! { ::std::vec::Vec<#t> }
            }
            Ty::Map(t) => {
                let t = self.ty(t, owner, false);
                quote! { ::std::collections::BTreeMap<::std::string::String, #t> }
            }
            Ty::Tuple(ts) => {
                let ts = ts.iter().map(|t| self.ty(t, owner, direct));
                quote! { (#(#ts,)*) }
            }
            Ty::Named(i) => {
                let i = self.resolve(*i);
                let name = type_ident(&self.types.defs[i].name);
                if direct && (i == owner || self.reaches(&self.direct, i, owner)) {
                    quote! { ::std::boxed::Box<#name> }
                } else {
                    quote! { #name }
                }
            }
        }
    }

    fn item(&self, i: usize, def: &Def, attrs: &TokenStream, vis: &TokenStream) -> TokenStream {
        let name = type_ident(&def.name);
        let doc = def.doc.iter().map(|line| {
            let line = format!(" {line}");
            quote! { #[doc = #line] }
        });
        let head = quote! { #(#doc)* #attrs };
        let allow = allowances();
        let derives = derives(self.runtime);
        let rt_types = self.runtime.types();
        let serde = self.runtime.serde_crate();
        match &def.kind {
            Kind::Pending => quote! {},
            Kind::Alias(ty) => {
                let t = self.ty(ty, i, true);
                if i == self.types.root || self.reaches(&self.all, i, i) {
                    quote! {
                        #head
                        #allow
                        #derives
                        #[serde(transparent)]
                        #vis struct #name(pub #t);
                    }
                } else {
                    quote! { #head #allow #vis type #name = #t; }
                }
            }
            Kind::Struct(s) => self.structure(i, s, head, vis, &name),
            Kind::Strings(variants) => {
                let variants = variants.iter().map(|(v, json)| {
                    let v = type_ident(v);
                    quote! { #[serde(rename = #json)] #v }
                });
                quote! {
                    #head
                    #allow
                    #[derive(
                        Clone,
                        Copy,
                        Debug,
                        PartialEq,
                        Eq,
                        Hash,
                        #rt_types::Deserialize,
                        #rt_types::Serialize
                    )]
                    #[serde(crate = #serde)]
                    #vis enum #name { #(#variants),* }
                }
            }
            Kind::Union(u) => self.union(i, u, head, vis, &name),
            Kind::Const(json) => quote! {
                #head
                #allow
                #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
                #vis struct #name;

                #allow
                impl #name {
                    /// The one value this type stands for, as JSON.
                    pub const JSON: &'static str = #json;
                }

                impl #rt_types::Serialize for #name {
                    fn serialize<S: #rt_types::serde::Serializer>(
                        &self,
                        serializer: S,
                    ) -> ::std::result::Result<S::Ok, S::Error> {
                        #rt_types::serialize_const(serializer, #name::JSON)
                    }
                }

                impl<'de> #rt_types::Deserialize<'de> for #name {
                    fn deserialize<D: #rt_types::serde::Deserializer<'de>>(
                        deserializer: D,
                    ) -> ::std::result::Result<#name, D::Error> {
                        #rt_types::deserialize_const(deserializer, #name::JSON)
                            .map(|()| #name)
                    }
                }
            },
        }
    }

    fn structure(
        &self,
        i: usize,
        s: &Struct,
        head: TokenStream,
        vis: &TokenStream,
        name: &syn::Ident,
    ) -> TokenStream {
        let present = self.runtime.present();
        let fields = s.fields.iter().map(|f| {
            let doc = f.doc.iter().map(|line| {
                let line = format!(" {line}");
                quote! { #[doc = #line] }
            });
            let deprecated = f.deprecated.then(|| quote! { #[deprecated] });
            let rename = (f.ident != f.json).then(|| {
                let json = &f.json;
                quote! { #[serde(rename = #json)] }
            });
            let ident = field_ident(&f.ident);
            let t = self.ty(&f.ty, i, true);
            if f.required {
                quote! { #(#doc)* #deprecated #rename pub #ident: #t }
            } else {
                quote! {
                    #(#doc)* #deprecated #rename
                    #[serde(
                        default,
                        skip_serializing_if = "::std::option::Option::is_none",
                        deserialize_with = #present
                    )]
                    pub #ident: ::std::option::Option<#t>
                }
            }
        });
        let union = s.union.as_ref().map(|(f, ty)| {
            let ident = field_ident(f);
            let t = self.ty(ty, i, true);
            quote! {
                /// The members of the one-of / any-of alternative the arguments take.
                #[serde(flatten)]
                pub #ident: #t,
            }
        });
        let rest = s.rest.as_ref().map(|(f, ty)| {
            let ident = field_ident(f);
            let t = self.ty(ty, i, false);
            quote! {
                /// The members the schema does not declare.
                #[serde(flatten)]
                pub #ident: ::std::collections::BTreeMap<::std::string::String, #t>,
            }
        });
        let deny = (s.closed && s.union.is_none() && s.rest.is_none())
            .then(|| quote! { #[serde(deny_unknown_fields)] });
        let allow = allowances();
        let derives = derives(self.runtime);
        quote! {
            #head
            #allow
            #derives
            #deny
            #vis struct #name {
                #(#fields,)*
                #union
                #rest
            }
        }
    }

    fn union(
        &self,
        i: usize,
        u: &Union,
        head: TokenStream,
        vis: &TokenStream,
        name: &syn::Ident,
    ) -> TokenStream {
        let mode = match &u.tag {
            Some(tag) => quote! { #[serde(tag = #tag)] },
            None => quote! { #[serde(untagged)] },
        };
        let variants = u.variants.iter().map(|(v, value, ty)| {
            let v = type_ident(v);
            let rename = value
                .as_ref()
                .map(|value| quote! { #[serde(rename = #value)] });
            let t = self.ty(ty, i, true);
            quote! { #rename #v(#t) }
        });
        let allow = allowances();
        let derives = derives(self.runtime);
        quote! {
            #head
            #allow
            #derives
            #mode
            #vis enum #name { #(#variants),* }
        }
    }
}

/// The types an item holds.
fn contents(kind: &Kind) -> Vec<&Ty> {
    match kind {
        Kind::Alias(ty) => vec![ty],
        Kind::Struct(s) => s
            .fields
            .iter()
            .map(|f| &f.ty)
            .chain(s.union.as_ref().map(|u| &u.1))
            .chain(s.rest.as_ref().map(|r| &r.1))
            .collect(),
        Kind::Union(u) => u.variants.iter().map(|v| &v.2).collect(),
        Kind::Pending | Kind::Strings(_) | Kind::Const(_) => Vec::new(),
    }
}
