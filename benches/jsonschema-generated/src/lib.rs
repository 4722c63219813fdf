//! The jsonschema crate's compile-time generated validators (its `validator` attribute macro)
//! for the benchmark's schemas, written by the build script and looked up by the benchmark's
//! keys.

use serde_json::Value;

mod mcp {
    include!(concat!(env!("OUT_DIR"), "/jsonschema_mcp.rs"));
}
mod fixed {
    include!(concat!(env!("OUT_DIR"), "/jsonschema_fixed.rs"));
}

/// The generated code for the MCP tools, a file that compiles on its own in a crate depending
/// on `jsonschema` (with `macros`) and `serde_json`.
pub const MCP_FILE: &str = concat!(env!("OUT_DIR"), "/jsonschema_mcp.rs");

/// The version of jsonschema the validators are generated with.
pub const VERSION: &str = "0.60.2";

/// One generated validator.
pub struct Generated {
    is_valid: fn(&Value) -> bool,
    error_count: fn(&Value) -> usize,
}

impl Generated {
    pub fn is_valid(&self, instance: &Value) -> bool {
        (self.is_valid)(instance)
    }

    /// How many errors `iter_errors` yields.
    pub fn error_count(&self, instance: &Value) -> usize {
        (self.error_count)(instance)
    }
}

/// The generated validator for a benchmark schema, by key; none when the macro rejected the
/// schema or the schema is not compiled ahead of time.
pub fn generated(key: &str) -> Option<Generated> {
    mcp::generated(key)
        .or_else(|| fixed::generated(key))
        .map(|(is_valid, error_count)| Generated {
            is_valid,
            error_count,
        })
}

/// The schemas the macro rejected, by key, with its message.
pub fn rejected() -> impl Iterator<Item = (&'static str, &'static str)> {
    mcp::REJECTED.iter().chain(fixed::REJECTED).copied()
}
