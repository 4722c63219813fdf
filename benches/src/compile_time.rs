//! `--compile-time`: how long the generated validators for the MCP corpus take to compile. For
//! each engine that generates code, a crate holding only its generated file (as the build
//! scripts wrote it) is written to a temporary directory and built with `cargo build
//! --release` under Cargo's default release profile, as a user's crate would be. The
//! dependencies are built first, with an empty crate, so the figure is the generated code's.

use crate::catalog;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

struct GeneratedCrate {
    engine: &'static str,
    /// The directory name and package name of the crate.
    name: &'static str,
    file: &'static str,
    /// The `[dependencies]` lines.
    dependencies: String,
    /// How many MCP tools the file holds validators for.
    validators: usize,
}

fn cargo(crate_dir: &Path) -> Duration {
    let start = Instant::now();
    let status = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
        .args(["build", "--release", "--quiet", "--manifest-path"])
        .arg(crate_dir.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", crate_dir.join("target"))
        .status()
        .expect("cargo runs");
    assert!(status.success(), "{} did not build", crate_dir.display());
    start.elapsed()
}

/// Writes the crate (keeping its target directory, so dependencies are built once across runs)
/// and returns the time to build it once its dependencies are built.
fn build(dir: &Path, generated: &GeneratedCrate, bench_dir: &Path) -> Duration {
    let crate_dir = dir.join(generated.name);
    std::fs::create_dir_all(crate_dir.join("src")).unwrap();
    let manifest = format!(
        "[package]\nname = \"{}\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n[workspace]\n\n[dependencies]\n{}",
        generated.name, generated.dependencies
    );
    std::fs::write(crate_dir.join("Cargo.toml"), manifest).unwrap();
    // The benchmark's lock file, so the dependencies are the versions it measures.
    std::fs::copy(bench_dir.join("Cargo.lock"), crate_dir.join("Cargo.lock")).unwrap();
    // An empty crate first, to build the dependencies.
    std::fs::write(crate_dir.join("src/lib.rs"), "").unwrap();
    cargo(&crate_dir);
    std::fs::copy(generated.file, crate_dir.join("src/lib.rs")).unwrap();
    cargo(&crate_dir)
}

/// Prints the compile times; `toolschema_file` is the generated code for the MCP tools, and
/// `compiled_mcp` tells whether it holds a validator for a key.
pub fn run(toolschema_file: &'static str, compiled_mcp: impl Fn(&str) -> bool) {
    let bench_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let runtime = bench_dir
        .join("../runtime")
        .canonicalize()
        .expect("the toolschema runtime crate");
    let tools = catalog::mcp_tools(bench_dir);
    let serde_json = r#"serde_json = { version = "1.0.140", features = ["float_roundtrip"] }"#;
    let crates = [
        GeneratedCrate {
            engine: "toolschema",
            name: "toolschema-mcp",
            file: toolschema_file,
            dependencies: format!(
                "toolschema = {{ path = {:?} }}\n{serde_json}\n",
                runtime.display().to_string()
            ),
            validators: tools.iter().filter(|t| compiled_mcp(&t.key)).count(),
        },
        GeneratedCrate {
            engine: "jsonschema (generated)",
            name: "jsonschema-mcp",
            file: jsonschema_generated::MCP_FILE,
            dependencies: format!(
                "jsonschema = {{ version = \"={}\", default-features = false, features = [\"macros\"] }}\n{serde_json}\n",
                jsonschema_generated::VERSION
            ),
            validators: tools
                .iter()
                .filter(|t| jsonschema_generated::generated(&t.key).is_some())
                .count(),
        },
    ];
    let dir = std::env::temp_dir().join("toolschema-bench-compile-time");
    println!(
        "## Compiling the generated validators for the MCP corpus ({} admitted tools)\n",
        tools.len()
    );
    println!(
        "`cargo build --release` (Cargo's default release profile) of a crate holding only the generated file, its dependencies already built. The jsonschema crate's file holds `#[jsonschema::validator]` attributes, which its macro expands while compiling; toolschema's holds the generated code itself.\n"
    );
    println!("| engine | validators | file (KiB) | compile time (s) |\n|---|---|---|---|");
    for generated in &crates {
        let size = std::fs::metadata(generated.file).unwrap().len();
        let elapsed = build(&dir, generated, bench_dir);
        println!(
            "| {} | {} | {} | {:.1} |",
            generated.engine,
            generated.validators,
            size / 1024,
            elapsed.as_secs_f64()
        );
    }
    println!();
}
