//! Admits an MCP tool catalog in quarantine mode and prints which tools were accepted and
//! which were rejected, with the reasons.
//!
//! ```text
//! cargo run -p example-admit-catalog [-- path/to/catalog.json]
//! ```
//!
//! The catalog is a JSON array of `{"name", "description", "inputSchema"}` (an entry may add a
//! `"revision"`), as an MCP server lists its tools. Without an argument the catalog next to this
//! file is used: good tools and draft-07 tools, admitted without the latter. `refused.json`
//! beside it has invalid ones.
//!
//! Quarantine mode sets aside only the tools whose schema is `UnsupportedCapability`; any other
//! problem refuses the whole batch. So that one run shows every problem, a refused batch is
//! admitted again without the offending tool until it passes; the exit status is then 1,
//! because a host would not have loaded the catalog as given.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use toolschema::catalog::{
    AdmissionError, AdmissionMode, AdmitOptions, Authority, ToolDescriptor, admit_batch,
};

fn main() -> ExitCode {
    let path = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("catalog.json"));
    let tools = match load(&path) {
        Ok(tools) => tools,
        Err(message) => {
            eprintln!("{}: {message}", path.display());
            return ExitCode::from(2);
        }
    };
    println!("{}: {} tools", path.display(), tools.len());

    let options = AdmitOptions::new().mode(AdmissionMode::Quarantine);
    let mut remaining = tools;
    let mut fatal = Vec::new();
    let bundle = loop {
        // Granting every tool shows the narrowing: grants of rejected tools disappear.
        let authority = remaining
            .iter()
            .fold(Authority::new("example", "admit-catalog"), |a, t| {
                a.grant(t.name())
            });
        match admit_batch(remaining.clone(), authority, &options) {
            Ok(bundle) => break bundle,
            Err(AdmissionError::Tool(diagnostic)) => {
                remaining.remove(diagnostic.index());
                fatal.push(diagnostic);
            }
            // Every grant names a tool of the batch, and tool names are checked before grants,
            // so only an authority built differently (or a future kind of error) gets here.
            Err(error) => {
                eprintln!("{error}");
                return ExitCode::from(2);
            }
        }
    };

    println!("\naccepted ({}):", bundle.accepted().len());
    for name in bundle.accepted() {
        println!("  {name}");
    }
    println!("\nquarantined ({}):", bundle.rejected().len());
    for diagnostic in bundle.rejected() {
        println!(
            "  {} (revision {}): {}",
            diagnostic.name(),
            diagnostic.revision(),
            diagnostic.problem()
        );
    }
    if fatal.is_empty() {
        println!("\nthe catalog is admitted");
        println!(
            "grants after narrowing: {}",
            bundle.authority().grants().join(", ")
        );
        return ExitCode::SUCCESS;
    }
    println!(
        "\nfatal, refusing the batch even in quarantine mode ({}):",
        fatal.len()
    );
    for diagnostic in &fatal {
        println!(
            "  {:?} (revision {}): {}",
            diagnostic.name(),
            diagnostic.revision(),
            diagnostic.problem()
        );
    }
    println!("\nthe catalog as given is refused");
    ExitCode::FAILURE
}

fn load(path: &Path) -> Result<Vec<ToolDescriptor>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let entries: Vec<Value> =
        serde_json::from_str(&text).map_err(|e| format!("not a JSON array of tools: {e}"))?;
    let backend = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "catalog".into());
    entries
        .into_iter()
        .enumerate()
        .map(|(i, entry)| {
            let name = entry["name"]
                .as_str()
                .ok_or_else(|| format!("tool #{i} has no name"))?;
            let revision = entry["revision"].as_str().unwrap_or("1");
            let schema = entry
                .get("inputSchema")
                .cloned()
                .ok_or_else(|| format!("tool {name:?} has no inputSchema"))?;
            let mut tool = ToolDescriptor::new(name, revision, schema).backend(backend.as_str());
            if let Some(description) = entry["description"].as_str() {
                tool = tool.description(description);
            }
            Ok(tool)
        })
        .collect()
}
