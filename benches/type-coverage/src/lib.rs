//! The schemas whose typed arguments are measured, and what our mapping makes of each: the
//! 172 tools of `../shared/mcp-tools` the front end admits, and the compiler's test schemas.
//! `tests/coverage.rs` prints the table of `docs/types.md`, typify's results beside ours.

use quote::{format_ident, quote};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use toolschema::Options;

/// A schema to measure.
pub struct Entry {
    /// Where it comes from: `file.json#index` or the test schema's name.
    pub name: String,
    /// The schema.
    pub schema: Value,
    /// Whether it is a compiler test schema (built under the tool rules, as the type
    /// snapshots are) rather than an MCP tool (built as `tests/` builds them).
    pub tool_rules: bool,
}

fn read(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "json"));
    files.sort();
    files
}

/// Every MCP tool the front end admits, in file order.
pub fn mcp_tools() -> Vec<Entry> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/mcp-tools");
    let mut out = Vec::new();
    for file in json_files(&dir) {
        let stem = file.file_name().unwrap().to_string_lossy().to_string();
        for (i, tool) in read(&file).as_array().into_iter().flatten().enumerate() {
            let schema = tool["inputSchema"].clone();
            if toolschema::frontend::build(&schema, &Options::new()).is_ok() {
                out.push(Entry {
                    name: format!("{stem}#{i}"),
                    schema,
                    tool_rules: false,
                });
            }
        }
    }
    out
}

/// The compiler's test schemas.
pub fn test_schemas() -> Vec<Entry> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../compiler/tests/schemas");
    json_files(&dir)
        .into_iter()
        .map(|p| Entry {
            name: p.file_stem().unwrap().to_string_lossy().to_string(),
            schema: read(&p),
            tool_rules: true,
        })
        .collect()
}

/// What our mapping made of a set of schemas.
#[derive(Default, Debug)]
pub struct Ours {
    /// Schemas typed.
    pub schemas: usize,
    /// Schemas typed without any fallback.
    pub complete: usize,
    /// Schemas whose types hold no `serde_json::Value` at all (not even where any value is
    /// allowed).
    pub without_value: usize,
    /// Fallbacks by reason.
    pub fallbacks: BTreeMap<&'static str, usize>,
    /// Places typed `serde_json::Value` because any value is allowed there.
    pub open_values: usize,
    /// Numbers typed `serde_json::Number` because no Rust number type holds every value
    /// their bounds allow.
    pub wide_numbers: usize,
    /// Generated items.
    pub items: usize,
}

/// Our typed arguments for `entries`.
pub fn ours(entries: &[Entry]) -> Ours {
    let mut out = Ours::default();
    for entry in entries {
        let options = Options::new();
        let ir = if entry.tool_rules {
            toolschema::frontend::build_tool(&entry.schema, &options)
        } else {
            toolschema::frontend::build(&entry.schema, &options)
        }
        .expect("admitted");
        let types = toolschema_compiler::types::argument_types(
            &quote! {},
            &quote! { pub },
            "Args",
            &format_ident!("Validator"),
            &ir,
            &entry.schema,
        );
        let code = types.tokens.to_string();
        out.schemas += 1;
        out.complete += usize::from(types.fallbacks.is_empty());
        out.without_value += usize::from(!code.contains("serde_json :: Value"));
        for f in &types.fallbacks {
            *out.fallbacks.entry(f.reason).or_default() += 1;
        }
        out.open_values += types.open_values;
        out.wide_numbers += code.matches("serde_json :: Number").count();
        out.items += types.names.len();
    }
    out
}
