use super::*;

fn compile(p: &str) -> Pattern {
    Pattern::new(p, DEFAULT_SIZE_LIMIT).unwrap_or_else(|e| panic!("{p:?} should compile: {e}"))
}

/// The pattern through the general automaton, even when it has a shape or a small DFA.
fn automaton(p: &str) -> Pattern {
    let pattern = Pattern::build(p, DEFAULT_SIZE_LIMIT, false)
        .unwrap_or_else(|e| panic!("{p:?} should compile: {e}"));
    assert!(matches!(pattern.matcher, Matcher::Automaton(_)));
    pattern
}

#[track_caller]
fn matches(p: &str, yes: &[&str], no: &[&str]) {
    let pattern = compile(p);
    let regex = automaton(p);
    for s in yes {
        assert!(pattern.is_match(s), "{p:?} should match {s:?}");
        assert!(regex.is_match(s), "{p:?} (automaton) should match {s:?}");
    }
    for s in no {
        assert!(!pattern.is_match(s), "{p:?} should not match {s:?}");
        assert!(
            !regex.is_match(s),
            "{p:?} (automaton) should not match {s:?}"
        );
    }
}

fn kind(p: &str) -> Option<PatternErrorKind> {
    Pattern::new(p, DEFAULT_SIZE_LIMIT).err().map(|e| e.kind())
}

#[track_caller]
fn syntax_error_both(p: &str) {
    assert!(!is_valid_syntax(p), "{p:?} should be invalid syntax");
    assert_eq!(kind(p), Some(PatternErrorKind::Syntax), "{p:?}");
}

#[track_caller]
fn unsupported(p: &str, construct: &str) {
    assert!(is_valid_syntax(p), "{p:?} should be valid syntax");
    let err = Pattern::new(p, DEFAULT_SIZE_LIMIT).expect_err(p);
    assert_eq!(err.kind(), PatternErrorKind::Unsupported, "{p:?}: {err}");
    assert!(
        err.message().contains(construct),
        "{p:?}: {err} should name {construct}"
    );
}

#[test]
fn pattern_is_send_sync_clone_debug() {
    fn check<T: Send + Sync + Clone + std::fmt::Debug>() {}
    check::<Pattern>();
    check::<PatternError>();
    check::<Shape>();
    let p = compile("a+b");
    let q = p.clone();
    assert!(q.is_match("aab"));
    assert!(format!("{p:?}").contains("a+b"));
}

#[test]
fn literals_and_astral_characters() {
    matches("abc", &["abc", "xabcx"], &["ab", "acb", ""]);
    matches("^🐲*$", &["", "🐲", "🐲🐲"], &["🐉", "D", "🐲D"]);
    matches("^.$", &["🐲", "a", "é"], &["", "ab", "🐲🐲"]);
    matches("^..$", &["🐲🐲", "ab"], &["🐲"]);
    matches("^[🐲🐉]$", &["🐲", "🐉"], &["🐲🐉", "a", "\u{FFFD}"]);
    matches("/", &["a/b"], &["ab"]);
    matches("^--&&$", &["--&&"], &[]);
}

#[test]
fn dot_excludes_only_line_terminators() {
    matches(
        "^.$",
        &["\u{85}", "\u{B}", "\u{C}", "\t", "\u{FEFF}"],
        &["\n", "\r", "\u{2028}", "\u{2029}"],
    );
    matches("^a.c$", &["abc", "a c"], &["a\nc"]);
}

#[test]
fn anchors_are_input_anchors() {
    matches("^abc$", &["abc"], &["abc\n", "\nabc", "xabc"]);
    matches("abc$", &["xabc"], &["abc\n", "abcx"]);
    matches("^abc", &["abcx"], &["\nabc"]);
    matches("a^b", &[], &["ab", "a^b", "a\nb"]);
    matches("a$|^b", &["xa", "bx"], &["ax", "xb"]);
    matches("^$", &[""], &["\n", " "]);
}

#[test]
fn word_boundaries_are_ascii() {
    matches(
        r"\bfoo\b",
        &["a foo b", "foo", "(foo)"],
        &["afoo", "foo_", "foo1"],
    );
    matches(r"\Bfoo", &["afoo", "_foo"], &["foo", " foo"]);
    // `é` is not an ECMA word character, so there is no boundary next to it.
    matches(r"\bé", &[], &["é", " é"]);
    matches(r"^\Bé", &["é"], &[]);
    matches(r"a\b", &["a", "aé"], &["ab"]);
}

#[test]
fn not_word_boundary_never_holds_inside_a_character() {
    // ECMA-262 positions are code point boundaries; a byte offset inside
    // U+2028 is not one, so `\B` has no match in "z\u{2028}1".
    let p = compile("z\u{2028}|\\B");
    assert!(p.is_match("z\u{2028}1"));
    let p = compile(r"\B");
    assert!(!p.is_match("z\u{2028}1"));
    assert!(!p.is_match("a"));
    assert!(p.is_match("é"));
    assert!(p.is_match("a€"));
    assert!(p.is_match("ab"));
    let p = compile(r"\p{scx=Latn}\u2028+|\P{L}{3,5}|\B");
    assert!(p.is_match("z\u{2028}1"));
    assert!(!compile(r"x|\B").is_match("z\u{2028}1"));
    assert!(compile(r"1|\B").is_match("z\u{2028}1"));
    // Every character boundary is a word boundary, and the only
    // non-boundaries are inside `€`: no match, found in one pass.
    let long = "a ".repeat(50_000) + "a€a";
    assert!(!compile(r"\B").is_match(&long));
    assert!(compile(r"\B").is_match(&(long + " ")));
}

#[test]
fn digit_word_space_escapes() {
    matches(r"^\d+$", &["0123456789"], &["", "٣", "৪২", "a"]);
    matches(r"^\D$", &["a", "߀", "৪"], &["0"]);
    matches(r"^\w+$", &["azAZ09_"], &["é", "-", "ſ", "\u{212A}"]);
    matches(r"^\W$", &["é", "-"], &["a", "_"]);
    let spaces = [
        "\t", "\u{B}", "\u{C}", " ", "\u{A0}", "\u{FEFF}", "\n", "\r", "\u{2028}", "\u{2029}",
        "\u{1680}", "\u{2000}", "\u{2003}", "\u{200A}", "\u{202F}", "\u{205F}", "\u{3000}",
    ];
    let not_spaces = ["\u{1}", "\u{85}", "\u{180E}", "\u{200B}", "\u{2013}", "a"];
    matches(r"^\s$", &spaces, &not_spaces);
    matches(r"^\S$", &not_spaces, &spaces);
    matches(r"^[\s\S]$", &["a", "\n"], &[""]);
    matches(r"^[^\d\s]$", &["a"], &["1", " "]);
}

#[test]
fn character_escapes() {
    matches(r"^\t\n\v\f\r$", &["\t\n\u{B}\u{C}\r"], &[]);
    matches(r"^\cJ\cj\cA\cz$", &["\n\n\u{1}\u{1A}"], &["cJ"]);
    matches(r"^\0$", &["\0"], &["0"]);
    matches(r"^[\0]$", &["\0"], &[]);
    matches(r"^\x41\x7e$", &["A~"], &[]);
    matches(r"^\u0041\u{42}\u{000000043}$", &["ABC"], &[]);
    matches(r"^\u{1F600}$", &["😀"], &[]);
    matches(r"^\uD83D\uDE00$", &["😀"], &["\u{FFFD}", "😀😀"]);
    matches(r"^[\uD83D\uDE00]$", &["😀"], &["a"]);
    matches(r"^[\u{1F600}-\u{1F64F}]+$", &["😀🙏"], &["😀a"]);
    matches(
        r"^\$\^\.\*\+\?\(\)\[\]\{\}\|\/\\$",
        &["$^.*+?()[]{}|/\\"],
        &[],
    );
    matches(r"^[\b]$", &["\u{8}"], &["b"]);
    matches(r"^[\-]$", &["-"], &[]);
}

#[test]
fn lone_surrogates_never_match() {
    matches(r"\uD800", &[], &["", "a", "\u{10000}", "\u{FFFD}"]);
    matches(r"\u{DC00}", &[], &["a"]);
    matches(r"^\uD83D\u{DE00}$", &[], &["😀"]);
    matches(r"^\uD83Da$", &[], &["a"]);
    matches(r"^[^\uD800]$", &["a", "😀"], &[""]);
    matches(r"^[\uD800-\uDFFF]$", &[], &["a", "😀", "\u{E000}"]);
    matches(
        r"^[\u0000-\uFFFF]$",
        &["\u{0}", "\u{D7FF}", "\u{E000}", "\u{FFFF}"],
        &["😀"],
    );
    matches(
        r"^[\uD7FF-\uE000]$",
        &["\u{D7FF}", "\u{E000}"],
        &["\u{E001}"],
    );
    matches(r"^a?\uD800?$", &["", "a"], &["b"]);
}

#[test]
fn classes() {
    matches("^[a-z]$", &["a", "m", "z"], &["A", "é", "-"]);
    matches("^[^a-z]$", &["A", "\n", "😀"], &["a", ""]);
    matches("^[]$", &[], &["", "a", "\n"]);
    matches("[]", &[], &["", "a"]);
    matches("^[^]$", &["a", "\n", "😀"], &["", "ab"]);
    matches(r"^[\d-]$", &["1", "-"], &["a"]);
    matches("^[-a]$", &["-", "a"], &["b"]);
    matches("^[a-]$", &["-", "a"], &["b"]);
    matches("^[a-c-e]$", &["a", "b", "c", "-", "e"], &["d"]);
    matches("^[--0]$", &["-", ".", "/", "0"], &["1"]);
    matches("^[[]$", &["["], &["]"]);
    matches(r"^[\]]$", &["]"], &["["]);
    matches(r"^[\w.-]+$", &["a-b.c_d"], &["a b"]);
    matches(r"^[\p{L}\d]+$", &["aé9"], &["a-"]);
    matches(r"^[^\P{Lu}]$", &["A", "É"], &["a", "1"]);
    matches(r"^[\uD83D\uDE00-\uD83D\uDE4F]$", &["😀", "🙏"], &["😐a"]);
}

#[test]
fn quantifiers() {
    matches("^a{2}$", &["aa"], &["a", "aaa"]);
    matches("^a{2,}$", &["aa", "aaaaa"], &["a"]);
    matches("^a{2,3}$", &["aa", "aaa"], &["a", "aaaa"]);
    matches("^a{0}$", &[""], &["a"]);
    matches(
        "^a{0099,100}$",
        &[&"a".repeat(99), &"a".repeat(100)],
        &[&"a".repeat(98)],
    );
    matches("^a{2,3}?$", &["aa", "aaa"], &["aaaa"]);
    matches("^a*?b+?c??$", &["b", "aabbc"], &["c"]);
    matches("^(?:ab)+$", &["ab", "abab"], &["aba", ""]);
    matches("^(?:)*$", &[""], &["a"]);
    matches("^(?:a|)*$", &["", "aaa"], &["b"]);
    matches("^(?:a*)*b$", &["b", "aab"], &["a"]);
}

#[test]
fn groups_and_alternation() {
    matches("^(a|bc)$", &["a", "bc"], &["abc", "b"]);
    matches("^(?:a|bc)d$", &["ad", "bcd"], &["abcd"]);
    matches("^(?<year>\\d{4})-(?<m>\\d\\d)$", &["2024-01"], &["24-01"]);
    matches("^(?<$x_1>a)$", &["a"], &[]);
    matches(r"^(?<\u0041b>a)$", &["a"], &[]);
    matches(r"^(?<\u{1D49C}>a)$", &["a"], &[]);
    matches("^(?<é>a)$", &["a"], &[]);
    matches("a|", &["", "b"], &[]);
    matches("|", &[""], &[]);
    matches("^(|a)$", &["", "a"], &["b"]);
    matches("^((((a))))$", &["a"], &["aa"]);
}

#[test]
fn unicode_properties() {
    matches(r"^\p{L}+$", &["Hello", "π", "é"], &["123", "a1"]);
    matches(r"^\p{Letter}$", &["π"], &["1"]);
    matches(r"^\p{Lu}$", &["A", "É"], &["a"]);
    matches(r"^\p{gc=Lu}$", &["A"], &["a"]);
    matches(r"^\p{General_Category=Uppercase_Letter}$", &["A"], &["a"]);
    matches(r"^\p{General_Category=digit}$", &["٣", "1"], &["a"]);
    matches(r"^\p{digit}+$", &["42", "৪২"], &["-%#"]);
    matches(r"^\p{Nd}$", &["৪"], &["a"]);
    matches(r"^\p{punct}$", &["!", "«"], &["a"]);
    matches(r"^\p{Combining_Mark}$", &["\u{301}"], &["a"]);
    matches(r"^\P{L}$", &["1", "-"], &["a"]);
    matches(r"^\p{sc=Grek}+$", &["αβγ"], &["abc"]);
    matches(r"^\p{Script=Greek}$", &["α"], &["a"]);
    matches(r"^\p{Script=Latin}$", &["a"], &["\u{363}"]);
    matches(r"^\p{scx=Latn}$", &["a", "\u{363}"], &["α"]);
    matches(r"^\p{Script_Extensions=Latin}$", &["\u{363}"], &[]);
    matches(
        r"^\p{sc=Zzzz}$",
        &["\u{378}", "\u{E000}"],
        &["a", "\u{300}"],
    );
    matches(r"^\p{sc=Unknown}$", &["\u{378}"], &["a"]);
    matches(r"^\p{scx=Hira}$", &["あ", "\u{3099}"], &["a"]);
    matches(r"^\p{sc=Qaai}$", &["\u{300}"], &["a"]);
    matches(r"^\p{Any}$", &["a", "\n", "😀"], &[""]);
    matches(r"^\P{Any}$", &[], &["a", ""]);
    matches(r"^\p{ASCII}+$", &["abc\u{7F}"], &["é"]);
    matches(r"^\p{Assigned}$", &["a"], &["\u{378}"]);
    matches(r"^\p{Cn}$", &["\u{378}"], &["a"]);
    matches(r"^\p{Cs}$", &[], &["a", "\u{D7FF}"]);
    matches(r"^\P{Cs}$", &["a", "😀"], &[]);
    matches(r"^\p{Co}$", &["\u{E000}"], &["a"]);
    matches(r"^\p{C}$", &["\u{0}", "\u{378}", "\u{E000}"], &["a"]);
    matches(r"^\p{LC}$", &["a", "A"], &["ª"]);
    matches(r"^\p{Emoji}$", &["😀", "#"], &["a"]);
    matches(r"^\p{Extended_Pictographic}$", &["😀"], &["#"]);
    matches(r"^\p{AHex}+$", &["09afAF"], &["g"]);
    matches(r"^\p{White_Space}$", &[" ", "\u{85}"], &["a"]);
    matches(r"^\p{space}$", &["\u{85}"], &["a"]);
    matches(r"^\p{Alpha}$", &["a"], &["1"]);
    matches(r"^\p{RI}$", &["\u{1F1E6}"], &["a"]);
}

#[test]
fn every_accepted_property_name_has_data() {
    use unicode::{BINARY_PROPERTIES, GENERAL_CATEGORIES, SCRIPTS};
    let empty_ok = ["Surrogate"];
    let check = |text: String, canonical: &str| {
        let property =
            unicode::Property::resolve(&text).unwrap_or_else(|| panic!("{text} unresolved"));
        let Some(class) = property.class() else {
            assert_eq!(
                canonical, "Changes_When_NFKC_Casefolded",
                "{text} has no data"
            );
            return;
        };
        assert!(
            !class.ranges().is_empty() || empty_ok.contains(&canonical),
            "{text} is empty"
        );
        assert!(is_valid_syntax(&format!("\\p{{{text}}}")), "{text}");
        assert!(is_valid_syntax(&format!("[\\P{{{text}}}]")), "{text}");
    };
    for (canonical, aliases) in GENERAL_CATEGORIES {
        for name in std::iter::once(canonical).chain(aliases.iter()) {
            check(name.to_string(), canonical);
            check(format!("gc={name}"), canonical);
            check(format!("General_Category={name}"), canonical);
        }
    }
    for (canonical, aliases) in BINARY_PROPERTIES {
        for name in std::iter::once(canonical).chain(aliases.iter()) {
            check(name.to_string(), canonical);
        }
    }
    for (canonical, aliases) in SCRIPTS {
        for name in std::iter::once(canonical).chain(aliases.iter()) {
            for prefix in ["sc", "Script", "scx", "Script_Extensions"] {
                check(format!("{prefix}={name}"), canonical);
            }
        }
    }
    assert_eq!(SCRIPTS.len(), 171);
}

#[test]
fn property_data_gap_is_unsupported() {
    unsupported(
        r"\p{Changes_When_NFKC_Casefolded}",
        "Changes_When_NFKC_Casefolded",
    );
    unsupported(r"[\P{CWKCF}]", "Changes_When_NFKC_Casefolded");
}

#[test]
fn invalid_property_escapes() {
    for p in [
        r"\p{letter}",
        r"\p{IsGreek}",
        r"\p{Greek}",
        r"\p{Latin}",
        r"\p{gc=Greek}",
        r"\p{sc=L}",
        r"\p{sc=greek}",
        r"\p{Script=latin}",
        r"\p{General_Category=L=L}",
        r"\p{Hyphen}",
        r"\p{Other_Alphabetic}",
        r"\p{Prepended_Concatenation_Mark}",
        r"\p{Block=Basic_Latin}",
        r"\p{Lowercase_Letter=Ll}",
        r"\p{RGI_Emoji}",
        r"\p{sc=Hrkt}",
        r"\p{scx=Katakana_Or_Hiragana}",
        r"\p{Basic_Emoji}",
        r"\p{}",
        r"\p",
        r"\pL",
        r"\p{L",
        r"\p{ L}",
        r"\p{L }",
        r"\p{=L}",
        r"\p{gc=}",
        r"[\p{lu}]",
        r"\p{Alpha=Yes}",
        r"\p{ascii}",
        r"\p{any}",
    ] {
        syntax_error_both(p);
    }
}

#[test]
fn quantifier_errors() {
    for p in [
        "a{",
        "a{1",
        "a{1,",
        "a{1,2",
        "a{,2}",
        "a{a}",
        "{",
        "}",
        "]",
        "a{2,1}",
        "{2}",
        "*",
        "+a",
        "?",
        "a**",
        "a+*",
        "a???",
        "a{2}{3}",
        "^*",
        "$+",
        r"\b*",
        r"\B{2}",
        "a|*",
        "(*)",
        "(?:+)",
        "a{99999999999999999999,1}",
        "a{1}}",
    ] {
        syntax_error_both(p);
    }
    // Lookaround cannot be quantified in unicode mode.
    for p in ["(?=a)*", "(?!a)+", "(?<=a)?", "(?<!a){2}"] {
        syntax_error_both(p);
    }
}

#[test]
fn huge_bounds_are_too_large_not_syntax() {
    for p in [
        "a{99999999999999999999}",
        "a{4294967296}",
        "a{0,4294967296}",
        "a{99999999999999999999,}",
    ] {
        assert!(is_valid_syntax(p), "{p}");
        assert_eq!(kind(p), Some(PatternErrorKind::TooLarge), "{p}");
    }
    assert!(is_valid_syntax(
        "a{99999999999999999998,99999999999999999999}"
    ));
    assert!(is_valid_syntax("a{1,99999999999999999999}"));
}

#[test]
fn group_errors() {
    for p in [
        "(",
        "(a",
        "a)",
        ")",
        "(a|b",
        "((a)",
        "(?",
        "(?a)",
        "(?i)a",
        "(?i:a)",
        "(?-i:a)",
        "(?P<n>a)",
        "(?<n>a)(?<n>b)",
        "(?<n>a)|(?<n>b)",
        "(?<>a)",
        "(?<1a>a)",
        "(?<a-b>a)",
        "(?<a",
        "(?<a>",
        r"(?<\x41>a)",
        r"(?<\uD800>a)",
        "(?<a b>c)",
        "(?<=a",
        "(?=a",
        "(?#comment)",
    ] {
        syntax_error_both(p);
    }
}

#[test]
fn escape_errors() {
    for p in [
        r"\a",
        r"\e",
        r"\i",
        r"\g",
        r"\l",
        r"\m",
        r"\z",
        r"\A",
        r"\Z",
        r"\h",
        r"\K",
        r"\o",
        r"\y",
        r"\ ",
        r"\é",
        r"\😀",
        "\\",
        "a\\",
        r"[\a]",
        r"[\e]",
        r"[\B]",
        r"[\k]",
        r"[\1]",
        r"[\8]",
        r"\00",
        r"\01",
        r"\07",
        r"[\00]",
        r"\c",
        r"\c1",
        r"\c_",
        r"[\c_]",
        r"[\c1]",
        r"\x",
        r"\x4",
        r"\xg0",
        r"\u",
        r"\u12",
        r"\u123",
        r"\u{}",
        r"\u{110000}",
        r"\u{FFFFFFFF}",
        r"\u{12",
        r"\u{g}",
        r"\k",
        r"\k<",
        r"\k<a",
        r"\k<a>",
        r"\1",
        r"(a)\2",
        r"(a)\10",
        r"\8",
        r"\9",
        r"\k<b>(?<a>x)",
        r"[z-a]",
        r"[\w-a]",
        r"[a-\d]",
        r"[\s-\S]",
        r"[\p{L}-z]",
        "[",
        "[a",
        "[^",
        r"[\]",
        "[a-",
        r"[\u{110000}]",
        r"\q{a}",
        r"[\q{a}]",
    ] {
        syntax_error_both(p);
    }
}

#[test]
fn valid_strict_syntax() {
    for p in [
        "",
        "abc",
        r"([abc])+\s+$",
        r"^\d{3}-\d{4}$",
        r"\/",
        r"\^\$\\\.\*\+\?\(\)\[\]\{\}\|",
        r"[\^\$\\\.\*\+\?\(\)\[\]\{\}\|\/\-]",
        r"(a)\1",
        r"(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)\10",
        r"\1(a)",
        r"\k<a>(?<a>x)",
        r"(?<a>x)\k<a>",
        r"(?=a)(?!b)(?<=c)(?<!d)",
        r"(?=(?=a))",
        r"\u{0000000000000041}",
        r"\uD800",
        r"\u{D800}",
        r"[\uD800-\uDBFF]",
        r"\0",
        r"[\0]",
        r"\cA\cz",
        r"[\cA]",
        "a{0}",
        "a{1,1}",
        "a{0,0}?",
        "[]",
        "[^]",
        "[[]",
        "[a-]",
        "[-]",
        "[--]",
        "[---]",
        r"\p{L}\P{L}[\p{L}\P{Nd}]",
        "(?:)",
        "()",
        "(|)",
        "a||b",
        "^$^$",
        r"\b\B",
        "(?<ab$_\u{200C}>x)",
    ] {
        assert!(is_valid_syntax(p), "{p:?} should be valid");
        assert_ne!(kind(p), Some(PatternErrorKind::Syntax), "{p:?}");
    }
}

#[test]
fn lenient_identity_escapes() {
    for p in [
        r"\-", r"\:", r"\#", r"\!", r#"\""#, r"\%", r"\&", r"\'", r"\,", r"\;", r"\<", r"\=",
        r"\>", r"\@", r"\_", r"\`", r"\~", r"[\:]", r"[\#\_]",
    ] {
        assert!(!is_valid_syntax(p), "{p:?} is not valid in unicode mode");
        assert_eq!(kind(p), None, "{p:?} is accepted by the pattern dialect");
    }
    matches(
        r"^https\:\/\/",
        &["https://example.com"],
        &["http://", "https:\\/"],
    );
    matches(r"^\d+\-\d+$", &["1-2"], &["1\\-2"]);
    matches(r"^[a-z\_\-]+$", &["a_b-c"], &["A"]);
    matches(r"^\<\>$", &["<>"], &[]);
    // The escaped character is a literal, never a metacharacter: `\-` in a
    // class cannot form a range.
    matches(r"^[a\-z]$", &["a", "-", "z"], &["b"]);
}

#[test]
fn lookaround_and_backreferences_are_unsupported() {
    unsupported("a(?=b)", "lookahead");
    unsupported("(?!b)", "negative lookahead");
    unsupported("(?<=b)a", "lookbehind");
    unsupported("(?<!b)a", "negative lookbehind");
    unsupported(r"(a)\1", r"\1");
    unsupported(r"(?<x>a)\k<x>", r"\k<x>");
    unsupported(r"^(?!.*--)[a-z-]+$", "negative lookahead");
    let err = Pattern::new("xy(?=b)", DEFAULT_SIZE_LIMIT).unwrap_err();
    assert_eq!(err.offset(), Some(2));
    assert!(err.to_string().contains("xy(?=b)"), "{err}");
    // The leftmost construct is reported.
    let err = Pattern::new(r"(a)(?=\1)", DEFAULT_SIZE_LIMIT).unwrap_err();
    assert!(err.message().contains("lookahead"), "{err}");
    // A syntax error anywhere wins over unsupported constructs.
    assert_eq!(kind(r"(?=a)\a"), Some(PatternErrorKind::Syntax));
}

#[test]
fn error_messages() {
    let err = Pattern::new("^(abc", DEFAULT_SIZE_LIMIT).unwrap_err();
    assert_eq!(err.kind(), PatternErrorKind::Syntax);
    assert_eq!(err.pattern(), "^(abc");
    assert_eq!(err.offset(), Some(1));
    assert_eq!(
        err.to_string(),
        "invalid pattern `^(abc` at offset 1: unterminated group"
    );
    let err = Pattern::new(r"\a", DEFAULT_SIZE_LIMIT).unwrap_err();
    assert!(err.message().contains(r"`\a`"), "{err}");
    let long = format!("{}(", "a".repeat(1000));
    let err = Pattern::new(&long, DEFAULT_SIZE_LIMIT).unwrap_err();
    assert!(err.message().len() < 200, "{err}");
    assert_eq!(err.pattern(), long);
    let err: Box<dyn std::error::Error> = Box::new(err);
    assert!(err.to_string().starts_with("invalid pattern"));
}

#[test]
fn shapes() {
    let shape = |p: &str| compile(p).shape().cloned();
    let s = |x: &str| x.to_owned();
    assert_eq!(shape("abc"), Some(Shape::Contains(s("abc"))));
    assert_eq!(shape(r"https\:\/\/"), Some(Shape::Contains(s("https://"))));
    assert_eq!(shape("(?:ab)c"), Some(Shape::Contains(s("abc"))));
    assert_eq!(shape(""), Some(Shape::Contains(s(""))));
    assert_eq!(shape("^abc"), Some(Shape::Prefix(s("abc"))));
    assert_eq!(shape("^"), Some(Shape::Prefix(s(""))));
    assert_eq!(shape("^abc$"), Some(Shape::Exact(vec![s("abc")])));
    assert_eq!(shape(r"^\u0041\.$"), Some(Shape::Exact(vec![s("A.")])));
    assert_eq!(shape("^$"), Some(Shape::Exact(vec![s("")])));
    assert_eq!(
        shape("^(?:a|bc|)$"),
        Some(Shape::Exact(vec![s("a"), s("bc"), s("")]))
    );
    assert_eq!(
        shape("^(get|set)$"),
        Some(Shape::Exact(vec![s("get"), s("set")]))
    );
    assert_eq!(
        shape("^[a-z]+$"),
        Some(Shape::ClassRepeat {
            ranges: vec![('a', 'z')],
            min: 1,
            max: None
        })
    );
    assert_eq!(
        shape(r"^\d{4}$"),
        Some(Shape::ClassRepeat {
            ranges: vec![('0', '9')],
            min: 4,
            max: Some(4)
        })
    );
    assert_eq!(
        shape("^[A-Za-z0-9_-]{3,32}$"),
        Some(Shape::ClassRepeat {
            ranges: vec![('-', '-'), ('0', '9'), ('A', 'Z'), ('_', '_'), ('a', 'z')],
            min: 3,
            max: Some(32)
        })
    );
    assert_eq!(
        shape("^🐲*$"),
        Some(Shape::ClassRepeat {
            ranges: vec![('🐲', '🐲')],
            min: 0,
            max: None
        })
    );
    assert_eq!(
        shape("^[a-z]$"),
        Some(Shape::ClassRepeat {
            ranges: vec![('a', 'z')],
            min: 1,
            max: Some(1)
        })
    );
    assert!(matches!(
        shape("^.*$"),
        Some(Shape::ClassRepeat {
            min: 0,
            max: None,
            ..
        })
    ));
    assert!(matches!(
        shape(r"^\p{L}{1,3}$"),
        Some(Shape::ClassRepeat { .. })
    ));
    assert!(matches!(
        shape("^(?:[a-z])+$"),
        Some(Shape::ClassRepeat { .. })
    ));
    for p in [
        "^a|b$",
        "a$",
        "^a+b$",
        r"^\uD800$",
        "a.c",
        "^a.c",
        "^(?:ab)+$",
        "^[a-z]+",
        "[a-z]+$",
        r"\bfoo",
        "^(a|b)c$",
        "^(?:a|[bc])$",
        "a|b",
        "^a{4294967296}$",
        r"^\uD800+$",
    ] {
        if let Some(s) = Pattern::new(p, DEFAULT_SIZE_LIMIT)
            .ok()
            .and_then(|p| p.shape().cloned())
        {
            panic!("{p:?} should have no shape, has {s:?}");
        }
    }
}

#[test]
fn shapes_agree_with_the_automaton() {
    let patterns = [
        "abc",
        "",
        "^",
        "^$",
        "^abc",
        "^abc$",
        "^(?:a|bc|)$",
        "^(get|set)$",
        "^[a-z]+$",
        r"^\d{2,4}$",
        "^.*$",
        "^.+$",
        r"^\s*$",
        r"^[^\s]{1,3}$",
        r"^\p{L}*$",
        "^🐲*$",
        "^[]*$",
        "^[]$",
        "^[^]{2}$",
        r"^\W?$",
        "a",
        "é",
        "^(?:a)$",
        "^((ab))$",
        "^[a-c]{0}$",
        r"^[ \r\n\t\S]+$",
        "^[a-zé]{2,3}$",
        "^[^a]{0,1}$",
        r"^[A-Za-z0-9\-\.]{1,64}$",
        "^[a-z]{1,40}$",
        "^[a-z]{16,}$",
        "^[^!]{17,39}$",
        "^[a-c]{64,70}$",
        "^[a-cé]{100,151}$",
    ];
    let haystacks = [
        "",
        "a",
        "b",
        "ab",
        "abc",
        "xabc",
        "abcx",
        "get",
        "set",
        "gets",
        "bc",
        "12",
        "123",
        "12345",
        "1a",
        " ",
        "\n",
        "a\nb",
        "é",
        "éé",
        "🐲",
        "🐲🐲",
        "🐉",
        "  ",
        "\t\t\t\t",
        "xyz",
        "-",
        "aé",
        "éa",
        "\u{b}",
        "\u{a0}",
        "a b",
        "ab\u{2028}",
        "a.b-c",
        "ÿÿÿÿ",
        "aaaaaaaaa",
    ];
    // Longer haystacks: a character outside the class, or a non-ASCII one, at the start, in
    // the middle and at the end, so that repeated classes leave the all-ASCII test at every
    // place and count the characters one by one.
    // A string of over 64 bytes is tested in blocks of 64.
    let placed = [
        (14, 0usize),
        (14, 5),
        (14, 15),
        (14, 16),
        (14, 17),
        (14, 31),
        (14, 32),
    ]
    .into_iter()
    .chain([
        (14, 40),
        (14, 42),
        (50, 0),
        (50, 63),
        (50, 64),
        (50, 65),
        (50, 128),
    ])
    .chain([(50, 149), (50, 150)]);
    let long: Vec<String> = placed
        .flat_map(|(repeat, at)| {
            ["!", "é", "\u{b}", "A", "🐲"].map(|c| {
                let mut h = "abc".repeat(repeat);
                h.insert_str(at, c);
                h
            })
        })
        .chain([
            "a".repeat(16),
            "a".repeat(39),
            "a".repeat(40),
            "a".repeat(64),
            "a".repeat(65),
            "a".repeat(200),
            "7".repeat(48),
            " ".repeat(33),
        ])
        .collect();
    let haystacks: Vec<&str> = haystacks
        .iter()
        .copied()
        .chain(long.iter().map(String::as_str))
        .collect();
    for p in patterns {
        let pattern = compile(p);
        let shape = pattern.shape().expect("a shape");
        let regex = automaton(p);
        for &h in &haystacks {
            assert_eq!(pattern.is_match(h), regex.is_match(h), "{p:?} on {h:?}");
            assert_eq!(shape.is_match(h), regex.is_match(h), "{p:?} on {h:?}");
        }
    }
}

#[test]
fn catastrophic_backtracking_patterns_are_linear() {
    let input = "a".repeat(100_000) + "!";
    assert!(!compile("^(a+)+$").is_match(&input));
    assert!(!compile("^(a|a)*$").is_match(&input));
    assert!(!compile("^(a*)*b$").is_match(&input));
    assert!(!compile(r"^(\w+\s?)*$").is_match(&input));
    assert!(compile("(a+)+!").is_match(&input));
}

#[test]
fn hostile_nesting_does_not_overflow() {
    let n = 100_000;
    let open = "(".repeat(n);
    assert!(!is_valid_syntax(&open));
    assert_eq!(kind(&open), Some(PatternErrorKind::Syntax));
    let balanced = format!("{}a{}", "(".repeat(n), ")".repeat(n));
    assert!(is_valid_syntax(&balanced));
    assert_eq!(kind(&balanced), Some(PatternErrorKind::TooLarge));
    let lookahead = format!("{}a{}", "(?=".repeat(n), ")".repeat(n));
    assert!(is_valid_syntax(&lookahead));
    assert_eq!(kind(&lookahead), Some(PatternErrorKind::Unsupported));
    let quantified = format!("{}a{}", "(?:".repeat(n), ")*".repeat(n));
    assert!(is_valid_syntax(&quantified));
    assert_eq!(kind(&quantified), Some(PatternErrorKind::TooLarge));
    let closing = ")".repeat(n);
    assert_eq!(kind(&closing), Some(PatternErrorKind::Syntax));
    let classes = "[".repeat(n);
    assert_eq!(kind(&classes), Some(PatternErrorKind::Syntax));
    let wide = vec!["a"; n].join("|");
    assert!(compile(&wide).is_match("a"));
    let named = format!("{}a{}", "(?<n>".repeat(2), ")".repeat(2));
    assert_eq!(kind(&named), Some(PatternErrorKind::Syntax));
    let many_names: String = (0..n / 2).map(|i| format!("(?<g{i}>a)")).collect();
    assert!(is_valid_syntax(&format!(r"{many_names}\k<g7>")));
    let many_properties = r"\p{L}".repeat(n / 4);
    let err = Pattern::new(&many_properties, DEFAULT_SIZE_LIMIT).unwrap_err();
    assert_eq!(err.kind(), PatternErrorKind::TooLarge);
    assert!(err.message().contains("character classes"), "{err}");
    let huge = "ab|[c-d]*|".repeat(500_000) + "e";
    assert!(is_valid_syntax(&huge));
    assert_eq!(
        Pattern::new(&huge, 1 << 20).unwrap_err().kind(),
        PatternErrorKind::TooLarge
    );
    let long_escape = format!(r"^\u{{{}41}}$", "0".repeat(n));
    assert!(compile(&long_escape).is_match("A"));
}

#[test]
fn deepest_allowed_nesting_compiles_on_a_small_stack() {
    // Depth: the root concatenation, then a repetition, a group and a
    // concatenation per level, then the leaf.
    let levels = (NEST_LIMIT - 2) / 3;
    let nested = |levels: usize| format!("^{}a{}$", "(?:b".repeat(levels), ")*".repeat(levels));
    let p = nested(levels);
    let handle = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || {
            let pattern = compile(&p);
            pattern.is_match(&("b".repeat(levels) + "a")) && !pattern.is_match("c")
        })
        .expect("spawn");
    assert!(handle.join().expect("no stack overflow"));
    assert_eq!(kind(&nested(levels + 1)), Some(PatternErrorKind::TooLarge));
}

#[test]
fn size_limit() {
    assert_eq!(kind("a{1000000000}"), Some(PatternErrorKind::TooLarge));
    assert_eq!(kind("(a{1000}){1000}"), Some(PatternErrorKind::TooLarge));
    assert_eq!(
        kind("((a{100}){100}){100}"),
        Some(PatternErrorKind::TooLarge)
    );
    assert_eq!(kind(r"\p{L}{10000}"), Some(PatternErrorKind::TooLarge));
    assert_eq!(kind("[^]{1000000}"), Some(PatternErrorKind::TooLarge));
    let err = Pattern::new("x(a{1000}){1000}", DEFAULT_SIZE_LIMIT).unwrap_err();
    assert!(err.message().contains("size limit"), "{err}");
    assert_eq!(err.offset(), None);
    // The limit is the caller's.
    assert!(Pattern::new(r"x\p{L}", 1 << 10).is_err());
    assert!(Pattern::new(r"x\p{L}", DEFAULT_SIZE_LIMIT).is_ok());
    // Shapes need no automaton, so beyond the source length they compile
    // under any limit.
    assert!(Pattern::new("^[a-z]{1000000000}$", 64).is_ok());
    // The source itself counts against the limit, syntax errors first.
    assert_eq!(
        Pattern::new(&"a".repeat(65), 64).unwrap_err().kind(),
        PatternErrorKind::TooLarge
    );
    assert_eq!(
        Pattern::new(&("a".repeat(65) + "("), 64)
            .unwrap_err()
            .kind(),
        PatternErrorKind::Syntax
    );
}

/// A small deterministic generator (xorshift), so the hostile-input test is
/// reproducible.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[(self.next() % items.len() as u64) as usize]
    }
}

#[test]
fn random_patterns_never_panic() {
    let pieces = [
        "a",
        "b",
        "é",
        "🐲",
        ".",
        "^",
        "$",
        "|",
        "(",
        ")",
        "(?:",
        "(?=",
        "(?!",
        "(?<=",
        "(?<!",
        "(?<n>",
        "(?<m>",
        "[",
        "]",
        "[^",
        "-",
        "{",
        "}",
        "{2}",
        "{1,3}",
        "{2,1}",
        "{,",
        "*",
        "+",
        "?",
        "\\",
        "\\d",
        "\\W",
        "\\s",
        "\\b",
        "\\B",
        "\\1",
        "\\2",
        "\\k<n>",
        "\\k<",
        "\\p{L}",
        "\\P{Lu}",
        "\\p{",
        "\\u",
        "\\uD83D",
        "\\uDE00",
        "\\u{1F600}",
        "\\u{",
        "\\x4",
        "\\x41",
        "\\c",
        "\\cA",
        "\\0",
        "\\00",
        "\\-",
        "\\:",
        "\\a",
        "\\/",
        "}",
        "0",
        "9",
        ",",
        "<",
        ">",
        "=",
        "!",
    ];
    let haystacks = [
        "",
        "a",
        "ab",
        "é🐲",
        "aaa\nb",
        "2024-01-01",
        "AbC_9-",
        "\u{FEFF} x",
    ];
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..4000 {
        let len = (rng.next() % 12) as usize;
        let source: String = (0..len).map(|_| rng.pick(&pieces)).collect();
        let strict = is_valid_syntax(&source);
        match Pattern::new(&source, DEFAULT_SIZE_LIMIT) {
            Ok(pattern) => {
                assert_eq!(pattern.as_str(), source);
                let regex = pattern.shape().map(|_| automaton(&source));
                for h in haystacks {
                    let got = pattern.is_match(h);
                    if let Some(regex) = &regex {
                        assert_eq!(got, regex.is_match(h), "{source:?} on {h:?}");
                    }
                }
            }
            Err(e) => {
                assert!(
                    !(strict && e.kind() == PatternErrorKind::Syntax),
                    "{source:?}: strictly valid but lenient syntax error: {e}"
                );
                assert!(!e.message().is_empty());
            }
        }
    }
    // Arbitrary bytes-turned-strings, including control characters.
    for _ in 0..2000 {
        let len = (rng.next() % 16) as usize;
        let source: String = (0..len)
            .map(|_| char::from_u32((rng.next() % 0x80) as u32).unwrap_or('a'))
            .collect();
        let _ = is_valid_syntax(&source);
        if let Ok(p) = Pattern::new(&source, DEFAULT_SIZE_LIMIT) {
            let _ = p.is_match("some haystack\n");
        }
    }
}

/// Small patterns are searched by a dense DFA, large ones by the lazy one, and the dense DFA
/// agrees with the general automaton.
#[test]
fn small_patterns_search_a_dense_dfa() {
    let date = r"^([0-9]([0-9]([0-9][1-9]|[1-9]0)|[1-9]00)|[1-9]000)(-(0[1-9]|1[0-2])(-(0[1-9]|[1-2][0-9]|3[0-1]))?)?$";
    assert!(matches!(compile(date).matcher, Matcher::Dense(_)));
    matches(
        date,
        &["2024", "2024-02", "1982-08-02", "0001-12-31"],
        &[
            "",
            "0000",
            "2024-13",
            "2024-02-32",
            "1982-08-02T",
            " 1982-08-02",
            "１９８２",
        ],
    );
    // Unanchored, and with a `$` on one side only.
    matches(
        r"^true|false$",
        &["true", "truex", "is false"],
        &["xtrue", "falsey", ""],
    );
    matches(r"ab+c", &["abc", "xxabbbcyy"], &["ac", "abx"]);
    matches(
        r"^[^\s]+(\s[^\s]+)*$",
        &["a", "a b", "é\u{a0}ü"],
        &["", " a", "a ", "a  b", "a\u{2003}"],
    );
    // A hundred Unicode letters, each before a dash, take more states than a dense DFA may.
    let letters = r"^(?:\p{L}-){100}$";
    assert!(matches!(compile(letters).matcher, Matcher::Automaton(_)));
    matches(letters, &[&"é-".repeat(100)], &["a-", &"1-".repeat(100)]);
}
