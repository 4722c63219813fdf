//! Compiles the fixed schema set (see `src/lib.rs`) with `toolschema-compiler`: every schema
//! of the suite's draft 2020-12 files that builds without remote documents, every admitted MCP
//! tool, and the stress shapes of `benches/schemas`. A schema whose code format assertion
//! changes (a `format` keyword it reaches, in it or in a document it refers to) is compiled a
//! second time with format assertion on.

use serde_json::Value;
use std::fmt::Write;
use std::path::{Path, PathBuf};
use toolschema::Options;

/// Suite files left out: they need documents from other servers or custom meta-schemas.
const SKIPPED_SUITE_FILES: &[&str] = &["refRemote.json", "vocabulary.json"];

struct Source {
    name: String,
    schema: Value,
    tool: bool,
}

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    let shared = manifest.join("../../../shared");
    println!("cargo:rerun-if-env-changed=JSON_SCHEMA_TEST_SUITE");
    let suite = std::env::var_os("JSON_SCHEMA_TEST_SUITE")
        .map(PathBuf::from)
        .unwrap_or_else(|| shared.join("json-schema-test-suite"));
    let mut sources = Vec::new();
    for file in json_files(&suite.join("tests/draft2020-12")) {
        let file_name = file.file_name().unwrap().to_string_lossy().to_string();
        if SKIPPED_SUITE_FILES.contains(&file_name.as_str()) {
            continue;
        }
        for (g, group) in read(&file).as_array().into_iter().flatten().enumerate() {
            sources.push(Source {
                name: format!("suite/{file_name}#{g}"),
                schema: group["schema"].clone(),
                tool: false,
            });
        }
    }
    for file in json_files(&shared.join("mcp-tools")) {
        let file_name = file.file_name().unwrap().to_string_lossy().to_string();
        for (i, tool) in read(&file).as_array().into_iter().flatten().enumerate() {
            let tool_name = tool["name"].as_str().unwrap_or("");
            sources.push(Source {
                name: format!("mcp/{file_name}#{i} {tool_name}"),
                schema: tool["inputSchema"].clone(),
                tool: true,
            });
        }
    }
    for file in json_files(&manifest.join("../../benches/schemas")) {
        let file_name = file.file_name().unwrap().to_string_lossy().to_string();
        sources.push(Source {
            name: format!("stress/{file_name}"),
            schema: read(&file),
            tool: false,
        });
    }
    let mut items = Vec::new();
    let mut table = String::from("&[\n");
    for source in &sources {
        let i = items.len();
        let compile = |name: &str, options: &Options| {
            toolschema_compiler::Builder::new()
                .options(options.clone())
                .tool_schemas(source.tool)
                .schema_value(name, source.schema.clone())
                .tokens()
        };
        let Ok(tokens) = compile(&format!("s{i}"), &Options::new()) else {
            continue;
        };
        // Format assertion changes the code only where a `format` keyword is reached, which
        // may be in a document the schema refers to (the meta-schema, for one); the same code
        // under the same name is the same validator.
        let with_formats = Options::new().format_assertion(true);
        let same = compile(&format!("s{i}"), &with_formats)
            .is_ok_and(|formats| formats.to_string() == tokens.to_string());
        items.push(tokens);
        let formats = if same {
            format!("&S{i}")
        } else {
            let tokens =
                compile(&format!("f{i}"), &with_formats).expect("it built without formats");
            items.push(tokens);
            format!("&F{i}")
        };
        let text = serde_json::to_string(&source.schema).unwrap();
        let _ = writeln!(
            table,
            "    Entry {{ name: {:?}, schema: {text:?}, tool: {}, compiled: &S{i}, compiled_formats: {formats} }},",
            source.name, source.tool
        );
    }
    table.push_str("]\n");
    let code = toolschema_compiler::format_file(quote::quote! { #(#items)* });
    toolschema_compiler::write_if_changed(&out_dir.join("set_compiled.rs"), &code).unwrap();
    toolschema_compiler::write_if_changed(&out_dir.join("set_table.rs"), &table).unwrap();
}

fn json_files(dir: &Path) -> Vec<PathBuf> {
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "json"));
    files.sort();
    files
}

fn read(file: &Path) -> Value {
    println!("cargo:rerun-if-changed={}", file.display());
    serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap()
}
