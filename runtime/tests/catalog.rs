//! The catalog: batch admission in both modes, the admitted bundle, the gateway's call order,
//! the renderings a model sees, and catalog updates.

use serde_json::{Value, json};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use toolschema::catalog::*;
use toolschema::{Error, ErrorClass, Failure, Limits, Options, Validate};

fn object_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "query": {"type": "string", "minLength": 1},
            "limit": {"type": "integer", "minimum": 1},
        },
        "required": ["query"],
    })
}

fn tool(name: &str) -> ToolDescriptor {
    ToolDescriptor::new(name, "r1", object_schema())
        .description(format!("the {name} tool"))
        .backend("primary")
}

fn draft07(name: &str) -> ToolDescriptor {
    ToolDescriptor::new(
        name,
        "r7",
        json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"}),
    )
    .backend("legacy")
}

fn authority() -> Authority {
    Authority::new("alice", "run-1")
}

fn strict() -> AdmitOptions {
    AdmitOptions::new()
}

fn quarantine() -> AdmitOptions {
    AdmitOptions::new().mode(AdmissionMode::Quarantine)
}

fn names(bundle: &AdmittedBundle) -> Vec<&str> {
    bundle.accepted().iter().map(String::as_str).collect()
}

fn tool_error(err: &AdmissionError) -> &ToolDiagnostic {
    err.tool()
        .unwrap_or_else(|| panic!("expected a tool error, got {err}"))
}

type Case = (&'static str, Vec<ToolDescriptor>, fn(&ToolProblem) -> bool);

/// A batch with one broken tool, for each way a tool can be broken except an unsupported
/// schema; each must fail the batch in either mode.
fn fatal_cases() -> Vec<Case> {
    vec![
        (
            "invalid schema",
            vec![
                tool("ok"),
                ToolDescriptor::new("bad", "r2", json!({"type": 5})).backend("b"),
            ],
            |p| {
                p.schema_error()
                    .is_some_and(|e| e.class() == ErrorClass::Validation)
            },
        ),
        (
            "unresolved reference",
            vec![
                tool("ok"),
                ToolDescriptor::new(
                    "bad",
                    "r2",
                    json!({"properties": {"a": {"$ref": "#/$defs/missing"}}}),
                )
                .backend("b"),
            ],
            |p| {
                p.schema_error().is_some_and(|e| {
                    e.class() == ErrorClass::Validation && e.failures()[0].keyword() == "$ref"
                })
            },
        ),
        (
            "empty name",
            vec![
                tool("ok"),
                ToolDescriptor::new("", "r2", object_schema()).backend("b"),
            ],
            |p| matches!(p, ToolProblem::Name(NameProblem::Empty)),
        ),
        (
            "over-long name",
            vec![
                tool("ok"),
                ToolDescriptor::new("x".repeat(MAX_TOOL_NAME_LEN + 1), "r2", object_schema())
                    .backend("b"),
            ],
            |p| matches!(p, ToolProblem::Name(NameProblem::TooLong { length: 65 })),
        ),
        (
            "ill-formed name",
            vec![
                tool("ok"),
                ToolDescriptor::new("read file", "r2", object_schema()).backend("b"),
            ],
            |p| {
                matches!(
                    p,
                    ToolProblem::Name(NameProblem::InvalidCharacter {
                        character: ' ',
                        at: 4
                    })
                )
            },
        ),
        (
            "empty revision",
            vec![
                tool("ok"),
                ToolDescriptor::new("bad", "", object_schema()).backend("b"),
            ],
            |p| matches!(p, ToolProblem::Revision(RevisionProblem::Missing)),
        ),
        (
            "blank revision",
            vec![
                tool("ok"),
                ToolDescriptor::new("bad", "  ", object_schema()).backend("b"),
            ],
            |p| matches!(p, ToolProblem::Revision(RevisionProblem::Missing)),
        ),
        (
            "over-long revision",
            vec![
                tool("ok"),
                ToolDescriptor::new("bad", "r".repeat(MAX_REVISION_LEN + 1), object_schema())
                    .backend("b"),
            ],
            |p| {
                matches!(
                    p,
                    ToolProblem::Revision(RevisionProblem::TooLong { length: 129 })
                )
            },
        ),
        (
            "revision with a control character",
            vec![
                tool("ok"),
                ToolDescriptor::new("bad", "r1\n", object_schema()).backend("b"),
            ],
            |p| matches!(p, ToolProblem::Revision(RevisionProblem::ControlCharacter)),
        ),
        (
            "blank backend",
            vec![
                tool("ok"),
                ToolDescriptor::new("bad", "r2", object_schema()).backend(" "),
            ],
            |p| matches!(p, ToolProblem::MissingBackend),
        ),
        (
            "unsupported schema without a backend",
            vec![
                tool("ok"),
                ToolDescriptor::new(
                    "bad",
                    "r7",
                    json!({"$schema": "http://json-schema.org/draft-07/schema#"}),
                ),
            ],
            |p| matches!(p, ToolProblem::MissingBackend),
        ),
        (
            "no backend",
            vec![
                tool("ok"),
                ToolDescriptor::new("bad", "r2", object_schema()),
            ],
            |p| matches!(p, ToolProblem::MissingBackend),
        ),
        (
            "duplicate name",
            vec![
                tool("ok"),
                tool("bad"),
                ToolDescriptor::new("bad", "r2", object_schema()).backend("b"),
            ],
            |p| matches!(p, ToolProblem::DuplicateName { first_index: 1 }),
        ),
    ]
}

#[test]
fn strict_is_the_default() {
    assert_eq!(AdmitOptions::new().get_mode(), AdmissionMode::Strict);
    assert_eq!(AdmissionMode::default(), AdmissionMode::Strict);
}

#[test]
fn strict_fails_the_batch_for_each_error_class() {
    let mut cases = fatal_cases();
    cases.push((
        "unsupported dialect",
        vec![tool("ok"), draft07("bad")],
        |p: &ToolProblem| {
            p.schema_error()
                .is_some_and(|e| e.class() == ErrorClass::UnsupportedCapability)
        },
    ));
    for (what, tools, expected) in cases {
        let err = admit_batch(tools, authority(), &strict()).unwrap_err();
        let diagnostic = tool_error(&err);
        assert!(expected(diagnostic.problem()), "{what}: {err}");
        if !what.ends_with(" name") || what == "duplicate name" {
            assert_eq!(diagnostic.name(), "bad", "{what}");
        }
        assert!(!diagnostic.revision().is_empty() || what.ends_with("revision"));
    }
}

#[test]
fn strict_error_names_the_tool_revision_and_original_error() {
    let tools = vec![tool("first"), draft07("legacy")];
    let err = admit_batch(tools, authority(), &strict()).unwrap_err();
    let diagnostic = tool_error(&err);
    assert_eq!(diagnostic.name(), "legacy");
    assert_eq!(diagnostic.revision(), "r7");
    assert_eq!(diagnostic.index(), 1);
    let original = diagnostic.problem().schema_error().unwrap();
    assert_eq!(original.class(), ErrorClass::UnsupportedCapability);
    assert_eq!(original.failures()[0].keyword(), "$schema");
    let text = err.to_string();
    assert!(text.contains("legacy") && text.contains("r7"), "{text}");
    let source = std::error::Error::source(&err).unwrap();
    assert_eq!(source.to_string(), original.to_string());
}

#[test]
fn strict_fails_on_execution_failure() {
    let options = strict().schema_options(Options::new().limits(Limits::new().max_schema_depth(3)));
    let deep = json!({"properties": {"a": {"properties": {"b": {"properties": {"c": {}}}}}}});
    let tools = vec![ToolDescriptor::new("deep", "1", deep).backend("b")];
    let err = admit_batch(tools.clone(), authority(), &options).unwrap_err();
    let class = tool_error(&err).problem().schema_error().unwrap().class();
    assert_eq!(class, ErrorClass::ExecutionFailure);
    let err =
        admit_batch(tools, authority(), &options.mode(AdmissionMode::Quarantine)).unwrap_err();
    assert_eq!(tool_error(&err).name(), "deep");
}

#[test]
fn quarantine_keeps_every_other_error_fatal() {
    for (what, tools, expected) in fatal_cases() {
        let err = admit_batch(tools, authority(), &quarantine()).unwrap_err();
        assert!(expected(tool_error(&err).problem()), "{what}: {err}");
    }
}

#[test]
fn quarantine_omits_only_unsupported_capability() {
    let draft04 = ToolDescriptor::new(
        "older",
        "r4",
        json!({"$schema": "http://json-schema.org/draft-04/schema#", "type": "object"}),
    )
    .backend("legacy");
    let tools = vec![tool("a"), draft07("legacy"), tool("b"), draft04];
    let bundle = admit_batch(tools, authority(), &quarantine()).unwrap();
    assert_eq!(names(&bundle), ["a", "b"]);
    let rejected: Vec<_> = bundle
        .rejected()
        .iter()
        .map(|d| (d.name(), d.revision(), d.index()))
        .collect();
    assert_eq!(rejected, [("legacy", "r7", 1), ("older", "r4", 3)]);
    for diagnostic in bundle.rejected() {
        let error = diagnostic.problem().schema_error().unwrap();
        assert_eq!(error.class(), ErrorClass::UnsupportedCapability);
    }
}

#[test]
fn duplicate_names_are_fatal_even_when_the_first_is_quarantined() {
    let tools = vec![draft07("same"), tool("same")];
    let err = admit_batch(tools.clone(), authority(), &quarantine()).unwrap_err();
    let diagnostic = tool_error(&err);
    assert_eq!(diagnostic.index(), 1);
    assert!(matches!(
        diagnostic.problem(),
        ToolProblem::DuplicateName { first_index: 0 }
    ));
    // Strict mode stops at the first problem, the unsupported schema.
    let err = admit_batch(tools, authority(), &strict()).unwrap_err();
    assert_eq!(tool_error(&err).index(), 0);
}

#[test]
fn authority_errors_are_fatal_in_both_modes() {
    type Expected = fn(&AuthorityError) -> bool;
    let cases: Vec<(Authority, Expected)> = vec![
        (
            authority().grant("a").grant("nowhere"),
            |e| matches!(e, AuthorityError::UnknownGrant { grant } if grant == "nowhere"),
        ),
        (authority().grant("bad name"), |e| {
            matches!(e, AuthorityError::MalformedGrant { .. })
        }),
        (authority().grant(""), |e| {
            matches!(
                e,
                AuthorityError::MalformedGrant {
                    problem: NameProblem::Empty,
                    ..
                }
            )
        }),
        (Authority::new("", "run-1"), |e| {
            matches!(e, AuthorityError::MissingCaller)
        }),
        (Authority::new("alice", " "), |e| {
            matches!(e, AuthorityError::MissingRun)
        }),
    ];
    for (authority, expected) in cases {
        for (options, tools) in [
            (strict(), vec![tool("a"), tool("legacy")]),
            (quarantine(), vec![tool("a"), draft07("legacy")]),
        ] {
            let err = admit_batch(tools, authority.clone(), &options).unwrap_err();
            let error = err.authority().unwrap_or_else(|| panic!("{err}"));
            assert!(expected(error), "{error}");
        }
    }
}

#[test]
fn a_grant_for_a_quarantined_tool_is_not_an_error_but_is_removed() {
    let authority = Authority::new("alice", "run-9")
        .grant("legacy")
        .grant("b")
        .grant("a")
        .attribute("tenant", "acme")
        .attribute("scope", "read");
    let tools = vec![tool("a"), draft07("legacy"), tool("b"), tool("ungranted")];
    let bundle = admit_batch(tools, authority.clone(), &quarantine()).unwrap();
    let narrowed = bundle.authority();
    assert_eq!(narrowed.grants(), ["b", "a"]);
    assert_eq!(narrowed.caller(), "alice");
    assert_eq!(narrowed.run(), "run-9");
    assert_eq!(narrowed.attributes(), authority.attributes());
    assert_eq!(narrowed.get_attribute("tenant"), Some("acme"));
    assert!(!narrowed.is_granted("ungranted"));
    assert_eq!(names(&bundle), ["a", "b", "ungranted"]);
}

#[test]
fn every_bundle_field() {
    let with_order = json!({
        "type": "object",
        "$defs": {"n": {"type": "integer"}},
        "properties": {"n": {"$ref": "#/$defs/n"}},
        "additionalProperties": false,
    });
    let tools = vec![
        ToolDescriptor::new("zeta", "z1", with_order.clone())
            .description("last letter")
            .backend("server-z")
            .metadata("owner", json!("team-z"))
            .metadata("cost", json!(3)),
        draft07("legacy"),
        ToolDescriptor::new("alpha", "a1", object_schema()).backend("server-a"),
    ];
    let bundle = admit_batch(
        tools,
        authority().grant("zeta").grant("legacy"),
        &quarantine(),
    )
    .unwrap();

    // registry
    let registry = bundle.registry();
    assert_eq!(registry.len(), 2);
    assert!(!registry.is_empty());
    assert!(registry.contains("zeta") && registry.contains("alpha"));
    assert!(!registry.contains("legacy"));
    let zeta = registry.get("zeta").unwrap();
    assert_eq!(zeta.name(), "zeta");
    assert_eq!(zeta.revision(), "z1");
    assert_eq!(zeta.index(), 0);
    assert_eq!(zeta.description(), Some("last letter"));
    assert_eq!(zeta.backend().as_str(), "server-z");
    assert_eq!(zeta.metadata()["owner"], "team-z");
    assert_eq!(zeta.metadata()["cost"], 3);
    assert_eq!(zeta.input_schema(), &with_order);
    assert!(!zeta.is_compiled());
    assert!(zeta.validator().is_valid(&json!({"n": 1})));
    assert!(!zeta.validator().is_valid(&json!({"n": "1"})));
    assert!(
        registry
            .validator("alpha")
            .unwrap()
            .is_valid(&json!({"query": "q"}))
    );
    let order: Vec<_> = registry.iter().map(|t| t.name()).collect();
    assert_eq!(order, ["zeta", "alpha"]);

    // provider tools
    let provider = bundle.provider_tools();
    assert_eq!(provider.len(), 2);
    assert_eq!(provider.as_slice()[0].name(), "zeta");
    assert_eq!(provider.as_slice()[0].input_schema(), &with_order);
    assert_eq!(provider.as_slice()[1].description(), None);
    assert_eq!(
        provider.to_json(),
        json!({"tools": [
            {"name": "zeta", "description": "last letter", "inputSchema": with_order},
            {"name": "alpha", "inputSchema": object_schema()},
        ]})
    );
    let shown = provider.to_json().to_string();
    for host_only in ["legacy", "server-z", "team-z", "draft-07", "r7", "z1"] {
        assert!(
            !shown.contains(host_only),
            "{host_only} leaked into {shown}"
        );
    }

    // authority, accepted, rejected
    assert_eq!(bundle.authority().grants(), ["zeta"]);
    assert_eq!(names(&bundle), ["zeta", "alpha"]);
    assert_eq!(bundle.rejected().len(), 1);
    assert_eq!(bundle.rejected()[0].name(), "legacy");
    assert!(bundle.rejected()[0].to_string().contains("r7"));
}

#[test]
fn input_order_is_kept() {
    let order = ["m", "c", "x", "a", "k"];
    let tools: Vec<_> = order
        .iter()
        .enumerate()
        .flat_map(|(i, n)| [tool(n), draft07(&format!("old{i}"))])
        .collect();
    let bundle = admit_batch(tools, authority(), &quarantine()).unwrap();
    assert_eq!(names(&bundle), order);
    let shown: Vec<_> = bundle.provider_tools().iter().map(|t| t.name()).collect();
    assert_eq!(shown, order);
    let rejected: Vec<_> = bundle.rejected().iter().map(|d| d.name()).collect();
    assert_eq!(rejected, ["old0", "old1", "old2", "old3", "old4"]);
}

#[test]
fn empty_batch() {
    for options in [strict(), quarantine()] {
        let bundle = admit_batch(Vec::new(), authority().attribute("k", "v"), &options).unwrap();
        assert!(bundle.registry().is_empty());
        assert!(bundle.provider_tools().is_empty());
        assert_eq!(bundle.provider_tools().to_json(), json!({"tools": []}));
        assert!(bundle.authority().grants().is_empty());
        assert_eq!(bundle.authority().get_attribute("k"), Some("v"));
        assert!(bundle.accepted().is_empty());
        assert!(bundle.rejected().is_empty());
    }
}

#[test]
fn all_rejected_quarantine_batch() {
    let tools = vec![draft07("one"), draft07("two")];
    let bundle = admit_batch(tools, authority().grant("two").grant("one"), &quarantine()).unwrap();
    assert!(bundle.registry().is_empty());
    assert_eq!(bundle.provider_tools().to_json(), json!({"tools": []}));
    assert!(bundle.authority().grants().is_empty());
    assert_eq!(bundle.authority().caller(), "alice");
    assert_eq!(bundle.authority().run(), "run-1");
    assert!(bundle.accepted().is_empty());
    assert_eq!(bundle.rejected().len(), 2);
}

/// A stand-in for a generated validator: accepts only `{"ok": true}` and counts its calls.
struct Compiled {
    calls: AtomicUsize,
}

impl Validate for Compiled {
    fn is_valid(&self, instance: &Value) -> bool {
        self.calls.fetch_add(1, Ordering::SeqCst);
        instance == &json!({"ok": true})
    }

    fn validate(&self, instance: &Value) -> Result<(), Error> {
        if self.is_valid(instance) {
            Ok(())
        } else {
            Err(Error::invalid_instance(vec![Failure::new(
                "/ok",
                "/properties/ok/const",
                None,
                "const",
                "must be exactly true",
            )]))
        }
    }

    fn evaluate(&self, instance: &Value) -> Result<toolschema::Evaluation, Error> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        toolschema::Validator::new(
            &json!({"properties": {"ok": {"const": true}}, "required": ["ok"]}),
        )?
        .evaluate(instance)
    }
}

#[test]
fn a_compiled_validator_is_admitted_and_used() {
    let compiled = Arc::new(Compiled {
        calls: AtomicUsize::new(0),
    });
    let schema = json!({"type": "object", "properties": {"ok": {"const": true}}});
    let tools = vec![
        ToolDescriptor::new("fast", "1", schema.clone())
            .backend("b")
            .compiled(compiled.clone()),
    ];
    let bundle = admit_batch(tools, authority(), &strict()).unwrap();
    let fast = bundle.registry().get("fast").unwrap();
    assert!(fast.is_compiled());
    assert_eq!(fast.input_schema(), &schema);
    assert!(fast.validator().is_valid(&json!({"ok": true})));
    assert!(!fast.validator().is_valid(&json!({"ok": false})));
    assert_eq!(compiled.calls.load(Ordering::SeqCst), 2);
}

#[test]
fn a_compiled_validator_is_subject_to_the_same_schema_rules() {
    let compiled: CompiledValidator = Arc::new(Compiled {
        calls: AtomicUsize::new(0),
    });
    let legacy = draft07("legacy").compiled(compiled.clone());
    let err = admit_batch(vec![legacy.clone()], authority(), &strict()).unwrap_err();
    assert_eq!(
        tool_error(&err).problem().schema_error().unwrap().class(),
        ErrorClass::UnsupportedCapability
    );
    let bundle = admit_batch(vec![legacy], authority(), &quarantine()).unwrap();
    assert_eq!(bundle.rejected()[0].name(), "legacy");

    let invalid = ToolDescriptor::new("bad", "1", json!({"minimum": "zero"}))
        .backend("b")
        .compiled(compiled);
    let err = admit_batch(vec![invalid], authority(), &quarantine()).unwrap_err();
    assert_eq!(
        tool_error(&err).problem().schema_error().unwrap().class(),
        ErrorClass::Validation
    );
}

/// Needs the object-root rule of `InputSchema`: a tool's arguments are always an object, so a
/// schema whose root cannot describe one is a validation error, fatal in both modes.
#[test]
fn object_root_rule_needs_input_schema() {
    let tools = vec![ToolDescriptor::new("s", "1", json!({"type": "string"})).backend("b")];
    for options in [strict(), quarantine()] {
        let err = admit_batch(tools.clone(), authority(), &options).unwrap_err();
        let class = tool_error(&err).problem().schema_error().unwrap().class();
        assert_eq!(class, ErrorClass::Validation);
    }
}

// ---------------------------------------------------------------------------------------------
// The gateway

type Log = Arc<Mutex<Vec<String>>>;

/// Records every hook call; `refuse_at` names the hook that says no.
struct Recorder {
    log: Log,
    refuse_at: Option<&'static str>,
}

impl Recorder {
    fn step(&self, what: &'static str, call: &ToolCall<'_>) -> Result<(), Refusal> {
        self.log
            .lock()
            .unwrap()
            .push(format!("{what} {}", call.name()));
        if self.refuse_at == Some(what) {
            Err(Refusal::new(format!("secret host reason at {what}")))
        } else {
            Ok(())
        }
    }
}

impl Authorizer for Recorder {
    fn authorize(&self, call: &ToolCall<'_>) -> Result<(), Refusal> {
        assert_eq!(call.authority().caller(), "alice");
        self.step("authorize", call)
    }
}

impl Approver for Recorder {
    fn approve(&self, call: &ToolCall<'_>) -> Result<(), Refusal> {
        self.step("approve", call)
    }
}

impl Budget for Recorder {
    fn reserve(&self, call: &ToolCall<'_>) -> Result<(), Refusal> {
        self.step("reserve", call)
    }

    fn release(&self, call: &ToolCall<'_>) {
        self.log
            .lock()
            .unwrap()
            .push(format!("release {}", call.name()));
    }
}

impl IntentLog for Recorder {
    fn publish(&self, call: &ToolCall<'_>) -> Result<(), Refusal> {
        self.step("publish", call)
    }
}

impl Backend for Recorder {
    fn dispatch(&self, call: &ToolCall<'_>) -> Result<Value, Refusal> {
        self.step("dispatch", call)?;
        Ok(
            json!({"echo": call.arguments(), "backend": call.backend().as_str(), "revision": call.revision()}),
        )
    }
}

fn gateway_with(
    refuse_at: Option<&'static str>,
    tools: Vec<ToolDescriptor>,
    authority: Authority,
) -> (Gateway, Log) {
    gateway_with_options(refuse_at, tools, authority, &quarantine())
}

fn gateway_with_options(
    refuse_at: Option<&'static str>,
    tools: Vec<ToolDescriptor>,
    authority: Authority,
    options: &AdmitOptions,
) -> (Gateway, Log) {
    let log: Log = Arc::default();
    let recorder = Arc::new(Recorder {
        log: log.clone(),
        refuse_at,
    });
    let hooks = GatewayHooks::new(
        recorder.clone(),
        recorder.clone(),
        recorder.clone(),
        recorder.clone(),
        recorder,
    );
    let gateway = Gateway::start(tools, authority, options, hooks).unwrap();
    (gateway, log)
}

fn gateway(refuse_at: Option<&'static str>) -> (Gateway, Log) {
    gateway_with(
        refuse_at,
        vec![tool("search"), draft07("legacy"), tool("ungranted")],
        authority().grant("search").grant("legacy"),
    )
}

fn taken(log: &Log) -> Vec<String> {
    std::mem::take(&mut *log.lock().unwrap())
}

#[test]
fn gateway_runs_the_hooks_in_order() {
    let (gateway, log) = gateway(None);
    let result = gateway.call("search", &json!({"query": "rust"})).unwrap();
    assert_eq!(
        result,
        json!({"echo": {"query": "rust"}, "backend": "primary", "revision": "r1"})
    );
    assert_eq!(
        taken(&log),
        [
            "authorize search",
            "approve search",
            "reserve search",
            "publish search",
            "dispatch search"
        ]
    );
}

#[test]
fn no_hook_runs_for_an_unknown_tool_or_invalid_arguments() {
    let (gateway, log) = gateway(None);
    for name in ["nowhere", "legacy"] {
        let err = gateway.call(name, &json!({"query": "rust"})).unwrap_err();
        assert!(matches!(err, CallError::UnknownTool { .. }), "{err}");
    }
    for arguments in [
        json!({}),
        json!({"query": ""}),
        json!("text"),
        json!({"query": "q", "limit": 0}),
    ] {
        let err = gateway.call("search", &arguments).unwrap_err();
        assert!(matches!(err, CallError::InvalidArguments { .. }), "{err}");
    }
    assert!(taken(&log).is_empty());
}

#[test]
fn an_ungranted_tool_is_refused_before_the_authorizer() {
    let (gateway, log) = gateway(None);
    let err = gateway
        .call("ungranted", &json!({"query": "q"}))
        .unwrap_err();
    assert!(matches!(
        err,
        CallError::Refused {
            stage: Stage::Authorization,
            ..
        }
    ));
    assert!(taken(&log).is_empty());
    // Arguments are still checked first.
    let err = gateway.call("ungranted", &json!({})).unwrap_err();
    assert!(matches!(err, CallError::InvalidArguments { .. }));
}

#[test]
fn each_refusal_stops_every_later_hook() {
    let cases = [
        ("authorize", Stage::Authorization, vec!["authorize"]),
        ("approve", Stage::Approval, vec!["authorize", "approve"]),
        (
            "reserve",
            Stage::Budget,
            vec!["authorize", "approve", "reserve"],
        ),
        (
            "publish",
            Stage::Intent,
            vec!["authorize", "approve", "reserve", "publish", "release"],
        ),
        (
            "dispatch",
            Stage::Dispatch,
            vec!["authorize", "approve", "reserve", "publish", "dispatch"],
        ),
    ];
    for (refuse_at, expected_stage, expected_log) in cases {
        let (gateway, log) = gateway(Some(refuse_at));
        let err = gateway.call("search", &json!({"query": "q"})).unwrap_err();
        let CallError::Refused {
            stage,
            refusal,
            tool,
        } = &err
        else {
            panic!("{err}");
        };
        assert_eq!(*stage, expected_stage);
        assert_eq!(tool, "search");
        assert!(refusal.reason().contains(refuse_at));
        let expected: Vec<_> = expected_log.iter().map(|s| format!("{s} search")).collect();
        assert_eq!(taken(&log), expected);
        // The host's reason stays with the host.
        let shown = format!("{}{}", err.to_tool_result(), err.to_jsonrpc_error());
        assert!(!shown.contains("secret"), "{shown}");
        assert_eq!(err.to_tool_result()["isError"], true);
        assert_eq!(
            err.to_jsonrpc_error()["data"]["stage"],
            expected_stage.as_str()
        );
    }
}

#[test]
fn the_gateway_uses_a_compiled_validator() {
    let compiled = Arc::new(Compiled {
        calls: AtomicUsize::new(0),
    });
    let schema = json!({"type": "object", "properties": {"ok": {"const": true}}});
    let tools = vec![
        ToolDescriptor::new("fast", "1", schema)
            .backend("b")
            .compiled(compiled.clone()),
    ];
    let (gateway, log) = gateway_with(None, tools, authority().grant("fast"));
    let err = gateway.call("fast", &json!({"ok": false})).unwrap_err();
    assert!(err.text().contains("/ok"));
    assert!(taken(&log).is_empty());
    gateway.call("fast", &json!({"ok": true})).unwrap();
    assert_eq!(taken(&log).len(), 5);
    assert_eq!(compiled.calls.load(Ordering::SeqCst), 2);
}

#[test]
fn invalid_arguments_render_as_a_tool_result() {
    let (gateway, _) = gateway(None);
    let err = gateway.call("search", &json!({"limit": 0})).unwrap_err();
    let result = err.to_tool_result();
    assert_eq!(result["isError"], true);
    assert_eq!(result["content"].as_array().unwrap().len(), 1);
    assert_eq!(result["content"][0]["type"], "text");
    let text = result["content"][0]["text"].as_str().unwrap();
    let CallError::InvalidArguments { error, .. } = &err else {
        panic!("{err}");
    };
    assert_eq!(error.failures().len(), 2);
    for failure in error.failures() {
        let at = if failure.instance_location().is_empty() {
            "(root)"
        } else {
            failure.instance_location()
        };
        assert!(
            text.contains(&format!(
                "{at}: {} ({})",
                failure.message(),
                failure.keyword()
            )),
            "{text}"
        );
    }
    assert!(text.contains("search"));
    assert_eq!(text.lines().count(), 3, "{text}");
}

#[test]
fn invalid_arguments_render_as_a_jsonrpc_error() {
    let (gateway, _) = gateway(None);
    let err = gateway
        .call("search", &json!({"query": "", "limit": 0}))
        .unwrap_err();
    let rpc = err.to_jsonrpc_error();
    assert_eq!(rpc["code"], -32602);
    assert_eq!(rpc["data"]["tool"], "search");
    assert_eq!(rpc["data"]["class"], "Validation");
    assert_eq!(rpc["data"]["text"], err.text());
    let mut errors: Vec<_> = rpc["data"]["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["instanceLocation"].as_str().unwrap(),
                e["keyword"].as_str().unwrap(),
                e["keywordLocation"].as_str().unwrap(),
            )
        })
        .collect();
    errors.sort();
    assert_eq!(
        errors,
        [
            ("/limit", "minimum", "/properties/limit/minimum"),
            ("/query", "minLength", "/properties/query/minLength")
        ]
    );
    for e in rpc["data"]["errors"].as_array().unwrap() {
        assert!(!e["message"].as_str().unwrap().is_empty());
    }
}

#[test]
fn renderings_carry_no_host_only_data() {
    let schema = json!({
        "$id": "https://internal.corp.example/schemas/secret-path/search.json",
        "type": "object",
        "properties": {"query": {"type": "string"}},
    });
    let tools = vec![
        ToolDescriptor::new("search", "rev-internal", schema)
            .backend("backend-internal")
            .metadata("owner", json!("owner-internal")),
        draft07("legacy"),
    ];
    let (gateway, _) = gateway_with(None, tools, authority().grant("search"));
    let err = gateway.call("search", &json!({"query": 1})).unwrap_err();
    let CallError::InvalidArguments { error, .. } = &err else {
        panic!("{err}");
    };
    assert!(
        error.failures()[0]
            .absolute_keyword_location()
            .is_some_and(|a| a.contains("internal"))
    );
    let shown = format!("{}{}", err.to_tool_result(), err.to_jsonrpc_error());
    assert!(!shown.contains("internal"), "{shown}");

    // A refused tool reads exactly like one that never existed.
    let quarantined = gateway.call("legacy", &json!({})).unwrap_err();
    let missing = gateway.call("lagacy", &json!({})).unwrap_err();
    assert_eq!(
        quarantined
            .to_tool_result()
            .to_string()
            .replace("legacy", "NAME"),
        missing
            .to_tool_result()
            .to_string()
            .replace("lagacy", "NAME")
    );
    assert_eq!(
        quarantined
            .to_jsonrpc_error()
            .to_string()
            .replace("legacy", "NAME"),
        missing
            .to_jsonrpc_error()
            .to_string()
            .replace("lagacy", "NAME")
    );
    assert_eq!(missing.to_jsonrpc_error()["code"], -32602);
    assert!(!quarantined.to_tool_result().to_string().contains("draft"));
}

#[test]
fn a_failed_strict_update_leaves_the_previous_catalog() {
    let (gateway, log) = gateway(None);
    let before = gateway.bundle();
    let broken = vec![
        tool("search"),
        draft07("legacy"),
        tool("ungranted"),
        tool("new"),
    ];
    let err = gateway
        .update_catalog(broken, AdmissionMode::Strict)
        .unwrap_err();
    assert_eq!(tool_error(&err).name(), "legacy");
    assert!(Arc::ptr_eq(&before, &gateway.bundle()));
    assert!(matches!(
        gateway.call("new", &json!({"query": "q"})),
        Err(CallError::UnknownTool { .. })
    ));
    gateway.call("search", &json!({"query": "q"})).unwrap();
    assert_eq!(taken(&log).len(), 5);

    // A fatal error in quarantine mode leaves it in place too.
    let err = gateway
        .update_catalog(
            vec![tool("search"), tool("search")],
            AdmissionMode::Quarantine,
        )
        .unwrap_err();
    assert!(matches!(
        tool_error(&err).problem(),
        ToolProblem::DuplicateName { .. }
    ));
    assert!(Arc::ptr_eq(&before, &gateway.bundle()));

    // So does an authority that no longer fits: "legacy" is granted but missing here.
    let err = gateway
        .update_catalog(vec![tool("search")], AdmissionMode::Strict)
        .unwrap_err();
    assert!(err.authority().is_some());
    assert!(Arc::ptr_eq(&before, &gateway.bundle()));
}

#[test]
fn a_successful_update_replaces_the_catalog() {
    let (gateway, _) = gateway(None);
    assert!(!gateway.bundle().authority().is_granted("legacy"));
    let fixed = ToolDescriptor::new("legacy", "r8", object_schema()).backend("legacy");
    let bundle = gateway
        .update_catalog(vec![fixed, tool("search")], AdmissionMode::Strict)
        .unwrap();
    assert!(Arc::ptr_eq(&bundle, &gateway.bundle()));
    assert_eq!(names(&bundle), ["legacy", "search"]);
    // The grant withheld while the tool was quarantined comes back with the fixed revision.
    assert_eq!(bundle.authority().grants(), ["search", "legacy"]);
    let result = gateway.call("legacy", &json!({"query": "q"})).unwrap();
    assert_eq!(result["revision"], "r8");
    assert!(matches!(
        gateway.call("ungranted", &json!({"query": "q"})),
        Err(CallError::UnknownTool { .. })
    ));

    let bundle = gateway
        .update_catalog_with_authority(
            vec![tool("other")],
            authority().grant("other"),
            AdmissionMode::Quarantine,
        )
        .unwrap();
    assert_eq!(names(&bundle), ["other"]);
    gateway.call("other", &json!({"query": "q"})).unwrap();
}

#[test]
fn updates_and_calls_from_many_threads() {
    let (gateway, _) = gateway(None);
    let gateway = Arc::new(gateway);
    let handles: Vec<_> = (0..4)
        .map(|i| {
            let gateway = gateway.clone();
            std::thread::spawn(move || {
                for _ in 0..20 {
                    if i % 2 == 0 {
                        let _ = gateway.update_catalog(
                            vec![tool("search"), draft07("legacy"), tool("ungranted")],
                            AdmissionMode::Quarantine,
                        );
                        assert!(
                            gateway
                                .update_catalog(vec![tool("search")], AdmissionMode::Strict)
                                .is_err()
                        );
                    } else {
                        gateway.call("search", &json!({"query": "q"})).unwrap();
                    }
                }
            })
        })
        .collect();
    for handle in handles {
        handle.join().unwrap();
    }
    assert_eq!(names(&gateway.bundle()), ["search", "ungranted"]);
}

#[test]
fn arguments_past_a_limit_are_not_dispatched() {
    let options =
        quarantine().schema_options(Options::new().limits(Limits::new().max_argument_depth(2)));
    let (gateway, log) = gateway_with_options(
        None,
        vec![tool("search")],
        authority().grant("search"),
        &options,
    );
    let deep = json!({"query": "q", "nested": {"a": {"b": {"c": 1}}}});
    let err = gateway.call("search", &deep).unwrap_err();
    let CallError::InvalidArguments { error, .. } = &err else {
        panic!("{err}");
    };
    assert_eq!(error.class(), ErrorClass::ExecutionFailure);
    assert!(
        err.text()
            .starts_with("The arguments for tool search could not be checked:")
    );
    assert_eq!(err.to_jsonrpc_error()["data"]["class"], "ExecutionFailure");
    assert!(taken(&log).is_empty());
}

#[test]
fn the_catalog_types_cross_threads() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<Gateway>();
    send_sync::<AdmittedBundle>();
    send_sync::<ToolDescriptor>();
    send_sync::<AdmissionError>();
    send_sync::<CallError>();
}

/// A tool whose arguments are one of several actions, told apart by `action`.
fn files_tool() -> ToolDescriptor {
    ToolDescriptor::new(
        "files",
        "r1",
        json!({
            "type": "object",
            "required": ["action"],
            "oneOf": [
                {"properties": {"action": {"const": "read"}, "path": {"type": "string"}}, "required": ["path"]},
                {"properties": {"action": {"const": "write"}, "path": {"type": "string"}, "content": {"type": "string"}}, "required": ["path", "content"]},
                {"properties": {"action": {"enum": ["delete", "remove"]}, "path": {"type": "string"}}, "required": ["path"]}
            ]
        }),
    )
    .backend("b")
}

#[test]
fn a_failed_one_of_is_rendered_with_what_the_chosen_branch_needs() {
    let bundle = admit_batch(
        vec![files_tool()],
        Authority::new("alice", "run-1"),
        &AdmitOptions::new(),
    )
    .unwrap();
    let err = bundle
        .check_call("files", &json!({"action": "write", "path": 7}))
        .unwrap_err();
    // Only the branch the call chose is shown: the others fail on `action` itself.
    assert_eq!(
        err.text(),
        "Invalid arguments for tool files; fix these and call again:\n\
         - (root): matches none of the alternatives in `oneOf` (oneOf)\n  \
         - alternative 1:\n    \
         - /path: expected a string, found a number (type)\n    \
         - (root): missing required property \"content\" (required)"
    );
    let rpc = err.to_jsonrpc_error();
    let branches = &rpc["data"]["errors"][0]["alternatives"];
    assert_eq!(branches[0]["index"], 1);
    assert_eq!(branches[0]["errors"][1]["keyword"], "required");
    assert_eq!(err.to_tool_result()["content"][0]["text"], err.text());

    // An `action` no branch knows: every branch is shown, each saying what it allows.
    let err = bundle
        .check_call("files", &json!({"action": "copy", "path": "a"}))
        .unwrap_err();
    let text = err.text();
    assert!(
        text.contains("- alternative 0: /action: must be exactly \"read\" (const)"),
        "{text}"
    );
    assert!(
        text.contains("- alternative 2: /action: must be one of: \"delete\", \"remove\" (enum)"),
        "{text}"
    );
    let CallError::InvalidArguments { alternatives, .. } = &err else {
        panic!("invalid arguments");
    };
    assert_eq!(alternatives[0].branches().len(), 3);
}

#[test]
fn failures_without_alternatives_render_as_before() {
    let bundle = admit_batch(
        vec![tool("t")],
        Authority::new("a", "r"),
        &AdmitOptions::new(),
    )
    .unwrap();
    let err = bundle.check_call("t", &json!({})).unwrap_err();
    let CallError::InvalidArguments { alternatives, .. } = &err else {
        panic!("invalid arguments");
    };
    assert!(alternatives.is_empty());
    assert!(!err.text().contains("alternative"));
}
