//! How a failed call is told to the model: as an MCP tool result or as a JSON-RPC error.
//!
//! Only what the model itself sent or was shown goes into a rendering: the tool name, the
//! locations in its arguments and in the published input schema, the keyword and the message.
//! Absolute keyword locations are left out because they carry the schema's base URI, which
//! can name host-internal resources; host refusal reasons are left out because the host wrote
//! them for itself.

use super::alternatives::Alternatives;
use super::gateway::{CallError, Stage};
use crate::{Error, ErrorClass, Failure};
use serde_json::{Value, json};
use std::fmt::Write;

/// JSON-RPC "Invalid params", which MCP uses for unknown tools and bad arguments.
pub(crate) const INVALID_PARAMS: i64 = -32602;

/// A JSON-RPC implementation-defined server error, for calls the host stopped.
pub(crate) const SERVER_ERROR: i64 = -32000;

pub(crate) fn text(error: &CallError) -> String {
    match error {
        CallError::UnknownTool { name } => format!("Unknown tool: {name}"),
        CallError::InvalidArguments {
            tool,
            error,
            alternatives,
        } => arguments_text(tool, error, alternatives),
        CallError::Refused { tool, stage, .. } => refusal_text(tool, *stage),
    }
}

fn arguments_text(tool: &str, error: &Error, alternatives: &[Alternatives]) -> String {
    let mut text = if error.class() == ErrorClass::ExecutionFailure {
        format!("The arguments for tool {tool} could not be checked:")
    } else {
        format!("Invalid arguments for tool {tool}; fix these and call again:")
    };
    for failure in error.failures() {
        line(&mut text, "", failure);
        // What each branch would need, below the failure of its `anyOf` or `oneOf`.
        for alternative in alternatives.iter().filter(|a| a.belong_to(failure)) {
            for (index, failures) in alternative.branches() {
                let _ = write!(text, "\n  - alternative {index}:");
                match &failures[..] {
                    [only] => {
                        let _ = write!(text, " {}", said(only));
                    }
                    _ => failures.iter().for_each(|f| line(&mut text, "    ", f)),
                }
            }
        }
    }
    text
}

/// One failure as a line of the list, indented by `indent`.
fn line(text: &mut String, indent: &str, failure: &Failure) {
    let _ = write!(text, "\n{indent}- {}", said(failure));
}

/// A failure as the model reads it: where, what, and the keyword.
fn said(failure: &Failure) -> String {
    let at = match failure.instance_location() {
        "" => "(root)",
        location => location,
    };
    format!("{at}: {} ({})", failure.message(), failure.keyword())
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

fn failures_json(error: &Error, alternatives: &[Alternatives]) -> Value {
    error
        .failures()
        .iter()
        .map(|f| {
            let mut entry = failure_json(f);
            let branches: Vec<Value> = alternatives
                .iter()
                .filter(|a| a.belong_to(f))
                .flat_map(Alternatives::branches)
                .map(|(index, failures)| {
                    json!({
                        "index": index,
                        "errors": failures.iter().map(failure_json).collect::<Vec<_>>(),
                    })
                })
                .collect();
            if !branches.is_empty() {
                entry["alternatives"] = Value::Array(branches);
            }
            entry
        })
        .collect()
}

fn failure_json(f: &Failure) -> Value {
    json!({
        "instanceLocation": f.instance_location(),
        "keywordLocation": f.keyword_location(),
        "keyword": f.keyword(),
        "message": f.message(),
    })
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
        CallError::InvalidArguments {
            tool,
            error: inner,
            alternatives,
        } => json!({
            "code": INVALID_PARAMS,
            "message": format!("Invalid arguments for tool {tool}"),
            "data": {
                "tool": tool,
                "class": inner.class().as_str(),
                "text": text(error),
                "errors": failures_json(inner, alternatives),
            },
        }),
        CallError::Refused { tool, stage, .. } => json!({
            "code": SERVER_ERROR,
            "message": text(error),
            "data": {"tool": tool, "stage": stage.as_str()},
        }),
    }
}
