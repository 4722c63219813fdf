//! IPv4 dotted-quad and RFC 4291 IPv6 text forms, shared with the address
//! literals of RFC 5321, whose grammar differs in two details.

/// How strictly the textual forms are read.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Dialect {
    /// `ipv4`/`ipv6` formats: octets are RFC 3986 `dec-octet` (no leading
    /// zeros) and `::` stands for one or more zero groups (RFC 4291 §2.2).
    Standard,
    /// RFC 5321 §4.1.3: octets are `Snum` (1 to 3 digits, leading zeros
    /// allowed) and `::` stands for at least two zero groups.
    Smtp,
}

fn octet(b: &[u8], dialect: Dialect) -> bool {
    if b.is_empty() || b.len() > 3 || !b.iter().all(u8::is_ascii_digit) {
        return false;
    }
    if dialect == Dialect::Standard && b.len() > 1 && b[0] == b'0' {
        return false;
    }
    b.iter().fold(0u32, |acc, c| acc * 10 + u32::from(c - b'0')) <= 255
}

pub(super) fn ipv4(b: &[u8], dialect: Dialect) -> bool {
    let mut parts = 0;
    for part in b.split(|&c| c == b'.') {
        parts += 1;
        if parts > 4 || !octet(part, dialect) {
            return false;
        }
    }
    parts == 4
}

/// Counts 16-bit pieces in a `:`-separated run of `h16`s, the last of which
/// may be an embedded IPv4 address (two pieces) when `ipv4_last` is set.
fn pieces(b: &[u8], ipv4_last: bool, dialect: Dialect) -> Option<usize> {
    if b.is_empty() {
        return Some(0);
    }
    let mut count = 0;
    let mut iter = b.split(|&c| c == b':').peekable();
    while let Some(part) = iter.next() {
        let last = iter.peek().is_none();
        if last && ipv4_last && part.contains(&b'.') {
            if !ipv4(part, dialect) {
                return None;
            }
            count += 2;
        } else if (1..=4).contains(&part.len()) && part.iter().all(u8::is_ascii_hexdigit) {
            count += 1;
        } else {
            return None;
        }
        if count > 8 {
            return None;
        }
    }
    Some(count)
}

pub(super) fn ipv6(b: &[u8], dialect: Dialect) -> bool {
    match b.windows(2).position(|w| w == b"::") {
        None => pieces(b, true, dialect) == Some(8),
        Some(i) => {
            let (head, tail) = (&b[..i], &b[i + 2..]);
            let (Some(h), Some(t)) = (pieces(head, false, dialect), pieces(tail, true, dialect))
            else {
                return false;
            };
            let max = if dialect == Dialect::Smtp { 6 } else { 7 };
            h + t <= max
        }
    }
}

/// `ipv4`: four decimal octets 0–255 without leading zeros.
pub(super) fn is_ipv4(s: &str) -> bool {
    ipv4(s.as_bytes(), Dialect::Standard)
}

/// `ipv6`: RFC 4291 §2.2 forms 1–3; no zone id, prefix length or brackets.
pub(super) fn is_ipv6(s: &str) -> bool {
    ipv6(s.as_bytes(), Dialect::Standard)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipv4_boundaries() {
        for ok in [
            "0.0.0.0",
            "255.255.255.255",
            "1.2.3.4",
            "10.0.0.10",
            "199.99.9.0",
        ] {
            assert!(is_ipv4(ok), "{ok}");
        }
        for bad in [
            "",
            "1.2.3",
            "1.2.3.4.5",
            "256.0.0.0",
            "01.2.3.4",
            "1.2.3.04",
            "1.2.3.4.",
            ".1.2.3.4",
            "1..2.3",
            "1.2.3.-4",
            "1.2.3.4/8",
            "1.2.3.1000",
            "0x1.2.3.4",
            "١.2.3.4",
            "1.2.3.4 ",
        ] {
            assert!(!is_ipv4(bad), "{bad}");
        }
    }

    #[test]
    fn rfc4291_section_2_2_forms() {
        // Form 1, preferred.
        assert!(is_ipv6("ABCD:EF01:2345:6789:ABCD:EF01:2345:6789"));
        assert!(is_ipv6("2001:DB8:0:0:8:800:200C:417A"));
        // Form 2, compressed.
        for ok in ["2001:DB8::8:800:200C:417A", "FF01::101", "::1", "::"] {
            assert!(is_ipv6(ok), "{ok}");
        }
        // Form 3, embedded IPv4.
        for ok in [
            "0:0:0:0:0:0:13.1.68.3",
            "0:0:0:0:0:FFFF:129.144.52.38",
            "::13.1.68.3",
        ] {
            assert!(is_ipv6(ok), "{ok}");
        }
        assert!(is_ipv6("::FFFF:129.144.52.38"));
    }

    #[test]
    fn ipv6_boundaries() {
        // `::` may stand for a single group.
        assert!(is_ipv6("1:2:3:4:5:6:7::"));
        assert!(is_ipv6("::2:3:4:5:6:7:8"));
        assert!(is_ipv6("1:2:3:4:5::1.2.3.4"));
        assert!(!is_ipv6("1:2:3:4:5:6::1.2.3.4"));
        assert!(!is_ipv6("1:2:3:4:5:6:7:8::"));
        assert!(!is_ipv6("1:2:3:4:5:6:7::8"));
        assert!(!is_ipv6("1:2:3:4:5:6:7:1.2.3.4"));
        assert!(!is_ipv6("1.2.3.4::"));
        assert!(!is_ipv6("1.2.3.4::1"));
        assert!(!is_ipv6("::1.2.3.4:1"));
        assert!(!is_ipv6("::01.2.3.4"));
        assert!(!is_ipv6("1:::2"));
        assert!(!is_ipv6(":::"));
        assert!(!is_ipv6("::1::"));
        assert!(!is_ipv6("12345::"));
        assert!(!is_ipv6("[::1]"));
        assert!(!is_ipv6("fe80::1%eth0"));
        assert!(!is_ipv6("::/0"));
        assert!(!is_ipv6(""));
        assert!(!is_ipv6(":"));
        assert!(!is_ipv6("g::"));
    }

    #[test]
    fn smtp_dialect() {
        assert!(ipv4(b"001.002.003.004", Dialect::Smtp));
        assert!(!ipv4(b"0001.2.3.4", Dialect::Smtp));
        assert!(ipv6(b"1:2:3:4:5:6::", Dialect::Smtp));
        assert!(!ipv6(b"1:2:3:4:5:6:7::", Dialect::Smtp));
        assert!(ipv6(b"1:2:3:4::1.2.3.4", Dialect::Smtp));
        assert!(!ipv6(b"1:2:3:4:5::1.2.3.4", Dialect::Smtp));
        assert!(ipv6(b"::ffff:001.002.003.004", Dialect::Smtp));
    }
}
