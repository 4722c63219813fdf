//! Typed arguments in a handler: the type generated beside a compiled validator
//! (`tool_schema!(…, types = Name)`), taken from the call as rmcp's `Parameters` would be, and
//! the tool's schema published exactly as it was written.

use rmcp::ErrorData;
use rmcp::handler::server::common::FromContextPart;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::JsonObject;
use serde_json::Value;
use std::any::TypeId;
use std::sync::Arc;
use toolschema::Arguments;
use toolschema::catalog::CallError;

/// A handler parameter holding a call's arguments as the type generated from the tool's
/// schema. Use it where rmcp's `Parameters<T>` would go, with the schema the type came from
/// as the tool's `input_schema` ([`input_schema`]):
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
/// #[tool(description = "Search", input_schema = toolschema_rmcp::input_schema::<SearchArgs>())]
/// fn search(&self, Typed(args): Typed<SearchArgs>) -> String {
///     args.query
/// }
/// ```
///
/// Under a router rewrapped by [`Validation`](crate::Validation) (or
/// [`validated`](crate::ValidateTools::validated)), arguments that fail the schema never
/// reach the handler: the model gets the tool error it can act on. When the route's validator
/// is the type's own (`Validation::compiled(tool, Schema)`, `Schema` being the validator the
/// type was generated beside), arguments that pass are deserialized without being validated
/// a second time; otherwise `Typed` validates them with the type's validator too. Without a
/// rewrapped router, `Typed` validates them itself, and refuses failing arguments with the
/// JSON-RPC error `-32602` carrying every failure, as `CallError::to_jsonrpc_error` renders
/// it.
#[derive(Clone, Debug, PartialEq)]
pub struct Typed<T>(pub T);

/// Left in a call's request extensions by a rewrapped route once its compiled validator
/// passed the arguments: which validator type that was.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CheckedBy(pub(crate) TypeId);

impl<S, T: Arguments> FromContextPart<ToolCallContext<'_, S>> for Typed<T> {
    fn from_context_part(context: &mut ToolCallContext<'_, S>) -> Result<Self, ErrorData> {
        let arguments = Value::Object(context.arguments.take().unwrap_or_default());
        let checked = context
            .request_context
            .extensions
            .get::<CheckedBy>()
            .is_some_and(|checked| checked.0 == TypeId::of::<T::Validator>());
        let parsed = if checked {
            T::from_valid(&arguments)
        } else {
            T::parse(&arguments)
        };
        parsed.map(Typed).map_err(|error| {
            let validator = T::Validator::default();
            let error = CallError::invalid_arguments(&context.name, &validator, &arguments, error);
            let rpc = error.to_jsonrpc_error();
            let message = rpc["message"]
                .as_str()
                .unwrap_or("Invalid params")
                .to_owned();
            ErrorData::invalid_params(message, rpc.get("data").cloned())
        })
    }
}

/// The schema a typed arguments type was generated from, as the `input_schema` of its tool:
/// the very schema of `tool_schema!`, not one derived from the type, so clients are shown
/// exactly what the validator enforces.
///
/// ```ignore
/// #[tool(description = "Search", input_schema = toolschema_rmcp::input_schema::<SearchArgs>())]
/// ```
pub fn input_schema<T: Arguments>() -> Arc<JsonObject> {
    match serde_json::from_str(T::SCHEMA_JSON) {
        Ok(Value::Object(map)) => Arc::new(map),
        // A tool's input schema is an object; `tool_schema!` refuses any other root.
        _ => Arc::new(JsonObject::default()),
    }
}
