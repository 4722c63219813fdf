//! The front end: schema JSON to [`Ir`], once for both back ends.
//!
//! 1. Limits on the document (size, depth), without recursion.
//! 2. The dialect (`$schema`) and vocabularies; anything but 2020-12 is unsupported.
//! 3. The schema-aware walk of each document (`registry`): base URIs, resources, anchors.
//! 4. A check against the meta-schema: an invalid schema is a `Validation` error pointing at
//!    the offending keyword.
//! 5. Lowering (`lower`): one node per subschema, references resolved to nodes.
//! 6. Analysis (`analysis`): termination, and which nodes must track annotations.

pub(crate) mod analysis;
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
use registry::{Loc, Registry};
use serde_json::Value;

pub use uri::DEFAULT_BASE;

/// Builds the IR of `schema`, checking it against its meta-schema.
pub fn build(schema: &Value, options: &Options) -> Result<Ir, Error> {
    build_inner(schema, options, false)
}

/// Builds without the meta-schema check (for the embedded meta-schemas themselves).
pub(crate) fn build_trusted(schema: &Value, options: &Options) -> Result<Ir, Error> {
    build_inner(schema, options, true)
}

fn build_inner(schema: &Value, options: &Options, trusted: bool) -> Result<Ir, Error> {
    let mut reg = Registry::new(options);
    let root = reg.add_root(schema, DEFAULT_BASE, trusted)?;
    check_pending(&mut reg)?;
    let root = Loc {
        doc: root,
        ptr: String::new(),
    };
    let (ir, mut reg) = lower::Lowerer::new(reg).run(root)?;
    // Documents first met while lowering (registry documents, loaded ones) are checked now.
    check_pending(&mut reg)?;
    Ok(ir)
}

/// Checks every document not yet checked against its meta-schema.
fn check_pending(reg: &mut Registry<'_>) -> Result<(), Error> {
    while let Some((doc, dialect)) = reg.unchecked.pop() {
        let handle = reg.handle(doc);
        let document = handle.value();
        let result = match &dialect {
            None => crate::metaschema::validator().validate(document),
            Some(uri) => {
                let meta =
                    Validator::with_options(&serde_json::json!({"$ref": uri}), reg.options())?;
                meta.validate(document)
            }
        };
        if let Err(e) = result {
            return Err(meta_error(e, document));
        }
    }
    Ok(())
}

fn meta_error(e: Error, document: &Value) -> Error {
    if e.class() != ErrorClass::Validation {
        return e;
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
    let shown = crate::pointer::tokens(first.instance_location())
        .and_then(|t| crate::pointer::follow(document, &t).map(crate::messages::show))
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
