//! An MCP host on rmcp's client: it starts a server as a child process, admits the server's
//! tools as a catalog, shows the tools a model would be offered, and sends a valid and an
//! invalid call. The invalid one is answered by the host itself, with the error the model
//! would be given, and never reaches the server.
//!
//! ```text
//! cargo run -q -p example-rmcp-host                    # runs example-rmcp-server
//! cargo run -q -p example-rmcp-host -- SERVER [ARGS…]  # any stdio MCP server
//! ```

use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::TokioChildProcess;
use serde_json::json;
use toolschema::catalog::{AdmissionMode, AdmitOptions};
use toolschema_rmcp::{HostOptions, ToolHost};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let server = match args.next() {
        Some(program) => {
            let mut command = tokio::process::Command::new(program);
            command.args(args);
            command
        }
        None => {
            let mut command = tokio::process::Command::new(env!("CARGO"));
            command.args(["run", "-q", "-p", "example-rmcp-server"]);
            command
        }
    };

    // Quarantine sets aside tools whose schemas this library does not support (draft-07,
    // say) and admits the rest; anything else wrong refuses the whole catalog.
    let options = AdmitOptions::new().mode(AdmissionMode::Quarantine);
    let client = ToolHost::new(HostOptions::new().admit_options(options))
        .serve(TokioChildProcess::new(server)?)
        .await?;
    let host = client.service();
    let catalog = host.admit(client.peer()).await?;

    println!("offered to the model:");
    for tool in catalog.tools() {
        println!(
            "  {}: {}",
            tool.name,
            tool.description.as_deref().unwrap_or("")
        );
    }
    for diagnostic in catalog.bundle().rejected() {
        // Host-only: logged, never shown to the model.
        eprintln!("quarantined: {diagnostic}");
    }

    let calls = [
        ("search", json!({"query": "limit", "kind": "reference"})),
        (
            "search",
            json!({"query": "", "kind": "tutorial", "page": 2}),
        ),
    ];
    for (name, arguments) in calls {
        println!("\ncall {name} {arguments}");
        let call = CallToolRequestParams::new(name).with_arguments(rmcp::model::object(arguments));
        let result = host.call_tool(client.peer(), call).await?;
        let label = if result.is_error == Some(true) {
            "error"
        } else {
            "result"
        };
        for content in &result.content {
            if let Some(text) = content.as_text() {
                println!("{label}: {}", text.text);
            }
        }
    }

    client.cancel().await?;
    Ok(())
}
