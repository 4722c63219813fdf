//! Dialects and vocabularies: which keywords a schema resource's meta-schema switches on.

use crate::error::{Error, ErrorClass};
use serde_json::Value;

/// The only dialect accepted.
pub const DIALECT_2020_12: &str = "https://json-schema.org/draft/2020-12/schema";

/// A set of vocabularies, as bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Vocabularies(u8);

impl Vocabularies {
    pub const CORE: Vocabularies = Vocabularies(1);
    pub const APPLICATOR: Vocabularies = Vocabularies(1 << 1);
    pub const UNEVALUATED: Vocabularies = Vocabularies(1 << 2);
    pub const VALIDATION: Vocabularies = Vocabularies(1 << 3);
    pub const META_DATA: Vocabularies = Vocabularies(1 << 4);
    pub const FORMAT_ANNOTATION: Vocabularies = Vocabularies(1 << 5);
    pub const FORMAT_ASSERTION: Vocabularies = Vocabularies(1 << 6);
    pub const CONTENT: Vocabularies = Vocabularies(1 << 7);

    /// The vocabularies of the 2020-12 meta-schema.
    pub const STANDARD: Vocabularies = Vocabularies(
        Self::CORE.0
            | Self::APPLICATOR.0
            | Self::UNEVALUATED.0
            | Self::VALIDATION.0
            | Self::META_DATA.0
            | Self::FORMAT_ANNOTATION.0
            | Self::CONTENT.0,
    );

    pub fn contains(self, other: Vocabularies) -> bool {
        self.0 & other.0 == other.0
    }

    fn with(self, other: Vocabularies) -> Vocabularies {
        Vocabularies(self.0 | other.0)
    }

    fn from_uri(uri: &str) -> Option<Vocabularies> {
        let name = uri.strip_prefix("https://json-schema.org/draft/2020-12/vocab/")?;
        Some(match name {
            "core" => Self::CORE,
            "applicator" => Self::APPLICATOR,
            "unevaluated" => Self::UNEVALUATED,
            "validation" => Self::VALIDATION,
            "meta-data" => Self::META_DATA,
            "format-annotation" => Self::FORMAT_ANNOTATION,
            "format-assertion" => Self::FORMAT_ASSERTION,
            "content" => Self::CONTENT,
            _ => return None,
        })
    }

    /// Reads a meta-schema's `$vocabulary`. `pointer` locates the schema that named this
    /// meta-schema, for the error.
    pub fn from_declaration(
        declaration: &Value,
        metaschema_uri: &str,
        pointer: &str,
    ) -> Result<Vocabularies, Error> {
        let Value::Object(map) = declaration else {
            return Err(Error::schema(
                ErrorClass::Validation,
                pointer,
                "$schema",
                format!(
                    "the meta-schema {metaschema_uri} has a `$vocabulary` that is not an object"
                ),
            ));
        };
        // Core is always in force: without it nothing could be identified or referenced.
        let mut set = Vocabularies::CORE;
        for (uri, required) in map {
            match (Vocabularies::from_uri(uri), required) {
                (Some(v), _) => set = set.with(v),
                (None, Value::Bool(false)) => {}
                (None, _) => {
                    return Err(Error::schema(
                        ErrorClass::UnsupportedCapability,
                        pointer,
                        "$schema",
                        format!(
                            "the meta-schema {metaschema_uri} requires the vocabulary {uri}, which is not supported"
                        ),
                    ));
                }
            }
        }
        Ok(set)
    }
}

/// Recognises the URIs of dialects that are known but not accepted, for a precise message.
pub fn known_other_draft(uri: &str) -> Option<&'static str> {
    let trimmed = uri.trim_end_matches('#');
    let trimmed = trimmed
        .strip_prefix("http://")
        .or_else(|| trimmed.strip_prefix("https://"))?;
    Some(match trimmed {
        "json-schema.org/draft/2019-09/schema" => "Draft 2019-09",
        "json-schema.org/draft-07/schema" => "Draft 7",
        "json-schema.org/draft-06/schema" => "Draft 6",
        "json-schema.org/draft-04/schema" => "Draft 4",
        "json-schema.org/draft-03/schema" => "Draft 3",
        "json-schema.org/schema" => "the latest published draft (an unpinned dialect)",
        _ => return None,
    })
}

/// Whether `uri` names the 2020-12 dialect (with or without an empty fragment).
pub fn is_2020_12(uri: &str) -> bool {
    uri.strip_suffix('#').unwrap_or(uri) == DIALECT_2020_12
}
