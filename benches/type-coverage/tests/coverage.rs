//! Our typed arguments beside typify's on the same schemas; prints the table of
//! `docs/types.md`. Run with
//! `cargo test --manifest-path benches/type-coverage/Cargo.toml -- --nocapture`.

use std::panic::{AssertUnwindSafe, catch_unwind};
use toolschema_type_coverage::{Entry, mcp_tools, ours, test_schemas};

/// What typify made of a set of schemas.
#[derive(Default, Debug)]
struct Typify {
    schemas: usize,
    accepted: usize,
    without_value: usize,
    values: usize,
    errors: std::collections::BTreeMap<String, usize>,
}

fn typify(entries: &[Entry]) -> Typify {
    let mut out = Typify::default();
    for entry in entries {
        out.schemas += 1;
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            let root: schemars::schema::RootSchema =
                serde_json::from_value(entry.schema.clone()).map_err(|e| format!("schema: {e}"))?;
            let mut space = typify::TypeSpace::new(
                typify::TypeSpaceSettings::default().with_struct_builder(false),
            );
            let first_line =
                |e: typify::Error| e.to_string().lines().next().unwrap_or("").to_string();
            // As `build.rs` does: the definitions, then the root under a name.
            space.add_ref_types(root.definitions).map_err(first_line)?;
            let schema = schemars::schema::Schema::Object(root.schema);
            space
                .add_type_with_name(&schema, Some("Args".into()))
                .map_err(first_line)?;
            Ok::<String, String>(space.to_stream().to_string())
        }));
        match outcome {
            Ok(Ok(code)) => {
                out.accepted += 1;
                let values = code.matches("serde_json :: Value").count();
                out.values += values;
                out.without_value += usize::from(values == 0);
            }
            Ok(Err(e)) => {
                *out.errors
                    .entry(format!("{}: {e}", entry.name))
                    .or_default() += 1
            }
            Err(_) => {
                *out.errors
                    .entry(format!("{}: panicked", entry.name))
                    .or_default() += 1
            }
        }
    }
    out
}

#[test]
fn coverage_table() {
    std::panic::set_hook(Box::new(|_| {}));
    for (label, entries) in [
        ("admitted MCP tools", mcp_tools()),
        ("compiler test schemas", test_schemas()),
    ] {
        let o = ours(&entries);
        let t = typify(&entries);
        println!("\n### {label}: {} schemas\n", entries.len());
        println!("| | toolschema | typify |\n|---|---|---|");
        println!("| schemas typed | {} | {} |", o.schemas, t.accepted);
        println!("| complete (no fallback) | {} | n/a |", o.complete);
        println!(
            "| no `serde_json::Value` anywhere | {} | {} |",
            o.without_value, t.without_value
        );
        println!(
            "| `serde_json::Value` where any value is allowed | {} | {} (all uses) |",
            o.open_values, t.values
        );
        println!(
            "| numbers as `serde_json::Number` | {} | 0 |",
            o.wide_numbers
        );
        println!("| generated items | {} | |", o.items);
        println!(
            "\nfallbacks: {:?}\ntypify errors: {:?}",
            o.fallbacks, t.errors
        );
        assert_eq!(o.schemas, entries.len());
    }
}
