//! What generated argument types name (the `types` feature). Not a public API: its shape
//! follows the code generator.
//!
//! Generated types derive `serde`'s traits through this module, so a crate that uses them
//! needs no `serde` dependency of its own, and they parse arguments through [`parse`], which
//! validates first: the derived deserializer only ever sees arguments the schema accepts.

use crate::{Error, Failure, Validate};
use serde::de::{DeserializeOwned, Error as _};
use serde::{Deserializer, Serializer};
use serde_json::{Number, Value};

pub use serde::{self, Deserialize, Serialize};
pub use serde_json;

/// Validates `arguments` with `validator`, then deserializes them into `T`.
///
/// A failing call returns the validator's error, with every failure and its locations. A
/// passing call always deserializes: the generated type accepts every value its schema
/// accepts. Were it not to, the error says so (class `ExecutionFailure`) rather than
/// panicking; the tests of the code generator show that it does not happen.
pub fn parse<T: DeserializeOwned>(validator: &dyn Validate, arguments: &Value) -> Result<T, Error> {
    if !validator.is_valid(arguments) {
        validator.validate(arguments)?;
    }
    from_valid(arguments)
}

/// Deserializes arguments that have passed validation into `T` (see
/// [`crate::Arguments::from_valid`]).
pub fn from_valid<T: DeserializeOwned>(arguments: &Value) -> Result<T, Error> {
    let normalized;
    let value = if holds_integral_float(arguments) {
        normalized = integral_floats_as_integers(arguments.clone());
        &normalized
    } else {
        arguments
    };
    T::deserialize(value).map_err(|e| {
        Error::instance_execution_failure(Failure::new(
            "",
            "",
            None,
            "",
            format!("arguments the schema accepts did not deserialize into their type: {e}"),
        ))
    })
}

/// 2^63 and 2^64, the ends of `i64` and `u64` (exact as `f64`).
const TWO_63: f64 = 9_223_372_036_854_775_808.0;
const TWO_64: f64 = 18_446_744_073_709_551_616.0;

/// An integer in a float's clothing (`1.0`): JSON Schema counts it as an integer, serde's
/// integer types do not, so [`parse`] rewrites it as the integer it equals.
fn integral(n: &Number) -> Option<Number> {
    let x = n.as_f64().filter(|_| n.is_f64())?;
    // Beyond 2^64 an integral float stays a float: no Rust integer type is generated for
    // bounds that reach it.
    if x.fract() != 0.0 {
        None
    } else if (-TWO_63..TWO_63).contains(&x) {
        Some(Number::from(x as i64))
    } else if (0.0..TWO_64).contains(&x) {
        Some(Number::from(x as u64))
    } else {
        None
    }
}

fn holds_integral_float(value: &Value) -> bool {
    match value {
        Value::Number(n) => integral(n).is_some(),
        Value::Array(items) => items.iter().any(holds_integral_float),
        Value::Object(map) => map.values().any(holds_integral_float),
        _ => false,
    }
}

fn integral_floats_as_integers(value: Value) -> Value {
    match value {
        Value::Number(n) => Value::Number(integral(&n).unwrap_or(n)),
        Value::Array(items) => items.into_iter().map(integral_floats_as_integers).collect(),
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| (k, integral_floats_as_integers(v)))
                .collect(),
        ),
        other => other,
    }
}

/// Deserializes an optional member that is present: `null` is then a value of `T` (or an
/// error), never the member's absence, so `{"a": null}` and `{}` stay apart.
pub fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    deserializer: D,
) -> Result<Option<T>, D::Error> {
    T::deserialize(deserializer).map(Some)
}

/// Deserializes the value of a `const` type: `json`, under JSON Schema equality, or an error.
pub fn deserialize_const<'de, D: Deserializer<'de>>(
    deserializer: D,
    json: &str,
) -> Result<(), D::Error> {
    let value = Value::deserialize(deserializer)?;
    let expected: Value = serde_json::from_str(json).map_err(D::Error::custom)?;
    if crate::json::equal(&value, &expected) {
        Ok(())
    } else {
        Err(D::Error::custom(format_args!("expected {json}")))
    }
}

/// Serializes the value of a `const` type, `json`.
pub fn serialize_const<S: Serializer>(serializer: S, json: &str) -> Result<S::Ok, S::Error> {
    let value: Value = serde_json::from_str(json).map_err(serde::ser::Error::custom)?;
    value.serialize(serializer)
}
