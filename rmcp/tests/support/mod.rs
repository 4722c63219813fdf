//! A real rmcp server and client, connected over an in-process pipe.

#![allow(dead_code)]

use rmcp::model::{CallToolRequestParams, CallToolResult, JsonObject};
use rmcp::service::RunningService;
use rmcp::{ClientHandler, RoleClient, RoleServer, ServerHandler, ServiceExt};
use serde_json::Value;

/// Serves `server` and `client` on the two ends of a tokio duplex pipe, through rmcp's own
/// initialization handshake.
pub async fn connect<S: ServerHandler, C: ClientHandler>(
    server: S,
    client: C,
) -> (RunningService<RoleServer, S>, RunningService<RoleClient, C>) {
    let (server_end, client_end) = tokio::io::duplex(1 << 16);
    let server = tokio::spawn(async move { server.serve(server_end).await });
    let client = client.serve(client_end).await.expect("the client connects");
    let server = server
        .await
        .expect("the server task runs")
        .expect("the server connects");
    (server, client)
}

/// A `tools/call` request with these arguments (`None` when `arguments` is not an object).
pub fn call(name: &'static str, arguments: Value) -> CallToolRequestParams {
    let request = CallToolRequestParams::new(name);
    match arguments {
        Value::Object(map) => request.with_arguments(map),
        _ => request,
    }
}

/// The arguments as an rmcp object.
pub fn object(arguments: Value) -> JsonObject {
    rmcp::model::object(arguments)
}

/// The text of a result's only content block.
pub fn text(result: &CallToolResult) -> &str {
    match result.content.as_slice() {
        [only] => &only.as_text().expect("a text block").text,
        blocks => panic!("expected one content block, got {}", blocks.len()),
    }
}
