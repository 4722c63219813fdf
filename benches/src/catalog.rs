//! The schemas compiled ahead of time for the benchmark, each under the key the benchmark looks
//! its generated validators up by. Both build scripts (toolschema's and the jsonschema crate's
//! generated validators) read this list, so both compile the same schemas.

use crate::convert;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// One schema to compile ahead of time.
pub struct Entry {
    /// `mcp/{file stem}/{index in the file}`, `corpus/{dataset}`, `stress/{shape}` or
    /// `flat/flat_tool`.
    pub key: String,
    /// The tool's name for an MCP tool, the key otherwise.
    pub name: String,
    pub schema: Value,
    /// The file it was read from, for `cargo:rerun-if-changed`.
    pub source: PathBuf,
}

/// The datasets of the jsonschema crate that both generated-code engines compile, by name and
/// schema file. FHIR (a 3.3 MB schema) is compiled by toolschema only ([`TOOLSCHEMA_ONLY`]):
/// the jsonschema crate's generated validator for it alone takes about four minutes to compile
/// on two cores.
pub const COMPILED_DATASETS: [(&str, &str); 5] = [
    ("CITM", "citm_catalog_schema.json"),
    ("Fast", "fast_schema.json"),
    ("GeoJSON", "geojson.json"),
    ("Kubernetes", "swagger.json"),
    ("Recursive", "recursive_schema.json"),
];

/// Datasets compiled by toolschema alone, into a file of their own.
pub const TOOLSCHEMA_ONLY: [(&str, &str); 1] = [("FHIR", "fhir.schema.json")];

/// The stress shapes of `benches/schemas/`, by file stem.
pub const STRESS_SHAPES: [&str; 6] = [
    "recursive_tree",
    "unevaluated_all_of",
    "dynamic_tree",
    "discriminated_one_of",
    "patterns",
    "nested_quantifier",
];

/// The flat tool schema of the compiler's tests, relative to `benches/`; read in place so the
/// hand-written floor is measured against the schema the compiler is tested on.
pub const FLAT_TOOL: &str = "../compiler/tests/schemas/flat_tool.json";

pub fn load(path: &Path) -> Value {
    serde_json::from_str(
        &std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())),
    )
    .unwrap()
}

/// `../shared`, next to the project root, from `benches/`.
pub fn shared(bench_dir: &Path) -> PathBuf {
    bench_dir.join("../../shared")
}

/// Every tool of `../shared/mcp-tools` that declares no older draft, in file order. Tools
/// declaring draft-07 are left out: toolschema accepts 2020-12 only.
pub fn mcp_tools(bench_dir: &Path) -> Vec<Entry> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(shared(bench_dir).join("mcp-tools"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    let mut tools = Vec::new();
    for file in files {
        let stem = file.file_stem().unwrap().to_string_lossy().to_string();
        for (index, tool) in load(&file).as_array().unwrap().iter().enumerate() {
            let schema = &tool["inputSchema"];
            if schema
                .get("$schema")
                .and_then(Value::as_str)
                .is_some_and(|s| s.contains("draft-07"))
            {
                continue;
            }
            tools.push(Entry {
                key: format!("mcp/{stem}/{index}"),
                name: tool["name"].as_str().unwrap_or("?").to_string(),
                schema: schema.clone(),
                source: file.clone(),
            });
        }
    }
    tools
}

/// `datasets` of the jsonschema crate, converted to 2020-12 exactly as the benchmark converts
/// them at run time.
pub fn datasets(bench_dir: &Path, datasets: &[(&str, &str)]) -> Vec<Entry> {
    let corpus = shared(bench_dir).join("bench-corpus/jsonschema-rs");
    datasets
        .iter()
        .map(|(name, file)| {
            let source = corpus.join(file);
            let key = format!("corpus/{name}");
            Entry {
                name: key.clone(),
                key,
                schema: convert::to_2020_12(&load(&source)),
                source,
            }
        })
        .collect()
}

/// The datasets both engines compile, the stress shapes and the flat tool schema.
pub fn fixed_schemas(bench_dir: &Path) -> Vec<Entry> {
    let shapes = STRESS_SHAPES.iter().map(|name| {
        let source = bench_dir.join(format!("schemas/{name}.json"));
        (format!("stress/{name}"), load(&source), source)
    });
    let flat_tool = bench_dir.join(FLAT_TOOL);
    let flat = ("flat/flat_tool".to_string(), load(&flat_tool), flat_tool);
    let others = shapes.chain([flat]).map(|(key, schema, source)| Entry {
        name: key.clone(),
        key,
        schema,
        source,
    });
    datasets(bench_dir, &COMPILED_DATASETS)
        .into_iter()
        .chain(others)
        .collect()
}
