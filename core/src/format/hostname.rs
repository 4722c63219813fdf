//! Host names: RFC 1123 §2.1 for `hostname`, IDNA2008 (RFC 5890 §2.3.2)
//! for `idn-hostname`. Both check A-labels by decoding them.

use super::idn::{self, Bidi};
use super::punycode::{self, MAX_CHARS};

/// RFC 1035 §2.3.4 limits: 63 octets a label, 255 octets on the wire, which
/// is 253 characters of dotted text without the root's trailing dot.
const MAX_LABEL: usize = 63;
const MAX_NAME: usize = 253;

/// The Bidi facts of an LDH label: its letters are L, digits EN and hyphens
/// ES, so only a leading digit breaks the rule (condition 1).
fn ldh_bidi(label: &[u8]) -> Bidi {
    Bidi {
        rtl: false,
        rule_ok: label[0].is_ascii_alphabetic(),
    }
}

/// An A-label (RFC 5890 §2.3.2.1, RFC 5891 §5.4): `xn--` and the Punycode
/// of a valid U-label, which must encode back to the same string. Labels
/// compare case-insensitively in the DNS, so the label is lowercased first.
fn a_label(label: &[u8]) -> Option<Bidi> {
    let mut lower = [0u8; MAX_LABEL];
    let encoded = &mut lower[..label.len() - 4];
    encoded.copy_from_slice(&label[4..]);
    encoded.make_ascii_lowercase();
    let encoded = &*encoded;
    let mut chars = ['\0'; MAX_CHARS];
    let len = punycode::decode(encoded, &mut chars)?;
    let chars = &chars[..len];
    // Re-encode into a stack buffer as text for the NFC check, and compare
    // the Punycode for the round trip.
    let mut text = [0u8; MAX_CHARS * 4];
    let mut at = 0;
    for c in chars {
        at += c.encode_utf8(&mut text[at..]).len();
    }
    let text = std::str::from_utf8(&text[..at]).ok()?;
    let bidi = idn::u_label(chars, text)?;
    let mut expect = encoded.iter();
    let same = punycode::encode(chars, |b| expect.next() == Some(&b));
    (same && expect.next().is_none()).then_some(bidi)
}

/// Which kind of domain name is checked: the formats differ in the labels and
/// separators they admit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Rules {
    /// `hostname`: RFC 1123 LDH labels and A-labels, separated by `.`.
    Hostname,
    /// `idn-hostname`: IDNA2008, whose labels are NR-LDH labels, A-labels or
    /// U-labels (RFC 5890 §2.3.1 reserves other `??--` labels), separated by
    /// any of the four full stops of RFC 3490 §3.1.
    Idn,
    /// The domain of `idn-email`: RFC 6531 §3.3 adds U-labels to RFC 5321's
    /// `sub-domain` and keeps the ASCII form, which admits every LDH label as
    /// `hostname` does; separated by `.` only.
    Mailbox,
}

impl Rules {
    fn u_labels(self) -> bool {
        self != Rules::Hostname
    }

    fn reserved_ldh(self) -> bool {
        self != Rules::Idn
    }

    fn is_separator(self, c: char) -> bool {
        c == '.' || (self == Rules::Idn && matches!(c, '\u{3002}' | '\u{ff0e}' | '\u{ff61}'))
    }
}

/// Checks one label and returns its length in ASCII (A-label) form along
/// with its Bidi facts.
fn label(label: &str, rules: Rules) -> Option<(usize, Bidi)> {
    let b = label.as_bytes();
    if label.is_ascii() {
        if b.is_empty()
            || b.len() > MAX_LABEL
            || b[0] == b'-'
            || b[b.len() - 1] == b'-'
            || !b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'-')
        {
            return None;
        }
        if b.get(2..4) == Some(b"--") {
            if b[..2].eq_ignore_ascii_case(b"xn") {
                return a_label(b).map(|bidi| (b.len(), bidi));
            }
            if !rules.reserved_ldh() {
                return None;
            }
        }
        return Some((b.len(), ldh_bidi(b)));
    }
    if !rules.u_labels() {
        return None;
    }
    // Every code point costs at least one Punycode character, so a longer
    // label cannot fit in 63 octets as an A-label.
    let mut chars = ['\0'; MAX_CHARS];
    let mut len = 0;
    for c in label.chars() {
        if len == MAX_LABEL - 4 {
            return None;
        }
        chars[len] = c;
        len += 1;
    }
    let chars = &chars[..len];
    let bidi = idn::u_label(chars, label)?;
    let mut ace_len = 4;
    punycode::encode(chars, |_| {
        ace_len += 1;
        ace_len <= MAX_LABEL
    })
    .then_some((ace_len, bidi))
}

/// Walks the labels of `s`, checking each and the name as a whole: total
/// length in ASCII form, and the Bidi rule when any label is right-to-left
/// (RFC 5893 §2 applies to every label of such a name).
pub(super) fn domain(s: &str, rules: Rules) -> bool {
    let (mut total, mut any_rtl, mut all_bidi_ok) = (0, false, true);
    for part in s.split(|c| rules.is_separator(c)) {
        let Some((len, bidi)) = label(part, rules) else {
            return false;
        };
        total += len + 1;
        if total > MAX_NAME + 1 {
            return false;
        }
        any_rtl |= bidi.rtl;
        all_bidi_ok &= bidi.rule_ok;
    }
    !any_rtl || all_bidi_ok
}

/// `hostname`: RFC 1123 labels of letters, digits and hyphens; a label
/// starting `xn--` must be a valid A-label.
pub(super) fn is_hostname(s: &str) -> bool {
    domain(s, Rules::Hostname)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::idn::is_idn_hostname;

    #[test]
    fn rfc1123_names() {
        for ok in [
            "a",
            "localhost",
            "example.com",
            "3com.com",
            "a-b.c-d",
            "A.B.C",
            "1.2.3.4",
            "ab--cd",
        ] {
            assert!(is_hostname(ok), "{ok}");
        }
        for bad in [
            "",
            ".",
            "a.",
            ".a",
            "a..b",
            "-a",
            "a-",
            "a_b",
            "a b",
            "é.com",
            "a.b\u{3002}c",
        ] {
            assert!(!is_hostname(bad), "{bad}");
        }
    }

    #[test]
    fn lengths() {
        let l63 = "a".repeat(63);
        assert!(is_hostname(&l63));
        assert!(!is_hostname(&"a".repeat(64)));
        // 4 × 63 + 3 dots = 255 > 253; 63+63+63+61 + 3 = 253.
        let name253 = format!("{l63}.{l63}.{l63}.{}", "a".repeat(61));
        assert_eq!(name253.len(), 253);
        assert!(is_hostname(&name253));
        assert!(!is_hostname(&format!("{name253}a")));
        assert!(!is_hostname(&format!("a.{name253}")));
    }

    #[test]
    fn a_labels() {
        // RFC 5890/3492 style examples.
        assert!(is_hostname("xn--bcher-kva.example"));
        assert!(is_hostname("XN--BCHER-KVA.example"));
        assert!(is_hostname("xn--ihqwcrb4cv8a8dqg056pqjye"));
        // Decodes to "bucher": no non-ASCII character, so no A-label.
        assert!(!is_hostname("xn--bucher-"));
        assert!(is_hostname("xn--Bcher-kva"));
        assert!(is_hostname("xn--bcher-kvaa"));
        // Not Punycode at all.
        assert!(!is_hostname("xn--"));
        assert!(!is_hostname("xn---"));
        assert!(!is_hostname("xn--a"));
        // Decodes to a non-NFC string ("u" + U+0308): "xn--bucher-..."
        assert!(!is_hostname("xn--bucher-xyd"));
    }

    #[test]
    fn idn_names() {
        for ok in [
            "b\u{fc}cher.example",
            "xn--bcher-kva.example",
            "\u{4f8b}\u{5b50}\u{3002}\u{5e7f}\u{544a}",
            "\u{4f8b}\u{5b50}\u{ff0e}\u{5e7f}\u{544a}",
            "\u{4f8b}\u{5b50}\u{ff61}\u{5e7f}\u{544a}",
            "EXAMPLE.com",
            "\u{5d0}\u{5d1}.example",
        ] {
            assert!(is_idn_hostname(ok), "{ok}");
        }
        for bad in [
            "B\u{fc}cher.example",
            "ab--cd.example",
            "b\u{fc}cher..example",
            "b\u{fc}cher.",
            "\u{3002}",
            // In a name with an RTL label, an LDH label may not start with a digit.
            "\u{5d0}\u{5d1}.1example",
            "a\u{2028}b",
        ] {
            assert!(!is_idn_hostname(bad), "{bad}");
        }
    }

    #[test]
    fn idn_lengths_count_the_a_label() {
        // 20 distinct CJK characters take 41 Punycode characters, 14 take 29
        // (so 45 and 33 as A-labels): the limit is on the A-label.
        let cjk = |n: u32| {
            (0..n)
                .filter_map(|i| char::from_u32(0x4e00 + i * 37))
                .collect::<String>()
        };
        assert!(is_idn_hostname(&cjk(14)));
        assert!(is_idn_hostname(&cjk(20)));
        assert!(!is_idn_hostname(&cjk(40)));
        let greek = "\u{3b1}".repeat(50);
        assert!(is_idn_hostname(&greek));
        assert!(!is_idn_hostname(&"\u{3b1}".repeat(70)));
    }
}
