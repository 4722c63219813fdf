//! The JSON-Schema-Test-Suite's numeric cases, run against the number
//! module alone: every group whose schema uses only `minimum`, `maximum`,
//! `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf` and `type`.
//!
//! The suite is found through `JSON_SCHEMA_TEST_SUITE`, or else next to the
//! workspace. Files are parsed with serde_json so that numbers reach the
//! module exactly as they reach the validator.

use std::cmp::Ordering;
use std::path::PathBuf;

use serde_json::{Map, Number, Value};
use toolschema_core::number::{self, Bound, MultipleOf};

fn suite_dir() -> PathBuf {
    let root = std::env::var_os("JSON_SCHEMA_TEST_SUITE").map_or_else(
        || {
            PathBuf::from(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../shared/json-schema-test-suite"
            ))
        },
        PathBuf::from,
    );
    root.join("tests").join("draft2020-12")
}

fn load(file: &str) -> Vec<Value> {
    let path = suite_dir().join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "cannot read {} ({e}); set JSON_SCHEMA_TEST_SUITE to a checkout of the JSON-Schema-Test-Suite",
            path.display()
        )
    });
    match serde_json::from_str(&text) {
        Ok(Value::Array(groups)) => groups,
        other => panic!("{}: not an array of test groups: {other:?}", path.display()),
    }
}

/// One keyword of a schema, decoded the way a validator would.
enum Check {
    Minimum(Bound),
    Maximum(Bound),
    ExclusiveMinimum(Bound),
    ExclusiveMaximum(Bound),
    MultipleOf(MultipleOf),
    Type(Vec<String>),
}

impl Check {
    fn passes(&self, data: &Value) -> bool {
        let n = match (self, data) {
            (Check::Type(names), _) => return names.iter().any(|t| type_matches(t, data)),
            (_, Value::Number(n)) => n,
            // Numeric keywords say nothing about other types.
            _ => return true,
        };
        match self {
            Check::Minimum(b) => b.compare(n) != Ordering::Less,
            Check::Maximum(b) => b.compare(n) != Ordering::Greater,
            Check::ExclusiveMinimum(b) => b.compare(n) == Ordering::Greater,
            Check::ExclusiveMaximum(b) => b.compare(n) == Ordering::Less,
            Check::MultipleOf(m) => m.divides(n),
            Check::Type(_) => true,
        }
    }
}

fn type_matches(name: &str, data: &Value) -> bool {
    match (name, data) {
        ("integer", Value::Number(n)) => number::is_integer(n),
        ("number", Value::Number(_))
        | ("string", Value::String(_))
        | ("object", Value::Object(_))
        | ("array", Value::Array(_))
        | ("boolean", Value::Bool(_))
        | ("null", Value::Null) => true,
        _ => false,
    }
}

fn number_of<'a>(key: &str, v: &'a Value) -> &'a Number {
    match v {
        Value::Number(n) => n,
        _ => panic!("{key} is not a number: {v}"),
    }
}

/// The checks of a schema, or `None` when it uses anything else.
fn decode(schema: &Map<String, Value>) -> Option<Vec<Check>> {
    let mut checks = Vec::new();
    for (key, v) in schema {
        let check = match key.as_str() {
            "$schema" => continue,
            "minimum" => Check::Minimum(Bound::new(number_of(key, v))),
            "maximum" => Check::Maximum(Bound::new(number_of(key, v))),
            "exclusiveMinimum" => Check::ExclusiveMinimum(Bound::new(number_of(key, v))),
            "exclusiveMaximum" => Check::ExclusiveMaximum(Bound::new(number_of(key, v))),
            "multipleOf" => {
                let d = number_of(key, v);
                Check::MultipleOf(
                    MultipleOf::new(d).unwrap_or_else(|| panic!("rejected divisor {d}")),
                )
            }
            "type" => Check::Type(match v {
                Value::String(s) => vec![s.clone()],
                Value::Array(a) => a
                    .iter()
                    .map(|t| t.as_str().expect("type names are strings").to_owned())
                    .collect(),
                _ => panic!("bad type {v}"),
            }),
            _ => return None,
        };
        checks.push(check);
    }
    Some(checks)
}

/// Runs every applicable case of `file`; returns how many ran.
fn run(file: &str) -> usize {
    let mut ran = 0;
    let mut failures = Vec::new();
    for group in load(file) {
        let Some(Value::Object(schema)) = group.get("schema") else {
            continue;
        };
        let Some(checks) = decode(schema) else {
            continue;
        };
        let tests = group["tests"].as_array().expect("tests");
        for test in tests {
            let data = &test["data"];
            let want = test["valid"].as_bool().expect("valid");
            let got = checks.iter().all(|c| c.passes(data));
            if got != want {
                failures.push(format!(
                    "{file}: {} / {}: data {data}: expected {want}, got {got}",
                    group["description"], test["description"]
                ));
            }
            ran += 1;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    ran
}

#[test]
fn minimum() {
    assert_eq!(run("minimum.json"), 11);
}

#[test]
fn maximum() {
    assert_eq!(run("maximum.json"), 8);
}

#[test]
fn exclusive_minimum() {
    assert_eq!(run("exclusiveMinimum.json"), 4);
}

#[test]
fn exclusive_maximum() {
    assert_eq!(run("exclusiveMaximum.json"), 4);
}

#[test]
fn multiple_of() {
    assert_eq!(run("multipleOf.json"), 11);
}

#[test]
fn type_keyword() {
    assert_eq!(run("type.json"), 80);
}

#[test]
fn float_overflow() {
    assert_eq!(run("optional/float-overflow.json"), 1);
}

#[cfg(feature = "arbitrary-precision")]
#[test]
fn bignum() {
    assert_eq!(run("optional/bignum.json"), 9);
}

/// Without arbitrary precision the bignum file still parses, but its
/// numbers arrive as rounded f64: the two high-precision bounds collapse
/// onto their data, which is the documented loss.
#[cfg(not(feature = "arbitrary-precision"))]
#[test]
fn bignum_without_arbitrary_precision_is_rounded() {
    let groups = load("optional/bignum.json");
    let group = groups
        .iter()
        .find(|g| g["schema"].get("exclusiveMaximum").is_some())
        .expect("an exclusiveMaximum group");
    let (Value::Number(bound), Value::Number(data)) = (
        &group["schema"]["exclusiveMaximum"],
        &group["tests"][0]["data"],
    ) else {
        panic!("unexpected bignum.json layout");
    };
    assert_eq!(Bound::new(bound).compare(data), Ordering::Equal);
    let big = groups[0]["tests"][0]["data"].as_number().expect("number");
    assert!(big.is_f64() && number::is_integer(big));
}
