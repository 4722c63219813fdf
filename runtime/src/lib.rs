//! toolschema: JSON Schema Draft 2020-12 validation for the tool-call boundary.

pub mod content;
pub mod format;
pub mod number;
pub mod regex;
