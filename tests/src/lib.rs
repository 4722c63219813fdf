//! Shared harness for the conformance tests: the suite's location, its remote documents as a
//! registry, and the check of one case.

pub mod arguments;
pub mod boundary;
pub mod counting;
pub mod grammar;
pub mod remotes;
pub mod typed;

use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use toolschema::{Options, Validate, Validator};

/// The root of the JSON-Schema-Test-Suite checkout.
pub fn suite_root() -> PathBuf {
    std::env::var_os("JSON_SCHEMA_TEST_SUITE")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/json-schema-test-suite")
        })
}

/// The files of real MCP tool lists (`../shared/mcp-tools/*.json`), in name order.
pub fn mcp_tool_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/mcp-tools");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|d| d.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "json"));
    files.sort();
    files
}

/// Every file under `remotes/`, as served at `http://localhost:1234/…`.
pub fn remotes() -> &'static [(String, Value)] {
    static REMOTES: OnceLock<Vec<(String, Value)>> = OnceLock::new();
    REMOTES.get_or_init(|| remotes::read(&suite_root().join("remotes")))
}

/// Options with every remote as a registry document.
pub fn options_for(file: &str) -> Options {
    let mut options = Options::new().format_assertion(file.starts_with("optional/format/"));
    for (uri, doc) in remotes() {
        options = options.registry_document(uri.clone(), doc.clone());
    }
    options
}

/// The parsed suite file `file` (relative to `tests/draft2020-12`), read once.
pub fn load(file: &str) -> Arc<Value> {
    static FILES: OnceLock<Mutex<HashMap<String, Arc<Value>>>> = OnceLock::new();
    let cache = FILES.get_or_init(Default::default);
    let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
    cache
        .entry(file.to_string())
        .or_insert_with(|| {
            let path = suite_root().join("tests/draft2020-12").join(file);
            Arc::new(serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap())
        })
        .clone()
}

/// What the expected-failure list says of a case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    /// The case must pass.
    Pass,
    /// The case is listed as an expected failure: it must fail, so the list stays honest.
    Failure,
}

/// The outcome of one case on the interpreter: `Ok` when the verdict is the expected one.
pub fn check_interpreted(file: &str, group: usize, case: usize) -> Result<(), String> {
    let groups = load(file);
    let group_value = &groups[group];
    let schema = &group_value["schema"];
    let test = &group_value["tests"][case];
    let data = &test["data"];
    let expected = test["valid"].as_bool().unwrap();
    let validator = Validator::with_options(schema, &options_for(file))
        .map_err(|e| format!("the schema did not build: {e}"))?;
    let quick = validator.is_valid(data);
    let full = validator.validate(data);
    if quick != full.is_ok() {
        return Err(format!(
            "is_valid says {quick} but validate says {:?}",
            full.err()
        ));
    }
    if quick != expected {
        return Err(format!(
            "expected {}, got {}{}",
            if expected { "valid" } else { "invalid" },
            if quick { "valid" } else { "invalid" },
            full.err().map(|e| format!(": {e}")).unwrap_or_default()
        ));
    }
    Ok(())
}

/// Checks that the compiled validator of a case (or its absence, when the front end rejected
/// the schema) agrees with the interpreter exactly: verdicts, failures, error class.
pub fn check_agreement(file: &str, group: usize, case: usize, compiled: Option<&dyn Validate>) {
    let groups = load(file);
    let group_value = &groups[group];
    let schema = &group_value["schema"];
    let data = &group_value["tests"][case]["data"];
    let interpreted = Validator::with_options(schema, &options_for(file));
    let (interpreted, compiled) = match (interpreted, compiled) {
        (Ok(i), Some(c)) => (i, c),
        (Err(_), None) => return,
        (Ok(_), None) => {
            panic!("{file} group {group}: the interpreter built the schema, the compiler did not")
        }
        (Err(e), Some(_)) => {
            panic!("{file} group {group}: the compiler built a schema the interpreter rejects: {e}")
        }
    };
    if let Err(e) = agree(compiled, &interpreted, data) {
        panic!("{file} group {group} case {case}: {e}");
    }
}

/// The verdict on `data`, when the compiled and the interpreted validator agree on it
/// exactly: `is_valid`, `validate`, the error class and every failure in order.
pub fn agree(
    compiled: &dyn Validate,
    interpreted: &Validator,
    data: &Value,
) -> Result<bool, String> {
    let quick = compiled.is_valid(data);
    if quick != interpreted.is_valid(data) {
        return Err(format!(
            "is_valid: compiled {quick}, interpreted {}",
            !quick
        ));
    }
    let full = compiled.validate(data);
    if quick != full.is_ok() {
        return Err(format!(
            "compiled is_valid says {quick} but validate says {full:?}"
        ));
    }
    let verdict = match (&full, &interpreted.validate(data)) {
        (Ok(()), Ok(())) => true,
        (Err(a), Err(b)) if a.class() == b.class() && a.failures() == b.failures() => false,
        (a, b) => return Err(format!("compiled gives {a:?}, interpreted gives {b:?}")),
    };
    evaluations_agree(compiled, interpreted, data, verdict)?;
    Ok(verdict)
}

/// Whether the compiled and the interpreted evaluation of `data` are the same in every output
/// format and in their annotations, and agree with the verdict of `validate`.
pub fn evaluations_agree(
    compiled: &dyn Validate,
    interpreted: &dyn Validate,
    data: &Value,
    verdict: bool,
) -> Result<(), String> {
    match (compiled.evaluate(data), interpreted.evaluate(data)) {
        (Ok(a), Ok(b)) => {
            if a.is_valid() != verdict {
                return Err(format!(
                    "evaluate says {} where validate says {verdict}",
                    a.is_valid()
                ));
            }
            let formats = [
                ("flag", a.flag(), b.flag()),
                ("basic", a.basic(), b.basic()),
                ("detailed", a.detailed(), b.detailed()),
                ("verbose", a.verbose(), b.verbose()),
            ];
            for (name, x, y) in formats {
                if x != y {
                    return Err(format!(
                        "{name} output: compiled gives {x:#}, interpreted gives {y:#}"
                    ));
                }
            }
            let (x, y): (Vec<_>, Vec<_>) = (a.annotations().collect(), b.annotations().collect());
            if x != y {
                return Err(format!(
                    "annotations: compiled gives {x:?}, interpreted gives {y:?}"
                ));
            }
            Ok(())
        }
        (Err(a), Err(b)) if a.class() == b.class() && a.failures() == b.failures() => Ok(()),
        (a, b) => Err(format!(
            "evaluate: compiled gives {:?}, interpreted gives {:?}",
            a.map(|e| e.basic()),
            b.map(|e| e.basic())
        )),
    }
}

/// Runs one case on both paths and checks them against the expectation and each other.
pub fn run_case(
    file: &str,
    group: usize,
    case: usize,
    expect: Expect,
    compiled: Option<&dyn Validate>,
) {
    check_agreement(file, group, case, compiled);
    let outcome = check_interpreted(file, group, case);
    match (outcome, expect) {
        (Ok(()), Expect::Pass) | (Err(_), Expect::Failure) => {}
        (Err(e), Expect::Pass) => panic!("{file} group {group} case {case}: {e}"),
        (Ok(()), Expect::Failure) => panic!(
            "{file} group {group} case {case} now passes: remove it from expected-failures.txt"
        ),
    }
}
