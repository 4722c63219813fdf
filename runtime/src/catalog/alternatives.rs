//! What each branch of a failed `anyOf` or `oneOf` would need: the part of a call's error a
//! model needs most to correct itself, since "matches none of the alternatives" alone does not
//! say what to change.

use crate::{Error, ErrorClass, Failure, Validate};
use serde_json::Value;

/// The branches of one failed `anyOf` or `oneOf`, each with the failures inside it.
///
/// ```
/// use serde_json::json;
/// use toolschema::catalog::Alternatives;
/// use toolschema::{Validate, Validator};
///
/// let v = Validator::new(&json!({"oneOf": [{"required": ["path"]}, {"required": ["url"]}]})).unwrap();
/// let call = json!({});
/// let error = v.validate(&call).unwrap_err();
/// let alternatives = Alternatives::of(&v, &call, &error);
/// assert_eq!(alternatives[0].failure().keyword(), "oneOf");
/// assert_eq!(alternatives[0].branches().len(), 2);
/// assert_eq!(alternatives[0].branches()[1].1[0].message(), "missing required property \"url\"");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alternatives {
    failure: Failure,
    branches: Vec<(usize, Vec<Failure>)>,
}

impl Alternatives {
    /// The alternatives of every failed `anyOf` and `oneOf` among `error`'s failures, from an
    /// evaluation of `arguments` (which `error` is `validator`'s verdict on). Empty when there
    /// are none, or when `error` is not a validation error.
    ///
    /// Where some branches fail on the value of a member that tells the branches apart (a
    /// `const` or `enum` on a member of the value) and others do not, only the others are
    /// kept: they are the ones the call chose.
    pub fn of(validator: &dyn Validate, arguments: &Value, error: &Error) -> Vec<Alternatives> {
        let combinator = |f: &Failure| matches!(f.keyword(), "anyOf" | "oneOf");
        if error.class() != ErrorClass::Validation || !error.failures().iter().any(combinator) {
            return Vec::new();
        }
        let Ok(evaluation) = validator.evaluate(arguments) else {
            return Vec::new();
        };
        evaluation
            .failures()
            .filter(|f| combinator(f))
            .map(|failure| {
                let branches: Vec<(usize, Vec<Failure>)> = evaluation
                    .branches(failure)
                    .into_iter()
                    .map(|(i, failures)| (i, failures.into_iter().cloned().collect()))
                    .collect();
                let chosen: Vec<_> = branches
                    .iter()
                    .filter(|(_, failures)| !failures.iter().any(|f| discriminates(failure, f)))
                    .cloned()
                    .collect();
                let branches = if chosen.is_empty() { branches } else { chosen };
                Alternatives {
                    failure: failure.clone(),
                    branches,
                }
            })
            .collect()
    }

    /// The failure of the `anyOf` or `oneOf` itself.
    pub fn failure(&self) -> &Failure {
        &self.failure
    }

    /// Each branch kept, by its index in the keyword's array, with the failures inside it.
    pub fn branches(&self) -> &[(usize, Vec<Failure>)] {
        &self.branches
    }

    /// Whether these are the alternatives of `failure` (the same keyword at the same place).
    pub fn belong_to(&self, failure: &Failure) -> bool {
        self.failure.keyword_location() == failure.keyword_location()
            && self.failure.instance_location() == failure.instance_location()
    }
}

/// Whether `inner`, a failure inside a branch of `outer`, is a `const` or `enum` on a member
/// of the value `outer` judged: a value that tells the branches apart.
fn discriminates(outer: &Failure, inner: &Failure) -> bool {
    matches!(inner.keyword(), "const" | "enum")
        && inner
            .instance_location()
            .strip_prefix(outer.instance_location())
            .and_then(|rest| rest.strip_prefix('/'))
            .is_some_and(|member| !member.contains('/'))
}
