//! The `tool_schema!` macro.
