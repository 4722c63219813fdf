//! Compiles, with `toolschema-compiler`, the schemas of `src/catalog.rs`: the MCP tools into
//! `toolschema_mcp.rs` (a file of their own, so that the time to compile the generated code for
//! the MCP corpus can be measured alone), what the jsonschema crate's generated validators
//! also compile into `toolschema_fixed.rs`, and the datasets only toolschema compiles into
//! `toolschema_only.rs`.

#[path = "src/convert.rs"]
mod convert;
// Shared with the benchmark itself, which uses other parts of it.
#[allow(dead_code)]
#[path = "src/catalog.rs"]
mod catalog;

use std::collections::BTreeSet;
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// The validators of `entries` that toolschema accepts, and `compiled(key)` to look them up.
fn generate(entries: &[catalog::Entry]) -> String {
    let options = toolschema::Options::new();
    let mut items = Vec::new();
    let mut arms = String::new();
    for entry in entries {
        let name = format!("s{}", items.len());
        // A schema toolschema rejects has no compiled column; the benchmark lists it.
        let generated = toolschema_compiler::Builder::new()
            .options(options.clone())
            .schema_value(name, entry.schema.clone())
            .tokens();
        if let Ok(tokens) = generated {
            let ty = format!("S{}", items.len());
            items.push(tokens);
            let _ = writeln!(arms, "        {:?} => Some(&{ty}),", entry.key);
        }
    }
    let mut code = toolschema_compiler::format_file(quote::quote! { #(#items)* });
    let _ = write!(
        code,
        "\n/// The compiled validator for a benchmark schema, by key.\npub fn compiled(key: &str) -> Option<&'static (dyn ::toolschema::Validate + Sync)> {{\n    match key {{\n{arms}        _ => None,\n    }}\n}}\n"
    );
    code
}

fn write(out_dir: &Path, file: &str, entries: &[catalog::Entry]) {
    let sources: BTreeSet<&Path> = entries.iter().map(|e| e.source.as_path()).collect();
    for source in sources {
        println!("cargo:rerun-if-changed={}", source.display());
    }
    toolschema_compiler::write_if_changed(&out_dir.join(file), &generate(entries)).unwrap();
}

fn main() {
    let bench_dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    // The directory too, so that a tool file added to it is compiled.
    println!(
        "cargo:rerun-if-changed={}",
        catalog::shared(&bench_dir).join("mcp-tools").display()
    );
    write(
        &out_dir,
        "toolschema_mcp.rs",
        &catalog::mcp_tools(&bench_dir),
    );
    write(
        &out_dir,
        "toolschema_fixed.rs",
        &catalog::fixed_schemas(&bench_dir),
    );
    write(
        &out_dir,
        "toolschema_only.rs",
        &catalog::datasets(&bench_dir, &catalog::TOOLSCHEMA_ONLY),
    );
}
