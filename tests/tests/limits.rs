//! Limits on the compiled path: with the same tight limits, the generated validators stop
//! where the interpreter stops, with the same `ExecutionFailure`, inside `anyOf` and `not` as
//! much as anywhere else.

#![deny(warnings)]

use serde_json::{Value, json};
use toolschema::{ErrorClass, Limits, Options, Validate, Validator};
use toolschema_conformance::agree;

mod compiled {
    toolschema::include_validators!("compiled_limits.rs");
}

/// Keep in step with `tight_limits` in `build.rs`.
fn tight() -> Limits {
    Limits::new()
        .max_evaluation_depth(12)
        .max_argument_depth(16)
        .max_argument_nodes(200)
        .max_argument_string_length(64)
        .max_evaluation_steps(2_000)
}

fn options() -> Options {
    Options::new().limits(tight())
}

fn nest(depth: usize, leaf: Value, wrap: impl Fn(Value) -> Value) -> Value {
    (0..depth).fold(leaf, |inner, _| wrap(inner))
}

/// Checks agreement on every instance; returns how many stopped at a limit.
fn check(compiled: &dyn Validate, schema: &str, instances: &[Value]) -> usize {
    let schema: Value = serde_json::from_str(schema).unwrap();
    let interpreted = Validator::with_options(&schema, &options()).unwrap();
    let mut halted = 0;
    for instance in instances {
        if let Err(e) = agree(compiled, &interpreted, instance) {
            panic!("on {instance}: {e}");
        }
        if let Err(e) = compiled.validate(instance) {
            if e.class() == ErrorClass::ExecutionFailure {
                halted += 1;
            }
        }
    }
    halted
}

#[test]
fn evaluation_depth_stops_both_paths_at_the_same_place() {
    let instances: Vec<Value> = (0..8)
        .map(|d| nest(d, json!({"value": 1}), |inner| json!({"next": inner})))
        .chain((0..8).map(|d| nest(d, json!({"value": "x"}), |inner| json!({"next": inner}))))
        .collect();
    let halted = check(
        &compiled::DeepAllOf,
        compiled::DeepAllOf::SCHEMA_JSON,
        &instances,
    );
    assert!(halted > 0, "the limit was never reached");
}

#[test]
fn argument_limits_come_first() {
    let instances = vec![
        nest(
            20,
            json!({"name": "leaf"}),
            |inner| json!({"name": "n", "children": [inner]}),
        ),
        json!({"name": "x".repeat(100)}),
        json!({"name": "n", "children": (0..250).map(|_| json!({"name": "c"})).collect::<Vec<_>>()}),
        json!({"name": "n", "children": [{"name": "much too long"}, {"children": []}]}),
    ];
    let halted = check(
        &compiled::RecursiveTree,
        compiled::RecursiveTree::SCHEMA_JSON,
        &instances,
    );
    assert!(halted >= 3);
}

#[test]
fn limits_inside_any_of_not_and_unevaluated() {
    let instances: Vec<Value> = (0..10)
        .flat_map(|d| {
            [
                nest(d, json!("s"), |inner| json!({"a": inner})),
                nest(d, json!(1), |inner| json!({"b": inner})),
                nest(d, json!({"x": 1}), |inner| json!({"c": [inner, 2]})),
                nest(d, json!({"x": "y"}), |inner| json!({"a": inner, "z": true})),
            ]
        })
        .collect();
    let halted = check(
        &compiled::AnyOfChain,
        compiled::AnyOfChain::SCHEMA_JSON,
        &instances,
    );
    assert!(halted > 0, "the limit was never reached");
}

/// `propertyNames` checks each name in the first-failure flavour, collecting too: a halt
/// inside it, directly or under an `anyOf` branch, has the same location on both paths.
#[test]
fn limits_inside_property_names() {
    let halted = check(
        &compiled::NamedMembers,
        compiled::NamedMembers::SCHEMA_JSON,
        &[
            json!({}),
            json!({"near": {"abc": 1, "x": 2}}),
            json!({"near": {"abcd": 1}}),
            json!({"direct": {}}),
            json!({"direct": {"a": 1}}),
            json!({"branch": "s"}),
            json!({"branch": {"a": 1}}),
            json!({"near": {"abcd": 1}, "branch": {"a": 1}}),
        ],
    );
    assert_eq!(halted, 3);
}

/// A schema that applies each subschema three times, nine levels deep, needs 3^9 evaluations:
/// both paths stop at the step limit, with the same failure, even inside `not`.
#[test]
fn evaluation_steps_stop_both_paths_at_the_same_place() {
    let halted = check(
        &compiled::Exponential,
        compiled::Exponential::SCHEMA_JSON,
        &[json!(1), json!("x"), json!({"a": 1})],
    );
    assert_eq!(halted, 3);
}

/// The key pass over the root admits each member to the argument limits as it evaluates it:
/// the root schema's own, or that of a `$ref` or `allOf` member. At every edge of every argument limit (values, depth, string length of
/// names and of values), under members the schema constrains and members it leaves open,
/// both paths give the verdict of evaluating and walking the arguments.
#[test]
fn argument_limits_at_their_edges_when_a_key_pass_admits_members() {
    let mut instances = Vec::new();
    // Values: the root and `n` scalar members, then the same count split over a nested array.
    for n in 196..=202 {
        let members: serde_json::Map<String, Value> =
            (0..n).map(|i| (format!("m{i}"), json!(i))).collect();
        instances.push(Value::Object(members));
        let items: Vec<Value> = (0..n - 2).map(|i| json!(format!("t{i}"))).collect();
        instances.push(json!({"tags": items}));
        instances.push(json!({"extra": {"list": (0..n - 3).collect::<Vec<_>>()}}));
        // Rows of numbers under a subschema each row passes flat (`Node::flat`).
        let row: Vec<Value> = (0..9).map(|i| json!(i)).collect();
        let mut grid: Vec<Value> = (0..(n - 2) / 10).map(|_| json!(row)).collect();
        if (n - 2) % 10 > 0 {
            grid.push(json!(vec![0; (n - 2) % 10 - 1]));
        }
        instances.push(json!({"grid": grid}));
    }
    // Depth: arrays nested under a constrained member, an open one and an unknown one.
    for d in 13..=18 {
        instances.push(json!({"extra": nest(d, json!(1), |inner| json!([inner]))}));
        instances.push(json!({"other": nest(d, json!({}), |inner| json!({"x": inner}))}));
        instances.push(json!({"tags": nest(d, json!("s"), |inner| json!([inner]))}));
        instances.push(json!({"grid": [[1], nest(d - 2, json!(1), |inner| json!([inner]))]}));
    }
    // Strings: names and values around 64 bytes, at the root and deeper.
    for len in 62..=66 {
        let s = "x".repeat(len);
        instances.push(json!({"name": s.clone()}));
        instances.push(json!({ s.clone(): 1 }));
        instances.push(json!({"extra": { s.clone(): [s.clone()] }}));
        instances.push(json!({"name": "n", "tags": [s.clone()]}));
    }
    let validators: [(&dyn Validate, &str); 3] = [
        (&compiled::OpenMembers, compiled::OpenMembers::SCHEMA_JSON),
        (
            &compiled::ReferencedMembers,
            compiled::ReferencedMembers::SCHEMA_JSON,
        ),
        (&compiled::AllOfMembers, compiled::AllOfMembers::SCHEMA_JSON),
    ];
    for (compiled, schema) in validators {
        let (over, valid, invalid) = admitted_as_walked(compiled, schema, &instances);
        let within = valid + invalid;
        assert!(
            over >= 20 && within >= 20,
            "{over} over the limits, {within} within"
        );
    }
}

/// A generated key pass admits a member that `properties` names without testing the name's
/// length, which the schema gives, and in first-failure mode not at all under a subschema
/// passing only scalars; but a schema may name a property longer than the arguments may
/// hold, and a call that has it is over them, on both paths.
#[test]
fn names_the_schema_gives_are_held_to_the_limits() {
    let long = "x".repeat(70);
    let instances = [
        json!({}),
        json!({"id": 1, "ok": null}),
        json!({"id": "1"}),
        json!({ long.clone(): 1 }),
        json!({ long.clone(): 1, "id": 2 }),
        json!({"id": 2, long.clone(): "one" }),
        json!({"other": 1}),
        json!({ "y".repeat(65): 1 }),
    ];
    let (over, valid, invalid) = admitted_as_walked(
        &compiled::LongNames,
        compiled::LongNames::SCHEMA_JSON,
        &instances,
    );
    assert_eq!((over, valid, invalid), (4, 2, 2));
}

/// A subschema that applies none costs no evaluation step and no level, on both paths: twelve
/// such checks on each of 190 items take 192 steps (the root, the list, each item's `allOf`),
/// within the limit of 2,000, where counting them would take 2,472. The schema recurses
/// (`next`), so the generated code counts its steps rather than leaving the checks out.
#[test]
fn subschemas_that_apply_none_cost_no_step() {
    let list: Vec<Value> = (0..190).map(|i| json!(i)).collect();
    let instances = [
        json!({"list": list}),
        json!({"next": {"list": list[..100]}}),
        json!({"list": [1, 2, 3000]}),
    ];
    let halted = check(
        &compiled::ManyLeaves,
        compiled::ManyLeaves::SCHEMA_JSON,
        &instances,
    );
    assert_eq!(halted, 0);
    assert!(compiled::ManyLeaves.is_valid(&instances[0]));
    assert!(!compiled::ManyLeaves.is_valid(&instances[2]));
}

/// A key pass under `not`, `anyOf`, `oneOf`, `if` or `dependentSchemas` may fail without
/// failing the call: what it admitted before it stopped must not count. With the one member
/// past a limit last in the pass, counting it would take every member as admitted and let the
/// call through.
#[test]
fn members_are_admitted_only_where_their_failure_fails_the_call() {
    let pass = json!({"properties": {"a": true, "zz": true}, "required": ["never"]});
    let schemas = [
        json!({"not": pass}),
        json!({"anyOf": [pass, true]}),
        json!({"oneOf": [pass, true]}),
        json!({"if": pass, "then": true}),
        json!({"dependentSchemas": {"a": {"not": pass}}}),
        json!({"allOf": [{"$ref": "#/$defs/p"}], "$defs": {"p": {"properties": {"zz": true}}}}),
        json!({"$ref": "#/$defs/p", "$defs": {"p": {"additionalProperties": true}}}),
    ];
    let long = "x".repeat(65);
    let instances = [
        json!({"a": 1, "zz": long}),
        json!({"a": 1, "zz": [[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]}),
        json!({"a": 1, "zz": (0..199).collect::<Vec<_>>()}),
        json!({"a": 1, "zz": "fits"}),
    ];
    for schema in &schemas {
        let limited = Validator::with_options(schema, &options()).unwrap();
        let unlimited = Validator::new(schema).unwrap();
        for instance in &instances {
            let in_limits = tight().check_arguments(instance).is_ok();
            assert_eq!(
                limited.is_valid(instance),
                in_limits && unlimited.is_valid(instance),
                "{schema} on {instance}"
            );
            assert_eq!(
                limited.validate(instance).is_ok(),
                limited.is_valid(instance),
                "{schema} on {instance}"
            );
        }
    }
}

/// Every value of the arguments is counted by the pass that evaluates it, at every level,
/// also inside `oneOf`, `anyOf`, `not` and `if`, where a branch may claim a container, fail
/// halfway and be rolled back; a key pass may leave the claim to the `oneOf` after it, and
/// `prefixItems` claims only an array it covers. Around every edge of every argument limit, with the values
/// past the limit placed under such branches, both paths give the verdict of evaluating and
/// walking, and a call over a limit fails with the walk's `ExecutionFailure`.
#[test]
fn arguments_are_admitted_by_the_passes_that_evaluate_them() {
    let long = |n: usize| "x".repeat(n);
    let strings = |n: usize| vec![json!("s"); n];
    let mut instances = Vec::new();
    // Values: 196 to 205 in all, most of them under each kind of branch.
    for total in 196..=205usize {
        let n = total - 4;
        instances.push(json!({"shape": {"kind": "line", "points": [vec![1; n - 3]]}}));
        instances.push(json!({"shape": {"kind": "tree", "children": [
            {"kind": "line", "points": [vec![1; n - 12]]},
            {"kind": "bag", "zz": ["s", {"k": [1]}]}
        ]}}));
        instances.push(json!({"shape": {"kind": "bag", "zz": [strings(n - 6), {"k": [1, 2]}]}}));
        let mut mixed = strings(n - 3);
        mixed.push(json!({"k": [1]}));
        instances.push(json!({"any": mixed}));
        instances.push(json!({"any": [{"k": vec![1; n - 3]}]}));
        instances.push(json!({"neg": {"x": strings(n - 1)}}));
        instances.push(json!({"cond": {"a": vec![1; n - 1]}}));
        instances.push(json!({"cond": [vec![1; n - 2]]}));
        instances.push(json!({"tagged": {"kind": "list", "items": strings(n - 3)}}));
        instances.push(json!({"tagged": {"kind": "map", "entries": {"a": strings(n - 4)}}}));
        instances.push(json!({"tagged": {"kind": "map", "items": strings(n - 4)}}));
        instances.push(json!({"tuple": [strings(n - 5), {"a": [1, 2]}]}));
        instances.push(json!({"tuple": [[], {"a": vec![1; n - 5]}, "extra"]}));
    }
    // Depth: containers nested around the limit of 16 under each branch.
    for d in 12..=17 {
        instances.push(json!({"any": nest(d, json!("s"), |inner| json!([inner]))}));
        instances.push(json!({"neg": {"x": nest(d, json!("s"), |inner| json!([inner]))}}));
        instances.push(json!({"cond": nest(d, json!(1), |inner| json!([inner]))}));
        instances.push(
            json!({"shape": {"kind": "bag", "b": nest(d, json!("s"), |inner| json!([inner]))}}),
        );
        let tree = nest(
            d / 3,
            json!({"kind": "line", "points": [[1]]}),
            |inner| json!({"kind": "tree", "children": [inner]}),
        );
        instances.push(json!({"shape": tree}));
        let nested = nest(d, json!("s"), |inner| json!([inner]));
        instances.push(json!({"tagged": {"kind": "map", "entries": {"a": nested.clone()}}}));
        instances.push(json!({"tuple": [nested.clone(), {}]}));
        instances.push(json!({"tuple": [[], {}, nested]}));
    }
    // Strings: names and values around 64 bytes, deep under each branch.
    for len in 62..=66 {
        let s = long(len);
        instances.push(json!({"any": ["s", s.clone()]}));
        instances.push(json!({"any": [{ s.clone(): [1] }]}));
        instances.push(json!({"neg": {"x": ["s", s.clone()]}}));
        instances.push(json!({"cond": {"a": [1], s.clone(): 2}}));
        instances.push(json!({"shape": {"kind": "bag", "zz": ["s", s.clone()]}}));
        instances
            .push(json!({"shape": {"kind": "tree", "children": [{"kind": "bag", s.clone(): []}]}}));
        instances.push(json!({"tagged": {"kind": "map", "entries": {s.clone(): []}}}));
        instances.push(json!({"tagged": {"kind": "list", "items": ["s", s.clone()]}}));
        instances.push(json!({"tuple": [["s"], {s.clone(): [1]}]}));
    }
    let (over, valid, invalid) = admitted_as_walked(
        &compiled::ClaimedInBranches,
        compiled::ClaimedInBranches::SCHEMA_JSON,
        &instances,
    );
    assert!(
        over >= 40 && valid >= 40 && invalid >= 5,
        "{over} over the limits, {valid} valid within them, {invalid} invalid"
    );
}

/// `uniqueItems` compares items that no pass may have admitted yet, as deep as they nest:
/// with items past each argument limit, equal or differing only at the bottom, few (compared
/// in pairs) or many (hashed), under branches and beside passes that claim, both paths give
/// the verdict of evaluating and walking.
#[test]
fn items_compared_before_their_admission_are_held_to_the_limits() {
    let deep = |d: usize, leaf: Value| nest(d, leaf, |inner| json!([inner]));
    let mut instances = Vec::new();
    for d in 12..=17 {
        for (a, b) in [(json!(1), json!(1.0)), (json!(1), json!(2))] {
            let pair = vec![deep(d, a.clone()), deep(d, b.clone())];
            let mut many: Vec<Value> = (0..20).map(|i| json!(i)).collect();
            many.extend(pair.clone());
            instances.push(json!({"set": pair}));
            instances.push(json!({"set": many}));
            instances.push(json!({"typed": pair}));
            instances.push(json!({"any": pair}));
            instances.push(json!({"neg": pair}));
            instances.push(json!({"nested": {"k": [pair.clone(), 3]}}));
            instances.push(json!({"tuple": [pair.clone(), 0]}));
            instances.push(json!({"tuple": [[], pair.clone(), pair]}));
            instances.push(json!({"set": [{"a": deep(d - 1, a)}, {"a": deep(d - 1, b)}]}));
        }
    }
    for total in 196..=205usize {
        let n = total - 2;
        let mut distinct: Vec<Value> = (0..n - 2).map(|i| json!(i)).collect();
        distinct.push(json!([1, 1]));
        instances.push(json!({"set": distinct}));
        let mut repeated: Vec<Value> = (0..n - 4).map(|i| json!([i])).collect();
        repeated.push(json!([0]));
        instances.push(json!({"any": repeated}));
        instances.push(json!({"nested": {"k": (0..n - 2).collect::<Vec<_>>()}}));
    }
    for len in 62..=66 {
        let s = "x".repeat(len);
        instances.push(json!({"set": [[s.clone()], [s.clone()]]}));
        instances.push(json!({"set": [{ s.clone(): 1 }, { s.clone(): 1 }]}));
        instances.push(json!({"neg": ["a", s.clone(), "b"]}));
        instances.push(json!({"any": [[s.clone()], "b", [s]]}));
    }
    let (over, valid, invalid) = admitted_as_walked(
        &compiled::ComparedMembers,
        compiled::ComparedMembers::SCHEMA_JSON,
        &instances,
    );
    assert!(
        over >= 40 && valid >= 20 && invalid >= 20,
        "{over} over the limits, {valid} valid within them, {invalid} invalid"
    );
}

/// Holds both paths to the verdict of evaluating and walking, for `instances` of the schema
/// `compiled` was generated from: agreement between the paths; `is_valid` as the walk and
/// evaluation without argument limits decide; and a call over a limit failing with the
/// walk's `ExecutionFailure`. Returns how many instances were over the limits, valid within
/// them, and invalid within them.
fn admitted_as_walked(
    compiled: &dyn Validate,
    schema: &str,
    instances: &[Value],
) -> (usize, usize, usize) {
    let limits = tight();
    let schema: Value = serde_json::from_str(schema).unwrap();
    let interpreted = Validator::with_options(&schema, &options()).unwrap();
    // The same evaluation limits, and argument limits the instances never reach.
    let open = tight()
        .max_argument_depth(1_000)
        .max_argument_nodes(1_000_000)
        .max_argument_string_length(1_000);
    let unlimited = Validator::with_options(&schema, &Options::new().limits(open)).unwrap();
    let (mut over, mut valid, mut invalid) = (0, 0, 0);
    for instance in instances {
        if let Err(e) = agree(compiled, &interpreted, instance) {
            panic!("on {instance}: {e}");
        }
        let walked = limits.check_arguments(instance);
        let holds = unlimited.is_valid(instance);
        assert_eq!(
            compiled.is_valid(instance),
            walked.is_ok() && holds,
            "on {instance}"
        );
        match walked {
            Err(walked) => {
                over += 1;
                let e = compiled.validate(instance).unwrap_err();
                assert_eq!(e.class(), ErrorClass::ExecutionFailure, "on {instance}");
                assert_eq!(e.failures(), walked.failures(), "on {instance}");
            }
            Ok(()) if holds => valid += 1,
            Ok(()) => invalid += 1,
        }
    }
    (over, valid, invalid)
}
