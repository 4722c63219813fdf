//! Arbitrary instances against the fixed set, on the interpreter: `is_valid` equals
//! `validate().is_ok()`, a failure list is non-empty exactly when the call is invalid, and every
//! failure points at a value that exists in the instance.

use serde_json::Value;
use toolschema::{ErrorSubject, Validate};
use toolschema_reliability_set as set;

/// Two bytes choose a schema of [`set::SET`], the rest is the instance; both format settings.
///
/// ```
/// toolschema_reliability::evaluation::check(b"\0\0{\"a\": [1, 2]}");
/// ```
pub fn check(data: &[u8]) {
    let Some((i, instance)) = set::split_input(data) else {
        return;
    };
    for formats in [false, true] {
        consistent(set::SET[i].name, set::interpreted(i, formats), &instance);
    }
}

/// The properties every validator holds on every instance.
///
/// ```
/// use serde_json::json;
/// let v = toolschema::Validator::new(&json!({"type": "integer"})).unwrap();
/// toolschema_reliability::evaluation::consistent("integer", &v, &json!("x"));
/// ```
pub fn consistent(name: &str, validator: &dyn Validate, instance: &Value) {
    let quick = validator.is_valid(instance);
    match validator.validate(instance) {
        Ok(()) => assert!(quick, "{name}: is_valid false, validate Ok, on {instance}"),
        Err(e) => {
            assert!(!quick, "{name}: is_valid true, validate {e}, on {instance}");
            assert_eq!(e.subject(), ErrorSubject::Instance, "{name}: {e}");
            assert!(
                !e.failures().is_empty(),
                "{name}: no failures, on {instance}"
            );
            for f in e.failures() {
                assert!(
                    instance.pointer(f.instance_location()).is_some(),
                    "{name}: failure at {:?}, not in {instance}",
                    f.instance_location()
                );
                assert!(
                    is_pointer(f.keyword_location()),
                    "{name}: keyword location {:?}",
                    f.keyword_location()
                );
            }
        }
    }
}

/// RFC 6901 syntax: empty, or `/`-separated tokens with `~` only in `~0` and `~1`.
pub(crate) fn is_pointer(text: &str) -> bool {
    if text.is_empty() {
        return true;
    }
    text.starts_with('/')
        && text
            .split('~')
            .skip(1)
            .all(|rest| rest.starts_with('0') || rest.starts_with('1'))
}
