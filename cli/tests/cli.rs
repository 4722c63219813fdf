//! Runs the built `toolschema` binary over real files and checks output and exit codes.

use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use tempfile::TempDir;

const TOOL: &str = r#"{
  "$id": "https://example.test/tool.json",
  "type": "object",
  "properties": {
    "query": {"type": "string", "minLength": 2},
    "limit": {"type": "integer", "minimum": 1, "maximum": 50}
  },
  "required": ["query"],
  "additionalProperties": false
}"#;

struct Dir(TempDir);

impl Dir {
    fn new() -> Dir {
        let dir = Dir(tempfile::tempdir().unwrap());
        dir.write("tool.json", TOOL);
        dir
    }

    fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.0.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        path
    }

    fn run(&self, args: &[&str]) -> Run {
        self.run_with_stdin(args, None)
    }

    fn run_with_stdin(&self, args: &[&str], stdin: Option<&str>) -> Run {
        let mut child = Command::new(env!("CARGO_BIN_EXE_toolschema"))
            .args(args)
            .current_dir(self.0.path())
            .env_remove("NO_COLOR")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut pipe = child.stdin.take().unwrap();
        if let Some(text) = stdin {
            pipe.write_all(text.as_bytes()).unwrap();
        }
        drop(pipe);
        Run::from(child.wait_with_output().unwrap())
    }
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

impl From<Output> for Run {
    fn from(output: Output) -> Run {
        Run {
            code: output.status.code().expect("exited"),
            stdout: String::from_utf8(output.stdout).unwrap(),
            stderr: String::from_utf8(output.stderr).unwrap(),
        }
    }
}

impl Run {
    fn expect(&self, code: i32) -> &Run {
        assert_eq!(
            self.code, code,
            "exit code\n--- stdout\n{}--- stderr\n{}",
            self.stdout, self.stderr
        );
        self
    }

    fn stdout_has(&self, text: &str) -> &Run {
        assert!(
            self.stdout.contains(text),
            "stdout lacks {text:?}:\n{}",
            self.stdout
        );
        self
    }

    fn stderr_has(&self, text: &str) -> &Run {
        assert!(
            self.stderr.contains(text),
            "stderr lacks {text:?}:\n{}",
            self.stderr
        );
        self
    }

    fn json_lines(&self) -> Vec<Value> {
        self.stdout
            .lines()
            .map(|l| serde_json::from_str(l).expect("each line is JSON"))
            .collect()
    }
}

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/data")
}

#[test]
fn check_ok() {
    let dir = Dir::new();
    dir.run(&["check", "tool.json"])
        .expect(0)
        .stdout_has("tool.json: ok");
}

#[test]
fn check_invalid_schema_names_class_and_pointer() {
    let dir = Dir::new();
    dir.write("bad.json", r#"{"properties": {"n": {"type": 5}}}"#);
    dir.run(&["check", "tool.json", "bad.json"])
        .expect(1)
        .stdout_has("tool.json: ok")
        .stdout_has("bad.json: schema does not build (Validation)")
        .stdout_has("at /properties/n/type");
}

#[test]
fn check_draft07_is_unsupported() {
    let dir = Dir::new();
    dir.write(
        "d7.json",
        r#"{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"}"#,
    );
    dir.run(&["check", "d7.json"])
        .expect(1)
        .stdout_has("(UnsupportedCapability)")
        .stdout_has("at /$schema");
}

#[test]
fn check_malformed_json_names_file_line_column() {
    let dir = Dir::new();
    dir.write("broken.json", "{\n  \"type\": \"object\",\n}\n");
    dir.run(&["check", "broken.json", "tool.json"])
        .expect(2)
        .stderr_has("broken.json:3:1: malformed JSON")
        .stdout_has("tool.json: ok");
}

#[test]
fn check_missing_file() {
    let dir = Dir::new();
    dir.run(&["check", "absent.json"])
        .expect(2)
        .stderr_has("cannot read absent.json");
}

#[test]
fn check_without_arguments_is_a_usage_error() {
    Dir::new().run(&["check"]).expect(2);
}

#[test]
fn validate_valid() {
    let dir = Dir::new();
    dir.write("call.json", r#"{"query": "rust", "limit": 5}"#);
    dir.run(&["validate", "--schema", "tool.json", "call.json"])
        .expect(0)
        .stdout_has("call.json: valid");
}

#[test]
fn validate_invalid_lists_every_error_with_locations() {
    let dir = Dir::new();
    dir.write("call.json", r#"{"query": "r", "limit": 99, "sort": 1}"#);
    let run = dir.run(&["validate", "--schema", "tool.json", "call.json"]);
    run.expect(1)
        .stdout_has("call.json: invalid (3 errors)")
        .stdout_has("at /query: ")
        .stdout_has("/properties/query/minLength (minLength)")
        .stdout_has("at /limit: ")
        .stdout_has("/properties/limit/maximum (maximum)")
        .stdout_has("at /sort: ")
        .stdout_has("/additionalProperties (additionalProperties)");
    assert!(!run.stdout.contains('\x1b'), "no colour in a pipe");
}

#[test]
fn validate_root_error_is_named_root() {
    let dir = Dir::new();
    dir.write("call.json", "{}");
    dir.run(&["validate", "--schema", "tool.json", "call.json"])
        .expect(1)
        .stdout_has("at (root): ")
        .stdout_has("/required (required)");
}

#[test]
fn validate_malformed_instance() {
    let dir = Dir::new();
    dir.write("ok.json", r#"{"query": "rust"}"#);
    dir.write("broken.json", "{\"query\": \"rust\" \"limit\": 1}");
    dir.run(&["validate", "-s", "tool.json", "broken.json", "ok.json"])
        .expect(2)
        .stderr_has("broken.json:1:18: malformed JSON")
        .stdout_has("ok.json: valid");
}

#[test]
fn validate_missing_instance_and_missing_schema() {
    let dir = Dir::new();
    dir.run(&["validate", "--schema", "tool.json", "absent.json"])
        .expect(2)
        .stderr_has("cannot read absent.json");
    dir.run(&["validate", "--schema", "absent.json", "tool.json"])
        .expect(2)
        .stderr_has("cannot read absent.json");
}

#[test]
fn validate_against_draft07_schema_is_unsupported() {
    let dir = Dir::new();
    dir.write(
        "d7.json",
        r#"{"$schema": "http://json-schema.org/draft-07/schema#"}"#,
    );
    dir.write("call.json", "{}");
    dir.run(&["validate", "--schema", "d7.json", "call.json"])
        .expect(2)
        .stderr_has("the schema does not build")
        .stderr_has("UnsupportedCapability");
}

#[test]
fn validate_output_json_is_the_basic_shape() {
    let dir = Dir::new();
    dir.write("bad.json", r#"{"query": "r"}"#);
    dir.write("good.json", r#"{"query": "rust"}"#);
    let run = dir.run(&[
        "validate",
        "--schema",
        "tool.json",
        "--output",
        "json",
        "bad.json",
        "good.json",
    ]);
    run.expect(1);
    let lines = run.json_lines();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["source"], "bad.json");
    assert_eq!(lines[0]["valid"], false);
    let error = &lines[0]["errors"][0];
    assert_eq!(error["instanceLocation"], "/query");
    assert_eq!(error["keywordLocation"], "/properties/query/minLength");
    assert_eq!(
        error["absoluteKeywordLocation"],
        "https://example.test/tool.json#/properties/query/minLength"
    );
    assert!(error["error"].as_str().unwrap().contains('2'));
    assert_eq!(lines[1]["source"], "good.json");
    assert_eq!(lines[1]["valid"], true);
    assert_eq!(lines[1]["keywordLocation"], "");
    let annotated: Vec<_> = lines[1]["annotations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["keywordLocation"].as_str().unwrap())
        .collect();
    assert_eq!(annotated, ["/properties"]);
    // `basic` is `json` under its own name.
    let basic = dir.run(&[
        "validate",
        "-s",
        "tool.json",
        "--output",
        "basic",
        "bad.json",
    ]);
    assert_eq!(basic.json_lines(), lines[..1]);
}

#[test]
fn validate_writes_every_output_format() {
    let dir = Dir::new();
    dir.write(
        "branches.json",
        r#"{"type": "object", "title": "Fetch",
            "properties": {"target": {"oneOf": [
                {"type": "string", "format": "uri"},
                {"type": "object", "required": ["path"]}
            ]}}}"#,
    );
    dir.write("bad.json", r#"{"target": {"file": "a"}}"#);
    dir.write("good.json", r#"{"target": "https://example.com"}"#);
    let run = |format: &str, file: &str| {
        let run = dir.run(&["validate", "-s", "branches.json", "--output", format, file]);
        run.json_lines().remove(0)
    };
    assert_eq!(
        run("flag", "bad.json"),
        serde_json::json!({"source": "bad.json", "valid": false})
    );
    // Detailed nests the failure of the branch that could hold under `oneOf`.
    let detailed = run("detailed", "bad.json");
    let text = detailed.to_string();
    assert!(
        text.contains("/properties/target/oneOf/1/required"),
        "{text}"
    );
    assert!(text.contains("/properties/target/oneOf/0/type"), "{text}");
    // The root had one failing unit, `target`'s, which replaces it; each branch had one
    // failure, which replaces the branch.
    assert_eq!(detailed["keywordLocation"], "/properties/target");
    assert_eq!(detailed["errors"].as_array().unwrap().len(), 3);
    // Verbose shows every unit, the valid ones too.
    let verbose = run("verbose", "good.json");
    assert_eq!(verbose["valid"], true);
    assert!(verbose.to_string().contains("\"title\""));
    // Text output lists the annotations of a valid instance on request.
    dir.run(&[
        "validate",
        "-s",
        "branches.json",
        "--annotations",
        "good.json",
    ])
    .expect(0)
    .stdout_has("good.json: valid")
    .stdout_has("(root) title: \"Fetch\"")
    .stdout_has("/target format: \"uri\"");
}

#[test]
fn validate_jsonl_gives_one_verdict_per_line() {
    let dir = Dir::new();
    dir.write(
        "calls.jsonl",
        "{\"query\": \"rust\"}\n\n{\"query\": 1}\n{\"query\": \r\n{\"query\": \"ok\"}\n",
    );
    let run = dir.run(&[
        "validate",
        "--schema",
        "tool.json",
        "--jsonl",
        "calls.jsonl",
    ]);
    run.expect(2)
        .stdout_has("calls.jsonl:1: valid")
        .stdout_has("calls.jsonl:3: invalid (1 error)")
        .stdout_has("calls.jsonl:5: valid")
        .stderr_has("calls.jsonl:4:");
    assert!(run.stderr.contains("malformed JSON"));

    let run = dir.run(&[
        "validate",
        "--schema",
        "tool.json",
        "--jsonl",
        "--output",
        "json",
        "calls.jsonl",
    ]);
    let lines = run.json_lines();
    let numbers: Vec<_> = lines.iter().map(|l| l["line"].as_u64().unwrap()).collect();
    assert_eq!(numbers, [1, 3, 5]);
    assert_eq!(lines[1]["errors"][0]["instanceLocation"], "/query");
    assert!(
        run.stderr.is_empty() || !run.stderr.contains('\r'),
        "no progress bar in a pipe"
    );
}

#[test]
fn validate_reads_stdin_when_no_instance_is_given() {
    let dir = Dir::new();
    dir.run_with_stdin(
        &["validate", "--schema", "tool.json"],
        Some(r#"{"query": "rust"}"#),
    )
    .expect(0)
    .stdout_has("<stdin>: valid");
    dir.run_with_stdin(
        &["validate", "--schema", "tool.json", "-"],
        Some(r#"{"query": 5}"#),
    )
    .expect(1)
    .stdout_has("<stdin>: invalid");
    dir.run_with_stdin(
        &["validate", "--schema", "tool.json", "--jsonl"],
        Some("{\"query\": \"ab\"}\n{}\n"),
    )
    .expect(1)
    .stdout_has("<stdin>:1: valid")
    .stdout_has("<stdin>:2: invalid");
}

#[test]
fn validate_stdin_twice_is_a_usage_error() {
    Dir::new()
        .run(&["validate", "--schema", "tool.json", "-", "-"])
        .expect(2)
        .stderr_has("only once");
}

const USES_COMMON: &str = r#"{
  "type": "object",
  "properties": {"id": {"$ref": "https://example.test/common.json#/$defs/id"}}
}"#;
const COMMON: &str = r#"{
  "$id": "https://example.test/common.json",
  "$defs": {"id": {"type": "string", "pattern": "^[a-z]+$"}}
}"#;

#[test]
fn validate_with_registry_file() {
    let dir = Dir::new();
    dir.write("uses.json", USES_COMMON);
    dir.write("shared/common.json", COMMON);
    dir.write("call.json", r#"{"id": "ABC"}"#);
    dir.run(&["validate", "--schema", "uses.json", "call.json"])
        .expect(2)
        .stderr_has("cannot be resolved");
    dir.run(&[
        "validate",
        "--schema",
        "uses.json",
        "--registry",
        "https://example.test/common.json=shared/common.json",
        "call.json",
    ])
    .expect(1)
    .stdout_has("at /id: ")
    .stdout_has("/properties/id/$ref/pattern (pattern)")
    .stdout_has("defined at https://example.test/common.json#/$defs/id/pattern");
}

#[test]
fn registry_dir_registers_by_id() {
    let dir = Dir::new();
    dir.write("uses.json", USES_COMMON);
    dir.write("shared/nested/common.json", COMMON);
    dir.write("shared/notes.json", r#"{"type": "string"}"#);
    dir.write("shared/readme.txt", "not json");
    dir.run(&["check", "--registry-dir", "shared", "uses.json"])
        .expect(0)
        .stdout_has("uses.json: ok")
        .stderr_has("notes.json: no top-level \"$id\"");

    dir.write("shared/again.json", COMMON);
    dir.run(&["check", "--registry-dir", "shared", "uses.json"])
        .expect(2)
        .stderr_has("both have \"$id\": \"https://example.test/common.json\"");
}

#[test]
fn registry_argument_must_be_uri_equals_file() {
    Dir::new()
        .run(&["check", "--registry", "common.json", "tool.json"])
        .expect(2)
        .stderr_has("expected URI=FILE");
}

#[test]
fn format_assertion_is_off_unless_asked() {
    let dir = Dir::new();
    dir.write(
        "when.json",
        r#"{"properties": {"when": {"format": "date"}}}"#,
    );
    dir.write("call.json", r#"{"when": "not a date"}"#);
    dir.run(&["validate", "--schema", "when.json", "call.json"])
        .expect(0);
    dir.run(&[
        "validate",
        "--schema",
        "when.json",
        "--format-assertion",
        "call.json",
    ])
    .expect(1)
    .stdout_has("(format)");
}

#[test]
fn content_assertion_is_off_unless_asked() {
    let dir = Dir::new();
    dir.write(
        "blob.json",
        r#"{"properties": {"blob": {"contentEncoding": "base64"}}}"#,
    );
    dir.write("call.json", r#"{"blob": "***"}"#);
    dir.run(&["validate", "--schema", "blob.json", "call.json"])
        .expect(0);
    dir.run(&[
        "validate",
        "--schema",
        "blob.json",
        "--content-assertion",
        "call.json",
    ])
    .expect(1);
}

#[test]
fn the_example_data_behaves_as_documented() {
    let data = examples();
    let dir = Dir::new();
    let schema = data.join("search_tool.schema.json");
    let schema = schema.to_str().unwrap();
    let file = |name: &str| data.join(name).to_str().unwrap().to_string();
    dir.run(&["check", schema]).expect(0);
    dir.run(&[
        "validate",
        "--schema",
        schema,
        &file("search_call.valid.json"),
    ])
    .expect(0);
    dir.run(&[
        "validate",
        "--schema",
        schema,
        &file("search_call.invalid.json"),
    ])
    .expect(1)
    .stdout_has("invalid (5 errors)")
    .stdout_has("at /filters/kind: ")
    .stdout_has("at /sort: ");
    let run = dir.run(&[
        "validate",
        "--schema",
        schema,
        "--jsonl",
        "--output",
        "json",
        &file("calls.jsonl"),
    ]);
    run.expect(1);
    let valid: Vec<bool> = run
        .json_lines()
        .iter()
        .map(|l| l["valid"].as_bool().unwrap())
        .collect();
    assert_eq!(valid, [true, true, false, false, true, false]);
}

#[test]
fn help_has_examples_and_exit_codes() {
    let dir = Dir::new();
    for command in ["check", "validate"] {
        dir.run(&[command, "--help"])
            .expect(0)
            .stdout_has("Examples:")
            .stdout_has("Exit codes:");
    }
}

#[test]
fn too_deep_to_parse_is_not_called_malformed() {
    let dir = Dir::new();
    dir.write(
        "deep.json",
        &format!("{}{}", "[".repeat(300), "]".repeat(300)),
    );
    let run = dir.run(&["validate", "--schema", "tool.json", "deep.json"]);
    run.expect(2)
        .stderr_has("deep.json:1:")
        .stderr_has("nested too deeply");
    assert!(!run.stderr.contains("malformed"));
}

#[test]
fn check_holds_schemas_to_the_tool_rules() {
    let dir = Dir::new();
    dir.write("string_root.json", r#"{"type": "string"}"#);
    dir.run(&["check", "string_root.json"])
        .expect(1)
        .stdout_has("(Validation)")
        .stdout_has("at /type");
    dir.write("call.json", r#"["not", "an", "object"]"#);
    dir.write(
        "no_type.json",
        r#"{"properties": {"a": {"type": "string"}}}"#,
    );
    dir.run(&["validate", "--schema", "no_type.json", "call.json"])
        .expect(1)
        .stdout_has("tool arguments must be an object");
}

#[test]
fn compile_prints_what_the_builder_writes() {
    let dir = Dir::new();
    dir.write(
        "search_tool.schema.json",
        r#"{"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}"#,
    );
    dir.run(&["compile", "search_tool.schema.json"])
        .expect(0)
        .stdout_has("// @generated")
        .stdout_has("pub struct SearchToolSchema;")
        .stdout_has("impl ::toolschema::Validate for SearchToolSchema");
    dir.run(&[
        "compile",
        "--out",
        "generated.rs",
        "search_tool.schema.json",
    ])
    .expect(0);
    let written = std::fs::read_to_string(dir.0.path().join("generated.rs")).unwrap();
    assert!(written.contains("pub struct SearchToolSchema;"));
    dir.write("bad.json", r#"{"type": 5}"#);
    dir.run(&["compile", "bad.json"])
        .expect(1)
        .stderr_has("/type");
}

const CAPTURE: &str = r#"{"tools": [
    {"name": "search", "description": "Search.", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}},
    {"name": "legacy", "inputSchema": {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"}},
    {"name": "broken", "inputSchema": {"type": "object", "properties": {"n": {"minimum": "zero"}}}}
]}"#;

#[test]
fn admit_reports_accepted_quarantined_and_fatal_tools() {
    let dir = Dir::new();
    dir.write("capture.json", CAPTURE);
    dir.run(&["admit", "capture.json", "--mode", "quarantine"])
        .expect(1)
        .stdout_has("ok  search")
        .stdout_has("omitted  legacy: UnsupportedCapability")
        .stdout_has("fatal  broken: Validation")
        .stdout_has("the catalog as given is refused");
    // Strict mode: the draft-07 tool refuses the batch too.
    dir.run(&["admit", "capture.json"])
        .expect(1)
        .stdout_has("fatal  legacy: UnsupportedCapability");
}

/// The README's first command admits the embedded catalog (exit 0); its second example is
/// refused.
#[test]
fn the_readme_catalog_is_admitted_and_its_refused_example_is_not() {
    let dir = Dir::new();
    let example = |name: &str| {
        format!(
            "{}/../examples/admit-catalog/{name}",
            env!("CARGO_MANIFEST_DIR")
        )
    };
    dir.run(&["admit", &example("catalog.json"), "--mode", "quarantine"])
        .expect(0)
        .stdout_has("ok  search_docs")
        .stdout_has("omitted  list_issues: UnsupportedCapability")
        .stdout_has("the catalog is admitted");
    dir.run(&["admit", &example("refused.json"), "--mode", "quarantine"])
        .expect(1)
        .stdout_has("fatal  resize_image: Validation")
        .stdout_has("fatal  lookup_user: Validation")
        .stdout_has("fatal  send email:")
        .stdout_has("the catalog as given is refused");
}

#[test]
fn admit_prints_the_provider_tools_as_json() {
    let dir = Dir::new();
    dir.write(
        "list.json",
        r#"[{"name": "search", "description": "Search.", "inputSchema": {"type": "object"}},
            {"name": "legacy", "inputSchema": {"$schema": "http://json-schema.org/draft-07/schema#"}}]"#,
    );
    let run = dir.run(&[
        "admit",
        "list.json",
        "--mode",
        "quarantine",
        "--output",
        "json",
    ]);
    run.expect(0);
    let shown: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
    assert_eq!(
        shown,
        serde_json::json!({"tools": [{"name": "search", "description": "Search.", "inputSchema": {"type": "object"}}]})
    );
    dir.write("not_tools.json", r#"{"items": []}"#);
    dir.run(&["admit", "not_tools.json"]).expect(2);
}
