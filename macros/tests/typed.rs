//! `tool_schema!(…, types = Name)`: typed arguments beside the validator, from the same IR.

#![deny(warnings)]

use serde_json::json;
use toolschema::{ErrorClass, Validate, tool_schema};

tool_schema!(
    /// The validator of `search`.
    pub SearchSchema = {
        "type": "object",
        "properties": {
            "query": {"type": "string", "minLength": 1, "description": "What to look for."},
            "maxResults": {"type": "integer", "minimum": 1, "maximum": 100},
            "sort": {"enum": ["relevance", "date"]},
            "filter": {"$ref": "#/$defs/filter"}
        },
        "required": ["query"],
        "additionalProperties": false,
        "$defs": {
            "filter": {
                "type": "object",
                "properties": {"language": {"type": "string"}, "after": {"type": ["string", "null"]}},
                "additionalProperties": {"type": "boolean"}
            }
        }
    },
    types = SearchArgs
);

tool_schema!(ReadSchema, path = "tests/schemas/search.json", resources = {
    "https://example.test/common.json" => "tests/schemas/common.json",
}, types = ReadArgs);

#[test]
fn parse_validates_then_deserializes() {
    let args = SearchArgs::parse(&json!({
        "query": "fn main",
        "maxResults": 20.0,
        "sort": "date",
        "filter": {"language": "rust", "after": null, "archived": false}
    }))
    .unwrap();
    assert_eq!(args.query, "fn main");
    assert_eq!(args.max_results, Some(20u8));
    assert_eq!(args.sort, Some(SearchArgsSort::Date));
    let filter = args.filter.as_ref().unwrap();
    assert_eq!(filter.language.as_deref(), Some("rust"));
    assert_eq!(filter.after, Some(None));
    assert_eq!(filter.rest.get("archived"), Some(&false));
    let back = serde_json::to_value(&args).unwrap();
    assert_eq!(back["filter"]["after"], json!(null));
    assert_eq!(back["maxResults"], json!(20));
}

#[test]
fn a_failing_call_gets_the_validators_error() {
    let call = json!({"query": "", "maxResults": 1000, "extra": 1});
    let err = SearchArgs::parse(&call).unwrap_err();
    assert_eq!(err.class(), ErrorClass::Validation);
    assert_eq!(err, SearchSchema.validate(&call).unwrap_err());
    assert_eq!(err.failures().len(), 3);
    // The unit-struct validator is unchanged.
    assert!(SearchSchema.is_valid(&json!({"query": "q"})));
}

#[test]
fn a_file_schema_with_a_resource() {
    let call = json!({"query": "fn main", "owner": "octo", "limit": 5});
    assert!(ReadSchema.is_valid(&call));
    let args = ReadArgs::parse(&call).unwrap();
    assert!(toolschema::json::equal(
        &serde_json::to_value(&args).unwrap(),
        &call
    ));
    assert!(ReadArgs::parse(&json!({"query": 1})).is_err());
}

// The README's handler, as written there.
tool_schema!(
    pub ReadFileSchema = {
        "type": "object",
        "properties": {
            "path": {"type": "string", "minLength": 1},
            "encoding": {"enum": ["utf-8", "base64"]},
            "maxBytes": {"type": "integer", "minimum": 1, "maximum": 1048576}
        },
        "required": ["path"],
        "additionalProperties": false
    },
    types = ReadFileArgs
);

fn read_file(arguments: &serde_json::Value) -> Result<String, toolschema::Error> {
    let args: ReadFileArgs = ReadFileArgs::parse(arguments)?;
    let limit: u32 = args.max_bytes.unwrap_or(65536);
    let base64 = args.encoding == Some(ReadFileArgsEncoding::Base64);
    Ok(format!("{} ({limit} bytes, base64: {base64})", args.path))
}

#[test]
fn the_readme_handler() {
    assert_eq!(
        read_file(&json!({"path": "a.txt", "encoding": "base64", "maxBytes": 10})).unwrap(),
        "a.txt (10 bytes, base64: true)"
    );
    let err = read_file(&json!({"path": "", "maxBytes": 0})).unwrap_err();
    assert_eq!(err.failures().len(), 2);
}
