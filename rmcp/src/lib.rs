//! # toolschema-rmcp
//!
//! JSON Schema Draft 2020-12 validation of MCP tool calls for servers and hosts built on
//! [rmcp](https://docs.rs/rmcp), the Rust MCP SDK (3.11.x).
//!
//! rmcp deserializes a tool's arguments with serde and checks nothing serde cannot express:
//! `pattern`, bounds, string `enum`s, `oneOf`, `additionalProperties: false`, formats. This
//! crate checks every call against the tool's published `inputSchema` with `toolschema`, and
//! answers an invalid call with the tool error a model can act on (`isError: true`, every
//! failure's location, keyword and expectation), exactly as the catalog's `Gateway` does.
//!
//! **Server side.** [`ValidateTools::validated`] (or [`Validation::apply`], to attach
//! compiled validators or check output) rewraps a `ToolRouter`'s routes once, at
//! construction:
//!
//! ```
//! use rmcp::handler::server::{tool::ToolRouter, wrapper::Parameters};
//! use rmcp::{ServerHandler, schemars, tool, tool_handler, tool_router};
//! use toolschema_rmcp::ValidateTools;
//!
//! #[derive(serde::Deserialize, schemars::JsonSchema)]
//! struct Greet { name: String }
//!
//! struct Server { tool_router: ToolRouter<Server> }
//!
//! #[tool_router]
//! impl Server {
//!     #[tool(description = "Greets someone")]
//!     fn greet(&self, Parameters(args): Parameters<Greet>) -> String {
//!         format!("Hello, {}!", args.name)
//!     }
//! }
//!
//! #[tool_handler]
//! impl ServerHandler for Server {}
//!
//! let server = Server { tool_router: Server::tool_router().validated()? };
//! # let _ = server;
//! # Ok::<(), toolschema_rmcp::SetupError>(())
//! ```
//!
//! **Host side.** [`ToolHost`] is an rmcp client handler that admits the server's
//! `tools/list` through `toolschema::catalog::admit_batch`, shows only admitted tools, checks
//! a model's calls before sending them, and re-admits on `notifications/tools/list_changed`.
//!
//! rmcp's `local` feature (handlers that are not `Send`) is not supported.

mod host;
mod render;
mod server;
mod typed;

pub use host::{HostCatalog, HostError, HostOptions, Refresh, ToolHost};
pub use render::tool_result;
pub use server::{SetupError, ValidateTools, Validation};
pub use typed::{Typed, input_schema};

use rmcp::model::JsonObject;
use serde_json::Value;
use toolschema::catalog::{AdmittedBundle, CallError};

/// Checks a call's arguments against the catalog in place. Absent arguments reach an rmcp
/// handler as an empty object, so they are checked as one; the slot is left exactly as it was
/// (absent stays absent), since arguments are never changed.
fn check_arguments(
    bundle: &AdmittedBundle,
    tool: &str,
    arguments: &mut Option<JsonObject>,
) -> Result<(), CallError> {
    let given = arguments.take();
    let absent = given.is_none();
    let value = Value::Object(given.unwrap_or_default());
    let checked = bundle.check_call(tool, &value).map(|_| ());
    *arguments = match value {
        Value::Object(map) if !absent => Some(map),
        _ => None,
    };
    checked
}
