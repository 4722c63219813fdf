//! Arbitrary JSON as a schema: building never panics and ends with a validator or an error
//! of a class that fits what is wrong; the interpreter, the code generator and the tool-call
//! rules agree on what builds; and whatever builds is consistent on a few instances.

use crate::evaluation::{consistent, is_pointer};
use serde_json::{Value, json};
use std::sync::OnceLock;
use toolschema::{
    Error, ErrorClass, ErrorSubject, InputSchema, Limits, Options, Validate, Validator, metaschema,
};
use toolschema_compiler::Builder;

/// `data` as JSON text is the schema.
///
/// ```
/// toolschema_reliability::schema_building::check(br##"{"$ref": "#/$defs/a", "$defs": {"a": {"$ref": "#"}}}"##);
/// ```
pub fn check(data: &[u8]) {
    let Ok(schema) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    meta_schema_check(&schema);
    let mut plain = None;
    for formats in [false, true] {
        let options = Options::new().format_assertion(formats);
        let built = Validator::with_options(&schema, &options);
        let generated = Builder::new()
            .options(options.clone())
            .schema_value("fuzz", schema.clone())
            .tokens();
        match (&built, &generated) {
            (Ok(validator), Ok(_)) => {
                for instance in probes() {
                    consistent("built schema", validator, &instance);
                }
            }
            (Err(a), Err(b)) => {
                let b = b.schema_error();
                assert_eq!(
                    Some(a),
                    b,
                    "the interpreter and the code generator disagree"
                );
                schema_error(&schema, a, false);
            }
            _ => panic!(
                "only one path builds {schema}: interpreter {:?}, generator {:?}",
                built.as_ref().err(),
                generated.as_ref().err()
            ),
        }
        if !formats {
            plain = Some(built.err());
        }
    }
    let tool = InputSchema::validate_schema(&schema);
    match &tool {
        Ok(()) => {
            assert!(
                matches!(plain, Some(None)),
                "a tool schema that does not build as a schema: {schema}"
            );
            let tool = InputSchema::new(&schema, &Options::new()).expect("validate_schema passed");
            for instance in probes() {
                consistent("tool schema", &tool, &instance);
            }
            let generated = Builder::new()
                .tool_schemas(true)
                .schema_value("fuzz", schema.clone())
                .tokens();
            assert!(generated.is_ok(), "{:?}", generated.err());
        }
        Err(e) => schema_error(&schema, e, true),
    }
}

/// The meta-schema check that building runs, generated and interpreted: the same verdict and
/// the same failures, in order, for any document.
fn meta_schema_check(document: &Value) {
    static INTERPRETED: OnceLock<Validator> = OnceLock::new();
    let interpreted = INTERPRETED.get_or_init(|| {
        let meta =
            metaschema::document("https://json-schema.org/draft/2020-12/schema").expect("embedded");
        let limits = metaschema::check_limits(&Limits::default());
        Validator::with_options(meta, &Options::new().limits(limits))
            .expect("the meta-schema builds")
    });
    let generated = metaschema::MetaSchema.validate(document);
    assert_eq!(
        generated,
        interpreted.validate(document),
        "the generated meta-schema check and the interpreted one disagree on {document}"
    );
    assert_eq!(metaschema::MetaSchema.is_valid(document), generated.is_ok());
}

/// What every schema error satisfies: it is about the schema, has failures, each pointing at a
/// value of the schema; a schema that is not JSON Schema at all (or, for a `tool`, not an
/// object) is `Validation`, and one that names another draft is `UnsupportedCapability`.
fn schema_error(schema: &Value, e: &Error, tool: bool) {
    assert_eq!(e.subject(), ErrorSubject::Schema, "{schema}: {e}");
    assert!(!e.failures().is_empty(), "{schema}: {e} has no failures");
    for f in e.failures() {
        let at = f.instance_location();
        assert!(is_pointer(at), "{schema}: {e}: location {at:?}");
        assert!(
            schema.pointer(at).is_some(),
            "{schema}: {e}: location {at:?} is not in the schema"
        );
    }
    match schema {
        Value::Bool(_) if !tool => panic!("a boolean schema always builds: {e}"),
        Value::Object(map) => {
            if let Some(Value::String(dialect)) = map.get("$schema")
                && OLDER_DRAFTS.contains(&dialect.as_str())
            {
                assert_eq!(
                    e.class(),
                    ErrorClass::UnsupportedCapability,
                    "{schema}: {e}"
                );
            }
        }
        _ => assert_eq!(e.class(), ErrorClass::Validation, "{schema}: {e}"),
    }
}

const OLDER_DRAFTS: &[&str] = &[
    "http://json-schema.org/draft-04/schema#",
    "http://json-schema.org/draft-06/schema#",
    "http://json-schema.org/draft-07/schema#",
    "https://json-schema.org/draft/2019-09/schema",
];

/// One instance of each type and a few shapes, for the schemas that build.
fn probes() -> [Value; 10] {
    [
        json!(null),
        json!(true),
        json!(0),
        json!(-1.5),
        json!(""),
        json!("a"),
        json!([]),
        json!([1, "a", [null]]),
        json!({}),
        json!({"a": 1, "b": {"c": "d"}}),
    ]
}
