//! One evaluation's state: the failures recorded, the evaluation steps left, and the
//! argument limits admitted as evaluation goes; the halt a limit produces.

use super::admission::{Admission, Claim, Mark};
use super::arguments::{arguments_hold, check_argument_limits};
use super::path::Path;
use super::trace::Trace;
use crate::error::{Error, Failure};
use crate::messages;
use serde_json::Value;
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

/// What one evaluation carries along: where its failures go, the evaluation steps left (the
/// interpreter's `max_evaluation_steps`), and the arguments admitted to their limits so far
/// (see [`super::admission`]).
///
/// Everything it records goes into storage the caller lends it, so that a sink needs no drop:
/// one that did would pay for it on every call, the first-failure check's included.
#[derive(Debug)]
pub struct Sink<'t> {
    out: Out<'t>,
    steps_left: usize,
    admission: Admission,
}

/// Where a sink's failures go.
#[derive(Debug)]
enum Out<'t> {
    /// Nowhere: a first-failure check records none.
    Nowhere,
    /// Into a list, for `validate`.
    List(&'t mut Vec<Failure>),
    /// Into the units of an evaluation for the output formats (see [`Sink::recording`]).
    Trace(&'t mut Trace),
}

impl<'t> Sink<'t> {
    /// A sink for a first-failure check allowing `steps` subschema evaluations, which records
    /// nothing.
    pub fn new(steps: usize) -> Sink<'t> {
        Sink {
            out: Out::Nowhere,
            steps_left: steps,
            admission: Admission::OFF,
        }
    }

    /// A sink that collects every failure into `failures`.
    ///
    /// ```
    /// use toolschema::eval::{Path, Sink, record};
    ///
    /// let mut failures = Vec::new();
    /// let mut sink = Sink::collecting(&mut failures, 100);
    /// record(&mut sink, &Path::ROOT, &Path::ROOT.key("type"), "urn:x#/type", "type", "not a string");
    /// assert_eq!(failures.len(), 1);
    /// assert_eq!(failures[0].keyword_location(), "/type");
    /// ```
    pub fn collecting(failures: &'t mut Vec<Failure>, steps: usize) -> Sink<'t> {
        Sink {
            out: Out::List(failures),
            ..Sink::new(steps)
        }
    }

    /// A sink for an evaluation for the output formats: failures go into the units of the
    /// subschemas they belong to, beside the annotations (see [`crate::output`]). Evaluation
    /// in the collecting flavour records with it; see [`Sink::recording`].
    pub fn for_output(trace: &'t mut Trace, steps: usize) -> Sink<'t> {
        Sink {
            out: Out::Trace(trace),
            ..Sink::new(steps)
        }
    }

    /// A sink that admits `instance` to these argument limits as evaluation goes (see
    /// [`super::admission`]); [`Sink::admitted`] then says whether it is within them.
    #[inline]
    pub fn admitting(
        instance: &Value,
        steps: usize,
        max_depth: usize,
        max_nodes: usize,
        max_string_length: usize,
    ) -> Sink<'t> {
        Sink {
            admission: Admission::of(instance, max_depth, max_nodes, max_string_length),
            ..Sink::new(steps)
        }
    }

    /// Whether this sink admits the arguments to their limits as evaluation goes (see
    /// [`Sink::admitting`]): otherwise nothing is claimed, and a branch that fails has no
    /// admission to return to.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolschema::eval::Sink;
    ///
    /// let call = json!({"path": "/tmp"});
    /// assert!(Sink::admitting(&call, 100, 8, 100, 64).admits());
    /// assert!(!Sink::new(100).admits());
    /// ```
    #[inline]
    pub fn admits(&self) -> bool {
        self.admission.is_on()
    }

    /// Whether evaluation admitted every value of `instance`, which this sink was made for,
    /// to the argument limits: then it is within them. Otherwise they are walked.
    #[inline]
    pub fn admitted(&self, instance: &Value) -> bool {
        self.admission.admitted(instance)
    }

    /// A pass over the `members` members of `v` claims it, if it is the container awaited:
    /// the pass then admits each member ([`Sink::admit`], [`Sink::settle`]). Halts when `v`
    /// is over the limits.
    #[inline(always)]
    pub fn claim(&mut self, v: &Value, members: usize) -> Result<Claim, Halt> {
        self.admission.claim(v, members)
    }

    /// The claim of a pass over the first `covered` items of the array `v`, of `len` items:
    /// a pass claims only an array whose every item it evaluates (see
    /// `Check::items_from_first`).
    #[inline(always)]
    pub fn claim_items(&mut self, v: &Value, len: usize, covered: usize) -> Result<Claim, Halt> {
        if len > covered {
            return Ok(Claim::NONE);
        }
        self.admission.claim(v, len)
    }

    /// Admits the member `v` (named `name`, for an object's) of a claimed container, before
    /// it is evaluated.
    #[inline]
    pub fn admit(&mut self, claim: Claim, name: Option<&str>, v: &Value) -> Result<(), Halt> {
        self.admission.admit(claim, name, v)
    }

    /// Settles the member `v` of a claimed container, after it was evaluated: walks it when
    /// no pass claimed it.
    #[inline]
    pub fn settle(&mut self, claim: Claim, v: &Value) -> Result<(), Halt> {
        self.admission.settle(claim, v)
    }

    /// Admits the member `v` of a claimed container whose subschemas apply no other, all of
    /// it: [`Sink::admit`] and [`Sink::settle`] at once.
    #[inline]
    pub fn admit_whole(&mut self, claim: Claim, name: Option<&str>, v: &Value) -> Result<(), Halt> {
        self.admission.admit_whole(claim, name, v)
    }

    /// The state of admission before a branch whose failure does not end the evaluation.
    #[inline]
    pub fn mark(&self) -> Mark {
        self.admission.mark()
    }

    /// Back to `mark`, after the branch it was taken before failed: what the branch claimed,
    /// and may have left half admitted, is awaited again.
    #[inline]
    pub fn rollback(&mut self, mark: Mark) {
        self.admission.rollback(mark);
    }

    /// The evaluation steps left, for [`Sink::resume`].
    #[inline]
    pub fn steps_left(&self) -> usize {
        self.steps_left
    }

    /// Back to where a subschema evaluation began, at `mark` with `steps_left` steps (from
    /// [`Sink::mark`] and [`Sink::steps_left`]), to run it again: both back ends run a branch
    /// that halted in the quick flavour, which locates no halt, again collecting, which halts
    /// at the same place with its location.
    ///
    /// ```
    /// use toolschema::eval::{Path, Sink};
    ///
    /// let mut sink = Sink::new(1);
    /// let (mark, steps) = (sink.mark(), sink.steps_left());
    /// let at = Path::ROOT;
    /// assert!(sink.enter(&at, &at, "urn:x#", 0, 8, 1).is_ok());
    /// assert!(sink.enter(&at, &at, "urn:x#", 0, 8, 1).is_err());
    /// sink.resume(mark, steps);
    /// assert!(sink.enter(&at, &at, "urn:x#", 0, 8, 1).is_ok());
    /// ```
    #[inline]
    pub fn resume(&mut self, mark: Mark, steps_left: usize) {
        self.admission.rollback(mark);
        self.steps_left = steps_left;
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
        matches!(self.out, Out::Trace(_))
    }

    /// Records `failure`: in the innermost open unit when recording. A first-failure check
    /// records none; a failure it is handed is dropped.
    #[inline]
    pub fn push(&mut self, failure: Failure) {
        match &mut self.out {
            Out::List(list) => list.push(failure),
            _ => self.push_elsewhere(failure),
        }
    }

    /// [`Sink::push`] anywhere but into a list: kept out of line, so that pushing into one,
    /// what `validate` does, stays small enough to inline.
    #[inline(never)]
    fn push_elsewhere(&mut self, failure: Failure) {
        match &mut self.out {
            Out::Trace(trace) => trace.fail(failure),
            _ => debug_assert!(false, "a first-failure check recorded {failure:?}"),
        }
    }

    /// Opens the unit of a subschema applied at `ip`, reached along `kp`, whose absolute
    /// location is `absolute` (when recording).
    #[inline]
    pub fn open(&mut self, ip: &Path<'_>, kp: &Path<'_>, absolute: impl Into<Cow<'static, str>>) {
        if let Out::Trace(trace) = &mut self.out {
            trace.open(ip, kp, absolute.into());
        }
    }

    /// Closes the innermost open unit with its result (when recording).
    #[inline]
    pub fn close(&mut self, valid: bool) {
        if let Out::Trace(trace) = &mut self.out {
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
        if let Out::Trace(trace) = &mut self.out {
            trace.annotate(ip, kp, absolute, keyword, value());
        }
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

/// A first-failure check that admits the arguments to their limits as it evaluates them (see
/// [`super::admission`]): `evaluate` runs the check with the sink it is given. Arguments that
/// evaluation did not admit whole are walked, and so are those admission cannot take (a
/// root over the limits, a depth limit beyond the recursive walk), before evaluation; the
/// verdict is always that of evaluating and walking.
#[inline]
pub fn is_valid_admitting(
    instance: &Value,
    steps: usize,
    max_depth: usize,
    max_nodes: usize,
    max_string_length: usize,
    evaluate: impl FnOnce(&mut Sink) -> Result<bool, Halt>,
) -> bool {
    let hold = || arguments_hold(instance, max_depth, max_nodes, max_string_length);
    let mut sink = Sink::admitting(instance, steps, max_depth, max_nodes, max_string_length);
    let admitting = sink.admits();
    if !admitting && !hold() {
        return false;
    }
    // `evaluate` is called in one place only, so that it (with the root's function in
    // generated code) is inlined here rather than called.
    evaluate(&mut sink).unwrap_or(false) && (!admitting || sink.admitted(instance) || hold())
}

/// Every failure of `instance`, collected by `evaluate` with a sink that admits the arguments
/// to their limits as it goes (see [`is_valid_admitting`]). Arguments over a limit fail with
/// that limit's `ExecutionFailure`, whatever evaluation found: where evaluation did not admit
/// them whole, or halted, they are walked for it.
#[inline]
pub fn validate_admitting(
    instance: &Value,
    steps: usize,
    max_depth: usize,
    max_nodes: usize,
    max_string_length: usize,
    evaluate: impl FnOnce(&mut Sink) -> Result<bool, Halt>,
) -> Result<(), Error> {
    let walk = || {
        check_argument_limits(instance, max_depth, max_nodes, max_string_length)
            .map_err(Error::instance_execution_failure)
    };
    let mut failures = Vec::new();
    let mut sink = Sink {
        out: Out::List(&mut failures),
        ..Sink::admitting(instance, steps, max_depth, max_nodes, max_string_length)
    };
    if !sink.admits() {
        walk()?;
    }
    let outcome = evaluate(&mut sink);
    if !(outcome.is_ok() && sink.admitted(instance)) && sink.admits() {
        walk()?;
    }
    finish(outcome.map(|_| failures))
}

/// A generated function's call of a subschema that applies no other, in the flavour `C`: when
/// collecting without recording, its `quick` check first, and its `collect`ing flavour only
/// when that fails. A value that passes has no failure to collect, and the quick check, small
/// enough to be inlined, spares it the call that opens and closes a unit.
#[inline(always)]
pub fn quick_first<const C: bool>(
    failures: &mut Sink,
    quick: impl FnOnce(&mut Sink) -> Result<bool, Halt>,
    collect: impl FnOnce(&mut Sink) -> Result<bool, Halt>,
) -> Result<bool, Halt> {
    if !C {
        return quick(failures);
    }
    if !failures.recording() && quick(failures)? {
        return Ok(true);
    }
    collect(failures)
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
