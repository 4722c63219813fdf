//! `format` and `content*` are annotations unless the caller asks for assertion.

use serde_json::{Value, json};
use toolschema::{Options, Validate, Validator};
use toolschema_conformance::suite_root;

/// With format assertion off, every case of every `optional/format` file is valid.
#[test]
fn formats_are_annotations_by_default() {
    let dir = suite_root().join("tests/draft2020-12/optional/format");
    let mut cases = 0;
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    for file in files {
        let groups: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        for group in groups.as_array().unwrap() {
            let v = Validator::new(&group["schema"]).unwrap();
            for test in group["tests"].as_array().unwrap() {
                assert!(
                    v.is_valid(&test["data"]) && v.validate(&test["data"]).is_ok(),
                    "{}: {} / {} should be valid with format as an annotation",
                    file.display(),
                    group["description"],
                    test["description"]
                );
                cases += 1;
            }
        }
    }
    assert_eq!(cases, 625);
}

mod compiled {
    toolschema::include_validators!("compiled_content_asserted.rs");
    toolschema::include_validators!("compiled_content_annotated.rs");
}

const CONTENT_TOOL: &str = include_str!("../content/content_tool.json");

fn content_validator(assert: bool) -> Validator {
    let schema: Value = serde_json::from_str(CONTENT_TOOL).unwrap();
    Validator::with_options(&schema, &Options::new().content_assertion(assert)).unwrap()
}

/// The compiled validator for the same schema and setting, held to the interpreter's exact
/// outcome on `instance`; returns the interpreter's outcome.
fn both(assert: bool, instance: &Value) -> Result<(), toolschema::Error> {
    let interpreted = content_validator(assert);
    let compiled: &dyn Validate = if assert {
        &compiled::ContentAsserted
    } else {
        &compiled::ContentAnnotated
    };
    toolschema_conformance::agree(compiled, &interpreted, instance)
        .unwrap_or_else(|e| panic!("{instance}: the paths disagree: {e}"));
    interpreted.validate(instance)
}

#[test]
fn content_is_an_annotation_by_default() {
    for instance in [
        json!({"payload": "not base64!"}),
        json!({"raw": "{not json"}),
        json!({"payload": "eyJpZCI6ICJ4In0="}),
    ] {
        assert!(both(false, &instance).is_ok(), "{instance}");
    }
}

#[test]
fn content_assertion_rejects_bad_encoding_media_type_and_schema() {
    let v = content_validator(true);
    // {"id": 7}
    assert!(v.is_valid(&json!({"payload": "eyJpZCI6IDd9"})));
    assert!(v.is_valid(&json!({"raw": "[1, 2]", "blob": "AAEC"})));
    assert!(
        v.is_valid(&json!({"payload": 5})),
        "content keywords apply to strings only"
    );

    // (arguments, keyword location, instance location). Inside decoded content, locations
    // continue below the string that held it.
    let cases = [
        (
            json!({"payload": "eyJpZCI6IDd9!"}),
            "/properties/payload/contentEncoding",
            "/payload",
        ),
        (
            json!({"blob": "AAE"}),
            "/properties/blob/contentEncoding",
            "/blob",
        ),
        // base64 of `{"id": `
        (
            json!({"payload": "eyJpZCI6IA=="}),
            "/properties/payload/contentMediaType",
            "/payload",
        ),
        (
            json!({"raw": "{not json"}),
            "/properties/raw/contentMediaType",
            "/raw",
        ),
        // {"id": "x"}
        (
            json!({"payload": "eyJpZCI6ICJ4In0="}),
            "/properties/payload/contentSchema/properties/id/type",
            "/payload/id",
        ),
        // {}
        (
            json!({"payload": "e30="}),
            "/properties/payload/contentSchema/required",
            "/payload",
        ),
    ];
    for (instance, keyword_location, instance_location) in cases {
        let err = both(true, &instance).unwrap_err();
        let f = &err.failures()[0];
        assert_eq!(f.keyword_location(), keyword_location, "{instance}: {err}");
        assert_eq!(
            f.instance_location(),
            instance_location,
            "{instance}: {err}"
        );
    }
}
