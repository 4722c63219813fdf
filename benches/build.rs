//! Compiles, with `toolschema-compiler`, the schemas the benchmark measures: every admitted MCP
//! tool, the smaller datasets of the jsonschema crate (converted to 2020-12 exactly as the
//! benchmark converts them at run time), and the stress shapes.

#[path = "src/convert.rs"]
mod convert;

use serde_json::Value;
use std::fmt::Write;
use std::path::{Path, PathBuf};

fn load(path: &Path) -> Value {
    serde_json::from_str(
        &std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())),
    )
    .unwrap()
}

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let shared = manifest.join("../../shared");
    let options = toolschema::Options::new();
    let mut items = Vec::new();
    let mut arms = String::new();
    let mut add = |key: String, schema: &Value, arms: &mut String| {
        let name = format!("s{}", items.len());
        if let Ok(tokens) = toolschema_compiler::schema_tokens(&name, schema, &options) {
            items.push(tokens);
            let ty = format!("S{}", items.len() - 1);
            let _ = writeln!(arms, "        {key:?} => Some(&{ty}),");
        }
    };
    let tools = shared.join("mcp-tools");
    println!("cargo:rerun-if-changed={}", tools.display());
    let mut files: Vec<PathBuf> = std::fs::read_dir(&tools)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    for file in files {
        let stem = file.file_stem().unwrap().to_string_lossy().to_string();
        for (i, tool) in load(&file).as_array().unwrap().iter().enumerate() {
            add(format!("mcp/{stem}/{i}"), &tool["inputSchema"], &mut arms);
        }
    }
    let corpus = shared.join("bench-corpus/jsonschema-rs");
    for (name, file) in [
        ("CITM", "citm_catalog_schema.json"),
        ("Fast", "fast_schema.json"),
        ("GeoJSON", "geojson.json"),
        ("Recursive", "recursive_schema.json"),
    ] {
        add(
            format!("corpus/{name}"),
            &convert::to_2020_12(&load(&corpus.join(file))),
            &mut arms,
        );
    }
    for name in [
        "recursive_tree",
        "unevaluated_all_of",
        "dynamic_tree",
        "discriminated_one_of",
        "patterns",
        "nested_quantifier",
    ] {
        let path = manifest.join(format!("schemas/{name}.json"));
        println!("cargo:rerun-if-changed={}", path.display());
        add(format!("stress/{name}"), &load(&path), &mut arms);
    }
    let tokens = quote::quote! { #(#items)* };
    let mut code = toolschema_compiler::format_file(tokens);
    let _ = write!(
        code,
        "\n/// The compiled validator for a benchmark schema, by key.\npub fn compiled(key: &str) -> Option<&'static (dyn ::toolschema::Validate + Sync)> {{\n    match key {{\n{arms}        _ => None,\n    }}\n}}\n"
    );
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("toolschema_validators.rs");
    toolschema_compiler::write_if_changed(&out, &code).unwrap();
}
