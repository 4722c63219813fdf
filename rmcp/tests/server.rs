//! A real rmcp server whose router is validated, called by a real rmcp client over an
//! in-process pipe.

mod support;

use rmcp::handler::server::{tool::ToolRouter, wrapper::Parameters};
use rmcp::model::{CallToolResult, JsonObject};
use rmcp::{Json, ServerHandler, ServiceError, schemars, tool, tool_handler, tool_router};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use support::{call, connect, text};
use toolschema::catalog::CallError;
use toolschema::{ErrorClass, InputSchema, Limits, Options, Validate, tool_schema};
use toolschema_rmcp::{SetupError, ValidateTools, Validation};

tool_schema!(
    /// `read_file`'s arguments, compiled while this test compiles.
    ReadFileArgs = {
        "type": "object",
        "properties": {
            "path": {"type": "string", "pattern": "^[a-z]+(/[a-z]+)*\\.md$"},
            "start_line": {"type": "integer", "minimum": 1}
        },
        "required": ["path"],
        "additionalProperties": false
    }
);

/// `search`'s arguments: schemars publishes the bounds, and serde checks none of them.
#[derive(Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct SearchParams {
    #[schemars(length(min = 1))]
    query: String,
    #[schemars(range(min = 1, max = 50))]
    limit: Option<u32>,
}

#[derive(Deserialize, schemars::JsonSchema)]
struct CountParams {
    text: String,
}

#[derive(Serialize, schemars::JsonSchema)]
struct CountOutput {
    words: usize,
}

#[derive(Clone)]
struct Docs {
    calls: Arc<AtomicUsize>,
    tool_router: ToolRouter<Docs>,
}

#[tool_router]
impl Docs {
    #[tool(description = "Search the docs")]
    fn search(&self, Parameters(params): Parameters<SearchParams>) -> String {
        self.calls.fetch_add(1, Ordering::SeqCst);
        format!(
            "{} results for {:?}",
            params.limit.unwrap_or(10),
            params.query
        )
    }

    #[tool(
        description = "Read a file",
        input_schema = rmcp::model::object(ReadFileArgs::schema().clone())
    )]
    fn read_file(&self, Parameters(arguments): Parameters<JsonObject>) -> String {
        self.calls.fetch_add(1, Ordering::SeqCst);
        format!("read {}", arguments["path"])
    }

    #[tool(description = "Count the words of a text")]
    fn count(&self, Parameters(params): Parameters<CountParams>) -> Json<CountOutput> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        Json(CountOutput {
            words: params.text.split_whitespace().count(),
        })
    }

    #[tool(
        description = "Document statistics (declares an output schema it does not keep)",
        output_schema = Arc::new(rmcp::model::object(json!({
            "type": "object",
            "properties": {"pages": {"type": "integer"}},
            "required": ["pages"]
        })))
    )]
    fn stats(&self) -> CallToolResult {
        self.calls.fetch_add(1, Ordering::SeqCst);
        CallToolResult::structured(json!({"pages": "many"}))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Docs {}

impl Docs {
    fn plain() -> Docs {
        Docs {
            calls: Arc::new(AtomicUsize::new(0)),
            tool_router: Docs::tool_router(),
        }
    }

    fn validated(validation: &Validation) -> Docs {
        let plain = Docs::plain();
        Docs {
            tool_router: plain
                .tool_router
                .validated_with(validation)
                .expect("every schema is admitted"),
            ..plain
        }
    }

    fn calls(&self) -> usize {
        self.calls.load(Ordering::SeqCst)
    }
}

fn compiled() -> Validation {
    Validation::new().compiled("read_file", ReadFileArgs)
}

/// Calls `name` on a server, returning the result (or the JSON-RPC error) and how many times
/// a handler ran.
async fn call_on(
    server: Docs,
    name: &'static str,
    arguments: Value,
) -> (Result<CallToolResult, ServiceError>, usize) {
    let (running, client) = connect(server.clone(), ()).await;
    let result = client.call_tool(call(name, arguments)).await;
    client.cancel().await.expect("the client closes");
    let _ = running.cancel().await;
    (result, server.calls())
}

/// What the catalog's `Gateway` says to the model about these arguments.
fn gateway_text(name: &str, schema: &Value, arguments: &Value, options: &Options) -> String {
    let validator = InputSchema::new(schema, options).expect("the schema builds");
    let error = validator
        .validate(arguments)
        .expect_err("the arguments are invalid");
    CallError::invalid_arguments(name, &validator, arguments, error).text()
}

fn search_schema() -> Value {
    let router = Docs::tool_router();
    Value::Object(router.get("search").unwrap().input_schema.as_ref().clone())
}

#[tokio::test]
async fn valid_calls_answer_exactly_as_without_validation() {
    let cases = [
        ("search", json!({"query": "limits", "limit": 3})),
        (
            "read_file",
            json!({"path": "docs/limits.md", "start_line": 2}),
        ),
        ("count", json!({"text": "one two three"})),
    ];
    for (name, arguments) in cases {
        let (plain, plain_calls) = call_on(Docs::plain(), name, arguments.clone()).await;
        let (checked, checked_calls) = call_on(Docs::validated(&compiled()), name, arguments).await;
        let (plain, checked) = (plain.unwrap(), checked.unwrap());
        assert_eq!(checked, plain, "{name}");
        assert_ne!(checked.is_error, Some(true), "{name}");
        assert_eq!((plain_calls, checked_calls), (1, 1), "{name}");
    }
}

#[tokio::test]
async fn unknown_tools_answer_exactly_as_without_validation() {
    let (plain, _) = call_on(Docs::plain(), "serach", json!({})).await;
    let (checked, calls) = call_on(Docs::validated(&Validation::new()), "serach", json!({})).await;
    assert_eq!(
        format!("{:?}", checked.unwrap_err()),
        format!("{:?}", plain.unwrap_err())
    );
    assert_eq!(calls, 0);
}

#[tokio::test]
async fn what_serde_lets_through_is_refused_before_the_handler() {
    // Each of these deserializes into SearchParams, so without validation the handler runs.
    let cases = [
        json!({"query": ""}),
        json!({"query": "limits", "limit": 500}),
        json!({"query": "limits", "sort": "date"}),
    ];
    for arguments in cases {
        let (plain, plain_calls) = call_on(Docs::plain(), "search", arguments.clone()).await;
        assert_ne!(plain.unwrap().is_error, Some(true));
        assert_eq!(plain_calls, 1);

        let (checked, calls) = call_on(
            Docs::validated(&Validation::new()),
            "search",
            arguments.clone(),
        )
        .await;
        let checked = checked.expect("a tool result, not a JSON-RPC error");
        assert_eq!(checked.is_error, Some(true));
        assert_eq!(calls, 0, "the handler never runs");
        let expected = gateway_text("search", &search_schema(), &arguments, &Options::new());
        assert_eq!(text(&checked), expected);
    }
}

#[tokio::test]
async fn every_failure_is_rendered_with_its_location_keyword_and_expectation() {
    let arguments = json!({"query": "", "limit": 0, "sort": "date"});
    let (result, calls) = call_on(Docs::validated(&Validation::new()), "search", arguments).await;
    let result = result.unwrap();
    assert_eq!(calls, 0);
    let text = text(&result);
    assert!(
        text.starts_with("Invalid arguments for tool search; fix these and call again:"),
        "{text}"
    );
    for line in [
        "\n- /query: ",
        "(minLength)",
        "\n- /limit: ",
        "(minimum)",
        "(additionalProperties)",
    ] {
        assert!(text.contains(line), "{line:?} missing from {text}");
    }
    assert_eq!(text.lines().count(), 4, "{text}");
    // The wire shape is the gateway's tool result.
    let wire = serde_json::to_value(&result).unwrap();
    assert_eq!(wire["isError"], true);
    assert_eq!(wire["content"][0]["type"], "text");
}

#[tokio::test]
async fn a_compiled_validator_checks_its_tool() {
    let arguments = json!({"path": "../etc/passwd", "start_line": 0, "mode": "raw"});
    let (result, calls) =
        call_on(Docs::validated(&compiled()), "read_file", arguments.clone()).await;
    let result = result.unwrap();
    assert_eq!((result.is_error, calls), (Some(true), 0));
    let error = ReadFileArgs.validate(&arguments).unwrap_err();
    let expected = CallError::invalid_arguments("read_file", &ReadFileArgs, &arguments, error);
    assert_eq!(text(&result), expected.text());
    for keyword in ["(pattern)", "(minimum)", "(additionalProperties)"] {
        assert!(text(&result).contains(keyword), "{keyword}");
    }
    // The interpreter reads the same published schema to the same verdict.
    let interpreted = gateway_text(
        "read_file",
        ReadFileArgs::schema(),
        &arguments,
        &Options::new(),
    );
    assert_eq!(text(&result), interpreted);
}

#[tokio::test]
async fn absent_arguments_are_checked_as_an_empty_object() {
    let (result, calls) = call_on(Docs::validated(&compiled()), "read_file", Value::Null).await;
    let result = result.unwrap();
    assert_eq!(calls, 0);
    assert_eq!(
        text(&result),
        "Invalid arguments for tool read_file; fix these and call again:\n- (root): missing required property \"path\" (required)"
    );
}

#[tokio::test]
async fn arguments_past_a_limit_are_an_execution_failure_never_a_pass() {
    let validation = Validation::new().schema_options(options_with_limit());
    let arguments = json!({"query": "x".repeat(65)});
    let (result, calls) = call_on(Docs::validated(&validation), "search", arguments.clone()).await;
    let result = result.unwrap();
    assert_eq!((result.is_error, calls), (Some(true), 0));
    assert!(
        text(&result).starts_with("The arguments for tool search could not be checked:"),
        "{}",
        text(&result)
    );
    let error = InputSchema::new(&search_schema(), &options_with_limit())
        .unwrap()
        .validate(&arguments)
        .unwrap_err();
    assert_eq!(error.class(), ErrorClass::ExecutionFailure);

    // Within the limit, the same schema and options let the call through.
    let (result, calls) = call_on(
        Docs::validated(&validation),
        "search",
        json!({"query": "x".repeat(64)}),
    )
    .await;
    assert_ne!(result.unwrap().is_error, Some(true));
    assert_eq!(calls, 1);
}

fn options_with_limit() -> Options {
    Options::new().limits(Limits::new().max_argument_string_length(64))
}

#[tokio::test]
async fn output_is_not_checked_unless_asked() {
    let (result, calls) = call_on(Docs::validated(&Validation::new()), "stats", json!({})).await;
    let result = result.unwrap();
    assert_eq!(calls, 1);
    assert_eq!(result.structured_content, Some(json!({"pages": "many"})));
}

#[tokio::test]
async fn structured_content_that_breaks_the_output_schema_is_withheld() {
    let validation = Validation::new().check_output(true);
    let (result, calls) = call_on(Docs::validated(&validation), "stats", json!({})).await;
    let result = result.unwrap();
    assert_eq!(calls, 1, "the handler ran; its result was checked");
    assert_eq!(result.is_error, Some(true));
    assert_eq!(result.structured_content, None);
    let text = text(&result);
    assert!(
        text.starts_with(
            "The tool stats returned structured content that does not match its output schema"
        ),
        "{text}"
    );
    assert!(text.contains("/pages"), "{text}");

    // A conforming result (schemars' own output schema for `count`) passes unchanged.
    let arguments = json!({"text": "a b"});
    let (checked, _) = call_on(Docs::validated(&validation), "count", arguments.clone()).await;
    let (plain, _) = call_on(Docs::plain(), "count", arguments).await;
    assert_eq!(checked.unwrap(), plain.unwrap());
}

#[test]
fn a_draft_07_route_is_refused_at_construction() {
    let mut router = Docs::tool_router();
    let route = router.map.get_mut("search").unwrap();
    route.attr.input_schema = Arc::new(rmcp::model::object(json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object"
    })));
    let err = router.validated().unwrap_err();
    assert_eq!(err.tool(), Some("search"));
    let SetupError::Admission(admission) = &err else {
        panic!("expected an admission error, got {err}");
    };
    let diagnostic = admission.tool().unwrap();
    let class = diagnostic.problem().schema_error().unwrap().class();
    assert_eq!(class, ErrorClass::UnsupportedCapability);
}

#[test]
fn a_compiled_validator_for_no_route_is_refused() {
    let err = Validation::new()
        .compiled("raed_file", ReadFileArgs)
        .apply(Docs::tool_router())
        .unwrap_err();
    assert!(matches!(err, SetupError::NoRoute { ref tool } if tool == "raed_file"));
}

#[test]
fn disabled_routes_stay_disabled() {
    let router = Docs::tool_router()
        .with_disabled("stats")
        .validated()
        .unwrap();
    assert!(router.is_disabled("stats"));
    let names: Vec<_> = router.list_all().into_iter().map(|t| t.name).collect();
    assert_eq!(names, ["count", "read_file", "search"]);
}
