//! Which keywords of a schema object are annotations with their own value, decided while
//! lowering from the vocabularies in force.

use super::keyword::Keyword;
use super::vocabulary::Vocabularies as V;
use crate::ir::KeywordAnnotation;
use serde_json::{Map, Value};
use std::borrow::Cow;

/// The annotations of the schema object `map`, in its key order, listed in `scratch` (kept
/// empty from call to call) and moved into a slice of their exact number.
pub(crate) fn of(
    map: &Map<String, Value>,
    vocab: V,
    scratch: &mut Vec<KeywordAnnotation>,
) -> Box<[KeywordAnnotation]> {
    let out = scratch;
    for (keyword, value) in map {
        // A keyword outside every vocabulary in force is unknown, and an unknown keyword's
        // value is an annotation.
        let known = Keyword::of(keyword);
        let defined_by = known
            .map(Keyword::vocabulary)
            // `format` is defined by either format vocabulary.
            .map(|v| {
                if v == V::FORMAT_ANNOTATION && vocab.contains(V::FORMAT_ASSERTION) {
                    V::FORMAT_ASSERTION
                } else {
                    v
                }
            });
        let annotates = match defined_by {
            Some(v) if vocab.contains(v) => annotating(keyword, map),
            // The core vocabulary is always in force, so `$comment` is never unknown.
            Some(_) | None => Some(false),
        };
        if let Some(strings_only) = annotates {
            out.push(KeywordAnnotation {
                keyword: match known {
                    Some(k) => Cow::Borrowed(k.name()),
                    None => Cow::Owned(keyword.clone()),
                },
                value: value.clone(),
                strings_only,
            });
        }
    }
    out.drain(..).collect()
}

/// Whether a keyword of a vocabulary in force is an annotation with its own value, and then
/// whether only strings are annotated. `contentSchema` annotates only beside
/// `contentMediaType`.
fn annotating(keyword: &str, map: &Map<String, Value>) -> Option<bool> {
    match keyword {
        "title" | "description" | "default" | "deprecated" | "readOnly" | "writeOnly"
        | "examples" | "format" => Some(false),
        "contentEncoding" | "contentMediaType" => Some(true),
        "contentSchema" => map.contains_key("contentMediaType").then_some(true),
        _ => None,
    }
}
