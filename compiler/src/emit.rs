//! Stage two: Rust tokens from an [`Ir`].
//!
//! Every node becomes one function, generic over `const C: bool`: `C = false` is the quick
//! check (`is_valid`, first failure wins, no locations), `C = true` collects every failure.
//! The flavour travels as a zero-sized `rt::Mode<C>` argument, so calls infer it.
//! The two flavours share one body, so they cannot drift apart, and the compiler removes the
//! branch that does not apply to each. The body follows the interpreter keyword by keyword:
//! the same order, the same quick-mode applicators, the same annotation marks, so the
//! failures come out identical.
//!
//! Parameters appear only when the schema needs them: the dynamic scope only when
//! [`Ir::dynamic_scope`], the evaluated-members `out` only on nodes the IR marks as tracking.

use crate::runtime::Runtime;
use crate::share::Sharing;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use serde_json::Value;
use std::cell::{Cell, RefCell};
use toolschema_core::Limits;
use toolschema_core::ir::*;
use toolschema_core::json::{JsonType, TypeSet};
use toolschema_core::messages;
use toolschema_core::number::Bound;
use toolschema_core::regex::Shape;

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
        admission: admission_chain(ir),
        naming: Cell::new(false),
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
                functions.push(((id, false), cx.node_fn(id, false)));
            }
            continue;
        }
        let next = cx.called_names.borrow_mut().pop();
        let Some(id) = next else { break };
        if !std::mem::replace(&mut emitted_names[id.index()], true) {
            functions.push(((id, true), cx.node_fn(id, true)));
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
            unused_variables,
            unused_mut,
            clippy::too_many_arguments,
            clippy::needless_return,
            clippy::nonminimal_bool,
            clippy::collapsible_if,
            clippy::collapsible_else_if,
            clippy::match_single_binding,
            clippy::redundant_locals,
            clippy::unnecessary_lazy_evaluations,
            clippy::single_match,
            clippy::collapsible_match,
            clippy::ptr_arg,
            clippy::manual_is_ascii_check,
            clippy::only_used_in_recursion
        )]
        mod #module {
            use #rt::__private as rt;
            use rt::Value;

            #(#functions)*
        }
    }
}

struct Cx<'a> {
    ir: &'a Ir,
    limits: &'a Limits,
    /// Nodes some emitted code calls, still to be emitted (class representatives).
    called: RefCell<Vec<NodeId>>,
    /// Nodes some emitted code applies to a member name (`propertyNames`), still to be
    /// emitted in that flavour (class representatives).
    called_names: RefCell<Vec<NodeId>>,
    /// The representative whose function is being emitted.
    current: Cell<NodeId>,
    /// The functions that take part in admitting the root's members to the argument limits
    /// in a first-failure check (see [`admission_chain`]); empty when none does.
    admission: Vec<(NodeId, Admission)>,
    /// Whether that function is the member-name flavour: the instance is `key: &str`, always
    /// a string, checked in quick mode, so no `Value` is made for it.
    naming: Cell<bool>,
    sharing: Sharing,
}

/// A URI in generated code: known when the function serves one node, looked up by the
/// member `at` when it serves a class.
enum Uri {
    Static(String),
    /// The URIs of a class's members, and the expression that picks the one at `at`.
    Table(Vec<String>, TokenStream),
}

impl Uri {
    /// The URI, as a `&str` expression.
    fn expr(&self) -> TokenStream {
        match self {
            Uri::Static(s) => quote! { #s },
            Uri::Table(_, t) => t.clone(),
        }
    }

    /// The URI followed by `suffix` (a JSON Pointer tail), as a `&'static str` expression:
    /// for a class, a table of the joined URIs of its members.
    fn join(&self, suffix: &str) -> TokenStream {
        match self {
            Uri::Static(s) => {
                let joined = format!("{s}{suffix}");
                quote! { #joined }
            }
            Uri::Table(uris, _) => {
                let n = int(uris.len() as u64);
                let joined = uris.iter().map(|u| format!("{u}{suffix}"));
                quote! { { static ABSOLUTE: [&str; #n] = [#(#joined),*]; ABSOLUTE[at] } }
            }
        }
    }
}

/// How a function takes part in admitting the root's members to the argument limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Admission {
    /// Its key pass admits them.
    Own,
    /// It hands the admitting on to its `$ref`.
    Ref,
    /// It hands the admitting on to this member of its `allOf`.
    AllOf(usize),
}

/// The chain of functions from the root to the one whose key pass admits the root's members
/// to the argument limits, in a first-failure check (`rt::is_valid_admitting`), instead of a
/// walk of their own: the root itself when it has a key pass, else the first `$ref` or `allOf`
/// member (applied to the same value, unconditionally) that has one, or hands on to one.
/// Empty when there is none, or when arguments are walked before evaluation
/// (`Ir::compares_arguments`).
///
/// At run time the chain passes on the root value's address (`Sink::hand`), and each function
/// of the chain admits, or hands on, only when its own call is the one handed to
/// (`Sink::take_hand`), so a function of the chain called anywhere else admits nothing.
fn admission_chain(ir: &Ir) -> Vec<(NodeId, Admission)> {
    fn find(ir: &Ir, id: NodeId, chain: &mut Vec<(NodeId, Admission)>) -> bool {
        // In-place applicators form no cycle, but the chain is kept short all the same.
        if chain.len() >= 16 || chain.iter().any(|(n, _)| *n == id) {
            return false;
        }
        let Body_::Keywords(k) = &ir.node(id).body else {
            return false;
        };
        if k.object.as_ref().is_some_and(|p| p.needs_key_pass()) {
            chain.push((id, Admission::Own));
            return true;
        }
        let next = k.reference.map(|t| (t, Admission::Ref)).into_iter().chain(
            k.all_of
                .iter()
                .enumerate()
                .map(|(i, &m)| (m, Admission::AllOf(i))),
        );
        for (child, how) in next {
            chain.push((id, how));
            if find(ir, child, chain) {
                return true;
            }
            chain.pop();
        }
        false
    }
    let mut chain = Vec::new();
    if !ir.compares_arguments && !find(ir, ir.root, &mut chain) {
        chain.clear();
    }
    chain
}

/// An integer literal without a type suffix: the context gives its type.
fn int(x: impl Into<u128>) -> proc_macro2::Literal {
    proc_macro2::Literal::u128_unsuffixed(x.into())
}

/// A limit: `usize::MAX` (no limit) by name, so that the code compiles for targets whose
/// `usize` is narrower than the generating machine's.
fn limit(x: usize) -> TokenStream {
    if x == usize::MAX {
        quote! { ::core::primitive::usize::MAX }
    } else {
        let x = int(x as u64);
        quote! { #x }
    }
}

/// `n{id}_{where}`: the id keeps names unique, the JSON Pointer tail says which subschema.
fn fn_name(ir: &Ir, id: NodeId) -> syn::Ident {
    let uri = &ir.node(id).uri;
    let fragment = uri.rsplit_once('#').map(|(_, f)| f).unwrap_or("");
    let mut tail = String::new();
    for c in fragment.chars() {
        if c.is_ascii_alphanumeric() {
            tail.push(c.to_ascii_lowercase());
        } else if !tail.ends_with('_') {
            tail.push('_');
        }
    }
    let tail = tail.trim_matches('_');
    let tail = &tail[tail.len().saturating_sub(32)..];
    let tail = tail.trim_start_matches('_');
    if tail.is_empty() {
        format_ident!("n{}", id.0)
    } else {
        format_ident!("n{}_{}", id.0, tail)
    }
}

/// The member-name flavour of node `id`'s function.
fn name_fn_name(ir: &Ir, id: NodeId) -> syn::Ident {
    format_ident!("{}_on_name", fn_name(ir, id))
}

/// Whether a node takes the `out` parameter (its evaluated members are read by someone).
fn takes_out(node: &Node) -> bool {
    node.tracks_properties || node.tracks_items
}

/// The generated body's running state: what it declared, so nothing unused is emitted.
struct Body {
    assigns_valid: bool,
}

impl<'a> Cx<'a> {
    fn scope_param(&self) -> TokenStream {
        if self.ir.dynamic_scope {
            quote! { scope: &rt::Scope<'_>, }
        } else {
            quote! {}
        }
    }

    fn scope_arg(&self) -> TokenStream {
        if self.ir.dynamic_scope {
            quote! { scope, }
        } else {
            quote! {}
        }
    }

    fn call_root(&self, id: NodeId, collect: bool) -> TokenStream {
        let name = fn_name(self.ir, self.sharing.representative(id));
        let at = if self.sharing.members(id).len() > 1 {
            let i = int(self.sharing.index(id) as u64);
            quote! { #i, }
        } else {
            quote! {}
        };
        let node = self.ir.node(id);
        let scope = if self.ir.dynamic_scope {
            let r = int(node.resource.0);
            quote! { &rt::Scope::root(#r), }
        } else {
            quote! {}
        };
        let out = if takes_out(node) {
            quote! { , None }
        } else {
            quote! {}
        };
        if collect {
            quote! { #name(rt::COLLECT, #at instance, &rt::Path::ROOT, &rt::Path::ROOT, #scope 0, &mut failures #out) }
        } else {
            quote! { #name(rt::QUICK, #at instance, &rt::Path::ROOT, &rt::Path::ROOT, #scope 0, failures #out) }
        }
    }

    /// A call of node `id`; `mode` is this function's `mode` (the same flavour) or
    /// `rt::QUICK`, `marks` the `out` argument when the
    /// caller may be tracking.
    fn call(
        &self,
        id: NodeId,
        mode: &TokenStream,
        v: TokenStream,
        ip: TokenStream,
        kp: TokenStream,
        marks: Option<TokenStream>,
    ) -> TokenStream {
        let class = self.sharing.members(id);
        let representative = class[0];
        let naming = self.naming.get();
        let name = if naming {
            self.called_names.borrow_mut().push(representative);
            name_fn_name(self.ir, representative)
        } else {
            self.called.borrow_mut().push(representative);
            fn_name(self.ir, representative)
        };
        // Which member of the callee's class each member of this function's class calls.
        let at = if class.len() > 1 {
            let indices: Vec<usize> = self
                .current_members()
                .iter()
                .map(|&m| self.sharing.index(self.counterpart(m, id)))
                .collect();
            if indices.iter().all(|&i| i == indices[0]) {
                let i = int(indices[0] as u64);
                quote! { #i, }
            } else {
                // A `static` table exists once; an array literal would be built on the stack
                // at every call.
                let n = int(indices.len() as u64);
                let indices = indices.iter().map(|&i| int(i as u64));
                quote! { { static AT: [usize; #n] = [#(#indices),*]; AT[at] }, }
            }
        } else {
            quote! {}
        };
        let scope = self.scope_arg();
        if naming {
            // The name flavour is quick and tracks nothing; the instance is always `key`.
            return quote! { #name(rt::QUICK, #at key, #ip, #kp, #scope depth, failures)? };
        }
        let out = if takes_out(self.ir.node(id)) {
            let m = marks.unwrap_or_else(|| quote! { None });
            quote! { , #m }
        } else {
            quote! {}
        };
        quote! { #name(#mode, #at #v, #ip, #kp, #scope depth, failures #out)? }
    }

    /// A call of node `id` as a subschema whose failure does not fail this one (an `anyOf`
    /// branch, the subschema of `not`, `if`, `contains`): the quick check, except when
    /// recording for the output formats, where every unit counts. An `if` expression, bound to
    /// a variable before it is tested.
    fn branch_call(
        &self,
        id: NodeId,
        v: TokenStream,
        ip: TokenStream,
        kp: TokenStream,
        marks: Option<TokenStream>,
    ) -> TokenStream {
        let quick = self.call(
            id,
            &quote! { rt::QUICK },
            v.clone(),
            ip.clone(),
            kp.clone(),
            marks.clone(),
        );
        // A member name is only ever checked in the quick flavour.
        if self.naming.get() {
            return quick;
        }
        let collect = self.call(id, &quote! { rt::COLLECT }, v, ip, kp, marks);
        let recording = recording();
        quote! { if #recording { #collect } else { #quick } }
    }

    /// What the function being emitted does to admit the root's members, if it takes part.
    fn admission(&self) -> Option<Admission> {
        let members = self.current_members();
        self.admission
            .iter()
            .find(|(id, _)| members.contains(id))
            .map(|&(_, a)| a)
    }

    /// The members of the class whose function is being emitted.
    fn current_members(&self) -> &[NodeId] {
        self.sharing.members(self.current.get())
    }

    /// The node `member` references where the representative references `id`; `member`
    /// itself for the representative.
    fn counterpart(&self, member: NodeId, id: NodeId) -> NodeId {
        if member == self.current.get() {
            id
        } else {
            self.sharing.counterpart(member, id)
        }
    }

    /// The URI of the node being emitted.
    fn own_uri(&self) -> Uri {
        let members = self.current_members();
        if members.len() > 1 {
            let uris = members.iter().map(|&m| self.ir.node(m).uri.clone());
            Uri::Table(uris.collect(), quote! { URIS[at] })
        } else {
            Uri::Static(self.ir.node(self.current.get()).uri.clone())
        }
    }

    /// The annotations of the node being emitted (see [`KeywordAnnotation`]), as a
    /// `&'static [rt::Annotates]` expression: for a class whose members' differ, picked by
    /// the member `at`.
    fn annotations(&self) -> TokenStream {
        let members = self.current_members();
        let list = |m: NodeId| {
            let entries = self.ir.node(m).annotations.iter().map(|a| {
                let keyword = &a.keyword;
                let json = a.value.to_string();
                let strings_only = a.strings_only;
                quote! { (#keyword, #json, #strings_only) }
            });
            quote! { &[#(#entries),*] }
        };
        let first = &self.ir.node(members[0]).annotations;
        if members
            .iter()
            .all(|&m| self.ir.node(m).annotations == *first)
        {
            return list(members[0]);
        }
        let lists = members.iter().map(|&m| list(m));
        let n = int(members.len() as u64);
        quote! { { static ANNOTATIONS: [&[rt::Annotates]; #n] = [#(#lists),*]; ANNOTATIONS[at] } }
    }

    /// The URI of `id`, a subschema the node being emitted references.
    fn uri_of(&self, id: NodeId) -> Uri {
        let uris: Vec<&str> = self
            .current_members()
            .iter()
            .map(|&m| self.ir.node(self.counterpart(m, id)).uri.as_str())
            .collect();
        if uris.iter().all(|u| *u == uris[0]) {
            Uri::Static(uris[0].to_owned())
        } else {
            let n = int(uris.len() as u64);
            Uri::Table(
                uris.iter().map(|u| u.to_string()).collect(),
                quote! { { static CHILD_URIS: [&str; #n] = [#(#uris),*]; CHILD_URIS[at] } },
            )
        }
    }

    /// The function of node `id`'s class; with `naming`, its member-name flavour.
    fn node_fn(&self, id: NodeId, naming: bool) -> TokenStream {
        self.current.set(id);
        self.naming.set(naming);
        let node = self.ir.node(id);
        let members = self.sharing.members(id);
        let shared = members.len() > 1;
        let scope = self.scope_param();
        let (name, instance, out) = if naming {
            (name_fn_name(self.ir, id), quote! { key: &str }, quote! {})
        } else if takes_out(node) {
            (
                fn_name(self.ir, id),
                quote! { v: &Value },
                quote! { , out: Option<&mut rt::Marks> },
            )
        } else {
            (fn_name(self.ir, id), quote! { v: &Value }, quote! {})
        };
        let mut doc: Vec<String> = members
            .iter()
            .map(|&m| format!(" `{}`", self.ir.node(m).uri))
            .collect();
        if naming {
            doc.push(String::new());
            doc.push(" Applied to a member name, as `propertyNames` does.".to_owned());
        }
        let uri = self.own_uri().expr();
        let body = match &node.body {
            Body_::Bool(true) => quote! { Ok(true) },
            Body_::Bool(false) => quote! {
                if C {
                    rt::record(failures, ip, kp, #uri, "false", rt::messages::false_schema("", None, None));
                }
                Ok(false)
            },
            Body_::Keywords(k) => self.keywords(node, k),
        };
        // A member name is checked in the quick flavour only; any other function records its
        // unit and annotations when recording for the output formats. A body returns early only
        // in the quick flavour, so a unit opened is always closed.
        let body = if naming {
            body
        } else {
            let annotations = self.annotations();
            let recording = recording();
            quote! {
                if #recording {
                    failures.open(ip, kp, #uri);
                }
                let outcome = { #body };
                if #recording {
                    if let Ok(valid) = outcome {
                        rt::close_unit(failures, v, ip, kp, #uri, #annotations, valid);
                    }
                }
                outcome
            }
        };
        self.naming.set(false);
        let (at, uris) = if shared {
            let uris = members.iter().map(|&m| &self.ir.node(m).uri);
            let n = int(members.len() as u64);
            // Only a body that names its URI gets the table: one whose limits checks were left
            // out and that records no failure of its own does not.
            let names_uri = body
                .to_string()
                .split(|c: char| !c.is_alphanumeric() && c != '_')
                .any(|word| word == "URIS");
            let table = if names_uri {
                quote! { static URIS: [&str; #n] = [#(#uris),*]; }
            } else {
                quote! {}
            };
            (quote! { at: usize, }, table)
        } else {
            (quote! {}, quote! {})
        };
        // Only a node that applies subschemas recurses: when the stack runs low, such a level
        // runs itself again on a new segment (as the interpreter does, with the same helper),
        // unless the evaluation cannot go deep enough to need it (`Ir::looks_at_stack`).
        let regrow = if matches!(node.body, Body_::Keywords(_))
            && !node.leaf
            && self.ir.looks_at_stack()
        {
            let at = if shared {
                quote! { at, }
            } else {
                quote! {}
            };
            let instance = if naming {
                quote! { key }
            } else {
                quote! { v }
            };
            let scope = self.scope_arg();
            let (rebind, out) = if !naming && takes_out(node) {
                (quote! { let mut out = out; }, quote! { , out.take() })
            } else {
                (quote! {}, quote! {})
            };
            quote! {
                if rt::stack_low(depth) {
                    #rebind
                    return rt::on_new_stack(&mut || #name::<C>(mode, #at #instance, ip, kp, #scope depth, failures #out));
                }
            }
        } else {
            quote! {}
        };
        quote! {
            #(#[doc = #doc])*
            pub(super) fn #name<const C: bool>(
                mode: rt::Mode<C>,
                #at
                #instance,
                ip: &rt::Path<'_>,
                kp: &rt::Path<'_>,
                #scope
                depth: usize,
                failures: &mut rt::Sink
                #out
            ) -> Result<bool, rt::Halt> {
                #regrow
                #uris
                #body
            }
        }
    }

    fn keywords(&self, node: &Node, k: &Keywords) -> TokenStream {
        let uri = &self.own_uri();
        let uri_expr = uri.expr();
        let max = limit(self.limits.get_max_evaluation_depth());
        let mut b = Body {
            assigns_valid: false,
        };
        let mut parts = Vec::new();
        let steps = limit(self.limits.get_max_evaluation_steps());
        // Where the front end proves no evaluation within the argument limits can reach the
        // evaluation limits, neither path can stop at them, and the checks are left out.
        // A node that applies no subschema costs no step and no level (`Node::leaf`).
        if node.leaf
            || self
                .ir
                .evaluation_bound
                .is_some_and(|b| b.within(self.limits))
        {
            parts.push(quote! { let depth = depth + 1; });
        } else {
            parts.push(quote! {
                failures.enter(ip, kp, #uri_expr, depth, #max, #steps)?;
                let depth = depth + 1;
            });
        }
        if self.ir.dynamic_scope {
            let r = int(node.resource.0);
            parts.push(quote! {
                let inner;
                let scope = if scope.resource() != #r {
                    inner = scope.enter(#r);
                    &inner
                } else {
                    scope
                };
            });
        }
        // A member name is a string: nothing about objects or arrays applies, nothing is
        // tracked.
        let naming = self.naming.get();
        let local_props = k.unevaluated_properties().is_some() && !naming;
        let local_items = k.unevaluated_items().is_some() && !naming;
        let has_out = takes_out(node) && !naming;
        let may_track = has_out || local_props || local_items;
        if may_track {
            let arm = |local: bool| {
                if local {
                    quote! { true }
                } else if has_out {
                    quote! { out.is_some() }
                } else {
                    quote! { false }
                }
            };
            let po = arm(local_props);
            let ai = arm(local_items);
            let tracking = match (po.to_string().as_str(), ai.to_string().as_str()) {
                (a, b) if a == b => {
                    if a == "true" {
                        quote! { ::core::matches!(v, Value::Object(_) | Value::Array(_)) }
                    } else {
                        quote! { ::core::matches!(v, Value::Object(_) | Value::Array(_)) && #po }
                    }
                }
                ("true", "false") => quote! { ::core::matches!(v, Value::Object(_)) },
                ("false", "true") => quote! { ::core::matches!(v, Value::Array(_)) },
                (_, "false") => quote! { ::core::matches!(v, Value::Object(_)) && #po },
                ("false", _) => quote! { ::core::matches!(v, Value::Array(_)) && #ai },
                _ => quote! {
                    match v {
                        Value::Object(_) => #po,
                        Value::Array(_) => #ai,
                        _ => false,
                    }
                },
            };
            parts.push(quote! {
                let tracking = #tracking;
                let mut marks = rt::Marks::default();
            });
        }
        let marks = if may_track {
            Some(quote! { if tracking { Some(&mut marks) } else { None } })
        } else {
            None
        };
        let c = quote! { mode };
        let recording = recording();

        let admission = self.admission().filter(|_| !naming);
        if admission.is_some() {
            // Whether this call is the one that admits the root's members (or hands that on).
            parts.push(quote! { let admitting = !C && failures.take_hand(v); });
        }
        let hand = |to: Admission| {
            if admission == Some(to) {
                quote! { if admitting { failures.hand(v); } }
            } else {
                quote! {}
            }
        };
        if let Some(target) = k.reference {
            let call = self.call(
                target,
                &c,
                quote! { v },
                quote! { ip },
                quote! { &kp.key("$ref") },
                marks.clone(),
            );
            parts.push(hand(Admission::Ref));
            parts.push(sub(&mut b, call));
        }
        // `$dynamicRef` as the IR resolved it: a fixed target, or its candidates, each
        // resource once.
        for check in &node.checks {
            match check {
                Check::Ref {
                    target,
                    keyword: "$dynamicRef",
                } => {
                    let call = self.call(
                        *target,
                        &c,
                        quote! { v },
                        quote! { ip },
                        quote! { &kp.key("$dynamicRef") },
                        marks.clone(),
                    );
                    parts.push(sub(&mut b, call));
                }
                Check::DynamicRef(targets) => {
                    let DynamicTargets {
                        fallback,
                        candidates,
                    } = &**targets;
                    let mut arms = Vec::new();
                    let mut calls = Vec::new();
                    for (i, (r, n)) in candidates.iter().enumerate() {
                        let idx = int(i as u64 + 1);
                        let rr = int(r.0);
                        arms.push(quote! { #rr => chosen = #idx, });
                        let call = self.call(
                            *n,
                            &c,
                            quote! { v },
                            quote! { ip },
                            quote! { &kp.key("$dynamicRef") },
                            marks.clone(),
                        );
                        calls.push(quote! { #idx => #call, });
                    }
                    let fallback_call = self.call(
                        *fallback,
                        &c,
                        quote! { v },
                        quote! { ip },
                        quote! { &kp.key("$dynamicRef") },
                        marks.clone(),
                    );
                    parts.push(quote! {
                        // The outermost resource in scope that defines the anchor wins.
                        let mut chosen = 0usize;
                        for resource in scope.resources() {
                            match resource {
                                #(#arms)*
                                _ => {}
                            }
                        }
                    });
                    let call = quote! {
                        match chosen {
                            #(#calls)*
                            _ => #fallback_call,
                        }
                    };
                    parts.push(sub(&mut b, call));
                }
                _ => {}
            }
        }
        if let Some(types) = k.types.filter(|_| naming) {
            if !types.contains(JsonType::String) {
                b.assigns_valid = true;
                parts.push(quote! {
                    if !C {
                        return Ok(false);
                    }
                    valid = false;
                });
            }
        } else if let Some(types) = k.types {
            let test = type_test(types);
            let bits = int(types.bits());
            let msg =
                quote! { rt::messages::type_mismatch_shared(rt::TypeSet::from_bits(#bits), v) };
            let failure = fail(&mut b, uri, "type", quote! { ip }, msg);
            let negated = negate(&test);
            parts.push(quote! { if #negated { #failure } });
        }
        if let Some(value) = &k.constant {
            let text = value.to_string();
            let (setup, test) = match value {
                Value::String(s) if naming => (quote! {}, quote! { key == #s }),
                _ if naming => (quote! {}, quote! { false }),
                Value::String(s) => (
                    quote! {},
                    quote! { ::core::matches!(v, Value::String(s) if s == #s) },
                ),
                Value::Bool(x) => (quote! {}, quote! { *v == Value::Bool(#x) }),
                Value::Null => (quote! {}, quote! { v.is_null() }),
                // An integer equals an integer value directly; a float (`5.0`) still compares
                // exactly through `equal`.
                Value::Number(n) if n.as_i64().is_some() => {
                    let i = proc_macro2::Literal::i64_unsuffixed(n.as_i64().unwrap_or_default());
                    (
                        quote! { static CONST: rt::LazyLock<Value> = rt::LazyLock::new(|| rt::value(#text)); },
                        quote! {
                            match v {
                                Value::Number(n) => match n.as_i64() {
                                    Some(x) => x == #i,
                                    None => rt::equal(&CONST, v),
                                },
                                _ => false,
                            }
                        },
                    )
                }
                _ => (
                    quote! { static CONST: rt::LazyLock<Value> = rt::LazyLock::new(|| rt::value(#text)); },
                    quote! { rt::equal(&CONST, v) },
                ),
            };
            // The message names only the schema's value: written here, once, unless the value
            // holds a number, whose text depends on how the runtime's JSON is built.
            let msg = if holds_number(value) {
                quote! { rt::messages::const_mismatch(&rt::value(#text)) }
            } else {
                let msg = messages::const_mismatch(value);
                quote! { #msg }
            };
            let failure = fail(&mut b, uri, "const", quote! { ip }, msg);
            let negated = negate(&test);
            parts.push(quote! { #setup if #negated { #failure } });
        }
        if let Some(options) = &k.enumeration {
            let text = Value::Array(options.clone()).to_string();
            let strings: Option<Vec<&str>> = options.iter().map(Value::as_str).collect();
            let names: Vec<&str> = options.iter().filter_map(Value::as_str).collect();
            // The options are parsed at run time only where they are compared as values.
            let (test, compares_values) = match strings {
                _ if naming && names.is_empty() => (quote! { false }, false),
                _ if naming => (quote! { ::core::matches!(key, #(#names)|*) }, false),
                Some(list) if !list.is_empty() => (
                    quote! { ::core::matches!(v, Value::String(s) if ::core::matches!(s.as_str(), #(#list)|*)) },
                    false,
                ),
                _ => (
                    quote! { ENUM.iter().any(|option| rt::equal(option, v)) },
                    true,
                ),
            };
            let numbers = options.iter().any(holds_number);
            let setup = if compares_values || numbers {
                quote! {
                    static ENUM: rt::LazyLock<Vec<Value>> = rt::LazyLock::new(|| match rt::value(#text) {
                        Value::Array(options) => options,
                        _ => Vec::new(),
                    });
                }
            } else {
                quote! {}
            };
            // The message names only the schema's options: written here, once, unless they
            // hold a number, whose text depends on how the runtime's JSON is built.
            let msg = if numbers {
                quote! { rt::messages::enum_mismatch(&ENUM) }
            } else {
                let msg = messages::enum_mismatch(options);
                quote! { #msg }
            };
            let failure = fail(&mut b, uri, "enum", quote! { ip }, msg);
            let negated = negate(&test);
            parts.push(quote! {
                #setup
                if #negated { #failure }
            });
        }
        let mut arms = Vec::new();
        if let Some(checks) = k.string.as_ref().filter(|_| naming) {
            let body = self.string(&mut b, checks);
            if !body.is_empty() {
                parts.push(quote! { let s = key; #body });
            }
        }
        if let Some(checks) = k.number.as_ref().filter(|_| !naming) {
            let body = self.number(&mut b, uri, checks);
            if !body.is_empty() {
                arms.push(quote! { Value::Number(n) => { #body } });
            }
        }
        if let Some(checks) = k.string.as_ref().filter(|_| !naming) {
            let body = self.string(&mut b, checks);
            if !body.is_empty() {
                arms.push(quote! { Value::String(s) => { #body } });
            }
        }
        if let Some(plan) = k.array.as_ref().filter(|_| !naming) {
            let body = self.array(&mut b, plan, &node.checks, may_track);
            if !body.is_empty() {
                arms.push(quote! { Value::Array(items) => { #body } });
            }
        }
        if let Some(plan) = k.object.as_ref().filter(|_| !naming) {
            let body = self.object(&mut b, plan, may_track, marks.clone());
            if !body.is_empty() {
                arms.push(quote! { Value::Object(map) => { #body } });
            }
        }
        if !arms.is_empty() {
            parts.push(quote! {
                match v {
                    #(#arms)*
                    _ => {}
                }
            });
        }
        for (i, &child) in k.all_of.iter().enumerate() {
            parts.push(hand(Admission::AllOf(i)));
            let i = int(i as u64);
            let call = self.call(
                child,
                &c,
                quote! { v },
                quote! { ip },
                quote! { &kp.key("allOf").index(#i) },
                marks.clone(),
            );
            parts.push(sub(&mut b, call));
        }
        if !k.any_of.is_empty() {
            let filter = BranchFilter::new(k.any_of_rules(), naming, "any_of_member");
            parts.extend(filter.setup());
            let guards = |i: usize| filter.guards(i);
            let quick: Vec<TokenStream> = k
                .any_of
                .iter()
                .enumerate()
                .filter_map(|(i, &child)| {
                    let guards = guards(i)?;
                    let i = int(i as u64);
                    let call = self.branch_call(
                        child,
                        quote! { v },
                        quote! { ip },
                        quote! { &kp.key("anyOf").index(#i) },
                        None,
                    );
                    Some(guarded(
                        guards,
                        quote! {
                            let held = #call;
                            if held {
                                if !(#recording) {
                                    break 'any_of true;
                                }
                                any = true;
                            }
                        },
                    ))
                })
                .collect();
            // Recording for the output formats runs every branch.
            let quick = quote! { 'any_of: { let mut any = false; #(#quick)* any } };
            let failure = fail(
                &mut b,
                uri,
                "anyOf",
                quote! { ip },
                quote! { rt::messages::any_of() },
            );
            if may_track {
                // Annotations come from every branch that matches, so none may be skipped.
                let all: Vec<TokenStream> = k
                    .any_of
                    .iter()
                    .enumerate()
                    .filter_map(|(i, &child)| {
                        let guards = guards(i)?;
                        let i = int(i as u64);
                        let call = self.branch_call(
                            child,
                            quote! { v },
                            quote! { ip },
                            quote! { &kp.key("anyOf").index(#i) },
                            Some(quote! { Some(&mut branch) }),
                        );
                        let branch = quote! {
                            let mut branch = rt::Marks::default();
                            let held = #call;
                            if held {
                                marks.merge(&branch);
                                any = true;
                            }
                        };
                        Some(guarded(guards, branch))
                    })
                    .collect();
                parts.push(quote! {
                    let any = if tracking {
                        let mut any = false;
                        #(#all)*
                        any
                    } else {
                        #quick
                    };
                    if !any { #failure }
                });
            } else {
                parts.push(quote! { if !(#quick) { #failure } });
            }
        }
        if !k.one_of.is_empty() {
            let filter = BranchFilter::new(k.one_of_rules(), naming, "one_of_member");
            parts.extend(filter.setup());
            let guards = |i: usize| filter.guards(i);
            let branches: Vec<TokenStream> = k
                .one_of
                .iter()
                .enumerate()
                .filter_map(|(i, &child)| {
                    let guards = guards(i)?;
                    let i = int(i as u64);
                    let m = if may_track {
                        Some(quote! { if tracking { Some(&mut branch) } else { None } })
                    } else {
                        None
                    };
                    let call = self.branch_call(
                        child,
                        quote! { v },
                        quote! { ip },
                        quote! { &kp.key("oneOf").index(#i) },
                        m,
                    );
                    let (decl, keep) = if may_track {
                        (
                            quote! { let mut branch = rt::Marks::default(); },
                            quote! { kept = branch; },
                        )
                    } else {
                        (quote! {}, quote! {})
                    };
                    let branch = quote! {
                        #decl
                        let held = #call;
                        if held {
                            if first.is_none() {
                                first = Some(#i);
                                #keep
                            } else if second.is_none() {
                                second = Some(#i);
                                if !(#recording) {
                                    break 'one_of;
                                }
                            }
                        }
                    };
                    Some(guarded(guards, branch))
                })
                .collect();
            let (kept_decl, merge) = if may_track {
                (
                    quote! { let mut kept = rt::Marks::default(); },
                    quote! { marks.merge(&kept); },
                )
            } else {
                (quote! {}, quote! {})
            };
            let none = fail(
                &mut b,
                uri,
                "oneOf",
                quote! { ip },
                quote! { rt::messages::one_of_none() },
            );
            let many = fail(
                &mut b,
                uri,
                "oneOf",
                quote! { ip },
                quote! { rt::messages::one_of_many(a, b) },
            );
            parts.push(quote! {
                let mut first: Option<usize> = None;
                let mut second: Option<usize> = None;
                #kept_decl
                'one_of: {
                    #(#branches)*
                }
                match (first, second) {
                    (Some(_), None) => { #merge }
                    (None, _) => { #none }
                    (Some(a), Some(b)) => { #many }
                }
            });
        }
        if let Some(child) = k.not {
            let call = self.branch_call(
                child,
                quote! { v },
                quote! { ip },
                quote! { &kp.key("not") },
                None,
            );
            let failure = fail(
                &mut b,
                uri,
                "not",
                quote! { ip },
                quote! { rt::messages::not() },
            );
            parts.push(quote! {
                let held = #call;
                if held { #failure }
            });
        }
        if let Some(cond) = &k.condition {
            let m = if may_track {
                Some(quote! { if tracking { Some(&mut branch) } else { None } })
            } else {
                None
            };
            let call = self.branch_call(
                cond.if_,
                quote! { v },
                quote! { ip },
                quote! { &kp.key("if") },
                m,
            );
            let (decl, merge) = if may_track {
                (
                    quote! { let mut branch = rt::Marks::default(); },
                    quote! { marks.merge(&branch); },
                )
            } else {
                (quote! {}, quote! {})
            };
            let then = match cond.then {
                Some(then) => {
                    let call = self.call(
                        then,
                        &c,
                        quote! { v },
                        quote! { ip },
                        quote! { &kp.key("then") },
                        marks.clone(),
                    );
                    sub(&mut b, call)
                }
                None => quote! {},
            };
            let else_ = match cond.else_ {
                Some(else_) => {
                    let call = self.call(
                        else_,
                        &c,
                        quote! { v },
                        quote! { ip },
                        quote! { &kp.key("else") },
                        marks.clone(),
                    );
                    Some(sub(&mut b, call))
                }
                None => None,
            };
            let holds = match (merge.is_empty() && then.is_empty(), else_) {
                // Nothing depends on the verdict, but a limit reached inside still halts.
                (true, None) => quote! { let _ = #call; },
                (true, Some(else_)) => quote! { let held = #call; if !held { #else_ } },
                (false, None) => quote! { let held = #call; if held { #merge #then } },
                (false, Some(else_)) => {
                    quote! { let held = #call; if held { #merge #then } else { #else_ } }
                }
            };
            parts.push(quote! {
                #decl
                #holds
            });
        }
        // The unevaluated keywords go last, once every annotation they read is in.
        let mut arms = Vec::new();
        if let Some(child) = k.unevaluated_properties().filter(|_| !naming) {
            let member = self.member(
                &mut b,
                child,
                quote! { value },
                quote! { &ip.key(key) },
                quote! { &kp_unevaluated },
                "unevaluatedProperties",
                quote! { Some(key) },
                quote! { None },
            );
            arms.push(quote! {
                Value::Object(map) => {
                    let kp_unevaluated = kp.key("unevaluatedProperties");
                    if !marks.all(map.len()) {
                        for (i, (key, value)) in map.iter().enumerate() {
                            if marks.get(i) {
                                continue;
                            }
                            #member
                            marks.set(i);
                        }
                    }
                }
            });
        }
        if let Some(child) = k.unevaluated_items().filter(|_| !naming) {
            let member = self.member(
                &mut b,
                child,
                quote! { item },
                quote! { &ip.index(i) },
                quote! { &kp_unevaluated },
                "unevaluatedItems",
                quote! { None },
                quote! { Some(i) },
            );
            arms.push(quote! {
                Value::Array(items) => {
                    let kp_unevaluated = kp.key("unevaluatedItems");
                    if !marks.all(items.len()) {
                        for (i, item) in items.iter().enumerate() {
                            if marks.get(i) {
                                continue;
                            }
                            #member
                            marks.set(i);
                        }
                    }
                }
            });
        }
        if !arms.is_empty() {
            parts.push(quote! {
                match v {
                    #(#arms)*
                    _ => {}
                }
            });
        }
        let valid = if b.assigns_valid {
            quote! { valid }
        } else {
            quote! { true }
        };
        if has_out {
            parts.push(quote! {
                if #valid {
                    if let Some(out) = out {
                        out.merge(&marks);
                    }
                }
            });
        }
        let decl = if b.assigns_valid {
            quote! { let mut valid = true; }
        } else {
            quote! {}
        };
        quote! {
            #decl
            #(#parts)*
            Ok(#valid)
        }
    }

    /// Applies `child` to a member; a `false` child gets a message naming the member.
    #[allow(clippy::too_many_arguments)]
    fn member(
        &self,
        b: &mut Body,
        child: NodeId,
        v: TokenStream,
        ip: TokenStream,
        kp: TokenStream,
        keyword: &str,
        property: TokenStream,
        index: TokenStream,
    ) -> TokenStream {
        let node = self.ir.node(child);
        match node.body {
            Body_::Bool(true) => {
                let uri = self.uri_of(child).expr();
                let recording = recording();
                quote! {
                    if #recording {
                        failures.open(#ip, #kp, #uri);
                        failures.close(true);
                    }
                }
            }
            Body_::Bool(false) => {
                b.assigns_valid = true;
                let uri = self.uri_of(child).expr();
                quote! {
                    if !C {
                        return Ok(false);
                    }
                    valid = false;
                    failures.open(#ip, #kp, #uri);
                    rt::record(failures, #ip, #kp, #uri, #keyword, rt::messages::false_schema(#keyword, #property, #index));
                    failures.close(false);
                }
            }
            _ => {
                let call = self.call(child, &quote! { mode }, v, ip, kp, None);
                sub(b, call)
            }
        }
    }

    fn number(&self, b: &mut Body, uri: &Uri, checks: &NumberChecks) -> TokenStream {
        let mut out = Vec::new();
        let bounds: [(&str, &Option<Bound>, &str, TokenStream, TokenStream); 4] = [
            (
                "minimum",
                &checks.minimum,
                "MINIMUM",
                quote! { < },
                quote! { minimum },
            ),
            (
                "maximum",
                &checks.maximum,
                "MAXIMUM",
                quote! { > },
                quote! { maximum },
            ),
            (
                "exclusiveMinimum",
                &checks.exclusive_minimum,
                "EXCLUSIVE_MINIMUM",
                quote! { <= },
                quote! { exclusive_minimum },
            ),
            (
                "exclusiveMaximum",
                &checks.exclusive_maximum,
                "EXCLUSIVE_MAXIMUM",
                quote! { >= },
                quote! { exclusive_maximum },
            ),
        ];
        for (keyword, bound, name, test, message) in bounds {
            let Some(bound) = bound else { continue };
            let text = bound.number().to_string();
            let name = format_ident!("{}", name);
            // Integer bounds against integer values need no decimal arithmetic.
            // `value.cmp(bound) OP Equal` is `value OP bound`, exactly.
            let exact = quote! { #name.compare(n) #test ::core::cmp::Ordering::Equal };
            let outside = match bound.number().as_i64() {
                Some(i) => {
                    let i = proc_macro2::Literal::i64_unsuffixed(i);
                    quote! { match n.as_i64() { Some(x) => x #test #i, None => #exact } }
                }
                None => exact,
            };
            let failure = fail(
                b,
                uri,
                keyword,
                quote! { ip },
                quote! { rt::messages::#message(n, #name.number()) },
            );
            out.push(quote! {
                static #name: rt::LazyLock<rt::Bound> = rt::LazyLock::new(|| rt::Bound::new(&rt::number(#text)));
                if #outside { #failure }
            });
        }
        if let Some(m) = &checks.multiple_of {
            let text = m.number().to_string();
            let test = match m.number().as_i64() {
                // Every integer is a multiple of 1; only other numbers need the division.
                Some(1) => {
                    quote! { n.as_i64().is_some() || n.as_u64().is_some() || MULTIPLE_OF.divides(n) }
                }
                Some(d) if d > 0 => {
                    let d = proc_macro2::Literal::i64_unsuffixed(d);
                    quote! { match n.as_i64() { Some(x) => x % #d == 0, None => MULTIPLE_OF.divides(n) } }
                }
                _ => quote! { MULTIPLE_OF.divides(n) },
            };
            let failure = fail(
                b,
                uri,
                "multipleOf",
                quote! { ip },
                quote! { rt::messages::multiple_of(n, MULTIPLE_OF.number()) },
            );
            let negated = negate(&test);
            out.push(quote! {
                static MULTIPLE_OF: rt::LazyLock<rt::MultipleOf> = rt::LazyLock::new(|| rt::multiple_of(#text));
                if #negated { #failure }
            });
        }
        quote! { #(#out)* }
    }

    fn string(&self, b: &mut Body, checks: &StringChecks) -> TokenStream {
        let uri = &self.own_uri();
        let mut out = Vec::new();
        if checks.min_length.is_some() || checks.max_length.is_some() {
            out.push(quote! { let length = rt::string_length(s); });
            if let Some(min) = checks.min_length.filter(|&m| m > 0) {
                let min = int(min);
                let failure = fail(
                    b,
                    uri,
                    "minLength",
                    quote! { ip },
                    quote! { rt::messages::min_length(#min, length) },
                );
                out.push(quote! { if (length as u64) < #min { #failure } });
            }
            if let Some(max) = checks.max_length {
                let max = int(max);
                let failure = fail(
                    b,
                    uri,
                    "maxLength",
                    quote! { ip },
                    quote! { rt::messages::max_length(#max, length) },
                );
                out.push(quote! { if (length as u64) > #max { #failure } });
            }
        }
        if let Some(p) = checks.pattern {
            let (setup, test) = self.pattern_test(p, quote! { s }, format_ident!("PATTERN"));
            let source = self.ir.pattern(p).as_str();
            let failure = fail(
                b,
                uri,
                "pattern",
                quote! { ip },
                quote! { rt::messages::pattern(#source) },
            );
            let negated = negate(&test);
            out.push(quote! { #setup if #negated { #failure } });
        }
        if let Some(format) = checks.format {
            let variant = format_ident!("{}", format!("{format:?}"));
            let failure = fail(
                b,
                uri,
                "format",
                quote! { ip },
                quote! { rt::messages::format(rt::Format::#variant.description()) },
            );
            out.push(quote! { if !rt::Format::#variant.is_valid(s) { #failure } });
        }
        if let Some(content) = &checks.content {
            out.push(self.content(b, content));
        }
        quote! { #(#out)* }
    }

    fn content(&self, b: &mut Body, content: &ContentCheck) -> TokenStream {
        let uri = &self.own_uri();
        b.assigns_valid = true;
        let decode = match content.encoding {
            Some(encoding) => {
                let variant = format_ident!("{}", format!("{encoding:?}"));
                let absolute = uri.join("/contentEncoding");
                quote! {
                    let decoded = rt::ContentEncoding::#variant.decode(s);
                    let bytes: Option<&[u8]> = decoded.as_deref();
                    if bytes.is_none() {
                        if C {
                            rt::record(failures, ip, &kp.key("contentEncoding"), #absolute, "contentEncoding",
                                rt::messages::content_encoding(rt::ContentEncoding::#variant.name()));
                        }
                    }
                }
            }
            None => quote! { let bytes: Option<&[u8]> = Some(s.as_bytes()); },
        };
        let parse = match content.media_type {
            Some(media_type) => {
                let variant = format_ident!("{}", format!("{media_type:?}"));
                let absolute = uri.join("/contentMediaType");
                let schema = match content.schema {
                    Some(schema) => {
                        // The decoded document is a `Value`, even under a member name.
                        let naming = self.naming.replace(false);
                        let call = self.call(
                            schema,
                            &quote! { mode },
                            quote! { &document },
                            quote! { ip },
                            quote! { &kp.key("contentSchema") },
                            None,
                        );
                        self.naming.set(naming);
                        quote! { Some(document) => #call, }
                    }
                    None => quote! { Some(_) => true, },
                };
                quote! {
                    Some(bytes) => match rt::ContentMediaType::#variant.parse(bytes) {
                        #schema
                        None => {
                            if C {
                                rt::record(failures, ip, &kp.key("contentMediaType"), #absolute, "contentMediaType",
                                    rt::messages::content_media_type(rt::ContentMediaType::#variant.name()));
                            }
                            false
                        }
                    },
                }
            }
            None => quote! {},
        };
        let verdict = if content.media_type.is_some() {
            quote! {
                let ok = match bytes {
                    #parse
                    None => false,
                };
            }
        } else {
            quote! { let ok = bytes.is_some(); }
        };
        quote! {
            #decode
            #verdict
            if !ok {
                if !C {
                    return Ok(false);
                }
                valid = false;
            }
        }
    }

    /// The test of pattern `p` on `s`: inline for literal shapes, the compiled pattern
    /// otherwise.
    fn pattern_test(
        &self,
        p: PatternId,
        s: TokenStream,
        name: syn::Ident,
    ) -> (TokenStream, TokenStream) {
        let pattern = self.ir.pattern(p);
        match pattern.shape() {
            Some(Shape::Contains(lit)) => (quote! {}, quote! { #s.contains(#lit) }),
            Some(Shape::Prefix(lit)) => (quote! {}, quote! { #s.starts_with(#lit) }),
            Some(Shape::Exact(list)) if !list.is_empty() => {
                let list = list.iter().map(|l| l.as_str());
                (
                    quote! {},
                    quote! { ::core::matches!(#s.as_str(), #(#list)|*) },
                )
            }
            Some(Shape::ClassRepeat { ranges, min, max }) => {
                // The class's ASCII part as one `matches!`, which the helper inlines and applies
                // to blocks of bytes at once.
                let ascii: Vec<TokenStream> = ranges
                    .iter()
                    .filter(|(start, _)| start.is_ascii())
                    .map(|&(start, end)| {
                        let (start, end) = (start as u8, (end as u32).min(0x7f) as u8);
                        let (a, b) = (
                            proc_macro2::Literal::byte_character(start),
                            proc_macro2::Literal::byte_character(end),
                        );
                        if start == end {
                            quote! { #a }
                        } else {
                            quote! { #a..=#b }
                        }
                    })
                    .collect();
                let ascii = if ascii.is_empty() {
                    quote! { |_: u8| false }
                } else {
                    quote! { |b: u8| ::core::matches!(b, #(#ascii)|*) }
                };
                let n = int(ranges.len() as u64);
                let ranges = ranges.iter().map(|(a, b)| quote! { (#a, #b) });
                let min = int(*min);
                let max = match max {
                    Some(m) => {
                        let m = int(*m);
                        quote! { Some(#m) }
                    }
                    None => quote! { None },
                };
                (
                    quote! { static #name: [(char, char); #n] = [#(#ranges),*]; },
                    quote! { rt::class_repeat_match_by(#s, #ascii, &#name, #min, #max) },
                )
            }
            _ => {
                let source = pattern.as_str();
                let limit = self.limits.get_max_regex_size();
                (
                    quote! { static #name: rt::LazyLock<rt::Pattern> = rt::LazyLock::new(|| rt::pattern(#source, #limit)); },
                    quote! { #name.is_match(#s) },
                )
            }
        }
    }

    fn array(
        &self,
        b: &mut Body,
        plan: &ArrayPlan,
        checks: &[Check],
        may_track: bool,
    ) -> TokenStream {
        let uri = &self.own_uri();
        let mut out = Vec::new();
        if let Some(min) = plan.min_items.filter(|&m| m > 0) {
            let min = int(min);
            let failure = fail(
                b,
                uri,
                "minItems",
                quote! { ip },
                quote! { rt::messages::min_items(#min, items.len()) },
            );
            out.push(quote! { if (items.len() as u64) < #min { #failure } });
        }
        if let Some(max) = plan.max_items {
            let max = int(max);
            let failure = fail(
                b,
                uri,
                "maxItems",
                quote! { ip },
                quote! { rt::messages::max_items(#max, items.len()) },
            );
            out.push(quote! { if (items.len() as u64) > #max { #failure } });
        }
        if plan.unique_items {
            let failure = fail(
                b,
                uri,
                "uniqueItems",
                quote! { ip },
                quote! { rt::messages::unique_items(a, b) },
            );
            out.push(quote! { if let Some((a, b)) = rt::first_duplicate(items) { #failure } });
        }
        let mark = if may_track {
            quote! { if tracking { marks.set(i); } }
        } else {
            quote! {}
        };
        for (i, &child) in plan.prefix_items.iter().enumerate() {
            let i = int(i as u64);
            let member = self.member(
                b,
                child,
                quote! { item },
                quote! { &ip.index(#i) },
                quote! { &kp.key("prefixItems").index(#i) },
                "prefixItems",
                quote! { None },
                quote! { Some(#i) },
            );
            let mark = if may_track {
                quote! { if tracking { marks.set(#i); } }
            } else {
                quote! {}
            };
            let get = if i.to_string() == "0" {
                quote! { items.first() }
            } else {
                quote! { items.get(#i) }
            };
            out.push(quote! {
                if let Some(item) = #get {
                    #member
                    #mark
                }
            });
        }
        if let Some(child) = plan.items {
            let skip = plan.prefix_items.len();
            let iteration = if skip == 0 {
                quote! { items.iter().enumerate() }
            } else {
                let skip = int(skip as u64);
                quote! { items.iter().enumerate().skip(#skip) }
            };

            let member = self.member(
                b,
                child,
                quote! { item },
                quote! { &ip.index(i) },
                quote! { &kp_items },
                "items",
                quote! { None },
                quote! { Some(i) },
            );
            out.push(quote! {
                let kp_items = kp.key("items");
                for (i, item) in #iteration {
                    #member
                    #mark
                }
            });
        }
        let contains = checks.iter().find_map(|c| match c {
            Check::Contains(contains) => Some(&**contains),
            _ => None,
        });
        if let Some(contains) = contains {
            let call = self.branch_call(
                contains.schema,
                quote! { item },
                quote! { &ip.index(i) },
                quote! { &kp_contains },
                None,
            );
            let min_value = contains.min;
            let min = int(min_value);
            // Every item must be tried when the matches are annotations someone reads or when
            // there is an upper bound; otherwise reaching the minimum is enough.
            let recording = recording();
            // Whether the loop may stop once the minimum is reached: not when the matches are
            // annotations someone reads (recording for the output formats, or `tracking`), nor
            // when there is an upper bound.
            let may_stop = match (contains.max.is_some(), may_track) {
                (true, _) => None,
                (false, true) => Some(quote! { !(#recording) && !tracking }),
                (false, false) => Some(quote! { !(#recording) }),
            };
            let keyword = contains.min_keyword;
            let too_few = if min_value > 0 {
                let failure = fail(
                    b,
                    uri,
                    keyword,
                    quote! { ip },
                    quote! { rt::messages::min_contains(#min, count) },
                );
                quote! { if (count as u64) < #min { #failure } }
            } else {
                quote! {}
            };
            let too_many = match contains.max {
                Some(max) => {
                    let max = int(max);
                    let failure = fail(
                        b,
                        uri,
                        "maxContains",
                        quote! { ip },
                        quote! { rt::messages::max_contains(#max, count) },
                    );
                    quote! { if count as u64 > #max { #failure } }
                }
                None => quote! {},
            };
            let stop = match (may_stop, min_value) {
                (None, _) => quote! {},
                (Some(may_stop), 0) => quote! { if #may_stop { break; } },
                (Some(may_stop), _) => quote! { if #may_stop && count as u64 >= #min { break; } },
            };
            let counts = min_value > 0 || contains.max.is_some();
            let (count_decl, count_up) = if counts {
                (quote! { let mut count = 0usize; }, quote! { count += 1; })
            } else {
                (quote! {}, quote! {})
            };
            // The index is needed for the item's location only when it is recorded or marked.
            let (binding, iteration) = (quote! { (i, item) }, quote! { items.iter().enumerate() });
            out.push(quote! {
                let kp_contains = kp.key("contains");
                #count_decl
                for #binding in #iteration {
                    let held = #call;
                    if held {
                        #count_up
                        #mark
                        #stop
                    }
                }
                #too_few
                #too_many
            });
        }
        quote! { #(#out)* }
    }

    fn object(
        &self,
        b: &mut Body,
        plan: &ObjectPlan,
        may_track: bool,
        marks: Option<TokenStream>,
    ) -> TokenStream {
        let uri = &self.own_uri();
        let mut out = Vec::new();
        if let Some(min) = plan.min_properties.filter(|&m| m > 0) {
            let min = int(min);
            let failure = fail(
                b,
                uri,
                "minProperties",
                quote! { ip },
                quote! { rt::messages::min_properties(#min, map.len()) },
            );
            out.push(quote! { if (map.len() as u64) < #min { #failure } });
        }
        if let Some(max) = plan.max_properties {
            let max = int(max);
            let failure = fail(
                b,
                uri,
                "maxProperties",
                quote! { ip },
                quote! { rt::messages::max_properties(#max, map.len()) },
            );
            out.push(quote! { if (map.len() as u64) > #max { #failure } });
        }
        // Required properties that `properties` also declares are seen in the key pass: one
        // bit each, in as many 64-bit words as they need.
        let mut seen_required: Vec<u32> = Vec::new();
        if plan.needs_key_pass() {
            for index in plan.required.iter().filter_map(|(_, i)| *i) {
                if !seen_required.contains(&index) {
                    seen_required.push(index);
                }
            }
        }
        let words = seen_required.len().div_ceil(64);
        // The word of `seen` and the bit within it for property `index`.
        let seen_bit = |index: u32| {
            let position = seen_required.iter().position(|&i| i == index)?;
            let shift = int(position as u64 % 64);
            let bit = quote! { 1 << #shift };
            if words == 1 {
                Some((quote! { seen }, bit))
            } else {
                let word = int(position as u64 / 64);
                Some((quote! { seen[#word] }, bit))
            }
        };
        // The test that required property `name` (declared at `index`, if it is) is absent.
        let missing = |name: &str, index: Option<u32>| match index.and_then(&seen_bit) {
            Some((word, bit)) => quote! { #word & (#bit) == 0 },
            None => quote! { !rt::has_member(map, #name) },
        };
        let seen_decl = match words {
            0 => quote! {},
            1 => quote! { let mut seen: u64 = 0; },
            n => {
                let n = int(n as u64);
                quote! { let mut seen = [0u64; #n]; }
            }
        };
        out.push(seen_decl);
        if plan.shallow_first {
            // First-failure mode checks the shallow properties and `required` in one pass over
            // the keys before the key pass, as the interpreter does, so a wrong discriminator
            // fails before any deep subschema runs (the verdict is the same in any order; only
            // the work differs).
            let mut arms = Vec::new();
            for (index, (name, child)) in plan.properties.iter().enumerate() {
                let seen = match seen_bit(index as u32) {
                    Some((word, bit)) => quote! { #word |= #bit; },
                    None => quote! {},
                };
                let child_node = self.ir.node(*child);
                let check = match child_node.body {
                    _ if !child_node.shallow => quote! {},
                    Body_::Bool(true) => quote! {},
                    Body_::Bool(false) => quote! { return Ok(false); },
                    Body_::Keywords(_) => {
                        let call = self.call(
                            *child,
                            &quote! { rt::QUICK },
                            quote! { value },
                            quote! { ip },
                            quote! { kp },
                            None,
                        );
                        quote! { if !#call { return Ok(false); } }
                    }
                };
                if seen.is_empty() && check.is_empty() {
                    continue;
                }
                arms.push((name.as_str(), quote! { #seen #check }));
            }
            let mut early: Vec<TokenStream> = plan
                .required
                .iter()
                .map(|(name, index)| {
                    let missing = missing(name, *index);
                    quote! { if #missing { return Ok(false); } }
                })
                .collect();
            if !arms.is_empty() {
                let dispatch = name_dispatch(quote! { key }, &arms);
                early.insert(
                    0,
                    quote! {
                        for (key, value) in map {
                            #dispatch
                        }
                    },
                );
            }
            if !early.is_empty() {
                out.push(quote! {
                    if !C {
                        #(#early)*
                    }
                });
            }
        }
        if plan.needs_key_pass() {
            // The key pass: each key is matched once against properties, patternProperties
            // and additionalProperties.
            // What `additionalProperties` checks of an unmatched member; a `true` there checks
            // nothing, and then only tracking needs to know which members matched.
            let additional_member = plan.additional_properties.map(|child| {
                self.member(
                    b,
                    child,
                    quote! { value },
                    quote! { &ip.key(key) },
                    quote! { &kp.key("additionalProperties") },
                    "additionalProperties",
                    quote! { Some(key) },
                    quote! { None },
                )
            });
            let needs_matched =
                additional_member.as_ref().is_some_and(|m| !m.is_empty()) || may_track;
            let mut arms = Vec::new();
            for (index, (name, child)) in plan.properties.iter().enumerate() {
                let index = index as u32;
                let seen = match seen_bit(index) {
                    Some((word, bit)) => quote! { #word |= #bit; },
                    None => quote! {},
                };
                let member = self.member(
                    b,
                    *child,
                    quote! { value },
                    quote! { &ip.key(key) },
                    quote! { &kp_properties.key(key) },
                    "properties",
                    quote! { Some(key) },
                    quote! { None },
                );
                // First-failure mode checked the shallow ones before the key pass.
                let member = if plan.shallow_first && self.ir.node(*child).shallow {
                    quote! { if C { #member } }
                } else {
                    member
                };
                let matched = if needs_matched {
                    quote! { matched = true; }
                } else {
                    quote! {}
                };
                arms.push((
                    name.as_str(),
                    quote! {
                        #matched
                        #seen
                        let kp_properties = kp.key("properties");
                        #member
                    },
                ));
            }
            let dispatch = if arms.is_empty() {
                quote! {}
            } else {
                name_dispatch(quote! { key }, &arms)
            };
            let mut patterns = Vec::new();
            for (n, (p, child)) in plan.pattern_properties.iter().enumerate() {
                let (setup, test) =
                    self.pattern_test(*p, quote! { key }, format_ident!("PATTERN_{}", n));
                let source = self.ir.pattern(*p).as_str();
                let member = self.member(
                    b,
                    *child,
                    quote! { value },
                    quote! { &ip.key(key) },
                    quote! { &kp.key("patternProperties").key(#source) },
                    "patternProperties",
                    quote! { Some(key) },
                    quote! { None },
                );
                let matched = if needs_matched {
                    quote! { matched = true; }
                } else {
                    quote! {}
                };
                // A member that needs nothing checked, and no record that it matched, makes no
                // test at all.
                if !(matched.is_empty() && member.is_empty()) {
                    patterns.push(quote! {
                        #setup
                        if #test {
                            #matched
                            #member
                        }
                    });
                }
            }
            let additional = match additional_member {
                Some(member) => {
                    let matched = if may_track {
                        quote! { matched = true; }
                    } else {
                        quote! {}
                    };
                    if matched.is_empty() && member.is_empty() {
                        quote! {}
                    } else {
                        quote! {
                            if !matched {
                                #matched
                                #member
                            }
                        }
                    }
                }
                None => quote! {},
            };
            let mark = if may_track {
                quote! { if matched && tracking { marks.set(i); } }
            } else {
                quote! {}
            };
            let matched_decl = if needs_matched {
                quote! { let mut matched = false; }
            } else {
                quote! {}
            };
            let (binding, iteration) = if may_track {
                (
                    quote! { (i, (key, value)) },
                    quote! { map.iter().enumerate() },
                )
            } else {
                (quote! { (key, value) }, quote! { map })
            };
            // The key pass that admits the root's members to the argument limits (see
            // `admission_chain`). A member is admitted after its evaluation, so a call that
            // fails there walks none of it.
            let admit = if self.admission() == Some(Admission::Own) {
                quote! {
                    if admitting && !failures.admit(key, value) {
                        return Ok(false);
                    }
                }
            } else {
                quote! {}
            };
            out.push(quote! {
                for #binding in #iteration {
                    #matched_decl
                    #dispatch
                    #(#patterns)*
                    #additional
                    #mark
                    #admit
                }
            });
        }
        for (name, index) in &plan.required {
            let missing = missing(name, *index);
            let failure = fail(
                b,
                uri,
                "required",
                quote! { ip },
                quote! { rt::messages::required(#name) },
            );
            out.push(quote! { if #missing { #failure } });
        }
        for dependent in &plan.dependent_required {
            let property = &dependent.property;
            for dependency in &dependent.then {
                let failure = fail(
                    b,
                    uri,
                    dependent.keyword,
                    quote! { ip },
                    quote! { rt::messages::dependent_required(#property, #dependency) },
                );
                out.push(quote! {
                    if rt::has_member(map, #property) && !rt::has_member(map, #dependency) { #failure }
                });
            }
        }
        if let Some(child) = plan.property_names {
            // Each name is checked as a string in place, in the member-name flavour, so no
            // `Value` is made for it.
            self.naming.set(true);
            let call = self.call(
                child,
                &quote! { rt::QUICK },
                quote! { key },
                quote! { ip },
                quote! { &kp_names },
                None,
            );
            self.naming.set(false);
            let failure = fail(
                b,
                uri,
                "propertyNames",
                quote! { ip },
                quote! { rt::messages::property_name(key) },
            );
            out.push(quote! {
                let kp_names = kp.key("propertyNames");
                for key in map.keys() {
                    if !#call { #failure }
                }
            });
        }
        for dependent in &plan.dependent_schemas {
            let property = &dependent.property;
            let keyword = dependent.keyword;
            let call = self.call(
                dependent.then,
                &quote! { mode },
                quote! { v },
                quote! { ip },
                quote! { &kp.key(#keyword).key(#property) },
                marks.clone(),
            );
            let s = sub(b, call);
            out.push(quote! { if rt::has_member(map, #property) { #s } });
        }
        quote! { #(#out)* }
    }
}

use toolschema_core::ir::Body as Body_;

/// The IR's [`BranchRules`] of an `anyOf` / `oneOf`, as tests written into generated code
/// (the discriminating member read into `var`).
struct BranchFilter<'a> {
    discriminator: Option<&'a Discriminator>,
    /// Whether each discriminator value picks one branch (see [`Discriminator::picks_one`]).
    picks: bool,
    types: Option<&'a [TypeSet]>,
    /// The member-name flavour: the instance is a string, which no discriminator reads.
    naming: bool,
    var: &'static str,
}

impl<'a> BranchFilter<'a> {
    fn new(rules: BranchRules<'a>, naming: bool, var: &'static str) -> BranchFilter<'a> {
        let discriminator = rules.discriminator.filter(|_| !naming);
        BranchFilter {
            discriminator,
            picks: discriminator.is_some_and(Discriminator::picks_one),
            types: rules.types,
            naming,
            var,
        }
    }

    /// The statements that read the discriminating member, if there is one.
    fn setup(&self) -> Option<TokenStream> {
        self.discriminator
            .map(|d| discriminator_setup(d, self.var, self.picks))
    }

    /// The tests under which branch `i` runs; `None` when it cannot hold (a member name is
    /// a string, and the branch allows none).
    fn guards(&self, i: usize) -> Option<Vec<TokenStream>> {
        let mut guards = Vec::new();
        if let Some(&t) = self
            .types
            .and_then(|t| t.get(i))
            .filter(|&&t| t != TypeSet::ANY)
        {
            if self.naming {
                if !t.contains(JsonType::String) {
                    return None;
                }
            } else {
                let bits = int(t.bits());
                guards.push(quote! { rt::TypeSet::from_bits(#bits).matches(v) });
            }
        }
        guards.extend(
            self.discriminator
                .and_then(|d| admits(d, i, self.var, self.picks)),
        );
        Some(guards)
    }
}

/// `body` run only where every guard holds, or always when recording for the output formats
/// (where a branch ruled out still has its failures to report).
fn guarded(guards: Vec<TokenStream>, body: TokenStream) -> TokenStream {
    guards.into_iter().rev().fold(body, |body, guard| {
        let recording = recording();
        quote! { if (#recording) || #guard { #body } }
    })
}

/// The discriminating member of `v`, in `var`; when the values pick one branch each, also the
/// picked branch in `{var}_pick`: its index, `usize::MAX` when the member is absent (no
/// branch is ruled out) and `usize::MAX - 1` when it is none of the values.
fn discriminator_setup(d: &Discriminator, var: &str, picks: bool) -> TokenStream {
    let property = &d.property;
    let member = format_ident!("{var}");
    if !picks {
        return quote! { let #member = rt::discriminating_member(v, #property); };
    }
    let pick = format_ident!("{var}_pick");
    let arms: Vec<(&str, TokenStream)> = d
        .values
        .iter()
        .enumerate()
        .flat_map(|(i, values)| {
            let i = int(i as u64);
            values
                .iter()
                .flatten()
                .map(move |value| (value.as_str(), quote! { break 'pick #i; }))
        })
        .collect();
    let dispatch = name_dispatch(quote! { s }, &arms);
    quote! {
        let #member = rt::discriminating_member(v, #property);
        let #pick: usize = match #member {
            None => usize::MAX,
            Some(Value::String(s)) => 'pick: {
                #dispatch
                usize::MAX - 1
            }
            Some(_) => usize::MAX - 1,
        };
    }
}

/// The test that branch `i` may hold given the discriminating member in `var` (and, when
/// `picks`, the branch it picked), when the discriminator constrains that branch.
fn admits(d: &Discriminator, i: usize, var: &str, picks: bool) -> Option<TokenStream> {
    let values = d.values[i].as_ref()?;
    let member = format_ident!("{var}");
    if picks {
        let pick = format_ident!("{var}_pick");
        if values.is_empty() {
            return Some(quote! { #pick == usize::MAX });
        }
        let i = int(i as u64);
        return Some(quote! { #pick == #i || #pick == usize::MAX });
    }
    if values.is_empty() {
        return Some(quote! { #member.is_none() });
    }
    Some(quote! { rt::admits(#member, &[#(#values),*]) })
}

/// Runs the body of the arm whose name equals the string `key`, or nothing. Names are
/// compared with `rt::same_name` (machine words, no `memcmp` call) rather than as string
/// patterns; past a few arms they are grouped by length first, so that a key is compared with
/// the names of its own length only (a jump on the length instead of a test per name).
fn name_dispatch(key: TokenStream, arms: &[(&str, TokenStream)]) -> TokenStream {
    let chain = |arms: &[&(&str, TokenStream)]| {
        let arms = arms.iter().map(|(name, body)| {
            quote! { name if rt::same_name(name, #name) => { #body } }
        });
        quote! {
            match #key.as_str() {
                #(#arms)*
                _ => {}
            }
        }
    };
    let mut lengths: Vec<usize> = arms.iter().map(|(name, _)| name.len()).collect();
    lengths.sort_unstable();
    lengths.dedup();
    if arms.len() <= 4 || lengths.len() == 1 {
        return chain(&arms.iter().collect::<Vec<_>>());
    }
    let groups = lengths.iter().map(|&n| {
        let group: Vec<_> = arms.iter().filter(|(name, _)| name.len() == n).collect();
        let inner = chain(&group);
        let n = int(n as u64);
        quote! { #n => #inner }
    });
    quote! {
        match #key.len() {
            #(#groups)*
            _ => {}
        }
    }
}

/// `!test`, with parentheses only where precedence needs them.
fn negate(test: &TokenStream) -> TokenStream {
    let text = test.to_string();
    let simple = !text.starts_with("match ")
        && !["||", "&&", "==", "!=", "<", ">"]
            .iter()
            .any(|op| text.contains(op));
    if simple {
        quote! { !#test }
    } else {
        quote! { !(#test) }
    }
}

/// Whether the function is recording for the output formats: the collecting flavour with a
/// sink that records (see `Sink::recording`). It then runs every branch, collecting.
fn recording() -> TokenStream {
    quote! { C && failures.recording() }
}

/// A subschema's verdict joined into this node's.
fn sub(b: &mut Body, call: TokenStream) -> TokenStream {
    b.assigns_valid = true;
    quote! {
        if !#call {
            if !C {
                return Ok(false);
            }
            valid = false;
        }
    }
}

/// A failure of `keyword` at `ip`: quick mode stops here, collecting mode records it.
fn fail(
    b: &mut Body,
    uri: &Uri,
    keyword: &str,
    ip: TokenStream,
    message: TokenStream,
) -> TokenStream {
    b.assigns_valid = true;
    let absolute = uri.join(&format!("/{keyword}"));
    quote! {
        if !C {
            return Ok(false);
        }
        valid = false;
        rt::record(failures, #ip, &kp.key(#keyword), #absolute, #keyword, #message);
    }
}

/// Whether `value` is or holds a number.
fn holds_number(value: &Value) -> bool {
    match value {
        Value::Number(_) => true,
        Value::Array(items) => items.iter().any(holds_number),
        Value::Object(map) => map.values().any(holds_number),
        _ => false,
    }
}

/// The `type` test, as one `matches!` over the value's variants.
fn type_test(types: TypeSet) -> TokenStream {
    let mut alternatives = Vec::new();
    for t in types.iter() {
        alternatives.push(match t {
            JsonType::Null => quote! { Value::Null },
            JsonType::Boolean => quote! { Value::Bool(_) },
            JsonType::Object => quote! { Value::Object(_) },
            JsonType::Array => quote! { Value::Array(_) },
            JsonType::String => quote! { Value::String(_) },
            JsonType::Number => quote! { Value::Number(_) },
            JsonType::Integer => {
                if types.contains(JsonType::Number) {
                    continue;
                }
                quote! { Value::Number(n) if rt::is_integer(n) }
            }
        });
    }
    if alternatives.is_empty() {
        return quote! { false };
    }
    // A guard applies to a whole `matches!` pattern, so the integer test stands alone.
    let (guarded, plain): (Vec<_>, Vec<_>) = alternatives
        .into_iter()
        .partition(|t| t.to_string().contains(" if "));
    let mut tests = Vec::new();
    if !plain.is_empty() {
        tests.push(quote! { ::core::matches!(v, #(#plain)|*) });
    }
    for g in guarded {
        tests.push(quote! { ::core::matches!(v, #g) });
    }
    quote! { #(#tests)||* }
}
