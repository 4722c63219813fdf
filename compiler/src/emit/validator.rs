//! The items of one schema's validator: the unit struct, its `Validate` impl, and the module
//! of node functions.

use super::{Cx, Subject, Uses, limit};
use crate::runtime::Runtime;
use crate::share::Sharing;
use proc_macro2::TokenStream;
use quote::quote;
use std::cell::{Cell, RefCell};
use toolschema_core::Limits;
use toolschema_core::ir::Ir;

/// The items one schema's validator is made of, and how they are named.
pub struct Item<'a> {
    /// What precedes `struct`: the visibility, and any attributes.
    pub decl: &'a TokenStream,
    /// The schema's name, in the struct's doc comment.
    pub name: &'a str,
    /// The unit struct.
    pub ty: &'a syn::Ident,
    /// The sibling module of node functions.
    pub module: &'a syn::Ident,
    /// The schema as JSON text, the struct's `SCHEMA_JSON`.
    pub json: &'a str,
}

/// Emits the module holding one schema's node functions, and the `Validate` impl of the
/// item's struct.
pub fn schema(item: Item<'_>, ir: &Ir, limits: &Limits, runtime: &Runtime) -> TokenStream {
    let Item {
        decl,
        name,
        ty,
        module,
        json,
    } = item;
    let rt = runtime.path();
    let sharing = Sharing::new(ir);
    let cx = Cx {
        ir,
        limits,
        called: RefCell::new(vec![sharing.representative(ir.root)]),
        called_names: RefCell::new(Vec::new()),
        collecting: RefCell::new(Vec::new()),
        current: Cell::new(ir.root),
        uses: Cell::new(Uses::default()),
        sharing,
    };
    // Only the nodes some call reaches get a function: a `true`/`false` member is inlined
    // at its use, and subschemas nothing references need no code.
    let mut emitted = vec![false; ir.nodes.len()];
    let mut emitted_names = vec![false; ir.nodes.len()];
    let mut functions = Vec::new();
    loop {
        let next = cx.called.borrow_mut().pop();
        if let Some(id) = next {
            if !std::mem::replace(&mut emitted[id.index()], true) {
                functions.push(((id, false), cx.node_fn(id, Subject::Value)));
            }
            continue;
        }
        let next = cx.called_names.borrow_mut().pop();
        let Some(id) = next else { break };
        if !std::mem::replace(&mut emitted_names[id.index()], true) {
            functions.push(((id, true), cx.node_fn(id, Subject::Name)));
        }
    }
    functions.sort_by_key(|(key, _)| *key);
    let mut collecting = cx.collecting.take();
    collecting.sort();
    collecting.dedup();
    let collecting = collecting.into_iter().map(|id| cx.collecting_fn(id));
    let functions = functions.into_iter().map(|(_, f)| f).chain(collecting);
    let root = cx.call_root(ir.root, true, quote! { &mut failures });
    let admitted_root = cx.call_root(ir.root, true, quote! { failures });
    let quick_root = cx.call_root(ir.root, false, quote! { failures });
    let max_depth = limit(limits.get_max_argument_depth());
    let max_steps = limit(limits.get_max_evaluation_steps());
    let max_nodes = limit(limits.get_max_argument_nodes());
    let max_string = limit(limits.get_max_argument_string_length());
    let root_uri = &ir.node(ir.root).uri;
    let check_arguments = quote! {
        rt::check_arguments(instance, #max_depth, #max_nodes, #max_string)
            .map_err(rt::Error::instance_execution_failure)?;
    };
    // An instance of a type the root rules out fails `is_valid` before anything is set up
    // (`Ir::root_types`).
    let quick_types = match ir.root_types() {
        Some(types) => {
            let test = super::assertions::type_test(types).tokens;
            quote! {
                use rt::Value;
                let v = instance;
                #test &&
            }
        }
        None => quote! {},
    };
    let (object_check, evaluate_object) = if ir.object_root {
        (
            quote! {
                if !instance.is_object() {
                    return ::core::result::Result::Err(rt::Error::invalid_instance(
                        ::std::vec![rt::not_an_object(#root_uri, instance)],
                    ));
                }
            },
            quote! {
                if !instance.is_object() {
                    return ::core::result::Result::Ok(rt::evaluation_not_object(#root_uri, instance));
                }
            },
        )
    } else {
        (quote! {}, quote! {})
    };
    // Evaluation admits the arguments to their limits as it goes (see `eval::admission`), and
    // arguments within them are never walked. A failing quick check needs no walk: its
    // verdict is the same either way. The arguments' limits come before the failure of a root
    // that is not an object.
    let walk_not_object = if ir.object_root {
        quote! {
            if !instance.is_object() {
                #check_arguments
            }
        }
    } else {
        quote! {}
    };
    let is_valid = quote! {
        #quick_types rt::is_valid_admitting(
            instance, #max_steps, #max_depth, #max_nodes, #max_string,
            |failures| #module::#quick_root,
        )
    };
    // Where the IR says so, only a call that fails the quick check is collected.
    let quick_first = if ir.validate_checks_first() {
        quote! {
            if <Self as #rt::Validate>::is_valid(self, instance) {
                return ::core::result::Result::Ok(());
            }
        }
    } else {
        quote! {}
    };
    let validate = quote! {
        #quick_first
        #walk_not_object
        #object_check
        rt::validate_admitting(
            instance, #max_steps, #max_depth, #max_nodes, #max_string,
            |failures| #module::#admitted_root,
        )
    };
    let doc = format!(" Validates arguments against the `{name}` schema (`{root_uri}`).");
    quote! {
        #[doc = #doc]
        #[derive(Clone, Copy, Debug, Default)]
        #decl struct #ty;

        #[allow(dead_code)]
        impl #ty {
            /// The schema this validator was generated from.
            pub const SCHEMA_JSON: &'static str = #json;
        }

        impl #rt::Validate for #ty {
            fn is_valid(&self, instance: &#rt::__private::Value) -> bool {
                use #rt::__private as rt;
                #is_valid
            }

            fn validate(
                &self,
                instance: &#rt::__private::Value,
            ) -> ::core::result::Result<(), #rt::Error> {
                use #rt::__private as rt;
                #validate
            }

            #[inline]
            fn evaluate(
                &self,
                instance: &#rt::__private::Value,
            ) -> ::core::result::Result<#rt::Evaluation, #rt::Error> {
                use #rt::__private as rt;
                #check_arguments
                #evaluate_object
                let mut trace = rt::Trace::default();
                let mut failures = rt::Sink::for_output(&mut trace, #max_steps);
                let outcome = #module::#root;
                rt::evaluation(outcome, trace)
            }
        }

        #[allow(
            clippy::too_many_arguments,
            clippy::collapsible_if,
            clippy::collapsible_match,
            clippy::single_match,
            clippy::only_used_in_recursion,
            clippy::manual_is_ascii_check,
            clippy::nonminimal_bool
        )]
        mod #module {
            use #rt::__private as rt;
            use rt::Value;

            #(#functions)*
        }
    }
}
