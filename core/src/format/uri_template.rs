//! RFC 6570 §2 URI Template syntax (levels 1 to 4).

/// RFC 3987 `ucschar`.
pub(super) fn is_ucschar(c: char) -> bool {
    let c = c as u32;
    matches!(c, 0xA0..=0xD7FF | 0xF900..=0xFDCF | 0xFDF0..=0xFFEF)
        || (0x10000..=0xEFFFD).contains(&c)
            && (c & 0xFFFF) <= 0xFFFD
            && !(0xE0000..0xE1000).contains(&c)
}

/// RFC 3987 `iprivate`.
pub(super) fn is_iprivate(c: char) -> bool {
    let c = c as u32;
    matches!(c, 0xE000..=0xF8FF | 0xF0000..=0xFFFFD | 0x100000..=0x10FFFD)
}

/// ```text
/// URI-Template  = *( literals / expression )
/// expression    =  "{" [ operator ] variable-list "}"
/// ```
///
/// Operators are those of levels 2 and 3 (`+ # . / ; ? &`) and the ones §2.2
/// reserves for future extensions (`= , ! @ |`): the grammar's `operator`
/// includes `op-reserve`, so a template using them is well formed, although
/// no level expands it yet.
pub(super) fn is_uri_template(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'{' => match expression(&b[i + 1..]) {
                Some(len) => i += len + 2,
                None => return false,
            },
            b'%' => {
                if !pct_encoded(&b[i..]) {
                    return false;
                }
                i += 3;
            }
            c if c.is_ascii() => {
                // literals: any ASCII except CTL, SP, DQUOTE, "%", "<", ">",
                // "\", "^", "`", "{", "|", "}". The published §2.1 also
                // excludes "'", but verified erratum 6937 corrects the range
                // `%x26 / %x28-3B` to `%x26-3B`: "'" is a URI sub-delim and
                // §3.2.1's own example `'{var}'` needs it.
                if c <= 0x20 || c == 0x7F || b"\"<>\\^`|}".contains(&c) {
                    return false;
                }
                i += 1;
            }
            _ => {
                // A non-ASCII byte starts a whole character since `s` is UTF-8.
                let Some(c) = s[i..].chars().next() else {
                    return false;
                };
                if !is_ucschar(c) && !is_iprivate(c) {
                    return false;
                }
                i += c.len_utf8();
            }
        }
    }
    true
}

fn pct_encoded(b: &[u8]) -> bool {
    b.len() >= 3 && b[0] == b'%' && b[1].is_ascii_hexdigit() && b[2].is_ascii_hexdigit()
}

/// Parses `[ operator ] variable-list "}"` and returns the length before `}`.
fn expression(b: &[u8]) -> Option<usize> {
    let end = b.iter().position(|&c| c == b'}')?;
    let mut body = &b[..end];
    // operator = op-level2 / op-level3 / op-reserve
    if let [
        b'+' | b'#' | b'.' | b'/' | b';' | b'?' | b'&' | b'=' | b',' | b'!' | b'@' | b'|',
        rest @ ..,
    ] = body
    {
        body = rest;
    }
    // variable-list = varspec *( "," varspec )
    body.split(|&c| c == b',').all(varspec).then_some(end)
}

/// `varspec = varname [ ":" max-length / "*" ]`
fn varspec(b: &[u8]) -> bool {
    let (name, modifier) = match b.iter().position(|&c| c == b':' || c == b'*') {
        Some(i) => b.split_at(i),
        None => (b, &b""[..]),
    };
    let modifier_ok = match modifier {
        [] | [b'*'] => true,
        // max-length = %x31-39 0*3DIGIT
        [b':', first, rest @ ..] => {
            (b'1'..=b'9').contains(first) && rest.len() <= 3 && rest.iter().all(u8::is_ascii_digit)
        }
        _ => false,
    };
    modifier_ok && varname(name)
}

/// `varname = varchar *( ["."] varchar )`, `varchar = ALPHA / DIGIT / "_" / pct-encoded`
fn varname(b: &[u8]) -> bool {
    let mut i = 0;
    let mut after_dot = true;
    while i < b.len() {
        match b[i] {
            b'.' if !after_dot => {
                after_dot = true;
                i += 1;
                continue;
            }
            b'%' if pct_encoded(&b[i..]) => i += 3,
            c if c.is_ascii_alphanumeric() || c == b'_' => i += 1,
            _ => return false,
        }
        after_dot = false;
    }
    !after_dot
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Templates from RFC 6570 §1.2 and §3.2.
    #[test]
    fn rfc6570_examples() {
        for ok in [
            "{var}",
            "{hello}",
            "{+var}",
            // Operators §2.2 reserves for future extensions: well formed.
            "{=var}",
            "{!var}",
            "{@var}",
            "{|var}",
            "{,var}",
            "{,a}",
            "{+hello}",
            "{+path}/here",
            "here?ref={+path}",
            "X{#var}",
            "X{#hello}",
            "map?{x,y}",
            "{x,hello,y}",
            "{+x,hello,y}",
            "{+path,x}/here",
            "{#x,hello,y}",
            "{#path,x}/here",
            "X{.var}",
            "X{.x,y}",
            "{/var}",
            "{/var,x}/here",
            "{;x,y}",
            "{;x,y,empty}",
            "{?x,y}",
            "{?x,y,empty}",
            "?fixed=yes{&x}",
            "{&x,y,empty}",
            "{var:3}",
            "{var:30}",
            "{list}",
            "{list*}",
            "{keys}",
            "{keys*}",
            "{+path:6}/here",
            "{#keys*}",
            "X{.list*}",
            "{/var:1,var}",
            "{/list*,path:4}",
            "{;hello:5}",
            "{?var:3}",
            "{&keys*}",
            "http://example.com/~{username}/",
            "http://example.com/dictionary/{term:1}/{term}",
            "http://example.com/search{?q,lang}",
            "http://www.example.com/foo{?query,number}",
            "{count}",
            "{count*}",
            "{/count}",
            "{/count*}",
            "{;count}",
            "{?count}",
            "{&count*}",
            "{a.b}",
            "{a%20b}",
            "{var:9999}",
            "caf\u{e9}/{x}",
            "100%25",
            "",
            // Erratum 6937: the apostrophe is a literal.
            "a'b",
            "'{var}'",
            "(period='{period}')",
        ] {
            assert!(is_uri_template(ok), "{ok}");
        }
    }

    #[test]
    fn invalid_templates() {
        for bad in [
            "{",
            "}",
            "{}",
            "{var",
            "var}",
            "{{var}}",
            "{var}}",
            "{,}",
            "{a,}",
            "{a b}",
            "{.a.}",
            "{a..b}",
            "{.}",
            "{var:0}",
            "{var:10000}",
            "{var:}",
            "{var:3*}",
            "{var*:3}",
            "{var**}",
            "{+}",
            "{a-b}",
            "{a%2}",
            "%",
            "%2",
            "%zz",
            "a b",
            "a\"b",
            "a<b",
            "a>b",
            "a\\b",
            "a^b",
            "a`b",
            "a|b",
            "a\u{7f}",
            "a\u{85}",
            "a\u{fffe}",
        ] {
            assert!(!is_uri_template(bad), "{bad}");
        }
    }

    #[test]
    fn iri_character_classes() {
        assert!(is_ucschar('\u{a0}'));
        assert!(!is_ucschar('\u{fdd0}'));
        assert!(is_ucschar('\u{1fffd}'));
        assert!(!is_ucschar('\u{1fffe}'));
        assert!(!is_ucschar('\u{e0001}'));
        assert!(is_ucschar('\u{e1000}'));
        assert!(!is_ucschar('\u{efffe}'));
        assert!(!is_ucschar('\u{f0000}'));
        assert!(is_iprivate('\u{f0000}'));
        assert!(is_iprivate('\u{10fffd}'));
        assert!(!is_iprivate('\u{10ffff}'));
    }
}
