//! Typed arguments held to their validators: `parse` accepts what the validator accepts and
//! serializes it back to an equal value, and fails on the rest with the validator's error.

use crate::{load, options_for};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};
use toolschema::{Error, Validate, Validator};

/// `parse` of a generated type, its result serialized back to JSON.
pub type RoundTrip = fn(&Value) -> Result<Value, Error>;

/// The interpreter's validator of one suite group, as a unit value that generated types can
/// name: the interpreter builds the same IR the types are generated from, and gives the
/// compiled validators' verdicts and failures (the suite tests hold them to it).
#[derive(Clone, Copy, Debug)]
pub struct Interpreted {
    file: &'static str,
    group: usize,
}

impl Interpreted {
    /// Group `group` of the suite file `file`.
    pub const fn new(file: &'static str, group: usize) -> Interpreted {
        Interpreted { file, group }
    }

    fn validator(&self) -> Validator {
        static CACHE: OnceLock<Mutex<HashMap<(&'static str, usize), Validator>>> = OnceLock::new();
        let mut cache = CACHE
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        cache
            .entry((self.file, self.group))
            .or_insert_with(|| {
                let schema = &load(self.file)[self.group]["schema"];
                Validator::with_options(schema, &options_for(self.file))
                    .expect("the group compiled, so it builds")
            })
            .clone()
    }
}

impl Validate for Interpreted {
    fn is_valid(&self, instance: &Value) -> bool {
        self.validator().is_valid(instance)
    }

    fn validate(&self, instance: &Value) -> Result<(), Error> {
        self.validator().validate(instance)
    }

    fn evaluate(&self, instance: &Value) -> Result<toolschema::Evaluation, Error> {
        self.validator().evaluate(instance)
    }
}

/// `parse` (through `round_trip`) on `instance`, against `validator`: `Ok(true)` when both
/// accept it and it comes back equal under JSON Schema equality, `Ok(false)` when both
/// reject it with the same error; otherwise what went wrong.
pub fn check(
    round_trip: RoundTrip,
    validator: &dyn Validate,
    instance: &Value,
) -> Result<bool, String> {
    match (round_trip(instance), validator.validate(instance)) {
        (Ok(back), Ok(())) if toolschema::json::equal(&back, instance) => Ok(true),
        (Ok(back), Ok(())) => Err(format!("came back as {back}")),
        (Err(a), Err(b)) if a == b => Ok(false),
        (Err(a), Err(b)) => Err(format!("parse fails with {a:?}, the validator with {b:?}")),
        (Err(a), Ok(())) => Err(format!("valid, but parse fails with {a:?}")),
        (Ok(back), Err(b)) => Err(format!("invalid ({b:?}), but parse gives {back}")),
    }
}

/// What one suite file's typed round trips found.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Tally {
    /// Valid instances that parsed and came back equal.
    pub valid: usize,
    /// Of those, instances that are objects under a schema the tool rules admit.
    pub valid_object_root: usize,
    /// Invalid instances that failed with the validator's error.
    pub invalid: usize,
}

/// Every case of every group of `file` that has a type, through its round trip.
pub fn check_suite_file(file: &'static str, groups: &[(usize, RoundTrip)]) -> Tally {
    let cases = load(file);
    let mut tally = Tally::default();
    for &(group, round_trip) in groups {
        let validator = Interpreted::new(file, group);
        let schema = &cases[group]["schema"];
        let tool = toolschema::frontend::build_tool(schema, &options_for(file)).is_ok();
        for (c, case) in cases[group]["tests"]
            .as_array()
            .into_iter()
            .flatten()
            .enumerate()
        {
            let data = &case["data"];
            match check(round_trip, &validator, data) {
                Ok(true) => {
                    tally.valid += 1;
                    if tool && data.is_object() {
                        tally.valid_object_root += 1;
                    }
                }
                Ok(false) => tally.invalid += 1,
                Err(e) => panic!("{file} group {group} case {c} ({data}): {e}"),
            }
        }
    }
    tally
}
