//! RFC 4122 UUIDs, RFC 6901 JSON Pointers, relative JSON Pointers and ECMA-262 patterns.

use super::{DIGIT, Grammar, HEXDIG, Rng};

pub(super) fn grammars() -> Vec<Grammar> {
    vec![
        Grammar {
            format: "uuid",
            valid: uuid,
            invalid: bad_uuid,
        },
        Grammar {
            format: "json-pointer",
            valid: json_pointer,
            invalid: bad_json_pointer,
        },
        Grammar {
            format: "relative-json-pointer",
            valid: relative_json_pointer,
            invalid: bad_relative_json_pointer,
        },
        Grammar {
            format: "regex",
            valid: pattern,
            invalid: bad_pattern,
        },
    ]
}

/// RFC 4122 §3: `time-low "-" time-mid "-" time-high-and-version "-" clock-seq "-" node`.
fn uuid(r: &mut Rng) -> String {
    [8, 4, 4, 4, 12]
        .iter()
        .map(|&n| r.chars_of(HEXDIG, n, n))
        .collect::<Vec<_>>()
        .join("-")
}

fn bad_uuid(r: &mut Rng) -> String {
    let good = uuid(r);
    match r.below(5) {
        0 => good.replace('-', ""),
        1 => format!("{good}0"),
        2 => good[1..].to_string(),
        3 => format!("{}g{}", &good[..9], &good[10..]),
        _ => format!("{{{good}}}"),
    }
}

/// RFC 6901 §3: `*( "/" reference-token )`, any character but `~` unescaped.
fn json_pointer(r: &mut Rng) -> String {
    r.join(0, 4, "", |r| {
        let token = r.join(0, 5, "", |r| match r.below(8) {
            0 => "~0".to_string(),
            1 => "~1".to_string(),
            2 => r.char_of("é\u{0}\u{10ffff} /#%\"\\").to_string(),
            _ => r.char_of("abcXYZ019_-.").to_string(),
        });
        format!("/{token}")
    })
}

fn bad_json_pointer(r: &mut Rng) -> String {
    let good = json_pointer(r);
    match r.below(4) {
        0 => format!("{good}/~"),
        1 => format!("{good}/~2"),
        2 => format!("a{good}"),
        _ => format!("{good}~a"),
    }
}

fn non_negative_integer(r: &mut Rng) -> String {
    if r.one_in(3) {
        "0".to_string()
    } else {
        format!("{}{}", r.char_of("123456789"), r.chars_of(DIGIT, 0, 4))
    }
}

/// draft-bhutton-relative-json-pointer-00 §3.
fn relative_json_pointer(r: &mut Rng) -> String {
    let n = non_negative_integer(r);
    if r.one_in(4) {
        return format!("{n}#");
    }
    let adjust = if r.one_in(3) {
        format!("{}{}", r.pick(&["+", "-"]), non_negative_integer(r))
    } else {
        String::new()
    };
    format!("{n}{adjust}{}", json_pointer(r))
}

fn bad_relative_json_pointer(r: &mut Rng) -> String {
    let good = json_pointer(r);
    let n = non_negative_integer(r);
    match r.below(5) {
        0 => format!("0{}{good}", r.range(1, 9)),
        1 => format!("-{n}{good}"),
        2 => good.clone() + "/x",
        3 => format!("{n}##"),
        _ => format!("{n}+{good}"),
    }
}

/// A pattern of ECMA-262 §22.2.1 (Unicode mode): alternatives of terms, each an atom (a
/// character, an escape, a class, a group) with an optional quantifier, or an assertion.
fn pattern(r: &mut Rng) -> String {
    disjunction(r, 3)
}

fn disjunction(r: &mut Rng, depth: usize) -> String {
    r.join(1, 3, "|", |r| r.join(0, 4, "", |r| term(r, depth)))
}

fn term(r: &mut Rng, depth: usize) -> String {
    // Assertions take no quantifier in Unicode mode.
    if r.one_in(8) {
        return r.pick(&["^", "$", "\\b", "\\B"]).to_string();
    }
    if depth > 0 && r.one_in(8) {
        let kind = r.pick(&["?=", "?!", "?<=", "?<!"]);
        return format!("({kind}{})", disjunction(r, depth - 1));
    }
    let atom = atom(r, depth);
    let quantifier = match r.below(10) {
        0 => "*".to_string(),
        1 => "+".to_string(),
        2 => "?".to_string(),
        3 => {
            let n = r.range(0, 5);
            match r.below(3) {
                0 => format!("{{{n}}}"),
                1 => format!("{{{n},}}"),
                _ => format!("{{{n},{}}}", n + r.range(0, 5)),
            }
        }
        _ => String::new(),
    };
    let lazy = if !quantifier.is_empty() && r.one_in(3) {
        "?"
    } else {
        ""
    };
    format!("{atom}{quantifier}{lazy}")
}

fn atom(r: &mut Rng, depth: usize) -> String {
    match r.below(if depth == 0 { 4 } else { 6 }) {
        0 => r.char_of("abcxyz019 _-é中,:=!<>").to_string(),
        1 => r
            .pick(&[
                ".",
                "\\d",
                "\\D",
                "\\w",
                "\\W",
                "\\s",
                "\\S",
                "\\n",
                "\\t",
                "\\u0041",
                "\\x7f",
                "\\u{1F600}",
                "\\p{L}",
                "\\P{Lu}",
                "\\p{Script=Greek}",
                "\\.",
                "\\/",
                "\\\\",
                "\\cJ",
            ])
            .to_string(),
        2 | 3 => class(r),
        4 => format!("({})", disjunction(r, depth - 1)),
        _ => format!("(?:{})", disjunction(r, depth - 1)),
    }
}

/// A class of single characters, escapes and ascending ranges.
fn class(r: &mut Rng) -> String {
    let negate = if r.one_in(3) { "^" } else { "" };
    let body = r.join(0, 4, "", |r| match r.below(4) {
        0 => {
            let a = r.range(0x20, 0x7e) as u8;
            let b = a + r.range(0, (0x7e - a) as usize) as u8;
            let esc = |c: u8| format!("\\u{:04x}", c);
            format!("{}-{}", esc(a), esc(b))
        }
        1 => r
            .pick(&["\\d", "\\w", "\\s", "\\p{N}", "\\-", "\\]"])
            .to_string(),
        _ => r.char_of("abc019_.$*+?()|{}é").to_string(),
    });
    format!("[{negate}{body}]")
}

fn bad_pattern(r: &mut Rng) -> String {
    let good = pattern(r);
    match r.below(7) {
        0 => format!("({good}"),
        1 => format!("{good})"),
        2 => format!("{good}["),
        3 => format!("{good}\\"),
        4 => format!("[z-a]{good}"),
        5 => format!("a**{good}"),
        // Unicode mode refuses identity escapes of letters.
        _ => format!("\\q{good}"),
    }
}
