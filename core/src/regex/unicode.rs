//! Character sets: the fixed ECMA-262 sets (`\d`, `\w`, `\s`, `.`), the
//! property names ECMA-262 accepts in `\p{…}`, and their code point sets.
//!
//! ECMA-262 matches property names and values exactly (no loose matching),
//! against the aliases of `PropertyAliases.txt` / `PropertyValueAliases.txt`
//! and its own table of binary properties. The tables below hold exactly
//! those spellings; the code point data itself comes from regex-syntax's
//! Unicode tables, queried with the canonical long name so that its loose
//! matching never widens what ECMA-262 accepts.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use regex_syntax::hir::{Class, ClassUnicode, ClassUnicodeRange, HirKind};

/// A property escape with its name already resolved to the canonical long
/// name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Property {
    GeneralCategory(&'static str),
    Script(&'static str),
    ScriptExtensions(&'static str),
    Binary(&'static str),
}

impl Property {
    /// Resolves the text between the braces of `\p{…}`; `None` when ECMA-262
    /// does not accept it.
    pub(crate) fn resolve(text: &str) -> Option<Property> {
        match text.split_once('=') {
            Some((name, value)) => match name {
                "General_Category" | "gc" => {
                    lookup(GENERAL_CATEGORIES, value).map(Property::GeneralCategory)
                }
                "Script" | "sc" => lookup(SCRIPTS, value).map(Property::Script),
                "Script_Extensions" | "scx" => {
                    lookup(SCRIPTS, value).map(Property::ScriptExtensions)
                }
                _ => None,
            },
            None => lookup(GENERAL_CATEGORIES, text)
                .map(Property::GeneralCategory)
                .or_else(|| lookup(BINARY_PROPERTIES, text).map(Property::Binary)),
        }
    }

    /// The code points of the property, or `None` when the bundled Unicode
    /// tables have no data for it.
    ///
    /// Results are cached: building a class through regex-syntax's parser
    /// costs far more than copying it, and a hostile pattern may repeat the
    /// same `\p{…}` thousands of times.
    pub(crate) fn class(self) -> Option<ClassUnicode> {
        static CACHE: OnceLock<Mutex<HashMap<Property, Option<ClassUnicode>>>> = OnceLock::new();
        let cache = CACHE.get_or_init(Default::default);
        if let Some(hit) = cache.lock().ok().and_then(|c| c.get(&self).cloned()) {
            return hit;
        }
        let class = self.build();
        if let Ok(mut c) = cache.lock() {
            c.insert(self, class.clone());
        }
        class
    }

    fn build(self) -> Option<ClassUnicode> {
        match self {
            // Surrogates are not `char`s; no Rust string contains one.
            Property::GeneralCategory("Surrogate") => Some(ClassUnicode::empty()),
            Property::GeneralCategory(name) => query(&format!("General_Category={name}")),
            // Code points listed for no script have the value Unknown, in
            // both Script and Script_Extensions.
            Property::Script("Unknown") | Property::ScriptExtensions("Unknown") => {
                Some(unknown_script().clone())
            }
            Property::Script(name) => query(&format!("Script={name}")),
            Property::ScriptExtensions(name) => query(&format!("Script_Extensions={name}")),
            Property::Binary(name) => query(name),
        }
    }
}

fn lookup(table: &[(&'static str, &[&str])], text: &str) -> Option<&'static str> {
    table
        .iter()
        .find(|(canonical, aliases)| *canonical == text || aliases.contains(&text))
        .map(|(canonical, _)| *canonical)
}

/// Builds one property class through regex-syntax's parser. `query` is
/// always one of the canonical names from the tables in this file, so the
/// expression is exactly `\p{<canonical>}`.
fn query(query: &str) -> Option<ClassUnicode> {
    let hir = regex_syntax::Parser::new()
        .parse(&format!("\\p{{{query}}}"))
        .ok()?;
    match hir.into_kind() {
        HirKind::Class(Class::Unicode(class)) => Some(class),
        // A class regex-syntax simplified to a literal (one code point).
        HirKind::Literal(lit) => {
            let c = std::str::from_utf8(&lit.0).ok()?.chars().next()?;
            Some(ClassUnicode::new([ClassUnicodeRange::new(c, c)]))
        }
        _ => None,
    }
}

fn unknown_script() -> &'static ClassUnicode {
    static SET: OnceLock<ClassUnicode> = OnceLock::new();
    SET.get_or_init(|| {
        let mut all = ClassUnicode::empty();
        for (name, _) in SCRIPTS {
            if *name != "Unknown" {
                if let Some(class) = query(&format!("Script={name}")) {
                    all.union(&class);
                }
            }
        }
        all.negate();
        all
    })
}

/// Adds the code points `start..=end` to `class`, leaving out surrogates,
/// which no `char` can hold.
pub(crate) fn push_code_points(class: &mut ClassUnicode, start: u32, end: u32) {
    if start > end {
        return;
    }
    let to_char = |cp: u32| char::from_u32(cp);
    if start <= 0xD7FF {
        if let (Some(a), Some(b)) = (to_char(start), to_char(end.min(0xD7FF))) {
            class.push(ClassUnicodeRange::new(a, b));
        }
    }
    if end >= 0xE000 {
        if let (Some(a), Some(b)) = (to_char(start.max(0xE000)), to_char(end.min(0x10FFFF))) {
            class.push(ClassUnicodeRange::new(a, b));
        }
    }
}

fn from_ranges(ranges: &[(char, char)]) -> ClassUnicode {
    ClassUnicode::new(ranges.iter().map(|&(a, b)| ClassUnicodeRange::new(a, b)))
}

/// `\d`: ECMA-262 digits are ASCII only.
pub(crate) fn digit() -> ClassUnicode {
    from_ranges(&[('0', '9')])
}

/// `\w`: ECMA-262 word characters are ASCII only (without the `i` flag).
pub(crate) fn word() -> ClassUnicode {
    from_ranges(&[('0', '9'), ('A', 'Z'), ('_', '_'), ('a', 'z')])
}

/// `\s`: WhiteSpace (TAB, VT, FF, SP, NBSP, ZWNBSP, Zs) and LineTerminator
/// (LF, CR, LS, PS).
pub(crate) fn space() -> &'static ClassUnicode {
    static SET: OnceLock<ClassUnicode> = OnceLock::new();
    SET.get_or_init(|| {
        let mut class = from_ranges(&[
            ('\u{9}', '\u{D}'),
            ('\u{20}', '\u{20}'),
            ('\u{A0}', '\u{A0}'),
            ('\u{2028}', '\u{2029}'),
            ('\u{FEFF}', '\u{FEFF}'),
        ]);
        if let Some(zs) = query("General_Category=Space_Separator") {
            class.union(&zs);
        }
        class
    })
}

/// `.`: everything but the four line terminators.
pub(crate) fn dot() -> ClassUnicode {
    let mut class = from_ranges(&[('\n', '\n'), ('\r', '\r'), ('\u{2028}', '\u{2029}')]);
    class.negate();
    class
}

fn contains(class: &ClassUnicode, c: char) -> bool {
    let ranges = class.ranges();
    let i = ranges.partition_point(|r| r.end() < c);
    ranges.get(i).is_some_and(|r| r.start() <= c)
}

/// RegExpIdentifierStart: ID_Start, `$` or `_`.
pub(crate) fn is_identifier_start(c: char) -> bool {
    static SET: OnceLock<ClassUnicode> = OnceLock::new();
    c == '$'
        || c == '_'
        || contains(
            SET.get_or_init(|| query("ID_Start").unwrap_or_else(ClassUnicode::empty)),
            c,
        )
}

/// RegExpIdentifierPart: ID_Continue, `$`, ZWNJ or ZWJ.
pub(crate) fn is_identifier_part(c: char) -> bool {
    static SET: OnceLock<ClassUnicode> = OnceLock::new();
    c == '$'
        || c == '\u{200C}'
        || c == '\u{200D}'
        || contains(
            SET.get_or_init(|| query("ID_Continue").unwrap_or_else(ClassUnicode::empty)),
            c,
        )
}

type NameTable = &'static [(&'static str, &'static [&'static str])];

/// General_Category values: canonical long name, then the other aliases.
pub(crate) const GENERAL_CATEGORIES: NameTable = &[
    ("Cased_Letter", &["LC"]),
    ("Close_Punctuation", &["Pe"]),
    ("Connector_Punctuation", &["Pc"]),
    ("Control", &["Cc", "cntrl"]),
    ("Currency_Symbol", &["Sc"]),
    ("Dash_Punctuation", &["Pd"]),
    ("Decimal_Number", &["Nd", "digit"]),
    ("Enclosing_Mark", &["Me"]),
    ("Final_Punctuation", &["Pf"]),
    ("Format", &["Cf"]),
    ("Initial_Punctuation", &["Pi"]),
    ("Letter", &["L"]),
    ("Letter_Number", &["Nl"]),
    ("Line_Separator", &["Zl"]),
    ("Lowercase_Letter", &["Ll"]),
    ("Mark", &["M", "Combining_Mark"]),
    ("Math_Symbol", &["Sm"]),
    ("Modifier_Letter", &["Lm"]),
    ("Modifier_Symbol", &["Sk"]),
    ("Nonspacing_Mark", &["Mn"]),
    ("Number", &["N"]),
    ("Open_Punctuation", &["Ps"]),
    ("Other", &["C"]),
    ("Other_Letter", &["Lo"]),
    ("Other_Number", &["No"]),
    ("Other_Punctuation", &["Po"]),
    ("Other_Symbol", &["So"]),
    ("Paragraph_Separator", &["Zp"]),
    ("Private_Use", &["Co"]),
    ("Punctuation", &["P", "punct"]),
    ("Separator", &["Z"]),
    ("Space_Separator", &["Zs"]),
    ("Spacing_Mark", &["Mc"]),
    ("Surrogate", &["Cs"]),
    ("Symbol", &["S"]),
    ("Titlecase_Letter", &["Lt"]),
    ("Unassigned", &["Cn"]),
    ("Uppercase_Letter", &["Lu"]),
];

/// The binary properties of ECMA-262's table of binary Unicode property
/// aliases (and nothing else: e.g. `Hyphen` or `Other_Alphabetic` are
/// rejected).
pub(crate) const BINARY_PROPERTIES: NameTable = &[
    ("ASCII", &[]),
    ("ASCII_Hex_Digit", &["AHex"]),
    ("Alphabetic", &["Alpha"]),
    ("Any", &[]),
    ("Assigned", &[]),
    ("Bidi_Control", &["Bidi_C"]),
    ("Bidi_Mirrored", &["Bidi_M"]),
    ("Case_Ignorable", &["CI"]),
    ("Cased", &[]),
    ("Changes_When_Casefolded", &["CWCF"]),
    ("Changes_When_Casemapped", &["CWCM"]),
    ("Changes_When_Lowercased", &["CWL"]),
    ("Changes_When_NFKC_Casefolded", &["CWKCF"]),
    ("Changes_When_Titlecased", &["CWT"]),
    ("Changes_When_Uppercased", &["CWU"]),
    ("Dash", &[]),
    ("Default_Ignorable_Code_Point", &["DI"]),
    ("Deprecated", &["Dep"]),
    ("Diacritic", &["Dia"]),
    ("Emoji", &[]),
    ("Emoji_Component", &["EComp"]),
    ("Emoji_Modifier", &["EMod"]),
    ("Emoji_Modifier_Base", &["EBase"]),
    ("Emoji_Presentation", &["EPres"]),
    ("Extended_Pictographic", &["ExtPict"]),
    ("Extender", &["Ext"]),
    ("Grapheme_Base", &["Gr_Base"]),
    ("Grapheme_Extend", &["Gr_Ext"]),
    ("Hex_Digit", &["Hex"]),
    ("IDS_Binary_Operator", &["IDSB"]),
    ("IDS_Trinary_Operator", &["IDST"]),
    ("ID_Continue", &["IDC"]),
    ("ID_Start", &["IDS"]),
    ("Ideographic", &["Ideo"]),
    ("Join_Control", &["Join_C"]),
    ("Logical_Order_Exception", &["LOE"]),
    ("Lowercase", &["Lower"]),
    ("Math", &[]),
    ("Noncharacter_Code_Point", &["NChar"]),
    ("Pattern_Syntax", &["Pat_Syn"]),
    ("Pattern_White_Space", &["Pat_WS"]),
    ("Quotation_Mark", &["QMark"]),
    ("Radical", &[]),
    ("Regional_Indicator", &["RI"]),
    ("Sentence_Terminal", &["STerm"]),
    ("Soft_Dotted", &["SD"]),
    ("Terminal_Punctuation", &["Term"]),
    ("Unified_Ideograph", &["UIdeo"]),
    ("Uppercase", &["Upper"]),
    ("Variation_Selector", &["VS"]),
    ("White_Space", &["space"]),
    ("XID_Continue", &["XIDC"]),
    ("XID_Start", &["XIDS"]),
];

/// Script values (Unicode 16.0): canonical long name, then the aliases.
///
/// `Katakana_Or_Hiragana` (`Hrkt`) is listed in PropertyValueAliases.txt but
/// assigned to no code point, and every ECMAScript implementation rejects
/// it (tc39/ecma262#3590); it is left out so that `"format": "regex"`
/// accepts only what engines accept.
pub(crate) const SCRIPTS: NameTable = &[
    ("Adlam", &["Adlm"]),
    ("Ahom", &[]),
    ("Anatolian_Hieroglyphs", &["Hluw"]),
    ("Arabic", &["Arab"]),
    ("Armenian", &["Armn"]),
    ("Avestan", &["Avst"]),
    ("Balinese", &["Bali"]),
    ("Bamum", &["Bamu"]),
    ("Bassa_Vah", &["Bass"]),
    ("Batak", &["Batk"]),
    ("Bengali", &["Beng"]),
    ("Bhaiksuki", &["Bhks"]),
    ("Bopomofo", &["Bopo"]),
    ("Brahmi", &["Brah"]),
    ("Braille", &["Brai"]),
    ("Buginese", &["Bugi"]),
    ("Buhid", &["Buhd"]),
    ("Canadian_Aboriginal", &["Cans"]),
    ("Carian", &["Cari"]),
    ("Caucasian_Albanian", &["Aghb"]),
    ("Chakma", &["Cakm"]),
    ("Cham", &[]),
    ("Cherokee", &["Cher"]),
    ("Chorasmian", &["Chrs"]),
    ("Common", &["Zyyy"]),
    ("Coptic", &["Copt", "Qaac"]),
    ("Cuneiform", &["Xsux"]),
    ("Cypriot", &["Cprt"]),
    ("Cypro_Minoan", &["Cpmn"]),
    ("Cyrillic", &["Cyrl"]),
    ("Deseret", &["Dsrt"]),
    ("Devanagari", &["Deva"]),
    ("Dives_Akuru", &["Diak"]),
    ("Dogra", &["Dogr"]),
    ("Duployan", &["Dupl"]),
    ("Egyptian_Hieroglyphs", &["Egyp"]),
    ("Elbasan", &["Elba"]),
    ("Elymaic", &["Elym"]),
    ("Ethiopic", &["Ethi"]),
    ("Garay", &["Gara"]),
    ("Georgian", &["Geor"]),
    ("Glagolitic", &["Glag"]),
    ("Gothic", &["Goth"]),
    ("Grantha", &["Gran"]),
    ("Greek", &["Grek"]),
    ("Gujarati", &["Gujr"]),
    ("Gunjala_Gondi", &["Gong"]),
    ("Gurmukhi", &["Guru"]),
    ("Gurung_Khema", &["Gukh"]),
    ("Han", &["Hani"]),
    ("Hangul", &["Hang"]),
    ("Hanifi_Rohingya", &["Rohg"]),
    ("Hanunoo", &["Hano"]),
    ("Hatran", &["Hatr"]),
    ("Hebrew", &["Hebr"]),
    ("Hiragana", &["Hira"]),
    ("Imperial_Aramaic", &["Armi"]),
    ("Inherited", &["Zinh", "Qaai"]),
    ("Inscriptional_Pahlavi", &["Phli"]),
    ("Inscriptional_Parthian", &["Prti"]),
    ("Javanese", &["Java"]),
    ("Kaithi", &["Kthi"]),
    ("Kannada", &["Knda"]),
    ("Katakana", &["Kana"]),
    ("Kawi", &[]),
    ("Kayah_Li", &["Kali"]),
    ("Kharoshthi", &["Khar"]),
    ("Khitan_Small_Script", &["Kits"]),
    ("Khmer", &["Khmr"]),
    ("Khojki", &["Khoj"]),
    ("Khudawadi", &["Sind"]),
    ("Kirat_Rai", &["Krai"]),
    ("Lao", &["Laoo"]),
    ("Latin", &["Latn"]),
    ("Lepcha", &["Lepc"]),
    ("Limbu", &["Limb"]),
    ("Linear_A", &["Lina"]),
    ("Linear_B", &["Linb"]),
    ("Lisu", &[]),
    ("Lycian", &["Lyci"]),
    ("Lydian", &["Lydi"]),
    ("Mahajani", &["Mahj"]),
    ("Makasar", &["Maka"]),
    ("Malayalam", &["Mlym"]),
    ("Mandaic", &["Mand"]),
    ("Manichaean", &["Mani"]),
    ("Marchen", &["Marc"]),
    ("Masaram_Gondi", &["Gonm"]),
    ("Medefaidrin", &["Medf"]),
    ("Meetei_Mayek", &["Mtei"]),
    ("Mende_Kikakui", &["Mend"]),
    ("Meroitic_Cursive", &["Merc"]),
    ("Meroitic_Hieroglyphs", &["Mero"]),
    ("Miao", &["Plrd"]),
    ("Modi", &[]),
    ("Mongolian", &["Mong"]),
    ("Mro", &["Mroo"]),
    ("Multani", &["Mult"]),
    ("Myanmar", &["Mymr"]),
    ("Nabataean", &["Nbat"]),
    ("Nag_Mundari", &["Nagm"]),
    ("Nandinagari", &["Nand"]),
    ("New_Tai_Lue", &["Talu"]),
    ("Newa", &[]),
    ("Nko", &["Nkoo"]),
    ("Nushu", &["Nshu"]),
    ("Nyiakeng_Puachue_Hmong", &["Hmnp"]),
    ("Ogham", &["Ogam"]),
    ("Ol_Chiki", &["Olck"]),
    ("Ol_Onal", &["Onao"]),
    ("Old_Hungarian", &["Hung"]),
    ("Old_Italic", &["Ital"]),
    ("Old_North_Arabian", &["Narb"]),
    ("Old_Permic", &["Perm"]),
    ("Old_Persian", &["Xpeo"]),
    ("Old_Sogdian", &["Sogo"]),
    ("Old_South_Arabian", &["Sarb"]),
    ("Old_Turkic", &["Orkh"]),
    ("Old_Uyghur", &["Ougr"]),
    ("Oriya", &["Orya"]),
    ("Osage", &["Osge"]),
    ("Osmanya", &["Osma"]),
    ("Pahawh_Hmong", &["Hmng"]),
    ("Palmyrene", &["Palm"]),
    ("Pau_Cin_Hau", &["Pauc"]),
    ("Phags_Pa", &["Phag"]),
    ("Phoenician", &["Phnx"]),
    ("Psalter_Pahlavi", &["Phlp"]),
    ("Rejang", &["Rjng"]),
    ("Runic", &["Runr"]),
    ("Samaritan", &["Samr"]),
    ("Saurashtra", &["Saur"]),
    ("Sharada", &["Shrd"]),
    ("Shavian", &["Shaw"]),
    ("Siddham", &["Sidd"]),
    ("SignWriting", &["Sgnw"]),
    ("Sinhala", &["Sinh"]),
    ("Sogdian", &["Sogd"]),
    ("Sora_Sompeng", &["Sora"]),
    ("Soyombo", &["Soyo"]),
    ("Sundanese", &["Sund"]),
    ("Sunuwar", &["Sunu"]),
    ("Syloti_Nagri", &["Sylo"]),
    ("Syriac", &["Syrc"]),
    ("Tagalog", &["Tglg"]),
    ("Tagbanwa", &["Tagb"]),
    ("Tai_Le", &["Tale"]),
    ("Tai_Tham", &["Lana"]),
    ("Tai_Viet", &["Tavt"]),
    ("Takri", &["Takr"]),
    ("Tamil", &["Taml"]),
    ("Tangsa", &["Tnsa"]),
    ("Tangut", &["Tang"]),
    ("Telugu", &["Telu"]),
    ("Thaana", &["Thaa"]),
    ("Thai", &[]),
    ("Tibetan", &["Tibt"]),
    ("Tifinagh", &["Tfng"]),
    ("Tirhuta", &["Tirh"]),
    ("Todhri", &["Todr"]),
    ("Toto", &[]),
    ("Tulu_Tigalari", &["Tutg"]),
    ("Ugaritic", &["Ugar"]),
    ("Unknown", &["Zzzz"]),
    ("Vai", &["Vaii"]),
    ("Vithkuqi", &["Vith"]),
    ("Wancho", &["Wcho"]),
    ("Warang_Citi", &["Wara"]),
    ("Yezidi", &["Yezi"]),
    ("Yi", &["Yiii"]),
    ("Zanabazar_Square", &["Zanb"]),
];
