//! RFC 3986 URIs and references, RFC 3987 IRIs, RFC 6570 URI templates.

use super::net::{ipv4, ipv6};
use super::{ALPHA, DIGIT, Grammar, HEXDIG, Rng};

pub(super) fn grammars() -> Vec<Grammar> {
    vec![
        Grammar {
            format: "uri",
            valid: |r| absolute(r, false),
            invalid: |r| bad(r, false, true),
        },
        Grammar {
            format: "uri-reference",
            valid: |r| reference(r, false),
            invalid: |r| bad(r, false, false),
        },
        Grammar {
            format: "iri",
            valid: |r| absolute(r, true),
            invalid: |r| bad(r, true, true),
        },
        Grammar {
            format: "iri-reference",
            valid: |r| reference(r, true),
            invalid: |r| bad(r, true, false),
        },
        Grammar {
            format: "uri-template",
            valid: template,
            invalid: bad_template,
        },
    ]
}

const UNRESERVED: &str = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~";
const SUB_DELIMS: &str = "!$&'()*+,;=";
/// RFC 3987 `ucschar` samples from several of its ranges, and `iprivate` samples.
const UCSCHAR: &str =
    "\u{a0}é中\u{d7ff}\u{f900}\u{fdcf}\u{fdf0}\u{ffef}\u{10000}\u{1fffd}\u{e1000}\u{efffd}";
const IPRIVATE: &str = "\u{e000}\u{f8ff}\u{f0000}\u{10fffd}";

fn pct_encoded(r: &mut Rng) -> String {
    format!("%{}{}", r.char_of(HEXDIG), r.char_of(HEXDIG))
}

/// Characters of `set`, percent-encoded triplets and, for an IRI, `ucschar`.
fn run(r: &mut Rng, set: &str, iri: bool, min: usize, max: usize) -> String {
    r.join(min, max, "", |r| match r.below(8) {
        0 => pct_encoded(r),
        1 if iri => r.char_of(UCSCHAR).to_string(),
        _ => r.char_of(set).to_string(),
    })
}

/// `pchar` without `:` for the first segment of a relative path (`segment-nz-nc`).
fn pchars(colon: bool) -> String {
    let extra = if colon { ":@" } else { "@" };
    format!("{UNRESERVED}{SUB_DELIMS}{extra}")
}

fn scheme(r: &mut Rng) -> String {
    format!(
        "{}{}",
        r.char_of(ALPHA),
        r.chars_of(&format!("{ALPHA}{DIGIT}+-."), 0, 6)
    )
}

fn host(r: &mut Rng, iri: bool) -> String {
    match r.below(5) {
        0 => ipv4(r),
        1 => format!("[{}]", ipv6(r, 1)),
        2 => format!(
            "[v{}.{}]",
            r.chars_of(HEXDIG, 1, 3),
            r.chars_of(&format!("{UNRESERVED}{SUB_DELIMS}:"), 1, 8)
        ),
        // reg-name, possibly empty.
        _ => run(r, &format!("{UNRESERVED}{SUB_DELIMS}"), iri, 0, 12),
    }
}

fn authority(r: &mut Rng, iri: bool) -> String {
    let userinfo = if r.one_in(3) {
        format!(
            "{}@",
            run(r, &format!("{UNRESERVED}{SUB_DELIMS}:"), iri, 0, 8)
        )
    } else {
        String::new()
    };
    let port = if r.one_in(3) {
        format!(":{}", r.chars_of(DIGIT, 0, 5))
    } else {
        String::new()
    };
    format!("{userinfo}{}{port}", host(r, iri))
}

fn segments(r: &mut Rng, iri: bool, min: usize) -> String {
    r.join(min, 4, "", |r| {
        format!("/{}", run(r, &pchars(true), iri, 0, 8))
    })
}

/// `hier-part` / `relative-part` after the scheme (or at the start of a relative reference).
fn path_part(r: &mut Rng, iri: bool, relative: bool) -> String {
    match r.below(4) {
        0 => format!("//{}{}", authority(r, iri), segments(r, iri, 0)),
        // path-absolute: "/" [ segment-nz *( "/" segment ) ]
        1 => format!(
            "/{}{}",
            run(r, &pchars(true), iri, 1, 8),
            segments(r, iri, 0)
        ),
        // path-rootless, or path-noscheme in a relative reference.
        2 => format!(
            "{}{}",
            run(r, &pchars(!relative), iri, 1, 8),
            segments(r, iri, 0)
        ),
        _ => String::new(),
    }
}

/// `query` and `fragment`; an IRI's query may also hold `iprivate`.
fn query_fragment(r: &mut Rng, iri: bool) -> String {
    let set = format!("{}/?", pchars(true));
    let mut out = String::new();
    if r.one_in(2) {
        out.push('?');
        out.push_str(&run(r, &set, iri, 0, 10));
        if iri && r.one_in(3) {
            out.push(r.char_of(IPRIVATE));
        }
    }
    if r.one_in(2) {
        out.push('#');
        out.push_str(&run(r, &set, iri, 0, 10));
    }
    out
}

fn absolute(r: &mut Rng, iri: bool) -> String {
    let scheme = scheme(r);
    let path = path_part(r, iri, false);
    let rest = query_fragment(r, iri);
    format!("{scheme}:{path}{rest}")
}

fn reference(r: &mut Rng, iri: bool) -> String {
    if r.one_in(2) {
        return absolute(r, iri);
    }
    let path = path_part(r, iri, true);
    let rest = query_fragment(r, iri);
    format!("{path}{rest}")
}

fn bad(r: &mut Rng, iri: bool, absolute_only: bool) -> String {
    let good = absolute(r, iri);
    match r.below(7) {
        0 => format!("{good} x"),
        1 => format!("{good}%g0"),
        2 => format!("{good}<"),
        3 => format!("1{good}"),
        4 => format!("{good}#a#b"),
        // The scheme dropped: a relative reference (a leading "/" keeps "a:b" from reading
        // as another scheme).
        5 if absolute_only => format!("/{}", &good[good.find(':').unwrap() + 1..]),
        // Without a scheme, a colon in the first segment would make it one.
        5 => format!("1a:{}", "b"),
        _ if iri => format!("{good}\u{fffe}"),
        _ => format!("{good}é"),
    }
}

/// RFC 6570 §2.1 `literals`, with erratum 6937's apostrophe.
fn literals(r: &mut Rng) -> String {
    let ascii: String = ('!'..='~')
        .filter(|c| !"\"%<>\\^`{|}".contains(*c))
        .collect();
    r.join(0, 6, "", |r| match r.below(8) {
        0 => pct_encoded(r),
        1 => r.char_of(UCSCHAR).to_string(),
        2 => r.char_of(IPRIVATE).to_string(),
        _ => r.char_of(&ascii).to_string(),
    })
}

/// `varname = varchar *( ["."] varchar )`, `varchar = ALPHA / DIGIT / "_" / pct-encoded`.
fn varname(r: &mut Rng) -> String {
    let varchar = |r: &mut Rng| {
        if r.one_in(6) {
            pct_encoded(r)
        } else {
            r.char_of(&format!("{ALPHA}{DIGIT}_")).to_string()
        }
    };
    let mut name = varchar(r);
    for _ in 0..r.below(6) {
        if r.one_in(4) {
            name.push('.');
        }
        name.push_str(&varchar(r));
    }
    name
}

/// `varspec = varname [ modifier-level4 ]`, `prefix = ":" max-length` (1–9999).
fn varspec(r: &mut Rng) -> String {
    let name = varname(r);
    match r.below(4) {
        0 => format!("{name}:{}", r.range(1, 9999)),
        1 => format!("{name}*"),
        _ => name,
    }
}

fn expression(r: &mut Rng) -> String {
    // Levels 2 and 3, and those §2.2 reserves for future extensions (`op-reserve`).
    let operator = r.pick(&[
        "", "", "+", "#", ".", "/", ";", "?", "&", "=", ",", "!", "@", "|",
    ]);
    format!("{{{operator}{}}}", r.join(1, 3, ",", varspec))
}

fn template(r: &mut Rng) -> String {
    r.join(0, 4, "", |r| {
        if r.one_in(2) {
            expression(r)
        } else {
            literals(r)
        }
    })
}

fn bad_template(r: &mut Rng) -> String {
    let good = template(r);
    let name = varname(r);
    match r.below(9) {
        0 => format!("{good}{{"),
        1 => format!("{good}}}"),
        2 => format!("{good}{{}}"),
        3 => format!("{good}{{{name},}}"),
        4 => format!("{good}{{{name}:0}}"),
        5 => format!("{good}{{{name}:10000}}"),
        // An operator and no variable.
        6 => format!("{good}{{{}}}", r.pick(&["+", "#", "=", "!", "|"])),
        7 => format!("{good} "),
        _ => format!("{good}%{}", r.char_of("gGzZ")),
    }
}
