//! A tool server without a network: each line of standard input is a tool call
//! `{"name": …, "arguments": {…}}`, each line of standard output its answer, either
//! `{"name": …, "result": …}` or `{"name": …, "error": {…}}` with every failure and its
//! locations. The arguments are checked by validators `tool_schema!` compiled from the
//! tools' schemas before any tool runs.
//!
//! ```text
//! cargo run -q -p example-tool-server < examples/tool-server/calls.jsonl
//! ```

use serde_json::{Value, json};
use std::io::{BufRead, Write};
use toolschema::Validate;
use toolschema::tool_schema;

tool_schema!(
    /// The arguments of `add`: two numbers.
    AddArgs = {
        "type": "object",
        "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
        "required": ["a", "b"],
        "additionalProperties": false
    }
);

tool_schema!(
    /// The arguments of `search`, from a file next to this crate's manifest.
    SearchArgs,
    path = "schemas/search.json"
);

tool_schema!(
    /// The arguments of `read_file`: a relative path and an optional line range.
    ReadFileArgs = {
        "type": "object",
        "properties": {
            "path": {"type": "string", "pattern": r"^[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*$"},
            "start_line": {"$ref": "#/$defs/line"},
            "end_line": {"$ref": "#/$defs/line"}
        },
        "required": ["path"],
        "dependentRequired": {"end_line": ["start_line"]},
        "additionalProperties": false,
        "$defs": {"line": {"type": "integer", "minimum": 1}}
    }
);

/// The documents `search` and `read_file` see.
const FILES: &[(&str, &str, &str)] = &[
    (
        "docs/limits.md",
        "reference",
        "# Limits\nArguments are at most 64 levels deep.\nStrings are at most 1 MiB.\nEvaluation stops after a step budget.",
    ),
    (
        "docs/getting-started.md",
        "guide",
        "# Getting started\nDefine a tool with tool_schema!.\nCheck the limits before deploying.",
    ),
    (
        "CHANGELOG.md",
        "changelog",
        "# Changes\n0.1.0: the first release.",
    ),
];

/// A tool: its name, the validator of its arguments, and what it does with valid ones.
struct Tool {
    name: &'static str,
    arguments: &'static dyn Validate,
    run: fn(&Value) -> Result<Value, String>,
}

const TOOLS: &[Tool] = &[
    Tool {
        name: "add",
        arguments: &AddArgs,
        run: add,
    },
    Tool {
        name: "search",
        arguments: &SearchArgs,
        run: search,
    },
    Tool {
        name: "read_file",
        arguments: &ReadFileArgs,
        run: read_file,
    },
];

fn add(arguments: &Value) -> Result<Value, String> {
    let a = arguments["a"].as_f64().unwrap_or_default();
    let b = arguments["b"].as_f64().unwrap_or_default();
    Ok(json!({"sum": a + b}))
}

fn search(arguments: &Value) -> Result<Value, String> {
    let query = arguments["query"]
        .as_str()
        .unwrap_or_default()
        .to_lowercase();
    let limit = arguments["limit"].as_u64().unwrap_or(3) as usize;
    let tags: Vec<&str> = arguments["tags"]
        .as_array()
        .map(|tags| tags.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let hits: Vec<Value> = FILES
        .iter()
        .filter(|(_, tag, _)| tags.is_empty() || tags.contains(tag))
        .flat_map(|(path, _, text)| {
            text.lines()
                .enumerate()
                .filter(|(_, line)| line.to_lowercase().contains(&query))
                .map(move |(n, line)| json!({"path": path, "line": n + 1, "text": line}))
        })
        .take(limit)
        .collect();
    Ok(json!({"hits": hits}))
}

fn read_file(arguments: &Value) -> Result<Value, String> {
    let path = arguments["path"].as_str().unwrap_or_default();
    let Some((_, _, text)) = FILES.iter().find(|(p, _, _)| *p == path) else {
        return Err(format!("no file {path}"));
    };
    let lines: Vec<&str> = text.lines().collect();
    let start = arguments["start_line"].as_u64().unwrap_or(1) as usize;
    let end = arguments["end_line"]
        .as_u64()
        .map_or(lines.len(), |n| n as usize);
    let selected = lines
        .get(start - 1..end.min(lines.len()))
        .ok_or_else(|| format!("{path} has {} lines", lines.len()))?;
    Ok(json!({"path": path, "text": selected.join("\n")}))
}

/// The answer to one line of input.
fn answer(line: &str) -> Value {
    let call: Value = match serde_json::from_str(line) {
        Ok(call) => call,
        Err(e) => return json!({"error": {"message": format!("not a JSON tool call: {e}")}}),
    };
    let name = call["name"].as_str().unwrap_or_default();
    let Some(tool) = TOOLS.iter().find(|tool| tool.name == name) else {
        let known: Vec<&str> = TOOLS.iter().map(|tool| tool.name).collect();
        return json!({"name": name, "error": {"message": format!("unknown tool; the tools are {known:?}")}});
    };
    let arguments = call.get("arguments").unwrap_or(&Value::Null);
    if let Err(e) = tool.arguments.validate(arguments) {
        let failures: Vec<Value> = e
            .failures()
            .iter()
            .map(|f| {
                json!({
                    "instance_location": f.instance_location(),
                    "keyword_location": f.keyword_location(),
                    "message": f.message(),
                })
            })
            .collect();
        return json!({
            "name": name,
            "error": {"class": e.class().as_str(), "message": e.message(), "failures": failures},
        });
    }
    match (tool.run)(arguments) {
        Ok(result) => json!({"name": name, "result": result}),
        Err(message) => json!({"name": name, "error": {"message": message}}),
    }
}

fn main() {
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        if line.trim().is_empty() {
            continue;
        }
        if writeln!(stdout, "{}", answer(&line)).is_err() {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_calls_run_and_invalid_ones_are_explained() {
        assert_eq!(
            answer(r#"{"name": "add", "arguments": {"a": 2, "b": 40}}"#)["result"]["sum"],
            42.0
        );
        let error = &answer(r#"{"name": "add", "arguments": {"a": "2"}}"#)["error"];
        assert_eq!(error["class"], "Validation");
        let at: Vec<&str> = error["failures"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["instance_location"].as_str().unwrap())
            .collect();
        assert_eq!(at, ["/a", ""]);
        assert!(answer(r#"{"name": "read_file", "arguments": []}"#)["error"].is_object());
        assert_eq!(
            answer(
                r#"{"name": "read_file", "arguments": {"path": "CHANGELOG.md", "start_line": 2}}"#
            )["result"]["text"],
            "0.1.0: the first release."
        );
    }

    #[test]
    fn schemas_are_the_text_as_written() {
        assert_eq!(
            SearchArgs::SCHEMA_JSON,
            include_str!("../schemas/search.json")
        );
        assert_eq!(ReadFileArgs::schema()["required"], json!(["path"]));
    }
}
