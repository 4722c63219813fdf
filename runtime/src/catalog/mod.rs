//! The tool catalog: admitting a batch of tools at once, and the [`Gateway`] that checks every
//! call against the admitted catalog before the host acts on it.
//!
//! A host describes each tool with a [`ToolDescriptor`] and says who may call what with an
//! [`Authority`]. [`admit_batch`] checks the whole batch and returns an [`AdmittedBundle`]:
//!
//! - the [`registry`](AdmittedBundle::registry), each tool's name mapped to its validator;
//! - the [`provider_tools`](AdmittedBundle::provider_tools), what a model is shown;
//! - the [`authority`](AdmittedBundle::authority), narrowed to the tools that were admitted;
//! - the [`accepted`](AdmittedBundle::accepted) names and the
//!   [`rejected`](AdmittedBundle::rejected) diagnostics, both in input order.
//!
//! # Modes
//!
//! [`AdmissionMode::Strict`] is the default: any problem with any tool fails the whole batch with
//! an [`AdmissionError`] naming the tool, its revision and the original error. A host that
//! loads catalogs it does not control (third-party MCP servers, of which many still publish
//! draft-07 schemas) may ask for [`AdmissionMode::Quarantine`], which leaves out exactly the
//! tools whose schema is [`UnsupportedCapability`](crate::ErrorClass::UnsupportedCapability)
//! and admits the rest. Everything else stays fatal in both modes, because it means the
//! catalog itself is wrong rather than merely ahead of this library: an invalid schema, an
//! unresolved reference, a bad name or revision, a missing backend, a duplicate name, or an
//! authority that grants a tool outside the batch.
//!
//! # Names and revisions
//!
//! A tool name is 1 to [`MAX_TOOL_NAME_LEN`] characters from `[A-Za-z0-9_.-]`: the characters
//! and length every widely used model host accepts in a function name, so an admitted tool can
//! be offered to any of them unchanged. A revision is any non-blank text of at most
//! [`MAX_REVISION_LEN`] characters without control characters; it exists so that diagnostics
//! and intent records say which version of a tool was meant.
//!
//! ```
//! use serde_json::json;
//! use toolschema::catalog::{
//!     admit_batch, AdmissionMode, AdmitOptions, Authority, BackendRef, ToolDescriptor,
//! };
//!
//! let tools = vec![
//!     ToolDescriptor::new("search", "3", json!({
//!         "type": "object",
//!         "properties": {"query": {"type": "string"}},
//!         "required": ["query"],
//!     }))
//!     .description("Search the docs")
//!     .backend(BackendRef::new("docs-server")),
//!     ToolDescriptor::new("legacy", "1", json!({
//!         "$schema": "http://json-schema.org/draft-07/schema#",
//!         "type": "object",
//!     }))
//!     .backend(BackendRef::new("old-server")),
//! ];
//! let authority = Authority::new("alice", "run-42").grant("search").grant("legacy");
//! let options = AdmitOptions::new().mode(AdmissionMode::Quarantine);
//! let bundle = admit_batch(tools, authority, &options)?;
//!
//! assert_eq!(bundle.accepted(), ["search"]);
//! assert_eq!(bundle.rejected()[0].name(), "legacy");
//! assert!(bundle.authority().is_granted("search"));
//! assert!(!bundle.authority().is_granted("legacy"));
//! assert_eq!(bundle.provider_tools().to_json()["tools"][0]["name"], "search");
//! # Ok::<(), toolschema::catalog::AdmissionError>(())
//! ```

mod admit;
mod alternatives;
mod gateway;
mod render;

pub use admit::{
    AdmissionError, AdmittedBundle, AuthorityError, NameProblem, ProviderTool, ProviderTools,
    RegisteredTool, Registry, RevisionProblem, ToolDiagnostic, ToolProblem, admit_batch,
};
pub use alternatives::Alternatives;
pub use gateway::{
    Approver, Authorizer, Backend, Budget, CallError, Gateway, GatewayHooks, IntentLog, Refusal,
    Stage, ToolCall,
};

use crate::{Options, Validate};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

/// The longest tool name admitted, in characters.
///
/// Sixty-four is the limit of the strictest common model host, so a name that passes here is
/// never truncated or refused further on.
pub const MAX_TOOL_NAME_LEN: usize = 64;

/// The longest revision admitted, in characters.
pub const MAX_REVISION_LEN: usize = 128;

/// A validator compiled at build time, shared between the catalog and the gateway's callers.
pub type CompiledValidator = Arc<dyn Validate + Send + Sync>;

/// Where calls to a tool are sent: an opaque name the host's [`Backend`] understands.
///
/// ```
/// use toolschema::catalog::BackendRef;
/// let backend = BackendRef::new("mcp://docs-server");
/// assert_eq!(backend.as_str(), "mcp://docs-server");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BackendRef(String);

impl BackendRef {
    /// Wraps a backend name.
    pub fn new(name: impl Into<String>) -> BackendRef {
        BackendRef(name.into())
    }

    /// The backend name.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for BackendRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<&str> for BackendRef {
    fn from(name: &str) -> BackendRef {
        BackendRef::new(name)
    }
}

impl From<String> for BackendRef {
    fn from(name: String) -> BackendRef {
        BackendRef(name)
    }
}

/// One tool offered for admission.
///
/// The input schema is kept exactly as given: it is what the model is shown, byte for byte
/// once serialized, so the model sees the same contract the validator enforces.
///
/// ```
/// use serde_json::json;
/// use toolschema::catalog::ToolDescriptor;
/// let tool = ToolDescriptor::new("read_file", "2024-06-01", json!({"type": "object"}))
///     .description("Read a file")
///     .backend("files")
///     .metadata("owner", json!("storage-team"));
/// assert_eq!(tool.name(), "read_file");
/// assert_eq!(tool.get_backend().unwrap().as_str(), "files");
/// assert_eq!(tool.get_metadata()["owner"], "storage-team");
/// ```
#[derive(Clone)]
pub struct ToolDescriptor {
    name: String,
    revision: String,
    description: Option<String>,
    input_schema: Value,
    backend: Option<BackendRef>,
    metadata: BTreeMap<String, Value>,
    compiled: Option<CompiledValidator>,
}

impl ToolDescriptor {
    /// A tool with a name, a revision and its `inputSchema`; no description, backend,
    /// metadata or compiled validator yet.
    pub fn new(
        name: impl Into<String>,
        revision: impl Into<String>,
        input_schema: Value,
    ) -> ToolDescriptor {
        ToolDescriptor {
            name: name.into(),
            revision: revision.into(),
            description: None,
            input_schema,
            backend: None,
            metadata: BTreeMap::new(),
            compiled: None,
        }
    }

    /// Sets the description the model is shown.
    pub fn description(mut self, description: impl Into<String>) -> ToolDescriptor {
        self.description = Some(description.into());
        self
    }

    /// Sets where calls go. Every tool needs one.
    pub fn backend(mut self, backend: impl Into<BackendRef>) -> ToolDescriptor {
        self.backend = Some(backend.into());
        self
    }

    /// Adds host metadata (replacing an earlier value under the same key). Metadata stays on
    /// the host side: it is never shown to the model.
    pub fn metadata(mut self, key: impl Into<String>, value: Value) -> ToolDescriptor {
        self.metadata.insert(key.into(), value);
        self
    }

    /// Supplies a validator compiled at build time for this tool's schema. Admission still
    /// checks the schema by the same rules as an interpreted one; calls then use the compiled
    /// validator.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use serde_json::json;
    /// use toolschema::catalog::ToolDescriptor;
    /// use toolschema::Validator;
    /// let schema = json!({"type": "object"});
    /// let compiled = Arc::new(Validator::new(&schema).unwrap());
    /// let tool = ToolDescriptor::new("ping", "1", schema).compiled(compiled);
    /// assert!(tool.is_compiled());
    /// ```
    pub fn compiled(mut self, validator: CompiledValidator) -> ToolDescriptor {
        self.compiled = Some(validator);
        self
    }

    /// The tool name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The revision.
    pub fn revision(&self) -> &str {
        &self.revision
    }

    /// The description, if any.
    pub fn get_description(&self) -> Option<&str> {
        self.description.as_deref()
    }

    /// The input schema, exactly as given.
    pub fn input_schema(&self) -> &Value {
        &self.input_schema
    }

    /// The backend, if one was set.
    pub fn get_backend(&self) -> Option<&BackendRef> {
        self.backend.as_ref()
    }

    /// The host metadata.
    pub fn get_metadata(&self) -> &BTreeMap<String, Value> {
        &self.metadata
    }

    /// Whether a compiled validator was supplied.
    pub fn is_compiled(&self) -> bool {
        self.compiled.is_some()
    }
}

impl fmt::Debug for ToolDescriptor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolDescriptor")
            .field("name", &self.name)
            .field("revision", &self.revision)
            .field("description", &self.description)
            .field("input_schema", &self.input_schema)
            .field("backend", &self.backend)
            .field("metadata", &self.metadata)
            .field("compiled", &self.compiled.is_some())
            .finish()
    }
}

/// Who is calling, in which run, and which tools they may call.
///
/// Admission narrows it: grants of tools that were rejected are removed, and nothing else
/// changes (caller, run, attributes and the order of the remaining grants are kept).
///
/// ```
/// use toolschema::catalog::Authority;
/// let authority = Authority::new("alice", "run-7")
///     .grant("search")
///     .grant("read_file")
///     .attribute("tenant", "acme");
/// assert_eq!(authority.caller(), "alice");
/// assert!(authority.is_granted("search"));
/// assert_eq!(authority.get_attribute("tenant"), Some("acme"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Authority {
    caller: String,
    run: String,
    grants: Vec<String>,
    attributes: BTreeMap<String, String>,
}

impl Authority {
    /// An authority for `caller` in `run`, granting nothing yet.
    pub fn new(caller: impl Into<String>, run: impl Into<String>) -> Authority {
        Authority {
            caller: caller.into(),
            run: run.into(),
            grants: Vec::new(),
            attributes: BTreeMap::new(),
        }
    }

    /// Grants calls to `tool`. Granting the same tool twice grants it once.
    pub fn grant(mut self, tool: impl Into<String>) -> Authority {
        let tool = tool.into();
        if !self.grants.contains(&tool) {
            self.grants.push(tool);
        }
        self
    }

    /// Sets a host attribute (tenant, scope, deadline…), kept through admission untouched.
    pub fn attribute(mut self, key: impl Into<String>, value: impl Into<String>) -> Authority {
        self.attributes.insert(key.into(), value.into());
        self
    }

    /// The caller.
    pub fn caller(&self) -> &str {
        &self.caller
    }

    /// The run.
    pub fn run(&self) -> &str {
        &self.run
    }

    /// The granted tool names, in the order they were granted.
    pub fn grants(&self) -> &[String] {
        &self.grants
    }

    /// Whether calls to `tool` are granted.
    pub fn is_granted(&self, tool: &str) -> bool {
        self.grants.iter().any(|g| g == tool)
    }

    /// Every host attribute.
    pub fn attributes(&self) -> &BTreeMap<String, String> {
        &self.attributes
    }

    /// One host attribute.
    pub fn get_attribute(&self, key: &str) -> Option<&str> {
        self.attributes.get(key).map(String::as_str)
    }

    fn without_grants(&self, removed: &[&str]) -> Authority {
        let mut narrowed = self.clone();
        narrowed.grants.retain(|g| !removed.contains(&g.as_str()));
        narrowed
    }
}

/// How a batch treats tools whose schema asks for something unsupported.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum AdmissionMode {
    /// Any problem with any tool fails the batch.
    #[default]
    Strict,
    /// Tools whose schema is `UnsupportedCapability` are left out and reported in
    /// [`AdmittedBundle::rejected`]; every other problem still fails the batch.
    Quarantine,
}

/// How to admit a batch: the mode and the [`Options`] each schema is built with.
///
/// ```
/// use toolschema::catalog::{AdmissionMode, AdmitOptions};
/// use toolschema::Options;
/// let options = AdmitOptions::new()
///     .mode(AdmissionMode::Quarantine)
///     .schema_options(Options::new().format_assertion(true));
/// assert_eq!(options.get_mode(), AdmissionMode::Quarantine);
/// assert_eq!(AdmitOptions::new().get_mode(), AdmissionMode::Strict);
/// ```
#[derive(Clone, Debug, Default)]
pub struct AdmitOptions {
    mode: AdmissionMode,
    schema_options: Options,
}

impl AdmitOptions {
    /// Strict mode, default schema options.
    pub fn new() -> AdmitOptions {
        AdmitOptions::default()
    }

    /// Sets the mode.
    pub fn mode(mut self, mode: AdmissionMode) -> AdmitOptions {
        self.mode = mode;
        self
    }

    /// Sets the options every schema is built with.
    pub fn schema_options(mut self, options: Options) -> AdmitOptions {
        self.schema_options = options;
        self
    }

    /// The mode.
    pub fn get_mode(&self) -> AdmissionMode {
        self.mode
    }

    /// The schema options.
    pub fn get_schema_options(&self) -> &Options {
        &self.schema_options
    }
}
