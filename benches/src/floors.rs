//! Floors to read the validators' figures against: the flat tool schema's checks written by
//! hand, and a walk that only touches every node of the instance.

use serde_json::Value;
use std::hint::black_box;

/// Whether `value` passes the checks `compiler/tests/schemas/flat_tool.json` declares for the
/// property `name`; an undeclared property fails (`additionalProperties: false`).
fn flat_tool_property_ok(name: &str, value: &Value) -> bool {
    match name {
        // Lengths count code points; a string of at most 200 bytes has at most 200 of them,
        // so only a longer one is counted.
        "query" => value
            .as_str()
            .is_some_and(|s| !s.is_empty() && (s.len() <= 200 || s.chars().count() <= 200)),
        // `integer` includes numbers such as 5.0.
        "limit" => value
            .as_f64()
            .is_some_and(|n| n.fract() == 0.0 && (1.0..=100.0).contains(&n)),
        "sort" => matches!(value.as_str(), Some("relevance" | "date")),
        "exact" => value.is_boolean(),
        // `^https://` is a literal prefix.
        "site" => value.as_str().is_some_and(|s| s.starts_with("https://")),
        _ => false,
    }
}

/// `compiler/tests/schemas/flat_tool.json`'s verdict, written by hand.
pub fn flat_tool_is_valid(instance: &Value) -> bool {
    let Value::Object(members) = instance else {
        return false;
    };
    members
        .iter()
        .all(|(name, value)| flat_tool_property_ok(name, value))
        && members.contains_key("query")
}

/// How many of `compiler/tests/schemas/flat_tool.json`'s checks `instance` fails, written by
/// hand: one per failing property, one for a missing `query`.
pub fn flat_tool_error_count(instance: &Value) -> usize {
    let Value::Object(members) = instance else {
        return 1;
    };
    let failing = members
        .iter()
        .filter(|(name, value)| !flat_tool_property_ok(name, value))
        .count();
    failing + usize::from(!members.contains_key("query"))
}

/// Touches every node of `instance` as any validator over `serde_json::Value` must at least:
/// enters every array and object, reads every key's length and every scalar. Returns the
/// number of nodes.
pub fn plain_walk(instance: &Value) -> usize {
    match instance {
        Value::Null => 1,
        Value::Bool(b) => {
            black_box(*b);
            1
        }
        Value::Number(n) => {
            black_box(n.as_f64());
            1
        }
        Value::String(s) => {
            black_box(s.len());
            1
        }
        Value::Array(items) => 1 + items.iter().map(plain_walk).sum::<usize>(),
        Value::Object(members) => {
            1 + members
                .iter()
                .map(|(key, value)| {
                    black_box(key.len());
                    plain_walk(value)
                })
                .sum::<usize>()
        }
    }
}
