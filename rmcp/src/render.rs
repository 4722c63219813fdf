//! How refused calls and withheld results reach the model, as rmcp's `CallToolResult`.
//!
//! Argument errors are told exactly as the catalog's `Gateway` tells them: the text is
//! `CallError::text`, in the `{"content": [{"type": "text", …}], "isError": true}` shape of
//! `CallError::to_tool_result`.

use rmcp::model::{CallToolResult, ContentBlock};
use toolschema::Error;
use toolschema::catalog::CallError;

/// The MCP tool-execution error for a call refused before it ran: an unknown tool, or
/// arguments that fail the tool's schema (or could not be checked within the limits).
///
/// ```
/// use toolschema::catalog::CallError;
/// let error = CallError::UnknownTool { name: "serach".into() };
/// let result = toolschema_rmcp::tool_result(&error);
/// assert_eq!(result.is_error, Some(true));
/// let json = serde_json::to_value(&result).unwrap();
/// assert_eq!(json["content"], error.to_tool_result()["content"]);
/// ```
pub fn tool_result(error: &CallError) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(error.text())])
}

/// The tool error that replaces a result whose `structuredContent` is missing or does not
/// match the tool's `outputSchema`.
pub(crate) fn invalid_output(tool: &str, error: Option<&Error>) -> CallToolResult {
    let text = match error {
        None => format!(
            "The tool {tool} returned no structured content, which its output schema requires; the result was withheld."
        ),
        Some(error) => format!(
            "The tool {tool} returned structured content that does not match its output schema; the result was withheld.\n{error}"
        ),
    };
    CallToolResult::error(vec![ContentBlock::text(text)])
}
