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
//! The emitter records what each function's code uses (`Uses`), and declares a parameter the
//! code does not use with a leading underscore, so that generated code needs no allowance
//! for unused variables.

mod admission;
mod arrays;
mod assertions;
mod calls;
mod combinators;
mod content;
mod objects;
mod references;
mod unevaluated;
mod validator;

pub use validator::{Item, schema};

use crate::share::Sharing;
use assertions::BoundKind;
use calls::{Flavour, Uri, fn_name, name_fn_name};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use std::cell::{Cell, RefCell};
use toolschema_core::Limits;
use toolschema_core::ir::*;
use toolschema_core::json::JsonType;

/// The emitter of one schema: what it reads, and what is still to be emitted.
struct Cx<'a> {
    ir: &'a Ir,
    limits: &'a Limits,
    /// Nodes some emitted code calls, still to be emitted (class representatives).
    called: RefCell<Vec<NodeId>>,
    /// Nodes some emitted code applies to a member name (`propertyNames`), still to be
    /// emitted in that flavour (class representatives).
    called_names: RefCell<Vec<NodeId>>,
    /// Leaves whose collecting flavour some emitted code calls out of line (class
    /// representatives; see `Cx::collecting_leaf`).
    collecting: RefCell<Vec<NodeId>>,
    /// The representative whose function is being emitted.
    current: Cell<NodeId>,
    /// What the code of the function being emitted uses so far.
    uses: Cell<Uses>,
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
    /// Whether the function declares `marks` (and `tracking`, where a check reads it): it may
    /// gather the members it evaluates.
    may_track: bool,
    /// The `out` argument of a subschema applied in place, when the function may track.
    marks: Option<TokenStream>,
    /// Whether some check assigns `valid` (fails without returning in collecting mode).
    assigns_valid: bool,
    /// Whether a check fails every value (the `false` schema; under a member name, a check
    /// that allows no string): the verdict is `false`.
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

impl<'a> Cx<'a> {
    /// The function of node `id`'s class, applied to `subject`.
    fn node_fn(&self, id: NodeId, subject: Subject) -> TokenStream {
        self.current.set(id);
        self.uses.set(Uses::default());
        let naming = subject == Subject::Name;
        let node = self.ir.node(id);
        let members = self.sharing.members(id);
        let shared = members.len() > 1;
        let name = if naming {
            name_fn_name(self.ir, id)
        } else {
            fn_name(self.ir, id)
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
            let recording = self.sink_records();
            let uri = f.uri_expr();
            self.uses(|u| {
                u.instance = true;
                u.ip = true;
                u.kp = true;
            });
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
        let takes_out = !naming && takes_out(node);
        // Only a node that applies subschemas recurses: when the stack runs low, such a level
        // runs itself again on a new segment (as the interpreter does, with the same helper),
        // if enough levels can follow it to need that (`Node::looks_at_stack`).
        let regrows = node.looks_at_stack;
        if regrows {
            self.uses(|u| u.every_parameter());
        }
        let uses = self.uses.get();
        let at_used = uses.at || f.names_uris;
        let param = |used: bool, name: &str| {
            if used {
                format_ident!("{name}")
            } else {
                format_ident!("_{name}")
            }
        };
        let mode = param(uses.mode, "mode");
        let ip = param(uses.ip, "ip");
        let kp = param(uses.kp, "kp");
        let depth = param(uses.depth, "depth");
        let failures = param(uses.failures, "failures");
        let instance = if naming {
            let key = param(uses.instance, "key");
            quote! { #key: &str }
        } else {
            quote! { v: &Value }
        };
        let out = if takes_out {
            let out = param(f.may_track || regrows, "out");
            quote! { , #out: Option<&mut rt::Marks> }
        } else {
            quote! {}
        };
        let scope = if self.ir.dynamic_scope {
            let scope = param(uses.scope, "scope");
            quote! { #scope: &rt::Scope<'_>, }
        } else {
            quote! {}
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
            let at = param(at_used, "at");
            (quote! { #at: usize, }, table)
        } else {
            (quote! {}, quote! {})
        };
        let recording = if uses.recording {
            quote! { let recording: bool = C && failures.recording(); }
        } else {
            quote! {}
        };
        let regrow = if regrows {
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
            let (rebind, out) = if takes_out {
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
        // The root's function is called once by each method of the validator (`validate` and
        // `evaluate` share its collecting flavour): `#[inline]` lets the optimizer inline it
        // into them, in other codegen units, where its cost model allows; forcing it would
        // copy the collecting flavour into `evaluate` as well. A leaf's quick flavour is a
        // few comparisons, called from both flavours of its parent (collecting checks quick
        // first), so the optimizer's cost model leaves it out of line unless told.
        let inline = if naming {
            quote! {}
        } else if node.leaf {
            quote! { #[inline(always)] }
        } else if members.contains(&self.ir.root) {
            quote! { #[inline] }
        } else {
            quote! {}
        };
        quote! {
            #(#[doc = #doc])*
            #inline
            pub(super) fn #name<const C: bool>(
                #mode: rt::Mode<C>,
                #at
                #instance,
                #ip: &rt::Path<'_>,
                #kp: &rt::Path<'_>,
                #scope
                #depth: usize,
                #failures: &mut rt::Sink
                #out
            ) -> Result<bool, rt::Halt> {
                #regrow
                #uris
                #recording
                #body
            }
        }
    }

    /// The body of a node's function: the limits, the dynamic scope and the tracking it needs,
    /// then its checks in order.
    fn checks(&self, node: &Node, f: &mut Frame) -> TokenStream {
        let naming = f.subject == Subject::Name;
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
        // A node none of whose checks marks a member has no marks to gather or hand on.
        f.may_track = (properties != Track::Never || items != Track::Never)
            && node.checks.iter().any(Check::marks_members);
        if f.may_track {
            f.marks = Some(quote! { if tracking { Some(&mut marks) } else { None } });
        }
        // The checks first: what they use decides what the function declares before them.
        let mut arms = Arms::default();
        let mut body = Vec::new();
        for check in &node.checks {
            // Nothing after a check that fails every value runs in first-failure mode, and a
            // node that has one in collecting mode (the `false` schema) has no other.
            if f.fails_always {
                break;
            }
            match check.instance_type() {
                // A member name is a string: a check of another type has nothing to do.
                Some(t) if naming && t != JsonType::String => {}
                Some(t) => arms.push(t, self.check(f, check)),
                None => {
                    body.extend(self.take_arms(&mut arms, f.subject));
                    body.push(self.check(f, check));
                }
            }
        }
        body.extend(self.take_arms(&mut arms, f.subject));
        let calls = self.uses.get().depth;
        let mut parts = Vec::new();
        // A node that applies no subschema costs no step and no level (`Node::leaf`), and
        // enters no scope. Where the front end proves no evaluation within the argument limits
        // can reach the evaluation limits, neither path can stop at them, and the checks are
        // left out. The level below is bound only for the calls that pass it on.
        if !node.leaf {
            if !self.bounded() {
                let uri = f.uri_expr();
                let max = limit(self.limits.get_max_evaluation_depth());
                let steps = limit(self.limits.get_max_evaluation_steps());
                self.records();
                self.uses(|u| u.depth = true);
                parts.push(quote! { failures.enter(ip, kp, #uri, depth, #max, #steps)?; });
            }
            if calls {
                parts.push(quote! { let depth = depth + 1; });
            }
            if self.ir.dynamic_scope && self.uses.get().scope {
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
        if f.may_track {
            // Every check that marks reads `tracking` but the `unevaluated*` ones, which run
            // only where it holds.
            let reads_tracking = node.checks.iter().any(|c| {
                c.marks_members()
                    && !matches!(
                        c,
                        Check::UnevaluatedProperties(_) | Check::UnevaluatedItems(_)
                    )
            });
            if reads_tracking {
                let tracking = Track::test(properties, items);
                parts.push(quote! { let tracking = #tracking; });
            }
            parts.push(quote! { let mut marks = rt::Marks::default(); });
        }
        parts.extend(body);
        let valid = if f.fails_always {
            quote! { false }
        } else if f.assigns_valid {
            quote! { valid }
        } else {
            quote! { true }
        };
        if has_out && f.may_track {
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

    /// The `match` of `arms` (see [`Arms::take`]); a member name's string checks read `key`.
    fn take_arms(&self, arms: &mut Arms, subject: Subject) -> Option<TokenStream> {
        let code = arms.take(subject)?;
        if subject == Subject::Name {
            self.uses(|u| u.instance = true);
        }
        Some(code)
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
            Check::PrefixItems(schemas) => self.prefix_items(f, schemas, check.items_from_first()),
            Check::Items { skip, schema, .. } => {
                self.items(f, *skip, *schema, check.items_from_first())
            }
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

    /// Whether [`Cx::member`] reads the member's value: a subschema with keywords is called on
    /// it, a boolean one is written inline and reads only its location.
    fn reads_member(&self, child: NodeId) -> bool {
        matches!(self.ir.node(child).body, Body::Keywords(_))
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
                let recording = self.sink_records();
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
                let call = self.call(Subject::Value, child, Flavour::Same, v, Some(ip), kp, None);
                self.sub(f, call)
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

/// Which parameters of the function being emitted its code uses, a parameter it does not use
/// declared with a leading underscore; and whether it reads its `recording` local, which it
/// declares only then.
#[derive(Clone, Copy, Debug, Default)]
struct Uses {
    mode: bool,
    at: bool,
    instance: bool,
    ip: bool,
    kp: bool,
    scope: bool,
    depth: bool,
    failures: bool,
    recording: bool,
}

impl Uses {
    /// Marks every parameter used (a function that runs itself again passes them all on).
    fn every_parameter(&mut self) {
        *self = Uses {
            recording: self.recording,
            mode: true,
            at: true,
            instance: true,
            ip: true,
            kp: true,
            scope: true,
            depth: true,
            failures: true,
        };
    }
}

impl Cx<'_> {
    /// Records what emitted code uses.
    fn uses(&self, update: impl FnOnce(&mut Uses)) {
        let mut uses = self.uses.get();
        update(&mut uses);
        self.uses.set(uses);
    }

    /// Whether the front end proves that no evaluation within the argument limits reaches
    /// the evaluation limits: then no function counts steps or depth, and no halt has a
    /// location (the quick flavour reads none).
    fn bounded(&self) -> bool {
        !self.ir.counts_evaluation(self.limits)
    }

    /// Whether the function is recording for the output formats: the collecting flavour with
    /// a sink that records (see `Sink::recording`), read from the sink. Where the function
    /// opens and closes its unit, and for a `true` member, that costs a load; see
    /// [`Cx::recording`] for the tests between calls.
    fn sink_records(&self) -> TokenStream {
        self.uses(|u| u.failures = true);
        quote! { C && failures.recording() }
    }

    /// [`Cx::sink_records`] as a local, read once where the function starts, for the tests
    /// that run every branch (`anyOf`, `oneOf`, `contains`, the subschemas of `not` and
    /// `if`). The optimizer cannot tell that a sink's mode does not change across the calls
    /// the function makes, and would read it again after each, in `validate` too; a test of
    /// it per branch also kept a long chain of discriminated branches from becoming one jump.
    /// Only there: held across the whole body, the local takes a register that a function
    /// testing it only around its unit would save and restore for nothing.
    fn recording(&self) -> TokenStream {
        self.uses(|u| {
            u.failures = true;
            u.recording = true;
        });
        quote! { recording }
    }

    /// A subschema's verdict joined into this node's.
    fn sub(&self, f: &mut Frame, call: TokenStream) -> TokenStream {
        if f.subject == Subject::Name {
            return quote! { if !#call { return Ok(false); } };
        }
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

    /// The node's own URI followed by `suffix` (see [`Uri::join`]).
    fn join(&self, f: &Frame, suffix: &str) -> TokenStream {
        if matches!(f.uri, Uri::Table(..)) {
            self.uses(|u| u.at = true);
        }
        f.uri.join(suffix)
    }

    /// The bounds of a count (`minLength`/`maxLength`, `minItems`/`maxItems`,
    /// `minProperties`/`maxProperties`; a lower bound of 0 cannot fail): `count` is the counted
    /// expression, `keywords` the two keywords and `messages` their `rt::messages` functions.
    fn count_bounds(
        &self,
        f: &mut Frame,
        count: TokenStream,
        (min, max): (u64, Option<u64>),
        keywords: [&str; 2],
        messages: [&str; 2],
    ) -> TokenStream {
        let mut out = Vec::new();
        if min > 0 {
            let min = int(min);
            let message = format_ident!("{}", messages[0]);
            let failure = self.fail(
                f,
                keywords[0],
                quote! { ip },
                quote! { rt::messages::#message(#min, #count) },
            );
            out.push(quote! { if (#count as u64) < #min { #failure } });
        }
        if let Some(max) = max {
            let max = int(max);
            let message = format_ident!("{}", messages[1]);
            let failure = self.fail(
                f,
                keywords[1],
                quote! { ip },
                quote! { rt::messages::#message(#max, #count) },
            );
            out.push(quote! { if (#count as u64) > #max { #failure } });
        }
        quote! { #(#out)* }
    }

    /// The code records a failure: it uses the locations and the sink.
    fn records(&self) {
        self.uses(|u| {
            u.ip = true;
            u.kp = true;
            u.failures = true;
        });
    }

    /// A failure of `keyword` at `ip`: quick mode stops here, collecting mode records it. A
    /// member name is only ever checked in quick mode, which records nothing.
    fn fail(
        &self,
        f: &mut Frame,
        keyword: &str,
        ip: TokenStream,
        message: TokenStream,
    ) -> TokenStream {
        if f.subject == Subject::Name {
            return quote! { return Ok(false); };
        }
        f.assigns_valid = true;
        let absolute = self.join(f, &format!("/{keyword}"));
        self.records();
        quote! {
            if !C {
                return Ok(false);
            }
            valid = false;
            rt::record(failures, #ip, &kp.key(#keyword), #absolute, #keyword, #message);
        }
    }
}
