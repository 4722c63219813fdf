//! The text of every failure message, shared by the interpreter and generated validators so
//! that both paths report exactly the same words.
//!
//! Messages are written for whoever must fix the call, a person or a model: what is wrong,
//! then what was expected.

use crate::json::{JsonType, TypeSet};
use serde_json::{Number, Value};
use std::borrow::Cow;
use std::fmt::Write;
use std::sync::OnceLock;

const SHOWN: usize = 80;

/// `1 item`, `2 items`.
fn counted(n: u64, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// A value as compact JSON, shortened when long.
pub fn show(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() <= SHOWN {
        return text;
    }
    let cut: String = text.chars().take(SHOWN).collect();
    format!("{cut}…")
}

fn article(t: JsonType) -> &'static str {
    match t {
        JsonType::Null => "null",
        JsonType::Boolean => "a boolean",
        JsonType::Object => "an object",
        JsonType::Array => "an array",
        JsonType::Number => "a number",
        JsonType::String => "a string",
        JsonType::Integer => "an integer",
    }
}

fn found(value: &Value) -> &'static str {
    article(JsonType::of(value))
}

/// Tool arguments that are not an object.
pub fn arguments_not_object(value: &Value) -> String {
    format!("tool arguments must be an object, found {}", found(value))
}

/// A tool's input schema that is not a schema object.
///
/// ```
/// use serde_json::json;
/// assert!(toolschema::messages::tool_schema_not_object(&json!(true)).contains("a boolean"));
/// ```
pub fn tool_schema_not_object(schema: &Value) -> String {
    format!(
        "a tool's input schema must be a JSON object, found {}",
        found(schema)
    )
}

/// A tool's root `type` that allows more than objects.
///
/// ```
/// use serde_json::json;
/// let message = toolschema::messages::tool_root_type(&json!(["object", "null"]));
/// assert!(message.contains(r#"["object","null"]"#));
/// ```
pub fn tool_root_type(types: &Value) -> String {
    format!(
        "a tool's input schema must have type \"object\" or none, found {types}: tool arguments are always an object"
    )
}

/// `type`.
pub fn type_mismatch(expected: TypeSet, value: &Value) -> String {
    // Written into one string: this message is the commonest failure.
    let mut out = String::with_capacity(48);
    out.push_str("expected ");
    let count = expected.iter().count();
    if count == 0 {
        out.push_str("no type at all");
    }
    for (i, t) in expected.iter().enumerate() {
        if i > 0 {
            out.push_str(if i + 1 == count { " or " } else { ", " });
        }
        out.push_str(article(t));
    }
    match value {
        Value::Number(_) if expected.contains(JsonType::Integer) => {
            out.push_str(", found the number ");
            out.push_str(&show(value));
        }
        _ => {
            out.push_str(", found ");
            out.push_str(found(value));
        }
    }
    out
}

/// [`type_mismatch`], made once per expected set and type found and then shared, where the
/// message does not name the value (all but a number where an integer is expected).
pub fn type_mismatch_shared(expected: TypeSet, value: &Value) -> Cow<'static, str> {
    const FOUND: usize = 6;
    static MADE: [OnceLock<String>; 128 * FOUND] = [const { OnceLock::new() }; 128 * FOUND];
    let found = match value {
        Value::Number(_) if expected.contains(JsonType::Integer) => {
            return Cow::Owned(type_mismatch(expected, value));
        }
        Value::Null => 0,
        Value::Bool(_) => 1,
        Value::Object(_) => 2,
        Value::Array(_) => 3,
        Value::Number(_) => 4,
        Value::String(_) => 5,
    };
    let slot = &MADE[usize::from(expected.bits()) * FOUND + found];
    Cow::Borrowed(slot.get_or_init(|| type_mismatch(expected, value)).as_str())
}

/// `const`.
pub fn const_mismatch(expected: &Value) -> String {
    format!("must be exactly {}", show(expected))
}

/// `enum`.
pub fn enum_mismatch(options: &[Value]) -> String {
    let mut list = String::new();
    for (i, v) in options.iter().enumerate() {
        if i > 0 {
            list.push_str(", ");
        }
        if list.len() > 200 {
            let _ = write!(list, "… ({} more)", options.len() - i);
            break;
        }
        list.push_str(&show(v));
    }
    format!("must be one of: {list}")
}

/// `minimum`.
pub fn minimum(value: &Number, bound: &Number) -> String {
    format!("{value} is less than the minimum of {bound}")
}

/// `maximum`.
pub fn maximum(value: &Number, bound: &Number) -> String {
    format!("{value} is greater than the maximum of {bound}")
}

/// `exclusiveMinimum`.
pub fn exclusive_minimum(value: &Number, bound: &Number) -> String {
    format!("{value} must be greater than {bound}")
}

/// `exclusiveMaximum`.
pub fn exclusive_maximum(value: &Number, bound: &Number) -> String {
    format!("{value} must be less than {bound}")
}

/// `multipleOf`.
pub fn multiple_of(value: &Number, divisor: &Number) -> String {
    format!("{value} is not a multiple of {divisor}")
}

/// `minLength`.
pub fn min_length(limit: u64, length: usize) -> String {
    format!(
        "must be at least {} long, but has {length}",
        counted(limit, "character", "characters")
    )
}

/// `maxLength`.
pub fn max_length(limit: u64, length: usize) -> String {
    format!(
        "must be at most {} long, but has {length}",
        counted(limit, "character", "characters")
    )
}

/// `pattern`.
pub fn pattern(source: &str) -> String {
    format!("does not match the pattern {source:?}")
}

/// `format`.
pub fn format(description: &str) -> String {
    format!("is not {description}")
}

/// `contentEncoding`.
pub fn content_encoding(encoding: &str) -> String {
    format!("is not valid {encoding} content")
}

/// `contentMediaType`.
pub fn content_media_type(media_type: &str) -> String {
    format!("does not hold valid {media_type} content")
}

/// `minItems`.
pub fn min_items(limit: u64, count: usize) -> String {
    format!(
        "must have at least {}, but has {count}",
        counted(limit, "item", "items")
    )
}

/// `maxItems`.
pub fn max_items(limit: u64, count: usize) -> String {
    format!(
        "must have at most {}, but has {count}",
        counted(limit, "item", "items")
    )
}

/// `uniqueItems`.
pub fn unique_items(first: usize, second: usize) -> String {
    format!("items {first} and {second} are equal, but all items must be unique")
}

/// `contains` / `minContains`.
pub fn min_contains(min: u64, count: usize) -> String {
    if min == 1 {
        "must contain at least one item matching the `contains` schema, but has none".to_string()
    } else {
        format!("must contain at least {min} items matching the `contains` schema, but has {count}")
    }
}

/// `maxContains`.
pub fn max_contains(max: u64, count: usize) -> String {
    format!("must contain at most {max} items matching the `contains` schema, but has {count}")
}

/// `minProperties`.
pub fn min_properties(limit: u64, count: usize) -> String {
    format!(
        "must have at least {}, but has {count}",
        counted(limit, "property", "properties")
    )
}

/// `maxProperties`.
pub fn max_properties(limit: u64, count: usize) -> String {
    format!(
        "must have at most {}, but has {count}",
        counted(limit, "property", "properties")
    )
}

/// `required`.
pub fn required(name: &str) -> String {
    format!("missing required property {name:?}")
}

/// `dependentRequired`.
pub fn dependent_required(present: &str, missing: &str) -> String {
    format!("missing property {missing:?}, which is required when {present:?} is present")
}

/// A `false` subschema, by the keyword that applied it.
pub fn false_schema(keyword: &str, property: Option<&str>, index: Option<usize>) -> String {
    match (keyword, property, index) {
        ("additionalProperties", Some(p), _) => {
            format!("unexpected property {p:?}: no additional properties are allowed")
        }
        ("unevaluatedProperties", Some(p), _) => {
            format!("unexpected property {p:?}: no other properties are allowed")
        }
        ("properties" | "patternProperties", Some(p), _) => {
            format!("property {p:?} is not allowed")
        }
        ("items" | "unevaluatedItems" | "prefixItems", _, Some(i)) => {
            format!("unexpected item at index {i}: the array may not have it")
        }
        _ => "no value is allowed here".to_string(),
    }
}

/// `anyOf`.
pub fn any_of() -> String {
    "matches none of the alternatives in `anyOf`".to_string()
}

/// `oneOf` with no valid alternative.
pub fn one_of_none() -> String {
    "matches none of the alternatives in `oneOf`".to_string()
}

/// `oneOf` with several valid alternatives.
pub fn one_of_many(first: usize, second: usize) -> String {
    format!("matches alternatives {first} and {second} of `oneOf`, but must match exactly one")
}

/// `not`.
pub fn not() -> String {
    "must not match the schema in `not`".to_string()
}

/// `propertyNames`, naming the offending name.
pub fn property_name(name: &str) -> String {
    format!("the property name {name:?} is not allowed by `propertyNames`")
}

/// The evaluation-steps limit.
pub fn evaluation_too_long(limit: usize) -> String {
    format!("evaluation takes more than the limit of {limit} subschema evaluations")
}

/// The evaluation-depth limit.
pub fn evaluation_too_deep(limit: usize) -> String {
    format!("evaluation nests more than the limit of {limit} subschemas")
}

/// Arguments found over one of the argument limits during evaluation, before the walk that
/// says which limit and where.
pub fn arguments_over_limits() -> &'static str {
    "the arguments exceed the argument limits"
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The shared type messages are word for word those made each time, for every expected
    /// set and every kind of value, asked for in any order.
    #[test]
    fn shared_type_messages_are_the_made_ones() {
        let values = [
            json!(null),
            json!(true),
            json!({"a": 1}),
            json!([1]),
            json!(1.5),
            json!(7),
            json!("s"),
        ];
        for round in 0..2 {
            for bits in (0..128u8).rev() {
                for v in &values {
                    let expected = TypeSet::from_bits(bits);
                    assert_eq!(
                        type_mismatch_shared(expected, v),
                        type_mismatch(expected, v),
                        "{bits:#b} {v} (round {round})"
                    );
                }
            }
        }
    }
}
