//! URI handling for identifiers and references: RFC 3986/3987 resolution and normalisation,
//! by `fluent-uri`.

use fluent_uri::{Iri, IriRef};

/// The base URI of a schema that has no `$id` of its own.
pub const DEFAULT_BASE: &str = "toolschema:///schema.json";

/// Resolves `reference` against the absolute `base` and normalises the result.
pub fn resolve(base: &str, reference: &str) -> Result<String, String> {
    let reference_parsed = IriRef::parse(reference)
        .map_err(|e| format!("`{reference}` is not a valid URI reference: {e}"))?;
    let base = Iri::parse(base).map_err(|e| format!("the base URI `{base}` is not valid: {e}"))?;
    let resolved = reference_parsed
        .resolve_against(&base)
        .map_err(|e| format!("`{reference}` cannot be resolved against `{base}`: {e}"))?;
    Ok(resolved.normalize().to_string())
}

/// Parses and normalises an absolute URI.
pub fn normalize_absolute(uri: &str) -> Result<String, String> {
    let parsed = Iri::parse(uri).map_err(|e| format!("`{uri}` is not an absolute URI: {e}"))?;
    Ok(parsed.normalize().to_string())
}

/// Splits `uri#fragment` into the URI without fragment and the raw fragment (empty if none).
pub fn split_fragment(uri: &str) -> (&str, &str) {
    match uri.find('#') {
        Some(i) => (&uri[..i], &uri[i + 1..]),
        None => (uri, ""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_relative_references() {
        assert_eq!(
            resolve("http://localhost:1234/a/b.json", "c.json#/x").unwrap(),
            "http://localhost:1234/a/c.json#/x"
        );
        assert_eq!(
            resolve(DEFAULT_BASE, "#foo").unwrap(),
            "toolschema:///schema.json#foo"
        );
        assert_eq!(
            resolve(
                "urn:uuid:deadbeef-1234-ffff-ffff-4321feebdaed",
                "#/$defs/bar"
            )
            .unwrap(),
            "urn:uuid:deadbeef-1234-ffff-ffff-4321feebdaed#/$defs/bar"
        );
        assert_eq!(
            resolve("HTTP://Example.COM/a/./b", "").unwrap(),
            "http://example.com/a/b"
        );
    }

    #[test]
    fn splits_fragments() {
        assert_eq!(split_fragment("a#b#c"), ("a", "b#c"));
        assert_eq!(split_fragment("a"), ("a", ""));
    }
}
