//! Content encodings and media types (JSON Schema 2020-12 Validation §8):
//! the decoding and parsing steps behind `contentEncoding`,
//! `contentMediaType` and `contentSchema`.
//!
//! ```
//! use toolschema::content::{ContentEncoding, ContentMediaType};
//!
//! let enc = ContentEncoding::from_name("base64").unwrap();
//! let media = ContentMediaType::from_name("application/json").unwrap();
//! let bytes = enc.decode("eyJhIjogMX0=").unwrap();
//! assert_eq!(media.parse(&bytes), Some(serde_json::json!({"a": 1})));
//! ```

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;

/// A `contentEncoding` value this crate can decode.
///
/// ```
/// use toolschema::content::ContentEncoding;
///
/// assert_eq!(ContentEncoding::from_name("base64"), Some(ContentEncoding::Base64));
/// assert_eq!(ContentEncoding::Base64.decode("aGk="), Some(b"hi".to_vec()));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ContentEncoding {
    /// RFC 4648 §4 base64, standard alphabet, padding required.
    Base64,
}

impl ContentEncoding {
    /// The encoding named `name`, or `None` for one this crate does not
    /// know. Names are matched case-insensitively, as RFC 2045 §6.1 does
    /// for the `Content-Transfer-Encoding` values the keyword borrows.
    ///
    /// ```
    /// use toolschema::content::ContentEncoding;
    ///
    /// assert_eq!(ContentEncoding::from_name("BASE64"), Some(ContentEncoding::Base64));
    /// assert_eq!(ContentEncoding::from_name("base32"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Self> {
        name.eq_ignore_ascii_case("base64")
            .then_some(ContentEncoding::Base64)
    }

    /// The canonical name.
    ///
    /// ```
    /// use toolschema::content::ContentEncoding;
    ///
    /// assert_eq!(ContentEncoding::Base64.name(), "base64");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            ContentEncoding::Base64 => "base64",
        }
    }

    /// The decoded bytes, or `None` if `s` is not in this encoding.
    ///
    /// Base64 is strict, as RFC 4648 §3.3 asks of data not otherwise
    /// specified: only the standard alphabet, `=` padding to a multiple of
    /// four, zero bits in the unused tail, and no whitespace or line breaks.
    ///
    /// ```
    /// use toolschema::content::ContentEncoding;
    ///
    /// let b64 = ContentEncoding::Base64;
    /// assert_eq!(b64.decode("Zm9vYmFy"), Some(b"foobar".to_vec()));
    /// assert_eq!(b64.decode("Zm9vYg"), None); // padding missing
    /// assert_eq!(b64.decode("Zm9v\nYmFy"), None); // line break
    /// ```
    pub fn decode(self, s: &str) -> Option<Vec<u8>> {
        match self {
            ContentEncoding::Base64 => STANDARD.decode(s).ok(),
        }
    }
}

/// A `contentMediaType` value this crate can parse.
///
/// ```
/// use toolschema::content::ContentMediaType;
///
/// let json = ContentMediaType::from_name("application/json; charset=utf-8").unwrap();
/// assert_eq!(json.parse(b"[1, 2]"), Some(serde_json::json!([1, 2])));
/// assert_eq!(json.parse(b"[1, 2"), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ContentMediaType {
    /// `application/json` (RFC 8259).
    Json,
}

impl ContentMediaType {
    /// The media type named by `name`, an RFC 9110 §8.3.1 `media-type`:
    /// type and subtype compare case-insensitively, and well-formed
    /// parameters (such as `charset`) are allowed and ignored, since JSON
    /// is always UTF-8 (RFC 8259 §8.1). `None` for other or malformed types.
    ///
    /// ```
    /// use toolschema::content::ContentMediaType;
    ///
    /// assert_eq!(ContentMediaType::from_name("Application/JSON"), Some(ContentMediaType::Json));
    /// assert_eq!(ContentMediaType::from_name("text/plain"), None);
    /// assert_eq!(ContentMediaType::from_name("application/json;"), Some(ContentMediaType::Json));
    /// assert_eq!(ContentMediaType::from_name("application/json; =x"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Self> {
        let b = name.as_bytes();
        let essence_len = b
            .iter()
            .position(|&c| !is_tchar(c) && c != b'/')
            .unwrap_or(b.len());
        let (essence, params) = b.split_at(essence_len);
        if !essence.eq_ignore_ascii_case(b"application/json") || !parameters(params) {
            return None;
        }
        Some(ContentMediaType::Json)
    }

    /// The canonical name.
    ///
    /// ```
    /// use toolschema::content::ContentMediaType;
    ///
    /// assert_eq!(ContentMediaType::Json.name(), "application/json");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            ContentMediaType::Json => "application/json",
        }
    }

    /// The parsed document, or `None` if `bytes` are not one of this type.
    ///
    /// JSON must be a single RFC 8259 value in UTF-8 (no byte order mark),
    /// optionally surrounded by whitespace.
    ///
    /// ```
    /// use toolschema::content::ContentMediaType;
    ///
    /// let json = ContentMediaType::Json;
    /// assert_eq!(json.parse(b" null "), Some(serde_json::Value::Null));
    /// assert_eq!(json.parse(b"{} {}"), None);
    /// assert_eq!(json.parse(b"\xff"), None);
    /// ```
    pub fn parse(self, bytes: &[u8]) -> Option<serde_json::Value> {
        match self {
            ContentMediaType::Json => serde_json::from_slice(bytes).ok(),
        }
    }
}

/// RFC 9110 §5.6.2 `tchar`.
fn is_tchar(c: u8) -> bool {
    c.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&c)
}

/// RFC 9110 §5.6.6: `parameters = *( OWS ";" OWS [ parameter ] )`, with
/// `parameter = token "=" ( token / quoted-string )`.
fn parameters(mut b: &[u8]) -> bool {
    let ows = |b: &[u8]| b.iter().take_while(|&&c| c == b' ' || c == b'\t').count();
    let token = |b: &[u8]| b.iter().take_while(|&&c| is_tchar(c)).count();
    loop {
        if b.is_empty() {
            return true;
        }
        let Some(rest) = b[ows(b)..].strip_prefix(b";") else {
            return false;
        };
        b = &rest[ows(rest)..];
        if b.is_empty() || b[0] == b';' {
            continue;
        }
        let name = token(b);
        if name == 0 || b.get(name) != Some(&b'=') {
            return false;
        }
        b = &b[name + 1..];
        let value = if b.first() == Some(&b'"') {
            quoted_string(b)
        } else {
            token(b)
        };
        if value == 0 {
            return false;
        }
        b = &b[value..];
    }
}

/// The length of the RFC 9110 §5.6.4 `quoted-string` at the start of `b`,
/// or 0 if there is none.
fn quoted_string(b: &[u8]) -> usize {
    let text = |c: u8| c == b'\t' || c == b' ' || (0x21..=0x7E).contains(&c) || c >= 0x80;
    let mut i = 1;
    while i < b.len() {
        match b[i] {
            b'"' => return i + 1,
            b'\\' if b.get(i + 1).is_some_and(|&c| text(c)) => i += 2,
            b'\\' => return 0,
            c if text(c) => i += 1,
            _ => return 0,
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// RFC 4648 §10 test vectors.
    #[test]
    fn rfc4648_vectors() {
        let b64 = ContentEncoding::Base64;
        for (plain, encoded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(
                b64.decode(encoded).as_deref(),
                Some(plain.as_bytes()),
                "{encoded}"
            );
        }
    }

    #[test]
    fn base64_strictness() {
        let b64 = ContentEncoding::Base64;
        assert_eq!(b64.decode("+/+/"), Some(vec![0xfb, 0xff, 0xbf]));
        for bad in [
            "Zg", "Zg=", "Zg===", "Zm8", "Zm9vYg", "=", "====", "Zg==Zg==", "Zm9v ", " Zm9v",
            "Zm 9v", "Zm9v\n", "Zm9v\r\n", "Zm9v\t", "-_-_", "Zm9v*", "Zh==", "Zm9=", "Zé==",
            "Z===",
        ] {
            assert_eq!(b64.decode(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn encoding_names() {
        assert_eq!(
            ContentEncoding::from_name("base64"),
            Some(ContentEncoding::Base64)
        );
        assert_eq!(
            ContentEncoding::from_name("Base64"),
            Some(ContentEncoding::Base64)
        );
        for other in [
            "",
            "base64url",
            "base32",
            "quoted-printable",
            "7bit",
            "binary",
            "base64 ",
        ] {
            assert_eq!(ContentEncoding::from_name(other), None, "{other}");
        }
    }

    #[test]
    fn media_type_names() {
        for ok in [
            "application/json",
            "APPLICATION/JSON",
            "application/json;charset=utf-8",
            "application/json; charset=UTF-8",
            "application/json ; charset=\"utf-8\"",
            "application/json;a=b;c=\"d\\\"e\"",
            "application/json;;",
            "application/json\t;\tq=1",
        ] {
            assert_eq!(
                ContentMediaType::from_name(ok),
                Some(ContentMediaType::Json),
                "{ok}"
            );
        }
        for bad in [
            "",
            "json",
            "application",
            "application/",
            "application/jsonx",
            "application/json5",
            "application/problem+json",
            "text/json",
            " application/json",
            "application/json ",
            "application /json",
            "application/json; charset",
            "application/json; charset=",
            "application/json; charset=\"utf-8",
            "application/json; =utf-8",
            "application/json; a b=c",
            "application/json x",
        ] {
            assert_eq!(ContentMediaType::from_name(bad), None, "{bad}");
        }
    }

    #[test]
    fn json_parsing() {
        let j = ContentMediaType::Json;
        assert_eq!(
            j.parse(b"{\"a\":[1,true,null]}"),
            Some(json!({"a": [1, true, null]}))
        );
        assert_eq!(j.parse(b"\"\\u00e9\""), Some(json!("\u{e9}")));
        assert_eq!(j.parse(b"\t\r\n 0 \n"), Some(json!(0)));
        for bad in [
            &b""[..],
            b" ",
            b"{",
            b"[1,]",
            b"{'a':1}",
            b"NaN",
            b"01",
            b"1 2",
            b"\xef\xbb\xbf{}",
            b"\"\xff\"",
            b"\"\\ud800\"",
            b"/* */ 1",
        ] {
            assert_eq!(j.parse(bad), None, "{bad:?}");
        }
        // Deep nesting is refused, not a stack overflow.
        let deep = "[".repeat(100_000);
        assert_eq!(j.parse(deep.as_bytes()), None);
    }
}
