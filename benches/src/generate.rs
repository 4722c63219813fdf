//! Arguments for a tool schema: a typical valid call and invalid ones, built from the schema.

use serde_json::{Map, Value, json};

/// Resolves a local `$ref` (`#/...`) against the root, one level.
fn deref<'a>(root: &'a Value, schema: &'a Value) -> &'a Value {
    let mut s = schema;
    for _ in 0..8 {
        match s.get("$ref").and_then(Value::as_str) {
            Some(r) if r.starts_with("#/") => match root.pointer(&r[1..]) {
                Some(t) => s = t,
                None => return s,
            },
            _ => return s,
        }
    }
    s
}

fn first_type(schema: &Value) -> Option<&str> {
    match schema.get("type") {
        Some(Value::String(t)) => Some(t),
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).find(|t| *t != "null"),
        _ => None,
    }
}

/// A value the schema should accept, filling every declared property (`full`) or only the
/// required ones.
pub fn valid(root: &Value, schema: &Value, full: bool, depth: usize) -> Value {
    let schema = deref(root, schema);
    if depth > 6 {
        return Value::Null;
    }
    if let Some(c) = schema.get("const") {
        return c.clone();
    }
    if let Some(Value::Array(options)) = schema.get("enum")
        && let Some(first) = options.first()
    {
        return first.clone();
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(Value::Array(options)) = schema.get(key)
            && first_type(schema).is_none()
            && schema.get("properties").is_none()
            && let Some(first) = options.first()
        {
            return valid(root, first, full, depth + 1);
        }
    }
    let kind = first_type(schema).unwrap_or(if schema.get("properties").is_some() {
        "object"
    } else {
        "string"
    });
    match kind {
        "object" => {
            let mut out = Map::new();
            let required: Vec<&str> = schema
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            if let Some(Value::Object(props)) = schema.get("properties") {
                for (name, sub) in props {
                    if full || required.contains(&name.as_str()) {
                        out.insert(name.clone(), valid(root, sub, full, depth + 1));
                    }
                }
            }
            Value::Object(out)
        }
        "array" => {
            let min = schema
                .get("minItems")
                .and_then(Value::as_u64)
                .unwrap_or(1)
                .max(1);
            let item = schema
                .get("items")
                .map(|i| valid(root, i, full, depth + 1))
                .unwrap_or(json!("x"));
            let unique = schema.get("uniqueItems") == Some(&Value::Bool(true));
            if unique {
                return Value::Array(vec![item]);
            }
            Value::Array(vec![item; min as usize])
        }
        "integer" | "number" => {
            let lo = schema.get("minimum").and_then(Value::as_f64).or_else(|| {
                schema
                    .get("exclusiveMinimum")
                    .and_then(Value::as_f64)
                    .map(|x| x + 1.0)
            });
            let hi = schema.get("maximum").and_then(Value::as_f64);
            let mut n = lo.unwrap_or(1.0).max(if hi.is_some_and(|h| h < 1.0) {
                f64::MIN
            } else {
                1.0
            });
            if let Some(h) = hi {
                n = n.min(h);
            }
            json!(n.ceil() as i64)
        }
        "boolean" => json!(true),
        "null" => Value::Null,
        _ => {
            let min = schema
                .get("minLength")
                .and_then(Value::as_u64)
                .unwrap_or(1)
                .max(1);
            match schema.get("format").and_then(Value::as_str) {
                Some("uri") => json!("https://example.com/resource"),
                Some("date-time") => json!("2026-01-01T00:00:00Z"),
                Some("email") => json!("someone@example.com"),
                _ => json!("a".repeat(min as usize)),
            }
        }
    }
}

/// Invalid variants of a valid object: a wrong type deep inside, a missing required
/// property, an unexpected property.
pub fn invalid(root: &Value, schema: &Value, valid_call: &Value) -> Vec<(&'static str, Value)> {
    let mut out = Vec::new();
    let schema = deref(root, schema);
    if let Some(path) = deepest_scalar(valid_call, String::new()) {
        let mut wrong = valid_call.clone();
        if let Some(slot) = wrong.pointer_mut(&path) {
            *slot = match slot {
                Value::String(_) => json!({"unexpected": [1, 2, 3]}),
                _ => json!("wrong type"),
            };
            out.push(("wrong type", wrong));
        }
    }
    if let Some(first) = schema
        .get("required")
        .and_then(Value::as_array)
        .and_then(|r| r.first())
        .and_then(Value::as_str)
    {
        let mut missing = valid_call.clone();
        if let Some(map) = missing.as_object_mut() {
            map.remove(first);
            out.push(("missing required", missing));
        }
    }
    if schema.get("additionalProperties") == Some(&Value::Bool(false)) {
        let mut extra = valid_call.clone();
        if let Some(map) = extra.as_object_mut() {
            map.insert("unexpected_property".into(), json!(1));
            out.push(("extra property", extra));
        }
    }
    out
}

fn deepest_scalar(value: &Value, at: String) -> Option<String> {
    let mut best: Option<String> = None;
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                let p = format!("{at}/{}", k.replace('~', "~0").replace('/', "~1"));
                if let Some(found) = deepest_scalar(v, p)
                    && best
                        .as_ref()
                        .is_none_or(|b| found.matches('/').count() > b.matches('/').count())
                {
                    best = Some(found);
                }
            }
            best
        }
        Value::Array(items) => items
            .iter()
            .enumerate()
            .filter_map(|(i, v)| deepest_scalar(v, format!("{at}/{i}")))
            .max_by_key(|p| p.matches('/').count()),
        _ if at.is_empty() => None,
        _ => Some(at),
    }
}
