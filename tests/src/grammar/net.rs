//! RFC 5321 `Mailbox` (`email`), RFC 1123 host names, IPv4 dotted quads and RFC 4291 IPv6 text.

use super::{ALPHA, DIGIT, Grammar, HEXDIG, Rng};

pub(super) fn grammars() -> Vec<Grammar> {
    vec![
        Grammar {
            format: "email",
            valid: email,
            invalid: bad_email,
        },
        Grammar {
            format: "hostname",
            valid: hostname,
            invalid: bad_hostname,
        },
        Grammar {
            format: "ipv4",
            valid: ipv4,
            invalid: bad_ipv4,
        },
        Grammar {
            format: "ipv6",
            valid: |r| ipv6(r, 1),
            invalid: bad_ipv6,
        },
    ]
}

/// RFC 5322 §3.2.3 `atext`.
pub(super) const ATEXT: &str =
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-/=?^_`{|}~";

/// RFC 1034 §3.5 / RFC 1123 §2.1 `label`: letters, digits and inner hyphens, 1–63 octets.
pub(super) fn ldh_label(r: &mut Rng, max: usize) -> String {
    let alnum = format!("{ALPHA}{DIGIT}");
    let len = r.range(1, max);
    let mut label = String::new();
    for i in 0..len {
        let inner = i > 0 && i + 1 < len;
        // Keep `--` out of the third and fourth positions: there it marks an A-label.
        let hyphen_ok = inner && !(i == 2 || i == 3);
        if hyphen_ok && r.one_in(6) {
            label.push('-');
        } else {
            label.push(r.char_of(&alnum));
        }
    }
    label
}

/// Known A-labels (RFC 3492 Punycode of real U-labels), in either case.
const A_LABELS: &[&str] = &[
    "xn--bcher-kva",
    "xn--mnchen-3ya",
    "xn--fsqu00a",
    "xn--0zwm56d",
    "xn--zckzah",
    "xn--9t4b11yi5a",
];

fn hostname(r: &mut Rng) -> String {
    loop {
        let name = r.join(1, 5, ".", |r| {
            if r.one_in(6) {
                let a = r.pick(A_LABELS);
                r.any_case(a)
            } else {
                ldh_label(r, 63)
            }
        });
        // At most 253 octets in all (RFC 1034 §3.1, without the root's length octets).
        if name.len() <= 253 {
            return name;
        }
    }
}

fn bad_hostname(r: &mut Rng) -> String {
    let good = ldh_label(r, 20);
    match r.below(8) {
        0 => format!("-{good}.com"),
        1 => format!("{good}-.com"),
        2 => format!("{good}..com"),
        3 => format!("{good}.com."),
        4 => format!("{good}_x.com"),
        5 => "a".repeat(64),
        6 => vec!["a".repeat(63); 4].join("."),
        _ => format!("{good}.c m"),
    }
}

fn dec_octet(r: &mut Rng) -> String {
    r.range(0, 255).to_string()
}

pub(super) fn ipv4(r: &mut Rng) -> String {
    r.join(4, 4, ".", dec_octet)
}

fn bad_ipv4(r: &mut Rng) -> String {
    match r.below(6) {
        0 => r.join(3, 3, ".", dec_octet),
        1 => r.join(5, 5, ".", dec_octet),
        2 => format!("{}.{}", r.join(3, 3, ".", dec_octet), r.range(256, 999)),
        3 => format!("0{}.{}", r.range(0, 99), r.join(3, 3, ".", dec_octet)),
        4 => format!("{}.", ipv4(r)),
        _ => format!("{} ", ipv4(r)),
    }
}

fn h16(r: &mut Rng) -> String {
    r.chars_of(HEXDIG, 1, 4)
}

/// RFC 4291 §2.2 (the RFC 3986 `IPv6address` rule): eight 16-bit groups, the last two
/// possibly a dotted quad, and at most one `::` for at least `elided` groups (one there; two
/// in RFC 5321's `IPv6-comp` and `IPv6v4-comp`).
pub(super) fn ipv6(r: &mut Rng, elided: usize) -> String {
    let dotted = r.one_in(4);
    let groups = if dotted { 6 } else { 8 };
    let tail = if dotted { ipv4(r) } else { String::new() };
    let join = |mut parts: Vec<String>, tail: &str| {
        if !tail.is_empty() {
            parts.push(tail.to_string());
        }
        parts.join(":")
    };
    if r.one_in(3) {
        let parts = (0..groups).map(|_| h16(r)).collect();
        return join(parts, &tail);
    }
    let explicit = r.range(0, groups - elided);
    let before = r.range(0, explicit);
    let head: Vec<String> = (0..before).map(|_| h16(r)).collect();
    let rest: Vec<String> = (0..explicit - before).map(|_| h16(r)).collect();
    let rest = join(rest, &tail);
    format!("{}::{rest}", head.join(":"))
}

fn bad_ipv6(r: &mut Rng) -> String {
    let groups = |r: &mut Rng, n| r.join(n, n, ":", h16);
    match r.below(9) {
        // `::` for no group at all.
        7 => format!("{}::{}", groups(r, 3), groups(r, 5)),
        0 => groups(r, 9),
        1 => groups(r, 7),
        2 => format!("{}::{}", groups(r, 4), groups(r, 4)),
        3 => format!("{}::{}::", groups(r, 1), groups(r, 1)),
        4 => format!("{}:12345", groups(r, 7)),
        5 => format!("{}:g", groups(r, 7)),
        6 => format!("[{}]", groups(r, 8)),
        _ => format!("::{}.01", r.join(3, 3, ".", dec_octet)),
    }
}

/// RFC 5321 §4.1.2 `Dot-string` or `Quoted-string`, at most 64 octets.
fn local_part(r: &mut Rng, utf8: &[char]) -> String {
    let extra: String = utf8.iter().collect();
    let set = format!("{ATEXT}{extra}");
    let local = if r.one_in(4) {
        // qtextSMTP and quoted-pairSMTP.
        let qtext: String = (' '..='~').filter(|c| !matches!(c, '"' | '\\')).collect();
        let qtext = format!("{qtext}{extra}");
        let body = r.join(0, 10, "", |r| {
            if r.one_in(5) {
                format!("\\{}", char::from(r.range(32, 126) as u8))
            } else {
                r.char_of(&qtext).to_string()
            }
        });
        format!("\"{body}\"")
    } else {
        r.join(1, 4, ".", |r| r.chars_of(&set, 1, 8))
    };
    if local.len() > 64 {
        "a".repeat(64)
    } else {
        local
    }
}

/// The domain of a `Mailbox`: a host name or an address literal.
pub(super) fn mail_domain(r: &mut Rng, name: fn(&mut Rng) -> String) -> String {
    match r.below(6) {
        0 => format!("[{}]", ipv4(r)),
        1 => format!("[{}:{}]", r.any_case("IPv6"), ipv6(r, 2)),
        _ => name(r),
    }
}

/// `Mailbox` with the given extra local-part characters.
pub(super) fn mailbox(r: &mut Rng, utf8: &[char], name: fn(&mut Rng) -> String) -> String {
    let local = local_part(r, utf8);
    let domain = mail_domain(r, name);
    format!("{local}@{domain}")
}

fn email(r: &mut Rng) -> String {
    mailbox(r, &[], hostname)
}

/// A `Mailbox` with one rule broken.
pub(super) fn bad_mailbox(r: &mut Rng, good: String) -> String {
    let at = good.rfind('@').unwrap();
    let (local, domain) = (&good[..at], &good[at + 1..]);
    match r.below(9) {
        // RFC 5321 §4.1.3: in an address literal `::` stands for at least two groups.
        8 => format!(
            "{local}@[IPv6:{}::{}]",
            r.join(3, 3, ":", h16),
            r.join(4, 4, ":", h16)
        ),
        0 => format!("{local}{domain}"),
        1 => format!(".{local}@{domain}"),
        2 => format!("a..b@{domain}"),
        3 => format!("a b@{domain}"),
        4 => format!("{local}@"),
        5 => format!("{}@{domain}", "a".repeat(65)),
        6 => format!("{local}@[{}]", r.join(3, 3, ".", dec_octet)),
        _ => format!("{local}@-{domain}"),
    }
}

fn bad_email(r: &mut Rng) -> String {
    let good = email(r);
    bad_mailbox(r, good)
}
