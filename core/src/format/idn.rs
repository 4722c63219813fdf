//! IDNA2008 label rules: the derived property of RFC 5892 §2–3 computed
//! from Unicode data, the contextual rules of its Appendix A, the U-label
//! requirements of RFC 5891 §4.2, and the Bidi rule of RFC 5893 §2.

use icu_normalizer::ComposingNormalizerBorrowed;
use icu_properties::props::{
    BidiClass, CanonicalCombiningClass, ChangesWhenNfkcCasefolded, DefaultIgnorableCodePoint,
    GeneralCategory, HangulSyllableType, JoinControl, JoiningType, NoncharacterCodePoint, Script,
    WhiteSpace,
};
use icu_properties::{CodePointMapData, CodePointSetData};

/// RFC 5892 §2 values, with UNASSIGNED folded into `Disallowed` since both
/// are invalid in a label.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Property {
    Pvalid,
    ContextJ,
    ContextO,
    Disallowed,
}

/// RFC 5892 §3: the rules are applied in order and the first that matches
/// decides.
fn derived_property(c: char) -> Property {
    use Property::*;
    // (F) Exceptions, §2.6.
    match c {
        '\u{00DF}' | '\u{03C2}' | '\u{06FD}' | '\u{06FE}' | '\u{0F0B}' | '\u{3007}' => {
            return Pvalid;
        }
        '\u{00B7}' | '\u{0375}' | '\u{05F3}' | '\u{05F4}' | '\u{30FB}' => return ContextO,
        '\u{0660}'..='\u{0669}' | '\u{06F0}'..='\u{06F9}' => return ContextO,
        '\u{0640}'
        | '\u{07FA}'
        | '\u{302E}'
        | '\u{302F}'
        | '\u{3031}'..='\u{3035}'
        | '\u{303B}' => return Disallowed,
        _ => {}
    }
    // (G) BackwardCompatible is empty. (K) LDH; every other ASCII character
    // is unstable under case folding or is neither a letter nor a digit.
    if c.is_ascii() {
        return if matches!(c, 'a'..='z' | '0'..='9' | '-') {
            Pvalid
        } else {
            Disallowed
        };
    }
    let gc = CodePointMapData::<GeneralCategory>::new().get(c);
    let noncharacter = CodePointSetData::new::<NoncharacterCodePoint>().contains(c);
    // (J) Unassigned.
    if gc == GeneralCategory::Unassigned && !noncharacter {
        return Disallowed;
    }
    // (H) JoinControl.
    if CodePointSetData::new::<JoinControl>().contains(c) {
        return ContextJ;
    }
    // (B) Unstable: toNFKC(toCaseFold(toNFKC(cp))) != cp. Changes_When_NFKC_Casefolded
    // is that test plus removal of default ignorables, which (C) disallows anyway.
    if CodePointSetData::new::<ChangesWhenNfkcCasefolded>().contains(c) {
        return Disallowed;
    }
    // (C) IgnorableProperties.
    if noncharacter
        || CodePointSetData::new::<DefaultIgnorableCodePoint>().contains(c)
        || CodePointSetData::new::<WhiteSpace>().contains(c)
    {
        return Disallowed;
    }
    // (D) IgnorableBlocks: Combining Diacritical Marks for Symbols, Musical
    // Symbols, Ancient Greek Musical Notation.
    if matches!(c, '\u{20D0}'..='\u{20FF}' | '\u{1D100}'..='\u{1D24F}') {
        return Disallowed;
    }
    // (I) OldHangulJamo.
    let hst = CodePointMapData::<HangulSyllableType>::new().get(c);
    if matches!(
        hst,
        HangulSyllableType::LeadingJamo
            | HangulSyllableType::VowelJamo
            | HangulSyllableType::TrailingJamo
    ) {
        return Disallowed;
    }
    // (A) LetterDigits.
    use GeneralCategory as G;
    match gc {
        G::LowercaseLetter
        | G::UppercaseLetter
        | G::OtherLetter
        | G::DecimalNumber
        | G::ModifierLetter
        | G::NonspacingMark
        | G::SpacingMark => Pvalid,
        _ => Disallowed,
    }
}

fn is_virama(c: char) -> bool {
    CodePointMapData::<CanonicalCombiningClass>::new().get(c) == CanonicalCombiningClass::Virama
}

fn script(c: char) -> Script {
    CodePointMapData::<Script>::new().get(c)
}

/// RFC 5892 Appendix A.1 (ZERO WIDTH NON-JOINER) and A.2 (ZERO WIDTH JOINER).
fn context_j(label: &[char], i: usize) -> bool {
    if i > 0 && is_virama(label[i - 1]) {
        return true;
    }
    if label[i] != '\u{200C}' {
        return false;
    }
    // (Joining_Type:{L,D})(Joining_Type:T)*\u200C(Joining_Type:T)*(Joining_Type:{R,D})
    let jt = CodePointMapData::<JoiningType>::new();
    let not_transparent = |c: &&char| jt.get(**c) != JoiningType::Transparent;
    let before = label[..i]
        .iter()
        .rev()
        .find(not_transparent)
        .map(|&c| jt.get(c));
    let after = label[i + 1..]
        .iter()
        .find(not_transparent)
        .map(|&c| jt.get(c));
    matches!(
        before,
        Some(JoiningType::LeftJoining | JoiningType::DualJoining)
    ) && matches!(
        after,
        Some(JoiningType::RightJoining | JoiningType::DualJoining)
    )
}

/// RFC 5892 Appendix A.3–A.9.
fn context_o(label: &[char], i: usize) -> bool {
    let before = i.checked_sub(1).map(|j| label[j]);
    let after = label.get(i + 1).copied();
    match label[i] {
        // MIDDLE DOT: between two 'l's (Catalan "l·l").
        '\u{00B7}' => before == Some('l') && after == Some('l'),
        // GREEK LOWER NUMERAL SIGN (KERAIA): followed by Greek.
        '\u{0375}' => after.is_some_and(|c| script(c) == Script::Greek),
        // HEBREW PUNCTUATION GERESH and GERSHAYIM: preceded by Hebrew.
        '\u{05F3}' | '\u{05F4}' => before.is_some_and(|c| script(c) == Script::Hebrew),
        // KATAKANA MIDDLE DOT: some Hiragana, Katakana or Han in the label.
        '\u{30FB}' => label
            .iter()
            .any(|&c| matches!(script(c), Script::Hiragana | Script::Katakana | Script::Han)),
        // ARABIC-INDIC DIGITS and EXTENDED ARABIC-INDIC DIGITS never mix.
        '\u{0660}'..='\u{0669}' => !label.iter().any(|c| ('\u{06F0}'..='\u{06F9}').contains(c)),
        '\u{06F0}'..='\u{06F9}' => !label.iter().any(|c| ('\u{0660}'..='\u{0669}').contains(c)),
        _ => false,
    }
}

/// What the Bidi rule needs to know about a valid label.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Bidi {
    /// RFC 5893 §1.4 "RTL label": contains an R, AL or AN character.
    pub rtl: bool,
    /// Satisfies the six conditions of RFC 5893 §2, which every label must
    /// when any label of the domain is RTL.
    pub rule_ok: bool,
}

fn bidi(label: &[char]) -> Bidi {
    use BidiClass as B;
    let map = CodePointMapData::<BidiClass>::new();
    let class = |c: char| map.get(c);
    let rtl = label
        .iter()
        .any(|&c| matches!(class(c), B::RightToLeft | B::ArabicLetter | B::ArabicNumber));
    let Some(&first) = label.first() else {
        return Bidi {
            rtl,
            rule_ok: false,
        };
    };
    // The last character that is not NSM decides conditions 3 and 6.
    let end = label
        .iter()
        .rev()
        .map(|&c| class(c))
        .find(|&b| b != B::NonspacingMark);
    let rule_ok = match class(first) {
        // Conditions 2, 3 and 4.
        B::RightToLeft | B::ArabicLetter => {
            let mut en = false;
            let mut an = false;
            let allowed = label.iter().all(|&c| {
                let b = class(c);
                en |= b == B::EuropeanNumber;
                an |= b == B::ArabicNumber;
                matches!(
                    b,
                    B::RightToLeft
                        | B::ArabicLetter
                        | B::ArabicNumber
                        | B::EuropeanNumber
                        | B::EuropeanSeparator
                        | B::CommonSeparator
                        | B::EuropeanTerminator
                        | B::OtherNeutral
                        | B::BoundaryNeutral
                        | B::NonspacingMark
                )
            });
            allowed
                && !(en && an)
                && matches!(
                    end,
                    Some(B::RightToLeft | B::ArabicLetter | B::EuropeanNumber | B::ArabicNumber)
                )
        }
        // Conditions 5 and 6.
        B::LeftToRight => {
            label.iter().all(|&c| {
                matches!(
                    class(c),
                    B::LeftToRight
                        | B::EuropeanNumber
                        | B::EuropeanSeparator
                        | B::CommonSeparator
                        | B::EuropeanTerminator
                        | B::OtherNeutral
                        | B::BoundaryNeutral
                        | B::NonspacingMark
                )
            }) && matches!(end, Some(B::LeftToRight | B::EuropeanNumber))
        }
        // Condition 1.
        _ => false,
    };
    Bidi { rtl, rule_ok }
}

/// Checks a U-label (RFC 5891 §4.2 and §5.4, RFC 5890 §2.3.2.1) given both
/// as code points and as text; `None` if it is not one.
pub(super) fn u_label(label: &[char], text: &str) -> Option<Bidi> {
    let (&first, &last) = (label.first()?, label.last()?);
    // An A-label's U-label, and any label using IDNA, has a non-ASCII character.
    if text.is_ascii() {
        return None;
    }
    // §4.2.3.1 hyphen restrictions.
    if first == '-' || last == '-' || label.get(2..4) == Some(&['-', '-']) {
        return None;
    }
    // §4.2.3.2 no leading combining mark.
    let gc = CodePointMapData::<GeneralCategory>::new().get(first);
    if matches!(
        gc,
        GeneralCategory::NonspacingMark
            | GeneralCategory::SpacingMark
            | GeneralCategory::EnclosingMark
    ) {
        return None;
    }
    // §4.2.2 and §4.2.3.3 code points and their contexts.
    for i in 0..label.len() {
        let ok = match derived_property(label[i]) {
            Property::Pvalid => true,
            Property::ContextJ => context_j(label, i),
            Property::ContextO => context_o(label, i),
            Property::Disallowed => false,
        };
        if !ok {
            return None;
        }
    }
    // §4.2.1 (and §5.3 on lookup): the label must be in NFC.
    if !ComposingNormalizerBorrowed::new_nfc().is_normalized(text) {
        return None;
    }
    Some(bidi(label))
}

/// `idn-hostname`: an IDNA2008 domain name of LDH labels, A-labels and
/// U-labels, separated by any of the four full stops of RFC 3490 §3.1.
pub(super) fn is_idn_hostname(s: &str) -> bool {
    super::hostname::domain(s, super::hostname::Rules::Idn)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn label(s: &str) -> Option<Bidi> {
        let chars: Vec<char> = s.chars().collect();
        u_label(&chars, s)
    }

    #[test]
    fn derived_property_samples() {
        use Property::*;
        for (c, want) in [
            ('a', Pvalid),
            ('A', Disallowed),
            ('_', Disallowed),
            ('\u{e9}', Pvalid),
            ('\u{c9}', Disallowed),
            ('\u{df}', Pvalid),
            ('\u{3c2}', Pvalid),
            ('\u{3a3}', Disallowed),
            ('\u{200c}', ContextJ),
            ('\u{200d}', ContextJ),
            ('\u{b7}', ContextO),
            ('\u{663}', ContextO),
            ('\u{640}', Disallowed),
            ('\u{a0}', Disallowed),
            ('\u{ad}', Disallowed),
            ('\u{2163}', Disallowed),
            ('\u{ff21}', Disallowed),
            ('\u{fb01}', Disallowed),
            ('\u{1100}', Disallowed),
            ('\u{ac00}', Pvalid),
            ('\u{20d0}', Disallowed),
            ('\u{1d165}', Disallowed),
            ('\u{0300}', Pvalid),
            ('\u{0903}', Pvalid),
            ('\u{0488}', Disallowed),
            ('\u{fdd0}', Disallowed),
            ('\u{e000}', Disallowed),
            ('\u{10ffff}', Disallowed),
            ('\u{4e2d}', Pvalid),
            ('\u{0f0b}', Pvalid),
            ('\u{3007}', Pvalid),
            ('\u{2028}', Disallowed),
            ('\u{1f600}', Disallowed),
            ('\u{130}', Disallowed),
            ('\u{1c5}', Disallowed),
            ('\u{2b0}', Disallowed),
            ('\u{345}', Disallowed),
            ('\u{3005}', Pvalid),
            ('\u{f0c}', Disallowed),
            ('\u{19da}', Disallowed),
            ('\u{3099}', Pvalid),
            ('\u{309b}', Disallowed),
            ('\u{17b4}', Disallowed),
            ('\u{3164}', Disallowed),
            ('\u{560}', Pvalid),
            ('\u{1e9e}', Disallowed),
            ('\u{30fc}', Pvalid),
        ] {
            assert_eq!(derived_property(c), want, "U+{:04X}", c as u32);
        }
    }

    /// The examples of RFC 5892 Appendix A, one per rule.
    #[test]
    fn rfc5892_appendix_a_rules() {
        // A.1 ZWNJ after a virama, or between joining letters.
        assert!(label("\u{915}\u{94d}\u{200c}\u{937}").is_some());
        assert!(label("\u{628}\u{200c}\u{628}").is_some());
        assert!(label("\u{628}\u{64b}\u{200c}\u{64b}\u{628}").is_some());
        assert!(label("\u{915}\u{200c}\u{937}").is_none());
        assert!(label("\u{628}\u{200c}").is_none());
        assert!(label("\u{627}\u{200c}\u{628}").is_none());
        // A.2 ZWJ only after a virama.
        assert!(label("\u{915}\u{94d}\u{200d}\u{937}").is_some());
        assert!(label("\u{628}\u{200d}\u{628}").is_none());
        // A.3 MIDDLE DOT.
        assert!(label("pa\u{b7}la").is_none());
        assert!(label("col\u{b7}lecci\u{f3}").is_some());
        // A.4 KERAIA.
        assert!(label("\u{3b1}\u{375}\u{3b2}").is_some());
        assert!(label("\u{3b1}\u{375}a").is_none());
        // A.5, A.6 GERESH, GERSHAYIM.
        assert!(label("\u{5d0}\u{5f3}").is_some());
        assert!(label("\u{5d0}\u{5f4}").is_some());
        assert!(label("a\u{5f3}").is_none());
        // A.7 KATAKANA MIDDLE DOT.
        assert!(label("\u{30a2}\u{30fb}\u{30a4}").is_some());
        assert!(label("a\u{30fb}b").is_none());
        // A.8, A.9 digits.
        assert!(label("\u{628}\u{661}\u{662}").is_some());
        assert!(label("\u{628}\u{6f1}\u{6f2}").is_some());
        assert!(label("\u{628}\u{661}\u{6f2}").is_none());
    }

    #[test]
    fn u_label_requirements() {
        assert!(label("b\u{fc}cher").is_some());
        assert!(label("bucher").is_none());
        assert!(label("").is_none());
        assert!(label("-b\u{fc}cher").is_none());
        assert!(label("b\u{fc}cher-").is_none());
        assert!(label("b\u{fc}c--her").is_some());
        assert!(label("b\u{fc}--cher").is_none());
        assert!(label("b\u{fc}--").is_none());
        assert!(label("ab--\u{fc}").is_none());
        assert!(label("\u{301}b\u{fc}cher").is_none());
        // Not NFC: "u" followed by COMBINING DIAERESIS.
        assert!(label("bu\u{308}cher").is_none());
        assert!(label("B\u{fc}cher").is_none());
    }

    /// RFC 5893 §2 conditions; labels use real letters of each direction.
    #[test]
    fn rfc5893_bidi_rule() {
        let hebrew = label("\u{5d0}\u{5d1}").unwrap();
        assert!(hebrew.rtl && hebrew.rule_ok);
        // Condition 1: an RTL label must not start with a digit.
        let r = label("1\u{5d0}").unwrap();
        assert!(r.rtl && !r.rule_ok);
        // Condition 3: ends in R/AL/EN/AN (NSM may follow).
        assert!(label("\u{5d0}1").unwrap().rule_ok);
        assert!(label("\u{5d0}\u{5b0}").unwrap().rule_ok);
        // Condition 4: EN and AN must not both occur.
        let mixed = label("\u{628}1\u{661}").unwrap();
        assert!(!mixed.rule_ok);
        // Condition 2: no L in an RTL label.
        assert!(!label("\u{5d0}a\u{5d1}").unwrap().rule_ok);
        // Conditions 5 and 6 for an LTR label.
        let ltr = label("\u{e9}a1").unwrap();
        assert!(!ltr.rtl && ltr.rule_ok);
        assert!(!label("\u{e9}\u{5d0}").unwrap().rule_ok);
        // Extended Arabic-Indic digits are EN, so this label is not RTL.
        let digits = label("\u{6f0}0").unwrap();
        assert!(!digits.rtl);
    }
}
