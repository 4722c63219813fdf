//! # toolschema
//!
//! JSON Schema Draft 2020-12 validation for the boundary where an AI agent calls a tool.
//!
//! A schema is read once by the front end ([`build`]) into an intermediate representation
//! ([`ir`]), which the interpreter ([`Validator`]) runs and the code generator
//! (`toolschema-compiler`, behind a build script or [`tool_schema!`](crate#compile-time-validators))
//! turns into Rust. Both paths give the same verdicts and the same errors.
//!
//! At the tool-call boundary, [`InputSchema`] adds the rules of a tool's `inputSchema`: the
//! root describes an object, the dialect is exactly 2020-12, every reference resolves while
//! building, and every limit fails closed. [`catalog`] admits a whole `tools/list` and checks
//! every call before it reaches a backend.
//!
//! ```
//! use serde_json::json;
//! use toolschema::{Validate, Validator};
//!
//! let schema = json!({
//!     "type": "object",
//!     "properties": {"path": {"type": "string"}, "depth": {"type": "integer", "minimum": 0}},
//!     "required": ["path"],
//! });
//! let validator = Validator::new(&schema)?;
//! let err = validator.validate(&json!({"depth": -1})).unwrap_err();
//! for failure in err.failures() {
//!     println!("{} at {}: {}", failure.keyword(), failure.instance_location(), failure.message());
//! }
//! assert_eq!(err.failures().len(), 2);
//! # Ok::<(), toolschema::Error>(())
//! ```
//!
//! ## Compile-time validators
//!
//! With the `macros` feature, `toolschema::tool_schema!` compiles a schema written next to its
//! tool into a validator while the crate compiles; a schema error is a compile error at the
//! offending JSON value.
//!
//! ```ignore
//! toolschema::tool_schema!(pub SearchArgs = {
//!     "type": "object",
//!     "properties": {"query": {"type": "string", "minLength": 1}},
//!     "required": ["query"]
//! });
//! ```
//!
//! ## Crates
//!
//! The front end, IR and interpreter live in `toolschema-core`, which this crate re-exports
//! whole: the code generator needs them too, and the macro this crate re-exports is built on
//! the code generator, so they cannot live here without a dependency cycle.

pub mod catalog;

#[doc(inline)]
pub use toolschema_core::{
    Annotation, Error, ErrorClass, ErrorSubject, Evaluation, Failure, InputSchema, Limits,
    LoaderError, Options, Validate, Validator, content, eval, format, frontend, ir, json, messages,
    metaschema, number, output, pointer, regex,
};

#[doc(hidden)]
pub use toolschema_core::__private;

#[cfg(feature = "types")]
mod arguments;
#[cfg(feature = "types")]
pub use arguments::Arguments;

#[cfg(feature = "types")]
#[doc(hidden)]
pub mod __types;

/// Compiles a tool's input schema into a validator at compile time (the `macros` feature).
///
/// See [`toolschema_macros::tool_schema`] for the forms and options.
#[cfg(feature = "macros")]
pub use toolschema_macros::tool_schema;

/// Includes the validators `toolschema-compiler` wrote to `OUT_DIR` from a build script.
///
/// Without an argument the file is `toolschema_validators.rs`, the compiler's default; with
/// one it is that file name.
///
/// ```ignore
/// mod validators {
///     toolschema::include_validators!();
/// }
/// ```
#[macro_export]
macro_rules! include_validators {
    () => {
        include!(concat!(env!("OUT_DIR"), "/toolschema_validators.rs"));
    };
    ($file:literal) => {
        include!(concat!(env!("OUT_DIR"), "/", $file));
    };
}
