//! One evaluation's state: the failures recorded, the evaluation steps left, and the
//! argument limits admitted member by member; the halt a limit produces.

use super::arguments::{ArgumentBudget, arguments_hold};
use super::path::Path;
use super::trace::Trace;
use crate::error::{Error, Failure};
use crate::messages;
use serde_json::{Map, Value};
use std::borrow::Cow;

/// Evaluation stopped by a limit.
///
/// Boxed so that `Result<bool, Halt>`, which every evaluation step returns, is two words and
/// travels in registers rather than through memory.
#[derive(Debug)]
pub struct Halt(pub Box<Failure>);

/// What every evaluation step returns: valid, invalid, or stopped by a limit.
pub type Flow = Result<bool, Halt>;

/// The failure a limit on evaluation depth produces.
#[cold]
#[inline(never)]
fn too_deep(ip: &Path<'_>, kp: &Path<'_>, uri: &str, limit: usize) -> Halt {
    Halt(Box::new(Failure::new(
        ip.pointer(),
        kp.pointer(),
        Some(uri.to_owned()),
        "",
        messages::evaluation_too_deep(limit),
    )))
}

/// What one evaluation carries along: the failures recorded so far and the evaluation steps
/// left (the interpreter's `max_evaluation_steps`).
#[derive(Debug)]
pub struct Sink<'t> {
    failures: Vec<Failure>,
    steps_left: usize,
    arguments: Option<ArgumentBudget>,
    /// The address of the value whose members the next function of the admission chain
    /// entered may admit; 0 when none.
    hand: usize,
    /// The units an evaluation for the output formats records (see [`Sink::recording`]).
    /// Borrowed, so that a sink needs no drop: one that did would pay for it on every call.
    trace: Option<&'t mut Trace>,
}

impl<'t> Sink<'t> {
    /// An empty sink allowing `steps` subschema evaluations. Allocates nothing.
    pub fn new(steps: usize) -> Sink<'t> {
        Sink {
            failures: Vec::new(),
            steps_left: steps,
            arguments: None,
            hand: 0,
            trace: None,
        }
    }

    /// A sink for an evaluation for the output formats: failures go into the units of the
    /// subschemas they belong to, beside the annotations (see [`crate::output`]). Evaluation
    /// in the collecting flavour records with it; see [`Sink::recording`].
    pub fn for_output(trace: &'t mut Trace, steps: usize) -> Sink<'t> {
        Sink {
            trace: Some(trace),
            ..Sink::new(steps)
        }
    }

    /// A sink for a first-failure check of `instance` in which the first key pass handed the
    /// root (see [`Sink::take_hand`]) admits its members to the argument limits, each right
    /// after evaluating it; [`Sink::arguments_within`] then decides the limits.
    pub fn admitting(
        instance: &Value,
        steps: usize,
        max_depth: usize,
        max_nodes: usize,
        max_string_length: usize,
    ) -> Sink<'t> {
        let budget = match instance {
            Value::Object(map) => {
                ArgumentBudget::for_root(map, max_depth, max_nodes, max_string_length)
            }
            _ => None,
        };
        Sink {
            failures: Vec::new(),
            steps_left: steps,
            arguments: budget,
            hand: instance as *const Value as usize,
            trace: None,
        }
    }

    /// Whether `instance`, which this sink's evaluation found valid, is within the argument
    /// limits: every member of the root was admitted, each once, or else the walk says so.
    #[inline]
    pub fn arguments_within(
        &self,
        instance: &Value,
        max_depth: usize,
        max_nodes: usize,
        max_string_length: usize,
    ) -> bool {
        let members = instance.as_object().map_or(0, Map::len);
        self.arguments
            .as_ref()
            .is_some_and(|b| b.admitted_all(members))
            || arguments_hold(instance, max_depth, max_nodes, max_string_length)
    }

    /// Withdraws the hand: what runs next on the root may fail without failing the whole
    /// check (a branch of `anyOf`, `not`, …), so it must not admit the root's members.
    #[inline]
    pub fn drop_hand(&mut self) {
        self.hand = 0;
    }

    /// Hands the admitting of `v`'s members on to the function about to be called on `v`.
    #[inline]
    pub fn hand(&mut self, v: &Value) {
        self.hand = v as *const Value as usize;
    }

    /// Whether this call, on `v`, is the one the admitting of the root's members was handed
    /// to; if so, takes the hand, so no later call can. (The hand is given just before the
    /// call it is meant for, and every function that takes hands does so on entry, so the
    /// first call that could take it is the one meant.)
    #[inline]
    pub fn take_hand(&mut self, v: &Value) -> bool {
        let handed = self.hand == v as *const Value as usize;
        if handed {
            self.hand = 0;
        }
        handed
    }

    /// Admits one member of the root to the argument limits (see [`ArgumentBudget`]): what
    /// the root's key pass calls in a first-failure check. A sink without a budget admits
    /// everything and leaves the limits to [`arguments_hold`].
    #[inline]
    pub fn admit(&mut self, key: &str, value: &Value) -> bool {
        match &mut self.arguments {
            Some(budget) => budget.admit(key, value),
            None => true,
        }
    }

    /// Counts one subschema evaluation; past the limit, the failure the interpreter gives.
    #[inline]
    fn step(&mut self, ip: &Path<'_>, kp: &Path<'_>, uri: &str, limit: usize) -> Result<(), Halt> {
        if self.steps_left == 0 {
            return Err(too_long(ip, kp, uri, limit));
        }
        self.steps_left -= 1;
        Ok(())
    }

    /// Enters a subschema evaluation `depth` levels down: counts one step, and checks the
    /// depth. Past either limit, the halt both paths give there (steps are counted first).
    #[inline]
    pub fn enter(
        &mut self,
        ip: &Path<'_>,
        kp: &Path<'_>,
        uri: &str,
        depth: usize,
        max_depth: usize,
        max_steps: usize,
    ) -> Result<(), Halt> {
        self.step(ip, kp, uri, max_steps)?;
        if depth >= max_depth {
            return Err(too_deep(ip, kp, uri, max_depth));
        }
        Ok(())
    }

    /// Whether this sink records for the output formats. Then the collecting flavour also
    /// runs every branch, in the collecting flavour, where the other modes stop early or run
    /// the quick check; in the quick flavour nothing changes.
    #[inline]
    pub fn recording(&self) -> bool {
        self.trace.is_some()
    }

    /// Records `failure`: in the innermost open unit when recording.
    #[inline]
    pub fn push(&mut self, failure: Failure) {
        match &mut self.trace {
            Some(trace) => trace.fail(failure),
            None => self.failures.push(failure),
        }
    }

    /// Opens the unit of a subschema applied at `ip`, reached along `kp`, whose absolute
    /// location is `absolute` (when recording).
    #[inline]
    pub fn open(&mut self, ip: &Path<'_>, kp: &Path<'_>, absolute: impl Into<Cow<'static, str>>) {
        if let Some(trace) = &mut self.trace {
            trace.open(ip, kp, absolute.into());
        }
    }

    /// Closes the innermost open unit with its result (when recording).
    #[inline]
    pub fn close(&mut self, valid: bool) {
        if let Some(trace) = &mut self.trace {
            trace.close(valid);
        }
    }

    /// Records an annotation of `keyword`, whose value `value` makes, for the subschema at
    /// `kp` whose absolute location is `absolute` (when recording).
    #[inline]
    pub fn annotate(
        &mut self,
        ip: &Path<'_>,
        kp: &Path<'_>,
        absolute: &str,
        keyword: &str,
        value: impl FnOnce() -> Value,
    ) {
        if let Some(trace) = &mut self.trace {
            trace.annotate(ip, kp, absolute, keyword, value());
        }
    }

    /// The failures recorded.
    pub fn into_failures(self) -> Vec<Failure> {
        self.failures
    }
}

#[cold]
#[inline(never)]
fn too_long(ip: &Path<'_>, kp: &Path<'_>, uri: &str, limit: usize) -> Halt {
    Halt(Box::new(Failure::new(
        ip.pointer(),
        kp.pointer(),
        Some(uri.to_owned()),
        "",
        messages::evaluation_too_long(limit),
    )))
}

/// Records a failure of `keyword` (its absolute location given whole).
pub fn record(
    failures: &mut Sink,
    ip: &Path<'_>,
    kp: &Path<'_>,
    absolute: &'static str,
    keyword: &'static str,
    message: impl Into<Cow<'static, str>>,
) {
    failures.push(Failure::borrowing(
        ip.pointer(),
        kp.pointer(),
        Some(Cow::Borrowed(absolute)),
        keyword,
        message.into(),
    ));
}

/// A first-failure check of generated code in which a key pass over the root (the root
/// schema's own, or that of a `$ref` or `allOf` member it hands the root on to, see
/// [`Sink::take_hand`]) admits every member of an object root to the argument limits (see
/// [`ArgumentBudget`]); `evaluate` runs the root node function in quick mode with the sink
/// it is given. The limits of arguments whose members were not all admitted, each once (not
/// an object, a key pass that did not run) are walked by [`arguments_hold`], so the verdict
/// is always that of evaluating and walking.
#[inline]
pub fn is_valid_admitting(
    instance: &Value,
    steps: usize,
    max_depth: usize,
    max_nodes: usize,
    max_string_length: usize,
    evaluate: impl FnOnce(&mut Sink) -> Result<bool, Halt>,
) -> bool {
    let mut sink = Sink::admitting(instance, steps, max_depth, max_nodes, max_string_length);
    evaluate(&mut sink).unwrap_or(false)
        && sink.arguments_within(instance, max_depth, max_nodes, max_string_length)
}

/// The verdict of a generated validator as [`Validate::validate`] reports it.
pub fn finish(outcome: Result<Vec<Failure>, Halt>) -> Result<(), Error> {
    match outcome {
        Ok(failures) if failures.is_empty() => Ok(()),
        Ok(failures) => Err(Error::invalid_instance(failures)),
        Err(Halt(failure)) => Err(Error::instance_execution_failure(*failure)),
    }
}

/// Which flavour of a generated node function runs, as a value so that calls infer it:
/// `Mode<false>` is the quick check, `Mode<true>` collects every failure (and, with a sink
/// that is [`recording`](Sink::recording), every unit for the output formats).
#[derive(Clone, Copy, Debug)]
pub struct Mode<const COLLECT: bool>;

/// The quick check: stop at the first failure, build no location.
pub const QUICK: Mode<false> = Mode;

/// Collect every failure with its locations.
pub const COLLECT: Mode<true> = Mode;

/// A keyword's annotation in generated code: the keyword, its value as JSON text, and whether
/// only strings are annotated (see [`KeywordAnnotation`](crate::ir::KeywordAnnotation)).
pub type Annotates = (&'static str, &'static str, bool);

/// Closes the unit of a generated node function's subschema at `uri`, applied to `v` at `ip`,
/// with its result `valid`, after recording its `annotations` (when recording for the output
/// formats; see [`Sink::recording`]).
#[cold]
pub fn close_unit(
    failures: &mut Sink,
    v: &Value,
    ip: &Path<'_>,
    kp: &Path<'_>,
    uri: &str,
    annotations: &[Annotates],
    valid: bool,
) {
    for &(keyword, json, strings_only) in annotations {
        if crate::ir::KeywordAnnotation::annotates(strings_only, v) {
            failures.annotate(ip, kp, uri, keyword, || super::literal::value(json));
        }
    }
    failures.close(valid);
}

/// The result of a [`Validate::evaluate`](crate::Validate::evaluate) whose evaluation ended
/// with `outcome`, having recorded `trace`.
pub fn evaluation(
    outcome: Result<bool, Halt>,
    trace: Trace,
) -> Result<crate::output::Evaluation, Error> {
    crate::output::Evaluation::from_trace(outcome.map(|_| trace))
}

/// The result of [`Validate::evaluate`](crate::Validate::evaluate) for a tool's arguments that
/// are not an object, under the schema whose root is at `uri`.
pub fn evaluation_not_object(uri: &str, instance: &Value) -> crate::output::Evaluation {
    crate::output::Evaluation::refused(uri.to_owned(), not_an_object(uri, instance))
}

/// The failure of a tool's arguments that are not an object, at the root of the schema at
/// `uri`: its keyword is `type`, its keyword location empty.
pub fn not_an_object(uri: &str, instance: &Value) -> Failure {
    Failure::new(
        "",
        "",
        Some(uri.to_owned()),
        "type",
        messages::arguments_not_object(instance),
    )
}
