//! Admits every real MCP tool catalog of the shared corpus in quarantine mode: each draft-07
//! tool must be set aside as `UnsupportedCapability`, and every other tool admitted.

use serde_json::Value;
use std::path::{Path, PathBuf};
use toolschema::ErrorClass;
use toolschema::catalog::{AdmissionMode, AdmitOptions, Authority, ToolDescriptor, admit_batch};

const DRAFT_07: &str = "http://json-schema.org/draft-07/schema#";

fn corpus_dir() -> PathBuf {
    // The corpus sits next to the repository, as `../shared/mcp-tools` from its root; the
    // runtime crate is one level below the root.
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/mcp-tools")
}

#[test]
fn every_corpus_catalog_is_admitted_in_quarantine_mode() {
    let dir = corpus_dir();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read the corpus at {}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no catalogs in {}", dir.display());

    let options = AdmitOptions::new().mode(AdmissionMode::Quarantine);
    let (mut total, mut accepted, mut rejected) = (0, 0, 0);
    for file in &files {
        let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(file).unwrap();
        let entries: Vec<Value> = serde_json::from_str(&text).unwrap();
        let mut expected_rejected = Vec::new();
        let mut expected_accepted = Vec::new();
        let mut tools = Vec::new();
        for entry in &entries {
            let name = entry["name"].as_str().unwrap().to_string();
            let schema = entry["inputSchema"].clone();
            if schema.get("$schema").and_then(Value::as_str) == Some(DRAFT_07) {
                expected_rejected.push(name.clone());
            } else {
                expected_accepted.push(name.clone());
            }
            let mut tool = ToolDescriptor::new(name, "corpus", schema).backend(stem.as_str());
            if let Some(description) = entry["description"].as_str() {
                tool = tool.description(description);
            }
            tools.push(tool);
        }
        let authority = expected_accepted
            .iter()
            .chain(&expected_rejected)
            .fold(Authority::new("corpus", &stem), |a, name| a.grant(name));

        let bundle =
            admit_batch(tools, authority, &options).unwrap_or_else(|e| panic!("{stem}: {e}"));
        assert_eq!(bundle.accepted(), expected_accepted, "{stem}");
        let rejected_names: Vec<_> = bundle.rejected().iter().map(|d| d.name()).collect();
        assert_eq!(rejected_names, expected_rejected, "{stem}");
        for diagnostic in bundle.rejected() {
            let error = diagnostic.problem().schema_error().unwrap();
            assert_eq!(error.class(), ErrorClass::UnsupportedCapability, "{stem}");
        }
        assert_eq!(bundle.authority().grants(), expected_accepted, "{stem}");
        for (shown, entry) in bundle.provider_tools().iter().zip(
            entries
                .iter()
                .filter(|e| expected_accepted.iter().any(|n| n == &e["name"])),
        ) {
            assert_eq!(shown.input_schema(), &entry["inputSchema"], "{stem}");
        }
        println!(
            "{stem}: {} tools, {} accepted, {} rejected",
            entries.len(),
            bundle.accepted().len(),
            bundle.rejected().len()
        );
        total += entries.len();
        accepted += bundle.accepted().len();
        rejected += bundle.rejected().len();
    }
    println!(
        "corpus: {} files, {total} tools, {accepted} accepted, {rejected} rejected",
        files.len()
    );
    assert_eq!(accepted + rejected, total);
}
