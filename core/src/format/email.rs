//! RFC 5321 §4.1.2 `Mailbox` and its RFC 6531 §3.3 extension.
//!
//! ```text
//! Mailbox         = Local-part "@" ( Domain / address-literal )
//! Local-part      = Dot-string / Quoted-string
//! Dot-string      = Atom *("." Atom)
//! Quoted-string   = DQUOTE *QcontentSMTP DQUOTE
//! address-literal = "[" ( IPv4-address-literal / IPv6-address-literal /
//!                         General-address-literal ) "]"
//! ```

use icu_normalizer::ComposingNormalizerBorrowed;

use super::hostname::{self, Rules};
use super::ip::{self, Dialect};

/// RFC 5321 §4.5.3.1.1.
const MAX_LOCAL_PART: usize = 64;

/// RFC 5322 §3.2.3 `atext`, extended by RFC 6531 with `UTF8-non-ascii`.
fn is_atext(c: char, utf8: bool) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-/=?^_`{|}~".contains(c) || (utf8 && !c.is_ascii())
}

fn local_part(s: &str, utf8: bool) -> bool {
    if s.is_empty() || s.len() > MAX_LOCAL_PART {
        return false;
    }
    if let Some(inner) = s.strip_prefix('"') {
        // qtextSMTP = %d32-33 / %d35-91 / %d93-126; quoted-pairSMTP = "\" %d32-126
        let mut chars = inner.chars();
        loop {
            match chars.next() {
                None => return false,
                Some('"') => return chars.as_str().is_empty(),
                Some('\\') => match chars.next() {
                    Some(' '..='~') => {}
                    _ => return false,
                },
                Some(c) if (' '..='~').contains(&c) => {}
                Some(c) if utf8 && !c.is_ascii() => {}
                Some(_) => return false,
            }
        }
    }
    s.split('.')
        .all(|atom| !atom.is_empty() && atom.chars().all(|c| is_atext(c, utf8)))
}

/// `address-literal`, brackets stripped. No `Standardized-tag` for a
/// General-address-literal is registered with IANA besides `IPv6`, so no
/// other tag is accepted.
fn address_literal(b: &[u8]) -> bool {
    match b.get(..5) {
        Some(tag) if tag.eq_ignore_ascii_case(b"IPv6:") => ip::ipv6(&b[5..], Dialect::Smtp),
        _ => ip::ipv4(b, Dialect::Smtp),
    }
}

fn mailbox(s: &str, utf8: bool) -> bool {
    // The local part may contain a quoted "@", the domain never does.
    let Some(at) = s.rfind('@') else {
        return false;
    };
    let (local, domain) = (&s[..at], &s[at + 1..]);
    if !local_part(local, utf8) {
        return false;
    }
    if let Some(literal) = domain.strip_prefix('[') {
        return literal
            .strip_suffix(']')
            .is_some_and(|l| address_literal(l.as_bytes()));
    }
    if utf8 {
        // RFC 6532 §3.1 makes NFC a SHOULD for an address, not a MUST, and
        // UTS 46 processing normalizes a domain before its labels are
        // checked: a domain whose NFC form is a valid IDN is accepted. (The
        // U-labels themselves must be in NFC, so `idn-hostname` still
        // rejects the unnormalized form.)
        let domain = ComposingNormalizerBorrowed::new_nfc().normalize(domain);
        hostname::domain(&domain, Rules::Mailbox)
    } else {
        hostname::is_hostname(domain)
    }
}

/// `email`: RFC 5321 `Mailbox`, ASCII only.
pub(super) fn is_email(s: &str) -> bool {
    mailbox(s, false)
}

/// `idn-email`: RFC 6531 `Mailbox`: UTF-8 in the local part, and a domain
/// that is an internationalized host name.
pub(super) fn is_idn_email(s: &str) -> bool {
    mailbox(s, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_string_local_parts() {
        for ok in [
            "a@example.com",
            "a.b.c@example.com",
            "!#$%&'*+-/=?^_`{|}~@example.com",
            "user+tag@example.com",
            "x@a",
            "postmaster@localhost",
        ] {
            assert!(is_email(ok), "{ok}");
        }
        for bad in [
            "",
            "@",
            "a@",
            "@a",
            ".a@example.com",
            "a.@example.com",
            "a..b@example.com",
            "a b@example.com",
            "a(b)@example.com",
            "a,b@example.com",
            "a[b]@example.com",
            "a\\b@example.com",
            "a@b@example.com",
            "a:b@example.com",
            "a;b@example.com",
            "a<b>@example.com",
            "é@example.com",
        ] {
            assert!(!is_email(bad), "{bad}");
        }
    }

    #[test]
    fn quoted_string_local_parts() {
        for ok in [
            "\"\"@example.com",
            "\"a b\"@example.com",
            "\"a@b\"@example.com",
            "\"a..b\"@example.com",
            "\"a\\\"b\"@example.com",
            "\"a\\\\b\"@example.com",
            "\"\\ \"@example.com",
        ] {
            assert!(is_email(ok), "{ok}");
        }
        for bad in [
            "\"@example.com",
            "\"a\"b\"@example.com",
            "\"a\\\"@example.com",
            "\"a\"\"b\"@example.com",
            "\"a\"x@example.com",
            "\"a\tb\"@example.com",
            "\"a\\\tb\"@example.com",
            "\"é\"@example.com",
        ] {
            assert!(!is_email(bad), "{bad}");
        }
    }

    #[test]
    fn lengths() {
        let local64 = "a".repeat(64);
        assert!(is_email(&format!("{local64}@example.com")));
        assert!(!is_email(&format!("a{local64}@example.com")));
        let label63 = "a".repeat(63);
        assert!(is_email(&format!("a@{label63}.com")));
        assert!(!is_email(&format!("a@a{label63}.com")));
    }

    #[test]
    fn domains_and_address_literals() {
        for ok in [
            "a@[127.0.0.1]",
            "a@[001.002.003.004]",
            "a@[IPv6:::1]",
            "a@[ipv6:2001:db8::1]",
            "a@[IPv6:2001:db8:1:2:3:4:5:6]",
            "a@[IPv6:::ffff:192.0.2.1]",
            "a@xn--bcher-kva.example",
            "a@sub-domain.example",
        ] {
            assert!(is_email(ok), "{ok}");
        }
        for bad in [
            "a@[127.0.0.256]",
            "a@[127.0.0]",
            "a@[::1]",
            "a@[IPv6:1:2:3:4:5:6:7::]",
            "a@[IPv6:12345::]",
            "a@[x400:foo]",
            "a@[]",
            "a@[127.0.0.1",
            "a@127.0.0.1]",
            "a@-example.com",
            "a@example-.com",
            "a@example..com",
            "a@example.com.",
            "a@exa_mple.com",
            "a@xn--X",
            "a@bücher.example",
        ] {
            assert!(!is_email(bad), "{bad}");
        }
    }

    #[test]
    fn rfc6531_internationalized() {
        for ok in [
            "用户@例子.广告",
            "δοκιμή@παράδειγμα.δοκιμή",
            "\"用 户\"@example.com",
            "a@bücher.example",
            "a@[IPv6:::1]",
            "joe.bloggs@example.com",
            // Not in NFC: a SHOULD for addresses (RFC 6532 §3.1); the domain
            // is checked in its normalized form, the local part as written.
            "user@cafe\u{301}.com",
            "cafe\u{301}@example.com",
            "\u{85}@example.com",
            "\u{ffff}@example.com",
            "\u{1d54f}@example.com",
            // RFC 6531 keeps RFC 5321's ASCII `sub-domain`, so a label with
            // `--` in positions 3–4 that is no A-label is still a label here,
            // though IDNA2008 reserves it (`idn-hostname` rejects it).
            "a@ab--cd.example",
            "a@t4--312bpxg.xn--9t4ba",
        ] {
            assert!(is_idn_email(ok), "{ok}");
        }
        for both in ["a@ab--cd.example", "a@t4--312bpxg.xn--9t4ba"] {
            assert!(is_email(both), "{both}");
        }
        for bad in [
            "用户@例子。广告",
            "a@Bücher.example",
            "a..b@例子.广告",
            "a@-例子.广告",
            "用户@",
            "\"a\u{7}\"@example.com",
            "user\u{ff20}example.com",
            // Normalizing does not make a disallowed code point valid.
            "user@\u{301}cafe.com",
            "user@caf\u{e9}\u{ff0e}com",
        ] {
            assert!(!is_idn_email(bad), "{bad}");
        }
    }
}
