//! IDNA2008 host names (RFC 5890–5893) and RFC 6531 internationalized mailboxes.

use super::net::{bad_mailbox, ldh_label, mailbox};
use super::{Grammar, Rng};

pub(super) fn grammars() -> Vec<Grammar> {
    vec![
        Grammar {
            format: "idn-hostname",
            valid: idn_hostname,
            invalid: bad_idn_hostname,
        },
        Grammar {
            format: "idn-email",
            valid: idn_email,
            invalid: bad_idn_email,
        },
    ]
}

/// Left-to-right PVALID letters (RFC 5892 §2.1 LetterDigits, stable under NFKC case
/// folding), precomposed so that labels are in NFC: Latin, Greek, Cyrillic, Han, Hiragana,
/// Katakana, Hangul syllables, Devanagari consonants.
const LTR: &str = "abcdefghijklmnopqrstuvwxyz0123456789àéüößçñåøαβγδεζηθλμπσςωабвгдежзийклмнопрстуфхцчшщыэюя例子测试广告中文日本語ひらがなカタカナ실례테스트한국어नमसतहद";

/// Right-to-left PVALID letters: Hebrew and Arabic.
const RTL: &str = "אבגדהוזחטיכלמנסעפצקרשתابتثجحخدذرزسشصضطظعغفقكلمنهوي";

/// A U-label of `letters` (with an inner hyphen now and then), 1–12 code points, so that its
/// A-label stays within 63 octets.
fn u_label(r: &mut Rng, letters: &str) -> String {
    let len = r.range(1, 12);
    let mut label: Vec<char> = (0..len).map(|_| r.char_of(letters)).collect();
    if len > 5 && r.one_in(4) {
        label.insert(4, '-');
    }
    label.into_iter().collect()
}

/// One of the four full stops of RFC 3490 §3.1.
fn full_stop(r: &mut Rng) -> &'static str {
    r.pick(&[".", ".", "\u{3002}", "\u{ff0e}", "\u{ff61}"])
}

/// A name of left-to-right U-labels and LDH labels, or, one time in four, a Bidi domain name
/// of right-to-left labels and letter-only LDH labels (RFC 5893 §2 holds for each).
fn idn_name(r: &mut Rng, stops: bool) -> String {
    let bidi = r.one_in(4);
    let n = r.range(1, 4);
    let mut name = String::new();
    for i in 0..n {
        if i > 0 {
            name.push_str(if stops { full_stop(r) } else { "." });
        }
        let label = match (bidi, r.below(3)) {
            (true, 0) => r.chars_of("abcdefghijklmnopqrstuvwxyz", 1, 10),
            (true, _) => u_label(r, RTL).replace('-', ""),
            (false, 0) => ldh_label(r, 20),
            (false, _) => u_label(r, LTR),
        };
        name.push_str(&label);
    }
    name
}

fn idn_hostname(r: &mut Rng) -> String {
    idn_name(r, true)
}

fn bad_idn_hostname(r: &mut Rng) -> String {
    let good = u_label(r, LTR).replace('-', "");
    match r.below(8) {
        // Upper case is DISALLOWED (unstable under case folding); no UTS 46 mapping.
        0 => format!("Ü{good}"),
        // A leading combining mark (RFC 5891 §4.2.3.2).
        1 => format!("\u{301}{good}"),
        // Not in NFC.
        2 => format!("{good}e\u{301}"),
        // `--` in the third and fourth positions of a U-label.
        3 => format!("ab--{good}ü"),
        // A symbol: DISALLOWED.
        4 => format!("{good}\u{2665}"),
        // A Bidi domain name with a label starting with a digit.
        5 => format!(
            "1{}.\u{5d0}",
            good.chars()
                .filter(char::is_ascii_lowercase)
                .collect::<String>()
        ),
        // ZERO WIDTH JOINER without a preceding virama.
        6 => format!("a\u{200d}{good}"),
        _ => format!("{good}..{good}"),
    }
}

/// Local-part characters beyond `atext` (RFC 6531 §3.3 `UTF8-non-ascii`): letters, a C1
/// control, a noncharacter, a supplementary-plane letter, a combining mark after a letter.
const UTF8: &[char] = &[
    'é',
    'ü',
    'ß',
    'δ',
    'ж',
    '例',
    '실',
    'א',
    'ب',
    '\u{85}',
    '\u{ffff}',
    '\u{1d54f}',
    '\u{301}',
];

/// The domain of an internationalized mailbox: labels separated by `.` only.
fn idn_domain(r: &mut Rng) -> String {
    idn_name(r, false)
}

fn idn_email(r: &mut Rng) -> String {
    mailbox(r, UTF8, idn_domain)
}

fn bad_idn_email(r: &mut Rng) -> String {
    let good = idn_email(r);
    if r.one_in(4) {
        // RFC 6531 separates domain labels with "." only.
        let local = &good[..good.rfind('@').unwrap()];
        return format!("{local}@例子\u{3002}广告");
    }
    bad_mailbox(r, good)
}
