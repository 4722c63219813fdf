//! Older-draft schemas (04, 06, 07) rewritten as 2020-12, so that every validator measures the
//! same schema: `$schema` replaced, `id` → `$id`, array `items` → `prefixItems`,
//! `additionalItems` → `items`, `dependencies` split, boolean `exclusiveMinimum` /
//! `exclusiveMaximum` → numeric ones. `definitions` stays: pointers into it still resolve.

use serde_json::{Map, Value};

const SCHEMA_MAPS: &[&str] = &[
    "properties",
    "patternProperties",
    "definitions",
    "$defs",
    "dependentSchemas",
];
const SCHEMA_LISTS: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems"];
const SCHEMA_ONE: &[&str] = &[
    "additionalProperties",
    "items",
    "not",
    "contains",
    "propertyNames",
    "if",
    "then",
    "else",
];

pub fn to_2020_12(root: &Value) -> Value {
    let mut out = convert(root);
    let uses_draft_04 = out.to_string().contains(DRAFT_04);
    if let Value::Object(map) = &mut out {
        map.insert(
            "$schema".into(),
            Value::String("https://json-schema.org/draft/2020-12/schema".into()),
        );
        if uses_draft_04 {
            // References into the draft-04 meta-schema (the Kubernetes schema has them) point
            // at a 2020-12 rendering of the parts they use, so that no validator needs a
            // draft-04 document.
            let defs = map
                .entry("$defs")
                .or_insert_with(|| Value::Object(Map::new()));
            if let Value::Object(defs) = defs {
                defs.insert("draft04".into(), draft_04_parts());
            }
        }
    }
    rewrite_refs(&mut out);
    out
}

const DRAFT_04: &str = "http://json-schema.org/draft-04/schema#";

fn rewrite_refs(value: &mut Value) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(r)) = map.get_mut("$ref")
                && let Some(rest) = r.strip_prefix(DRAFT_04)
            {
                *r = format!("#/$defs/draft04{rest}");
            }
            map.values_mut().for_each(rewrite_refs);
        }
        Value::Array(items) => items.iter_mut().for_each(rewrite_refs),
        _ => {}
    }
}

/// The draft-04 meta-schema's definitions and keyword schemas that real schemas refer to,
/// written in 2020-12 terms.
fn draft_04_parts() -> Value {
    serde_json::json!({
        "type": ["object", "boolean"],
        "definitions": {
            "positiveInteger": {"type": "integer", "minimum": 0},
            "positiveIntegerDefault0": {"allOf": [{"$ref": "#/$defs/draft04/definitions/positiveInteger"}, {"default": 0}]},
            "stringArray": {"type": "array", "items": {"type": "string"}, "minItems": 1, "uniqueItems": true}
        },
        "properties": {
            "title": {"type": "string"},
            "description": {"type": "string"},
            "default": {},
            "multipleOf": {"type": "number", "exclusiveMinimum": 0},
            "maximum": {"type": "number"},
            "exclusiveMaximum": {"type": "boolean", "default": false},
            "minimum": {"type": "number"},
            "exclusiveMinimum": {"type": "boolean", "default": false},
            "pattern": {"type": "string", "format": "regex"},
            "uniqueItems": {"type": "boolean", "default": false},
            "enum": {"type": "array", "minItems": 1, "uniqueItems": true},
            "type": {"anyOf": [
                {"enum": ["array", "boolean", "integer", "null", "number", "object", "string"]},
                {"type": "array", "items": {"enum": ["array", "boolean", "integer", "null", "number", "object", "string"]}, "minItems": 1, "uniqueItems": true}
            ]}
        }
    })
}

fn convert(schema: &Value) -> Value {
    let Value::Object(map) = schema else {
        return schema.clone();
    };
    let mut out = Map::new();
    for (k, v) in map {
        match k.as_str() {
            "$schema" => {}
            "id" if v.is_string() => {
                out.insert("$id".into(), v.clone());
            }
            "items" if v.is_array() => {
                out.insert(
                    "prefixItems".into(),
                    Value::Array(v.as_array().unwrap().iter().map(convert).collect()),
                );
                if let Some(additional) = map.get("additionalItems") {
                    out.insert("items".into(), convert(additional));
                }
            }
            "additionalItems" => {}
            "dependencies" => {
                if let Value::Object(deps) = v {
                    let mut required = Map::new();
                    let mut schemas = Map::new();
                    for (name, d) in deps {
                        if d.is_array() {
                            required.insert(name.clone(), d.clone());
                        } else {
                            schemas.insert(name.clone(), convert(d));
                        }
                    }
                    if !required.is_empty() {
                        out.insert("dependentRequired".into(), Value::Object(required));
                    }
                    if !schemas.is_empty() {
                        out.insert("dependentSchemas".into(), Value::Object(schemas));
                    }
                }
            }
            "exclusiveMinimum" | "exclusiveMaximum" if v.is_boolean() => {
                let bound = if k == "exclusiveMinimum" {
                    "minimum"
                } else {
                    "maximum"
                };
                if v == &Value::Bool(true)
                    && let Some(b) = map.get(bound)
                {
                    out.insert(k.clone(), b.clone());
                }
            }
            "minimum" | "maximum" => {
                let exclusive = if k == "minimum" {
                    "exclusiveMinimum"
                } else {
                    "exclusiveMaximum"
                };
                if map.get(exclusive) != Some(&Value::Bool(true)) {
                    out.insert(k.clone(), v.clone());
                }
            }
            key if SCHEMA_MAPS.contains(&key) => {
                let converted = match v {
                    Value::Object(m) => {
                        Value::Object(m.iter().map(|(n, s)| (n.clone(), convert(s))).collect())
                    }
                    other => other.clone(),
                };
                out.insert(k.clone(), converted);
            }
            key if SCHEMA_LISTS.contains(&key) => {
                let converted = match v {
                    Value::Array(items) => Value::Array(items.iter().map(convert).collect()),
                    other => other.clone(),
                };
                out.insert(k.clone(), converted);
            }
            key if SCHEMA_ONE.contains(&key) => {
                out.insert(k.clone(), convert(v));
            }
            _ => {
                out.insert(k.clone(), v.clone());
            }
        }
    }
    Value::Object(out)
}
