//! Options for building a validator, and the limits that keep hostile input in check.

use serde_json::Value;
use std::fmt;
use std::sync::Arc;

/// The boxed error a [schema loader](Options::schema_loader) may return.
pub type LoaderError = Box<dyn std::error::Error + Send + Sync>;

type Loader = Arc<dyn Fn(&str) -> Result<Value, LoaderError> + Send + Sync>;

/// How to build a validator: extra documents, assertion switches and limits.
///
/// A by-value builder; every setter is named after what it sets.
///
/// ```
/// use serde_json::json;
/// use toolschema::{Options, Validate, Validator};
///
/// let options = Options::new()
///     .registry_document("https://example.test/common.json", json!({"$defs": {"id": {"type": "string"}}}))
///     .format_assertion(true);
/// let schema = json!({"properties": {"id": {"$ref": "https://example.test/common.json#/$defs/id"}}});
/// let validator = Validator::with_options(&schema, &options).unwrap();
/// assert!(!validator.is_valid(&json!({"id": 7})));
/// ```
#[derive(Clone, Default)]
pub struct Options {
    pub(crate) registry: Vec<(String, Value)>,
    pub(crate) format_assertion: bool,
    pub(crate) content_assertion: bool,
    pub(crate) limits: Limits,
    pub(crate) loader: Option<Loader>,
}

impl Options {
    /// Defaults: no extra documents, `format` and `content*` as annotations only, default [`Limits`].
    pub fn new() -> Options {
        Options::default()
    }

    /// Supplies the document that references to `uri` resolve to. Nothing is ever fetched over
    /// the network: a reference to another resource resolves only to a registry document (or to
    /// what the [loader](Options::schema_loader) returns).
    pub fn registry_document(mut self, uri: impl Into<String>, document: Value) -> Options {
        self.registry.push((uri.into(), document));
        self
    }

    /// Whether `format` is checked (`true`) or only an annotation (`false`, the default).
    pub fn format_assertion(mut self, on: bool) -> Options {
        self.format_assertion = on;
        self
    }

    /// Whether `contentEncoding`, `contentMediaType` and `contentSchema` are checked
    /// (`true`) or only annotations (`false`, the default).
    pub fn content_assertion(mut self, on: bool) -> Options {
        self.content_assertion = on;
        self
    }

    /// Sets the limits.
    pub fn limits(mut self, limits: Limits) -> Options {
        self.limits = limits;
        self
    }

    /// Supplies documents that the registry lacks. Asked with the absolute URI (no fragment),
    /// at most once per URI per build (custom meta-schemas included), and only while the
    /// schema is built — never while arguments are checked.
    ///
    /// What the loader returns is held to the same rules as the schema: a document in another
    /// dialect (such as draft-07) is `UnsupportedCapability`, one that fails its meta-schema
    /// is `Validation`. A loader error is `ExecutionFailure` (the schema was never judged,
    /// and asking again later may succeed); each names the reference and where it is written.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolschema::{Options, Validator};
    /// let options = Options::new().schema_loader(|uri: &str| {
    ///     if uri == "https://example.test/name.json" {
    ///         Ok(json!({"type": "string"}))
    ///     } else {
    ///         Err(format!("no document for {uri}").into())
    ///     }
    /// });
    /// assert!(Validator::with_options(&json!({"$ref": "https://example.test/name.json"}), &options).is_ok());
    /// ```
    pub fn schema_loader<F>(mut self, loader: F) -> Options
    where
        F: Fn(&str) -> Result<Value, LoaderError> + Send + Sync + 'static,
    {
        self.loader = Some(Arc::new(loader));
        self
    }

    /// Whether a [schema loader](Options::schema_loader) is set.
    pub fn has_schema_loader(&self) -> bool {
        self.loader.is_some()
    }

    /// Whether `format` is asserted.
    pub fn is_format_assertion(&self) -> bool {
        self.format_assertion
    }

    /// Whether the `content*` keywords are asserted.
    pub fn is_content_assertion(&self) -> bool {
        self.content_assertion
    }

    /// The limits in force.
    pub fn get_limits(&self) -> &Limits {
        &self.limits
    }

    /// The registry documents, in the order they were given.
    pub fn registry(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.registry.iter().map(|(u, v)| (u.as_str(), v))
    }
}

impl fmt::Debug for Options {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Options")
            .field(
                "registry",
                &self.registry.iter().map(|(u, _)| u).collect::<Vec<_>>(),
            )
            .field("format_assertion", &self.format_assertion)
            .field("content_assertion", &self.content_assertion)
            .field("limits", &self.limits)
            .field("loader", &self.loader.is_some())
            .finish()
    }
}

/// Bounds on the work a schema or a set of arguments may demand. Reaching one is an
/// [`ExecutionFailure`](crate::ErrorClass::ExecutionFailure): the input is neither accepted
/// nor rejected, and the failure is never turned into a match or mismatch inside `not`,
/// `anyOf` and the like.
///
/// ```
/// use toolschema::Limits;
/// let limits = Limits::new().max_argument_depth(32);
/// assert_eq!(limits.get_max_argument_depth(), 32);
/// assert_eq!(Limits::default().get_max_schema_nodes(), 250_000);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    pub(crate) max_schema_size: usize,
    pub(crate) max_schema_depth: usize,
    pub(crate) max_schema_nodes: usize,
    pub(crate) max_schema_pointer_bytes: usize,
    pub(crate) max_references: usize,
    pub(crate) max_regex_size: usize,
    pub(crate) max_argument_depth: usize,
    pub(crate) max_argument_nodes: usize,
    pub(crate) max_argument_string_length: usize,
    pub(crate) max_evaluation_depth: usize,
    pub(crate) max_evaluation_steps: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_schema_size: 16 << 20,
            max_schema_depth: 128,
            max_schema_nodes: 250_000,
            max_schema_pointer_bytes: 16 << 20,
            max_references: 100_000,
            max_regex_size: 1 << 20,
            max_argument_depth: 128,
            max_argument_nodes: 1_000_000,
            max_argument_string_length: 16 << 20,
            max_evaluation_depth: 1024,
            max_evaluation_steps: 10_000_000,
        }
    }
}

macro_rules! limit_accessors {
    ($($(#[$doc:meta])* $field:ident, $getter:ident;)*) => {
        impl Limits {
            $(
                $(#[$doc])*
                pub fn $field(mut self, value: usize) -> Limits {
                    self.$field = value;
                    self
                }

                #[doc = concat!("The value set by [`", stringify!($field), "`](Limits::", stringify!($field), ").")]
                pub fn $getter(&self) -> usize {
                    self.$field
                }
            )*
        }
    };
}

impl Limits {
    /// The default limits.
    pub fn new() -> Limits {
        Limits::default()
    }

    /// Checks arguments against the argument limits (depth, number of values, string
    /// length) before any evaluation, without recursion. Every validator, interpreted or
    /// generated, runs this first, so they stop at the same place with the same error.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolschema::{ErrorClass, Limits};
    /// let limits = Limits::new().max_argument_string_length(3);
    /// assert!(limits.check_arguments(&json!({"q": "abc"})).is_ok());
    /// let err = limits.check_arguments(&json!({"q": "abcd"})).unwrap_err();
    /// assert_eq!(err.class(), ErrorClass::ExecutionFailure);
    /// assert_eq!(err.failures()[0].instance_location(), "/q");
    /// ```
    pub fn check_arguments(&self, arguments: &serde_json::Value) -> Result<(), crate::Error> {
        crate::eval::check_arguments(arguments, self)
            .map_err(crate::Error::instance_execution_failure)
    }
}

limit_accessors! {
    /// Largest schema document, in bytes of its compact JSON text as `serde_json::to_string`
    /// writes it (default 16 MiB). Each document counts on its own: the root, every registry
    /// document used, every loaded one.
    max_schema_size, get_max_schema_size;
    /// Deepest nesting of JSON values in a schema document, the root being level 1 (default
    /// 128).
    max_schema_depth, get_max_schema_depth;
    /// Most subschemas in one built schema, all documents together (default 250,000).
    max_schema_nodes, get_max_schema_nodes;
    /// Most bytes of the JSON Pointers locating every subschema of one schema document, added
    /// up (default 16 MiB). Locations are kept while building, and a deep schema with long
    /// member names would otherwise need memory quadratic in its size.
    max_schema_pointer_bytes, get_max_schema_pointer_bytes;
    /// Most `$ref` and `$dynamicRef` keywords in one built schema (default 100,000).
    max_references, get_max_references;
    /// Largest compiled form of one `pattern` or `patternProperties` key, in bytes; a source
    /// longer than this is refused before it is compiled (default 1 MiB).
    max_regex_size, get_max_regex_size;
    /// Most non-empty arrays and objects nested in one another in the arguments (default
    /// 128); `{"a": [1]}` needs 2.
    max_argument_depth, get_max_argument_depth;
    /// Most JSON values in the arguments, containers included (default 1,000,000).
    max_argument_nodes, get_max_argument_nodes;
    /// Longest string in the arguments, member names included, in bytes (default 16 MiB).
    max_argument_string_length, get_max_argument_string_length;
    /// Most schema objects evaluated inside one another at once: roughly the arguments' depth
    /// times the length of chains of `$ref` and in-place applicators (default 1,024). A schema
    /// object that applies no subschema (`{"type": "string", "maxLength": 8}`) takes no level
    /// of its own: it cannot nest further. The same bound applies to checking a schema
    /// against its meta-schema, which takes about five levels per level of schema nesting.
    ///
    /// The default leaves room for arguments at the default `max_argument_depth` (128) against
    /// recursive schemas that take up to eight levels per level of the arguments. Evaluation
    /// does not depend on the thread's stack: when it runs low, the next level continues on a
    /// heap-allocated segment, so raising this costs memory (about 3 KiB per level in an
    /// unoptimised build, 1 KiB optimised) and time, never a stack overflow.
    max_evaluation_depth, get_max_evaluation_depth;
    /// Most evaluations of subschemas that apply subschemas, for one set of arguments (default
    /// 10,000,000). Schemas can apply the same subschema many times over (`allOf` of two
    /// references to a node that does the same, nested); this bounds the work whatever the
    /// shape. A subschema that applies none (`{"type": "number"}`, a boolean schema) checks
    /// the value alone and costs no step: each such check is made for a counted evaluation
    /// of the subschema that applies it, so the work stays bounded.
    max_evaluation_steps, get_max_evaluation_steps;
}
