//! Measures, in one run, toolschema and its Rust peers on the same schemas and instances,
//! after checking that all of them agree on every verdict. Prints a Markdown report.
//!
//! Run: `cargo run --release --manifest-path benches/Cargo.toml` (add `-- --quick` for fewer
//! samples, `-- --compile-time` to time the compilation of the generated code instead, `-- --rmcp`
//! to time a `tools/call` round trip through rmcp with and without validation, `-- --rmcp-calls
//! VARIANT N` to make N such calls for an instruction counter).

// Shared with the build scripts, which use other parts of it.
#[allow(dead_code)]
mod catalog;
mod compile_time;
mod convert;
mod floors;
mod generate;
mod heap;
mod rmcp_call;

#[global_allocator]
static ALLOCATOR: heap::Counting = heap::Counting;

use serde_json::Value;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use toolschema::{Options, Validate, Validator};

/// One validator under test.
trait Engine {
    fn is_valid(&self, v: &Value) -> bool;
    /// Collects every error; returns how many.
    fn errors(&self, v: &Value) -> usize;
}

mod compiled {
    pub mod mcp {
        toolschema::include_validators!("toolschema_mcp.rs");
    }
    pub mod fixed {
        toolschema::include_validators!("toolschema_fixed.rs");
    }
    pub mod only {
        toolschema::include_validators!("toolschema_only.rs");
    }
}

/// The compiled validator for a benchmark schema, by key.
fn compiled_validator(key: &str) -> Option<&'static (dyn Validate + Sync)> {
    compiled::mcp::compiled(key)
        .or_else(|| compiled::fixed::compiled(key))
        .or_else(|| compiled::only::compiled(key))
}

struct Compiled(&'static (dyn Validate + Sync));
impl Engine for Compiled {
    fn is_valid(&self, v: &Value) -> bool {
        self.0.is_valid(v)
    }
    fn errors(&self, v: &Value) -> usize {
        self.0.validate(v).err().map_or(0, |e| e.failures().len())
    }
}

struct Interpreted(Validator);
impl Engine for Interpreted {
    fn is_valid(&self, v: &Value) -> bool {
        self.0.is_valid(v)
    }
    fn errors(&self, v: &Value) -> usize {
        self.0.validate(v).err().map_or(0, |e| e.failures().len())
    }
}

struct JsonSchema(jsonschema::Validator);
impl Engine for JsonSchema {
    fn is_valid(&self, v: &Value) -> bool {
        self.0.is_valid(v)
    }
    fn errors(&self, v: &Value) -> usize {
        self.0.iter_errors(v).count()
    }
}

struct JsonSchemaGenerated(jsonschema_generated::Generated);
impl Engine for JsonSchemaGenerated {
    fn is_valid(&self, v: &Value) -> bool {
        self.0.is_valid(v)
    }
    fn errors(&self, v: &Value) -> usize {
        self.0.error_count(v)
    }
}

/// The flat tool schema's checks written by hand.
struct HandWritten;
impl Engine for HandWritten {
    fn is_valid(&self, v: &Value) -> bool {
        floors::flat_tool_is_valid(v)
    }
    fn errors(&self, v: &Value) -> usize {
        floors::flat_tool_error_count(v)
    }
}

struct Boon(boon::Schemas, boon::SchemaIndex);
impl Engine for Boon {
    fn is_valid(&self, v: &Value) -> bool {
        self.0.validate(v, self.1).is_ok()
    }
    fn errors(&self, v: &Value) -> usize {
        self.0
            .validate(v, self.1)
            .err()
            .map_or(0, |e| e.causes.len().max(1))
    }
}

/// The engines, in the order of the report's columns; a case's engines are indexed alike.
const ENGINES: [&str; 6] = [
    "toolschema (compiled)",
    "toolschema (interpreted)",
    "jsonschema",
    "jsonschema (generated)",
    "boon",
    "hand-written",
];
const TOOLSCHEMA_COMPILED: usize = 0;
const TOOLSCHEMA_INTERPRETED: usize = 1;
const JSONSCHEMA_GENERATED: usize = 3;
const HAND_WRITTEN: usize = 5;
/// The column of the plain walk, after the engines': a floor with no verdict, so it is no
/// engine and takes no part in the agreement check.
const PLAIN_WALK: usize = ENGINES.len();

/// Every engine for a schema; the generated ones only when a build script compiled `key`, the
/// hand-written one never.
fn build_all(schema: &Value, key: &str) -> Option<Vec<Option<Box<dyn Engine>>>> {
    let ours = match Validator::with_options(schema, &Options::new()) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("toolschema: {e}");
            return None;
        }
    };
    let theirs = match jsonschema::draft202012::new(schema) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("jsonschema: {e}");
            return None;
        }
    };
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    compiler.set_default_draft(boon::Draft::V2020_12);
    compiler
        .add_resource("http://bench.invalid/schema.json", schema.clone())
        .ok()?;
    let index = match compiler.compile("http://bench.invalid/schema.json", &mut schemas) {
        Ok(i) => i,
        Err(e) => {
            eprintln!("boon: {e}");
            return None;
        }
    };
    Some(vec![
        compiled_validator(key).map(|v| Box::new(Compiled(v)) as Box<dyn Engine>),
        Some(Box::new(Interpreted(ours))),
        Some(Box::new(JsonSchema(theirs))),
        jsonschema_generated::generated(key)
            .map(|v| Box::new(JsonSchemaGenerated(v)) as Box<dyn Engine>),
        Some(Box::new(Boon(schemas, index))),
        None,
    ])
}

/// Median nanoseconds per call of `f`, over several batches of at least `min_batch`.
fn time(min_batch: Duration, batches: usize, mut f: impl FnMut()) -> f64 {
    let mut n = 1u64;
    loop {
        let start = Instant::now();
        for _ in 0..n {
            f();
        }
        if start.elapsed() >= min_batch / 4 || n > 1 << 24 {
            break;
        }
        n *= 2;
    }
    let n = n * 4;
    let mut samples: Vec<f64> = (0..batches)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..n {
                f();
            }
            start.elapsed().as_nanos() as f64 / n as f64
        })
        .collect();
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

struct Case {
    workload: String,
    label: String,
    /// The schema's key (see `catalog.rs`).
    key: String,
    engines: Vec<Option<Box<dyn Engine>>>,
    instance: Value,
}

fn bench_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn shared() -> PathBuf {
    catalog::shared(bench_dir())
}

fn mcp_cases(out: &mut Vec<Case>, skipped: &mut Vec<String>) {
    for tool in catalog::mcp_tools(bench_dir()) {
        let schema = &tool.schema;
        let valid = generate::valid(schema, schema, true, 0);
        let mut instances = vec![("valid".to_string(), valid.clone())];
        for (kind, v) in generate::invalid(schema, schema, &valid) {
            instances.push((kind.to_string(), v));
        }
        for (kind, instance) in instances {
            let Some(engines) = build_all(schema, &tool.key) else {
                skipped.push(format!("{}: a validator rejected the schema", tool.name));
                break;
            };
            out.push(Case {
                workload: "MCP tool calls".into(),
                label: format!("{} ({kind})", tool.name),
                key: tool.key.clone(),
                engines,
                instance,
            });
        }
    }
}

fn corpus_cases(out: &mut Vec<Case>) {
    let dir = shared().join("bench-corpus/jsonschema-rs");
    for (name, schema, instances) in [
        (
            "CITM",
            "citm_catalog_schema.json",
            &["citm_catalog.json"][..],
        ),
        (
            "Fast",
            "fast_schema.json",
            &["fast_valid.json", "fast_invalid.json"][..],
        ),
        ("FHIR", "fhir.schema.json", &["patient-example-d.json"][..]),
        ("GeoJSON", "geojson.json", &["canada.json"][..]),
        ("Kubernetes", "swagger.json", &["kubernetes.json"][..]),
        (
            "Recursive",
            "recursive_schema.json",
            &["recursive_instance.json"][..],
        ),
    ] {
        let schema = convert::to_2020_12(&catalog::load(&dir.join(schema)));
        let key = format!("corpus/{name}");
        for file in instances {
            let document = catalog::load(&dir.join(file));
            // The Fast dataset holds a list of instances.
            let list = if name == "Fast" {
                document.as_array().cloned().unwrap_or_default()
            } else {
                vec![document]
            };
            for (i, instance) in list.into_iter().enumerate() {
                let engines =
                    build_all(&schema, &key).unwrap_or_else(|| panic!("{name} did not build"));
                out.push(Case {
                    workload: name.into(),
                    label: format!("{file} #{i}"),
                    key: key.clone(),
                    engines,
                    instance,
                });
            }
        }
    }
}

fn stress_cases(out: &mut Vec<Case>) {
    use serde_json::json;
    let mut tree = json!({"value": 1, "children": []});
    for i in 0..6 {
        tree = json!({"value": i, "children": [tree.clone(), tree.clone(), {"value": 0}]});
    }
    let schema = |name: &str| catalog::load(&bench_dir().join(format!("schemas/{name}.json")));
    let recursive = schema("recursive_tree");
    let unevaluated = schema("unevaluated_all_of");
    let dynamic = schema("dynamic_tree");
    let mut dyn_tree = json!({"data": 1});
    for _ in 0..5 {
        dyn_tree = json!({"data": 1, "children": [dyn_tree.clone(), dyn_tree.clone()]});
    }
    let discriminated = schema("discriminated_one_of");
    let patterns = schema("patterns");
    for (label, key, schema, instance) in [
        (
            "recursive tree ($ref: #)",
            "recursive_tree",
            recursive,
            tree,
        ),
        (
            "unevaluatedProperties over allOf/oneOf",
            "unevaluated_all_of",
            unevaluated,
            json!({"id": "a", "kind": "file", "size": 3}),
        ),
        ("$dynamicRef strict tree", "dynamic_tree", dynamic, dyn_tree),
        (
            "discriminated oneOf on action",
            "discriminated_one_of",
            discriminated,
            json!({"action": "action_11", "target": "x", "count": 2}),
        ),
        (
            "patterns",
            "patterns",
            patterns,
            json!({"url": "https://example.com/a", "id": "tool_1", "sha": "0123456789abcdef0123456789abcdef01234567", "x-trace": "t"}),
        ),
    ] {
        let key = format!("stress/{key}");
        out.push(Case {
            workload: "stress shapes".into(),
            label: label.into(),
            engines: build_all(&schema, &key).unwrap_or_else(|| panic!("{label} did not build")),
            key,
            instance,
        });
    }
}

/// `^(a+)+$` against 100,000 `a`s and a `!`: exponential on a backtracking engine, one linear
/// pass on an automaton.
fn pattern_case(out: &mut Vec<Case>) {
    let schema = catalog::load(&bench_dir().join("schemas/nested_quantifier.json"));
    let key = "stress/nested_quantifier";
    out.push(Case {
        workload: "pathological pattern".into(),
        label: "^(a+)+$ on 100,000 a's and !".into(),
        key: key.into(),
        engines: build_all(&schema, key).expect("the pattern builds"),
        instance: Value::String(format!("{}!", "a".repeat(100_000))),
    });
}

/// The flat tool schema against a typical call and one failure of each kind its keywords
/// check; the only workload with a hand-written engine.
fn flat_tool_cases(out: &mut Vec<Case>) {
    use serde_json::json;
    let schema = catalog::load(&bench_dir().join(catalog::FLAT_TOOL));
    let valid = json!({
        "query": "json schema validator",
        "limit": 20,
        "sort": "relevance",
        "exact": false,
        "site": "https://docs.rs"
    });
    let with = |name: &str, value: Value| {
        let mut call = valid.clone();
        call[name] = value;
        call
    };
    let mut missing = valid.clone();
    missing.as_object_mut().unwrap().remove("query");
    let key = "flat/flat_tool";
    for (label, instance) in [
        ("valid", valid.clone()),
        ("wrong type", with("limit", json!("20"))),
        ("missing required", missing),
        ("extra property", with("page", json!(2))),
        ("pattern failure", with("site", json!("http://docs.rs"))),
    ] {
        let mut engines = build_all(&schema, key).expect("the flat tool schema builds");
        engines[HAND_WRITTEN] = Some(Box::new(HandWritten));
        out.push(Case {
            workload: "flat tool".into(),
            label: label.into(),
            key: key.into(),
            engines,
            instance,
        });
    }
}

fn geomean(xs: &[f64]) -> f64 {
    (xs.iter().map(|x| x.ln()).sum::<f64>() / xs.len() as f64).exp()
}

/// Nanoseconds per call, by case and then by column (the engines', then the plain walk's);
/// `None` where a case has no such engine.
type Timings = Vec<Vec<Option<f64>>>;

/// Times every column on every case: `is_valid`, or full error collection when `full`.
fn measure(cases: &[Case], full: bool, min_batch: Duration, batches: usize) -> Timings {
    cases
        .iter()
        .map(|c| {
            let mut row: Vec<Option<f64>> = c
                .engines
                .iter()
                .map(|e| {
                    let e = e.as_ref()?;
                    Some(if full {
                        time(min_batch, batches, || {
                            black_box(e.errors(black_box(&c.instance)));
                        })
                    } else {
                        time(min_batch, batches, || {
                            black_box(e.is_valid(black_box(&c.instance)));
                        })
                    })
                })
                .collect();
            row.push(Some(time(min_batch, batches, || {
                black_box(floors::plain_walk(black_box(&c.instance)));
            })));
            row
        })
        .collect()
}

/// One Markdown table: per workload, each column's geometric mean and its ratio to compiled
/// toolschema (to interpreted toolschema where no schema of the workload is compiled).
fn print_table(mode: &str, cases: &[Case], timings: &Timings) {
    println!("## {mode}: geometric mean per call (ns), and ratio to toolschema compiled\n");
    println!(
        "| workload | cases | {} | plain walk |",
        ENGINES.join(" | ")
    );
    println!("|---|---|{}", "---|".repeat(PLAIN_WALK + 1));
    let mut workloads: Vec<&str> = cases.iter().map(|c| c.workload.as_str()).collect();
    workloads.dedup();
    for w in workloads {
        let rows: Vec<&Vec<Option<f64>>> = cases
            .iter()
            .zip(timings)
            .filter(|(c, _)| c.workload == w)
            .map(|(_, row)| row)
            .collect();
        // A column missing for some case of the workload gets no figure for it.
        let means: Vec<Option<f64>> = (0..=PLAIN_WALK)
            .map(|column| {
                let xs: Option<Vec<f64>> = rows.iter().map(|row| row[column]).collect();
                xs.map(|xs| geomean(&xs))
            })
            .collect();
        let base = means[TOOLSCHEMA_COMPILED]
            .or(means[TOOLSCHEMA_INTERPRETED])
            .unwrap_or(1.0);
        let cells: Vec<String> = means
            .iter()
            .map(|m| m.map_or("—".to_string(), |m| format!("{m:.0} ({:.2}×)", m / base)))
            .collect();
        println!("| {w} | {} | {} |", rows.len(), cells.join(" | "));
    }
    println!();
}

/// One line per case: its label and every column's is_valid time (ns).
fn print_cases(cases: &[Case], timings: &Timings) {
    println!("| case | {} | plain walk |", ENGINES.join(" | "));
    println!("|---|{}", "---|".repeat(PLAIN_WALK + 1));
    for (c, row) in cases.iter().zip(timings) {
        let cells: Vec<String> = row
            .iter()
            .map(|t| t.map_or("—".to_string(), |t| format!("{t:.1}")))
            .collect();
        println!("| {} | {} |", c.label, cells.join(" | "));
    }
}

/// The geometric mean of `numerator / denominator` (columns) over the selected cases that have
/// both, and how many those are.
fn ratio(
    cases: &[Case],
    timings: &Timings,
    selected: impl Fn(&Case) -> bool,
    numerator: usize,
    denominator: usize,
) -> Option<(f64, usize)> {
    let ratios: Vec<f64> = cases
        .iter()
        .zip(timings)
        .filter(|(c, _)| selected(c))
        .filter_map(|(_, row)| Some(row[numerator]? / row[denominator]?))
        .collect();
    (!ratios.is_empty()).then(|| (geomean(&ratios), ratios.len()))
}

/// The ratios the targets are stated in, one row each, for both modes.
fn print_floors(cases: &[Case], is_valid: &Timings, full: &Timings) {
    type Selected = fn(&Case) -> bool;
    let rows: [(&str, Selected, usize, usize); 3] = [
        (
            "toolschema compiled ÷ hand-written, flat tool",
            |c| c.workload == "flat tool",
            TOOLSCHEMA_COMPILED,
            HAND_WRITTEN,
        ),
        (
            "toolschema compiled ÷ plain walk, stress shape `unevaluated_all_of`",
            |c| c.key == "stress/unevaluated_all_of",
            TOOLSCHEMA_COMPILED,
            PLAIN_WALK,
        ),
        (
            "jsonschema generated ÷ toolschema compiled, MCP tool calls",
            |c| c.workload == "MCP tool calls",
            JSONSCHEMA_GENERATED,
            TOOLSCHEMA_COMPILED,
        ),
    ];
    println!("## Against the floors: geometric mean of per-case ratios\n");
    println!("| ratio | cases | is_valid | full error collection |\n|---|---|---|---|");
    for (label, selected, numerator, denominator) in rows {
        let [on_is_valid, on_full] =
            [is_valid, full].map(|t| ratio(cases, t, selected, numerator, denominator));
        let count = on_is_valid.or(on_full).map_or(0, |(_, n)| n);
        let cell =
            |r: Option<(f64, usize)>| r.map_or("—".to_string(), |(r, _)| format!("{r:.2}×"));
        println!(
            "| {label} | {count} | {} | {} |",
            cell(on_is_valid),
            cell(on_full)
        );
    }
    println!();
}

/// Drops the cases on which the engines disagree, on `is_valid` or on whether full error
/// collection finds any error, and describes them.
fn drop_disagreements(cases: &mut Vec<Case>) -> Vec<String> {
    let mut disagreements = Vec::new();
    cases.retain(|c| {
        let verdicts: Vec<(&str, bool, bool)> = ENGINES
            .iter()
            .zip(&c.engines)
            .filter_map(|(name, e)| {
                let e = e.as_ref()?;
                Some((*name, e.is_valid(&c.instance), e.errors(&c.instance) == 0))
            })
            .collect();
        let first = verdicts[0].1;
        if verdicts
            .iter()
            .all(|&(_, valid, no_errors)| valid == first && no_errors == first)
        {
            return true;
        }
        let listed: Vec<String> = verdicts
            .iter()
            .map(|(name, valid, no_errors)| {
                format!("{name}: is_valid {valid}, no errors {no_errors}")
            })
            .collect();
        disagreements.push(format!(
            "{} / {}: {}",
            c.workload,
            c.label,
            listed.join("; ")
        ));
        false
    });
    disagreements
}

/// Why the generated-code engines are missing where they are: the schemas the jsonschema
/// crate's macro rejected, and the workloads no build script compiles.
fn missing_generated_engines(cases: &[Case]) -> Vec<String> {
    let mut reasons: Vec<String> = jsonschema_generated::rejected()
        .map(|(key, message)| {
            format!("jsonschema (generated): the macro rejected {key}: {message}")
        })
        .collect();
    let mut uncompiled: Vec<&str> = cases
        .iter()
        .filter(|c| {
            c.engines[TOOLSCHEMA_COMPILED].is_none() && c.engines[JSONSCHEMA_GENERATED].is_none()
        })
        .map(|c| c.workload.as_str())
        .collect();
    uncompiled.dedup();
    if !uncompiled.is_empty() {
        reasons.push(format!(
            "{}: not compiled ahead of time (see `COMPILED_DATASETS` in `benches/src/catalog.rs`), so neither toolschema (compiled) nor jsonschema (generated)",
            uncompiled.join(", ")
        ));
    }
    let mut toolschema_only: Vec<&str> = cases
        .iter()
        .filter(|c| {
            c.engines[TOOLSCHEMA_COMPILED].is_some() && c.engines[JSONSCHEMA_GENERATED].is_none()
        })
        .map(|c| c.workload.as_str())
        .collect();
    toolschema_only.dedup();
    if !toolschema_only.is_empty() {
        reasons.push(format!(
            "{}: compiled by toolschema only (see `TOOLSCHEMA_ONLY` in `benches/src/catalog.rs`), so no jsonschema (generated)",
            toolschema_only.join(", ")
        ));
    }
    reasons
}

/// The schemas of every tool of the corpus that toolschema admits.
fn admitted_tool_schemas() -> Vec<Value> {
    catalog::mcp_tools(bench_dir())
        .into_iter()
        .map(|t| t.schema)
        .filter(|s| Validator::new(s).is_ok())
        .collect()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|a| a == "--compile-time") {
        compile_time::run(concat!(env!("OUT_DIR"), "/toolschema_mcp.rs"), |key| {
            compiled::mcp::compiled(key).is_some()
        });
        return;
    }
    if let Some(i) = args.iter().position(|a| a == "--rmcp-calls") {
        let variant = args.get(i + 1).expect("--rmcp-calls VARIANT N");
        let n = args
            .get(i + 2)
            .and_then(|n| n.parse().ok())
            .expect("a count");
        rmcp_call::calls(variant, n);
        return;
    }
    if args.iter().any(|a| a == "--rmcp") {
        rmcp_call::run(args.iter().any(|a| a == "--quick"));
        return;
    }
    // `--profile-build`: build a validator for every admitted tool, over and over for a few
    // seconds, for a profiler to sample.
    if args.iter().any(|a| a == "--profile-build") {
        let tools = admitted_tool_schemas();
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(4) {
            for s in &tools {
                black_box(Validator::new(s).unwrap());
            }
        }
        return;
    }
    let quick = args.iter().any(|a| a == "--quick");
    let (min_batch, batches) = if quick {
        (Duration::from_micros(300), 3)
    } else {
        (Duration::from_millis(2), 7)
    };
    let mut cases = Vec::new();
    let mut skipped = Vec::new();
    // `--only WORKLOAD` measures one workload (for profiling).
    let only = args
        .iter()
        .position(|a| a == "--only")
        .and_then(|i| args.get(i + 1))
        .cloned();
    let wanted = |w: &str| {
        only.as_deref()
            .is_none_or(|o| w.contains(o) || o.contains(w))
    };
    if wanted("MCP tool calls") {
        mcp_cases(&mut cases, &mut skipped);
    }
    if only.is_none() || !wanted("MCP tool calls") {
        corpus_cases(&mut cases);
    }
    if wanted("flat tool") {
        flat_tool_cases(&mut cases);
    }
    if wanted("stress shapes") {
        stress_cases(&mut cases);
    }
    if wanted("pathological pattern") {
        pattern_case(&mut cases);
    }
    if let Some(only) = &only {
        cases.retain(|c| c.workload.contains(only.as_str()));
    }
    // `--case KEY`: only the cases whose key or label contains KEY (`stress/unevaluated_all_of`,
    // `(valid)`).
    if let Some(key) = args
        .iter()
        .position(|a| a == "--case")
        .and_then(|i| args.get(i + 1))
    {
        cases.retain(|c| c.key.contains(key.as_str()) || c.label.contains(key.as_str()));
    }
    // `--profile N`: run engine N's is_valid (with `--full`, its full error collection) over the
    // selected cases for a few seconds, for a profiler to sample. `--profile N,M` runs several
    // engines in turn, and `--full both` both is_valid and full error collection, so that one
    // profile holds them all (each under its own `Engine` method). `--rounds R` makes R passes
    // over the cases instead of timing, so that instruction counts repeat exactly.
    if let Some(engines) = args
        .iter()
        .position(|a| a == "--profile")
        .and_then(|i| args.get(i + 1))
    {
        let engines: Vec<usize> = engines
            .split(',')
            .map(|n| n.parse().expect("--profile takes engine indexes"))
            .collect();
        let flag = args.iter().position(|a| a == "--full");
        let both = flag
            .and_then(|i| args.get(i + 1))
            .is_some_and(|a| a == "both");
        let modes: &[bool] = match (flag, both) {
            (_, true) => &[false, true],
            (Some(_), false) => &[true],
            (None, _) => &[false],
        };
        let rounds: Option<u64> = args
            .iter()
            .position(|a| a == "--rounds")
            .and_then(|i| args.get(i + 1))
            .map(|r| r.parse().expect("--rounds takes a count"));
        for &n in &engines {
            for &full in modes {
                let calls = profile(&cases, n, full, rounds);
                // For turning a profile's counts into counts per call.
                eprintln!(
                    "engine {n} {}: {calls} calls",
                    if full { "full" } else { "is_valid" }
                );
            }
        }
        return;
    }

    // Agreement first: a case on which the validators disagree is reported and not timed.
    let disagreements = drop_disagreements(&mut cases);
    skipped.extend(missing_generated_engines(&cases));

    println!("# Benchmarks\n");
    println!(
        "Machine: {} cores; medians of {batches} batches. Peer versions: jsonschema 0.61 (interpreter), jsonschema {} (generated validators), boon 0.6.\n",
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        jsonschema_generated::VERSION
    );
    let is_valid = measure(&cases, false, min_batch, batches);
    // `--per-case`: every case's is_valid figures, for finding where a workload's mean comes from.
    if args.iter().any(|a| a == "--per-case") {
        print_cases(&cases, &is_valid);
        return;
    }
    let full = measure(&cases, true, min_batch, batches);
    print_table("is_valid", &cases, &is_valid);
    print_table("full error collection", &cases, &full);
    print_floors(&cases, &is_valid, &full);

    // Building a validator for every admitted tool, as a dynamic catalog would.
    let tools = admitted_tool_schemas();
    let ours = time(min_batch * 10, batches, || {
        for s in &tools {
            black_box(Validator::new(s).unwrap());
        }
    });
    let theirs = time(min_batch * 10, batches, || {
        for s in &tools {
            black_box(jsonschema::draft202012::new(s).unwrap());
        }
    });
    println!(
        "## Building validators for {} admitted tools (µs for all)\n",
        tools.len()
    );
    println!("| toolschema (interpreted) | jsonschema |\n|---|---|");
    println!(
        "| {:.0} | {:.0} ({:.2}×) |\n",
        ours / 1e3,
        theirs / 1e3,
        theirs / ours
    );

    // The heap each built validator holds, summed over the admitted tools.
    let ours: usize = tools
        .iter()
        .map(|s| heap::held_by(|| Validator::new(s).unwrap()))
        .sum();
    let theirs: usize = tools
        .iter()
        .map(|s| heap::held_by(|| jsonschema::draft202012::new(s).unwrap()))
        .sum();
    println!(
        "## Heap held by the built validators of {} admitted tools (KiB in all)\n",
        tools.len()
    );
    println!("| toolschema (interpreted) | jsonschema |\n|---|---|");
    println!(
        "| {:.0} | {:.0} ({:.2}×) |\n",
        ours as f64 / 1024.0,
        theirs as f64 / 1024.0,
        theirs as f64 / ours as f64
    );

    if !disagreements.is_empty() || !skipped.is_empty() {
        println!("## Not timed\n");
        for d in disagreements.iter().chain(&skipped) {
            println!("- {d}");
        }
    }
}

/// Runs engine `n`'s is_valid (or, when `full`, its full error collection) over `cases`:
/// `rounds` passes when given, otherwise for a few seconds. Returns the calls made.
fn profile(cases: &[Case], n: usize, full: bool, rounds: Option<u64>) -> u64 {
    // Without a case to run, the timed loop would spin for nothing.
    if cases.iter().all(|c| c.engines[n].is_none()) {
        return 0;
    }
    let start = Instant::now();
    let mut calls = 0u64;
    let mut round = 0u64;
    loop {
        let done = match rounds {
            Some(r) => round == r,
            None => start.elapsed() >= Duration::from_secs(4),
        };
        if done {
            return calls;
        }
        for c in cases {
            if let Some(e) = &c.engines[n] {
                calls += 1;
                if full {
                    black_box(e.errors(black_box(&c.instance)));
                } else {
                    black_box(e.is_valid(black_box(&c.instance)));
                }
            }
        }
        round += 1;
    }
}
