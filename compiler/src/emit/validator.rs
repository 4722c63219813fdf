//! The items of one schema's validator: the unit struct, its `Validate` impl, and the module
//! of node functions.

use super::{Cx, Subject, Uses, admission_chain, limit};
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
        current: Cell::new(ir.root),
        uses: Cell::new(Uses::default()),
        admission: admission_chain(ir),
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
    let functions = functions.into_iter().map(|(_, f)| f);
    let root = cx.call_root(ir.root, true);
    let quick_root = cx.call_root(ir.root, false);
    let max_depth = limit(limits.get_max_argument_depth());
    let max_steps = limit(limits.get_max_evaluation_steps());
    let max_nodes = limit(limits.get_max_argument_nodes());
    let max_string = limit(limits.get_max_argument_string_length());
    let root_uri = &ir.node(ir.root).uri;
    let (quick_object, object_check, evaluate_object) = if ir.object_root {
        (
            quote! { instance.is_object() && },
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
        (quote! {}, quote! {}, quote! {})
    };
    let within_limits =
        quote! { rt::arguments_hold(instance, #max_depth, #max_nodes, #max_string) };
    let holds = quote! { #quick_object #module::#quick_root.unwrap_or(false) };
    // Either order gives the same verdict (see `Ir::compares_arguments`); evaluating first
    // skips the walk over the arguments whenever the call fails, and a root key pass that
    // admits each member to the limits makes the walk over the root's members its own.
    let is_valid = if !cx.admission.is_empty() {
        quote! {
            #quick_object rt::is_valid_admitting(
                instance, #max_steps, #max_depth, #max_nodes, #max_string,
                |failures| #module::#quick_root,
            )
        }
    } else if ir.compares_arguments {
        quote! {
            let failures = &mut rt::Sink::new(#max_steps);
            #within_limits && #holds
        }
    } else {
        quote! {
            let failures = &mut rt::Sink::new(#max_steps);
            #holds && #within_limits
        }
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
                rt::check_arguments(instance, #max_depth, #max_nodes, #max_string)
                    .map_err(rt::Error::instance_execution_failure)?;
                #object_check
                let mut failures = rt::Sink::new(#max_steps);
                let outcome = #module::#root;
                rt::finish(outcome.map(|_| failures.into_failures()))
            }

            #[inline]
            fn evaluate(
                &self,
                instance: &#rt::__private::Value,
            ) -> ::core::result::Result<#rt::Evaluation, #rt::Error> {
                use #rt::__private as rt;
                rt::check_arguments(instance, #max_depth, #max_nodes, #max_string)
                    .map_err(rt::Error::instance_execution_failure)?;
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
