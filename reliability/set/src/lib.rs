//! The fixed schema set the evaluation checks of `toolschema-reliability` and its
//! differential run instances against:
//! every draft 2020-12 schema of the JSON-Schema-Test-Suite that builds without documents from
//! other servers, every MCP tool of `../shared/mcp-tools` the tool-call rules admit, and the
//! stress shapes of `benches/schemas`, each with its compiled validators (format assertion
//! off and on) from the build script and its interpreted ones built here.
//!
//! ```
//! use toolschema_reliability_set::{SET, interpreted};
//!
//! let i = SET.iter().position(|e| e.name.starts_with("stress/")).unwrap();
//! let instance = serde_json::json!({});
//! assert_eq!(SET[i].compiled(false).is_valid(&instance), interpreted(i, false).is_valid(&instance));
//! ```

use serde_json::Value;
use std::sync::LazyLock;
use toolschema::{InputSchema, Options, Validate, Validator};

#[allow(clippy::all, warnings)]
mod compiled {
    include!(concat!(env!("OUT_DIR"), "/set_compiled.rs"));
}
use compiled::*;

/// One schema of the set.
///
/// ```
/// let entry = &toolschema_reliability_set::SET[0];
/// assert!(entry.name.starts_with("suite/"));
/// ```
pub struct Entry {
    /// Where it comes from: `suite/<file>#<group>`, `mcp/<file>#<index> <tool>` or
    /// `stress/<file>`.
    pub name: &'static str,
    /// The schema's JSON text.
    pub schema: &'static str,
    /// Whether it is an MCP tool's `inputSchema`, built under the tool-call rules.
    pub tool: bool,
    /// Its generated validator, format assertion off.
    pub compiled: &'static (dyn Validate + Sync),
    /// Its generated validator, format assertion on.
    pub compiled_formats: &'static (dyn Validate + Sync),
}

/// Every schema of the set, in a fixed order.
///
/// ```
/// assert!(toolschema_reliability_set::SET.iter().any(|e| e.tool));
/// ```
pub static SET: &[Entry] = include!(concat!(env!("OUT_DIR"), "/set_table.rs"));

impl Entry {
    /// The schema as a value.
    ///
    /// ```
    /// let entry = &toolschema_reliability_set::SET[0];
    /// assert_eq!(serde_json::to_string(&entry.schema_value()).unwrap(), entry.schema);
    /// ```
    pub fn schema_value(&self) -> Value {
        serde_json::from_str(self.schema).expect("the build script wrote valid JSON")
    }

    /// The generated validator for the given format assertion.
    ///
    /// ```
    /// let entry = &toolschema_reliability_set::SET[0];
    /// let _ = entry.compiled(true).is_valid(&serde_json::json!(null));
    /// ```
    pub fn compiled(&self, format_assertion: bool) -> &'static (dyn Validate + Sync) {
        if format_assertion {
            self.compiled_formats
        } else {
            self.compiled
        }
    }

    /// Builds the interpreted validator, under the same rules as the generated one.
    ///
    /// ```
    /// let entry = &toolschema_reliability_set::SET[0];
    /// let _ = entry.interpret(false).is_valid(&serde_json::json!(null));
    /// ```
    pub fn interpret(&self, format_assertion: bool) -> Box<dyn Validate + Send + Sync> {
        let options = Options::new().format_assertion(format_assertion);
        let schema = self.schema_value();
        if self.tool {
            Box::new(InputSchema::new(&schema, &options).expect("the build script admitted it"))
        } else {
            Box::new(Validator::with_options(&schema, &options).expect("the build script built it"))
        }
    }
}

/// The interpreted validators of [`SET`], built once: index `i`, format assertion off then on.
///
/// ```
/// let v = toolschema_reliability_set::interpreted(0, false);
/// let _ = v.is_valid(&serde_json::json!(1));
/// ```
pub fn interpreted(i: usize, format_assertion: bool) -> &'static (dyn Validate + Send + Sync) {
    static BUILT: LazyLock<Vec<[Box<dyn Validate + Send + Sync>; 2]>> = LazyLock::new(|| {
        SET.iter()
            .map(|e| [e.interpret(false), e.interpret(true)])
            .collect()
    });
    &*BUILT[i][usize::from(format_assertion)]
}

/// The entry and instance a fuzz input stands for: two bytes choose the entry, the rest is
/// the instance's JSON text. `None` when the rest is not JSON.
///
/// ```
/// let (i, instance) = toolschema_reliability_set::split_input(b"\x01\x00[1]").unwrap();
/// assert_eq!((i, instance), (1, serde_json::json!([1])));
/// ```
pub fn split_input(data: &[u8]) -> Option<(usize, Value)> {
    let (head, text) = data.split_first_chunk::<2>()?;
    let index = usize::from(u16::from_le_bytes(*head)) % SET.len();
    let instance = serde_json::from_slice(text).ok()?;
    Some((index, instance))
}
