//! The `format` vocabulary of JSON Schema 2020-12: one checker per format
//! name the specification defines, each written against the standard that
//! format names.
//!
//! ```
//! use toolschema::format::Format;
//!
//! let f = Format::from_name("date").unwrap();
//! assert!(f.is_valid("2020-02-29"));
//! assert!(!f.is_valid("2021-02-29"));
//! assert_eq!(Format::from_name("no-such-format"), None);
//! ```

mod date_time;
mod email;
mod hostname;
mod idn;
mod ip;
mod pointer;
mod punycode;
mod uri;
mod uri_template;
mod uuid;

/// A format name defined by JSON Schema 2020-12 (Validation §7.3).
///
/// ```
/// use toolschema::format::Format;
///
/// assert_eq!(Format::Ipv4.name(), "ipv4");
/// assert!(Format::Ipv4.is_valid("192.168.0.1"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Format {
    /// `date-time`: RFC 3339 §5.6 `date-time`.
    DateTime,
    /// `date`: RFC 3339 §5.6 `full-date`.
    Date,
    /// `time`: RFC 3339 §5.6 `full-time` (an offset is required).
    Time,
    /// `duration`: RFC 3339 Appendix A `duration`.
    Duration,
    /// `email`: RFC 5321 §4.1.2 `Mailbox`.
    Email,
    /// `idn-email`: RFC 6531 §3.3 `Mailbox`.
    IdnEmail,
    /// `hostname`: RFC 1123 §2.1 host name; `xn--` labels must be valid A-labels.
    Hostname,
    /// `idn-hostname`: IDNA2008 (RFC 5890–5893) internationalized host name.
    IdnHostname,
    /// `ipv4`: dotted-quad, RFC 2673 §3.2.
    Ipv4,
    /// `ipv6`: RFC 4291 §2.2 text forms.
    Ipv6,
    /// `uri`: RFC 3986 `URI`.
    Uri,
    /// `uri-reference`: RFC 3986 `URI-reference`.
    UriReference,
    /// `iri`: RFC 3987 `IRI`.
    Iri,
    /// `iri-reference`: RFC 3987 `IRI-reference`.
    IriReference,
    /// `uri-template`: RFC 6570 §2 `URI-Template`.
    UriTemplate,
    /// `uuid`: RFC 4122 §3 string representation.
    Uuid,
    /// `json-pointer`: RFC 6901 §3 `json-pointer`.
    JsonPointer,
    /// `relative-json-pointer`: draft-bhutton-relative-json-pointer-00 §3.
    RelativeJsonPointer,
    /// `regex`: an ECMA-262 regular expression.
    Regex,
}

impl Format {
    /// Every format, in the order of the specification's sections.
    ///
    /// ```
    /// use toolschema::format::Format;
    ///
    /// for f in Format::ALL {
    ///     assert_eq!(Format::from_name(f.name()), Some(*f));
    /// }
    /// ```
    pub const ALL: &'static [Format] = &[
        Format::DateTime,
        Format::Date,
        Format::Time,
        Format::Duration,
        Format::Email,
        Format::IdnEmail,
        Format::Hostname,
        Format::IdnHostname,
        Format::Ipv4,
        Format::Ipv6,
        Format::Uri,
        Format::UriReference,
        Format::Iri,
        Format::IriReference,
        Format::UriTemplate,
        Format::Uuid,
        Format::JsonPointer,
        Format::RelativeJsonPointer,
        Format::Regex,
    ];

    /// The format named `name` (names are case-sensitive), or `None` for a
    /// name 2020-12 does not define (unknown formats are ignored by the
    /// validator).
    ///
    /// ```
    /// use toolschema::format::Format;
    ///
    /// assert_eq!(Format::from_name("uri-reference"), Some(Format::UriReference));
    /// assert_eq!(Format::from_name("URI"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Format> {
        Some(match name {
            "date-time" => Format::DateTime,
            "date" => Format::Date,
            "time" => Format::Time,
            "duration" => Format::Duration,
            "email" => Format::Email,
            "idn-email" => Format::IdnEmail,
            "hostname" => Format::Hostname,
            "idn-hostname" => Format::IdnHostname,
            "ipv4" => Format::Ipv4,
            "ipv6" => Format::Ipv6,
            "uri" => Format::Uri,
            "uri-reference" => Format::UriReference,
            "iri" => Format::Iri,
            "iri-reference" => Format::IriReference,
            "uri-template" => Format::UriTemplate,
            "uuid" => Format::Uuid,
            "json-pointer" => Format::JsonPointer,
            "relative-json-pointer" => Format::RelativeJsonPointer,
            "regex" => Format::Regex,
            _ => return None,
        })
    }

    /// The name as written in a schema's `format` keyword.
    ///
    /// ```
    /// use toolschema::format::Format;
    ///
    /// assert_eq!(Format::IdnHostname.name(), "idn-hostname");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Format::DateTime => "date-time",
            Format::Date => "date",
            Format::Time => "time",
            Format::Duration => "duration",
            Format::Email => "email",
            Format::IdnEmail => "idn-email",
            Format::Hostname => "hostname",
            Format::IdnHostname => "idn-hostname",
            Format::Ipv4 => "ipv4",
            Format::Ipv6 => "ipv6",
            Format::Uri => "uri",
            Format::UriReference => "uri-reference",
            Format::Iri => "iri",
            Format::IriReference => "iri-reference",
            Format::UriTemplate => "uri-template",
            Format::Uuid => "uuid",
            Format::JsonPointer => "json-pointer",
            Format::RelativeJsonPointer => "relative-json-pointer",
            Format::Regex => "regex",
        }
    }

    /// Whether `s` conforms. (Only strings are checked; the caller passes
    /// other types through.)
    ///
    /// ```
    /// use toolschema::format::Format;
    ///
    /// assert!(Format::Email.is_valid("joe.bloggs@example.com"));
    /// assert!(!Format::Email.is_valid("joe..bloggs@example.com"));
    /// ```
    pub fn is_valid(self, s: &str) -> bool {
        match self {
            Format::DateTime => date_time::is_date_time(s),
            Format::Date => date_time::is_date(s),
            Format::Time => date_time::is_time(s),
            Format::Duration => date_time::is_duration(s),
            Format::Email => email::is_email(s),
            Format::IdnEmail => email::is_idn_email(s),
            Format::Hostname => hostname::is_hostname(s),
            Format::IdnHostname => idn::is_idn_hostname(s),
            Format::Ipv4 => ip::is_ipv4(s),
            Format::Ipv6 => ip::is_ipv6(s),
            Format::Uri => uri::is_uri(s),
            Format::UriReference => uri::is_uri_reference(s),
            Format::Iri => uri::is_iri(s),
            Format::IriReference => uri::is_iri_reference(s),
            Format::UriTemplate => uri_template::is_uri_template(s),
            Format::Uuid => uuid::is_uuid(s),
            Format::JsonPointer => pointer::is_json_pointer(s),
            Format::RelativeJsonPointer => pointer::is_relative_json_pointer(s),
            Format::Regex => crate::regex::is_valid_syntax(s),
        }
    }

    /// A short phrase for error messages, e.g. "an RFC 3339 date-time".
    ///
    /// ```
    /// use toolschema::format::Format;
    ///
    /// let msg = format!("expected {}", Format::Uuid.description());
    /// assert_eq!(msg, "expected an RFC 4122 UUID");
    /// ```
    pub fn description(self) -> &'static str {
        match self {
            Format::DateTime => "an RFC 3339 date-time",
            Format::Date => "an RFC 3339 full-date",
            Format::Time => "an RFC 3339 full-time",
            Format::Duration => "an RFC 3339 duration",
            Format::Email => "an RFC 5321 email address",
            Format::IdnEmail => "an RFC 6531 internationalized email address",
            Format::Hostname => "an RFC 1123 host name",
            Format::IdnHostname => "an IDNA2008 internationalized host name",
            Format::Ipv4 => "an IPv4 address in dotted-decimal form",
            Format::Ipv6 => "an RFC 4291 IPv6 address",
            Format::Uri => "an absolute RFC 3986 URI",
            Format::UriReference => "an RFC 3986 URI reference",
            Format::Iri => "an absolute RFC 3987 IRI",
            Format::IriReference => "an RFC 3987 IRI reference",
            Format::UriTemplate => "an RFC 6570 URI template",
            Format::Uuid => "an RFC 4122 UUID",
            Format::JsonPointer => "an RFC 6901 JSON Pointer",
            Format::RelativeJsonPointer => "a relative JSON Pointer",
            Format::Regex => "an ECMA-262 regular expression",
        }
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        assert_eq!(Format::ALL.len(), 19);
        for &f in Format::ALL {
            assert_eq!(Format::from_name(f.name()), Some(f));
            assert_eq!(f.to_string(), f.name());
            assert!(!f.description().is_empty());
        }
        for unknown in ["", "Date", "int32", "uri ", "ipv4\0", "color"] {
            assert_eq!(Format::from_name(unknown), None);
        }
    }

    /// Odd inputs must give a verdict, never a panic.
    #[test]
    fn no_panic_on_odd_input() {
        let long_ascii = "a".repeat(100_000);
        let long_dots = ".".repeat(10_000);
        let long_labels = "ab.".repeat(30_000);
        let long_unicode = "é".repeat(50_000);
        let long_xn = format!("xn--{}", "a".repeat(5000));
        let long_digits = "9".repeat(10_000);
        let long_duration = format!("P{}D", "9".repeat(10_000));
        let long_template = format!("{{{}}}", "a".repeat(10_000));
        let mut inputs: Vec<String> = [
            "",
            "\0",
            "\u{7f}",
            "\u{80}",
            "\u{ffff}",
            "\u{10ffff}",
            "\u{fffd}",
            "\u{200c}",
            "\u{200d}",
            "\u{0300}",
            "\u{30fb}",
            "\u{00b7}",
            "\u{0375}",
            "\u{05f3}",
            "%",
            "%%",
            "%4",
            "%zz",
            "{",
            "}",
            "{}",
            "{,}",
            "{:}",
            "{a:0}",
            "{a:99999}",
            "[",
            "]",
            "[::]",
            ":",
            "::",
            ":::",
            ".",
            "..",
            "-",
            "--",
            "xn--",
            "xn---",
            "xn--a",
            "XN--",
            "xn--0",
            "xn--zzzzzzzzzzzzzzzzzzzzzzzzzz",
            "xn--99999999999999",
            "@",
            "@@",
            "\"",
            "\"@",
            "\"\\",
            "a@[",
            "a@[IPv6:",
            "a@[]",
            "T",
            "P",
            "PT",
            "Z",
            "#",
            "~",
            "/~",
            "0#",
            "9999#",
            "1963-06-19T08:30:06.Z",
            "23:59:60+99:99",
            "99:99:99Z",
            "0000-00-00",
            "\u{0628}\u{0660}\u{06f0}",
            "1.2.3.4.5",
            "1::2::3",
            "ffff:".repeat(20).as_str(),
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        for c in (0u32..0x300).chain([0x2028, 0x3002, 0xff0e, 0xff61, 0xe000, 0x1f600]) {
            if let Some(c) = char::from_u32(c) {
                inputs.push(c.to_string());
                inputs.push(format!("a{c}b"));
                inputs.push(format!("a@{c}"));
                inputs.push(format!("xn--{c}"));
            }
        }
        inputs.extend([
            long_ascii,
            long_dots,
            long_labels,
            long_unicode,
            long_xn,
            long_digits,
            long_duration,
            long_template,
        ]);
        for f in Format::ALL {
            for s in &inputs {
                let _ = f.is_valid(s);
            }
        }
    }
}
