//! [`InputSchema`]: the contract at the MCP tool-call boundary.
//!
//! A tool's `inputSchema` is JSON Schema Draft 2020-12 whose root describes the arguments
//! object. Every rule of the boundary is decided by the front end
//! ([`frontend::build_tool`](crate::frontend::build_tool)) and recorded in the IR, so a generated
//! validator and this interpreted one agree:
//!
//! - the dialect is exactly 2020-12, for the root and every embedded resource;
//! - the root is a schema object whose `type`, if present, is `"object"` or `["object"]`,
//!   and the arguments must be an object even without `type`;
//! - every reference resolves while building, to a registry document or to what the loader
//!   returns — nothing is fetched, and nothing is looked up while arguments are checked;
//! - limits fail closed with [`ErrorClass::ExecutionFailure`](crate::ErrorClass).
//!
//! The arguments are only read: no defaults are filled in and nothing is coerced.

use crate::error::Error;
use crate::frontend;
use crate::options::Options;
use crate::validator::{Validate, Validator};
use serde_json::Value;

/// A tool's input schema, built once and used to check any number of calls.
///
/// ```
/// use serde_json::json;
/// use toolschema::{ErrorClass, InputSchema, Options, Validate};
///
/// let schema = json!({
///     "type": "object",
///     "properties": {"url": {"type": "string"}, "max_length": {"type": "integer", "minimum": 1}},
///     "required": ["url"],
/// });
/// let tool = InputSchema::new(&schema, &Options::new())?;
/// assert!(tool.is_valid(&json!({"url": "https://example.com"})));
/// let err = tool.validate(&json!({"max_length": 0})).unwrap_err();
/// assert_eq!(err.class(), ErrorClass::Validation);
/// assert_eq!(err.failures().len(), 2);
/// // Arguments are always an object.
/// assert!(!tool.is_valid(&json!("https://example.com")));
/// assert_eq!(tool.schema(), &schema);
/// # Ok::<(), toolschema::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct InputSchema {
    schema: Value,
    validator: Validator,
}

impl InputSchema {
    /// Builds the validator for a tool's input schema, checking every boundary rule.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolschema::{ErrorClass, InputSchema, Options};
    ///
    /// let draft7 = json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"});
    /// let err = InputSchema::new(&draft7, &Options::new()).unwrap_err();
    /// assert_eq!(err.class(), ErrorClass::UnsupportedCapability);
    /// ```
    pub fn new(schema: &Value, options: &Options) -> Result<InputSchema, Error> {
        let ir = frontend::build_tool(schema, options)?;
        Ok(InputSchema {
            schema: schema.clone(),
            validator: Validator::from_ir(ir, options.limits.clone()),
        })
    }

    /// Checks a tool's input schema with default [`Options`], without keeping a validator.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolschema::{ErrorClass, InputSchema};
    ///
    /// assert!(InputSchema::validate_schema(&json!({"properties": {"q": {"type": "string"}}})).is_ok());
    /// let err = InputSchema::validate_schema(&json!(true)).unwrap_err();
    /// assert_eq!(err.class(), ErrorClass::Validation);
    /// ```
    pub fn validate_schema(schema: &Value) -> Result<(), Error> {
        InputSchema::validate_schema_with(schema, &Options::default())
    }

    /// Checks a tool's input schema with `options` (registry, loader, limits).
    ///
    /// ```
    /// use serde_json::json;
    /// use toolschema::{ErrorClass, InputSchema, Options};
    ///
    /// let schema = json!({"properties": {"id": {"$ref": "https://example.test/id.json"}}});
    /// let err = InputSchema::validate_schema_with(&schema, &Options::new()).unwrap_err();
    /// assert_eq!(err.class(), ErrorClass::Validation);
    /// assert_eq!(err.failures()[0].instance_location(), "/properties/id/$ref");
    /// let options = Options::new().registry_document("https://example.test/id.json", json!({"type": "string"}));
    /// assert!(InputSchema::validate_schema_with(&schema, &options).is_ok());
    /// ```
    pub fn validate_schema_with(schema: &Value, options: &Options) -> Result<(), Error> {
        frontend::build_tool(schema, options).map(drop)
    }

    /// Builds the schema with default [`Options`] and checks `arguments` against it.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolschema::InputSchema;
    ///
    /// let schema = json!({"required": ["q"]});
    /// assert!(InputSchema::validate(&schema, &json!({"q": 1})).is_ok());
    /// let err = InputSchema::validate(&schema, &json!([])).unwrap_err();
    /// assert_eq!(err.failures()[0].keyword(), "type");
    /// ```
    pub fn validate(schema: &Value, arguments: &Value) -> Result<(), Error> {
        InputSchema::validate_with(schema, arguments, &Options::default())
    }

    /// Builds the schema with `options` and checks `arguments` against it. A schema error is
    /// reported before the arguments are looked at.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolschema::{ErrorClass, ErrorSubject, InputSchema, Limits, Options};
    ///
    /// let options = Options::new().limits(Limits::new().max_argument_depth(1));
    /// let err = InputSchema::validate_with(&json!({}), &json!({"a": {"b": 1}}), &options).unwrap_err();
    /// assert_eq!(err.class(), ErrorClass::ExecutionFailure);
    /// assert_eq!(err.subject(), ErrorSubject::Instance);
    /// ```
    pub fn validate_with(
        schema: &Value,
        arguments: &Value,
        options: &Options,
    ) -> Result<(), Error> {
        InputSchema::new(schema, options)?.validate(arguments)
    }

    /// The schema exactly as given.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolschema::{InputSchema, Options};
    /// let schema = json!({"type": "object", "default": {"q": "x"}});
    /// assert_eq!(InputSchema::new(&schema, &Options::new())?.schema(), &schema);
    /// # Ok::<(), toolschema::Error>(())
    /// ```
    pub fn schema(&self) -> &Value {
        &self.schema
    }

    /// The validator behind this schema (its IR is what a code generator would compile).
    ///
    /// ```
    /// use serde_json::json;
    /// use toolschema::{InputSchema, Options};
    /// let tool = InputSchema::new(&json!({}), &Options::new())?;
    /// assert!(tool.validator().ir().object_root);
    /// # Ok::<(), toolschema::Error>(())
    /// ```
    pub fn validator(&self) -> &Validator {
        &self.validator
    }
}

impl Validate for InputSchema {
    fn is_valid(&self, arguments: &Value) -> bool {
        self.validator.is_valid(arguments)
    }

    fn validate(&self, arguments: &Value) -> Result<(), Error> {
        self.validator.validate(arguments)
    }

    fn evaluate(&self, arguments: &Value) -> Result<crate::Evaluation, Error> {
        self.validator.evaluate(arguments)
    }
}
