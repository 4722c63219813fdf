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

use rmcp::handler::server::tool::ToolRouter;
use rmcp::{ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use toolschema::tool_schema;
use toolschema_rmcp::{Typed, Validation, input_schema};

tool_schema!(
    /// The schema of `search`'s arguments, and their type, `SearchArgs`.
    pub SearchSchema = {
        "type": "object",
        "properties": {
            "query": {"type": "string", "minLength": 1, "maxLength": 200},
            "kind": {"enum": ["guide", "reference"]},
            "limit": {"type": "integer", "minimum": 1, "maximum": 20}
        },
        "required": ["query"],
        "additionalProperties": false
    },
    types = SearchArgs
);

tool_schema!(
    /// The schema of `read_file`'s arguments (a relative path and an optional first line),
    /// and their type, `ReadFileArgs`.
    pub ReadFileSchema = {
        "type": "object",
        "properties": {
            "path": {"type": "string", "pattern": "^[a-z-]+(/[a-z-]+)*\\.md$"},
            "start_line": {"type": "integer", "minimum": 1, "maximum": 100000}
        },
        "required": ["path"],
        "additionalProperties": false
    },
    types = ReadFileArgs
);

/// The documents the tools see: path, kind and text.
const FILES: &[(&str, SearchArgsKind, &str)] = &[
    (
        "docs/limits.md",
        SearchArgsKind::Reference,
        "# Limits\nEvery limit fails closed.\nArguments are checked before any tool runs.",
    ),
    (
        "docs/getting-started.md",
        SearchArgsKind::Guide,
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
        input_schema = input_schema::<SearchArgs>()
    )]
    fn search(&self, Typed(args): Typed<SearchArgs>) -> String {
        let query = args.query.to_lowercase();
        let hits: Vec<String> = FILES
            .iter()
            .filter(|(_, kind, _)| args.kind.is_none_or(|wanted| wanted == *kind))
            .flat_map(|(path, _, text)| {
                text.lines()
                    .enumerate()
                    .filter(|(_, line)| line.to_lowercase().contains(&query))
                    .map(move |(n, line)| format!("{path}:{}: {line}", n + 1))
            })
            .take(args.limit.map_or(5, usize::from))
            .collect();
        if hits.is_empty() {
            format!("no line contains {:?}", args.query)
        } else {
            hits.join("\n")
        }
    }

    #[tool(
        description = "Read a document, from an optional first line",
        input_schema = input_schema::<ReadFileArgs>()
    )]
    fn read_file(&self, Typed(args): Typed<ReadFileArgs>) -> Result<String, String> {
        let (_, _, text) = FILES
            .iter()
            .find(|(path, _, _)| *path == args.path)
            .ok_or_else(|| format!("no document at {}", args.path))?;
        let skip = usize::try_from(args.start_line.unwrap_or(1) - 1).unwrap_or(usize::MAX);
        Ok(text.lines().skip(skip).collect::<Vec<_>>().join("\n"))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Docs {}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let tool_router = Validation::new()
        .compiled("search", SearchSchema)
        .compiled("read_file", ReadFileSchema)
        .apply(Docs::tool_router())?;
    let server = Docs { tool_router }.serve(rmcp::transport::stdio()).await?;
    server.waiting().await?;
    Ok(())
}
