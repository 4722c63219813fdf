//! Batch admission: the checks, the bundle they produce and the errors they report.

use super::{
    AdmissionMode, AdmitOptions, Authority, BackendRef, CompiledValidator, MAX_REVISION_LEN,
    MAX_TOOL_NAME_LEN, ToolDescriptor,
};
use crate::{Error, ErrorClass, InputSchema, Validate};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::sync::Arc;

/// Admits a batch of tools under one authority.
///
/// Tools are checked in input order; each tool's own fields first (name, revision, backend),
/// then its name against the earlier tools, then its schema. In
/// [strict](AdmissionMode::Strict) mode the first problem fails the batch; in
/// [quarantine](AdmissionMode::Quarantine) mode a schema whose error is
/// [`UnsupportedCapability`](ErrorClass::UnsupportedCapability) sets its tool aside and every
/// other problem fails the batch. Last, the authority is checked against the whole batch: each
/// grant must name a tool of the batch, admitted or not.
///
/// ```
/// use serde_json::json;
/// use toolschema::catalog::{admit_batch, AdmitOptions, Authority, ToolDescriptor, ToolProblem};
/// use toolschema::ErrorClass;
///
/// let tools = vec![ToolDescriptor::new("old", "1", json!({
///     "$schema": "http://json-schema.org/draft-07/schema#",
/// }))
/// .backend("legacy")];
/// let err = admit_batch(tools, Authority::new("alice", "run-1"), &AdmitOptions::new()).unwrap_err();
/// let diagnostic = err.tool().unwrap();
/// assert_eq!((diagnostic.name(), diagnostic.revision()), ("old", "1"));
/// assert_eq!(diagnostic.problem().schema_error().unwrap().class(), ErrorClass::UnsupportedCapability);
/// ```
pub fn admit_batch(
    tools: Vec<ToolDescriptor>,
    authority: Authority,
    options: &AdmitOptions,
) -> Result<AdmittedBundle, AdmissionError> {
    let schema_options = options.get_schema_options();
    let mut first_index: HashMap<&str, usize> = HashMap::new();
    let mut admitted: Vec<RegisteredTool> = Vec::new();
    let mut rejected: Vec<ToolDiagnostic> = Vec::new();

    for (index, tool) in tools.iter().enumerate() {
        let diagnose = |problem| ToolDiagnostic {
            index,
            name: tool.name.clone(),
            revision: tool.revision.clone(),
            problem,
        };
        if let Some(problem) = check_fields(tool) {
            return Err(AdmissionError::Tool(diagnose(problem)));
        }
        if let Some(&first) = first_index.get(tool.name.as_str()) {
            return Err(AdmissionError::Tool(diagnose(ToolProblem::DuplicateName {
                first_index: first,
            })));
        }
        first_index.insert(&tool.name, index);
        match build_validator(tool, schema_options, options.get_mode()) {
            Built::Admitted(validator) => admitted.push(RegisteredTool {
                index,
                name: tool.name.clone(),
                revision: tool.revision.clone(),
                description: tool.description.clone(),
                input_schema: tool.input_schema.clone(),
                backend: tool.backend.clone().expect("checked by check_fields"),
                metadata: tool.metadata.clone(),
                compiled: tool.compiled.is_some(),
                validator,
            }),
            Built::Quarantined(error) => rejected.push(diagnose(ToolProblem::Schema(error))),
            Built::Fatal(error) => {
                return Err(AdmissionError::Tool(diagnose(ToolProblem::Schema(error))));
            }
        }
    }

    check_authority(&authority, &first_index)?;
    let removed: Vec<&str> = rejected.iter().map(|d| d.name.as_str()).collect();
    let authority = authority.without_grants(&removed);

    let provider_tools = ProviderTools {
        tools: admitted
            .iter()
            .map(|t| ProviderTool {
                name: t.name.clone(),
                description: t.description.clone(),
                input_schema: t.input_schema.clone(),
            })
            .collect(),
    };
    let accepted = admitted.iter().map(|t| t.name.clone()).collect();
    let registry = Registry {
        by_name: admitted
            .iter()
            .enumerate()
            .map(|(i, t)| (t.name.clone(), i))
            .collect(),
        tools: admitted,
    };
    Ok(AdmittedBundle {
        registry,
        provider_tools,
        authority,
        accepted,
        rejected,
    })
}

fn check_fields(tool: &ToolDescriptor) -> Option<ToolProblem> {
    if let Err(problem) = check_name(&tool.name) {
        return Some(ToolProblem::Name(problem));
    }
    let revision = &tool.revision;
    if revision.trim().is_empty() {
        return Some(ToolProblem::Revision(RevisionProblem::Missing));
    }
    let length = revision.chars().count();
    if length > MAX_REVISION_LEN {
        return Some(ToolProblem::Revision(RevisionProblem::TooLong { length }));
    }
    if revision.chars().any(char::is_control) {
        return Some(ToolProblem::Revision(RevisionProblem::ControlCharacter));
    }
    match &tool.backend {
        None => Some(ToolProblem::MissingBackend),
        Some(backend) if backend.as_str().trim().is_empty() => Some(ToolProblem::MissingBackend),
        Some(_) => None,
    }
}

/// Checks a tool name against the catalog's naming rule.
pub(crate) fn check_name(name: &str) -> Result<(), NameProblem> {
    if name.is_empty() {
        return Err(NameProblem::Empty);
    }
    let length = name.chars().count();
    if length > MAX_TOOL_NAME_LEN {
        return Err(NameProblem::TooLong { length });
    }
    match name
        .char_indices()
        .find(|&(_, c)| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')))
    {
        Some((at, character)) => Err(NameProblem::InvalidCharacter { character, at }),
        None => Ok(()),
    }
}

enum Built {
    Admitted(CompiledValidator),
    Quarantined(Error),
    Fatal(Error),
}

fn build_validator(tool: &ToolDescriptor, options: &crate::Options, mode: AdmissionMode) -> Built {
    // The boundary rules decide what quarantine may set aside; a compiled validator answers
    // for the schema it was generated from, so its schema passes the same check.
    if let Err(error) = InputSchema::validate_schema_with(&tool.input_schema, options) {
        return if mode == AdmissionMode::Quarantine
            && error.class() == ErrorClass::UnsupportedCapability
        {
            Built::Quarantined(error)
        } else {
            Built::Fatal(error)
        };
    }
    match &tool.compiled {
        Some(compiled) => Built::Admitted(Arc::clone(compiled)),
        // A schema that passed the check but does not build is a fault whatever its class.
        None => match InputSchema::new(&tool.input_schema, options) {
            Ok(schema) => Built::Admitted(Arc::new(schema)),
            Err(error) => Built::Fatal(error),
        },
    }
}

fn check_authority(
    authority: &Authority,
    batch: &HashMap<&str, usize>,
) -> Result<(), AdmissionError> {
    if authority.caller().trim().is_empty() {
        return Err(AdmissionError::Authority(AuthorityError::MissingCaller));
    }
    if authority.run().trim().is_empty() {
        return Err(AdmissionError::Authority(AuthorityError::MissingRun));
    }
    for grant in authority.grants() {
        if let Err(problem) = check_name(grant) {
            return Err(AdmissionError::Authority(AuthorityError::MalformedGrant {
                grant: grant.clone(),
                problem,
            }));
        }
        if !batch.contains_key(grant.as_str()) {
            return Err(AdmissionError::Authority(AuthorityError::UnknownGrant {
                grant: grant.clone(),
            }));
        }
    }
    Ok(())
}

/// Why a tool name is not admitted.
///
/// ```
/// use serde_json::json;
/// use toolschema::catalog::{admit_batch, AdmitOptions, Authority, NameProblem, ToolDescriptor, ToolProblem};
/// let tools = vec![ToolDescriptor::new("send email", "1", json!({})).backend("mail")];
/// let err = admit_batch(tools, Authority::new("alice", "run-1"), &AdmitOptions::new()).unwrap_err();
/// assert!(matches!(
///     err.tool().unwrap().problem(),
///     ToolProblem::Name(NameProblem::InvalidCharacter { character: ' ', at: 4 }),
/// ));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NameProblem {
    /// The name is empty.
    Empty,
    /// The name is longer than [`MAX_TOOL_NAME_LEN`] characters.
    TooLong {
        /// Its length in characters.
        length: usize,
    },
    /// The name has a character outside `[A-Za-z0-9_.-]`.
    InvalidCharacter {
        /// The first such character.
        character: char,
        /// Its byte offset in the name.
        at: usize,
    },
}

impl fmt::Display for NameProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NameProblem::Empty => f.write_str("the name is empty"),
            NameProblem::TooLong { length } => write!(
                f,
                "the name is {length} characters long; at most {MAX_TOOL_NAME_LEN} are allowed"
            ),
            NameProblem::InvalidCharacter { character, at } => write!(
                f,
                "the name has {character:?} at byte {at}; only A-Z, a-z, 0-9, '_', '.' and '-' are allowed"
            ),
        }
    }
}

/// Why a revision is not admitted.
///
/// ```
/// use serde_json::json;
/// use toolschema::catalog::{admit_batch, AdmitOptions, Authority, RevisionProblem, ToolDescriptor, ToolProblem};
/// let tools = vec![ToolDescriptor::new("ping", "", json!({})).backend("net")];
/// let err = admit_batch(tools, Authority::new("alice", "run-1"), &AdmitOptions::new()).unwrap_err();
/// assert!(matches!(err.tool().unwrap().problem(), ToolProblem::Revision(RevisionProblem::Missing)));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RevisionProblem {
    /// The revision is empty or blank.
    Missing,
    /// The revision is longer than [`MAX_REVISION_LEN`] characters.
    TooLong {
        /// Its length in characters.
        length: usize,
    },
    /// The revision contains a control character.
    ControlCharacter,
}

impl fmt::Display for RevisionProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RevisionProblem::Missing => f.write_str("the revision is missing"),
            RevisionProblem::TooLong { length } => write!(
                f,
                "the revision is {length} characters long; at most {MAX_REVISION_LEN} are allowed"
            ),
            RevisionProblem::ControlCharacter => {
                f.write_str("the revision contains a control character")
            }
        }
    }
}

/// What is wrong with one tool.
///
/// ```
/// use serde_json::json;
/// use toolschema::catalog::{admit_batch, AdmissionMode, AdmitOptions, Authority, ToolDescriptor, ToolProblem};
/// // Fatal in quarantine mode too: only unsupported schemas are set aside.
/// let tools = vec![ToolDescriptor::new("ping", "1", json!({}))];
/// let options = AdmitOptions::new().mode(AdmissionMode::Quarantine);
/// let err = admit_batch(tools, Authority::new("alice", "run-1"), &options).unwrap_err();
/// assert!(matches!(err.tool().unwrap().problem(), ToolProblem::MissingBackend));
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum ToolProblem {
    /// The input schema failed: the original error, with its class and locations.
    Schema(Error),
    /// The name breaks the naming rule.
    Name(NameProblem),
    /// The revision is missing or malformed.
    Revision(RevisionProblem),
    /// No backend was set (or it is blank).
    MissingBackend,
    /// An earlier tool of the batch has the same name.
    DuplicateName {
        /// The input index of that earlier tool.
        first_index: usize,
    },
}

impl ToolProblem {
    /// The schema error, for [`ToolProblem::Schema`].
    pub fn schema_error(&self) -> Option<&Error> {
        match self {
            ToolProblem::Schema(error) => Some(error),
            _ => None,
        }
    }
}

impl fmt::Display for ToolProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ToolProblem::Schema(error) => write!(f, "{error}"),
            ToolProblem::Name(problem) => write!(f, "{problem}"),
            ToolProblem::Revision(problem) => write!(f, "{problem}"),
            ToolProblem::MissingBackend => f.write_str("no backend is set"),
            ToolProblem::DuplicateName { first_index } => {
                write!(
                    f,
                    "the name is already used by tool #{first_index} of the batch"
                )
            }
        }
    }
}

/// A tool that was not admitted, and why.
///
/// Host-only by design: this type does not implement `Serialize`, and nothing reachable from
/// [`AdmittedBundle::provider_tools`] or from a rendered [`CallError`](super::CallError) refers to
/// it. A schema error can quote internal schema details, registry URIs or paths on the host,
/// and a model that learnt which tools were refused, and why, would learn how the host is put
/// together and could try to steer around it. Log it; do not send it to the model.
///
/// ```
/// use serde_json::json;
/// use toolschema::catalog::{admit_batch, AdmissionMode, AdmitOptions, Authority, ToolDescriptor};
/// use toolschema::ErrorClass;
/// let old = json!({"$schema": "http://json-schema.org/draft-07/schema#"});
/// let tools = vec![ToolDescriptor::new("old", "7", old).backend("legacy")];
/// let options = AdmitOptions::new().mode(AdmissionMode::Quarantine);
/// let bundle = admit_batch(tools, Authority::new("alice", "run-1"), &options).unwrap();
/// let diagnostic = &bundle.rejected()[0];
/// assert_eq!((diagnostic.index(), diagnostic.name(), diagnostic.revision()), (0, "old", "7"));
/// let error = diagnostic.problem().schema_error().unwrap();
/// assert_eq!(error.class(), ErrorClass::UnsupportedCapability);
/// eprintln!("host log: {diagnostic}");
/// ```
#[derive(Clone, Debug)]
pub struct ToolDiagnostic {
    index: usize,
    name: String,
    revision: String,
    problem: ToolProblem,
}

impl ToolDiagnostic {
    /// The tool's position in the batch.
    pub fn index(&self) -> usize {
        self.index
    }

    /// The tool name, as given.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The revision, as given.
    pub fn revision(&self) -> &str {
        &self.revision
    }

    /// What is wrong.
    pub fn problem(&self) -> &ToolProblem {
        &self.problem
    }
}

impl fmt::Display for ToolDiagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "tool {:?} (revision {:?}): {}",
            self.name, self.revision, self.problem
        )
    }
}

/// Why an authority does not fit its batch.
///
/// ```
/// use toolschema::catalog::{admit_batch, AdmitOptions, Authority, AuthorityError};
/// let err = admit_batch(Vec::new(), Authority::new("", "run-1"), &AdmitOptions::new()).unwrap_err();
/// assert_eq!(err.authority(), Some(&AuthorityError::MissingCaller));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AuthorityError {
    /// The caller is empty or blank.
    MissingCaller,
    /// The run is empty or blank.
    MissingRun,
    /// A grant is not a well-formed tool name.
    MalformedGrant {
        /// The grant.
        grant: String,
        /// How it breaks the naming rule.
        problem: NameProblem,
    },
    /// A grant names a tool that is not in the batch.
    UnknownGrant {
        /// The grant.
        grant: String,
    },
}

impl fmt::Display for AuthorityError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AuthorityError::MissingCaller => f.write_str("the authority has no caller"),
            AuthorityError::MissingRun => f.write_str("the authority has no run"),
            AuthorityError::MalformedGrant { grant, problem } => {
                write!(f, "the grant {grant:?} is malformed: {problem}")
            }
            AuthorityError::UnknownGrant { grant } => {
                write!(f, "the grant {grant:?} names a tool outside the batch")
            }
        }
    }
}

/// Why a batch was not admitted. Like [`ToolDiagnostic`], it is meant for the host only.
///
/// ```
/// use serde_json::json;
/// use toolschema::catalog::{admit_batch, AdmissionError, AdmitOptions, Authority, AuthorityError, ToolDescriptor};
/// let tools = vec![ToolDescriptor::new("a", "1", json!({"type": "object"})).backend("b")];
/// let authority = Authority::new("alice", "run-1").grant("z");
/// let err = admit_batch(tools, authority, &AdmitOptions::new()).unwrap_err();
/// assert!(matches!(err, AdmissionError::Authority(AuthorityError::UnknownGrant { .. })));
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum AdmissionError {
    /// A tool is wrong: which one, its revision and the problem.
    Tool(ToolDiagnostic),
    /// The authority does not fit the batch.
    Authority(AuthorityError),
}

impl AdmissionError {
    /// The tool diagnostic, for [`AdmissionError::Tool`].
    pub fn tool(&self) -> Option<&ToolDiagnostic> {
        match self {
            AdmissionError::Tool(diagnostic) => Some(diagnostic),
            AdmissionError::Authority(_) => None,
        }
    }

    /// The authority error, for [`AdmissionError::Authority`].
    pub fn authority(&self) -> Option<&AuthorityError> {
        match self {
            AdmissionError::Authority(error) => Some(error),
            AdmissionError::Tool(_) => None,
        }
    }
}

impl fmt::Display for AdmissionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AdmissionError::Tool(diagnostic) => write!(f, "batch not admitted: {diagnostic}"),
            AdmissionError::Authority(error) => write!(f, "batch not admitted: {error}"),
        }
    }
}

impl std::error::Error for AdmissionError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            AdmissionError::Tool(ToolDiagnostic {
                problem: ToolProblem::Schema(error),
                ..
            }) => Some(error),
            _ => None,
        }
    }
}

/// An admitted tool: what the gateway needs to check and route a call.
///
/// ```
/// use serde_json::json;
/// use toolschema::catalog::{admit_batch, AdmitOptions, Authority, ToolDescriptor};
/// let tools = vec![ToolDescriptor::new("ping", "1", json!({"type": "object"}))
///     .backend("net")
///     .metadata("timeout_ms", json!(500))];
/// let bundle = admit_batch(tools, Authority::new("alice", "run-1"), &AdmitOptions::new()).unwrap();
/// let ping = bundle.registry().get("ping").unwrap();
/// assert_eq!((ping.revision(), ping.backend().as_str()), ("1", "net"));
/// assert_eq!(ping.metadata()["timeout_ms"], 500);
/// assert!(!ping.is_compiled());
/// ```
#[derive(Clone)]
pub struct RegisteredTool {
    index: usize,
    name: String,
    revision: String,
    description: Option<String>,
    input_schema: Value,
    backend: BackendRef,
    metadata: BTreeMap<String, Value>,
    compiled: bool,
    validator: CompiledValidator,
}

impl RegisteredTool {
    /// The tool's position in the batch it was admitted with.
    pub fn index(&self) -> usize {
        self.index
    }

    /// The name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The revision.
    pub fn revision(&self) -> &str {
        &self.revision
    }

    /// The description, if any.
    pub fn description(&self) -> Option<&str> {
        self.description.as_deref()
    }

    /// The input schema, exactly as given.
    pub fn input_schema(&self) -> &Value {
        &self.input_schema
    }

    /// Where calls go.
    pub fn backend(&self) -> &BackendRef {
        &self.backend
    }

    /// The host metadata.
    pub fn metadata(&self) -> &BTreeMap<String, Value> {
        &self.metadata
    }

    /// Whether calls are checked by a validator compiled at build time.
    pub fn is_compiled(&self) -> bool {
        self.compiled
    }

    /// The validator calls are checked with.
    pub fn validator(&self) -> &(dyn Validate + Send + Sync) {
        &*self.validator
    }
}

impl fmt::Debug for RegisteredTool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RegisteredTool")
            .field("index", &self.index)
            .field("name", &self.name)
            .field("revision", &self.revision)
            .field("backend", &self.backend)
            .field("compiled", &self.compiled)
            .finish_non_exhaustive()
    }
}

/// The admitted tools by name, in input order.
///
/// ```
/// use serde_json::json;
/// use toolschema::catalog::{admit_batch, AdmitOptions, Authority, ToolDescriptor};
/// use toolschema::Validate;
/// let tools = vec![ToolDescriptor::new("echo", "1", json!({"required": ["text"]})).backend("b")];
/// let bundle = admit_batch(tools, Authority::new("alice", "run-1"), &AdmitOptions::new()).unwrap();
/// let echo = bundle.registry().get("echo").unwrap();
/// assert!(echo.validator().is_valid(&json!({"text": "hi"})));
/// assert!(!echo.validator().is_valid(&json!({})));
/// ```
#[derive(Clone, Debug, Default)]
pub struct Registry {
    tools: Vec<RegisteredTool>,
    by_name: HashMap<String, usize>,
}

impl Registry {
    /// The tool with this name.
    pub fn get(&self, name: &str) -> Option<&RegisteredTool> {
        self.by_name.get(name).map(|&i| &self.tools[i])
    }

    /// The validator of the tool with this name.
    pub fn validator(&self, name: &str) -> Option<&(dyn Validate + Send + Sync)> {
        self.get(name).map(RegisteredTool::validator)
    }

    /// Whether a tool has this name.
    pub fn contains(&self, name: &str) -> bool {
        self.by_name.contains_key(name)
    }

    /// Every tool, in input order.
    pub fn iter(&self) -> impl Iterator<Item = &RegisteredTool> {
        self.tools.iter()
    }

    /// How many tools there are.
    pub fn len(&self) -> usize {
        self.tools.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }
}

/// One tool as a model is shown it: name, description and the input schema unchanged.
///
/// ```
/// use serde_json::json;
/// use toolschema::catalog::{admit_batch, AdmitOptions, Authority, ToolDescriptor};
/// let tools = vec![ToolDescriptor::new("ping", "1", json!({"type": "object"})).backend("net")];
/// let bundle = admit_batch(tools, Authority::new("alice", "run-1"), &AdmitOptions::new()).unwrap();
/// let ping = &bundle.provider_tools().as_slice()[0];
/// assert_eq!(ping.to_json(), json!({"name": "ping", "inputSchema": {"type": "object"}}));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ProviderTool {
    name: String,
    description: Option<String>,
    input_schema: Value,
}

impl ProviderTool {
    /// The name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The description, if any.
    pub fn description(&self) -> Option<&str> {
        self.description.as_deref()
    }

    /// The input schema, exactly as given.
    pub fn input_schema(&self) -> &Value {
        &self.input_schema
    }

    /// This tool as an entry of an MCP `tools/list` result. The description is left out when
    /// there is none, as MCP makes it optional.
    pub fn to_json(&self) -> Value {
        let mut entry = Map::new();
        entry.insert("name".into(), Value::String(self.name.clone()));
        if let Some(description) = &self.description {
            entry.insert("description".into(), Value::String(description.clone()));
        }
        entry.insert("inputSchema".into(), self.input_schema.clone());
        Value::Object(entry)
    }
}

/// What a model is shown: the admitted tools, in input order.
///
/// ```
/// use serde_json::json;
/// use toolschema::catalog::{admit_batch, AdmitOptions, Authority, ToolDescriptor};
/// let schema = json!({"type": "object", "properties": {"q": {"type": "string"}}});
/// let tools = vec![ToolDescriptor::new("search", "1", schema.clone()).description("Search").backend("b")];
/// let bundle = admit_batch(tools, Authority::new("alice", "run-1"), &AdmitOptions::new()).unwrap();
/// assert_eq!(
///     bundle.provider_tools().to_json(),
///     json!({"tools": [{"name": "search", "description": "Search", "inputSchema": schema}]}),
/// );
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ProviderTools {
    tools: Vec<ProviderTool>,
}

impl ProviderTools {
    /// Every tool, in input order.
    pub fn iter(&self) -> impl Iterator<Item = &ProviderTool> {
        self.tools.iter()
    }

    /// The tools as a slice.
    pub fn as_slice(&self) -> &[ProviderTool] {
        &self.tools
    }

    /// How many tools there are.
    pub fn len(&self) -> usize {
        self.tools.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    /// The result of an MCP `tools/list` request: `{"tools": [{"name", "description",
    /// "inputSchema"}, …]}`.
    pub fn to_json(&self) -> Value {
        let tools = self.tools.iter().map(ProviderTool::to_json).collect();
        let mut result = Map::new();
        result.insert("tools".into(), Value::Array(tools));
        Value::Object(result)
    }
}

/// The result of admitting a batch.
///
/// ```
/// use serde_json::json;
/// use toolschema::catalog::{admit_batch, AdmitOptions, Authority, ToolDescriptor};
/// let tools = vec![
///     ToolDescriptor::new("b", "1", json!({"type": "object"})).backend("x"),
///     ToolDescriptor::new("a", "1", json!({"type": "object"})).backend("x"),
/// ];
/// let bundle = admit_batch(tools, Authority::new("alice", "run-1").grant("a"), &AdmitOptions::new()).unwrap();
/// assert_eq!(bundle.accepted(), ["b", "a"]);
/// assert_eq!(bundle.registry().len(), 2);
/// assert_eq!(bundle.provider_tools().len(), 2);
/// assert_eq!(bundle.authority().grants(), ["a"]);
/// assert!(bundle.rejected().is_empty());
/// ```
#[derive(Clone, Debug)]
pub struct AdmittedBundle {
    registry: Registry,
    provider_tools: ProviderTools,
    authority: Authority,
    accepted: Vec<String>,
    rejected: Vec<ToolDiagnostic>,
}

impl AdmittedBundle {
    /// The admitted tools by name, each with its validator.
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// What a model is shown.
    pub fn provider_tools(&self) -> &ProviderTools {
        &self.provider_tools
    }

    /// The authority, with the grants of rejected tools removed and everything else kept.
    pub fn authority(&self) -> &Authority {
        &self.authority
    }

    /// The names of the admitted tools, in input order.
    pub fn accepted(&self) -> &[String] {
        &self.accepted
    }

    /// The tools set aside in quarantine mode, in input order. Host-only: see
    /// [`ToolDiagnostic`].
    pub fn rejected(&self) -> &[ToolDiagnostic] {
        &self.rejected
    }
}
