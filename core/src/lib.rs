//! # toolschema-core
//!
//! The engine behind [`toolschema`](https://docs.rs/toolschema): users depend on `toolschema`,
//! which re-exports everything here. This crate exists on its own so that the code generator
//! (`toolschema-compiler`, and through it the `tool_schema!` macro) can use the front end
//! while `toolschema` re-exports that macro.
//!
//! JSON Schema Draft 2020-12 validation for the boundary where an AI agent calls a tool.
//!
//! A schema is read once by the front end ([`build`]) into an intermediate representation
//! ([`ir`]), which the interpreter ([`Validator`]) runs and the code generator
//! (`toolschema-compiler`) turns into Rust. Both paths give the same verdicts and the same
//! errors.
//!
//! At the tool-call boundary, [`InputSchema`] adds the rules of a tool's `inputSchema`: the
//! root describes an object, the dialect is exactly 2020-12, every reference resolves while
//! building, and every limit fails closed.
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

#[doc(hidden)]
pub mod __private;
pub mod content;
mod error;
pub mod eval;
pub mod format;
pub mod frontend;
mod input_schema;
mod interp;
pub mod ir;
pub mod json;
pub mod messages;
pub mod metaschema;
pub mod number;
mod options;
pub mod output;
pub mod pointer;
pub mod regex;
mod validator;

pub use error::{Error, ErrorClass, ErrorSubject, Failure};
pub use input_schema::InputSchema;
pub use options::{Limits, LoaderError, Options};
pub use output::{Annotation, Evaluation};
pub use validator::{Validate, Validator};
