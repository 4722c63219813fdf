//! How a failed call is told to the model: as an MCP tool result or as a JSON-RPC error.
//!
//! Only what the model itself sent or was shown goes into a rendering: the tool name, the
//! locations in its arguments and in the published input schema, the keyword and the message.
//! Absolute keyword locations are left out because they carry the schema's base URI, which
//! can name host-internal resources; host refusal reasons are left out because the host wrote
//! them for itself.

use super::gateway::{CallError, Stage};
use crate::{Error, ErrorClass};
use serde_json::{Value, json};
use std::fmt::Write;

/// JSON-RPC "Invalid params", which MCP uses for unknown tools and bad arguments.
pub(crate) const INVALID_PARAMS: i64 = -32602;

/// A JSON-RPC implementation-defined server error, for calls the host stopped.
pub(crate) const SERVER_ERROR: i64 = -32000;

pub(crate) fn text(error: &CallError) -> String {
    match error {
        CallError::UnknownTool { name } => format!("Unknown tool: {name}"),
        CallError::InvalidArguments { tool, error } => arguments_text(tool, error),
        CallError::Refused { tool, stage, .. } => refusal_text(tool, *stage),
    }
}

fn arguments_text(tool: &str, error: &Error) -> String {
    let mut text = if error.class() == ErrorClass::ExecutionFailure {
        format!("The arguments for tool {tool} could not be checked:")
    } else {
        format!("Invalid arguments for tool {tool}; fix these and call again:")
    };
    for failure in error.failures() {
        let at = match failure.instance_location() {
            "" => "(root)",
            location => location,
        };
        let _ = write!(
            text,
            "\n- {at}: {} ({})",
            failure.message(),
            failure.keyword()
        );
    }
    text
}

fn refusal_text(tool: &str, stage: Stage) -> String {
    match stage {
        Stage::Authorization => format!("The call to tool {tool} is not authorized."),
        Stage::Approval => format!("The call to tool {tool} was not approved."),
        Stage::Budget => format!("The call to tool {tool} exceeds the available budget."),
        Stage::Intent => format!("The call to tool {tool} could not be recorded; it was not made."),
        Stage::Dispatch => format!("The call to tool {tool} failed."),
    }
}

fn failures_json(error: &Error) -> Value {
    error
        .failures()
        .iter()
        .map(|f| {
            json!({
                "instanceLocation": f.instance_location(),
                "keywordLocation": f.keyword_location(),
                "keyword": f.keyword(),
                "message": f.message(),
            })
        })
        .collect()
}

pub(crate) fn tool_result(error: &CallError) -> Value {
    json!({
        "content": [{"type": "text", "text": text(error)}],
        "isError": true,
    })
}

pub(crate) fn jsonrpc_error(error: &CallError) -> Value {
    match error {
        CallError::UnknownTool { name } => json!({
            "code": INVALID_PARAMS,
            "message": text(error),
            "data": {"tool": name},
        }),
        CallError::InvalidArguments { tool, error: inner } => json!({
            "code": INVALID_PARAMS,
            "message": format!("Invalid arguments for tool {tool}"),
            "data": {
                "tool": tool,
                "class": inner.class().as_str(),
                "text": text(error),
                "errors": failures_json(inner),
            },
        }),
        CallError::Refused { tool, stage, .. } => json!({
            "code": SERVER_ERROR,
            "message": text(error),
            "data": {"tool": tool, "stage": stage.as_str()},
        }),
    }
}
