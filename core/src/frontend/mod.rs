//! The front end: schema JSON to [`Ir`], once for both back ends.
//!
//! 1. Limits on the document (size, depth), without recursion.
//! 2. The dialect (`$schema`) and vocabularies; anything but 2020-12 is unsupported.
//! 3. The schema-aware walk of each document (`registry`): base URIs, resources, anchors.
//! 4. A check against the meta-schema: an invalid schema is a `Validation` error pointing at
//!    the offending keyword.
//! 5. Lowering (`lower`): one node per subschema, references resolved to nodes.
//! 6. Analysis (`analysis`): termination, and which nodes must track annotations; and how
//!    far evaluation can go (`bound`).

pub(crate) mod analysis;
pub(crate) mod annotations;
pub(crate) mod bound;
pub(crate) mod keyword;
pub(crate) mod limits;
pub(crate) mod lower;
pub(crate) mod registry;
pub(crate) mod uri;
pub(crate) mod vocabulary;

use crate::Validate;
use crate::error::{Error, ErrorClass, ErrorSubject};
use crate::ir::Ir;
use crate::options::Options;
use crate::validator::Validator;
use registry::{LoadCache, Loc, Registry, Unchecked};
use serde_json::Value;

pub use uri::DEFAULT_BASE;

/// Builds the IR of `schema`, checking it against its meta-schema.
pub fn build(schema: &Value, options: &Options) -> Result<Ir, Error> {
    build_inner(schema, options, false)
}

/// Builds the IR of a tool's input schema: [`build`] plus the rules of the tool-call
/// boundary, so that every back end enforces them alike.
///
/// - The root must be a schema object (not `true`, `false` or anything else): otherwise a
///   `Validation` error at the root.
/// - An explicit root `type` must be exactly `"object"` or `["object"]`: otherwise a
///   `Validation` error at `/type`. Nested schemas are unrestricted.
/// - Arguments must be an object even when the root has no `type`: the IR gets
///   [`Ir::object_root`].
///
/// The dialect is checked first, so a draft-07 tool is `UnsupportedCapability` whatever
/// its root says.
///
/// ```
/// use serde_json::json;
/// use toolschema::{ErrorClass, Options, frontend};
///
/// let ir = frontend::build_tool(&json!({"properties": {"q": {"type": "string"}}}), &Options::new())?;
/// assert!(ir.object_root);
/// let err = frontend::build_tool(&json!({"type": ["object", "null"]}), &Options::new()).unwrap_err();
/// assert_eq!(err.class(), ErrorClass::Validation);
/// assert_eq!(err.failures()[0].instance_location(), "/type");
/// # Ok::<(), toolschema::Error>(())
/// ```
pub fn build_tool(schema: &Value, options: &Options) -> Result<Ir, Error> {
    let Value::Object(root) = schema else {
        return Err(Error::schema(
            ErrorClass::Validation,
            "",
            "",
            crate::messages::tool_schema_not_object(schema),
        ));
    };
    let mut ir = build_with_cache(schema, options, false, true, LoadCache::default())?;
    if let Some(types) = root.get("type") {
        let only_object = match types {
            Value::String(t) => t == "object",
            Value::Array(ts) => ts.len() == 1 && ts[0] == "object",
            _ => false,
        };
        if !only_object {
            return Err(Error::schema(
                ErrorClass::Validation,
                "/type",
                "type",
                crate::messages::tool_root_type(types),
            ));
        }
    }
    ir.object_root = true;
    Ok(ir)
}

/// Builds without the meta-schema check (for the embedded meta-schemas themselves).
pub(crate) fn build_trusted(schema: &Value, options: &Options) -> Result<Ir, Error> {
    build_inner(schema, options, true)
}

fn build_inner(schema: &Value, options: &Options, trusted: bool) -> Result<Ir, Error> {
    build_with_cache(schema, options, trusted, false, LoadCache::default())
}

fn build_with_cache(
    schema: &Value,
    options: &Options,
    trusted: bool,
    whole: bool,
    loads: LoadCache,
) -> Result<Ir, Error> {
    let mut reg = Registry::new(options, loads);
    let root = reg.add_root(schema, DEFAULT_BASE, trusted)?;
    check_pending(&mut reg)?;
    let root = Loc {
        doc: root,
        ptr: String::new(),
    };
    let root_doc = root.doc;
    let (ir, mut reg) = lower::Lowerer::new(reg).run(root)?;
    // Documents first met while lowering (registry documents, loaded ones) are checked now.
    check_pending(&mut reg)?;
    if whole {
        // References nothing reaches (in unused `$defs`) cannot change a verdict, but a tool's
        // schema with a dangling one is broken all the same: say so before any call.
        for (resource, reference, at) in reg.references_in(root_doc) {
            reg.resolve(resource, &reference, &at)?;
            check_pending(&mut reg)?;
        }
        let compiled: std::collections::HashSet<&str> =
            ir.patterns.iter().map(|p| p.as_str()).collect();
        let limit = options.limits.max_regex_size;
        for (source, at, keyword) in reg.patterns_in(root_doc) {
            if !compiled.contains(source.as_str()) {
                lower::compile_pattern(&source, limit, &at, keyword)?;
            }
        }
    }
    Ok(ir)
}

/// Checks every document not yet checked against its meta-schema.
pub(crate) fn check_pending(reg: &mut Registry<'_>) -> Result<(), Error> {
    while let Some(Unchecked {
        doc,
        dialect,
        origin,
    }) = reg.unchecked.pop()
    {
        let handle = reg.handle(doc);
        let document = handle.value();
        let limits = crate::metaschema::check_limits(&reg.options().limits);
        let result = match &dialect {
            None => crate::metaschema::check(document, &limits),
            Some(uri) => {
                // The meta-schema is built with this build's loader answers, so a document
                // loaded once is not asked for again.
                let ir = build_with_cache(
                    &serde_json::json!({"$ref": uri}),
                    reg.options(),
                    false,
                    false,
                    reg.loads(),
                )?;
                Validator::from_ir(ir, limits).validate(document)
            }
        };
        if let Err(e) = result {
            let e = meta_error(e, document);
            return Err(match origin {
                Some((reference, at, uri)) => {
                    registry::loaded_document_error(e, &uri, &reference, &at)
                }
                None => e,
            });
        }
    }
    Ok(())
}

fn meta_error(e: Error, document: &Value) -> Error {
    if e.class() != ErrorClass::Validation {
        // A limit met while checking the schema is about the schema, not about arguments.
        let message = format!(
            "checking the schema against its meta-schema stopped: {}",
            e.message()
        );
        return Error::new(
            e.class(),
            ErrorSubject::Schema,
            message,
            e.failures().to_vec(),
        );
    }
    // Report the most specific failure first: the deepest location is where the fix goes.
    let mut failures = e.failures().to_vec();
    failures.sort_by_key(|f| std::cmp::Reverse(f.instance_location().matches('/').count()));
    let first = &failures[0];
    let at = if first.instance_location().is_empty() {
        "the root".to_string()
    } else {
        first.instance_location().to_string()
    };
    let shown = crate::pointer::follow_pointer(document, first.instance_location())
        .map(crate::messages::show)
        .unwrap_or_default();
    let message = format!(
        "the schema is invalid at {at} (value {shown}): {} (meta-schema keyword {})",
        first.message(),
        first.keyword()
    );
    Error::new(
        ErrorClass::Validation,
        ErrorSubject::Schema,
        message,
        failures,
    )
}
