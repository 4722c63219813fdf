//! Stage two: Rust tokens from an [`Ir`].
//!
//! Every node becomes one function, generic over `const C: bool`: `C = false` is the quick
//! check (`is_valid`, first failure wins, no locations), `C = true` collects every failure.
//! The flavour travels as a zero-sized `rt::Mode<C>` argument, so calls infer it.
//! The two flavours share one body, so they cannot drift apart, and the compiler removes the
//! branch that does not apply to each.
//!
//! A function's body is the node's [`Check`] list, in its order, each check written by the
//! module of its family: the same file names as the interpreter's, so the two sides of a
//! keyword are read side by side. This module decides nothing about a keyword's meaning; it
//! matches every check exhaustively and groups the checks that apply to one instance type into
//! that type's arm of a `match` on the value. The failures come out as the interpreter's.
//!
//! Parameters appear only when the schema needs them: the dynamic scope only when
//! [`Ir::dynamic_scope`], the evaluated-members `out` only on nodes the IR marks as tracking.

mod arrays;
mod assertions;
mod combinators;
mod content;
mod objects;
mod references;
mod unevaluated;

use crate::runtime::Runtime;
use crate::share::Sharing;
use assertions::BoundKind;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use std::cell::{Cell, RefCell};
use toolschema_core::Limits;
use toolschema_core::ir::*;
use toolschema_core::json::JsonType;

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
    sharing: Sharing,
}

/// Whether a node takes the `out` parameter (its evaluated members are read by someone).
fn takes_out(node: &Node) -> bool {
    node.tracks_properties || node.tracks_items
}

/// What a function is applied to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Subject {
    /// A JSON value, `v: &Value`.
    Value,
    /// A member name, `key: &str`, as `propertyNames` applies its subschema: always a string,
    /// checked in the quick flavour, tracking nothing, so no `Value` is made for it.
    Name,
}

/// What the checks of the function being emitted share, and what they declared, so that
/// nothing unused is emitted.
struct Frame {
    subject: Subject,
    /// The node's own URI.
    uri: Uri,
    /// Whether the function declares `tracking` and `marks`: it may gather the members it
    /// evaluates.
    may_track: bool,
    /// The `out` argument of a subschema applied in place, when the function may track.
    marks: Option<TokenStream>,
    /// How the function takes part in admitting the root's members, if it does.
    admission: Option<Admission>,
    /// Whether some check assigns `valid` (fails without returning in collecting mode).
    assigns_valid: bool,
    /// Whether a check fails every value (the `false` schema): the verdict is `false`.
    fails_always: bool,
    /// Whether the body names the table of the class's URIs.
    names_uris: bool,
}

impl Frame {
    /// The node's own URI as an expression.
    fn uri_expr(&mut self) -> TokenStream {
        if matches!(self.uri, Uri::Table(..)) {
            self.names_uris = true;
        }
        self.uri.expr()
    }

    /// The statement that hands the admitting of the root's members on to the call that
    /// follows, when that call is the function's `to` (see [`admission_chain`]).
    fn hand(&self, to: Admission) -> TokenStream {
        if self.admission == Some(to) {
            quote! { if admitting { failures.hand(v); } }
        } else {
            quote! {}
        }
    }

    /// The `mark` statement of a member the function evaluated, at index `i`.
    fn mark(&self, i: TokenStream) -> TokenStream {
        if self.may_track {
            quote! { if tracking { marks.set(#i); } }
        } else {
            quote! {}
        }
    }
}

/// Whether a node gathers the members it evaluates, for one kind of container.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Track {
    /// Always: an `unevaluated*` keyword of its own reads them.
    Always,
    /// When the caller asked (`out`).
    WhenAsked,
    /// Never.
    Never,
}

impl Track {
    fn expr(self) -> TokenStream {
        match self {
            Track::Always => quote! { true },
            Track::WhenAsked => quote! { out.is_some() },
            Track::Never => quote! { false },
        }
    }

    /// The `tracking` test for a node that tracks objects as `properties` and arrays as
    /// `items`.
    fn test(properties: Track, items: Track) -> TokenStream {
        let when = |t: Track, kinds: TokenStream| match t {
            Track::Always => quote! { ::core::matches!(v, #kinds) },
            Track::WhenAsked => quote! { ::core::matches!(v, #kinds) && out.is_some() },
            Track::Never => quote! { false },
        };
        match (properties, items) {
            (p, i) if p == i => when(p, quote! { Value::Object(_) | Value::Array(_) }),
            (p, Track::Never) => when(p, quote! { Value::Object(_) }),
            (Track::Never, i) => when(i, quote! { Value::Array(_) }),
            (p, i) => {
                let (p, i) = (p.expr(), i.expr());
                quote! {
                    match v {
                        Value::Object(_) => #p,
                        Value::Array(_) => #i,
                        _ => false,
                    }
                }
            }
        }
    }
}

/// The code of the checks that apply to one instance type each, grouped into the arms of one
/// `match v`, in the order each type first appears.
#[derive(Default)]
struct Arms(Vec<(JsonType, Vec<TokenStream>)>);

impl Arms {
    fn push(&mut self, t: JsonType, code: TokenStream) {
        if code.is_empty() {
            return;
        }
        match self.0.iter_mut().find(|(u, _)| *u == t) {
            Some((_, codes)) => codes.push(code),
            None => self.0.push((t, vec![code])),
        }
    }

    /// The `match`, emptied out of `self`. A member name is a string: its string checks run
    /// on `s` directly.
    fn take(&mut self, subject: Subject) -> Option<TokenStream> {
        let arms = std::mem::take(&mut self.0);
        if arms.is_empty() {
            return None;
        }
        if subject == Subject::Name {
            let codes = arms.into_iter().flat_map(|(_, codes)| codes);
            return Some(quote! { let s = key; #(#codes)* });
        }
        let arms = arms.into_iter().map(|(t, codes)| {
            let pattern = match t {
                JsonType::Number | JsonType::Integer => quote! { Value::Number(n) },
                JsonType::String => quote! { Value::String(s) },
                JsonType::Array => quote! { Value::Array(items) },
                JsonType::Object => quote! { Value::Object(map) },
                JsonType::Null => quote! { Value::Null },
                JsonType::Boolean => quote! { Value::Bool(_) },
            };
            quote! { #pattern => { #(#codes)* } }
        });
        Some(quote! {
            match v {
                #(#arms)*
                _ => {}
            }
        })
    }
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
        let checks = &ir.node(id).checks;
        if checks.iter().any(|c| matches!(c, Check::KeyPass(_))) {
            chain.push((id, Admission::Own));
            return true;
        }
        let next = checks.iter().flat_map(|c| match c {
            Check::Ref {
                target,
                keyword: "$ref",
            } => vec![(*target, Admission::Ref)],
            Check::AllOf(members) => members
                .iter()
                .enumerate()
                .map(|(i, &m)| (m, Admission::AllOf(i)))
                .collect(),
            _ => Vec::new(),
        });
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

    /// A call of node `id`'s function applied to `subject`; `mode` is this function's `mode`
    /// (the same flavour) or `rt::QUICK`, `marks` the `out` argument when the caller may be
    /// tracking.
    #[allow(clippy::too_many_arguments)]
    fn call(
        &self,
        subject: Subject,
        id: NodeId,
        mode: &TokenStream,
        v: TokenStream,
        ip: TokenStream,
        kp: TokenStream,
        marks: Option<TokenStream>,
    ) -> TokenStream {
        let class = self.sharing.members(id);
        let representative = class[0];
        let naming = subject == Subject::Name;
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
        subject: Subject,
        id: NodeId,
        v: TokenStream,
        ip: TokenStream,
        kp: TokenStream,
        marks: Option<TokenStream>,
    ) -> TokenStream {
        let quick = self.call(
            subject,
            id,
            &quote! { rt::QUICK },
            v.clone(),
            ip.clone(),
            kp.clone(),
            marks.clone(),
        );
        // A member name is only ever checked in the quick flavour.
        if subject == Subject::Name {
            return quick;
        }
        let collect = self.call(subject, id, &quote! { rt::COLLECT }, v, ip, kp, marks);
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

    /// The function of node `id`'s class, applied to `subject`.
    fn node_fn(&self, id: NodeId, subject: Subject) -> TokenStream {
        self.current.set(id);
        let naming = subject == Subject::Name;
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
        let mut f = Frame {
            subject,
            uri: self.own_uri(),
            may_track: false,
            marks: None,
            admission: None,
            assigns_valid: false,
            fails_always: false,
            names_uris: false,
        };
        let body = self.checks(node, &mut f);
        // A member name is checked in the quick flavour only; any other function records its
        // unit and annotations when recording for the output formats. A body returns early only
        // in the quick flavour, so a unit opened is always closed.
        let body = if naming {
            body
        } else {
            let annotations = self.annotations();
            let recording = recording();
            let uri = f.uri_expr();
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
        let (at, uris) = if shared {
            let uris = members.iter().map(|&m| &self.ir.node(m).uri);
            let n = int(members.len() as u64);
            // Only a body that names its URI gets the table: one whose limits checks were left
            // out and that records no failure of its own does not.
            let table = if f.names_uris {
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
        let regrow = if !node.leaf && self.ir.looks_at_stack() {
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

    /// The body of a node's function: the limits, the dynamic scope and the tracking it needs,
    /// then its checks in order.
    fn checks(&self, node: &Node, f: &mut Frame) -> TokenStream {
        let naming = f.subject == Subject::Name;
        let mut parts = Vec::new();
        // A node that applies no subschema costs no step and no level (`Node::leaf`), and
        // enters no scope. Where the front end proves no evaluation within the argument limits
        // can reach the evaluation limits, neither path can stop at them, and the checks are
        // left out.
        if !node.leaf {
            if self
                .ir
                .evaluation_bound
                .is_some_and(|b| b.within(self.limits))
            {
                parts.push(quote! { let depth = depth + 1; });
            } else {
                let uri = f.uri_expr();
                let max = limit(self.limits.get_max_evaluation_depth());
                let steps = limit(self.limits.get_max_evaluation_steps());
                parts.push(quote! {
                    failures.enter(ip, kp, #uri, depth, #max, #steps)?;
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
        }
        // A member name is a string: nothing about objects or arrays applies, nothing is
        // tracked.
        let has_out = takes_out(node) && !naming;
        let track = |t: JsonType| {
            if node.consumes_marks.contains(t) && !naming {
                Track::Always
            } else if has_out {
                Track::WhenAsked
            } else {
                Track::Never
            }
        };
        let (properties, items) = (track(JsonType::Object), track(JsonType::Array));
        f.may_track = properties != Track::Never || items != Track::Never;
        if f.may_track {
            let tracking = Track::test(properties, items);
            parts.push(quote! {
                let tracking = #tracking;
                let mut marks = rt::Marks::default();
            });
            f.marks = Some(quote! { if tracking { Some(&mut marks) } else { None } });
        }
        f.admission = self.admission().filter(|_| !naming);
        if f.admission.is_some() {
            // Whether this call is the one that admits the root's members (or hands that on).
            parts.push(quote! { let admitting = !C && failures.take_hand(v); });
        }
        let mut arms = Arms::default();
        for check in &node.checks {
            match check.instance_type() {
                // A member name is a string: a check of another type has nothing to do.
                Some(t) if naming && t != JsonType::String => {}
                Some(t) => arms.push(t, self.check(f, check)),
                None => {
                    parts.extend(arms.take(f.subject));
                    parts.push(self.check(f, check));
                }
            }
        }
        parts.extend(arms.take(f.subject));
        let valid = if f.fails_always {
            quote! { false }
        } else if f.assigns_valid {
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
        let decl = if f.assigns_valid {
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

    /// The code of one check, written by its family.
    fn check(&self, f: &mut Frame, check: &Check) -> TokenStream {
        match check {
            Check::Never => self.never(f),
            Check::Ref { target, keyword } => self.reference(f, *target, keyword),
            Check::DynamicRef(targets) => self.dynamic_reference(f, targets),
            Check::Type(types) => self.types(f, *types),
            Check::Const(value) => self.constant(f, value),
            Check::Enum(options) => self.enumeration(f, options),
            Check::Minimum(bound) => self.bound(f, BoundKind::Minimum, bound),
            Check::Maximum(bound) => self.bound(f, BoundKind::Maximum, bound),
            Check::ExclusiveMinimum(bound) => self.bound(f, BoundKind::ExclusiveMinimum, bound),
            Check::ExclusiveMaximum(bound) => self.bound(f, BoundKind::ExclusiveMaximum, bound),
            Check::MultipleOf(m) => self.multiple_of(f, m),
            Check::Length { min, max } => self.length(f, *min, *max),
            Check::Pattern(p) => self.pattern(f, *p),
            Check::Format(format) => self.format(f, *format),
            Check::Content(content) => self.content(f, content),
            Check::ItemCount { min, max } => self.item_count(f, *min, *max),
            Check::UniqueItems => self.unique_items(f),
            Check::PrefixItems(schemas) => self.prefix_items(f, schemas),
            Check::Items { skip, schema } => self.items(f, *skip, *schema),
            Check::Contains(contains) => self.contains(f, contains),
            Check::PropertyCount { min, max } => self.property_count(f, *min, *max),
            Check::KeyPass(plan) => self.key_pass(f, plan),
            Check::Required(names) => self.required(f, names),
            Check::DependentRequired(dependents) => self.dependent_required(f, dependents),
            Check::PropertyNames(schema) => self.property_names(f, *schema),
            Check::DependentSchemas(dependents) => self.dependent_schemas(f, dependents),
            Check::AllOf(schemas) => self.all_of(f, schemas),
            Check::AnyOf(branches) => self.any_of(f, branches),
            Check::OneOf(branches) => self.one_of(f, branches),
            Check::Not(schema) => self.not(f, *schema),
            Check::Condition(condition) => self.condition(f, condition),
            Check::UnevaluatedProperties(schema) => self.unevaluated_properties(f, *schema),
            Check::UnevaluatedItems(schema) => self.unevaluated_items(f, *schema),
        }
    }

    /// Applies `child` to a member; a `false` child gets a message naming the member.
    #[allow(clippy::too_many_arguments)]
    fn member(
        &self,
        f: &mut Frame,
        child: NodeId,
        v: TokenStream,
        ip: TokenStream,
        kp: TokenStream,
        keyword: &str,
        property: TokenStream,
        index: TokenStream,
    ) -> TokenStream {
        let node = self.ir.node(child);
        match node.checks[..] {
            [] if matches!(node.body, Body::Bool(true)) => {
                let uri = self.uri_of(child).expr();
                let recording = recording();
                quote! {
                    if #recording {
                        failures.open(#ip, #kp, #uri);
                        failures.close(true);
                    }
                }
            }
            [Check::Never] => {
                f.assigns_valid = true;
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
                let call = self.call(Subject::Value, child, &quote! { mode }, v, ip, kp, None);
                sub(f, call)
            }
        }
    }
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

/// A test in generated code, and whether `!` applies to it without parentheses.
struct Test {
    tokens: TokenStream,
    atomic: bool,
}

impl Test {
    /// A call, a path or a literal: `!` binds to it as a whole.
    fn atom(tokens: TokenStream) -> Test {
        Test {
            tokens,
            atomic: true,
        }
    }

    /// An expression with operators, or a `match`.
    fn compound(tokens: TokenStream) -> Test {
        Test {
            tokens,
            atomic: false,
        }
    }

    /// `!test`, with parentheses only where precedence needs them.
    fn negated(&self) -> TokenStream {
        let t = &self.tokens;
        if self.atomic {
            quote! { !#t }
        } else {
            quote! { !(#t) }
        }
    }
}

/// Whether the function is recording for the output formats: the collecting flavour with a
/// sink that records (see `Sink::recording`). It then runs every branch, collecting.
fn recording() -> TokenStream {
    quote! { C && failures.recording() }
}

/// A subschema's verdict joined into this node's.
fn sub(f: &mut Frame, call: TokenStream) -> TokenStream {
    f.assigns_valid = true;
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
fn fail(f: &mut Frame, keyword: &str, ip: TokenStream, message: TokenStream) -> TokenStream {
    f.assigns_valid = true;
    let absolute = f.uri.join(&format!("/{keyword}"));
    quote! {
        if !C {
            return Ok(false);
        }
        valid = false;
        rt::record(failures, #ip, &kp.key(#keyword), #absolute, #keyword, #message);
    }
}
