//! The evaluation bound, end to end through the public API: under step and depth limits set
//! to the smaller count of the bound for arguments of one value more than an instance holds
//! (so that the bound does not prove them unreachable, and evaluation counts its steps), no
//! evaluation of the instance halts, over the whole suite and every MCP tool with the
//! argument sets generated for it, recording every unit for the output formats (every branch
//! runs) and collecting failures. Each count on its own, with counting forced, is held to
//! the suite by the unit test of `core/src/frontend/bound.rs`.

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
/// instances were checked with their steps counted.
fn check(schema: &Value, options: &Options, instances: &[Value], what: &str) -> usize {
    // Built under limits that the count by kind never meets, so that the count by value is
    // made too (`value_steps`).
    let analysed = options
        .clone()
        .limits(Limits::new().max_evaluation_steps(0));
    let Ok(validator) = Validator::with_options(schema, &analysed) else {
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
        // The smaller total is what the back ends rely on.
        let steps = by_value.map_or(by_kind, |v| v.min(by_kind));
        let exact = Limits::new()
            .max_argument_nodes(n)
            .max_evaluation_depth(bound.depth)
            .max_evaluation_steps(steps as usize);
        assert!(
            bound.within(&exact),
            "{what}: the bound is not within the limits made of it"
        );
        // One more value allowed than the instance holds, so that the bound no longer
        // proves the step limit unreachable and evaluation counts its steps (where it
        // still does, nothing would be observed): then no halt shows that the count for
        // the instance's `n` values holds.
        let limits = exact.max_argument_nodes(n + 1);
        let bounded = Validator::with_options(schema, &options.clone().limits(limits.clone()))
            .expect("the schema builds under any evaluation limits");
        if !bounded.ir().counts_evaluation(&limits) {
            continue;
        }
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
    assert!(checked > 40, "only {checked} cases counted their steps");
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
    assert!(checked > 80, "only {checked} calls counted their steps");
}
