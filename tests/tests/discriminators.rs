//! `anyOf` and `oneOf` branches ruled out by a discriminating member are skipped on both
//! paths with the verdicts and failures evaluation would give: the front end finds the member
//! behind `$ref` and `allOf`, from `const` and `enum`, and leaves branches that do not
//! constrain it to run.

#![deny(warnings)]

use serde_json::{Value, json};
use toolschema::Validator;
use toolschema::ir::Body;
use toolschema_conformance::agree;

mod compiled {
    include!(concat!(env!("OUT_DIR"), "/compiled_discriminators.rs"));
}

fn interpreter() -> Validator {
    let schema: Value = serde_json::from_str(compiled::Actions::SCHEMA_JSON).unwrap();
    Validator::new(&schema).unwrap()
}

#[test]
fn the_front_end_finds_the_discriminators() {
    let validator = interpreter();
    let Body::Keywords(root) = &validator.ir().node(validator.ir().root).body else {
        panic!("the root has keywords");
    };
    let strings = |v: &[&str]| Some(v.iter().map(|s| s.to_string()).collect::<Vec<_>>());
    let one_of = root
        .one_of_discriminator
        .as_ref()
        .expect("oneOf discriminator");
    assert_eq!(one_of.property, "action");
    assert_eq!(
        one_of.values,
        [
            strings(&["read"]),
            strings(&["write"]),
            strings(&["delete", "remove"]),
            strings(&["noop"]),
            None,
            strings(&[]),
        ]
    );
    let any_of = root
        .any_of_discriminator
        .as_ref()
        .expect("anyOf discriminator");
    assert_eq!(
        any_of.values,
        [
            strings(&["read"]),
            strings(&["write"]),
            strings(&["delete", "remove", "noop"]),
            None,
        ]
    );
}

#[test]
fn both_paths_agree_on_every_kind_of_member() {
    let interpreted = interpreter();
    let cases = [
        (json!({"action": "read", "path": "a"}), true),
        (json!({"action": "read", "path": "a", "limit": 3}), true),
        (json!({"action": "read"}), false),
        (
            json!({"action": "write", "path": "a", "content": "x"}),
            true,
        ),
        (
            json!({"action": "write", "path": "a", "content": "x", "append": true}),
            true,
        ),
        (json!({"action": "write", "path": "a"}), false),
        (json!({"action": "delete", "path": "a"}), true),
        (json!({"action": "remove", "path": "a"}), true),
        (json!({"action": "remove"}), false),
        (json!({"action": "noop"}), true),
        (json!({"action": "unknown", "path": "a"}), false),
        (json!({"action": 5, "path": "a"}), false),
        (json!({"action": null}), false),
        // Without the member, the branches that only constrain it hold too: three match.
        (json!({"batch": []}), false),
        (json!({"batch": [], "action": "noop"}), false),
        (json!({"batch": [], "action": "zzz"}), false),
        (json!({"path": "a"}), false),
        (json!({}), false),
    ];
    for (instance, expected) in cases {
        assert_eq!(
            agree(&compiled::Actions, &interpreted, &instance),
            Ok(expected),
            "{instance}"
        );
    }
}
