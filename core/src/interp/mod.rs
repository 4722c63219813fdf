//! The interpreter: runs each node's [`Check`] list against an instance.
//!
//! One evaluation function serves both modes, chosen at compile time by a const parameter:
//! `is_valid` (stop at the first failure) and `validate` (collect every failure with its
//! locations). Evaluation is three-valued: `Ok(true)`, `Ok(false)`, or `Err(Halt)` when a
//! limit stops it; a halt passes through every applicator unchanged, so a limit inside `not`
//! or `anyOf` can never turn into a match or a mismatch.
//!
//! The checks are the IR's: this module decides nothing about a keyword's meaning, it only
//! dispatches each check to the function of its family (the same file names as the code
//! generator's). Locations are linked lists on the stack ([`Path`]) that become strings only
//! when a failure is recorded; evaluated-property and evaluated-item marks are collected only
//! where an `unevaluated*` keyword reads them.

mod arrays;
mod assertions;
mod combinators;
mod content;
mod objects;
mod references;
mod unevaluated;

use crate::error::{Error, Failure};
use crate::eval::{Flow, Marks, Path, Scope, Sink, Trace, not_an_object, stack};
use crate::ir::{Check, Ir, Node, NodeId};
use crate::messages;
use crate::output::Evaluation;
use serde_json::Value;
use std::borrow::Cow;

/// Where evaluation stands: the instance and keyword locations, the dynamic scope, and how
/// many subschemas deep it is.
#[derive(Clone, Copy)]
struct At<'a> {
    ip: &'a Path<'a>,
    kp: &'a Path<'a>,
    scope: &'a Scope<'a>,
    depth: usize,
}

impl<'a> At<'a> {
    /// Evaluation at keyword location `kp`, collecting (`C`). The first-failure flavour builds
    /// no location: it stays where it is, and the location `kp` is never built. A halt it meets
    /// either ends a first-failure check, which reports none, or is located by running the
    /// subschema again collecting (see [`Interpreter::branch`]).
    #[inline(always)]
    fn keyword<const C: bool>(self, kp: &'a Path<'a>) -> At<'a> {
        if C { At { kp, ..self } } else { self }
    }

    /// [`At::keyword`] for a member at instance location `ip`.
    #[inline(always)]
    fn member<const C: bool>(self, ip: &'a Path<'a>, kp: &'a Path<'a>) -> At<'a> {
        if C { At { ip, kp, ..self } } else { self }
    }
}

/// Runs an [`Ir`].
pub struct Interpreter<'ir> {
    ir: &'ir Ir,
    max_depth: usize,
    max_steps: usize,
    /// Whether evaluation may reach `max_depth` or `max_steps` ([`Ir::counts_evaluation`]):
    /// otherwise steps and levels are not counted.
    counts: bool,
    /// The argument depth limit, as deep as `uniqueItems` follows items.
    max_argument_depth: usize,
}

impl<'ir> Interpreter<'ir> {
    /// An interpreter bounded by `limits`' evaluation depth and steps.
    pub fn new(ir: &'ir Ir, limits: &crate::Limits) -> Interpreter<'ir> {
        Interpreter::counting(ir, limits, ir.counts_evaluation(limits))
    }

    /// [`Interpreter::new`] for a caller that knows [`Ir::counts_evaluation`] under `limits`.
    pub(crate) fn counting(ir: &'ir Ir, limits: &crate::Limits, counts: bool) -> Interpreter<'ir> {
        Interpreter {
            ir,
            max_depth: limits.max_evaluation_depth,
            max_steps: limits.max_evaluation_steps,
            counts,
            max_argument_depth: limits.max_argument_depth,
        }
    }

    /// First-failure check with `sink`, which may admit the arguments to their limits (see
    /// [`Sink::admitting`]). The caller has tested [`Ir::root_types`].
    pub fn is_valid_in(&self, instance: &Value, sink: &mut Sink) -> Flow {
        self.run::<false>(instance, sink)
    }

    /// Every failure, recorded in `sink`, which may admit the arguments to their limits (see
    /// [`Sink::admitting`]): the verdict.
    pub fn validate_in(&self, instance: &Value, sink: &mut Sink) -> Flow {
        if self.ir.object_root && !instance.is_object() {
            let uri = &self.ir.node(self.ir.root).uri;
            sink.push(not_an_object(uri, instance));
            return Ok(false);
        }
        self.run::<true>(instance, sink)
    }

    /// Every unit, for the output formats (see [`crate::output`]).
    pub fn evaluate(&self, instance: &Value) -> Result<Evaluation, Error> {
        if self.ir.object_root && !instance.is_object() {
            let uri = &self.ir.node(self.ir.root).uri;
            let failure = not_an_object(uri, instance);
            return Ok(Evaluation::refused(uri.clone(), failure));
        }
        let mut trace = Trace::default();
        let outcome = self.run::<true>(instance, &mut Sink::for_output(&mut trace, self.max_steps));
        crate::eval::evaluation(outcome, trace)
    }

    fn run<const C: bool>(&self, instance: &Value, sink: &mut Sink) -> Flow {
        // The scope is read only where `$dynamicRef` resolves against it.
        let resource = if self.ir.dynamic_scope {
            self.ir.node(self.ir.root).resource.0
        } else {
            0
        };
        let scope = Scope::root(resource);
        let at = At {
            ip: &Path::ROOT,
            kp: &Path::ROOT,
            scope: &scope,
            depth: 0,
        };
        self.eval::<C>(self.ir.root, instance, at, sink, None)
    }

    /// Evaluates node `id` against `v`. `out`, when given, receives the members this node
    /// evaluated, if it holds. Recording for the output formats (see [`Sink::recording`])
    /// records the node's unit, its failures inside, and its annotations.
    #[inline(always)]
    fn eval<const C: bool>(
        &self,
        id: NodeId,
        v: &Value,
        at: At<'_>,
        st: &mut Sink,
        out: Option<&mut Marks>,
    ) -> Flow {
        if !(C && st.recording()) {
            return self.eval_node::<C>(id, v, at, st, out);
        }
        let node = self.ir.node(id);
        st.open(at.ip, at.kp, node.uri.clone());
        let valid = self.eval_node::<C>(id, v, at, st, out)?;
        self.annotate(node, v, at, st);
        st.close(valid);
        Ok(valid)
    }

    /// Evaluates a subschema whose failure does not fail this one (an `anyOf` branch, the
    /// subschema of `not`, `if`, `contains`): in first-failure mode, except when recording for
    /// the output formats, where every unit counts. A first-failure branch that fails may
    /// have stopped halfway through admitting a container to the argument limits: admission
    /// returns to where it was before the branch (see `eval::admission`).
    #[inline]
    fn branch<const C: bool>(
        &self,
        id: NodeId,
        v: &Value,
        at: At<'_>,
        st: &mut Sink,
        out: Option<&mut Marks>,
    ) -> Flow {
        if C && st.recording() {
            return self.eval::<true>(id, v, at, st, out);
        }
        self.first_failure::<C>(id, v, at, st, out)
    }

    /// [`Interpreter::branch`] outside recording: `id` in the first-failure flavour, rolled
    /// back to where admission was if it fails, and run again collecting for its location if
    /// it halts while collecting (see [`Interpreter::located`]).
    #[inline]
    fn first_failure<const C: bool>(
        &self,
        id: NodeId,
        v: &Value,
        at: At<'_>,
        st: &mut Sink,
        out: Option<&mut Marks>,
    ) -> Flow {
        // A node that applies no subschema claims nothing, costs no step and cannot halt;
        // nothing is claimed where the sink does not admit (the arguments walked before
        // evaluation, or after).
        let leaf = self.ir.node(id).leaf;
        if leaf || (!C && !st.admits()) {
            return self.eval::<false>(id, v, at, st, out);
        }
        let mark = st.mark();
        let steps = st.steps_left();
        let mut out = out;
        match self.eval::<false>(id, v, at, st, out.as_deref_mut()) {
            Ok(held) => {
                if !held {
                    st.rollback(mark);
                }
                Ok(held)
            }
            Err(halt) if C => Err(self.located(id, v, at, st, out, mark, steps, halt)),
            Err(halt) => Err(halt),
        }
    }

    /// The halt of a first-failure evaluation of `id` that a collecting one made, with its
    /// location: the first-failure flavour builds none, so `id` runs again collecting from
    /// where it began (`mark`, `steps`). Until the halt, the first-failure run met no failure,
    /// and the collecting one takes the same steps in the same order, so it halts at the same
    /// place.
    #[cold]
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn located(
        &self,
        id: NodeId,
        v: &Value,
        at: At<'_>,
        st: &mut Sink,
        out: Option<&mut Marks>,
        mark: crate::eval::Mark,
        steps: usize,
        halt: crate::eval::Halt,
    ) -> crate::eval::Halt {
        st.resume(mark, steps);
        self.eval::<true>(id, v, at, st, out).err().unwrap_or(halt)
    }

    /// Records the annotations of `node`'s own keywords on `v`.
    fn annotate(&self, node: &Node, v: &Value, at: At<'_>, st: &mut Sink) {
        for a in node.annotations.iter().filter(|a| a.applies_to(v)) {
            st.annotate(at.ip, at.kp, &node.uri, &a.keyword, || a.value.clone());
        }
    }

    fn eval_node<const C: bool>(
        &self,
        id: NodeId,
        v: &Value,
        at: At<'_>,
        st: &mut Sink,
        out: Option<&mut Marks>,
    ) -> Flow {
        let node = self.ir.node(id);
        // A node that applies no subschema costs no step and no level (`Node::leaf`), and
        // evaluates no member.
        if node.leaf {
            return self.leaf::<C>(node, v, at, st);
        }
        // Only a node that applies subschemas recurses: when the stack runs low, this level
        // runs again on a new segment (as generated code does, with the same helper), if it
        // is one of those that look (`Node::looks_at_stack`).
        if node.looks_at_stack && stack::stack_low(at.depth) {
            let mut out = out;
            let mut level = || self.eval_node::<C>(id, v, at, st, out.take());
            return stack::on_new_stack(&mut level);
        }
        if self.counts {
            st.enter(
                at.ip,
                at.kp,
                &node.uri,
                at.depth,
                self.max_depth,
                self.max_steps,
            )?;
        }
        // A node that only references another (a property's `$ref` to a definition, the
        // commonest node of large schemas) goes straight on to it, as its `$ref` check would,
        // with no scope to enter and no marks of its own.
        if let ([Check::Ref { target, keyword }], false) = (&node.checks[..], self.ir.dynamic_scope)
        {
            let kp = at.kp.key(keyword);
            let at = At {
                depth: at.depth + 1,
                ..at.keyword::<C>(&kp)
            };
            return self.eval::<C>(*target, v, at, st, out);
        }
        let inner;
        let scope = if self.ir.dynamic_scope && at.scope.resource() != node.resource.0 {
            inner = at.scope.enter(node.resource.0);
            &inner
        } else {
            at.scope
        };
        let at = At {
            scope,
            depth: at.depth + 1,
            ..at
        };
        // Marks are gathered where an `unevaluated*` keyword of this node reads them, or
        // where the caller asked for them.
        let tracking = node.consumes_marks.matches(v)
            || (out.is_some() && matches!(v, Value::Object(_) | Value::Array(_)));
        if !tracking {
            return self.checks::<C>(node, v, at, st, None);
        }
        let mut marks = Marks::default();
        let valid = self.checks::<C>(node, v, at, st, Some(&mut marks))?;
        if valid {
            if let Some(out) = out {
                out.merge(&marks);
            }
        }
        Ok(valid)
    }

    /// Runs `node`'s checks in order. `marks` is given exactly when this node tracks the
    /// members it evaluates.
    #[inline(always)]
    fn checks<const C: bool>(
        &self,
        node: &Node,
        v: &Value,
        at: At<'_>,
        st: &mut Sink,
        mut marks: Option<&mut Marks>,
    ) -> Flow {
        let mut valid = true;
        for check in &node.checks {
            // `type`, most nodes' first check, and the passes over an object's members or an
            // array's items are dispatched here, without the general dispatch's frame.
            let holds = match (check, v) {
                (Check::Type(types), _) => self.types::<C>(node, *types, v, at, st),
                (Check::KeyPass(plan), Value::Object(map)) => {
                    self.key_pass::<C>(node, plan, map, v, at, st, marks.as_deref_mut())?
                }
                (Check::ItemCount { min, max }, Value::Array(items)) => {
                    self.item_count::<C>(node, *min, *max, items, at, st)
                }
                (Check::Items { .. } | Check::PrefixItems(_), Value::Array(items)) => {
                    self.array::<C>(node, check, items, v, at, st, marks.as_deref_mut())?
                }
                _ => self.check::<C>(node, check, v, at, st, marks.as_deref_mut())?,
            };
            if !holds {
                if !C {
                    return Ok(false);
                }
                valid = false;
            }
        }
        Ok(valid)
    }

    /// The checks of a node that applies no subschema. The checks such nodes hold most
    /// (`type`, `enum`, `const`) are run here without the general dispatch's frame.
    #[inline]
    fn leaf<const C: bool>(&self, node: &Node, v: &Value, at: At<'_>, st: &mut Sink) -> Flow {
        let mut valid = true;
        for check in &node.checks {
            let holds = match check {
                Check::Type(types) => self.types::<C>(node, *types, v, at, st),
                Check::Enum(options) => self.enumeration::<C>(node, options, v, at, st),
                Check::Const(c) => self.constant::<C>(node, c, v, at, st),
                _ => self.check::<C>(node, check, v, at, st, None)?,
            };
            if !holds {
                if !C {
                    return Ok(false);
                }
                valid = false;
            }
        }
        Ok(valid)
    }

    /// Whether `v` passes a node that only asserts (`Node::asserts_only`), in first-failure
    /// mode: its checks read the value alone, so nothing is entered, located or returned but
    /// the verdict.
    #[inline(always)]
    fn holds(&self, node: &Node, v: &Value, at: At<'_>, st: &mut Sink) -> bool {
        for check in &node.checks {
            let holds = match check {
                Check::Type(types) => self.types::<false>(node, *types, v, at, st),
                _ => self.assertion::<false>(node, check, v, at, st),
            };
            if !holds {
                return false;
            }
        }
        true
    }

    /// One check, dispatched to its family.
    #[inline]
    fn check<const C: bool>(
        &self,
        node: &Node,
        check: &Check,
        v: &Value,
        at: At<'_>,
        st: &mut Sink,
        marks: Option<&mut Marks>,
    ) -> Flow {
        Ok(match check {
            Check::Ref { target, keyword } => {
                return self.reference::<C>(*target, keyword, v, at, st, marks);
            }
            Check::DynamicRef(targets) => {
                return self.dynamic_reference::<C>(targets, v, at, st, marks);
            }
            Check::Never
            | Check::Type(_)
            | Check::Const(_)
            | Check::Enum(_)
            | Check::Minimum(_)
            | Check::Maximum(_)
            | Check::ExclusiveMinimum(_)
            | Check::ExclusiveMaximum(_)
            | Check::MultipleOf(_)
            | Check::Length { .. }
            | Check::Pattern(_)
            | Check::Format(_) => self.assertion::<C>(node, check, v, at, st),
            Check::Content(content) => match v {
                Value::String(s) => return self.content::<C>(node, content, s, at, st),
                _ => true,
            },
            Check::ItemCount { .. }
            | Check::UniqueItems
            | Check::PrefixItems(_)
            | Check::Items { .. }
            | Check::Contains(_) => match v {
                Value::Array(items) => {
                    return self.array::<C>(node, check, items, v, at, st, marks);
                }
                _ => true,
            },
            Check::PropertyCount { .. }
            | Check::KeyPass(_)
            | Check::Required(_)
            | Check::DependentRequired(_)
            | Check::PropertyNames(_)
            | Check::DependentSchemas(_) => match v {
                Value::Object(map) => {
                    return self.object::<C>(node, check, map, v, at, st, marks);
                }
                _ => true,
            },
            Check::AllOf(schemas) => return self.all_of::<C>(schemas, v, at, st, marks),
            Check::AnyOf(branches) => return self.any_of::<C>(node, branches, v, at, st, marks),
            Check::OneOf(branches) => return self.one_of::<C>(node, branches, v, at, st, marks),
            Check::Not(schema) => return self.not::<C>(node, *schema, v, at, st),
            Check::Condition(condition) => {
                return self.condition::<C>(condition, v, at, st, marks);
            }
            Check::UnevaluatedProperties(schema) => match (v, marks) {
                (Value::Object(map), Some(marks)) => {
                    return self.unevaluated_properties::<C>(*schema, map, at, st, marks);
                }
                _ => true,
            },
            Check::UnevaluatedItems(schema) => match (v, marks) {
                (Value::Array(items), Some(marks)) => {
                    return self.unevaluated_items::<C>(*schema, items, at, st, marks);
                }
                _ => true,
            },
        })
    }

    /// Records a failure of `node`'s `keyword` (empty for the `false` schema).
    #[cold]
    #[inline(never)]
    fn record(
        &self,
        st: &mut Sink,
        node: &Node,
        keyword: &'static str,
        ip: &Path<'_>,
        kp: &Path<'_>,
        message: impl Into<Cow<'static, str>>,
    ) {
        let absolute = if keyword.is_empty() {
            node.uri.clone()
        } else {
            format!("{}/{keyword}", node.uri)
        };
        let keyword_name = if keyword.is_empty() { "false" } else { keyword };
        st.push(Failure::borrowing(
            ip.pointer(),
            kp.pointer(),
            Some(Cow::Owned(absolute)),
            keyword_name,
            message.into(),
        ));
    }

    /// Records a failure of `node`'s `keyword` at the instance location of `at`, the
    /// keyword appended to its keyword location.
    #[cold]
    #[inline(never)]
    fn fail(
        &self,
        st: &mut Sink,
        node: &Node,
        keyword: &'static str,
        at: At<'_>,
        message: impl Into<Cow<'static, str>>,
    ) {
        let kp = at.kp.key(keyword);
        self.record(st, node, keyword, at.ip, &kp, message);
    }

    /// Applies `child` to a member (property value or item) at `ip`, under keyword location
    /// `kp`. A `false` child gets a message naming the member instead of the generic one.
    #[allow(clippy::too_many_arguments)]
    fn member<const C: bool>(
        &self,
        child: NodeId,
        v: &Value,
        ip: &Path<'_>,
        kp: &Path<'_>,
        at: At<'_>,
        st: &mut Sink,
        keyword: &'static str,
        name: Option<&str>,
        index: Option<usize>,
    ) -> Flow {
        let node = self.ir.node(child);
        if matches!(node.checks[..], [Check::Never]) {
            if C {
                false_member(st, node, ip, kp, keyword, name, index);
            }
            return Ok(false);
        }
        let at = at.member::<C>(ip, kp);
        if !C && node.flat && !self.counts {
            return self.flat(node, v, at, st);
        }
        self.eval::<C>(child, v, at, st, None)
    }

    /// A flat node's checks (`Node::flat`) in first-failure mode, without the frame of a node
    /// that applies subschemas: out of line, so that `member` stays small enough to inline
    /// into the passes over members.
    #[inline(never)]
    fn flat(&self, node: &Node, v: &Value, at: At<'_>, st: &mut Sink) -> Flow {
        self.checks::<false>(node, v, at, st, None)
    }
}

/// Records the failure of a `false` subschema applied to a member (`name` or `index`) by
/// `keyword`, inside the member's unit when recording for the output formats.
#[cold]
#[inline(never)]
fn false_member(
    st: &mut Sink,
    node: &Node,
    ip: &Path<'_>,
    kp: &Path<'_>,
    keyword: &'static str,
    name: Option<&str>,
    index: Option<usize>,
) {
    let recording = st.recording();
    if recording {
        st.open(ip, kp, node.uri.clone());
    }
    st.push(Failure::borrowing(
        ip.pointer(),
        kp.pointer(),
        Some(Cow::Owned(node.uri.clone())),
        keyword,
        messages::false_schema(keyword, name, index).into(),
    ));
    if recording {
        st.close(false);
    }
}
