//! JSON Pointer (RFC 6901) and Relative JSON Pointer.

/// RFC 6901 §3: `*( "/" reference-token )`, where `~` must be followed by
/// `0` or `1`; every other character is allowed unescaped.
pub(super) fn is_json_pointer(s: &str) -> bool {
    let b = s.as_bytes();
    if !b.is_empty() && b[0] != b'/' {
        return false;
    }
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'~' {
            if !matches!(b.get(i + 1), Some(b'0' | b'1')) {
                return false;
            }
            i += 1;
        }
        i += 1;
    }
    true
}

/// draft-bhutton-relative-json-pointer-00 §3, the edition 2020-12 cites:
///
/// ```text
/// relative-json-pointer =  non-negative-integer [index-manipulation] <json-pointer>
/// relative-json-pointer =/ non-negative-integer "#"
/// index-manipulation    =  ("+" / "-") non-negative-integer
/// non-negative-integer  =  %x30 / %x31-39 *( %x30-39 )
/// ```
pub(super) fn is_relative_json_pointer(s: &str) -> bool {
    let Some(rest) = non_negative_integer(s) else {
        return false;
    };
    if rest == "#" {
        return true;
    }
    let rest = match rest.strip_prefix(['+', '-']) {
        Some(r) => match non_negative_integer(r) {
            Some(r) => r,
            None => return false,
        },
        None => rest,
    };
    is_json_pointer(rest)
}

/// Strips `0` or a digit run without a leading zero; `None` if there is none.
fn non_negative_integer(s: &str) -> Option<&str> {
    let n = s.bytes().take_while(u8::is_ascii_digit).count();
    match n {
        0 => None,
        1 => Some(&s[1..]),
        _ if s.starts_with('0') => None,
        _ => Some(&s[n..]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc6901_section_5_examples() {
        for ok in [
            "", "/foo", "/foo/0", "/", "/a~1b", "/c%d", "/e^f", "/g|h", "/i\\j", "/k\"l", "/ ",
            "/m~0n",
        ] {
            assert!(is_json_pointer(ok), "{ok:?}");
        }
    }

    #[test]
    fn json_pointer_escapes() {
        assert!(is_json_pointer("/~0~1"));
        assert!(is_json_pointer("/\u{0}/\u{10ffff}"));
        assert!(!is_json_pointer("/~"));
        assert!(!is_json_pointer("/~2"));
        assert!(!is_json_pointer("/~a"));
        assert!(!is_json_pointer("/~/"));
        assert!(!is_json_pointer("~0"));
        assert!(!is_json_pointer("#/foo"));
        assert!(!is_json_pointer("foo"));
    }

    #[test]
    fn relative_pointer_examples() {
        // The draft's §5.1 examples.
        for ok in ["0", "1/0", "0-1", "2/highly/nested/objects", "0#", "1#"] {
            assert!(is_relative_json_pointer(ok), "{ok}");
        }
        // The draft's prose uses "0-1#", but its ABNF allows "#" only right
        // after the integer; the grammar wins.
        assert!(!is_relative_json_pointer("0-1#"));
        for ok in ["0+1", "0+1/foo", "10", "120/a~0b", "0/"] {
            assert!(is_relative_json_pointer(ok), "{ok}");
        }
        for bad in [
            "", "#", "/foo", "-1", "+1", "01", "00", "0##", "0#/", "1~0", "0+", "0+01", "0++1",
            "0a", "٣", "0 /a",
        ] {
            assert!(!is_relative_json_pointer(bad), "{bad}");
        }
    }
}
