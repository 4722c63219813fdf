//! JSON Pointers (RFC 6901): building them for error locations, and following them for `$ref`.

use serde_json::Value;
use std::borrow::Cow;

/// Appends `/token` to `pointer`, escaping `~` and `/`.
pub fn push_token(pointer: &mut String, token: &str) {
    pointer.reserve(token.len() + 1);
    pointer.push('/');
    // Most tokens have nothing to escape and are copied whole.
    if !token.bytes().any(|b| b == b'~' || b == b'/') {
        pointer.push_str(token);
        return;
    }
    for c in token.chars() {
        match c {
            '~' => pointer.push_str("~0"),
            '/' => pointer.push_str("~1"),
            c => pointer.push(c),
        }
    }
}

/// Appends `/index`, without the formatting machinery (failure locations write many).
pub fn push_index(pointer: &mut String, mut index: usize) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (index % 10) as u8;
        index /= 10;
        if index == 0 {
            break;
        }
    }
    pointer.push('/');
    pointer.extend(digits[at..].iter().map(|&d| char::from(d)));
}

/// Splits a pointer into unescaped tokens; `None` when it is not a valid pointer.
pub fn tokens(pointer: &str) -> Option<Vec<String>> {
    if pointer.is_empty() {
        return Some(Vec::new());
    }
    let rest = pointer.strip_prefix('/')?;
    rest.split('/').map(unescape_token).collect()
}

fn unescape_token(token: &str) -> Option<String> {
    if !token.contains('~') {
        return Some(token.to_string());
    }
    let mut out = String::with_capacity(token.len());
    let mut chars = token.chars();
    while let Some(c) = chars.next() {
        if c == '~' {
            match chars.next() {
                Some('0') => out.push('~'),
                Some('1') => out.push('/'),
                _ => return None,
            }
        } else {
            out.push(c);
        }
    }
    Some(out)
}

/// Follows the JSON Pointer `pointer` from `root`, without splitting it into owned tokens
/// (only a token holding an escape is copied); `None` when it is not a valid pointer or leads
/// nowhere.
///
/// ```
/// use serde_json::json;
/// use toolschema::pointer::follow_pointer;
/// let doc = json!({"$defs": {"a/b": {"items": [true, {"type": "string"}]}}});
/// assert_eq!(follow_pointer(&doc, "/$defs/a~1b/items/1/type"), Some(&json!("string")));
/// assert_eq!(follow_pointer(&doc, ""), Some(&doc));
/// assert_eq!(follow_pointer(&doc, "/$defs/a~2b"), None);
/// assert_eq!(follow_pointer(&doc, "$defs"), None);
/// ```
pub fn follow_pointer<'v>(root: &'v Value, pointer: &str) -> Option<&'v Value> {
    if pointer.is_empty() {
        return Some(root);
    }
    let mut current = root;
    for raw in pointer.strip_prefix('/')?.split('/') {
        let token: Cow<'_, str> = if raw.contains('~') {
            Cow::Owned(unescape_token(raw)?)
        } else {
            Cow::Borrowed(raw)
        };
        current = match current {
            Value::Object(map) => map.get(token.as_ref())?,
            Value::Array(items) => items.get(array_index(&token)?)?,
            _ => return None,
        };
    }
    Some(current)
}

/// An array index token: digits without a leading zero (RFC 6901 §4).
fn array_index(token: &str) -> Option<usize> {
    if token.is_empty()
        || (token.len() > 1 && token.starts_with('0'))
        || !token.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    token.parse().ok()
}

/// Joins unescaped tokens back into a pointer string.
pub fn join(tokens: &[String]) -> String {
    let mut out = String::new();
    for t in tokens {
        push_token(&mut out, t);
    }
    out
}

/// Percent-decodes a URI fragment; `None` when the escapes are malformed or not UTF-8.
pub fn percent_decode(fragment: &str) -> Option<String> {
    if !fragment.contains('%') {
        return Some(fragment.to_string());
    }
    let bytes = fragment.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = fragment.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// Percent-encodes what a URI fragment may not hold as is, so a pointer can be written as
/// `base#pointer` in an absolute keyword location.
pub fn fragment_encode(pointer: &str) -> String {
    let mut out = String::with_capacity(pointer.len());
    push_fragment_encoded(&mut out, pointer);
    out
}

/// Appends `pointer` to `out` as [`fragment_encode`] writes it.
pub fn push_fragment_encoded(out: &mut String, pointer: &str) {
    out.reserve(pointer.len());
    // Runs of characters a fragment holds as they are are copied whole: most pointers are
    // one run.
    let mut rest = pointer;
    loop {
        let run = rest
            .bytes()
            .position(|b| !fragment_safe(b))
            .unwrap_or(rest.len());
        out.push_str(&rest[..run]);
        rest = &rest[run..];
        let Some(c) = rest.chars().next() else {
            return;
        };
        let mut buf = [0u8; 4];
        for b in c.encode_utf8(&mut buf).bytes() {
            const HEX: &[u8; 16] = b"0123456789ABCDEF";
            out.push('%');
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 0xf)]));
        }
        rest = &rest[c.len_utf8()..];
    }
}

/// Whether a fragment holds the ASCII byte `b` as it is (RFC 3986 `pchar`, `/` and `?`,
/// less `%`).
fn fragment_safe(b: u8) -> bool {
    matches!(
        b,
        b'A'..=b'Z'
            | b'a'..=b'z'
            | b'0'..=b'9'
            | b'-'
            | b'.'
            | b'_'
            | b'~'
            | b'!'
            | b'$'
            | b'&'
            | b'\''
            | b'('
            | b')'
            | b'*'
            | b'+'
            | b','
            | b';'
            | b'='
            | b':'
            | b'@'
            | b'/'
            | b'?'
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn escapes_round_trip() {
        let mut p = String::new();
        push_token(&mut p, "a/b~c");
        push_index(&mut p, 3);
        assert_eq!(p, "/a~1b~0c/3");
        assert_eq!(
            tokens(&p).unwrap(),
            vec!["a/b~c".to_string(), "3".to_string()]
        );
        assert_eq!(join(&tokens(&p).unwrap()), p);
    }

    #[test]
    fn follows_objects_and_arrays() {
        let doc = json!({"a": [10, {"b/c": true}]});
        assert_eq!(follow_pointer(&doc, "/a/1/b~1c"), Some(&json!(true)));
        assert_eq!(follow_pointer(&doc, "/a/01"), None);
        assert_eq!(follow_pointer(&doc, "/a/2"), None);
        assert!(tokens("a").is_none());
        assert!(tokens("/~2").is_none());
    }

    #[test]
    fn percent_coding() {
        assert_eq!(percent_decode("/a%25b%22").unwrap(), "/a%b\"");
        assert!(percent_decode("%zz").is_none());
        assert!(percent_decode("%").is_none());
        assert_eq!(fragment_encode("/a b%"), "/a%20b%25");
        assert_eq!(fragment_encode(""), "");
        assert_eq!(fragment_encode("%"), "%25");
        assert_eq!(
            fragment_encode("/$defs/é/x~1y/{z}/€😀?q=1&r"),
            "/$defs/%C3%A9/x~1y/%7Bz%7D/%E2%82%AC%F0%9F%98%80?q=1&r"
        );
        // Every character but the pointer's own round-trips.
        let all: String = (0u32..0x800).filter_map(char::from_u32).collect();
        assert_eq!(percent_decode(&fragment_encode(&all)).unwrap(), all);
    }
}
