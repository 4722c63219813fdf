//! `--rmcp`: what validation adds to one `tools/call` round trip between a real rmcp client and
//! server over an in-process pipe (a tokio duplex stream, on one current-thread runtime).
//!
//! Three servers publish the same tool with the same input schema and deserialize its
//! arguments into the same struct with serde: one as rmcp does it, with serde alone; one whose
//! router checks the arguments with the interpreter (`toolschema_rmcp::ValidateTools`); one
//! with a validator compiled by `tool_schema!`. Batches of calls are interleaved across the
//! three, so drift over the run falls on all of them alike, and the medians are compared.

use rmcp::handler::server::{tool::ToolRouter, wrapper::Parameters};
use rmcp::model::{CallToolRequestParams, JsonObject};
use rmcp::service::RunningService;
use rmcp::{RoleClient, RoleServer, ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use serde::Deserialize;
use serde_json::{Value, json};
use std::hint::black_box;
use std::time::{Duration, Instant};
use toolschema::{InputSchema, Options, Validate, tool_schema};
use toolschema_rmcp::{ValidateTools, Validation};

tool_schema!(SearchArgs = {
    "type": "object",
    "properties": {
        "query": {"type": "string", "minLength": 1, "maxLength": 200},
        "kind": {"enum": ["guide", "reference", "how-to"]},
        "limit": {"type": "integer", "minimum": 1, "maximum": 50},
        "tags": {"type": "array", "items": {"type": "string", "pattern": "^[a-z][a-z0-9-]*$"}, "maxItems": 8}
    },
    "required": ["query"],
    "additionalProperties": false
});

#[derive(Deserialize)]
#[allow(dead_code)]
struct Search {
    query: String,
    kind: Option<String>,
    limit: Option<u32>,
    tags: Option<Vec<String>>,
}

#[derive(Clone)]
struct Docs {
    tool_router: ToolRouter<Docs>,
}

#[tool_router]
impl Docs {
    #[tool(
        description = "Search the docs",
        input_schema = rmcp::model::object(SearchArgs::schema().clone())
    )]
    fn search(&self, Parameters(args): Parameters<Search>) -> String {
        args.query
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Docs {}

type Pair = (
    RunningService<RoleServer, Docs>,
    RunningService<RoleClient, ()>,
);

async fn connect(tool_router: ToolRouter<Docs>) -> Pair {
    let (server_end, client_end) = tokio::io::duplex(1 << 16);
    let server = tokio::spawn(Docs { tool_router }.serve(server_end));
    let client = ().serve(client_end).await.expect("the client connects");
    let server = server.await.unwrap().expect("the server connects");
    (server, client)
}

fn request(arguments: &Value) -> CallToolRequestParams {
    let object: JsonObject = rmcp::model::object(arguments.clone());
    CallToolRequestParams::new("search").with_arguments(object)
}

/// Nanoseconds per round trip of each pair, medians of `batches` interleaved batches.
async fn round_trips(
    pairs: &[Pair],
    arguments: &Value,
    batches: usize,
    per_batch: usize,
) -> Vec<f64> {
    let mut samples = vec![Vec::with_capacity(batches); pairs.len()];
    for _ in 0..batches {
        for (i, (_, client)) in pairs.iter().enumerate() {
            let start = Instant::now();
            for _ in 0..per_batch {
                let result = client
                    .call_tool(request(arguments))
                    .await
                    .expect("a result");
                black_box(result);
            }
            samples[i].push(start.elapsed().as_nanos() as f64 / per_batch as f64);
        }
    }
    samples
        .into_iter()
        .map(|mut s| {
            s.sort_by(f64::total_cmp);
            s[s.len() / 2]
        })
        .collect()
}

/// The servers compared, in the table's order.
const VARIANTS: [&str; 3] = ["serde", "interpreted", "compiled"];

async fn pair(variant: &str) -> Pair {
    let router = Docs::tool_router();
    let router = match variant {
        "serde" => router,
        "interpreted" => router.validated().unwrap(),
        "compiled" => Validation::new()
            .compiled("search", SearchArgs)
            .apply(router)
            .unwrap(),
        other => panic!("no server {other:?}; one of {VARIANTS:?}"),
    };
    connect(router).await
}

/// `--rmcp-calls VARIANT N`: connects one pair and makes `N` calls with the valid arguments,
/// and nothing else, so that an instruction counter run with two values of `N` gives the
/// instructions of one round trip: `valgrind --tool=callgrind … --rmcp-calls compiled 2000`,
/// minus the same with 1000, over 1000.
pub fn calls(variant: &str, n: usize) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let valid = valid_arguments();
    runtime.block_on(async {
        let (server, client) = pair(variant).await;
        for _ in 0..n {
            black_box(client.call_tool(request(&valid)).await.expect("a result"));
        }
        client.cancel().await.unwrap();
        let _ = server.cancel().await;
    });
}

fn valid_arguments() -> Value {
    json!({"query": "validation limits", "kind": "reference", "limit": 10, "tags": ["mcp", "json-schema"]})
}

/// Prints the section.
pub fn run(quick: bool) {
    let (batches, per_batch) = if quick { (5, 100) } else { (11, 300) };
    let min_batch = Duration::from_millis(if quick { 1 } else { 5 });
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let valid = valid_arguments();
    // serde accepts this (it checks no bounds), so rmcp alone runs the handler.
    let invalid = json!({"query": "", "kind": "tutorial", "limit": 500, "tags": ["Not A Tag"]});

    let interpreted = InputSchema::new(SearchArgs::schema(), &Options::new()).unwrap();
    assert!(SearchArgs.is_valid(&valid) && interpreted.is_valid(&valid));
    assert!(!SearchArgs.is_valid(&invalid) && !interpreted.is_valid(&invalid));

    let (valid_trips, invalid_trips) = runtime.block_on(async {
        let mut pairs = Vec::new();
        for variant in VARIANTS {
            pairs.push(pair(variant).await);
        }
        // Warm up every pair before timing.
        round_trips(&pairs, &valid, 1, per_batch).await;
        let valid_trips = round_trips(&pairs, &valid, batches, per_batch).await;
        let invalid_trips = round_trips(&pairs, &invalid, batches, per_batch).await;
        for (server, client) in pairs {
            client.cancel().await.unwrap();
            let _ = server.cancel().await;
        }
        (valid_trips, invalid_trips)
    });

    let deserialize = super::time(min_batch, batches, || {
        let search: Search = serde_json::from_value(black_box(valid.clone())).unwrap();
        black_box(search);
    });
    let clone = super::time(min_batch, batches, || {
        black_box(black_box(&valid).clone());
    });
    let compiled_check = super::time(min_batch, batches, || {
        black_box(SearchArgs.validate(black_box(&valid)).is_ok());
    });
    let interpreted_check = super::time(min_batch, batches, || {
        black_box(interpreted.validate(black_box(&valid)).is_ok());
    });

    println!("## rmcp: one tools/call round trip over an in-process pipe\n");
    println!(
        "Medians of {batches} interleaved batches of {per_batch} sequential calls on one current-thread tokio runtime; rmcp 3.11.\n"
    );
    println!(
        "| call | rmcp, serde only (µs) | + toolschema interpreted (µs) | + toolschema compiled (µs) |"
    );
    println!("|---|---|---|---|");
    for (label, trips) in [
        ("valid", &valid_trips),
        ("invalid (serde accepts it)", &invalid_trips),
    ] {
        let base = trips[0];
        println!(
            "| {label} | {:.1} | {:.1} ({:+.1} %) | {:.1} ({:+.1} %) |",
            base / 1e3,
            trips[1] / 1e3,
            (trips[1] / base - 1.0) * 100.0,
            trips[2] / 1e3,
            (trips[2] / base - 1.0) * 100.0,
        );
    }
    println!(
        "\nThe same arguments outside the round trip, ns per call: serde deserialization into the handler's struct {deserialize:.0} (of which cloning the value {clone:.0}); validation with the compiled validator {compiled_check:.0}, with the interpreter {interpreted_check:.0}.\n"
    );
}
