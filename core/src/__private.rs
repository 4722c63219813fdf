//! What generated validators name. Not a public API: its shape follows the code generator.
//!
//! Generated code reaches everything through `::toolschema::__private::…`, so a crate that
//! includes validators needs no dependency of its own on `serde_json` or on the runtime's
//! internal module layout.

pub use crate::build::limits::{ArgumentBudget, arguments_hold};
pub use crate::content::{ContentEncoding, ContentMediaType};
pub use crate::error::{Error, Failure};
pub use crate::format::Format;
pub use crate::interp::{Halt, Marks, Path, Scope, string_length};
pub use crate::ir::{admits, discriminating_member, has_member, same_name};
pub use crate::json::{JsonType, TypeSet, equal, first_duplicate};
pub use crate::messages;
pub use crate::number::{Bound, MultipleOf, is_integer};
pub use crate::options::Limits;
pub use crate::regex::{Pattern, Shape, class_repeat_match_by};
pub use crate::stack::{on_new_stack, stack_low};
pub use crate::validator::Validate;
pub use serde_json;
pub use serde_json::{Map, Number, Value};
use std::borrow::Cow;
pub use std::sync::LazyLock;

/// The argument limits, checked exactly as [`crate::Validator`] checks them (and in the same
/// order relative to evaluation: see [`crate::ir::Ir::compares_arguments`]).
pub fn check_arguments(
    instance: &Value,
    max_depth: usize,
    max_nodes: usize,
    max_string_length: usize,
) -> Result<(), Failure> {
    let limits = Limits::new()
        .max_argument_depth(max_depth)
        .max_argument_nodes(max_nodes)
        .max_argument_string_length(max_string_length);
    crate::build::limits::check_arguments(instance, &limits)
}

/// A number from its JSON text, as the schema wrote it.
pub fn number(text: &str) -> Number {
    serde_json::from_str(text).expect("the code generator writes valid numbers")
}

/// A value from its JSON text.
pub fn value(text: &str) -> Value {
    serde_json::from_str(text).expect("the code generator writes valid JSON")
}

/// A pattern the front end has already compiled once with the same limit.
pub fn pattern(source: &str, size_limit: usize) -> Pattern {
    Pattern::new(source, size_limit).expect("the front end accepted this pattern")
}

/// A `multipleOf` divisor the front end has already accepted.
pub fn multiple_of(text: &str) -> MultipleOf {
    MultipleOf::new(&number(text)).expect("the front end accepted this divisor")
}

/// The failure a limit on evaluation depth produces.
pub fn too_deep(ip: &Path<'_>, kp: &Path<'_>, uri: &str, limit: usize) -> Halt {
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
pub struct Sink {
    failures: Vec<Failure>,
    steps_left: usize,
    arguments: Option<ArgumentBudget>,
    /// The address of the value whose members the next function of the admission chain
    /// entered may admit; 0 when none.
    hand: usize,
}

impl Sink {
    /// An empty sink allowing `steps` subschema evaluations. Allocates nothing.
    pub fn new(steps: usize) -> Sink {
        Sink {
            failures: Vec::new(),
            steps_left: steps,
            arguments: None,
            hand: 0,
        }
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
    pub fn step(
        &mut self,
        ip: &Path<'_>,
        kp: &Path<'_>,
        uri: &str,
        limit: usize,
    ) -> Result<(), Halt> {
        if self.steps_left == 0 {
            return Err(too_long(ip, kp, uri, limit));
        }
        self.steps_left -= 1;
        Ok(())
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
    failures.failures.push(Failure::borrowing(
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
    let budget = match instance {
        Value::Object(map) => {
            ArgumentBudget::for_root(map, max_depth, max_nodes, max_string_length)
        }
        _ => None,
    };
    let members = instance.as_object().map_or(0, Map::len);
    let mut sink = Sink {
        failures: Vec::new(),
        steps_left: steps,
        arguments: budget,
        hand: instance as *const Value as usize,
    };
    evaluate(&mut sink).unwrap_or(false)
        && (sink
            .arguments
            .as_ref()
            .is_some_and(|b| b.admitted_all(members))
            || arguments_hold(instance, max_depth, max_nodes, max_string_length))
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
/// `Mode<false>` is the quick check, `Mode<true>` collects every failure.
#[derive(Clone, Copy, Debug)]
pub struct Mode<const COLLECT: bool>;

/// The quick check: stop at the first failure, build no location.
pub const QUICK: Mode<false> = Mode;

/// Collect every failure with its locations.
pub const COLLECT: Mode<true> = Mode;
