//! The generated code for a few representative schemas, compared with checked-in snapshots.
//! `UPDATE_SNAPSHOTS=1 cargo test -p toolschema-compiler --test snapshots` rewrites them.

use std::path::Path;

const SCHEMAS: &[&str] = &[
    "flat_tool",
    "nested_defs",
    "recursive_tree",
    "unevaluated_all_of",
    "dynamic_ref",
    "file_actions",
    "member_names",
    "shapes",
    "expression",
];

#[test]
fn generated_code_matches_snapshots() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let update = std::env::var_os("UPDATE_SNAPSHOTS").is_some_and(|v| v == "1");
    let mut stale = Vec::new();
    for name in SCHEMAS {
        let code = toolschema_compiler::Builder::new()
            .schema(*name, root.join("schemas").join(format!("{name}.json")))
            .generate()
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let snapshot = root.join("snapshots").join(format!("{name}.rs"));
        if update {
            toolschema_compiler::write_if_changed(&snapshot, &code).unwrap();
        } else if std::fs::read_to_string(&snapshot).ok().as_deref() != Some(code.as_str()) {
            stale.push(*name);
        }
    }
    assert!(
        stale.is_empty(),
        "generated code differs from the snapshots of {stale:?}; rerun with UPDATE_SNAPSHOTS=1 and review the diff"
    );
}

/// A validator and its types naming the runtime through a re-export
/// (`Builder::runtime_path`); `compiled.rs` compiles it beside the re-export.
#[test]
fn generated_code_under_a_runtime_path_matches_its_snapshot() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let code = toolschema_compiler::Builder::new()
        .schema("flat_tool", root.join("schemas/flat_tool.json"))
        .types("flat_tool", "FlatToolArgs")
        .runtime_path("crate::facade::toolschema")
        .generate()
        .unwrap();
    assert!(
        !code
            .replace("crate::facade::toolschema", "")
            .contains("toolschema::")
    );
    let snapshot = root.join("snapshots/runtime_path.rs");
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some_and(|v| v == "1") {
        toolschema_compiler::write_if_changed(&snapshot, &code).unwrap();
    } else {
        assert_eq!(
            std::fs::read_to_string(&snapshot).ok().as_deref(),
            Some(code.as_str()),
            "rerun with UPDATE_SNAPSHOTS=1 and review the diff"
        );
    }
}

#[test]
fn generation_is_deterministic() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/schemas");
    let run = || {
        toolschema_compiler::Builder::new()
            .schema("nested_defs", root.join("nested_defs.json"))
            .schema("dynamic_ref", root.join("dynamic_ref.json"))
            .generate()
            .unwrap()
    };
    assert_eq!(run(), run());
}
