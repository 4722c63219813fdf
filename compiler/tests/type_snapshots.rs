//! The argument types generated for representative schemas, compared with checked-in
//! snapshots. `UPDATE_SNAPSHOTS=1 cargo test -p toolschema-compiler --test type_snapshots`
//! rewrites them; `tests/typed.rs` compiles them.

use quote::{format_ident, quote};
use std::path::Path;

/// Each schema of `tests/schemas/` with a type snapshot, and the name of its type.
pub const SCHEMAS: &[(&str, &str)] = &[
    ("flat_tool", "FlatToolArgs"),
    ("nested_defs", "NestedDefsArgs"),
    ("recursive_tree", "RecursiveTreeArgs"),
    ("unevaluated_all_of", "UnevaluatedAllOfArgs"),
    ("dynamic_ref", "DynamicRefArgs"),
    ("file_actions", "FileActionsArgs"),
    ("typed_arguments", "EventArgs"),
];

fn generate(name: &str, type_name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/schemas")
        .join(format!("{name}.json"));
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let ir = toolschema::frontend::build_tool(&schema, &toolschema::Options::new()).unwrap();
    let types = toolschema_compiler::types::argument_types(
        &quote! {},
        &quote! { pub },
        type_name,
        &format_ident!("Validator"),
        &ir,
        &schema,
    );
    toolschema_compiler::format_file(types.tokens)
}

#[test]
fn generated_types_match_snapshots() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/types");
    let update = std::env::var_os("UPDATE_SNAPSHOTS").is_some_and(|v| v == "1");
    let mut stale = Vec::new();
    for (name, type_name) in SCHEMAS {
        let code = generate(name, type_name);
        let snapshot = dir.join(format!("{name}.rs"));
        if update {
            toolschema_compiler::write_if_changed(&snapshot, &code).unwrap();
        } else if std::fs::read_to_string(&snapshot).ok().as_deref() != Some(code.as_str()) {
            stale.push(*name);
        }
    }
    assert!(
        stale.is_empty(),
        "generated types differ from the snapshots of {stale:?}; rerun with UPDATE_SNAPSHOTS=1 and review the diff"
    );
}

#[test]
fn generation_is_deterministic() {
    for (name, type_name) in SCHEMAS {
        assert_eq!(
            generate(name, type_name),
            generate(name, type_name),
            "{name}"
        );
    }
}
