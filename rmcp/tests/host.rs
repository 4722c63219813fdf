//! A real rmcp client under `ToolHost`, talking to a real rmcp server that pages its
//! `tools/list` and changes it while connected, over an in-process pipe.

mod support;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{RequestContext, RunningService};
use rmcp::{ErrorData, RoleClient, RoleServer, ServerHandler};
use serde_json::{Value, json};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use support::{call, connect, object, text};
use toolschema::catalog::{AdmissionMode, AdmitOptions, CallError};
use toolschema::{ErrorClass, InputSchema, Validate};
use toolschema_rmcp::{HostError, HostOptions, Refresh, ToolHost};

/// A server whose catalog can be replaced while it runs, listed `page_size` tools at a time
/// with the next index as cursor.
#[derive(Clone)]
struct Catalog {
    tools: Arc<Mutex<Vec<Tool>>>,
    page_size: usize,
    // Hands out the first page's cursor forever, as a broken server might.
    loops: bool,
    lists: Arc<AtomicUsize>,
    calls: Arc<AtomicUsize>,
}

impl Catalog {
    fn new(tools: Vec<Tool>, page_size: usize) -> Catalog {
        Catalog {
            tools: Arc::new(Mutex::new(tools)),
            page_size,
            loops: false,
            lists: Arc::new(AtomicUsize::new(0)),
            calls: Arc::new(AtomicUsize::new(0)),
        }
    }

    fn replace(&self, tools: Vec<Tool>) {
        *self.tools.lock().unwrap() = tools;
    }

    fn lists(&self) -> usize {
        self.lists.load(Ordering::SeqCst)
    }

    fn calls(&self) -> usize {
        self.calls.load(Ordering::SeqCst)
    }
}

impl ServerHandler for Catalog {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_tool_list_changed()
            .build();
        ServerConfig::new(capabilities).with_server_info(Implementation::new("docs-server", "1.0"))
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        self.lists.fetch_add(1, Ordering::SeqCst);
        let start = match request.and_then(|request| request.cursor) {
            Some(cursor) => cursor
                .parse::<usize>()
                .map_err(|_| ErrorData::invalid_params("bad cursor", None))?,
            None => 0,
        };
        let tools = self.tools.lock().unwrap().clone();
        let end = (start + self.page_size).min(tools.len());
        let next_cursor = if self.loops {
            Some(self.page_size.to_string())
        } else {
            (end < tools.len()).then(|| end.to_string())
        };
        Ok(ListToolsResult {
            tools: tools[start.min(end)..end].to_vec(),
            next_cursor,
            ..ListToolsResult::default()
        })
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        let arguments = request.arguments.map(Value::Object);
        let text = format!("{} ran with {}", request.name, json!(arguments));
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into())
    }
}

fn tool(name: &'static str, schema: Value) -> Tool {
    Tool::new(name, format!("The {name} tool"), Arc::new(object(schema)))
}

fn search() -> Tool {
    tool(
        "search",
        json!({
            "type": "object",
            "properties": {
                "query": {"type": "string", "minLength": 1},
                "kind": {"enum": ["guide", "reference"]}
            },
            "required": ["query"],
            "additionalProperties": false
        }),
    )
}

fn get_time() -> Tool {
    tool("get_time", json!({"type": "object", "properties": {}}))
}

fn legacy() -> Tool {
    tool(
        "list_issues",
        json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"}),
    )
}

fn lookup_user() -> Tool {
    tool(
        "lookup_user",
        json!({"type": "object", "properties": {"user": {"$ref": "#/$defs/user"}}}),
    )
}

fn quarantine() -> HostOptions {
    HostOptions::new().admit_options(AdmitOptions::new().mode(AdmissionMode::Quarantine))
}

fn names(tools: &[Tool]) -> Vec<&str> {
    tools.iter().map(|tool| tool.name.as_ref()).collect()
}

async fn host(
    server: &Catalog,
    options: HostOptions,
) -> (
    RunningService<RoleServer, Catalog>,
    RunningService<RoleClient, ToolHost>,
) {
    connect(server.clone(), ToolHost::new(options)).await
}

#[tokio::test]
async fn a_draft_07_tool_is_quarantined_and_the_model_never_sees_it() {
    let server = Catalog::new(vec![search(), legacy(), get_time()], 10);
    let (_server, client) = host(&server, quarantine()).await;
    let host = client.service();

    let catalog = host
        .admit(client.peer())
        .await
        .expect("quarantine admits the rest");
    assert_eq!(names(catalog.tools()), ["search", "get_time"]);
    let rejected = catalog.bundle().rejected();
    assert_eq!(rejected.len(), 1);
    assert_eq!(rejected[0].name(), "list_issues");
    let class = rejected[0].problem().schema_error().unwrap().class();
    assert_eq!(class, ErrorClass::UnsupportedCapability);

    // Nothing the model is shown or told mentions the quarantined tool or why.
    let shown = serde_json::to_string(catalog.tools()).unwrap();
    assert!(!shown.contains("list_issues") && !shown.contains("draft-07"));
    let result = host
        .call_tool(client.peer(), call("list_issues", json!({})))
        .await
        .unwrap();
    assert_eq!(text(&result), "Unknown tool: list_issues");
    assert_eq!(result.is_error, Some(true));
    assert_eq!(server.calls(), 0, "never sent");
}

#[tokio::test]
async fn strict_mode_refuses_a_catalog_with_an_unresolvable_reference() {
    let server = Catalog::new(vec![search(), lookup_user()], 10);
    let (_server, client) = host(&server, HostOptions::new()).await;
    let host = client.service();

    let err = host.admit(client.peer()).await.unwrap_err();
    let HostError::Admission(admission) = err.as_ref() else {
        panic!("expected an admission error, got {err}");
    };
    let diagnostic = admission.tool().unwrap();
    assert_eq!(diagnostic.name(), "lookup_user");
    let schema_error = diagnostic.problem().schema_error().unwrap();
    assert_eq!(schema_error.class(), ErrorClass::Validation);
    assert!(
        schema_error.to_string().contains("#/$defs/user"),
        "{schema_error}"
    );

    // Nothing was admitted, so nothing is shown and every call is refused here.
    assert!(host.catalog().tools().is_empty());
    let result = host
        .call_tool(client.peer(), call("search", json!({"query": "x"})))
        .await
        .unwrap();
    assert_eq!(text(&result), "Unknown tool: search");
    assert_eq!(server.calls(), 0);
}

#[tokio::test]
async fn tools_list_is_followed_page_by_page() {
    let many: Vec<Tool> = ["a", "b", "c", "d", "e"]
        .into_iter()
        .map(|name| tool(name, json!({"type": "object"})))
        .collect();
    let server = Catalog::new(many, 2);
    let (_server, client) = host(&server, HostOptions::new()).await;
    let catalog = client.service().admit(client.peer()).await.unwrap();
    assert_eq!(names(catalog.tools()), ["a", "b", "c", "d", "e"]);
    assert_eq!(server.lists(), 3);
}

#[tokio::test]
async fn a_cursor_handed_out_twice_ends_the_listing() {
    let mut server = Catalog::new(vec![search(), get_time()], 1);
    server.loops = true;
    let (_server, client) = host(&server, HostOptions::new()).await;
    let err = client.service().admit(client.peer()).await.unwrap_err();
    assert!(matches!(err.as_ref(), HostError::RepeatedCursor(cursor) if cursor == "1"));
    assert!(client.service().catalog().tools().is_empty());
}

#[tokio::test]
async fn invalid_calls_are_answered_without_a_round_trip() {
    let server = Catalog::new(vec![search(), get_time()], 10);
    let (_server, client) = host(&server, HostOptions::new()).await;
    let host = client.service();
    host.admit(client.peer()).await.unwrap();

    let arguments = json!({"query": "", "kind": "tutorial", "page": 2});
    let result = host
        .call_tool(client.peer(), call("search", arguments.clone()))
        .await
        .unwrap();
    assert_eq!(server.calls(), 0, "never sent");
    assert_eq!(result.is_error, Some(true));
    let schema = Value::Object(search().input_schema.as_ref().clone());
    let validator = InputSchema::new(&schema, &Default::default()).unwrap();
    let error = validator.validate(&arguments).unwrap_err();
    let expected = CallError::invalid_arguments("search", &validator, &arguments, error);
    assert_eq!(text(&result), expected.text());
    for keyword in ["(minLength)", "(enum)", "(additionalProperties)"] {
        assert!(text(&result).contains(keyword), "{keyword}");
    }

    let result = host
        .call_tool(client.peer(), call("search", json!({"query": "limits"})))
        .await
        .unwrap();
    assert_eq!(text(&result), r#"search ran with {"query":"limits"}"#);
    assert_eq!(server.calls(), 1);

    // Absent arguments are checked as an empty object and sent absent.
    let result = host
        .call_tool(client.peer(), call("get_time", Value::Null))
        .await
        .unwrap();
    assert_eq!(text(&result), "get_time ran with null");
}

#[tokio::test]
async fn list_changed_re_admits_and_a_refused_listing_keeps_the_catalog() {
    let server = Catalog::new(vec![search()], 10);
    let (running, client) = host(&server, quarantine()).await;
    let host = client.service();
    host.admit(client.peer()).await.unwrap();
    let mut refreshes = host.refreshes();
    refreshes.mark_unchanged();

    server.replace(vec![search(), get_time(), legacy()]);
    running.peer().notify_tool_list_changed().await.unwrap();
    refreshes.changed().await.unwrap();
    let Refresh::Admitted(catalog) = refreshes.borrow_and_update().clone() else {
        panic!("the new listing is admitted");
    };
    assert_eq!(names(catalog.tools()), ["search", "get_time"]);
    assert_eq!(catalog.listing(), 2);
    assert_eq!(names(host.catalog().tools()), ["search", "get_time"]);

    // A fatal problem, even in quarantine: the previous catalog stays, whole.
    server.replace(vec![lookup_user()]);
    running.peer().notify_tool_list_changed().await.unwrap();
    refreshes.changed().await.unwrap();
    let Refresh::Refused(error) = refreshes.borrow_and_update().clone() else {
        panic!("the broken listing is refused");
    };
    assert!(matches!(error.as_ref(), HostError::Admission(_)));
    assert_eq!(host.catalog().listing(), 2);
    let result = host
        .call_tool(client.peer(), call("get_time", json!({})))
        .await
        .unwrap();
    assert_eq!(text(&result), "get_time ran with {}");
}
