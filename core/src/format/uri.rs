//! `uri`, `uri-reference`, `iri` and `iri-reference` (RFC 3986, RFC 3987),
//! delegated to `fluent-uri`, whose parsers follow those grammars exactly.

use fluent_uri::{Iri, IriRef, Uri, UriRef};

/// RFC 3986 `URI`: a scheme is required and only ASCII is allowed.
pub(super) fn is_uri(s: &str) -> bool {
    Uri::parse(s).is_ok()
}

/// RFC 3986 `URI-reference`: a URI or a relative reference.
pub(super) fn is_uri_reference(s: &str) -> bool {
    UriRef::parse(s).is_ok()
}

/// RFC 3987 `IRI`: a scheme is required; `ucschar` allowed, `iprivate` only in the query.
pub(super) fn is_iri(s: &str) -> bool {
    Iri::parse(s).is_ok()
}

/// RFC 3987 `IRI-reference`.
pub(super) fn is_iri_reference(s: &str) -> bool {
    IriRef::parse(s).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3986_section_1_1_2_examples() {
        for ok in [
            "ftp://ftp.is.co.za/rfc/rfc1808.txt",
            "http://www.ietf.org/rfc/rfc2396.txt",
            "ldap://[2001:db8::7]/c=GB?objectClass?one",
            "mailto:John.Doe@example.com",
            "news:comp.infosystems.www.servers.unix",
            "tel:+1-816-555-1212",
            "telnet://192.0.2.16:80/",
            "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
        ] {
            assert!(is_uri(ok), "{ok}");
            assert!(is_uri_reference(ok), "{ok}");
            assert!(is_iri(ok), "{ok}");
            assert!(is_iri_reference(ok), "{ok}");
        }
    }

    #[test]
    fn rfc3986_section_5_4_relative_references() {
        for r in [
            "g:h", "g", "./g", "g/", "/g", "//g", "?y", "g?y", "#s", "g#s", ";x", "", ".", "../..",
            "../../g",
        ] {
            assert!(is_uri_reference(r), "{r}");
            assert!(is_iri_reference(r), "{r}");
        }
        assert!(!is_uri("g"));
        assert!(!is_uri("//g"));
        assert!(!is_uri(""));
    }

    #[test]
    fn uri_boundaries() {
        assert!(is_uri("a:"));
        assert!(is_uri("http://[v7.abc]/"));
        assert!(is_uri("http://[::ffff:1.2.3.4]/"));
        assert!(!is_uri("http://[::1/"));
        assert!(!is_uri("http://[1:2]/"));
        assert!(!is_uri("http://a/%zz"));
        assert!(!is_uri("http://a/ b"));
        assert!(!is_uri("1a:b"));
        assert!(!is_uri("http://é.example/"));
        assert!(!is_uri_reference("é"));
        assert!(!is_uri_reference("a\\b"));
        assert!(!is_uri_reference("http://a:b:c/"));
    }

    #[test]
    fn rfc3987_iri_characters() {
        assert!(is_iri("http://r\u{e9}sum\u{e9}.example.org"));
        assert!(is_iri("http://example.com/\u{10300}\u{10301}"));
        // `iprivate` is allowed only in the query.
        assert!(is_iri("http://example.com/?\u{e000}"));
        assert!(!is_iri("http://example.com/\u{e000}"));
        // Non-characters and controls are never `ucschar`.
        assert!(!is_iri("http://example.com/\u{fffe}"));
        assert!(!is_iri("http://example.com/\u{85}"));
        assert!(!is_iri("r\u{e9}sum\u{e9}"));
        assert!(is_iri_reference("r\u{e9}sum\u{e9}"));
    }
}
