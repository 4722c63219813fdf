//! A sample of JSON-Schema-Test-Suite schemas, copied inline into the macro, checked against
//! the interpreter under the same tool-call rules on every test of their group.
//!
//! The suite is read at run time from `../../shared/json-schema-test-suite` relative to this
//! crate, or from `JSON_SCHEMA_TEST_SUITE`; the copies are checked to equal the suite's.

use serde_json::Value;
use std::path::{Path, PathBuf};
use toolschema::{InputSchema, Options, Validate};

macro_rules! cases {
    ($($ty:ident: $file:literal $index:literal $schema:tt)*) => {
        $(toolschema_macros::tool_schema!($ty = $schema);)*

        const CASES: &[(&str, usize, &dyn Validate, fn() -> &'static Value)] =
            &[$(($file, $index, &$ty, $ty::schema)),*];
    };
}

cases! {
    Properties: "properties.json" 0 {"$schema": "https://json-schema.org/draft/2020-12/schema", "properties": {"foo": {"type": "integer"}, "bar": {"type": "string"}}}
    BooleanProperties: "properties.json" 2 {"$schema": "https://json-schema.org/draft/2020-12/schema", "properties": {"foo": true, "bar": false}}
    Required: "required.json" 0 {"$schema": "https://json-schema.org/draft/2020-12/schema", "properties": {"foo": {}, "bar": {}}, "required": ["foo"]}
    RequiredEscaped: "required.json" 3 {"$schema": "https://json-schema.org/draft/2020-12/schema", "required": ["foo\nbar", "foo\"bar", "foo\\bar", "foo\rbar", "foo\tbar", "foo\u{c}bar"]}
    NoAdditional: "additionalProperties.json" 0 {"$schema": "https://json-schema.org/draft/2020-12/schema", "properties": {"foo": {}, "bar": {}}, "patternProperties": {"^v": {}}, "additionalProperties": false}
    NonAsciiPattern: "additionalProperties.json" 1 {"$schema": "https://json-schema.org/draft/2020-12/schema", "patternProperties": {"^\u{e1}": {}}, "additionalProperties": false}
    DependentRequired: "dependentRequired.json" 2 {"$schema": "https://json-schema.org/draft/2020-12/schema", "dependentRequired": {"quux": ["foo", "bar"]}}
    Patterns: "patternProperties.json" 1 {"$schema": "https://json-schema.org/draft/2020-12/schema", "patternProperties": {"a*": {"type": "integer"}, "aaa*": {"maximum": 20}}}
    LetterPattern: "patternProperties.json" 5 {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "patternProperties": {"^\\p{Letter}+$": {"type": "number"}}}
    Unevaluated: "unevaluatedProperties.json" 7 {"$schema": "https://json-schema.org/draft/2020-12/schema", "properties": {"foo": {"type": "string"}}, "allOf": [{"properties": {"bar": {"type": "string"}}}], "unevaluatedProperties": false}
    CyclicRef: "unevaluatedProperties.json" 33 {"$schema": "https://json-schema.org/draft/2020-12/schema", "properties": {"x": {"$ref": "#"}}, "unevaluatedProperties": false}
    PropertyNames: "propertyNames.json" 0 {"$schema": "https://json-schema.org/draft/2020-12/schema", "propertyNames": {"maxLength": 3}}
    MaxProperties: "maxProperties.json" 1 {"$schema": "https://json-schema.org/draft/2020-12/schema", "maxProperties": 2.0}
    OneOfRequired: "oneOf.json" 8 {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "oneOf": [{"required": ["foo", "bar"]}, {"required": ["foo", "baz"]}]}
    IfThenElse: "if-then-else.json" 5 {"$schema": "https://json-schema.org/draft/2020-12/schema", "if": {"exclusiveMaximum": 0}, "then": {"minimum": -10}, "else": {"multipleOf": 2}}
    RootRef: "ref.json" 0 {"$schema": "https://json-schema.org/draft/2020-12/schema", "properties": {"foo": {"$ref": "#"}}, "additionalProperties": false}
    QuotedRef: "ref.json" 12 {"$schema": "https://json-schema.org/draft/2020-12/schema", "properties": {"foo\"bar": {"$ref": "#/$defs/foo%22bar"}}, "$defs": {"foo\"bar": {"type": "number"}}}
    NotInteger: "not.json" 0 {"$schema": "https://json-schema.org/draft/2020-12/schema", "not": {"type": "integer"}}
}

fn suite_root() -> PathBuf {
    std::env::var_os("JSON_SCHEMA_TEST_SUITE")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/json-schema-test-suite")
        })
}

#[test]
fn macro_validators_agree_with_the_interpreter() {
    let dir = suite_root().join("tests/draft2020-12");
    let mut checked = 0;
    for &(file, index, compiled, schema) in CASES {
        let text = std::fs::read_to_string(dir.join(file)).expect("the suite is checked out");
        let groups: Value = serde_json::from_str(&text).unwrap();
        let group = &groups[index];
        assert_eq!(
            schema(),
            &group["schema"],
            "{file} #{index}: the copy differs"
        );
        let interpreted = InputSchema::new(schema(), &Options::new()).unwrap();
        for test in group["tests"].as_array().unwrap() {
            let data = &test["data"];
            let what = format!("{file} #{index}: {}", test["description"]);
            assert_eq!(
                format!("{:?}", compiled.validate(data)),
                format!("{:?}", interpreted.validator().validate(data)),
                "{what}"
            );
            assert_eq!(
                compiled.is_valid(data),
                interpreted.is_valid(data),
                "{what}"
            );
            // Tool arguments are objects: elsewhere the suite's verdict holds.
            if data.is_object() {
                assert_eq!(compiled.is_valid(data), test["valid"] == true, "{what}");
            } else {
                assert!(!compiled.is_valid(data), "{what}");
            }
            checked += 1;
        }
    }
    assert!(checked > 50, "{checked} tests");
}
