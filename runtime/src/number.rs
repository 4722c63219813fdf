//! Exact numeric semantics for JSON Schema keywords.
