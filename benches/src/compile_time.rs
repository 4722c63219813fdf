//! `--compile-time`: how long the generated validators for the MCP corpus take to compile. For
//! each engine that generates code, a crate holding only its generated file (as the build
//! scripts wrote it) is written to a temporary directory and built with `cargo build
//! --release` under Cargo's default release profile, as a user's crate would be. The
//! dependencies are built first, with an empty crate, so the figure is the generated code's.
//!
//! Then the size a binary grows by: two release binaries of the same crate, one that parses
//! arguments and looks a validator up by key and runs it (so every validator is linked in),
//! one that only parses them; the difference of their `.text` sections is what the
//! validators add, the runtime code they call included.

use crate::catalog;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

struct GeneratedCrate {
    engine: &'static str,
    /// The body of a `main` that runs the validator for the key in the first argument on the
    /// JSON in the second, `instance`.
    run: &'static str,
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

/// What `build` measures.
struct Measured {
    compile_time: Duration,
    /// How much `.text` the validators add to a release binary; none where the binaries are
    /// not ELF files.
    text_growth: Option<u64>,
}

/// Writes the crate (keeping its target directory, so dependencies are built once across runs)
/// and measures it once its dependencies are built.
fn build(dir: &Path, generated: &GeneratedCrate, bench_dir: &Path) -> Measured {
    let crate_dir = dir.join(generated.name);
    std::fs::create_dir_all(crate_dir.join("src")).unwrap();
    let manifest = format!(
        "[package]\nname = \"{}\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n[workspace]\n\n[dependencies]\n{}",
        generated.name, generated.dependencies
    );
    std::fs::write(crate_dir.join("Cargo.toml"), manifest).unwrap();
    // The benchmark's lock file, so the dependencies are the versions it measures.
    std::fs::copy(bench_dir.join("Cargo.lock"), crate_dir.join("Cargo.lock")).unwrap();
    // Binaries left by an interrupted run would be timed with the library.
    let _ = std::fs::remove_file(crate_dir.join("src/main.rs"));
    let _ = std::fs::remove_dir_all(crate_dir.join("src/bin"));
    // An empty crate first, to build the dependencies.
    std::fs::write(crate_dir.join("src/lib.rs"), "").unwrap();
    cargo(&crate_dir);
    std::fs::copy(generated.file, crate_dir.join("src/lib.rs")).unwrap();
    let compile_time = cargo(&crate_dir);
    let library = generated.name.replace('-', "_");
    let parse = "let args: Vec<String> = std::env::args().collect();\n    let key = args.get(1).cloned().unwrap_or_default();\n    let instance: serde_json::Value = serde_json::from_str(args.get(2).map_or(\"null\", |a| a.as_str())).unwrap_or_default();";
    let main = format!(
        "use {library} as generated;\n\nfn main() {{\n    {parse}\n    {}\n}}\n",
        generated.run
    );
    let baseline = format!(
        "fn main() {{\n    {parse}\n    println!(\"{{key}} {{}}\", instance.is_null());\n}}\n"
    );
    std::fs::write(crate_dir.join("src/main.rs"), main).unwrap();
    std::fs::create_dir_all(crate_dir.join("src/bin")).unwrap();
    std::fs::write(crate_dir.join("src/bin/baseline.rs"), baseline).unwrap();
    cargo(&crate_dir);
    let release = crate_dir.join("target/release");
    let text_growth = text_size(&release.join(generated.name))
        .zip(text_size(&release.join("baseline")))
        .map(|(with, without)| with.saturating_sub(without));
    std::fs::remove_file(crate_dir.join("src/main.rs")).unwrap();
    std::fs::remove_dir_all(crate_dir.join("src/bin")).unwrap();
    Measured {
        compile_time,
        text_growth,
    }
}

/// The size of the `.text` section of the ELF file at `path`, read from its section headers.
fn text_size(path: &Path) -> Option<u64> {
    let bytes = std::fs::read(path).ok()?;
    // A 64-bit little-endian ELF file.
    if bytes.get(..6)? != b"\x7fELF\x02\x01" {
        return None;
    }
    let u16_at = |at: usize| Some(u16::from_le_bytes(bytes.get(at..at + 2)?.try_into().ok()?));
    let u32_at = |at: usize| Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?));
    let u64_at = |at: usize| Some(u64::from_le_bytes(bytes.get(at..at + 8)?.try_into().ok()?));
    let table = usize::try_from(u64_at(0x28)?).ok()?;
    let entry = usize::from(u16_at(0x3a)?);
    let count = usize::from(u16_at(0x3c)?);
    let names = table + entry * usize::from(u16_at(0x3e)?);
    let names_offset = usize::try_from(u64_at(names + 0x18)?).ok()?;
    (0..count).find_map(|i| {
        let header = table + entry * i;
        let name = names_offset + usize::try_from(u32_at(header)?).ok()?;
        (bytes.get(name..name + 6)? == b".text\0").then(|| u64_at(header + 0x20))?
    })
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
            run: "if let Some(v) = generated::compiled(&key) {\n        println!(\"{} {}\", v.is_valid(&instance), v.validate(&instance).is_ok());\n    }",
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
            run: "if let Some((is_valid, errors)) = generated::generated(&key) {\n        println!(\"{} {}\", is_valid(&instance), errors(&instance));\n    }",
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
        "`cargo build --release` (Cargo's default release profile) of a crate holding only the generated file, its dependencies already built. The jsonschema crate's file holds `#[jsonschema::validator]` attributes, which its macro expands while compiling; toolschema's holds the generated code itself. Binary growth: `.text` of a release binary that runs any of the validators, less that of one that only parses its arguments.\n"
    );
    println!(
        "| engine | validators | file (KiB) | compile time (s) | binary `.text` growth (KiB) |\n|---|---|---|---|---|"
    );
    for generated in &crates {
        let size = std::fs::metadata(generated.file).unwrap().len();
        let measured = build(&dir, generated, bench_dir);
        let growth = measured
            .text_growth
            .map_or_else(|| "—".to_string(), |bytes| (bytes / 1024).to_string());
        println!(
            "| {} | {} | {} | {:.1} | {growth} |",
            generated.engine,
            generated.validators,
            size / 1024,
            measured.compile_time.as_secs_f64()
        );
    }
    println!();
}
