//! The macro's two forms, its options, and the JSON it reads from tokens.

use serde_json::json;
use toolschema::tool_schema;
use toolschema::{ErrorClass, Validate, Validator};

tool_schema!(pub SearchArgs, path = "tests/schemas/search.json", resources = {
    "https://example.test/common.json" => "tests/schemas/common.json",
});

tool_schema!(
    /// Every kind of JSON token.
    pub(crate) Tokens = {
        "properties": {
            "n": {"minimum": -5, "maximum": 1.5e3, "multipleOf": 0.5},
            "s": {"const": "tab\there \"quoted\" \u{e9} \\d"},
            "r": {"pattern": r"^\d+$"},
            "a": {"prefixItems": [{"const": [true]}, {"enum": [null, false, [1, [-2.25, []]], {}]}]},
            "a~b/c": {"type": "boolean"}
        }
    }
);

tool_schema!(Dated = {"properties": {"when": {"format": "date"}}}, format_assertion = true);

#[test]
fn file_form_with_a_resource() {
    assert!(SearchArgs.is_valid(&json!({"query": "fn main", "owner": "octo", "limit": 5})));
    let err = SearchArgs
        .validate(&json!({"query": "", "owner": "Octo", "extra": 1}))
        .unwrap_err();
    assert_eq!(err.class(), ErrorClass::Validation);
    let at: Vec<&str> = err
        .failures()
        .iter()
        .map(|f| f.instance_location())
        .collect();
    assert_eq!(at, ["/extra", "/owner", "/query"]);
    assert!(!SearchArgs.is_valid(&json!(["not", "an", "object"])));
    // The file's text as written.
    assert_eq!(SearchArgs::SCHEMA_JSON, include_str!("schemas/search.json"));
    assert_eq!(SearchArgs::schema()["required"], json!(["query"]));
}

#[test]
fn inline_tokens_read_as_json() {
    let expected = json!({
        "properties": {
            "n": {"minimum": -5, "maximum": 1.5e3, "multipleOf": 0.5},
            "s": {"const": "tab\there \"quoted\" \u{e9} \\d"},
            "r": {"pattern": "^\\d+$"},
            "a": {"prefixItems": [{"const": [true]}, {"enum": [null, false, [1, [-2.25, []]], {}]}]},
            "a~b/c": {"type": "boolean"}
        }
    });
    assert_eq!(Tokens::schema(), &expected);
    // Compact, members in the order written, numbers as written.
    assert!(
        Tokens::SCHEMA_JSON.starts_with(
            r#"{"properties":{"n":{"minimum":-5,"maximum":1.5e3,"multipleOf":0.5},"s":"#
        )
    );
    assert!(Tokens.is_valid(&json!({"n": -4.5, "s": "tab\there \"quoted\" é \\d", "r": "42"})));
    assert!(!Tokens.is_valid(&json!({"n": -6})));
    assert!(!Tokens.is_valid(&json!({"n": 0.25})));
    assert!(!Tokens.is_valid(&json!({"r": "4a"})));
    assert!(!Tokens.is_valid(&json!({"a~b/c": 1})));
    assert!(Tokens.is_valid(&json!({"a": [[true], [1, [-2.25, []]]]})));
    assert!(!Tokens.is_valid(&json!({"a": [[true], 1]})));
}

#[test]
fn options_apply() {
    assert!(Dated.is_valid(&json!({"when": "2026-12-02"})));
    assert!(!Dated.is_valid(&json!({"when": "yesterday"})));
}

#[test]
fn agrees_with_the_interpreter() {
    let interpreted = Validator::new(SearchArgs::schema());
    // The resource is needed by the interpreter too; without it the schema is rejected.
    assert!(interpreted.is_err());
    let tokens = Validator::new(Tokens::schema()).unwrap();
    for instance in [
        json!({"n": 3}),
        json!({"n": "x", "s": 1, "a": [[false], 2]}),
        json!({"a~b/c": null}),
    ] {
        assert_eq!(
            format!("{:?}", Tokens.validate(&instance)),
            format!("{:?}", tokens.validate(&instance))
        );
    }
}

mod nested {
    toolschema_macros::tool_schema!(pub Inner = {"type": "object"});
}

#[test]
fn items_in_modules_and_functions() {
    assert!(nested::Inner.is_valid(&json!({})));
    toolschema_macros::tool_schema!(Local = {"required": ["x"]});
    assert!(!Local.is_valid(&json!({})));
}

tool_schema!(Range = {
    "properties": {
        "start": {"type": "integer", "minimum": 0},
        "end": {"type": "integer", "minimum": 0},
        "step": {"type": "integer", "minimum": 1}
    }
});

/// `start` and `end` are one subschema twice, so one function serves both; each failure
/// still names its own subschema, as the interpreter does.
#[test]
fn shared_functions_keep_each_absolute_location() {
    let instance = json!({"start": -1, "end": "x", "step": 0});
    let err = Range.validate(&instance).unwrap_err();
    let absolute: Vec<_> = err
        .failures()
        .iter()
        .map(|f| f.absolute_keyword_location().unwrap())
        .collect();
    assert_eq!(
        absolute,
        [
            "toolschema:///schema.json#/properties/end/type",
            "toolschema:///schema.json#/properties/start/minimum",
            "toolschema:///schema.json#/properties/step/minimum",
        ]
    );
    let interpreted =
        toolschema::InputSchema::new(Range::schema(), &toolschema::Options::new()).unwrap();
    assert_eq!(
        err.failures(),
        interpreted.validate(&instance).unwrap_err().failures()
    );
    let code = toolschema_compiler::Builder::new()
        .tool_schemas(true)
        .schema_value("range", Range::schema().clone())
        .tokens()
        .unwrap()
        .to_string();
    // One node function takes the member's place in its class (`at`), beside the out-of-line
    // collecting flavour of that function, which passes it on.
    assert_eq!(
        code.matches("Mode < C > , at : usize").count(),
        1,
        "start and end share a function"
    );
}
