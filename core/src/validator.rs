//! [`Validator`], the interpreted validator, and [`Validate`], the trait every validator
//! (interpreted or generated) implements.

use crate::build;
use crate::build::limits;
use crate::error::{Error, Failure};
use crate::interp::{Halt, Interpreter};
use crate::ir::Ir;
use crate::options::{Limits, Options};
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
}

impl Validator {
    /// Builds a validator with default [`Options`].
    pub fn new(schema: &Value) -> Result<Validator, Error> {
        Validator::with_options(schema, &Options::default())
    }

    /// Builds a validator.
    pub fn with_options(schema: &Value, options: &Options) -> Result<Validator, Error> {
        Ok(Validator {
            ir: build::build(schema, options)?,
            limits: options.limits.clone(),
        })
    }

    /// A validator for an IR the front end built.
    pub(crate) fn from_ir(ir: Ir, limits: Limits) -> Validator {
        Validator { ir, limits }
    }

    /// A validator for a schema that is not checked against the meta-schema (the meta-schema).
    pub(crate) fn trusted(schema: &Value) -> Validator {
        let options = Options::default();
        Validator {
            ir: build::build_trusted(schema, &options).expect("embedded meta-schemas build"),
            limits: options.limits,
        }
    }

    /// The intermediate representation this validator runs.
    pub fn ir(&self) -> &Ir {
        &self.ir
    }

    fn interpreter(&self) -> Interpreter<'_> {
        Interpreter::new(&self.ir, &self.limits)
    }

    /// `validate` under other limits than the validator's own (the shared meta-schema
    /// validator checks each schema under that build's limits).
    pub(crate) fn validate_limited(&self, instance: &Value, limits: &Limits) -> Result<(), Error> {
        limits::check_arguments(instance, limits).map_err(Error::instance_execution_failure)?;
        let interpreter = Interpreter::new(&self.ir, limits);
        // Most instances checked this way (schemas against their meta-schema) are valid: the
        // first-failure check proves that at a fraction of the cost of collecting, and only a
        // failing instance is evaluated again for its failures.
        if interpreter.is_valid(instance).unwrap_or(false) {
            return Ok(());
        }
        match interpreter.validate(instance) {
            Ok(failures) if failures.is_empty() => Ok(()),
            Ok(failures) => Err(Error::invalid_instance(failures)),
            Err(Halt(failure)) => Err(Error::instance_execution_failure(*failure)),
        }
    }
}

impl Validate for Validator {
    fn is_valid(&self, instance: &Value) -> bool {
        let l = &self.limits;
        let within_limits = || {
            limits::arguments_hold(
                instance,
                l.max_argument_depth,
                l.max_argument_nodes,
                l.max_argument_string_length,
            )
        };
        let holds = || self.interpreter().is_valid(instance).unwrap_or(false);
        // Either order gives the same verdict (see `Ir::compares_arguments`); evaluating first
        // skips the walk over the arguments whenever the call fails.
        if self.ir.compares_arguments {
            return within_limits() && holds();
        }
        holds() && within_limits()
    }

    fn validate(&self, instance: &Value) -> Result<(), Error> {
        self.validate_limited(instance, &self.limits)
    }
}

#[allow(dead_code)]
fn _assert_traits() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<Validator>();
    let _ = |f: Failure| f;
}
