//! The checks behind the fuzz targets of `fuzz/`, in one place so that the corpus replay
//! (`tests/replay.rs`) runs exactly what the fuzzers run, and the fixed schema set that the
//! evaluation checks and the differential (`tests/differential.rs`) share.
//!
//! Every check takes the fuzzer's bytes and panics when a property fails; each asserts more
//! than "no panic" (see each module). Bytes that do not decode to the check's input (JSON,
//! UTF-8) are skipped.
//!
//! ```
//! toolschema_reliability::patterns::check(b"^(a+)+$");
//! toolschema_reliability::schema_building::check(br#"{"type": "object"}"#);
//! ```

pub mod compiled;
pub mod evaluation;
pub mod formats;
pub mod macro_json;
pub mod patterns;
pub mod schema_building;

/// A fuzz target's check: panics when a property fails on the input.
pub type Check = fn(&[u8]);

/// Every fuzz target: its name (the directory of its corpus under `fuzz/corpus/`) and its
/// check.
///
/// ```
/// for (_, check) in toolschema_reliability::TARGETS {
///     check(b"{}");
/// }
/// ```
pub const TARGETS: &[(&str, Check)] = &[
    ("schema_building", schema_building::check),
    ("evaluation", evaluation::check),
    ("compiled", compiled::check),
    ("patterns", patterns::check),
    ("formats", |data| {
        formats::check(data);
    }),
    ("macro_json", macro_json::check),
];
