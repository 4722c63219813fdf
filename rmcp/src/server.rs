//! The server side: a `ToolRouter` whose routes check their arguments before the handler runs.

use crate::check_arguments;
use crate::render::{invalid_output, tool_result};
use crate::typed::CheckedBy;
use rmcp::handler::server::tool::{ToolCallContext, ToolRoute, ToolRouter};
use rmcp::model::{CallToolResponse, CallToolResult};
use serde_json::Value;
use std::any::TypeId;
use std::collections::BTreeMap;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use toolschema::catalog::{
    AdmissionError, AdmitOptions, AdmittedBundle, Authority, CompiledValidator, ToolDescriptor,
    admit_batch,
};
use toolschema::{Error, Options, Validate, Validator};

/// The backend every server-side tool is admitted under: the routes of this router.
const ROUTER_BACKEND: &str = "rmcp-tool-router";

type RouteFuture<'a> =
    Pin<Box<dyn Future<Output = Result<CallToolResponse, rmcp::ErrorData>> + Send + 'a>>;

/// How a router's tools are checked: schema options, validators compiled at build time, and
/// whether `structuredContent` is checked against `outputSchema`.
///
/// ```
/// use rmcp::handler::server::tool::ToolRouter;
/// use toolschema::Options;
/// use toolschema_rmcp::Validation;
///
/// struct Server;
/// let router: ToolRouter<Server> = ToolRouter::new();
/// let router = Validation::new()
///     .schema_options(Options::new().format_assertion(true))
///     .check_output(true)
///     .apply(router)?;
/// assert!(router.list_all().is_empty());
/// # Ok::<(), toolschema_rmcp::SetupError>(())
/// ```
#[derive(Clone, Default)]
pub struct Validation {
    options: Options,
    compiled: BTreeMap<String, Compiled>,
    check_output: bool,
}

/// A validator compiled at build time, and its type: `Typed` arguments skip validating again
/// what the validator of their own type has passed.
#[derive(Clone)]
struct Compiled {
    validator: CompiledValidator,
    type_id: TypeId,
}

impl Validation {
    /// Interpreted validators with default options, no output checking.
    pub fn new() -> Validation {
        Validation::default()
    }

    /// Sets the options every schema is built with (limits, format and content assertion,
    /// registry documents).
    pub fn schema_options(mut self, options: Options) -> Validation {
        self.options = options;
        self
    }

    /// Checks calls to `tool` with a validator compiled at build time (by `tool_schema!` or a
    /// build script) instead of interpreting the route's `input_schema`. The route's schema is
    /// still checked by the same rules, and should be the one the validator was generated
    /// from: it is what clients are shown.
    ///
    /// ```
    /// use rmcp::handler::server::tool::ToolRouter;
    /// use toolschema_rmcp::Validation;
    ///
    /// // Any `Validate` works; `tool_schema!` generates a unit struct for each schema.
    /// let compiled = toolschema::Validator::new(&serde_json::json!({"type": "object"})).unwrap();
    /// let validation = Validation::new().compiled("ping", compiled);
    /// // No route is named "ping": attaching a validator to nothing is an error.
    /// let err = validation.apply(ToolRouter::<()>::new()).unwrap_err();
    /// assert_eq!(err.to_string(), "a compiled validator is attached to ping, which has no route");
    /// ```
    pub fn compiled<V: Validate + Send + Sync + 'static>(
        mut self,
        tool: impl Into<String>,
        validator: V,
    ) -> Validation {
        let compiled = Compiled {
            validator: Arc::new(validator),
            type_id: TypeId::of::<V>(),
        };
        self.compiled.insert(tool.into(), compiled);
        self
    }

    /// Checks each successful result's `structuredContent` against the tool's
    /// `outputSchema`, for tools that declare one (off by default). A result that lacks it or
    /// does not match is withheld and replaced by a tool error, since MCP requires structured
    /// results to conform.
    pub fn check_output(mut self, on: bool) -> Validation {
        self.check_output = on;
        self
    }

    /// Builds every tool's validators once and rewraps the router's routes so that each call
    /// is checked before its handler runs. The router is changed in place and returned;
    /// disabled routes and the list-changed notifier are kept.
    ///
    /// Input schemas are admitted like a strict catalog (`toolschema::catalog::admit_batch`),
    /// so a schema that would be refused on a host (another draft, an unresolvable
    /// reference, an ill-formed name) is refused here, at construction.
    pub fn apply<S>(&self, mut router: ToolRouter<S>) -> Result<ToolRouter<S>, SetupError>
    where
        S: Send + Sync + 'static,
    {
        if let Some(name) = self
            .compiled
            .keys()
            .find(|name| !router.map.contains_key(name.as_str()))
        {
            return Err(SetupError::NoRoute { tool: name.clone() });
        }
        // Admission order is the name order, so that which problem is reported first does
        // not depend on the router's hash map.
        let mut routes: Vec<&ToolRoute<S>> = router.map.values().collect();
        routes.sort_by(|a, b| a.attr.name.cmp(&b.attr.name));
        let mut outputs = BTreeMap::new();
        let mut descriptors = Vec::with_capacity(routes.len());
        for route in routes {
            let name = route.attr.name.to_string();
            if self.check_output
                && let Some(schema) = &route.attr.output_schema
            {
                let schema = Value::Object(schema.as_ref().clone());
                let validator =
                    Validator::with_options(&schema, &self.options).map_err(|error| {
                        SetupError::OutputSchema {
                            tool: name.clone(),
                            error,
                        }
                    })?;
                outputs.insert(name.clone(), Arc::new(validator));
            }
            let schema = Value::Object(route.attr.input_schema.as_ref().clone());
            let mut descriptor =
                ToolDescriptor::new(name.clone(), "route", schema).backend(ROUTER_BACKEND);
            if let Some(compiled) = self.compiled.get(&name) {
                descriptor = descriptor.compiled(Arc::clone(&compiled.validator));
            }
            descriptors.push(descriptor);
        }
        let options = AdmitOptions::new().schema_options(self.options.clone());
        let authority = Authority::new(ROUTER_BACKEND, ROUTER_BACKEND);
        let bundle = Arc::new(admit_batch(descriptors, authority, &options)?);
        for route in router.map.values_mut() {
            let output = outputs.remove(route.attr.name.as_ref());
            let checked_by = self
                .compiled
                .get(route.attr.name.as_ref())
                .map(|compiled| CheckedBy(compiled.type_id));
            wrap(route, Arc::clone(&bundle), output, checked_by);
        }
        Ok(router)
    }
}

impl fmt::Debug for Validation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Validation")
            .field("options", &self.options)
            .field("compiled", &self.compiled.keys().collect::<Vec<_>>())
            .field("check_output", &self.check_output)
            .finish()
    }
}

/// Turns validation on for a whole router, as the one line a server adds.
///
/// ```
/// use rmcp::handler::server::tool::ToolRouter;
/// use toolschema_rmcp::ValidateTools;
///
/// struct Server { tool_router: ToolRouter<Server> }
/// let server = Server { tool_router: ToolRouter::new().validated()? };
/// # let _ = server.tool_router;
/// # Ok::<(), toolschema_rmcp::SetupError>(())
/// ```
pub trait ValidateTools: Sized {
    /// Every route checks its arguments against its `input_schema`, interpreted, with
    /// default options.
    fn validated(self) -> Result<Self, SetupError>;

    /// Every route checks its arguments as `validation` says.
    fn validated_with(self, validation: &Validation) -> Result<Self, SetupError>;
}

impl<S: Send + Sync + 'static> ValidateTools for ToolRouter<S> {
    fn validated(self) -> Result<Self, SetupError> {
        Validation::new().apply(self)
    }

    fn validated_with(self, validation: &Validation) -> Result<Self, SetupError> {
        validation.apply(self)
    }
}

fn wrap<S>(
    route: &mut ToolRoute<S>,
    bundle: Arc<AdmittedBundle>,
    output: Option<Arc<Validator>>,
    checked_by: Option<CheckedBy>,
) where
    S: Send + Sync + 'static,
{
    let handler = Arc::clone(&route.call);
    let name: Arc<str> = Arc::from(route.attr.name.as_ref());
    *route = ToolRoute::new_dyn(
        route.attr.clone(),
        move |mut context: ToolCallContext<'_, S>| -> RouteFuture<'_> {
            if let Err(error) = check_arguments(&bundle, &name, &mut context.arguments) {
                return Box::pin(std::future::ready(Ok(tool_result(&error).into())));
            }
            if let Some(checked_by) = checked_by {
                context.request_context.extensions.insert(checked_by);
            }
            let handler = Arc::clone(&handler);
            let name = Arc::clone(&name);
            let output = output.clone();
            Box::pin(async move {
                let response = handler(context).await?;
                Ok(match (output, response) {
                    (Some(validator), CallToolResponse::Complete(result)) => {
                        check_output(&name, &validator, result).into()
                    }
                    (_, response) => response,
                })
            })
        },
    );
}

fn check_output(tool: &str, validator: &Validator, result: CallToolResult) -> CallToolResult {
    if result.is_error == Some(true) {
        return result;
    }
    match &result.structured_content {
        None => invalid_output(tool, None),
        Some(content) => match validator.validate(content) {
            Ok(()) => result,
            Err(error) => invalid_output(tool, Some(&error)),
        },
    }
}

/// Why validation could not be turned on. Every variant names the tool.
///
/// ```
/// use toolschema_rmcp::SetupError;
/// let err = SetupError::NoRoute { tool: "serach".into() };
/// assert_eq!(err.tool(), Some("serach"));
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum SetupError {
    /// An input schema was refused, as a strict catalog refuses it.
    Admission(AdmissionError),
    /// An output schema does not build.
    OutputSchema {
        /// The tool.
        tool: String,
        /// The schema error, with its class and location.
        error: Error,
    },
    /// A compiled validator names a tool the router does not have.
    NoRoute {
        /// The name the validator was attached to.
        tool: String,
    },
}

impl SetupError {
    /// The tool at fault, when there is one.
    pub fn tool(&self) -> Option<&str> {
        match self {
            SetupError::Admission(error) => error.tool().map(|diagnostic| diagnostic.name()),
            SetupError::OutputSchema { tool, .. } | SetupError::NoRoute { tool } => Some(tool),
        }
    }
}

impl From<AdmissionError> for SetupError {
    fn from(error: AdmissionError) -> SetupError {
        SetupError::Admission(error)
    }
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::Admission(error) => write!(f, "{error}"),
            SetupError::OutputSchema { tool, error } => {
                write!(f, "the output schema of {tool} is refused: {error}")
            }
            SetupError::NoRoute { tool } => {
                write!(
                    f,
                    "a compiled validator is attached to {tool}, which has no route"
                )
            }
        }
    }
}

impl std::error::Error for SetupError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SetupError::Admission(error) => Some(error),
            SetupError::OutputSchema { error, .. } => Some(error),
            SetupError::NoRoute { .. } => None,
        }
    }
}
