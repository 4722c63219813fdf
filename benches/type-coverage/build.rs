//! typify's types for every admitted MCP tool, each in a module of its own, with a table of
//! round trips (`tests/typify_round_trip.rs` runs them). A tool typify rejects or panics on
//! gets no module.

use std::fmt::Write;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let dir = manifest.join("../../../shared/mcp-tools");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|d| d.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "json"));
    files.sort();
    let mut code = String::new();
    let mut table = String::from("pub static TYPIFY: &[(&str, usize, RoundTrip)] = &[\n");
    std::panic::set_hook(Box::new(|_| {}));
    for (n, file) in files.iter().enumerate() {
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        let tools: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
        for (i, tool) in tools.as_array().into_iter().flatten().enumerate() {
            let schema = &tool["inputSchema"];
            if toolschema::frontend::build(schema, &toolschema::Options::new()).is_err() {
                continue;
            }
            let Some((module, root)) = typify(schema) else {
                continue;
            };
            let _ = writeln!(code, "pub mod t{n}_{i} {{\n{module}\n}}");
            // A root typify does not name (an open object) is a type of its own.
            let root = if root.chars().all(|c| c.is_alphanumeric() || c == '_') {
                format!("t{n}_{i}::{root}")
            } else {
                root
            };
            let _ = writeln!(
                table,
                "    ({name:?}, {i}, |v| serde_json::from_value::<{root}>(v.clone()).map_err(|e| e.to_string()).and_then(|t| serde_json::to_value(&t).map_err(|e| e.to_string()))),"
            );
        }
    }
    table.push_str("];\n");
    let out = Path::new(&std::env::var("OUT_DIR").unwrap()).join("typify_mcp.rs");
    std::fs::write(out, code + &table).unwrap();
    println!("cargo:rerun-if-changed={}", dir.display());
}

/// typify's code for `schema` and its root type's name.
fn typify(schema: &serde_json::Value) -> Option<(String, String)> {
    catch_unwind(AssertUnwindSafe(|| {
        let root: schemars::schema::RootSchema = serde_json::from_value(schema.clone()).ok()?;
        let mut space =
            typify::TypeSpace::new(typify::TypeSpaceSettings::default().with_struct_builder(false));
        // The root, named, after its definitions (`add_root_schema` names only a root
        // with a title).
        space.add_ref_types(root.definitions).ok()?;
        let schema = schemars::schema::Schema::Object(root.schema);
        let id = space
            .add_type_with_name(&schema, Some("Args".into()))
            .ok()?;
        let name = space.get_type(&id).ok()?.name();
        let file: syn::File = syn::parse2(space.to_stream()).ok()?;
        Some((prettyplease::unparse(&file), name))
    }))
    .ok()
    .flatten()
}
