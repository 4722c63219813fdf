//! The type snapshots compiled as ordinary code, with every warning an error, each beside a
//! validator for its schema under the tool rules; and what `parse` gives on instances chosen
//! to find where serde and the validator could disagree.

#![deny(warnings)]

use serde_json::{Value, json};
use toolschema::{Error, InputSchema, Options, Validate};

/// Declares `Validator`, the tool-rule validator of a schema file of `tests/schemas`, for the
/// snapshot included beside it. (The interpreter: the snapshots of generated validators are
/// compiled and held to it in `compiled.rs`.)
macro_rules! typed {
    ($module:ident) => {
        mod $module {
            #[derive(Default)]
            pub struct Validator;

            impl Validator {
                pub const SCHEMA_JSON: &'static str =
                    include_str!(concat!("schemas/", stringify!($module), ".json"));

                fn input() -> &'static toolschema::InputSchema {
                    static INPUT: std::sync::LazyLock<toolschema::InputSchema> =
                        std::sync::LazyLock::new(|| {
                            let text =
                                include_str!(concat!("schemas/", stringify!($module), ".json"));
                            let schema = serde_json::from_str(text).unwrap();
                            toolschema::InputSchema::new(&schema, &toolschema::Options::new())
                                .unwrap()
                        });
                    &INPUT
                }
            }

            impl toolschema::Validate for Validator {
                fn is_valid(&self, instance: &serde_json::Value) -> bool {
                    Validator::input().validator().is_valid(instance)
                }

                fn validate(&self, instance: &serde_json::Value) -> Result<(), toolschema::Error> {
                    Validator::input().validator().validate(instance)
                }

                fn evaluate(
                    &self,
                    instance: &serde_json::Value,
                ) -> Result<toolschema::Evaluation, toolschema::Error> {
                    Validator::input().validator().evaluate(instance)
                }
            }

            include!(concat!("snapshots/types/", stringify!($module), ".rs"));
        }
    };
}

typed!(flat_tool);
typed!(nested_defs);
typed!(recursive_tree);
typed!(unevaluated_all_of);
typed!(dynamic_ref);
typed!(file_actions);
typed!(typed_arguments);

/// `parse` on `instance`, held to the validator: a valid instance parses and serializes back
/// to an equal value; an invalid one fails with exactly the validator's error. Returns the
/// verdict.
fn round_trip<T: toolschema::__types::Serialize>(
    schema: &str,
    parse: fn(&Value) -> Result<T, Error>,
    instance: &Value,
) -> bool {
    let path = format!("{}/tests/schemas/{schema}.json", env!("CARGO_MANIFEST_DIR"));
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let input = InputSchema::new(&schema, &Options::new()).unwrap();
    let verdict = input.validator().validate(instance);
    match (parse(instance), verdict) {
        (Ok(typed), Ok(())) => {
            let back = serde_json::to_value(&typed).unwrap();
            assert!(
                toolschema::json::equal(&back, instance),
                "{instance} came back as {back}"
            );
            true
        }
        (Err(a), Err(b)) => {
            assert_eq!(a, b, "parse and validate fail alike on {instance}");
            false
        }
        (a, b) => panic!(
            "on {instance}: parse gives {:?}, the validator {b:?}",
            a.map(|_| ())
        ),
    }
}

#[test]
fn flat_tool() {
    let p = flat_tool::FlatToolArgs::parse;
    assert!(round_trip("flat_tool", p, &json!({"query": "rust"})));
    assert!(round_trip(
        "flat_tool",
        p,
        &json!({"query": "rust", "limit": 10.0, "sort": "date", "exact": true, "site": "https://a"})
    ));
    assert!(!round_trip(
        "flat_tool",
        p,
        &json!({"query": "", "limit": 0, "x": 1})
    ));
    assert!(!round_trip(
        "flat_tool",
        p,
        &json!({"query": "a", "sort": null})
    ));
    assert!(!round_trip("flat_tool", p, &json!([1])));
    let args = p(&json!({"query": "q", "limit": 100.0})).unwrap();
    assert_eq!(args.limit, Some(100u8));
    assert_eq!(args.sort, None);
}

#[test]
fn the_arguments_trait_names_the_validator_and_parses_alike() {
    use toolschema::Arguments;
    type Flat = flat_tool::FlatToolArgs;
    assert_eq!(
        <Flat as Arguments>::SCHEMA_JSON,
        flat_tool::Validator::SCHEMA_JSON
    );
    let valid = json!({"query": "q", "limit": 7.0, "sort": "date"});
    let through_trait = <Flat as Arguments>::parse(&valid).unwrap();
    assert_eq!(through_trait, Flat::parse(&valid).unwrap());
    // What a validator of this schema passed deserializes without validating again.
    assert_eq!(Flat::from_valid(&valid).unwrap(), through_trait);
    let invalid = json!({"query": ""});
    assert_eq!(
        <Flat as Arguments>::parse(&invalid).unwrap_err(),
        flat_tool::Validator.validate(&invalid).unwrap_err()
    );
    // Not validated: the type alone decides, and a shape it cannot hold is an error of its
    // own, never a panic.
    let err = Flat::from_valid(&json!({"query": 5})).unwrap_err();
    assert_eq!(err.class(), toolschema::ErrorClass::ExecutionFailure);
}

#[test]
fn nested_defs_and_recursion() {
    let p = nested_defs::NestedDefsArgs::parse;
    assert!(round_trip(
        "nested_defs",
        p,
        &json!({"title": "t", "assignee": {"login": "octo-cat", "id": 3, "extra": [1]}, "labels": ["bug"], "more": {}})
    ));
    assert!(!round_trip(
        "nested_defs",
        p,
        &json!({"title": "t", "assignee": {"id": 3}})
    ));
    let p = recursive_tree::RecursiveTreeArgs::parse;
    let tree = json!({"name": "a", "children": [{"name": "b", "children": [{"name": "c"}]}]});
    assert!(round_trip("recursive_tree", p, &tree));
    let parsed = p(&tree).unwrap();
    assert_eq!(parsed.children.unwrap()[0].name, "b");
    assert!(!round_trip(
        "recursive_tree",
        p,
        &json!({"name": "a", "children": [{}]})
    ));
}

#[test]
fn unions() {
    let p = file_actions::FileActionsArgs::parse;
    for call in [
        json!({"action": "read", "path": "a"}),
        json!({"action": "write", "path": "a", "content": "x", "timeout": 3}),
        json!({"action": "remove", "path": "a", "timeout": null}),
        json!({"action": "list", "recursive": true, "timeout": "10s"}),
        json!({"action": "move", "from": "a", "to": "b", "timeout": 2.0}),
    ] {
        assert!(round_trip("file_actions", p, &call), "{call}");
    }
    for call in [
        json!({"action": "read"}),
        json!({"action": "write", "path": "a"}),
        json!({"action": "list", "timeout": 0}),
        json!({"path": "a"}),
    ] {
        assert!(!round_trip("file_actions", p, &call), "{call}");
    }
    let p = unevaluated_all_of::UnevaluatedAllOfArgs::parse;
    assert!(round_trip(
        "unevaluated_all_of",
        p,
        &json!({"path": "a", "encoding": "utf-8", "start": 1, "end": 2})
    ));
    assert!(!round_trip(
        "unevaluated_all_of",
        p,
        &json!({"path": "a", "start": 1, "other": 0})
    ));
    assert!(!round_trip(
        "unevaluated_all_of",
        p,
        &json!({"path": "a", "encoding": "latin1", "start": 1})
    ));
}

#[test]
fn event_arguments() {
    let p = typed_arguments::EventArgs::parse;
    let full = json!({
        "title": "Standup",
        "startsAt": "2026-01-01T09:00:00Z",
        "durationMinutes": 15,
        "reminderSeconds": 1e20,
        "priority": "needs-review",
        "location": null,
        "attendees": [{"email": "a@example.test", "delegate": {"email": "b@example.test", "optional": true}}],
        "coordinates": [52.5, 13.4],
        "labels": {"team": "core"},
        "recurrence": {"kind": "weekly", "days": ["mon", "thu"]},
        "visibility": "private",
        "x-trace-id": "abc",
        "notes": [1, "two"],
        "weight": 18446744073709551615u64
    });
    assert!(round_trip("typed_arguments", p, &full));
    let event = p(&full).unwrap();
    assert_eq!(event.location, Some(None));
    assert_eq!(
        event.priority,
        Some(typed_arguments::EventArgsPriority::NeedsReview)
    );
    assert_eq!(event.coordinates, Some((52.5, 13.4)));
    for recurrence in [
        json!({"kind": "daily", "every": 2}),
        json!({"kind": "once", "note": 1}),
    ] {
        let call = json!({"title": "t", "startsAt": "s", "recurrence": recurrence});
        assert!(round_trip("typed_arguments", p, &call));
    }
    for bad in [
        json!({"title": "t", "startsAt": "s", "durationMinutes": 1}),
        json!({"title": "t", "startsAt": "s", "recurrence": {"kind": "daily", "days": []}}),
        json!({"title": "t", "startsAt": "s", "coordinates": [1]}),
        json!({"title": "t", "startsAt": "s", "visibility": "public"}),
        json!({"title": "t", "startsAt": "s", "notes": null}),
        json!({"title": "t"}),
    ] {
        assert!(!round_trip("typed_arguments", p, &bad), "{bad}");
    }
}

#[test]
fn fallbacks_are_reported() {
    assert_eq!(
        typed_arguments::EventArgs::FALLBACKS,
        [("/properties/notes", "`not` on a value of any type")]
    );
    assert!(flat_tool::FlatToolArgs::FALLBACKS.is_empty());
    assert_eq!(dynamic_ref::DynamicRefArgs::FALLBACKS.len(), 1);
}

#[test]
fn dynamic_reference_falls_back_to_a_value() {
    let p = dynamic_ref::DynamicRefArgs::parse;
    assert!(round_trip(
        "dynamic_ref",
        p,
        &json!({"data": 1, "children": [{"data": null}]})
    ));
    assert!(!round_trip(
        "dynamic_ref",
        p,
        &json!({"children": [{"other": 1}]})
    ));
}

#[test]
fn a_passing_validation_with_a_hand_broken_validator_is_reported_not_panicked() {
    // A validator that accepts everything, beside a type that cannot hold a string: the
    // error names the mismatch as a failure to deserialize.
    struct Everything;
    impl Validate for Everything {
        fn is_valid(&self, _: &Value) -> bool {
            true
        }
        fn validate(&self, _: &Value) -> Result<(), Error> {
            Ok(())
        }
        fn evaluate(&self, instance: &Value) -> Result<toolschema::Evaluation, Error> {
            toolschema::Validator::new(&json!(true))?.evaluate(instance)
        }
    }
    let err = toolschema::__types::parse::<flat_tool::FlatToolArgs>(&Everything, &json!("x"))
        .unwrap_err();
    assert_eq!(err.class(), toolschema::ErrorClass::ExecutionFailure);
    assert!(err.message().contains("did not deserialize"));
}

#[test]
fn builder_names_collide_as_errors() {
    let schema = json!({"type": "object", "properties": {"q": {"type": "string"}}});
    let err = toolschema_compiler::Builder::new()
        .schema_value("search", schema.clone())
        .schema_value("other", schema.clone())
        .types("other", "Search")
        .generate()
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "schema name \"Search\": two generated items have this name"
    );
    let err = toolschema_compiler::Builder::new()
        .schema_value("search", schema.clone())
        .types("missing", "SearchArgs")
        .generate()
        .unwrap_err();
    assert!(err.to_string().contains("does not have"), "{err}");
    let err = toolschema_compiler::Builder::new()
        .schema_value("search", schema)
        .types("search", "search_args")
        .generate()
        .unwrap_err();
    assert!(err.to_string().contains("UpperCamelCase"), "{err}");
}
