//! The valid path of compiled `is_valid` allocates nothing, also where a keyword applies a
//! subschema to something that is not a `Value` of the arguments: `propertyNames` checks
//! each member name in place, through `$ref`, `anyOf`, `not`, `enum`, `const`, patterns and
//! lengths; `required` over more properties than one 64-bit mask holds. (Every admitted MCP
//! tool is checked the same way in `tests/mcp.rs`.)

#![deny(warnings)]

use serde_json::json;
use toolschema::{Validate, Validator};
use toolschema_conformance::{agree, counting};

mod compiled {
    include!(concat!(env!("OUT_DIR"), "/compiled_allocations.rs"));
}

#[global_allocator]
static ALLOCATOR: counting::Counting = counting::Counting;

fn interpreter() -> Validator {
    let schema = serde_json::from_str(include_str!("../allocations/property_names.json")).unwrap();
    Validator::new(&schema).unwrap()
}

#[test]
fn property_names_are_checked_without_allocating() {
    let interpreted = interpreter();
    let valid = json!({
        "headers": {"Accept": "text/plain", "X-Trace-Id": "abc"},
        "labels": {"env": "prod", "x-owner": "me"},
        "flags": {"verbose": true},
        "codes": {"abc": 1, "xyz": 2},
        "other": {"anything": 1}
    });
    assert_eq!(
        agree(&compiled::PropertyNames, &interpreted, &valid),
        Ok(true)
    );
    // Once to build the lazily compiled patterns, then counted.
    assert!(compiled::PropertyNames.is_valid(&valid));
    let before = counting::count();
    assert!(compiled::PropertyNames.is_valid(&valid));
    assert_eq!(
        counting::count() - before,
        0,
        "allocations on the valid path"
    );
    // The counter sees this thread's allocations (so the zero above means none happened).
    let before = counting::count();
    std::hint::black_box(Vec::<u8>::with_capacity(64));
    assert!(counting::count() > before);
}

#[test]
fn every_way_a_member_name_fails_agrees_with_the_interpreter() {
    let interpreted = interpreter();
    for (instance, what) in [
        (json!({"headers": {"Host": "h"}}), "not const"),
        (json!({"headers": {"": "h"}}), "minLength via $ref"),
        (json!({"headers": {"1x": "h"}}), "pattern via $ref"),
        (json!({"labels": {"owner": 1}}), "no anyOf branch"),
        (
            json!({"labels": {"x-averyveryverylongname": 1}}),
            "maxLength",
        ),
        (json!({"flags": {"quiet": true}}), "const"),
        (json!({"codes": {"ab": 1, "abcd": 2}}), "lengths"),
        (
            json!({"headers": {"Host": 1, "": 2}, "flags": {"x": 1}}),
            "several",
        ),
    ] {
        assert_eq!(
            agree(&compiled::PropertyNames, &interpreted, &instance),
            Ok(false),
            "{what}"
        );
    }
}

/// 150 required properties: the seen mask spans three words, on the stack.
#[test]
fn many_required_properties_are_seen_without_allocating() {
    let schema = serde_json::from_str(compiled::ManyRequired::SCHEMA_JSON).unwrap();
    let interpreted = Validator::new(&schema).unwrap();
    let full: serde_json::Map<String, serde_json::Value> =
        (0..150).map(|i| (format!("p{i}"), json!(i))).collect();
    let valid = serde_json::Value::Object(full.clone());
    assert_eq!(
        agree(&compiled::ManyRequired, &interpreted, &valid),
        Ok(true)
    );
    let before = counting::count();
    assert!(compiled::ManyRequired.is_valid(&valid));
    assert_eq!(
        counting::count() - before,
        0,
        "allocations on the valid path"
    );
    for missing in [0, 1, 63, 64, 65, 127, 128, 149] {
        let mut partial = full.clone();
        partial.remove(&format!("p{missing}"));
        let partial = serde_json::Value::Object(partial);
        assert_eq!(
            agree(&compiled::ManyRequired, &interpreted, &partial),
            Ok(false),
            "p{missing} missing"
        );
        let err = compiled::ManyRequired.validate(&partial).unwrap_err();
        assert_eq!(err.failures().len(), 1);
        assert!(
            err.failures()[0]
                .message()
                .contains(&format!("\"p{missing}\""))
        );
    }
}
