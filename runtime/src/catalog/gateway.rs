//! The gateway: every call is checked against the admitted catalog first, then passed through
//! the host's authorization, approval, budget, intent log and backend, in that order.

use super::admit::{AdmissionError, AdmittedBundle, RegisteredTool, admit_batch};
use super::alternatives::Alternatives;
use super::render;
use super::{AdmissionMode, AdmitOptions, Authority, BackendRef, ToolDescriptor};
use crate::{Error, Validate};
use serde_json::Value;
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError, RwLock};

/// A call that passed validation, as the host's hooks see it. Only the gateway makes one; the
/// [`Gateway`] example shows hooks reading it.
#[derive(Clone, Copy, Debug)]
pub struct ToolCall<'a> {
    tool: &'a RegisteredTool,
    arguments: &'a Value,
    authority: &'a Authority,
}

impl<'a> ToolCall<'a> {
    /// The tool name.
    pub fn name(&self) -> &'a str {
        self.tool.name()
    }

    /// The tool's revision.
    pub fn revision(&self) -> &'a str {
        self.tool.revision()
    }

    /// Where the call goes.
    pub fn backend(&self) -> &'a BackendRef {
        self.tool.backend()
    }

    /// The admitted tool, with its metadata.
    pub fn tool(&self) -> &'a RegisteredTool {
        self.tool
    }

    /// The arguments, already valid against the tool's schema.
    pub fn arguments(&self) -> &'a Value {
        self.arguments
    }

    /// The authority of the catalog the call was made against (already narrowed).
    pub fn authority(&self) -> &'a Authority {
        self.authority
    }
}

/// Why a host hook stopped a call. Host-only: it is kept on the [`CallError`] for the host's
/// logs, and never rendered for the model.
///
/// ```
/// use toolschema::catalog::Refusal;
/// let refusal = Refusal::new("quota for tenant acme exhausted");
/// assert_eq!(refusal.reason(), "quota for tenant acme exhausted");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    reason: String,
}

impl Refusal {
    /// A refusal with the host's reason.
    pub fn new(reason: impl Into<String>) -> Refusal {
        Refusal {
            reason: reason.into(),
        }
    }

    /// The host's reason.
    pub fn reason(&self) -> &str {
        &self.reason
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reason)
    }
}

/// Decides whether the caller may make this call. Runs after the gateway has checked that the
/// tool is granted by the catalog's authority.
///
/// ```
/// use toolschema::catalog::{Authorizer, Refusal, ToolCall};
/// struct TenantOnly;
/// impl Authorizer for TenantOnly {
///     fn authorize(&self, call: &ToolCall<'_>) -> Result<(), Refusal> {
///         match call.authority().get_attribute("tenant") {
///             Some(_) => Ok(()),
///             None => Err(Refusal::new("no tenant")),
///         }
///     }
/// }
/// ```
pub trait Authorizer: Send + Sync {
    /// `Ok(())` to let the call go on.
    fn authorize(&self, call: &ToolCall<'_>) -> Result<(), Refusal>;
}

/// Asks whoever must approve the call (a person, a policy).
///
/// ```
/// use toolschema::catalog::{Approver, Refusal, ToolCall};
/// struct ReadOnly;
/// impl Approver for ReadOnly {
///     fn approve(&self, call: &ToolCall<'_>) -> Result<(), Refusal> {
///         if call.tool().metadata().get("writes").is_some() {
///             Err(Refusal::new("writes need a person to approve"))
///         } else {
///             Ok(())
///         }
///     }
/// }
/// ```
pub trait Approver: Send + Sync {
    /// `Ok(())` if the call is approved.
    fn approve(&self, call: &ToolCall<'_>) -> Result<(), Refusal>;
}

/// Reserves what the call may spend.
///
/// ```
/// use std::sync::atomic::{AtomicU32, Ordering};
/// use toolschema::catalog::{Budget, Refusal, ToolCall};
/// struct Calls(AtomicU32);
/// impl Budget for Calls {
///     fn reserve(&self, _: &ToolCall<'_>) -> Result<(), Refusal> {
///         self.0
///             .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |left| left.checked_sub(1))
///             .map(|_| ())
///             .map_err(|_| Refusal::new("no calls left"))
///     }
///     fn release(&self, _: &ToolCall<'_>) {
///         self.0.fetch_add(1, Ordering::SeqCst);
///     }
/// }
/// ```
pub trait Budget: Send + Sync {
    /// `Ok(())` once the reservation is made.
    fn reserve(&self, call: &ToolCall<'_>) -> Result<(), Refusal>;

    /// Gives back a reservation for a call that was stopped before its intent was published,
    /// so nothing was attempted. Once the intent is published the call may have run, so the
    /// gateway leaves the reservation for the host to settle.
    fn release(&self, call: &ToolCall<'_>) {
        let _ = call;
    }
}

/// Records, durably, that the call is about to be made, so that a crash during dispatch leaves
/// a trace to reconcile.
///
/// ```
/// use std::sync::Mutex;
/// use toolschema::catalog::{IntentLog, Refusal, ToolCall};
/// struct Journal(Mutex<Vec<String>>);
/// impl IntentLog for Journal {
///     fn publish(&self, call: &ToolCall<'_>) -> Result<(), Refusal> {
///         let entry = format!("{} {} {}", call.authority().run(), call.name(), call.arguments());
///         self.0.lock().map_err(|_| Refusal::new("journal unavailable"))?.push(entry);
///         Ok(())
///     }
/// }
/// ```
pub trait IntentLog: Send + Sync {
    /// `Ok(())` once the intent is durable.
    fn publish(&self, call: &ToolCall<'_>) -> Result<(), Refusal>;
}

/// Makes the call.
///
/// ```
/// use serde_json::{json, Value};
/// use toolschema::catalog::{Backend, Refusal, ToolCall};
/// struct Local;
/// impl Backend for Local {
///     fn dispatch(&self, call: &ToolCall<'_>) -> Result<Value, Refusal> {
///         match call.backend().as_str() {
///             "clock" => Ok(json!({"content": [{"type": "text", "text": "12:00"}]})),
///             other => Err(Refusal::new(format!("no backend {other}"))),
///         }
///     }
/// }
/// ```
pub trait Backend: Send + Sync {
    /// The tool's result.
    fn dispatch(&self, call: &ToolCall<'_>) -> Result<Value, Refusal>;
}

/// The host's hooks, called in the order of the arguments of [`GatewayHooks::new`]. The
/// [`Gateway`] example builds one.
#[derive(Clone)]
pub struct GatewayHooks {
    authorizer: Arc<dyn Authorizer>,
    approver: Arc<dyn Approver>,
    budget: Arc<dyn Budget>,
    intents: Arc<dyn IntentLog>,
    backend: Arc<dyn Backend>,
}

impl GatewayHooks {
    /// The hooks, in the order the gateway calls them.
    pub fn new(
        authorizer: Arc<dyn Authorizer>,
        approver: Arc<dyn Approver>,
        budget: Arc<dyn Budget>,
        intents: Arc<dyn IntentLog>,
        backend: Arc<dyn Backend>,
    ) -> GatewayHooks {
        GatewayHooks {
            authorizer,
            approver,
            budget,
            intents,
            backend,
        }
    }
}

impl fmt::Debug for GatewayHooks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GatewayHooks").finish_non_exhaustive()
    }
}

/// Which step stopped a call.
///
/// ```
/// use toolschema::catalog::Stage;
/// assert_eq!(Stage::Budget.as_str(), "budget");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// The tool is not granted, or the [`Authorizer`] refused.
    Authorization,
    /// The [`Approver`] refused.
    Approval,
    /// The [`Budget`] refused.
    Budget,
    /// The [`IntentLog`] could not publish.
    Intent,
    /// The [`Backend`] failed.
    Dispatch,
}

impl Stage {
    /// The stage name used in renderings.
    pub fn as_str(self) -> &'static str {
        match self {
            Stage::Authorization => "authorization",
            Stage::Approval => "approval",
            Stage::Budget => "budget",
            Stage::Intent => "intent",
            Stage::Dispatch => "dispatch",
        }
    }
}

/// Why a call did not produce a result.
///
/// The renderings [`to_tool_result`](CallError::to_tool_result) and
/// [`to_jsonrpc_error`](CallError::to_jsonrpc_error) are meant for the model: argument errors
/// come with every failing location, keyword and expectation so the model can correct its
/// call, and nothing host-only (refusal reasons, absolute schema URIs, admission diagnostics)
/// is included. An unknown tool and a tool the host refused to admit read the same.
///
/// ```
/// use toolschema::catalog::CallError;
/// let err = CallError::UnknownTool { name: "serach".into() };
/// assert_eq!(err.to_tool_result()["content"][0]["text"], "Unknown tool: serach");
/// assert_eq!(err.to_jsonrpc_error()["code"], -32602);
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum CallError {
    /// No admitted tool has this name.
    UnknownTool {
        /// The name the caller used.
        name: String,
    },
    /// The arguments do not satisfy the tool's schema (or could not be checked).
    InvalidArguments {
        /// The tool.
        tool: String,
        /// The validator's error, with every failure.
        error: Error,
        /// For each failed `anyOf` and `oneOf`, what its branches would need.
        alternatives: Vec<Alternatives>,
    },
    /// A host hook stopped the call.
    Refused {
        /// The tool.
        tool: String,
        /// Which step.
        stage: Stage,
        /// The host's reason (host-only).
        refusal: Refusal,
    },
}

impl CallError {
    /// The error of arguments that `validator` rejected with `error`, with the
    /// [`Alternatives`] of every failed `anyOf` and `oneOf` (which an evaluation of
    /// `arguments` finds; a call without such failures costs nothing more).
    ///
    /// ```
    /// use serde_json::json;
    /// use toolschema::catalog::CallError;
    /// use toolschema::{Validate, Validator};
    ///
    /// let v = Validator::new(&json!({"anyOf": [{"required": ["id"]}, {"required": ["name"]}]})).unwrap();
    /// let call = json!({});
    /// let error = v.validate(&call).unwrap_err();
    /// let err = CallError::invalid_arguments("lookup", &v, &call, error);
    /// assert!(err.text().contains("alternative 1: (root): missing required property \"name\""));
    /// ```
    pub fn invalid_arguments(
        tool: &str,
        validator: &dyn Validate,
        arguments: &Value,
        error: Error,
    ) -> CallError {
        CallError::InvalidArguments {
            tool: tool.to_owned(),
            alternatives: Alternatives::of(validator, arguments, &error),
            error,
        }
    }

    /// The text shown to the model.
    pub fn text(&self) -> String {
        render::text(self)
    }

    /// An MCP `tools/call` result reporting the error:
    /// `{"content": [{"type": "text", "text": …}], "isError": true}`.
    pub fn to_tool_result(&self) -> Value {
        render::tool_result(self)
    }

    /// A JSON-RPC error object. Unknown tools and invalid arguments are `-32602` (Invalid
    /// params), the latter with every failure under `data.errors`; calls the host stopped are
    /// `-32000` with only the stage under `data`.
    pub fn to_jsonrpc_error(&self) -> Value {
        render::jsonrpc_error(self)
    }
}

impl fmt::Display for CallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CallError::Refused {
                tool,
                stage,
                refusal,
            } => write!(f, "call to {tool} stopped at {}: {refusal}", stage.as_str()),
            _ => f.write_str(&self.text()),
        }
    }
}

impl std::error::Error for CallError {}

struct State {
    // Kept as given, so that later updates are narrowed from the full grant set and a tool
    // quarantined once gets its grant back when a fixed revision is admitted.
    authority: Authority,
    bundle: Arc<AdmittedBundle>,
}

/// Checks calls against the admitted catalog, then hands them to the host's hooks.
///
/// ```
/// use std::sync::Arc;
/// use serde_json::{json, Value};
/// use toolschema::catalog::*;
///
/// struct Allow;
/// impl Authorizer for Allow { fn authorize(&self, _: &ToolCall<'_>) -> Result<(), Refusal> { Ok(()) } }
/// impl Approver for Allow { fn approve(&self, _: &ToolCall<'_>) -> Result<(), Refusal> { Ok(()) } }
/// impl Budget for Allow { fn reserve(&self, _: &ToolCall<'_>) -> Result<(), Refusal> { Ok(()) } }
/// impl IntentLog for Allow { fn publish(&self, _: &ToolCall<'_>) -> Result<(), Refusal> { Ok(()) } }
/// struct Echo;
/// impl Backend for Echo {
///     fn dispatch(&self, call: &ToolCall<'_>) -> Result<Value, Refusal> { Ok(call.arguments().clone()) }
/// }
///
/// let allow = Arc::new(Allow);
/// let hooks = GatewayHooks::new(allow.clone(), allow.clone(), allow.clone(), allow, Arc::new(Echo));
/// let tools = vec![ToolDescriptor::new("echo", "1", json!({
///     "type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"],
/// })).backend("local")];
/// let authority = Authority::new("alice", "run-1").grant("echo");
/// let gateway = Gateway::start(tools, authority, &AdmitOptions::new(), hooks)?;
///
/// assert_eq!(gateway.call("echo", &json!({"text": "hi"})).unwrap(), json!({"text": "hi"}));
/// let err = gateway.call("echo", &json!({"text": 5})).unwrap_err();
/// assert_eq!(err.to_tool_result()["isError"], true);
/// assert_eq!(err.to_jsonrpc_error()["code"], -32602);
/// # Ok::<(), AdmissionError>(())
/// ```
pub struct Gateway {
    hooks: GatewayHooks,
    options: AdmitOptions,
    state: RwLock<Arc<State>>,
    // Serializes updates, so one that reads the current authority cannot overwrite an
    // authority replaced meanwhile; calls only take the read lock and never wait for it.
    updating: Mutex<()>,
}

impl Gateway {
    /// Admits the batch with [`admit_batch`] and starts a gateway over the result.
    pub fn start(
        tools: Vec<ToolDescriptor>,
        authority: Authority,
        options: &AdmitOptions,
        hooks: GatewayHooks,
    ) -> Result<Gateway, AdmissionError> {
        let bundle = admit_batch(tools, authority.clone(), options)?;
        Ok(Gateway {
            hooks,
            options: options.clone(),
            state: RwLock::new(Arc::new(State {
                authority,
                bundle: Arc::new(bundle),
            })),
            updating: Mutex::new(()),
        })
    }

    fn current(&self) -> Arc<State> {
        // Writers only ever swap in a complete state, so a panic elsewhere cannot have left a
        // half-made one behind: a poisoned lock still holds a consistent catalog.
        Arc::clone(&self.state.read().unwrap_or_else(PoisonError::into_inner))
    }

    /// The catalog calls are currently checked against.
    pub fn bundle(&self) -> Arc<AdmittedBundle> {
        Arc::clone(&self.current().bundle)
    }

    /// Replaces the catalog with a new batch, admitted with [`admit_batch`] under the authority
    /// the gateway was started (or last updated) with, in `mode`, with the gateway's schema
    /// options. On error the previous catalog stays in place, whole.
    pub fn update_catalog(
        &self,
        tools: Vec<ToolDescriptor>,
        mode: AdmissionMode,
    ) -> Result<Arc<AdmittedBundle>, AdmissionError> {
        let _updating = self.updating.lock().unwrap_or_else(PoisonError::into_inner);
        let authority = self.current().authority.clone();
        self.replace(tools, authority, mode)
    }

    /// Like [`update_catalog`](Gateway::update_catalog), replacing the authority too.
    pub fn update_catalog_with_authority(
        &self,
        tools: Vec<ToolDescriptor>,
        authority: Authority,
        mode: AdmissionMode,
    ) -> Result<Arc<AdmittedBundle>, AdmissionError> {
        let _updating = self.updating.lock().unwrap_or_else(PoisonError::into_inner);
        self.replace(tools, authority, mode)
    }

    fn replace(
        &self,
        tools: Vec<ToolDescriptor>,
        authority: Authority,
        mode: AdmissionMode,
    ) -> Result<Arc<AdmittedBundle>, AdmissionError> {
        let options = self.options.clone().mode(mode);
        let bundle = Arc::new(admit_batch(tools, authority.clone(), &options)?);
        let state = Arc::new(State {
            authority,
            bundle: Arc::clone(&bundle),
        });
        *self.state.write().unwrap_or_else(PoisonError::into_inner) = state;
        Ok(bundle)
    }

    /// Calls a tool.
    ///
    /// The arguments are checked against the tool's validator before anything else: no hook
    /// runs for an unknown tool or invalid arguments. Then, in order: the tool must be granted
    /// by the catalog's authority, and the [`Authorizer`], [`Approver`], [`Budget`],
    /// [`IntentLog`] and [`Backend`] run, each only if the one before let the call through.
    /// The call runs against the catalog current when it started, even if an update lands
    /// meanwhile.
    pub fn call(&self, name: &str, arguments: &Value) -> Result<Value, CallError> {
        let state = self.current();
        let bundle = &state.bundle;
        let tool = bundle.check_call(name, arguments)?;

        let call = ToolCall {
            tool,
            arguments,
            authority: bundle.authority(),
        };
        let refused = |stage: Stage| {
            move |refusal: Refusal| CallError::Refused {
                tool: name.to_string(),
                stage,
                refusal,
            }
        };
        if !call.authority.is_granted(name) {
            return Err(refused(Stage::Authorization)(Refusal::new(format!(
                "{name} is not granted to {} in run {}",
                call.authority.caller(),
                call.authority.run()
            ))));
        }
        let hooks = &self.hooks;
        hooks
            .authorizer
            .authorize(&call)
            .map_err(refused(Stage::Authorization))?;
        hooks
            .approver
            .approve(&call)
            .map_err(refused(Stage::Approval))?;
        hooks
            .budget
            .reserve(&call)
            .map_err(refused(Stage::Budget))?;
        if let Err(refusal) = hooks.intents.publish(&call) {
            hooks.budget.release(&call);
            return Err(refused(Stage::Intent)(refusal));
        }
        hooks
            .backend
            .dispatch(&call)
            .map_err(refused(Stage::Dispatch))
    }
}

impl AdmittedBundle {
    /// Checks one call against this catalog, as [`Gateway::call`] does before any hook runs:
    /// the tool must have been admitted, and the arguments must satisfy its schema. For hosts
    /// that send calls on their own (over an MCP client, say) and want the same
    /// model-correctable errors.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolschema::catalog::{admit_batch, AdmitOptions, Authority, CallError, ToolDescriptor};
    /// let tools = vec![ToolDescriptor::new("echo", "1", json!({"required": ["text"]})).backend("b")];
    /// let bundle = admit_batch(tools, Authority::new("alice", "run-1"), &AdmitOptions::new()).unwrap();
    /// assert_eq!(bundle.check_call("echo", &json!({"text": "hi"})).unwrap().name(), "echo");
    /// let err = bundle.check_call("echo", &json!({})).unwrap_err();
    /// assert!(matches!(err, CallError::InvalidArguments { .. }));
    /// assert_eq!(err.to_tool_result()["isError"], true);
    /// assert!(matches!(bundle.check_call("ehco", &json!({})), Err(CallError::UnknownTool { .. })));
    /// ```
    pub fn check_call(&self, name: &str, arguments: &Value) -> Result<&RegisteredTool, CallError> {
        let Some(tool) = self.registry().get(name) else {
            return Err(CallError::UnknownTool {
                name: name.to_string(),
            });
        };
        let validator = tool.validator();
        validator
            .validate(arguments)
            .map_err(|error| CallError::invalid_arguments(name, validator, arguments, error))?;
        Ok(tool)
    }
}

impl fmt::Debug for Gateway {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Gateway")
            .field("accepted", &self.bundle().accepted())
            .finish_non_exhaustive()
    }
}
