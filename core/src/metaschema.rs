//! The 2020-12 meta-schemas, embedded so that references to them resolve offline, and the
//! validator that checks every schema against them when it is built.

use crate::validator::Validator;
use serde_json::Value;
use std::sync::OnceLock;

/// Every embedded meta-schema document: its `$id` and its text.
pub const DOCUMENTS: &[(&str, &str)] = &[
    (
        "https://json-schema.org/draft/2020-12/schema",
        include_str!("../metaschemas/schema.json"),
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/core",
        include_str!("../metaschemas/meta/core.json"),
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/applicator",
        include_str!("../metaschemas/meta/applicator.json"),
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/unevaluated",
        include_str!("../metaschemas/meta/unevaluated.json"),
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/validation",
        include_str!("../metaschemas/meta/validation.json"),
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/meta-data",
        include_str!("../metaschemas/meta/meta-data.json"),
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/format-annotation",
        include_str!("../metaschemas/meta/format-annotation.json"),
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/format-assertion",
        include_str!("../metaschemas/meta/format-assertion.json"),
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/content",
        include_str!("../metaschemas/meta/content.json"),
    ),
];

fn parsed() -> &'static [(&'static str, Value)] {
    static PARSED: OnceLock<Vec<(&'static str, Value)>> = OnceLock::new();
    PARSED.get_or_init(|| {
        DOCUMENTS
            .iter()
            .map(|(uri, text)| {
                let value =
                    serde_json::from_str(text).expect("embedded meta-schemas are valid JSON");
                (*uri, value)
            })
            .collect()
    })
}

/// The embedded document with this URI (no fragment), if there is one.
pub fn document(uri: &str) -> Option<&'static Value> {
    parsed().iter().find(|(u, _)| *u == uri).map(|(_, v)| v)
}

/// The validator for the 2020-12 meta-schema, built once.
pub(crate) fn validator() -> &'static Validator {
    static VALIDATOR: OnceLock<Validator> = OnceLock::new();
    VALIDATOR.get_or_init(|| {
        let schema = document(crate::frontend::vocabulary::DIALECT_2020_12)
            .expect("the 2020-12 meta-schema is embedded");
        Validator::trusted(schema)
    })
}
