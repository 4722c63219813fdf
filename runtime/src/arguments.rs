//! Typed arguments: what every type generated beside a validator (`types = Name`) offers, so
//! that code such as an MCP server framework can take them without knowing the schema.

use crate::{Error, Validate};
use serde_json::Value;

/// A tool's arguments as a Rust type generated from its schema, with the validator generated
/// from the same schema (`tool_schema!(…, types = Name)`, or `Builder::types` in a build
/// script). The code generator implements it; it is not meant to be implemented by hand.
///
/// ```ignore
/// toolschema::tool_schema!(
///     pub SearchSchema = {
///         "type": "object",
///         "properties": {"query": {"type": "string", "minLength": 1}},
///         "required": ["query"]
///     },
///     types = SearchArgs
/// );
///
/// use toolschema::Arguments;
/// let args = SearchArgs::parse(&serde_json::json!({"query": "limits"}))?;
/// assert_eq!(args.query, "limits");
/// assert!(SearchArgs::parse(&serde_json::json!({"query": ""})).is_err());
/// assert_eq!(<SearchArgs as Arguments>::SCHEMA_JSON, SearchSchema::SCHEMA_JSON);
/// # Ok::<(), toolschema::Error>(())
/// ```
pub trait Arguments: Sized {
    /// The validator generated from the same schema.
    type Validator: Validate + Default + 'static;

    /// The schema the type and its validator were generated from, as compact JSON (members in
    /// name order): the validator's `SCHEMA_JSON`.
    const SCHEMA_JSON: &'static str;

    /// Validates `arguments`, then deserializes them: the validator's error, with every
    /// failure, when they fail; the typed arguments otherwise.
    fn parse(arguments: &Value) -> Result<Self, Error>;

    /// Deserializes arguments that have already passed this schema's validation (by this
    /// validator, or by any validator of an equal schema), without validating them again.
    ///
    /// Given arguments the schema refuses, the result is an error of class
    /// `ExecutionFailure` or a value that does not hold what the schema says; never
    /// undefined behaviour, but use [`Arguments::parse`] unless validation has happened.
    fn from_valid(arguments: &Value) -> Result<Self, Error>;
}
