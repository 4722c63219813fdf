//! Mistakes other validators found in themselves, each held here on both paths: a regular
//! expression search the engine gives up on is never a mismatch, `.` matches no line
//! terminator, and whole floats beyond 2^53 compare exactly with integers (as bounds and in
//! `const`, `enum` and `uniqueItems`). The schemas are `regressions/schemas.json`.

#![deny(warnings)]

use serde_json::Value;
use toolschema::{Validate, Validator};
use toolschema_conformance::agree;

mod compiled {
    toolschema::include_validators!("compiled_regressions.rs");
}

const SCHEMAS: &str = include_str!("../regressions/schemas.json");

/// Whether numbers are compared on their text (`arbitrary-precision`): then a float written
/// with more digits than an `f64` holds keeps them.
const EXACT_TEXT: bool = cfg!(feature = "arbitrary-precision");

fn interpreted(name: &str) -> Validator {
    let schemas: Value = serde_json::from_str(SCHEMAS).unwrap();
    Validator::new(&schemas[name]).unwrap()
}

/// Checks `{property: value}` (value as JSON text) on both paths against `valid`.
#[track_caller]
fn check(
    compiled: &dyn Validate,
    interpreted: &Validator,
    property: &str,
    text: &str,
    valid: bool,
) {
    let value: Value = serde_json::from_str(text).unwrap();
    let instance = Value::Object([(property.to_string(), value)].into_iter().collect());
    assert_eq!(
        agree(compiled, interpreted, &instance),
        Ok(valid),
        "{property}: {text}"
    );
}

/// The pattern of [`give_up_haystack`].
const GIVE_UP: &str = "a[ab]{20}[^ab]";

/// For [`GIVE_UP`], a DFA needs a state for every window of 21 letters it has seen: over a long
/// random run of `a` and `b` the lazy DFA fills its cache again and again and gives up. The one
/// match is at the very end.
fn give_up_haystack() -> String {
    let mut x: u32 = 0x9e37_79b9;
    let mut haystack: String = (0..300_000)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            if x & 1 == 0 { 'a' } else { 'b' }
        })
        .collect();
    haystack.push_str("abababababbbbbaaaaabbc");
    haystack
}

/// The pair does make the lazy DFA give up, configured as the meta engine behind every
/// pattern configures it (2 MiB cache; give up after three clears that each saw fewer than
/// ten bytes per state), with the match at the end and without it. (`a[ab]{20}[^ab]` means the
/// same in Rust's syntax as in ECMA-262's Unicode mode.)
#[test]
fn the_lazy_dfa_gives_up_on_the_pair() {
    use regex_automata::{Input, MatchErrorKind, hybrid};
    let config = hybrid::dfa::Config::new()
        .cache_capacity(2 << 20)
        .minimum_cache_clear_count(Some(3))
        .minimum_bytes_per_state(Some(10));
    let dfa = hybrid::dfa::Builder::new()
        .configure(config)
        .build(GIVE_UP)
        .unwrap();
    let mut cache = dfa.create_cache();
    let haystack = give_up_haystack();
    for h in [haystack.as_str(), haystack.trim_end_matches('c')] {
        let err = dfa
            .try_search_fwd(&mut cache, &Input::new(h))
            .expect_err("the lazy DFA should give up");
        assert!(
            matches!(err.kind(), MatchErrorKind::GaveUp { .. }),
            "{err:?}"
        );
    }
}

/// Still, each path decides: the engine retries a search its lazy DFA gave up on with one that
/// cannot give up, so the match is found under `pattern`, `not` and `anyOf`.
#[test]
fn a_search_the_engine_gives_up_on_is_decided() {
    let schemas: Value = serde_json::from_str(SCHEMAS).unwrap();
    assert_eq!(
        schemas["gave_up"]["properties"]["matching"]["pattern"],
        GIVE_UP
    );
    let v = interpreted("gave_up");
    let c = &compiled::GaveUp;
    let matching = Value::String(give_up_haystack());
    let not_matching = Value::String(give_up_haystack().trim_end_matches('c').to_string());
    for (property, value, valid) in [
        ("not_matching", &matching, false),
        ("not_matching", &not_matching, true),
        ("matching", &matching, true),
        ("matching", &not_matching, false),
        ("either", &matching, true),
        ("either", &not_matching, false),
    ] {
        let text = serde_json::to_string(value).unwrap();
        check(c, &v, property, &text, valid);
    }
}

#[test]
fn dot_matches_no_line_terminator() {
    let v = interpreted("dot");
    let c = &compiled::Dot;
    for terminator in ["\n", "\r", "\u{2028}", "\u{2029}"] {
        let alone = serde_json::to_string(terminator).unwrap();
        let between = serde_json::to_string(&format!("a{terminator}b")).unwrap();
        let key = serde_json::to_string(&format!("k{terminator}")).unwrap();
        check(c, &v, "one", &alone, false);
        check(c, &v, "between", &between, false);
        check(c, &v, "not_between", &between, true);
        check(c, &v, "keys", &format!("{{{key}: 1}}"), false);
    }
    for other in ["x", "é", "\u{1f600}", "\u{85}", "\u{b}", "\u{c}", "\t"] {
        let alone = serde_json::to_string(other).unwrap();
        let between = serde_json::to_string(&format!("a{other}b")).unwrap();
        let key = serde_json::to_string(&format!("k{other}")).unwrap();
        check(c, &v, "one", &alone, true);
        check(c, &v, "between", &between, true);
        check(c, &v, "not_between", &between, false);
        check(c, &v, "keys", &format!("{{{key}: 1}}"), true);
    }
}

#[test]
fn whole_floats_beyond_2_53_against_integer_bounds() {
    let v = interpreted("big_bounds");
    let c = &compiled::BigBounds;
    for (property, text, valid) in [
        ("max_2_53", "9007199254740993", false),
        ("max_2_53", "9007199254740992.0", true),
        ("max_2_53", "9.007199254740994e15", false),
        ("max_2_53", "1e300", false),
        ("max_2_53", "-1e300", true),
        ("min_2_53_plus_1", "9007199254740992.0", false),
        ("min_2_53_plus_1", "9007199254740993", true),
        ("min_2_53_plus_1", "9007199254740994.0", true),
        ("min_2_53_plus_1", "1e300", true),
        ("min_2_53_plus_1", "9007199254740993.0", EXACT_TEXT),
        ("below_u64_max", "1e300", false),
        ("below_u64_max", "1.8446744073709552e19", false),
        ("below_u64_max", "18446744073709551614", true),
        ("below_u64_max", "18446744073709551615", false),
        ("below_u64_max", "1.8446744073709550e19", true),
        // Beyond 2^53 an `f64` means the integer its shortest text spells (see the number
        // module): -9.223372036854776e18 is below `i64::MIN`, -9.223372036854775e18 above it.
        ("min_i64", "-1e300", false),
        ("min_i64", "-9.223372036854776e18", false),
        ("min_i64", "-9.223372036854775e18", true),
        ("min_i64", "-9223372036854775808", true),
        ("min_i64", "-9223372036854775809", false),
        ("max_i64_min", "-9.223372036854776e18", true),
        ("max_i64_min", "-9.223372036854775e18", false),
        ("max_i64_min", "-9223372036854775808", true),
        ("max_i64_min", "-1e300", true),
        ("integer", "1e300", true),
        ("integer", "1.5e300", true),
        ("integer", "9007199254740993.0", true),
        ("integer", "-1e300", true),
        ("integer", "0.5", false),
    ] {
        check(c, &v, property, text, valid);
    }
}

#[test]
fn whole_floats_beyond_2_53_in_const_enum_and_unique_items() {
    let v = interpreted("big_equality");
    let c = &compiled::BigEquality;
    for (property, text, valid) in [
        ("const", "9007199254740993", true),
        ("const", "9007199254740992", false),
        ("const", "9007199254740992.0", false),
        ("const", "9007199254740994.0", false),
        ("const", "9007199254740993.0", EXACT_TEXT),
        ("enum", "1e300", true),
        ("enum", "1.0e300", true),
        ("enum", "10e299", true),
        ("enum", "1e299", false),
        ("enum", "18446744073709551615", true),
        ("enum", "1.8446744073709552e19", false),
        ("enum", "18446744073709551615.0", EXACT_TEXT),
        ("unique", "[9007199254740993, 9007199254740992.0]", true),
        ("unique", "[9007199254740992, 9007199254740992.0]", false),
        ("unique", "[9007199254740992, 9.007199254740992e15]", false),
        ("unique", "[1e300, 1.0e300]", false),
        (
            "unique",
            "[18446744073709551615, 1.8446744073709552e19]",
            true,
        ),
        ("unique", "[[1e300], [1.0e300]]", false),
        (
            "unique",
            "[{\"a\": 9007199254740993}, {\"a\": 9007199254740992.0}]",
            true,
        ),
        (
            "unique",
            "[9007199254740993, 9007199254740993.0]",
            !EXACT_TEXT,
        ),
    ] {
        check(c, &v, property, text, valid);
    }
}
