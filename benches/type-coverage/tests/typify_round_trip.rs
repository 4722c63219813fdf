//! typify's types on the arguments `tests/` generates for the admitted MCP tools: which
//! valid argument sets they fail to deserialize, and which they change on the way back.
//! Printed beside ours in `docs/types.md`.

#![allow(clippy::all, dead_code, unused_imports, irrefutable_let_patterns)]

use serde_json::Value;

type RoundTrip = fn(&Value) -> Result<Value, String>;

mod generated {
    use super::RoundTrip;
    include!(concat!(env!("OUT_DIR"), "/typify_mcp.rs"));
}

#[path = "../../../tests/src/arguments.rs"]
mod arguments;

#[test]
fn typify_round_trips() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/mcp-tools");
    let (mut valid, mut failed, mut changed, mut tools_failing) = (0, 0, 0, 0);
    for &(file, i, round_trip) in generated::TYPIFY {
        let tools: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join(file)).unwrap()).unwrap();
        let schema = &tools[i]["inputSchema"];
        let validator = toolschema::Validator::new(schema).unwrap();
        let mut bad = false;
        for set in arguments::argument_sets(schema) {
            if !toolschema::Validate::is_valid(&validator, &set) {
                continue;
            }
            valid += 1;
            match round_trip(&set) {
                Ok(back) if toolschema::json::equal(&back, &set) => {}
                Ok(back) => {
                    if changed < 3 {
                        println!("{file} #{i}: {set}\n  comes back as {back}");
                    }
                    changed += 1;
                    bad = true;
                }
                Err(e) => {
                    if failed < 3 {
                        println!("{file} #{i}: {set}\n  fails: {e}");
                    }
                    failed += 1;
                    bad = true;
                }
            }
        }
        tools_failing += usize::from(bad);
    }
    println!(
        "typify: {} tools typed; {valid} valid argument sets: {failed} fail to deserialize, \
         {changed} come back different; {tools_failing} tools with one or more",
        generated::TYPIFY.len()
    );
}
