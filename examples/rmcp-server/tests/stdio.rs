//! The example server as an MCP host runs it: a child process spoken to over its standard
//! input and output with rmcp's client.

use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::TokioChildProcess;
use serde_json::json;
use toolschema_rmcp::{HostOptions, ToolHost};

fn call(name: &'static str, arguments: serde_json::Value) -> CallToolRequestParams {
    CallToolRequestParams::new(name).with_arguments(rmcp::model::object(arguments))
}

fn text(result: &rmcp::model::CallToolResult) -> &str {
    &result.content[0].as_text().expect("a text block").text
}

#[tokio::test]
async fn a_host_admits_and_calls_the_server_over_stdio() {
    let server = tokio::process::Command::new(env!("CARGO_BIN_EXE_example-rmcp-server"));
    let transport = TokioChildProcess::new(server).expect("the server starts");
    let client = ToolHost::new(HostOptions::new())
        .serve(transport)
        .await
        .expect("the server initializes");
    let host = client.service();

    let catalog = host
        .admit(client.peer())
        .await
        .expect("every tool is admitted");
    let names: Vec<&str> = catalog.tools().iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(names, ["read_file", "search"]);
    assert!(catalog.bundle().rejected().is_empty());

    let valid = call("search", json!({"query": "closed", "kind": "reference"}));
    let result = host.call_tool(client.peer(), valid).await.unwrap();
    assert_eq!(result.is_error, Some(false));
    assert_eq!(text(&result), "docs/limits.md:2: Every limit fails closed.");

    // Checked by the host, never sent.
    let invalid = call("read_file", json!({"path": "../secrets", "start_line": 0}));
    let refused_here = host
        .call_tool(client.peer(), invalid.clone())
        .await
        .unwrap();
    assert_eq!(refused_here.is_error, Some(true));

    // Sent as is, the server's compiled validator refuses it with the same rendering.
    let refused_there = client.peer().call_tool(invalid).await.unwrap();
    assert_eq!(text(&refused_there), text(&refused_here));
    assert_eq!(
        text(&refused_there),
        "Invalid arguments for tool read_file; fix these and call again:\n\
         - /path: does not match the pattern \"^[a-z-]+(/[a-z-]+)*\\\\.md$\" (pattern)\n\
         - /start_line: 0 is less than the minimum of 1 (minimum)"
    );

    client.cancel().await.expect("the server shuts down");
}
