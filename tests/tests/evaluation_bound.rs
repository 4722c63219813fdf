//! The evaluation bound is sound: with the step and depth limits set to exactly what the
//! bound allows for arguments of a given size, no evaluation of such arguments halts. Both
//! ways of counting (by kind, by value) are held to it on their own, over the whole suite and
//! every MCP tool with the argument sets generated for it, recording every unit for the
//! output formats, which runs every branch.

#![deny(warnings)]

use serde_json::Value;
use std::path::{Path, PathBuf};
use toolschema::{ErrorClass, Limits, Options, Validate, Validator};
use toolschema_conformance::{arguments::argument_sets, mcp_tool_files, options_for, suite_root};

/// How many values `v` holds, itself included.
fn values(v: &Value) -> usize {
    1 + match v {
        Value::Array(items) => items.iter().map(values).sum(),
        Value::Object(map) => map.values().map(values).sum(),
        _ => 0,
    }
}

/// Checks `instances` against `schema` under limits set to its bound; returns how many
/// (instance, way of counting) pairs were checked.
fn check(schema: &Value, options: &Options, instances: &[Value], what: &str) -> usize {
    let Ok(validator) = Validator::with_options(schema, options) else {
        return 0;
    };
    let Some(bound) = validator.ir().evaluation_bound else {
        return 0;
    };
    let mut checked = 0;
    for instance in instances {
        let n = values(instance);
        let by_kind = bound.fixed_steps + bound.spread_steps * n as u64;
        let by_value = bound
            .value_steps
            .map(|steps| bound.root_steps + steps * (n as u64 - 1));
        for steps in [Some(by_kind), by_value].into_iter().flatten() {
            let limits = Limits::new()
                .max_argument_nodes(n)
                .max_evaluation_depth(bound.depth)
                .max_evaluation_steps(steps as usize);
            let bounded = Validator::with_options(schema, &options.clone().limits(limits.clone()))
                .expect("the schema builds under any evaluation limits");
            assert!(
                bound.within(&limits),
                "{what}: the bound is not within the limits made of it"
            );
            let halted = |outcome: Result<(), toolschema::Error>| {
                outcome.is_err_and(|e| e.class() == ErrorClass::ExecutionFailure)
            };
            assert!(
                !halted(bounded.evaluate(instance).map(|_| ())),
                "{what}: {instance} halted within {bound:?} ({steps} steps)"
            );
            assert!(
                !halted(bounded.validate(instance)),
                "{what}: {instance} halted within {bound:?} ({steps} steps)"
            );
            checked += 1;
        }
    }
    checked
}

fn suite_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            suite_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "json") {
            out.push(path);
        }
    }
}

#[test]
fn no_evaluation_of_the_suite_halts_within_its_bound() {
    let root = suite_root().join("tests/draft2020-12");
    let mut files = Vec::new();
    suite_files(&root, &mut files);
    let mut checked = 0;
    for path in files {
        let file = path
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .to_string();
        let groups: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        for group in groups.as_array().unwrap() {
            let instances: Vec<Value> = group["tests"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t["data"].clone())
                .collect();
            let what = format!("{file}: {}", group["description"]);
            checked += check(&group["schema"], &options_for(&file), &instances, &what);
        }
    }
    assert!(checked > 1500, "only {checked} cases were bounded");
}

#[test]
fn no_call_of_an_mcp_tool_halts_within_its_bound() {
    let mut checked = 0;
    for file in mcp_tool_files() {
        let tools: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        for tool in tools.as_array().unwrap() {
            let schema = &tool["inputSchema"];
            let what = format!("{}: {}", file.display(), tool["name"]);
            checked += check(schema, &Options::new(), &argument_sets(schema), &what);
        }
    }
    assert!(checked > 1000, "only {checked} calls were bounded");
}
