//! The suite's annotation tests and 2020-12 output tests, on both paths: every case is
//! evaluated by the interpreter and by its compiled validator, the two evaluations must be
//! the same in every format, and what the suite asserts must hold of them. Cases that fail by
//! design are listed, with their reasons, in `expected-output-failures.txt`.

#![deny(warnings)]

use serde_json::{Map, Value, json};
use std::collections::BTreeSet;
use toolschema::pointer::percent_decode;
use toolschema::{Evaluation, Options, Validate, Validator};
use toolschema_conformance::{evaluations_agree, suite_root};

mod compiled {
    include!(concat!(env!("OUT_DIR"), "/compiled_output_suites.rs"));
}

/// The listed cases: `file :: case :: test`.
fn expected_failures() -> BTreeSet<String> {
    let text = include_str!("../expected-output-failures.txt");
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.split(" # ").next().unwrap_or(l).trim().to_owned())
        .collect()
}

fn read(path: &str) -> Value {
    let text = std::fs::read_to_string(suite_root().join(path)).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// Evaluates `instance` on both paths, which must agree in every format; the interpreter's
/// evaluation.
fn evaluate_both(
    schema: &Value,
    options: &Options,
    compiled: Option<&(dyn Validate + Sync)>,
    instance: &Value,
) -> Result<Evaluation, String> {
    let interpreted = Validator::with_options(schema, options)
        .map_err(|e| format!("the schema did not build: {e}"))?;
    let compiled = compiled.ok_or("the compiler refused a schema the interpreter builds")?;
    let verdict = interpreted.is_valid(instance);
    evaluations_agree(compiled, &interpreted, instance, verdict)?;
    interpreted
        .evaluate(instance)
        .map_err(|e| format!("evaluation stopped: {e}"))
}

/// Runs `check` on every case, holding the outcomes to the expected-failure list.
fn run(kind: &str, outcomes: Vec<(String, Result<(), String>)>) {
    let expected = expected_failures();
    let mut problems = Vec::new();
    for (key, outcome) in &outcomes {
        match (outcome, expected.contains(key)) {
            (Ok(()), false) | (Err(_), true) => {}
            (Err(e), false) => problems.push(format!("{key}: {e}")),
            (Ok(()), true) => problems.push(format!(
                "{key} now passes: remove it from expected-output-failures.txt"
            )),
        }
    }
    assert!(
        problems.is_empty(),
        "{kind}: {} of {} cases:\n{}",
        problems.len(),
        outcomes.len(),
        problems.join("\n")
    );
}

/// Every annotation test: the annotations of `keyword` at each asserted instance location are
/// exactly those expected, keyed by the location of their subschema in the test's schema.
#[test]
fn annotation_suite() {
    let mut outcomes = Vec::new();
    for &(file, index, validator) in compiled::ANNOTATION_CASES {
        let doc = read(&format!("annotations/tests/{file}"));
        let case = &doc["suite"][index];
        let mut options = Options::new();
        for (uri, schema) in case["externalSchemas"].as_object().into_iter().flatten() {
            options = options.registry_document(uri.clone(), schema.clone());
        }
        let locations = resource_locations(&case["schema"]);
        for (t, test) in case["tests"].as_array().unwrap().iter().enumerate() {
            let key = format!("annotations/{file} :: {} :: {t}", case["description"]);
            let outcome = evaluate_both(&case["schema"], &options, validator, &test["instance"])
                .and_then(|evaluation| {
                    for assertion in test["assertions"].as_array().unwrap() {
                        let found = annotations_at(
                            &evaluation,
                            &locations,
                            assertion["location"].as_str().unwrap(),
                            assertion["keyword"].as_str().unwrap(),
                        );
                        // The suite writes its keys' fragments percent-encoded.
                        let expected: Map<String, Value> = assertion["expected"]
                            .as_object()
                            .unwrap()
                            .iter()
                            .map(|(k, v)| (percent_decode(k).unwrap(), v.clone()))
                            .collect();
                        if found != expected {
                            return Err(format!(
                                "{} at {:?}: expected {}, found {}",
                                assertion["keyword"],
                                assertion["location"],
                                assertion["expected"],
                                Value::Object(found)
                            ));
                        }
                    }
                    Ok(())
                });
            outcomes.push((key, outcome));
        }
    }
    assert!(
        outcomes.len() >= 40,
        "only {} annotation tests",
        outcomes.len()
    );
    run("annotation suite", outcomes);
}

/// Every 2020-12 output test: each format the test names, produced on both paths, is valid
/// against the test's schema for it; and every format is valid against the output schema.
#[test]
fn output_suite() {
    let output_schema = read("output-tests/draft2020-12/output-schema.json");
    let id = output_schema["$id"].as_str().unwrap().to_owned();
    let options = Options::new().registry_document(id.clone(), output_schema.clone());
    let structure = Validator::new(&output_schema).unwrap();
    let mut outcomes = Vec::new();
    for &(file, index, validator) in compiled::OUTPUT_CASES {
        let doc = read(&format!("output-tests/draft2020-12/content/{file}"));
        let case = &doc[index];
        for (t, test) in case["tests"].as_array().unwrap().iter().enumerate() {
            let key = format!("output/{file} :: {} :: {t}", case["description"]);
            let outcome = evaluate_both(&case["schema"], &Options::new(), validator, &test["data"])
                .and_then(|evaluation| {
                    for (format, output) in formats(&evaluation) {
                        if !structure.is_valid(&output) {
                            return Err(format!(
                                "the {format} output is not valid output: {output:#}"
                            ));
                        }
                        let Some(expected) = test["output"].get(format) else {
                            continue;
                        };
                        let check = Validator::with_options(expected, &options)
                            .map_err(|e| format!("the {format} schema did not build: {e}"))?;
                        if let Err(e) = check.validate(&output) {
                            return Err(format!("{format} output {output:#}: {e}"));
                        }
                    }
                    Ok(())
                });
            outcomes.push((key, outcome));
        }
    }
    assert!(outcomes.len() >= 4, "only {} output tests", outcomes.len());
    run("output suite", outcomes);
}

/// The four formats of `evaluation`, by name.
fn formats(evaluation: &Evaluation) -> [(&'static str, Value); 4] {
    [
        ("flag", evaluation.flag()),
        ("basic", evaluation.basic()),
        ("detailed", evaluation.detailed()),
        ("verbose", evaluation.verbose()),
    ]
}

/// The annotations of `keyword` at `location`, keyed as the suite keys them: `#` and the
/// pointer to their subschema in the test's schema document.
fn annotations_at(
    evaluation: &Evaluation,
    resources: &[(String, String)],
    location: &str,
    keyword: &str,
) -> Map<String, Value> {
    let mut found = Map::new();
    for a in evaluation
        .annotations()
        .filter(|a| a.instance_location() == location && a.keyword() == keyword)
    {
        let absolute = a.absolute_keyword_location().unwrap();
        let (resource, fragment) = absolute.split_once('#').unwrap();
        let fragment = percent_decode(fragment).unwrap();
        let subschema = fragment
            .strip_suffix(keyword)
            .and_then(|f| f.strip_suffix('/'))
            .unwrap_or(&fragment);
        let base = resources
            .iter()
            .find(|(uri, _)| uri == resource)
            .map_or("", |(_, pointer)| pointer.as_str());
        found.insert(format!("#{base}{subschema}"), a.value().clone());
    }
    found
}

/// The absolute URI of every schema resource in `schema` (the document's own base, and each
/// `$id`), with its pointer in the document.
fn resource_locations(schema: &Value) -> Vec<(String, String)> {
    fn walk(value: &Value, base: &str, pointer: &str, out: &mut Vec<(String, String)>) {
        let mut base = base.to_owned();
        if let Some(id) = value.get("$id").and_then(Value::as_str) {
            base = resolve(&base, id);
            out.push((base.clone(), pointer.to_owned()));
        }
        match value {
            Value::Object(map) => {
                for (key, child) in map {
                    if key == "const" || key == "enum" || key == "examples" || key == "default" {
                        continue;
                    }
                    let token = key.replace('~', "~0").replace('/', "~1");
                    walk(child, &base, &format!("{pointer}/{token}"), out);
                }
            }
            Value::Array(items) => {
                for (i, child) in items.iter().enumerate() {
                    walk(child, &base, &format!("{pointer}/{i}"), out);
                }
            }
            _ => {}
        }
    }
    let mut out = vec![("toolschema:///schema.json".to_owned(), String::new())];
    walk(schema, "toolschema:///schema.json", "", &mut out);
    out
}

/// `id` resolved against `base`, as far as the suite's identifiers need: absolute URIs, and
/// names relative to the base's last path segment.
fn resolve(base: &str, id: &str) -> String {
    let id = id.split('#').next().unwrap_or(id);
    if id.contains("://") {
        return id.to_owned();
    }
    match base.rfind('/') {
        Some(end) => format!("{}{id}", &base[..=end]),
        None => id.to_owned(),
    }
}

#[test]
fn the_annotation_key_reader_resolves_embedded_resources() {
    let schema = json!({"$id": "https://example.com/a/main", "$defs": {"b": {"$id": "b"}}});
    assert_eq!(
        resource_locations(&schema)[1..],
        [
            ("https://example.com/a/main".to_owned(), String::new()),
            ("https://example.com/a/b".to_owned(), "/$defs/b".to_owned()),
        ]
    );
}
