//! The regex cases of the official JSON-Schema-Test-Suite (draft 2020-12),
//! run directly against `toolschema_core::regex`.
//!
//! Groups whose schema is just a `pattern` or `"format": "regex"` (with an
//! optional `$schema` and `"type": "string"`) are checked case by case.
//! `patternProperties` groups are checked with a small evaluator that knows
//! only what those groups use (`type`, `maximum`, boolean subschemas,
//! `additionalProperties: false`); any other group is counted as skipped.

use std::path::PathBuf;

use serde_json::{Map, Value};
use toolschema_core::regex::{DEFAULT_SIZE_LIMIT, Pattern, is_valid_syntax};

const FILES: &[&str] = &[
    "tests/draft2020-12/optional/ecmascript-regex.json",
    "tests/draft2020-12/optional/non-bmp-regex.json",
    "tests/draft2020-12/pattern.json",
    "tests/draft2020-12/patternProperties.json",
    "tests/draft2020-12/optional/format/regex.json",
    "tests/draft2020-12/optional/format/ecmascript-regex.json",
];

/// Cases that cannot pass, as (file, group description, test description,
/// reason). Empty: every case passes.
const KNOWN_FAILURES: &[(&str, &str, &str, &str)] = &[];

fn suite_dir() -> PathBuf {
    match std::env::var_os("JSON_SCHEMA_TEST_SUITE") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../shared/json-schema-test-suite"
        )),
    }
}

#[derive(Default)]
struct Tally {
    passed: usize,
    known: usize,
    skipped_groups: usize,
    failures: Vec<String>,
}

enum Check<'a> {
    Pattern(&'a str),
    FormatRegex,
    Object(&'a Map<String, Value>),
}

/// How to check a group's schema, if it is one of the shapes handled here.
fn classify(schema: &Value) -> Option<Check<'_>> {
    let schema = schema.as_object()?;
    let mut check = None;
    for (key, value) in schema {
        match (key.as_str(), value) {
            ("$schema", _) => {}
            ("type", Value::String(t)) if t == "string" => {}
            ("pattern", Value::String(p)) if check.is_none() => check = Some(Check::Pattern(p)),
            ("format", Value::String(f)) if f == "regex" && check.is_none() => {
                check = Some(Check::FormatRegex)
            }
            ("patternProperties" | "additionalProperties", _) | ("type", _) => {
                return object_schema_supported(schema).then_some(Check::Object(schema));
            }
            _ => return None,
        }
    }
    check
}

fn object_schema_supported(schema: &Map<String, Value>) -> bool {
    let sub_ok = |sub: &Value| match sub {
        Value::Bool(_) => true,
        Value::Object(o) => o.keys().all(|k| k == "type" || k == "maximum"),
        _ => false,
    };
    schema.iter().all(|(key, value)| match key.as_str() {
        "$schema" => true,
        "type" => value == "object",
        "additionalProperties" => value == &Value::Bool(false),
        "patternProperties" => value
            .as_object()
            .is_some_and(|props| props.values().all(sub_ok)),
        _ => false,
    })
}

fn has_type(value: &Value, ty: &str) -> bool {
    match ty {
        "integer" => {
            value.is_i64() || value.is_u64() || value.as_f64().is_some_and(|f| f.fract() == 0.0)
        }
        "number" => value.is_number(),
        "string" => value.is_string(),
        "boolean" => value.is_boolean(),
        "null" => value.is_null(),
        "object" => value.is_object(),
        "array" => value.is_array(),
        _ => false,
    }
}

fn sub_valid(sub: &Value, value: &Value) -> bool {
    match sub {
        Value::Bool(b) => *b,
        Value::Object(o) => {
            o.get("type")
                .and_then(Value::as_str)
                .is_none_or(|t| has_type(value, t))
                && o.get("maximum")
                    .and_then(Value::as_f64)
                    .is_none_or(|max| value.as_f64().is_none_or(|v| v <= max))
        }
        _ => false,
    }
}

fn object_valid(schema: &Map<String, Value>, patterns: &[(Pattern, &Value)], data: &Value) -> bool {
    let Some(object) = data.as_object() else {
        return schema.get("type").is_none();
    };
    let closed = schema.get("additionalProperties") == Some(&Value::Bool(false));
    object.iter().all(|(key, value)| {
        let mut matched = false;
        for (pattern, sub) in patterns {
            if pattern.is_match(key) {
                matched = true;
                if !sub_valid(sub, value) {
                    return false;
                }
            }
        }
        matched || !closed
    })
}

fn run_file(file: &str, tally: &mut Tally) {
    let path = suite_dir().join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "cannot read {} ({e}); set JSON_SCHEMA_TEST_SUITE to the suite's directory",
            path.display()
        )
    });
    let groups: Vec<Value> = serde_json::from_str(&text).expect("suite file is JSON");
    for group in &groups {
        let description = group["description"].as_str().unwrap_or("");
        let Some(check) = classify(&group["schema"]) else {
            tally.skipped_groups += 1;
            continue;
        };
        let compiled = match &check {
            Check::Pattern(p) => Some(Pattern::new(p, DEFAULT_SIZE_LIMIT)),
            _ => None,
        };
        let object_patterns: Option<Result<Vec<(Pattern, &Value)>, String>> = match &check {
            Check::Object(schema) => Some(
                schema
                    .get("patternProperties")
                    .and_then(Value::as_object)
                    .into_iter()
                    .flatten()
                    .map(|(p, sub)| {
                        Pattern::new(p, DEFAULT_SIZE_LIMIT)
                            .map(|p| (p, sub))
                            .map_err(|e| e.to_string())
                    })
                    .collect(),
            ),
            _ => None,
        };
        for test in group["tests"].as_array().into_iter().flatten() {
            let test_description = test["description"].as_str().unwrap_or("");
            let data = &test["data"];
            let expected = test["valid"].as_bool().expect("valid is a boolean");
            let got: Result<bool, String> = match (&check, data) {
                (Check::Pattern(_), Value::String(s)) => match &compiled {
                    Some(Ok(p)) => Ok(p.is_match(s)),
                    Some(Err(e)) => Err(e.to_string()),
                    None => Err("not compiled".into()),
                },
                (Check::FormatRegex, Value::String(s)) => Ok(is_valid_syntax(s)),
                // `pattern` and `format` ignore non-strings.
                (Check::Pattern(_) | Check::FormatRegex, _) => Ok(true),
                (Check::Object(schema), _) => match &object_patterns {
                    Some(Ok(patterns)) => Ok(object_valid(schema, patterns, data)),
                    Some(Err(e)) => Err(e.clone()),
                    None => Err("not compiled".into()),
                },
            };
            if got.as_ref() == Ok(&expected) {
                tally.passed += 1;
            } else if KNOWN_FAILURES
                .iter()
                .any(|&(f, g, t, _)| f == file && g == description && t == test_description)
            {
                tally.known += 1;
            } else {
                tally.failures.push(format!(
                    "{file}: {description} / {test_description}: expected {expected}, got {got:?}"
                ));
            }
        }
    }
}

#[test]
fn json_schema_test_suite_regex_cases() {
    let mut tally = Tally::default();
    for file in FILES {
        run_file(file, &mut tally);
    }
    println!(
        "json-schema-test-suite regex cases: {} passed, {} known failures, {} failed, {} groups skipped",
        tally.passed,
        tally.known,
        tally.failures.len(),
        tally.skipped_groups
    );
    assert!(
        tally.failures.is_empty(),
        "{} unexpected failures:\n{}",
        tally.failures.len(),
        tally.failures.join("\n")
    );
    // Guards against a filter that silently stops selecting cases.
    assert!(tally.passed >= 100, "only {} cases ran", tally.passed);
}
