//! Real MCP tool schemas on both paths: every tool the front end admits is compiled by the
//! build script, and the compiled and interpreted validators must agree exactly on arguments
//! generated from each schema — a minimal valid call, and calls broken on purpose (a wrong
//! type, a missing required property, an unexpected property).

#![deny(warnings)]

use serde_json::{Map, Value, json};
use toolschema::Validator;
use toolschema_conformance::{agree, counting, mcp_tool_files};

mod compiled {
    include!(concat!(env!("OUT_DIR"), "/compiled_mcp.rs"));
    include!(concat!(env!("OUT_DIR"), "/typed_mcp.rs"));
}

#[global_allocator]
static ALLOCATOR: counting::Counting = counting::Counting;

fn corpus() -> Vec<(String, Vec<Value>)> {
    mcp_tool_files()
        .into_iter()
        .map(|p| {
            let tools: Value = serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            (name, tools.as_array().cloned().unwrap_or_default())
        })
        .collect()
}

/// A small instance `schema` probably accepts, built from types, enums and required names.
fn minimal(schema: &Value, root: &Value, depth: usize) -> Value {
    let Some(s) = schema.as_object() else {
        return Value::Null;
    };
    if depth > 8 {
        return Value::Null;
    }
    if let Some(c) = s.get("const") {
        return c.clone();
    }
    if let Some(first) = s
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|e| e.first())
    {
        return first.clone();
    }
    if let Some(target) = s.get("$ref").and_then(Value::as_str) {
        if let Some(pointer) = target.strip_prefix('#') {
            if let Some(t) = root.pointer(pointer) {
                return minimal(t, root, depth + 1);
            }
        }
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(first) = s.get(key).and_then(Value::as_array).and_then(|b| b.first()) {
            if s.get("type").is_none() && s.get("properties").is_none() {
                return minimal(first, root, depth + 1);
            }
        }
    }
    let ty = match s.get("type") {
        Some(Value::String(t)) => t.as_str(),
        Some(Value::Array(ts)) => ts.first().and_then(Value::as_str).unwrap_or("null"),
        _ if s.contains_key("properties") || s.contains_key("required") => "object",
        _ => "null",
    };
    let bound = |key: &str| s.get(key).and_then(Value::as_f64);
    match ty {
        "object" => {
            let mut map = Map::new();
            for name in s
                .get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let Some(name) = name.as_str() else { continue };
                let sub = s
                    .get("properties")
                    .and_then(|p| p.get(name))
                    .unwrap_or(&Value::Null);
                map.insert(name.to_string(), minimal(sub, root, depth + 1));
            }
            Value::Object(map)
        }
        "array" => {
            let n = s.get("minItems").and_then(Value::as_u64).unwrap_or(0) as usize;
            let item = s
                .get("items")
                .map(|i| minimal(i, root, depth + 1))
                .unwrap_or(Value::Null);
            Value::Array(vec![item; n])
        }
        "string" => {
            let n = s.get("minLength").and_then(Value::as_u64).unwrap_or(0) as usize;
            Value::String("a".repeat(n))
        }
        "integer" | "number" => {
            let value = bound("minimum")
                .or(bound("exclusiveMinimum").map(|x| x.floor() + 1.0))
                .unwrap_or(0.0)
                .min(bound("maximum").unwrap_or(f64::MAX));
            json!(value as i64)
        }
        "boolean" => Value::Bool(false),
        _ => Value::Null,
    }
}

/// Arguments that break the schema in one way each.
fn broken(schema: &Value, valid: &Value) -> Vec<Value> {
    let mut out = vec![json!("not an object"), json!([valid.clone()])];
    let Some(map) = valid.as_object() else {
        return out;
    };
    let properties = schema.get("properties").and_then(Value::as_object);
    for (name, sub) in properties.into_iter().flatten() {
        let wrong = match sub.get("type").and_then(Value::as_str) {
            Some("string") => json!(12345),
            Some(_) => json!("wrong type"),
            None => continue,
        };
        let mut m = map.clone();
        m.insert(name.clone(), wrong);
        out.push(Value::Object(m));
    }
    for name in map.keys() {
        let mut m = map.clone();
        m.remove(name);
        out.push(Value::Object(m));
    }
    let mut m = map.clone();
    m.insert("__unexpected_property__".into(), json!(true));
    out.push(Value::Object(m));
    out
}

#[test]
fn compiled_and_interpreted_agree_on_the_mcp_corpus() {
    let corpus = corpus();
    if corpus.is_empty() {
        return;
    }
    let mut admitted = 0;
    let mut rejected = 0;
    let mut checked = 0;
    let mut minimal_valid = 0;
    for (file, tools) in &corpus {
        for (i, tool) in tools.iter().enumerate() {
            let schema = &tool["inputSchema"];
            let entry = compiled::TOOLS
                .iter()
                .find(|(f, _, j, _)| f == file && *j == i);
            let interpreted = Validator::new(schema);
            let (interpreted, validator) = match (interpreted, entry) {
                (Ok(v), Some(&(_, _, _, c))) => (v, c),
                (Err(_), None) => {
                    rejected += 1;
                    continue;
                }
                (Ok(_), None) => panic!("{file} #{i}: interpreted builds it, compiled does not"),
                (Err(e), Some(_)) => {
                    panic!("{file} #{i}: compiled builds what interpreted rejects: {e}")
                }
            };
            admitted += 1;
            let valid = minimal(schema, schema, 0);
            let name = tool["name"].as_str().unwrap_or("");
            match agree(validator, &interpreted, &valid) {
                Ok(true) => minimal_valid += 1,
                Ok(false) => {}
                Err(e) => panic!("{file} {name}: on {valid}: {e}"),
            }
            for instance in broken(schema, &valid) {
                checked += 1;
                if let Err(e) = agree(validator, &interpreted, &instance) {
                    panic!("{file} {name}: on {instance}: {e}");
                }
            }
            checked += 1;
        }
    }
    println!(
        "{admitted} tools admitted, {rejected} rejected; {checked} argument sets agree; \
         {minimal_valid} generated minimal calls are valid"
    );
    assert!(admitted > 0);
    assert_eq!(admitted, compiled::TOOLS.len());
}

/// The valid path of compiled `is_valid` allocates nothing: every admitted tool's minimal
/// valid call, checked once to build its lazily compiled patterns, then counted.
#[test]
fn compiled_is_valid_allocates_nothing_on_valid_calls() {
    let corpus = corpus();
    let mut counted = 0;
    let mut allocating = Vec::new();
    for (file, tools) in &corpus {
        for (i, tool) in tools.iter().enumerate() {
            let Some(&(_, _, _, validator)) = compiled::TOOLS
                .iter()
                .find(|(f, _, j, _)| f == file && *j == i)
            else {
                continue;
            };
            let schema = &tool["inputSchema"];
            let valid = minimal(schema, schema, 0);
            if !validator.is_valid(&valid) {
                continue;
            }
            let before = counting::count();
            let ok = validator.is_valid(&valid);
            let allocations = counting::count() - before;
            assert!(ok);
            counted += 1;
            if allocations > 0 {
                allocating.push(format!("{file} {}: {allocations}", tool["name"]));
            }
        }
    }
    assert!(counted > 100, "only {counted} valid calls were generated");
    // The counter sees this thread's allocations (so a zero above means none happened).
    let before = counting::count();
    std::hint::black_box(Vec::<u8>::with_capacity(64));
    assert!(counting::count() > before);
    assert!(
        allocating.is_empty(),
        "allocations on the valid path:\n{}",
        allocating.join("\n")
    );
}

/// Typed arguments on every admitted tool: each argument set generated from the schema (and
/// the minimal and broken calls above) parses and comes back equal when the compiled
/// validator accepts it, and fails with exactly the validator's error when it does not.
#[test]
fn typed_arguments_round_trip_on_the_mcp_corpus() {
    let corpus = corpus();
    if corpus.is_empty() {
        return;
    }
    let (mut valid, mut invalid, mut tools_with_valid) = (0, 0, 0);
    for &(file, i, round_trip) in compiled::TYPED {
        let (_, tools) = corpus.iter().find(|(f, _)| f == file).unwrap();
        let schema = &tools[i]["inputSchema"];
        let &(_, name, _, validator) = compiled::TOOLS
            .iter()
            .find(|(f, _, j, _)| *f == file && *j == i)
            .unwrap();
        let mut sets = toolschema_conformance::arguments::argument_sets(schema);
        let minimal = minimal(schema, schema, 0);
        sets.extend(broken(schema, &minimal));
        sets.push(minimal);
        let before = valid;
        for set in &sets {
            match toolschema_conformance::typed::check(round_trip, validator, set) {
                Ok(true) => valid += 1,
                Ok(false) => invalid += 1,
                Err(e) => panic!("{file} {name}: on {set}: {e}"),
            }
        }
        tools_with_valid += usize::from(valid > before);
    }
    println!(
        "{} typed tools: {valid} valid argument sets round-trip ({tools_with_valid} tools with \
         one or more), {invalid} invalid ones fail with the validator's error",
        compiled::TYPED.len()
    );
    assert_eq!(compiled::TYPED.len(), compiled::TOOLS.len());
    assert!(tools_with_valid > 0);
}
