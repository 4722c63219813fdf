//! [`Validator`], the interpreted validator, and [`Validate`], the trait every validator
//! (interpreted or generated) implements.

use crate::frontend;

use crate::error::{Error, Failure};
use crate::eval::{arguments as limits, is_valid_admitting, validate_admitting};
use crate::interp::Interpreter;
use crate::ir::Ir;
use crate::json::TypeSet;
use crate::options::{Limits, Options};
use crate::output::Evaluation;
use serde_json::Value;

/// Checks arguments against a schema.
///
/// Implemented by the interpreted [`Validator`] and by every validator the code generator
/// emits, so a host can hold either behind `&dyn Validate`.
///
/// ```
/// use serde_json::json;
/// use toolschema::{Validate, Validator};
/// fn check(v: &dyn Validate) -> bool {
///     v.is_valid(&json!({"query": "rust"}))
/// }
/// let v = Validator::new(&json!({"required": ["query"]})).unwrap();
/// assert!(check(&v));
/// ```
pub trait Validate {
    /// Whether `instance` is valid. Stops at the first failure and builds no locations. An
    /// instance past a limit is not valid (the check fails closed).
    fn is_valid(&self, instance: &Value) -> bool;

    /// `Ok(())`, or an error carrying every failure with its locations (class `Validation`),
    /// or the limit that stopped the check (class `ExecutionFailure`).
    fn validate(&self, instance: &Value) -> Result<(), Error>;

    /// Evaluates `instance` for the output formats and annotations of 2020-12 core §12: every
    /// subschema applied, with its failures and annotations (see [`Evaluation`]). Costs more
    /// than [`validate`](Validate::validate): every branch of `anyOf` and `oneOf` runs, and
    /// every unit is recorded. `Err` only when a limit stopped the evaluation (class
    /// `ExecutionFailure`).
    ///
    /// ```
    /// use serde_json::json;
    /// use toolschema::{Validate, Validator};
    /// let v = Validator::new(&json!({"properties": {"n": {"type": "integer"}}})).unwrap();
    /// let evaluation = v.evaluate(&json!({"n": "x"})).unwrap();
    /// assert_eq!(evaluation.basic()["errors"][0]["keywordLocation"], "/properties/n/type");
    /// ```
    fn evaluate(&self, instance: &Value) -> Result<Evaluation, Error>;
}

/// An interpreted validator for one schema: built once, used for any number of instances.
///
/// ```
/// use serde_json::json;
/// use toolschema::{Validate, Validator};
/// let schema = json!({
///     "type": "object",
///     "properties": {"query": {"type": "string", "minLength": 1}},
///     "required": ["query"],
/// });
/// let validator = Validator::new(&schema).unwrap();
/// assert!(validator.is_valid(&json!({"query": "rust"})));
/// let err = validator.validate(&json!({"query": ""})).unwrap_err();
/// assert_eq!(err.failures()[0].instance_location(), "/query");
/// ```
#[derive(Clone, Debug)]
pub struct Validator {
    ir: Ir,
    limits: Limits,
    /// [`Ir::root_types`], read before every first-failure check.
    root_types: Option<TypeSet>,
    /// [`Ir::counts_evaluation`] under `limits`, read by every evaluation.
    counts: bool,
}

impl Validator {
    /// Builds a validator with default [`Options`].
    pub fn new(schema: &Value) -> Result<Validator, Error> {
        Validator::with_options(schema, &Options::default())
    }

    /// Builds a validator.
    pub fn with_options(schema: &Value, options: &Options) -> Result<Validator, Error> {
        let ir = frontend::build(schema, options)?;
        Ok(Validator::from_ir(ir, options.limits.clone()))
    }

    /// A validator for an IR the front end built.
    pub(crate) fn from_ir(ir: Ir, limits: Limits) -> Validator {
        let root_types = ir.root_types();
        let counts = ir.counts_evaluation(&limits);
        Validator {
            ir,
            limits,
            root_types,
            counts,
        }
    }

    /// A validator for a schema that is not checked against the meta-schema (the meta-schema).
    pub(crate) fn trusted(schema: &Value) -> Validator {
        let options = Options::default();
        let ir = frontend::build_trusted(schema, &options).expect("embedded meta-schemas build");
        Validator::from_ir(ir, options.limits)
    }

    /// The intermediate representation this validator runs.
    pub fn ir(&self) -> &Ir {
        &self.ir
    }

    fn interpreter(&self) -> Interpreter<'_> {
        Interpreter::counting(&self.ir, &self.limits, self.counts)
    }

    /// `validate` under other limits than the validator's own (the shared meta-schema
    /// validator checks each schema under that build's limits).
    pub(crate) fn validate_limited(&self, instance: &Value, limits: &Limits) -> Result<(), Error> {
        let interpreter = Interpreter::new(&self.ir, limits);
        // Where the IR says so (`Ir::validate_checks_first`), only an instance that fails the
        // first-failure check is evaluated again for its failures.
        if self.ir.validate_checks_first() && self.holds(&interpreter, instance, limits) {
            return Ok(());
        }
        let (depth, nodes, strings) = argument_limits(limits);
        let steps = limits.max_evaluation_steps;
        validate_admitting(instance, steps, depth, nodes, strings, |sink| {
            interpreter.validate_in(instance, sink)
        })
    }

    /// Whether `instance` is valid and within the argument limits of `limits`.
    fn holds(&self, interpreter: &Interpreter<'_>, instance: &Value, limits: &Limits) -> bool {
        // An instance of a type the root rules out fails before anything is set up.
        if self.root_types.is_some_and(|t| !t.matches(instance)) {
            return false;
        }
        let (depth, nodes, strings) = argument_limits(limits);
        // Evaluation admits the arguments to the limits as it goes, and a failing call never
        // walks them.
        let steps = limits.max_evaluation_steps;
        is_valid_admitting(instance, steps, depth, nodes, strings, |sink| {
            interpreter.is_valid_in(instance, sink)
        })
    }
}

/// The argument limits of `limits`: depth, values, string length.
fn argument_limits(limits: &Limits) -> (usize, usize, usize) {
    (
        limits.max_argument_depth,
        limits.max_argument_nodes,
        limits.max_argument_string_length,
    )
}

impl Validate for Validator {
    fn is_valid(&self, instance: &Value) -> bool {
        self.holds(&self.interpreter(), instance, &self.limits)
    }

    fn validate(&self, instance: &Value) -> Result<(), Error> {
        self.validate_limited(instance, &self.limits)
    }

    fn evaluate(&self, instance: &Value) -> Result<Evaluation, Error> {
        limits::check_arguments(instance, &self.limits)
            .map_err(Error::instance_execution_failure)?;
        self.interpreter().evaluate(instance)
    }
}

#[allow(dead_code)]
fn _assert_traits() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<Validator>();
    let _ = |f: Failure| f;
}
