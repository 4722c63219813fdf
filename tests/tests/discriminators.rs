//! `anyOf` and `oneOf` branches ruled out by a discriminating member, or by the type of the
//! instance, are skipped on both paths with the verdicts and failures evaluation would give:
//! the front end finds the member behind `$ref` and `allOf`, from `const` and `enum`, and a
//! branch's `type` behind `$ref`, and leaves branches that constrain neither to run.

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

mod typed_steps {
    include!(concat!(env!("OUT_DIR"), "/compiled_typed_steps.rs"));
}

fn typed_interpreter(limits: toolschema::Limits) -> Validator {
    let schema: Value = serde_json::from_str(compiled::Typed::SCHEMA_JSON).unwrap();
    Validator::with_options(&schema, &toolschema::Options::new().limits(limits)).unwrap()
}

/// Instances of every type for the branches told apart by `type` (behind `$ref` too), a
/// `false` branch, an untyped one, and member names checked against typed `anyOf` branches.
fn typed_cases() -> Vec<(Value, bool)> {
    vec![
        (json!({"value": 3}), true),
        (json!({"value": "abc"}), true),
        (json!({"value": "ABC"}), false),
        (json!({"value": null}), true),
        (json!({"value": [1, 2.5]}), true),
        (json!({"value": ["x"]}), false),
        (json!({"value": true}), true),
        (json!({"value": {}}), true),
        (json!({"value": 150.5}), true),
        (json!({"value": 1.5}), false),
        (json!({"value": 3, "other": 1}), false),
        (json!({"tags": {"abc": 1, "xy": 2}}), true),
        (json!({"tags": {"ABC": 1}}), false),
        (json!({"tags": {"A1": 1, "b": 2}}), true),
        (json!({}), false),
    ]
}

#[test]
fn branches_of_another_type_are_ruled_out_alike() {
    let validator = typed_interpreter(toolschema::Limits::new());
    let ir = validator.ir();
    let value = match &ir.node(ir.root).body {
        Body::Keywords(k) => k.object.as_ref().unwrap().properties[1].1,
        Body::Bool(_) => panic!("the root has keywords"),
    };
    let Body::Keywords(value) = &ir.node(value).body else {
        panic!("value has keywords");
    };
    let types = value.one_of_types.as_ref().expect("typed oneOf");
    let names: Vec<Vec<&str>> = types
        .iter()
        .map(|t| t.iter().map(|t| t.name()).collect())
        .collect();
    assert_eq!(
        names,
        [
            vec!["integer"],
            vec!["string"],
            vec!["null", "array"],
            vec![],
            vec![
                "null", "boolean", "object", "array", "number", "string", "integer"
            ],
        ]
    );
    for (instance, expected) in typed_cases() {
        assert_eq!(
            agree(&compiled::Typed, &validator, &instance),
            Ok(expected),
            "{instance}"
        );
    }
}

/// Under every step limit up to what the instances need, both paths stop at the same place:
/// neither counts a branch it ruled out by type.
#[test]
fn ruled_out_branches_cost_no_step_on_either_path() {
    use toolschema::Validate;
    let compiled: Vec<&dyn Validate> = vec![
        &typed_steps::steps_1::Typed,
        &typed_steps::steps_2::Typed,
        &typed_steps::steps_3::Typed,
        &typed_steps::steps_4::Typed,
        &typed_steps::steps_5::Typed,
        &typed_steps::steps_6::Typed,
        &typed_steps::steps_7::Typed,
        &typed_steps::steps_8::Typed,
        &typed_steps::steps_9::Typed,
        &typed_steps::steps_10::Typed,
        &typed_steps::steps_11::Typed,
        &typed_steps::steps_12::Typed,
    ];
    let mut stopped = 0;
    for (i, validator) in compiled.into_iter().enumerate() {
        let steps = i + 1;
        let interpreted = typed_interpreter(toolschema::Limits::new().max_evaluation_steps(steps));
        for (instance, _) in typed_cases() {
            if let Err(e) = agree(validator, &interpreted, &instance) {
                panic!("{steps} steps, {instance}: {e}");
            }
            stopped += usize::from(
                interpreted
                    .validate(&instance)
                    .is_err_and(|e| e.class() == toolschema::ErrorClass::ExecutionFailure),
            );
        }
    }
    // The limits do bite: some instances stop under the lower ones.
    assert!(stopped > 0);
}
