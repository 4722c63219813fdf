//! Argument sets for a tool schema, read from its JSON: for each way of choosing among its
//! alternatives (enum values, union branches, types of a type list, number shapes), a call
//! with only the required members and one with every declared member. Most are valid; the
//! tests ask the validator which, and hold both kinds to what they check.

use serde_json::{Map, Value, json};

/// How many ways of choosing are tried.
pub const CHOICES: usize = 6;

/// Every distinct argument set generated for `schema`.
pub fn argument_sets(schema: &Value) -> Vec<Value> {
    let mut sets: Vec<Value> = Vec::new();
    for pick in 0..CHOICES {
        for full in [false, true] {
            let set = Generator {
                root: schema,
                full,
                pick,
            }
            .value(schema, 0);
            if !sets.contains(&set) {
                sets.push(set);
            }
        }
    }
    sets
}

struct Generator<'a> {
    root: &'a Value,
    full: bool,
    pick: usize,
}

impl<'a> Generator<'a> {
    /// A local `$ref` (`#…`), followed a few times.
    fn deref(&self, mut schema: &'a Value) -> &'a Value {
        for _ in 0..8 {
            let Some(target) = schema.get("$ref").and_then(Value::as_str) else {
                break;
            };
            let Some(pointer) = target.strip_prefix('#') else {
                break;
            };
            match self.root.pointer(pointer) {
                Some(t) => schema = t,
                None => break,
            }
        }
        schema
    }

    fn choose<'v, T>(&self, options: &'v [T], salt: usize) -> Option<&'v T> {
        (!options.is_empty()).then(|| &options[(self.pick + salt) % options.len()])
    }

    fn value(&self, schema: &'a Value, depth: usize) -> Value {
        let schema = self.deref(schema);
        if depth > 8 || !schema.is_object() {
            return Value::Null;
        }
        if let Some(c) = schema.get("const") {
            return c.clone();
        }
        if let Some(Value::Array(values)) = schema.get("enum")
            && let Some(v) = self.choose(values, depth)
        {
            return v.clone();
        }
        let mut out = self.by_type(schema, depth);
        for key in ["allOf", "anyOf", "oneOf"] {
            let Some(Value::Array(branches)) = schema.get(key) else {
                continue;
            };
            let chosen: Vec<&Value> = if key == "allOf" {
                branches.iter().collect()
            } else {
                self.choose(branches, depth).into_iter().collect()
            };
            for branch in chosen {
                let v = self.value(branch, depth + 1);
                out = merge(out, v);
            }
        }
        out
    }

    fn by_type(&self, schema: &'a Value, depth: usize) -> Value {
        let types: Vec<&str> = match schema.get("type") {
            Some(Value::String(t)) => vec![t.as_str()],
            Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
            _ if schema.get("properties").is_some() || schema.get("required").is_some() => {
                vec!["object"]
            }
            _ if schema.get("items").is_some() || schema.get("prefixItems").is_some() => {
                vec!["array"]
            }
            _ if schema.get("anyOf").is_some() || schema.get("oneOf").is_some() => {
                return Value::Null;
            }
            _ => vec!["string"],
        };
        let t = self.choose(&types, depth).copied().unwrap_or("null");
        match t {
            "object" => self.object(schema, depth),
            "array" => self.array(schema, depth),
            "integer" => self.integer(schema),
            "number" => self.number(schema),
            "string" => self.string(schema),
            "boolean" => Value::Bool(self.pick % 2 == 0),
            _ => Value::Null,
        }
    }

    fn object(&self, schema: &'a Value, depth: usize) -> Value {
        let mut out = Map::new();
        let required: Vec<&str> = schema
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let properties = schema.get("properties").and_then(Value::as_object);
        for (name, sub) in properties.into_iter().flatten() {
            if self.full || required.contains(&name.as_str()) {
                out.insert(name.clone(), self.value(sub, depth + 1));
            }
        }
        for name in required {
            if !out.contains_key(name) {
                out.insert(name.to_string(), json!("a"));
            }
        }
        if self.full
            && let Some(extra) = schema.get("additionalProperties").filter(|a| a.is_object())
        {
            out.insert("extra_member".into(), self.value(extra, depth + 1));
        }
        Value::Object(out)
    }

    fn array(&self, schema: &'a Value, depth: usize) -> Value {
        let mut out: Vec<Value> = schema
            .get("prefixItems")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .map(|s| self.value(s, depth + 1))
            .collect();
        let min = schema.get("minItems").and_then(Value::as_u64).unwrap_or(0) as usize;
        let want = if self.full { min.max(1) } else { min };
        let unique = schema.get("uniqueItems") == Some(&Value::Bool(true));
        if let Some(items) = schema.get("items").filter(|i| i.is_object()) {
            while out.len() < want {
                let item = self.value(items, depth + 1);
                if unique && out.contains(&item) {
                    break;
                }
                out.push(item);
            }
        }
        Value::Array(out)
    }

    fn bounds(&self, schema: &Value) -> (Option<f64>, Option<f64>) {
        let f = |k: &str| schema.get(k).and_then(Value::as_f64);
        let low = f("minimum").or(f("exclusiveMinimum").map(|x| x.floor() + 1.0));
        let high = f("maximum").or(f("exclusiveMaximum").map(|x| x.ceil() - 1.0));
        (low, high)
    }

    fn integer(&self, schema: &Value) -> Value {
        let (low, high) = self.bounds(schema);
        let n = match self.pick % 4 {
            0 => low.unwrap_or(0.0),
            1 => high.unwrap_or(7.0),
            2 => low.map_or(42.0, |l| l + 1.0),
            // Past 2^53 where nothing bounds it.
            _ => high.map_or(9_007_199_254_740_993.0, |h| h),
        };
        if self.pick % 3 == 1 {
            // An integer written as a float: JSON Schema counts it as an integer.
            json!(n)
        } else if n.abs() < 9.0e15 {
            json!(n as i64)
        } else {
            json!(9_007_199_254_740_993u64)
        }
    }

    fn number(&self, schema: &Value) -> Value {
        let (low, high) = self.bounds(schema);
        match self.pick % 3 {
            0 => json!(low.unwrap_or(0.5)),
            1 => json!(high.unwrap_or(12345678901234567u64 as f64)),
            _ => match (low, high) {
                (Some(l), Some(h)) => json!((l + h) / 2.0),
                _ => json!(12345678901234567u64),
            },
        }
    }

    fn string(&self, schema: &Value) -> Value {
        let min = schema.get("minLength").and_then(Value::as_u64).unwrap_or(1) as usize;
        match schema.get("format").and_then(Value::as_str) {
            Some("date-time") => json!("2026-01-01T00:00:00Z"),
            Some("date") => json!("2026-01-01"),
            Some("email") => json!("someone@example.test"),
            Some("uri") | Some("url") => json!("https://example.test/resource"),
            Some("uuid") => json!("123e4567-e89b-12d3-a456-426614174000"),
            _ => json!("a".repeat(min.max(1))),
        }
    }
}

/// `b`'s members over `a`'s when both are objects; otherwise `b` unless it is `null`.
fn merge(a: Value, b: Value) -> Value {
    match (a, b) {
        (Value::Object(mut a), Value::Object(b)) => {
            a.extend(b);
            Value::Object(a)
        }
        (a, Value::Null) => a,
        (_, b) => b,
    }
}
