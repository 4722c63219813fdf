//! The front end's decisions, seen through the IR and the public API.

use serde_json::json;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use toolschema_core::ir::{Body, DynamicRef};
use toolschema_core::{ErrorClass, Options, Validate, Validator};

fn keywords(v: &Validator, index: usize) -> &toolschema_core::ir::Keywords {
    match &v.ir().nodes[index].body {
        Body::Keywords(k) => k,
        Body::Bool(_) => panic!("node {index} is a boolean schema"),
    }
}

#[test]
fn dynamic_ref_with_one_possible_target_becomes_a_plain_reference() {
    let v = Validator::new(&json!({
        "$dynamicAnchor": "node",
        "properties": {"child": {"$dynamicRef": "#node"}}
    }))
    .unwrap();
    assert!(!v.ir().dynamic_scope);
    let dynamic = v
        .ir()
        .nodes
        .iter()
        .filter_map(|n| match &n.body {
            Body::Keywords(k) => k.dynamic_reference.as_ref(),
            Body::Bool(_) => None,
        })
        .next()
        .unwrap();
    assert!(matches!(&**dynamic, DynamicRef::Fixed(_)));
    assert!(v.is_valid(&json!({"child": {"child": {}}})));
}

#[test]
fn dynamic_ref_with_several_targets_needs_the_scope() {
    let v = Validator::new(&json!({
        "$id": "https://example.test/strict",
        "$ref": "list",
        "$defs": {
            "item": {"$dynamicAnchor": "item", "type": "string"},
            "list": {
                "$id": "list",
                "type": "array",
                "items": {"$dynamicRef": "#item"},
                "$defs": {"item": {"$dynamicAnchor": "item"}}
            }
        }
    }))
    .unwrap();
    assert!(v.ir().dynamic_scope);
    assert!(v.is_valid(&json!(["a"])));
    assert!(
        !v.is_valid(&json!([1])),
        "the outermost anchor (strings only) wins"
    );
}

#[test]
fn only_consumers_of_annotations_are_tracked() {
    let v = Validator::new(&json!({
        "allOf": [{"properties": {"a": true}}],
        "properties": {"nested": {"allOf": [{"properties": {"b": true}}]}},
        "unevaluatedProperties": false
    }))
    .unwrap();
    let tracked: Vec<&str> = v
        .ir()
        .nodes
        .iter()
        .filter(|n| n.tracks_properties)
        .map(|n| n.uri.as_str())
        .collect();
    assert_eq!(tracked, vec!["toolschema:///schema.json#/allOf/0"]);
    assert!(v.is_valid(&json!({"a": 1, "nested": {"x": 1}})));
    assert!(!v.is_valid(&json!({"a": 1, "b": 1})));
}

#[test]
fn object_plan_maps_required_names_to_properties() {
    let v = Validator::new(&json!({
        "properties": {"a": {}, "b": {}},
        "required": ["b", "c"]
    }))
    .unwrap();
    let plan = keywords(&v, 0).object.as_ref().unwrap();
    assert_eq!(
        plan.required,
        vec![("b".to_string(), Some(1)), ("c".to_string(), None)]
    );
}

/// A key pass over named properties leaves claiming the object for admission to the argument
/// limits to a later in-place subschema with a key pass of its own, and only then.
#[test]
fn key_passes_defer_their_claim_to_later_key_passes_only() {
    let defers = |schema: serde_json::Value| {
        let v = Validator::new(&schema).unwrap();
        keywords(&v, 0).object.as_ref().unwrap().defers_claim
    };
    let tagged = |branch: serde_json::Value| json!({"properties": {"kind": {"type": "string"}}, "oneOf": [branch, {"required": ["x"]}]});
    assert!(defers(tagged(
        json!({"properties": {"kind": {"const": "a"}}})
    )));
    assert!(defers(
        tagged(json!({"$ref": "#/$defs/b"}))
            .as_object()
            .cloned()
            .map(|mut m| {
                m.insert(
                    "$defs".into(),
                    json!({"b": {"allOf": [{"additionalProperties": false}]}}),
                );
                serde_json::Value::Object(m)
            })
            .unwrap()
    ));
    assert!(!defers(tagged(json!({"required": ["kind"]}))));
    assert!(!defers(
        json!({"properties": {"kind": {}}, "not": {"properties": {"kind": {}}}})
    ));
    // A pass that applies a subschema to every member keeps its claim.
    assert!(!defers(json!({
        "properties": {"kind": {}},
        "additionalProperties": true,
        "anyOf": [{"properties": {"kind": {}}}]
    })));
}

#[test]
fn schema_errors_point_at_the_keyword() {
    let cases = [
        (json!({"type": 5}), ErrorClass::Validation, "/type"),
        (
            json!({"properties": {"a": {"minLength": -1}}}),
            ErrorClass::Validation,
            "/properties/a/minLength",
        ),
        (
            json!({"$ref": "#/$defs/nope"}),
            ErrorClass::Validation,
            "/$ref",
        ),
        (
            json!({"items": {"$ref": "other.json"}}),
            ErrorClass::Validation,
            "/items/$ref",
        ),
        (
            json!({"pattern": "(a)\\1"}),
            ErrorClass::UnsupportedCapability,
            "/pattern",
        ),
        (
            json!({"$schema": "http://json-schema.org/draft-07/schema#"}),
            ErrorClass::UnsupportedCapability,
            "/$schema",
        ),
        (
            json!({"$schema": "https://json-schema.org/draft/2019-09/schema"}),
            ErrorClass::UnsupportedCapability,
            "/$schema",
        ),
        (
            json!({"$schema": "https://example.test/unknown"}),
            ErrorClass::UnsupportedCapability,
            "/$schema",
        ),
        (
            json!({"$defs": {"x": {"$id": "https://example.test/x", "$schema": "http://json-schema.org/draft-04/schema#"}}}),
            ErrorClass::UnsupportedCapability,
            "/$defs/x/$schema",
        ),
        (
            json!({"$defs": {"a": {"allOf": [{"$ref": "#"}]}}, "$ref": "#/$defs/a"}),
            ErrorClass::Validation,
            "",
        ),
    ];
    for (schema, class, pointer) in cases {
        let err = Validator::new(&schema).unwrap_err();
        assert_eq!(err.class(), class, "{schema}: {err}");
        if !pointer.is_empty() {
            assert!(
                err.failures()
                    .iter()
                    .any(|f| f.instance_location() == pointer),
                "{schema}: expected a failure at {pointer}, got {err:?}"
            );
        }
    }
}

#[test]
fn draft_uris_with_and_without_fragment_are_accepted() {
    for uri in [
        "https://json-schema.org/draft/2020-12/schema",
        "https://json-schema.org/draft/2020-12/schema#",
    ] {
        assert!(Validator::new(&json!({"$schema": uri, "type": "object"})).is_ok());
    }
}

#[test]
fn required_unknown_vocabulary_is_unsupported_and_optional_is_ignored() {
    let meta = |required: bool| {
        json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "https://example.test/meta",
            "$vocabulary": {
                "https://json-schema.org/draft/2020-12/vocab/core": true,
                "https://json-schema.org/draft/2020-12/vocab/validation": true,
                "https://example.test/vocab/custom": required
            }
        })
    };
    let schema = json!({"$schema": "https://example.test/meta", "type": "string", "properties": {"a": false}});
    let options = Options::new().registry_document("https://example.test/meta", meta(true));
    let err = Validator::with_options(&schema, &options).unwrap_err();
    assert_eq!(err.class(), ErrorClass::UnsupportedCapability);
    assert!(
        err.to_string()
            .contains("https://example.test/vocab/custom")
    );

    let options = Options::new().registry_document("https://example.test/meta", meta(false));
    let v = Validator::with_options(&schema, &options).unwrap();
    assert!(!v.is_valid(&json!(1)), "validation vocabulary is on");
    assert!(v.is_valid(&json!("x")));
}

#[test]
fn loader_is_asked_once_per_uri_and_only_while_building() {
    let calls = Arc::new(AtomicUsize::new(0));
    let seen = calls.clone();
    let options = Options::new().schema_loader(move |uri: &str| {
        seen.fetch_add(1, Ordering::SeqCst);
        assert_eq!(uri, "https://example.test/name.json");
        Ok(json!({"$defs": {"name": {"type": "string"}, "age": {"type": "integer"}}}))
    });
    let schema = json!({
        "properties": {
            "name": {"$ref": "https://example.test/name.json#/$defs/name"},
            "age": {"$ref": "https://example.test/name.json#/$defs/age"}
        }
    });
    let v = Validator::with_options(&schema, &options).unwrap();
    assert_eq!(calls.load(Ordering::SeqCst), 1);
    assert!(!v.is_valid(&json!({"name": 1})));
    assert!(v.is_valid(&json!({"name": "x", "age": 3})));
    assert_eq!(calls.load(Ordering::SeqCst), 1);
}

#[test]
fn failing_loader_is_an_execution_failure() {
    let options = Options::new().schema_loader(|_: &str| Err("connection refused".into()));
    let err =
        Validator::with_options(&json!({"$ref": "https://example.test/x"}), &options).unwrap_err();
    assert_eq!(err.class(), ErrorClass::ExecutionFailure);
    assert!(err.to_string().contains("connection refused"));
}

#[test]
fn argument_failures_carry_every_location() {
    let v = Validator::new(&json!({
        "$id": "https://example.test/tool",
        "properties": {"q": {"type": "string"}, "n": {"$ref": "#/$defs/n"}},
        "required": ["q"],
        "$defs": {"n": {"maximum": 3}}
    }))
    .unwrap();
    let err = v.validate(&json!({"n": 5})).unwrap_err();
    assert_eq!(err.class(), ErrorClass::Validation);
    let rows: Vec<(&str, &str, Option<&str>, &str)> = err
        .failures()
        .iter()
        .map(|f| {
            (
                f.instance_location(),
                f.keyword_location(),
                f.absolute_keyword_location(),
                f.keyword(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        vec![
            (
                "/n",
                "/properties/n/$ref/maximum",
                Some("https://example.test/tool#/$defs/n/maximum"),
                "maximum"
            ),
            (
                "",
                "/required",
                Some("https://example.test/tool#/required"),
                "required"
            ),
        ]
    );
}

/// Schemas that apply the same subschema twice at every level would take 2^n steps; the step
/// limit stops them with an execution failure instead of a hang.
#[test]
fn exponential_schemas_hit_the_step_limit() {
    let mut defs = serde_json::Map::new();
    for i in 0..40 {
        let next = format!("#/$defs/a{}", i + 1);
        defs.insert(
            format!("a{i}"),
            json!({"allOf": [{"$ref": next}, {"$ref": next}]}),
        );
    }
    defs.insert("a40".into(), json!({"type": "integer"}));
    let schema = json!({"$defs": defs, "$ref": "#/$defs/a0"});
    let options =
        Options::new().limits(toolschema_core::Limits::new().max_evaluation_steps(100_000));
    let v = Validator::with_options(&schema, &options).unwrap();
    assert!(!v.is_valid(&json!(1)));
    let err = v.validate(&json!(1)).unwrap_err();
    assert_eq!(err.class(), ErrorClass::ExecutionFailure);

    // The same through member applicators: both `properties` and `patternProperties` apply
    // the root to the member, at every level of the instance.
    let schema =
        json!({"properties": {"a": {"$ref": "#"}}, "patternProperties": {"^a$": {"$ref": "#"}}});
    let v = Validator::with_options(&schema, &options).unwrap();
    let mut instance = json!(1);
    for _ in 0..60 {
        instance = json!({ "a": instance });
    }
    let err = v.validate(&instance).unwrap_err();
    assert_eq!(err.class(), ErrorClass::ExecutionFailure);
    // Inside `not` the failure stays a failure.
    let schema = json!({"not": {"$ref": "#/$defs/a0"}, "$defs": defs_for_not()});
    let v = Validator::with_options(&schema, &options).unwrap();
    assert!(!v.is_valid(&json!(1)));
    assert_eq!(
        v.validate(&json!(1)).unwrap_err().class(),
        ErrorClass::ExecutionFailure
    );
}

fn defs_for_not() -> serde_json::Value {
    let mut defs = serde_json::Map::new();
    for i in 0..40 {
        let next = format!("#/$defs/a{}", i + 1);
        defs.insert(
            format!("a{i}"),
            json!({"anyOf": [{"$ref": next}, {"$ref": next}]}),
        );
    }
    defs.insert("a40".into(), json!({"type": "string"}));
    serde_json::Value::Object(defs)
}

#[test]
fn evaluation_bounds_of_acyclic_schemas() {
    // Built under limits that the count by kind never meets, so that the count by value is
    // made too.
    let bound = |schema: serde_json::Value| {
        let limits = toolschema_core::Limits::new().max_evaluation_steps(0);
        let options = Options::new().limits(limits);
        Validator::with_options(&schema, &options)
            .unwrap()
            .ir()
            .evaluation_bound
    };
    // Root, two properties (one behind a `$ref`), and what `items` reaches.
    let b = bound(json!({
        "properties": {
            "a": {"type": "string"},
            "b": {"$ref": "#/$defs/list"}
        },
        "$defs": {"list": {"items": {"allOf": [{"type": "integer"}, {"minimum": 0}]}}}
    }))
    .expect("acyclic");
    // Subschemas that apply none (`a`, the two `allOf` branches) cost no step and no level.
    assert_eq!(b.depth, 4, "root, b, list, items");
    assert_eq!(b.fixed_steps, 3, "root, b, list");
    assert_eq!(b.spread_steps, 1, "items");
    assert_eq!(b.root_steps, 1, "root");
    assert_eq!(
        b.value_steps,
        Some(2),
        "b and list at b; items at each item"
    );
    assert!(b.within(&toolschema_core::Limits::default()));
    // Under the default limits the count by kind is enough, and the count by value is not
    // made.
    let by_kind = Validator::new(&json!({"items": {"not": {}}})).unwrap();
    assert_eq!(by_kind.ir().evaluation_bound.unwrap().value_steps, None);
    // By value, members of different names and values at different levels do not add up;
    // a subschema for any member adds to the named ones.
    let b = bound(json!({
        "properties": {
            "a": {"allOf": [{"not": {}}, {"not": {}}]},
            "b": {"allOf": [{"not": {}}, {"not": {}}, {"not": {}}]}
        },
        "additionalProperties": {"not": {}}
    }))
    .expect("acyclic");
    assert_eq!((b.fixed_steps, b.spread_steps), (1 + 3 + 4, 1));
    assert_eq!(
        b.value_steps,
        Some(4 + 1),
        "b, its three branches, additionalProperties"
    );
    let b = bound(json!({"items": {"items": {"not": {}}}})).expect("acyclic");
    assert_eq!((b.spread_steps, b.value_steps), (2, Some(1)));
    // Paths are counted: a subschema reached two ways is evaluated twice.
    let b = bound(json!({"allOf": [{"$ref": "#/$defs/x"}, {"$ref": "#/$defs/x"}], "$defs": {"x": {"type": "object"}}}))
        .expect("acyclic");
    assert_eq!(
        b.fixed_steps,
        1 + 2,
        "root, two references (x applies none)"
    );
    let b = bound(json!({"allOf": [{"$ref": "#/$defs/x"}, {"$ref": "#/$defs/x"}], "$defs": {"x": {"not": {}}}}))
        .expect("acyclic");
    assert_eq!(b.fixed_steps, 1 + 2 + 2, "root, two references, x twice");
    // Recursion has no bound; nor do documents decoded from strings, when they are checked.
    assert_eq!(bound(json!({"properties": {"next": {"$ref": "#"}}})), None);
    let content =
        json!({"contentMediaType": "application/json", "contentSchema": {"type": "object"}});
    assert!(
        bound(content.clone()).is_some(),
        "content is an annotation by default"
    );
    let asserted = Validator::with_options(&content, &Options::new().content_assertion(true));
    assert_eq!(asserted.unwrap().ir().evaluation_bound, None);
}

/// The worked example of docs/ir.md: each node's checks, in order, with the decisions they
/// record (no check for what cannot fail, counting checks, the key pass's `required` bits).
#[test]
fn checks_of_the_worked_example() {
    use toolschema_core::ir::Check;
    let schema = json!({
        "type": "object",
        "properties": {
            "path": {"type": "string", "minLength": 1, "pattern": "^/"},
            "mode": {"enum": ["read", "write"]},
            "lines": {"type": "array", "maxItems": 100, "items": {"type": "integer", "minimum": 0}}
        },
        "required": ["path"],
        "additionalProperties": false
    });
    let v = Validator::new(&schema).unwrap();
    let ir = v.ir();
    let described: Vec<(String, bool, String)> = ir
        .nodes
        .iter()
        .map(|n| {
            let fragment = n.uri.split_once('#').map_or("", |(_, f)| f).to_string();
            let checks: Vec<String> = n
                .checks
                .iter()
                .map(|c| match c {
                    Check::Type(t) => format!("Type({t:?})"),
                    Check::Length { min, max } => format!("Length({min}, {max:?})"),
                    Check::Pattern(p) => format!("Pattern({})", ir.pattern(*p).as_str()),
                    Check::Enum(options) => format!("Enum({})", options.len()),
                    Check::ItemCount { min, max } => format!("ItemCount({min}, {max:?})"),
                    Check::Items { skip, schema, .. } => format!("Items({skip}, {})", schema.0),
                    Check::Minimum(b) => format!("Minimum({})", b.number()),
                    Check::Never => "Never".into(),
                    Check::KeyPass(plan) => {
                        let props: Vec<String> = plan
                            .properties
                            .iter()
                            .map(|(name, id)| format!("{name}:{}", id.0))
                            .collect();
                        let additional = plan.additional_properties.map(|id| id.0);
                        format!(
                            "KeyPass([{}], {additional:?}, {:?})",
                            props.join(" "),
                            plan.required
                        )
                    }
                    other => format!("{other:?}"),
                })
                .collect();
            (fragment, n.leaf, checks.join(" "))
        })
        .collect();
    let expected = [
        (
            "",
            false,
            r#"Type({"object"}) KeyPass([lines:1 mode:2 path:3], Some(4), [("path", Some(2))])"#,
        ),
        (
            "/properties/lines",
            false,
            r#"Type({"array"}) ItemCount(0, Some(100)) Items(0, 5)"#,
        ),
        ("/properties/mode", true, "Enum(2)"),
        (
            "/properties/path",
            true,
            r#"Type({"string"}) Length(1, None) Pattern(^/)"#,
        ),
        ("/additionalProperties", true, "Never"),
        (
            "/properties/lines/items",
            true,
            r#"Type({"integer"}) Minimum(0)"#,
        ),
    ];
    let expected: Vec<(String, bool, String)> = expected
        .iter()
        .map(|(f, leaf, c)| (f.to_string(), *leaf, c.to_string()))
        .collect();
    assert_eq!(described, expected);
    // Of the nodes that apply subschemas, only `lines` applies nothing but a subschema that
    // only asserts, to its items.
    let flat: Vec<usize> = (0..ir.nodes.len()).filter(|&i| ir.nodes[i].flat).collect();
    assert_eq!(flat, [1]);
}

/// `items` records its subschema's types when a `type` passing only scalars is all the
/// subschema checks, and only then.
#[test]
fn items_under_a_scalar_type_carry_it() {
    use toolschema_core::ir::Check;
    use toolschema_core::json::{JsonType, TypeSet};
    let cases = [
        (
            json!({"type": "number"}),
            Some(TypeSet::EMPTY.with(JsonType::Number)),
        ),
        (
            json!({"type": ["integer", "null"]}),
            Some(TypeSet::EMPTY.with(JsonType::Integer).with(JsonType::Null)),
        ),
        (json!({"type": "integer", "minimum": 0}), None),
        (json!({"type": "string"}), None),
        (json!({"type": ["integer", "object"]}), None),
        (json!({"enum": [1, 2]}), None),
        (json!(true), None),
    ];
    for (items, expected) in cases {
        let schema = json!({"properties": {"a": {"items": items}}});
        let v = Validator::new(&schema).unwrap();
        let found: Vec<Option<TypeSet>> = v
            .ir()
            .nodes
            .iter()
            .flat_map(|n| n.checks.iter())
            .filter_map(|c| match c {
                Check::Items { scalar_types, .. } => Some(*scalar_types),
                _ => None,
            })
            .collect();
        assert_eq!(found, [expected], "{items}");
    }
}

/// A node claims what passes it when, for each kind of container its `type` allows, a pass
/// over the members always claims: `items` over every item, a key pass that does not leave
/// the claim to a later one.
#[test]
fn nodes_that_claim_what_passes_them() {
    let cases = [
        (json!({"type": "array", "items": {"type": "string"}}), true),
        (json!({"type": "object", "properties": {"a": {}}}), true),
        (
            json!({"type": "object", "additionalProperties": false}),
            true,
        ),
        (json!({"type": "string"}), true),
        (
            json!({"type": ["array", "object"], "items": {}, "properties": {"a": {}}}),
            true,
        ),
        // No `type`: arrays and objects both pass, and only objects are claimed.
        (json!({"properties": {"a": {}}}), false),
        (json!({"type": "array", "prefixItems": [{}]}), false),
        (
            json!({"type": "array", "prefixItems": [{}], "items": {}}),
            false,
        ),
        (json!({"type": "object", "required": ["a"]}), false),
        // The claim left to the branches' key passes.
        (
            json!({"type": "object", "properties": {"a": {}},
                   "oneOf": [{"properties": {"b": {}}}, {"properties": {"c": {}}}]}),
            false,
        ),
    ];
    for (child, expected) in cases {
        let schema = json!({"properties": {"x": child}});
        let v = Validator::new(&schema).unwrap();
        let ir = v.ir();
        let Body::Keywords(root) = &ir.node(ir.root).body else {
            unreachable!()
        };
        let child_id = root.object.as_ref().unwrap().properties[0].1;
        assert_eq!(ir.node(child_id).claims_what_passes, expected, "{child}");
    }
}
