//! The tool-call boundary contract on the interpreter: the shared case table, the loader's
//! call discipline, and the real MCP tool catalogs.

use serde_json::{Value, json};
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};
use toolschema::{ErrorClass, InputSchema, Options, Validate};
use toolschema_conformance::boundary::{self, Case};

/// The stack every hostile case must fit in: the default of a spawned thread.
const STACK: usize = 2 << 20;

fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap()
}

#[test]
fn case_table_on_the_interpreter() {
    let failed = on_small_stack(|| {
        let mut failed = Vec::new();
        let cases = boundary::cases();
        eprintln!("{} boundary cases", cases.len());
        for case in cases {
            let outcome = boundary::run_interpreted(&case);
            if let Err(why) = boundary::check(&case, &outcome) {
                failed.push(format!("{}: {why}", case.name));
            }
        }
        failed
    });
    assert!(
        failed.is_empty(),
        "{} cases failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
}

/// A loader that counts how often each URI is asked for.
fn counting_loader(
    documents: Vec<(&'static str, Value)>,
) -> (Options, Arc<Mutex<HashMap<String, usize>>>) {
    let asked = Arc::new(Mutex::new(HashMap::new()));
    let seen = Arc::clone(&asked);
    let options = Options::new().schema_loader(move |uri: &str| {
        *seen.lock().unwrap().entry(uri.to_string()).or_insert(0) += 1;
        documents
            .iter()
            .find(|(u, _)| *u == uri)
            .map(|(_, d)| d.clone())
            .ok_or_else(|| format!("no document for {uri}").into())
    });
    (options, asked)
}

#[test]
fn loader_is_asked_once_per_uri_and_only_while_building() {
    let (options, asked) = counting_loader(vec![(
        "https://example.test/defs.json",
        json!({"$defs": {"s": {"type": "string"}, "n": {"type": "integer"}}}),
    )]);
    let schema = json!({"properties": {
        "a": {"$ref": "https://example.test/defs.json#/$defs/s"},
        "b": {"$ref": "https://example.test/defs.json#/$defs/n"},
        "c": {"$ref": "https://example.test/defs.json#/$defs/s"},
        "d": {"$ref": "https://example.test/missing.json"},
        "e": {"$ref": "https://example.test/missing.json#/x"},
    }});
    let err = InputSchema::new(&schema, &options).unwrap_err();
    assert_eq!(err.class(), ErrorClass::ExecutionFailure);
    for (uri, count) in asked.lock().unwrap().iter() {
        assert_eq!(*count, 1, "{uri} asked {count} times");
    }

    let schema = json!({"properties": {
        "a": {"$ref": "https://example.test/defs.json#/$defs/s"},
        "b": {"$ref": "https://example.test/defs.json#/$defs/n"},
    }});
    let before = asked.lock().unwrap().clone();
    let tool = InputSchema::new(&schema, &options).unwrap();
    let after_build = asked.lock().unwrap().clone();
    let defs = "https://example.test/defs.json";
    assert_eq!(
        after_build[defs],
        before.get(defs).copied().unwrap_or(0) + 1
    );
    assert!(tool.validate(&json!({"a": "x", "b": 1})).is_ok());
    assert!(tool.validate(&json!({"a": 1})).is_err());
    assert_eq!(
        *asked.lock().unwrap(),
        after_build,
        "the loader was asked while checking arguments"
    );
}

#[test]
fn loader_is_asked_once_for_a_custom_meta_schema() {
    let meta = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://example.test/meta.json",
        "$vocabulary": {
            "https://json-schema.org/draft/2020-12/vocab/core": true,
            "https://json-schema.org/draft/2020-12/vocab/applicator": true,
            "https://json-schema.org/draft/2020-12/vocab/validation": true,
        },
        "$dynamicAnchor": "meta",
        "allOf": [
            {"$ref": "https://json-schema.org/draft/2020-12/meta/core"},
            {"$ref": "https://json-schema.org/draft/2020-12/meta/applicator"},
            {"$ref": "https://json-schema.org/draft/2020-12/meta/validation"},
            {"$ref": "https://example.test/extra.json"},
        ],
    });
    let (options, asked) = counting_loader(vec![
        ("https://example.test/meta.json", meta),
        (
            "https://example.test/extra.json",
            json!({"properties": {"x-owner": {"type": "string"}}}),
        ),
    ]);
    let schema =
        json!({"$schema": "https://example.test/meta.json", "type": "object", "x-owner": "me"});
    InputSchema::validate_schema_with(&schema, &options).unwrap();
    let asked = asked.lock().unwrap().clone();
    assert_eq!(asked.len(), 2, "{asked:?}");
    for (uri, count) in &asked {
        assert_eq!(*count, 1, "{uri} asked {count} times");
    }
    let (options, _) = counting_loader(vec![
        (
            "https://example.test/meta.json",
            json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "https://example.test/meta.json", "$ref": "https://example.test/extra.json"}),
        ),
        (
            "https://example.test/extra.json",
            json!({"properties": {"x-owner": {"type": "string"}}}),
        ),
    ]);
    let bad = json!({"$schema": "https://example.test/meta.json", "x-owner": 5});
    let err = InputSchema::validate_schema_with(&bad, &options).unwrap_err();
    assert_eq!(err.class(), ErrorClass::Validation);
    assert_eq!(err.failures()[0].instance_location(), "/x-owner");
}

#[test]
fn schema_is_kept_as_given() {
    let schema = json!({"type": "object", "properties": {"a": {"default": 3}}, "x-extra": [1, 2]});
    let tool = InputSchema::new(&schema, &Options::new()).unwrap();
    assert_eq!(tool.schema(), &schema);
    let arguments = json!({});
    assert!(InputSchema::validate(&schema, &arguments).is_ok());
    assert_eq!(arguments, json!({}));
}

#[test]
fn evaluation_depth_default_fits_the_stack() {
    // The deepest evaluation the default limit allows, on the smallest usual thread stack.
    let limit = toolschema::Limits::default().get_max_evaluation_depth();
    let outcome = on_small_stack(move || {
        let schema =
            boundary::ref_chain(limit + 10, json!({}), |r| json!({"properties": {"a": r}}));
        let tool = InputSchema::new(&schema, &Options::new()).unwrap();
        let result = tool.validate(&json!({"a": {}}));
        boundary::dismantle(schema);
        result.map_err(|e| e.class())
    });
    assert_eq!(outcome, Err(ErrorClass::ExecutionFailure));
}

/// Every tool of the captured MCP catalogs: draft-07 ones are unsupported, the rest accepted.
#[test]
fn mcp_tool_catalogs() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/mcp-tools");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("no MCP tool catalogs at {}; skipped", dir.display());
        return;
    };
    let mut files: Vec<_> = entries
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    let (mut draft7, mut accepted, mut rejected) = (0, 0, Vec::new());
    for file in &files {
        let tools: Vec<Value> =
            serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
        let catalog = file.file_name().unwrap().to_string_lossy().to_string();
        for tool in tools {
            let name = tool["name"].as_str().unwrap_or("?").to_string();
            let schema = &tool["inputSchema"];
            let result = InputSchema::validate_schema(schema);
            let declared = schema.get("$schema").and_then(Value::as_str).unwrap_or("");
            if declared.contains("draft-07") {
                draft7 += 1;
                let err = result.expect_err(&name);
                assert_eq!(
                    err.class(),
                    ErrorClass::UnsupportedCapability,
                    "{catalog} {name}: {err}"
                );
                assert!(err.to_string().contains(declared), "{err}");
                continue;
            }
            match result {
                Ok(()) => accepted += 1,
                Err(e) => rejected.push(format!("{catalog} {name}: {e}")),
            }
        }
    }
    eprintln!(
        "MCP catalogs: {} files, {draft7} draft-07 tools unsupported, {accepted} accepted, {} rejected",
        files.len(),
        rejected.len()
    );
    assert!(
        rejected.is_empty(),
        "rejected tools:\n{}",
        rejected.join("\n")
    );
}

#[allow(dead_code)]
fn _case_is_data(_: &Case) {}
