//! An MCP server on standard input and output, built with rmcp, whose tools' schemas are
//! written with `tool_schema!` and compiled into validators while this crate compiles.
//! Every `tools/call` is checked against the tool's schema before its handler runs; an
//! invalid call is answered with `isError: true` and every failure, for the model to correct.
//!
//! ```text
//! cargo run -q -p example-rmcp-server
//! ```
//!
//! Any MCP client can talk to it; `cargo run -q -p example-rmcp-host` does.

use rmcp::handler::server::{tool::ToolRouter, wrapper::Parameters};
use rmcp::{ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use serde::Deserialize;
use toolschema::tool_schema;
use toolschema_rmcp::Validation;

tool_schema!(
    /// The arguments of `search`.
    pub SearchArgs = {
        "type": "object",
        "properties": {
            "query": {"type": "string", "minLength": 1, "maxLength": 200},
            "kind": {"enum": ["guide", "reference"]},
            "limit": {"type": "integer", "minimum": 1, "maximum": 20}
        },
        "required": ["query"],
        "additionalProperties": false
    }
);

tool_schema!(
    /// The arguments of `read_file`: a relative path and an optional first line.
    pub ReadFileArgs = {
        "type": "object",
        "properties": {
            "path": {"type": "string", "pattern": "^[a-z-]+(/[a-z-]+)*\\.md$"},
            "start_line": {"type": "integer", "minimum": 1}
        },
        "required": ["path"],
        "additionalProperties": false
    }
);

// Handlers read typed arguments with serde; the schemas above have already been enforced,
// including everything serde does not check.
#[derive(Deserialize)]
struct Search {
    query: String,
    kind: Option<String>,
    limit: Option<usize>,
}

#[derive(Deserialize)]
struct ReadFile {
    path: String,
    start_line: Option<usize>,
}

/// The documents the tools see: path, kind and text.
const FILES: &[(&str, &str, &str)] = &[
    (
        "docs/limits.md",
        "reference",
        "# Limits\nEvery limit fails closed.\nArguments are checked before any tool runs.",
    ),
    (
        "docs/getting-started.md",
        "guide",
        "# Getting started\nDefine a tool with tool_schema!.\nTurn validation on once.",
    ),
];

#[derive(Clone)]
struct Docs {
    tool_router: ToolRouter<Docs>,
}

#[tool_router]
impl Docs {
    #[tool(
        description = "Search the documents for lines containing a word",
        input_schema = rmcp::model::object(SearchArgs::schema().clone())
    )]
    fn search(&self, Parameters(args): Parameters<Search>) -> String {
        let query = args.query.to_lowercase();
        let hits: Vec<String> = FILES
            .iter()
            .filter(|(_, kind, _)| args.kind.as_deref().is_none_or(|wanted| wanted == *kind))
            .flat_map(|(path, _, text)| {
                text.lines()
                    .enumerate()
                    .filter(|(_, line)| line.to_lowercase().contains(&query))
                    .map(move |(n, line)| format!("{path}:{}: {line}", n + 1))
            })
            .take(args.limit.unwrap_or(5))
            .collect();
        if hits.is_empty() {
            format!("no line contains {:?}", args.query)
        } else {
            hits.join("\n")
        }
    }

    #[tool(
        description = "Read a document, from an optional first line",
        input_schema = rmcp::model::object(ReadFileArgs::schema().clone())
    )]
    fn read_file(&self, Parameters(args): Parameters<ReadFile>) -> Result<String, String> {
        let (_, _, text) = FILES
            .iter()
            .find(|(path, _, _)| *path == args.path)
            .ok_or_else(|| format!("no document at {}", args.path))?;
        let skip = args.start_line.unwrap_or(1) - 1;
        Ok(text.lines().skip(skip).collect::<Vec<_>>().join("\n"))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Docs {}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let tool_router = Validation::new()
        .compiled("search", SearchArgs)
        .compiled("read_file", ReadFileArgs)
        .apply(Docs::tool_router())?;
    let server = Docs { tool_router }.serve(rmcp::transport::stdio()).await?;
    server.waiting().await?;
    Ok(())
}
