use std::cmp::Ordering::{self, Equal, Greater, Less};

use serde_json::Number;

use super::*;

/// A number exactly as the validator receives it: parsed by serde_json.
fn n(text: &str) -> Number {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn f(x: f64) -> Number {
    Number::from_f64(x).unwrap()
}

fn cmp(a: &str, b: &str) -> Ordering {
    compare(&n(a), &n(b))
}

/// Checks `compare` and `Bound::compare` both ways round.
fn assert_order(a: &Number, b: &Number, want: Ordering) {
    assert_eq!(compare(a, b), want, "{a} vs {b}");
    assert_eq!(compare(b, a), want.reverse(), "{b} vs {a}");
    assert_eq!(Bound::new(b).compare(a), want, "{a} vs bound {b}");
    assert_eq!(Bound::new(a).compare(b), want.reverse(), "{b} vs bound {a}");
    assert_eq!(equal(a, b), want == Equal, "{a} == {b}");
}

fn multiple(value: &Number, divisor: &Number) -> bool {
    MultipleOf::new(divisor)
        .unwrap_or_else(|| panic!("divisor {divisor}"))
        .divides(value)
}

#[test]
fn integers_across_u64_and_i64() {
    let max = Number::from(u64::MAX);
    let min = Number::from(i64::MIN);
    assert_order(&max, &min, Greater);
    assert_order(&max, &Number::from(i64::MAX), Greater);
    assert_order(&Number::from(u64::MAX - 1), &max, Less);
    assert_order(&Number::from(-1), &Number::from(0u64), Less);
    assert_order(&Number::from(i64::MIN + 1), &min, Greater);
    assert_order(&n("-0"), &n("0"), Equal);
    assert_order(
        &Number::from(i64::MAX),
        &Number::from(i64::MAX as u64),
        Equal,
    );
}

#[test]
fn floats_among_themselves() {
    assert_order(&f(0.1), &f(0.1 + 0.2), Less);
    assert_order(&f(0.3), &f(0.1 + 0.2), Less);
    assert_order(&f(-0.0), &f(0.0), Equal);
    assert_order(&f(-1e308), &f(1e-308), Less);
    assert_order(&f(5e-324), &f(0.0), Greater);
    assert_order(&f(-5e-324), &f(-0.0), Less);
    assert_order(&f(f64::MAX), &f(1.7976931348623155e308), Greater);
}

#[test]
fn floats_against_integers() {
    let two53 = f(9_007_199_254_740_992.0);
    assert_order(&Number::from(9_007_199_254_740_993u64), &two53, Greater);
    assert_order(&Number::from(9_007_199_254_740_992u64), &two53, Equal);
    assert_order(&Number::from(9_007_199_254_740_991u64), &two53, Less);
    assert_order(
        &Number::from(-9_007_199_254_740_993i64),
        &f(-9_007_199_254_740_992.0),
        Less,
    );
    assert_order(
        &Number::from(9_007_199_254_740_993u64),
        &f(9_007_199_254_740_994.0),
        Less,
    );
    // Within 2^53: plain f64 semantics.
    assert_order(&Number::from(1), &f(1.0), Equal);
    assert_order(&Number::from(1), &f(0.9999999999999999), Greater);
    assert_order(&Number::from(-3), &f(-2.5), Less);
    assert_order(&Number::from(0), &f(-0.0), Equal);
    assert_order(
        &Number::from(4_503_599_627_370_495i64),
        &f(4_503_599_627_370_495.5),
        Less,
    );
    // Integer beyond 2^53, float below it.
    assert_order(&Number::from(u64::MAX), &f(1e15), Greater);
    assert_order(&Number::from(i64::MIN), &f(-1e15), Less);
    // Float beyond 2^65: beyond every 64-bit integer.
    assert_order(&Number::from(u64::MAX), &f(1e20), Less);
    assert_order(&Number::from(i64::MIN), &f(-1e20), Greater);
    assert_order(&Number::from(u64::MAX), &f(1e308), Less);
    // Between 2^53 and 2^65 the float's shortest decimal decides.
    // 2^64 as f64 reads 18446744073709552000.
    assert_order(
        &Number::from(u64::MAX),
        &f(18_446_744_073_709_551_616.0),
        Less,
    );
    // The f64 below 2^64 is 18446744073709549568, read 18446744073709550000.
    assert_order(
        &Number::from(u64::MAX),
        &f(18_446_744_073_709_549_568.0),
        Greater,
    );
    assert_order(
        &Number::from(18_446_744_073_709_550_000u64),
        &f(18_446_744_073_709_549_568.0),
        Equal,
    );
    assert_order(
        &Number::from(18_446_744_073_709_549_999u64),
        &f(18_446_744_073_709_549_568.0),
        Less,
    );
    // -2^63 as f64 reads -9223372036854776000, below i64::MIN.
    assert_order(
        &Number::from(i64::MIN),
        &f(-9_223_372_036_854_775_808.0),
        Greater,
    );
    assert_order(
        &Number::from(9_223_372_036_854_776_000u64),
        &f(9_223_372_036_854_775_808.0),
        Equal,
    );
    assert_order(
        &Number::from(i64::MAX),
        &f(9_223_372_036_854_775_808.0),
        Less,
    );
}

#[test]
fn parsed_text_compares_like_the_values() {
    assert_eq!(cmp("1", "1.0"), Equal);
    assert_eq!(cmp("1e2", "100"), Equal);
    assert_eq!(cmp("-0.0", "0"), Equal);
    assert_eq!(cmp("0.1", "0.10"), Equal);
    assert_eq!(cmp("-1.5", "-1"), Less);
    assert_eq!(cmp("1e-7", "0"), Greater);
    assert_eq!(cmp("18446744073709551615", "-9223372036854775808"), Greater);
}

#[test]
fn sorting_is_a_total_order() {
    let mut v: Vec<Number> = [
        "0",
        "-0.0",
        "1",
        "1.0",
        "-1",
        "0.5",
        "1e308",
        "-1e308",
        "5e-324",
        "18446744073709551615",
        "-9223372036854775808",
        "9007199254740993",
        "9007199254740992.0",
        "1e20",
        "0.3",
        "0.30000000000000004",
        "-2.5",
        "3",
    ]
    .iter()
    .map(|t| n(t))
    .collect();
    v.sort_by(compare);
    for w in v.windows(2) {
        assert_ne!(compare(&w[0], &w[1]), Greater, "{} then {}", w[0], w[1]);
    }
    for a in &v {
        for b in &v {
            assert_eq!(compare(a, b), compare(b, a).reverse(), "{a} {b}");
            for c in &v {
                if compare(a, b) != Greater && compare(b, c) != Greater {
                    assert_ne!(compare(a, c), Greater, "{a} {b} {c}");
                }
            }
        }
    }
}

#[test]
fn integers_in_the_schema_sense() {
    for t in [
        "0",
        "-0",
        "-0.0",
        "1.0",
        "1e2",
        "1e308",
        "-1e308",
        "100.000",
        "18446744073709551615",
        "-9223372036854775808",
        "4503599627370496.0",
        "1.5e1",
    ] {
        assert!(is_integer(&n(t)), "{t}");
    }
    for t in [
        "1.5",
        "0.1",
        "1e-7",
        "-0.5",
        "5e-324",
        "0.30000000000000004",
        "1.05e1",
    ] {
        assert!(!is_integer(&n(t)), "{t}");
    }
    // The largest non-integer f64 (serde_json's parser rounds this text
    // to the neighbouring integer, so build it directly).
    assert!(!is_integer(&f(4_503_599_627_370_495.5)));
    assert!(is_integer(&Number::from(u64::MAX)));
    assert!(is_integer(&Number::from(i64::MIN)));
    assert!(is_integer(&f(f64::MAX)));
    assert!(is_integer(&f(-0.0)));
}

#[test]
fn decimal_multiples() {
    let cases: &[(&str, &str, bool)] = &[
        ("0.0075", "0.0001", true),
        ("0.00751", "0.0001", false),
        ("0.3", "0.1", true),
        ("0.30000000000000004", "0.1", false),
        ("19.99", "0.01", true),
        ("19.999", "0.01", false),
        ("4.5", "1.5", true),
        ("35", "1.5", false),
        ("22.5", "7.5", true),
        ("15", "7.5", true),
        ("7.4", "7.5", false),
        ("-22.5", "7.5", true),
        ("1e-9", "1e-10", true),
        ("1.5e-9", "1e-10", true),
        ("1e-11", "1e-10", false),
        ("0.0000001", "1e-7", true),
        ("0.00000035", "1e-7", false),
        ("0.0000007", "1e-7", true),
        ("123456789", "1e-7", true),
        ("5e-324", "5e-324", true),
        ("1e-323", "5e-324", true),
        ("1.5e-323", "5e-324", true),
        ("0.5", "0.25", true),
        ("0.75", "0.25", true),
        ("0.8", "0.25", false),
        ("10", "2.5", true),
        ("0.125", "0.125", true),
        ("1", "0.125", true),
        ("1.0625", "0.125", false),
    ];
    for &(v, d, want) in cases {
        assert_eq!(multiple(&n(v), &n(d)), want, "{v} multipleOf {d}");
    }
}

#[test]
fn integer_multiples() {
    let max = Number::from(u64::MAX);
    let min = Number::from(i64::MIN);
    for d in [
        "1", "3", "5", "15", "17", "255", "257", "65537", "1.0", "0.5", "0.2", "1e-10",
    ] {
        assert!(multiple(&max, &n(d)), "u64::MAX multipleOf {d}");
    }
    for d in ["2", "7", "10", "0.7", "1e19", "18446744073709551614"] {
        assert!(!multiple(&max, &n(d)), "u64::MAX not multipleOf {d}");
    }
    assert!(multiple(&max, &max));
    for d in [
        "1",
        "2",
        "1024",
        "4611686018427387904",
        "0.5",
        "0.25",
        "9223372036854775808",
    ] {
        assert!(multiple(&min, &n(d)), "i64::MIN multipleOf {d}");
    }
    for d in ["3", "5", "0.3", "10"] {
        assert!(!multiple(&min, &n(d)), "i64::MIN not multipleOf {d}");
    }
    assert!(multiple(&n("10"), &n("2")));
    assert!(!multiple(&n("7"), &n("2")));
    assert!(multiple(&n("-21"), &n("7")));
    assert!(multiple(&n("21"), &n("7.0")));
    assert!(multiple(&n("2100"), &n("7e2")));
    assert!(!multiple(&n("2150"), &n("7e2")));
    assert!(multiple(&n("1e18"), &n("1e17")));
    // Divisors beyond every 64-bit integer: only 0 among those integers.
    assert!(!multiple(&max, &n("1e308")));
    assert!(!multiple(&max, &n("1e20")));
    assert!(multiple(&n("0"), &n("1e308")));
}

#[test]
fn float_multiples_at_the_extremes() {
    assert!(multiple(&n("1e308"), &n("0.5")));
    assert!(multiple(&n("1e308"), &n("1e308")));
    assert!(!multiple(&n("1e308"), &n("3")));
    assert!(multiple(&n("1e308"), &n("1e-308")));
    assert!(multiple(&n("1.5e308"), &n("0.5e308")));
    assert!(!multiple(&n("1.5e308"), &n("1e308")));
    assert!(multiple(&n("-1e308"), &n("2")));
    assert!(multiple(&n("1e300"), &n("1024")));
    assert!(multiple(&n("1e300"), &n("5e299")));
    assert!(!multiple(&n("1e300"), &n("3e299")));
    assert!(multiple(&f(f64::MAX), &n("1e292")));
    assert!(multiple(&f(f64::MAX), &n("17976931348623157")));
    assert!(!multiple(&f(f64::MAX), &n("1e293")));
    // A float above 2^53 is the integer its shortest text spells.
    assert!(multiple(&f(9_223_372_036_854_775_808.0), &n("1000")));
    assert!(!multiple(&f(9_007_199_254_740_994.0), &n("4")));
    assert!(multiple(&f(9_007_199_254_740_994.0), &n("2")));
}

#[test]
fn zero_is_a_multiple_of_everything() {
    for d in [
        "1",
        "0.5",
        "1e-10",
        "1e308",
        "3",
        "7.5",
        "5e-324",
        "18446744073709551615",
    ] {
        for z in ["0", "-0", "0.0", "-0.0", "0e10"] {
            assert!(multiple(&n(z), &n(d)), "{z} multipleOf {d}");
        }
    }
}

#[test]
fn invalid_divisors() {
    for d in [
        "0",
        "-0",
        "0.0",
        "-0.0",
        "-1",
        "-0.5",
        "-1e308",
        "-18446744073709551615",
    ] {
        assert!(MultipleOf::new(&n(d)).is_none(), "{d}");
    }
}

#[test]
fn accessors_give_the_schema_number() {
    let b = Bound::new(&n("2.50"));
    assert_eq!(b.number(), &n("2.50"));
    let m = MultipleOf::new(&n("7.5")).unwrap();
    assert_eq!(m.number(), &n("7.5"));
}

/// Exact reference for `multipleOf` on small decimals: scale both to
/// integers and take a remainder.
#[test]
fn agrees_with_scaled_integer_arithmetic() {
    let values: Vec<i64> = (-300..=300).collect();
    let divisors: Vec<i64> = vec![
        1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 15, 16, 20, 25, 40, 75, 125, 250,
    ];
    for scale_v in 0..4u32 {
        for scale_d in 0..4u32 {
            for &v in &values {
                for &d in &divisors {
                    let vt = decimal_text(v, scale_v);
                    let dt = decimal_text(d, scale_d);
                    // v/10^sv ÷ d/10^sd = v·10^sd / (d·10^sv)
                    let num = i128::from(v) * 10i128.pow(scale_d);
                    let den = i128::from(d) * 10i128.pow(scale_v);
                    let want = num % den == 0;
                    assert_eq!(multiple(&n(&vt), &n(&dt)), want, "{vt} multipleOf {dt}");
                    let want_cmp = (i128::from(v) * 10i128.pow(scale_d))
                        .cmp(&(i128::from(d) * 10i128.pow(scale_v)));
                    assert_eq!(cmp(&vt, &dt), want_cmp, "{vt} vs {dt}");
                }
            }
        }
    }
}

fn decimal_text(v: i64, scale: u32) -> String {
    if scale == 0 {
        return v.to_string();
    }
    let sign = if v < 0 { "-" } else { "" };
    let a = v.unsigned_abs();
    let p = 10u64.pow(scale);
    format!("{sign}{}.{:0width$}", a / p, a % p, width = scale as usize)
}

#[cfg(not(feature = "arbitrary-precision"))]
mod without_arbitrary_precision {
    use super::*;

    #[test]
    fn big_integers_arrive_rounded() {
        // serde_json reads these as f64, so they compare by that value.
        let big = n("18446744073709551616");
        assert!(big.is_f64());
        assert_eq!(compare(&big, &n("18446744073709551617")), Equal);
        assert_eq!(compare(&big, &Number::from(u64::MAX)), Greater);
        assert!(is_integer(&n(
            "12345678910111213141516171819202122232425262728293031"
        )));
    }
}

#[cfg(feature = "arbitrary-precision")]
mod with_arbitrary_precision {
    use super::*;

    #[test]
    fn big_integers_stay_exact() {
        assert_eq!(cmp("18446744073709551616", "18446744073709551617"), Less);
        assert_eq!(cmp("18446744073709551616", "18446744073709551615"), Greater);
        assert_eq!(cmp("-18446744073709551616", "-9223372036854775808"), Less);
        assert_eq!(cmp("-9223372036854775809", "-9223372036854775808"), Less);
        assert_eq!(
            cmp(
                "98249283749234923498293171823948729348710298301928331",
                "1e308"
            ),
            Less
        );
        assert_eq!(cmp("1e400", "1e308"), Greater);
        assert_eq!(cmp("-1e400", "-1e308"), Less);
        assert_eq!(cmp("1e-400", "0"), Greater);
        assert_eq!(cmp("1e-400", "5e-324"), Less);
        assert_eq!(cmp("1e999999999", "1e999999998"), Greater);
        assert_eq!(cmp("1e999999999", "10e999999998"), Equal);
        assert_eq!(
            cmp(
                "1e99999999999999999999999999999999999999999",
                "1e99999999999999999999999999999999999999998"
            ),
            Greater
        );
        assert_eq!(
            cmp(
                "0.1e99999999999999999999999999999999999999999",
                "1e99999999999999999999999999999999999999998"
            ),
            Equal
        );
        assert_eq!(cmp("0.10000000000000000001", "0.1"), Greater);
        assert_eq!(cmp("0.10000000000000000000", "0.1"), Equal);
        assert_eq!(
            cmp(
                "972783798187987123879878123.188781371",
                "972783798187987123879878123.18878137"
            ),
            Greater
        );
    }

    #[test]
    fn big_integers_and_fractions() {
        assert!(is_integer(&n(
            "12345678910111213141516171819202122232425262728293031"
        )));
        assert!(is_integer(&n(
            "-12345678910111213141516171819202122232425262728293031.000"
        )));
        assert!(!is_integer(&n(
            "12345678910111213141516171819202122232425262728293031.5"
        )));
        assert!(is_integer(&n("1e999999999")));
        assert!(!is_integer(&n("1e-999999999")));
        assert!(!is_integer(&n("1.00000000000000000000001")));
        assert!(is_integer(&n(
            "1e99999999999999999999999999999999999999999"
        )));
    }

    #[test]
    fn big_multiples() {
        assert!(multiple(&n("18446744073709551616"), &n("2")));
        assert!(multiple(&n("18446744073709551616"), &n("1024")));
        assert!(!multiple(&n("18446744073709551616"), &n("3")));
        assert!(multiple(
            &n("36893488147419103230"),
            &n("18446744073709551615")
        ));
        assert!(multiple(
            &n("-36893488147419103230"),
            &n("18446744073709551615")
        ));
        assert!(multiple(&n("1e400"), &n("0.5")));
        assert!(multiple(&n("1e400"), &n("1e399")));
        assert!(!multiple(&n("1e399"), &n("1e400")));
        assert!(multiple(&n("1e-400"), &n("1e-400")));
        assert!(multiple(&n("3e-400"), &n("1e-400")));
        assert!(!multiple(&n("1e-401"), &n("1e-400")));
        assert!(multiple(&n("1e999999999"), &n("0.5")));
        assert!(multiple(&n("1e999999999"), &n("2")));
        assert!(!multiple(&n("1e999999999"), &n("3")));
        assert!(multiple(&n("3e999999999"), &n("3")));
        assert!(multiple(
            &n("1e99999999999999999999999999999999999999999"),
            &n("0.5")
        ));
        assert!(multiple(
            &n("1e99999999999999999999999999999999999999999"),
            &n("1e99999999999999999999999999999999999999998")
        ));
        assert!(!multiple(
            &n("1e99999999999999999999999999999999999999998"),
            &n("1e99999999999999999999999999999999999999999")
        ));
        assert!(multiple(
            &n("0.10000000000000000002"),
            &n("0.00000000000000000001")
        ));
        assert!(!multiple(
            &n("0.10000000000000000002"),
            &n("0.00000000000000000004")
        ));
        let nines = "9".repeat(45);
        assert!(multiple(&n(&nines), &n("9")));
        assert!(multiple(&n(&nines), &n("111111111")));
        assert!(!multiple(&n(&nines), &n("2")));
        // A divisor of more than 37 digits.
        let big_div = format!("1{}1", "0".repeat(40));
        let three_of = format!("3{}3", "0".repeat(40));
        assert!(multiple(&n(&three_of), &n(&big_div)));
        assert!(multiple(&n(&format!("{three_of}e5")), &n(&big_div)));
        assert!(!multiple(&n(&format!("{three_of}e-5")), &n(&big_div)));
        assert!(!multiple(&n("18446744073709551615"), &n(&big_div)));
        assert!(multiple(&n("0"), &n(&big_div)));
    }

    #[test]
    fn huge_input_is_cheap() {
        let long = format!("1{}", "0".repeat(100_000));
        let long_frac = format!("0.{}1", "0".repeat(100_000));
        assert!(is_integer(&n(&long)));
        assert!(!is_integer(&n(&long_frac)));
        assert_eq!(cmp(&long, "1e100000"), Equal);
        assert_eq!(cmp(&long_frac, "1e-100001"), Equal);
        assert!(!multiple(&n(&long), &n("0.0007")));
        assert!(multiple(&n(&long), &n("0.5")));
        let exp = format!("1e{}", "9".repeat(10_000));
        assert!(is_integer(&n(&exp)));
        assert_eq!(cmp(&exp, &long), Greater);
    }
}

/// A small deterministic generator, so failures reproduce.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 11
    }
}

/// The float shortcut must agree with the digit-by-digit answer wherever it
/// answers at all.
#[test]
fn float_shortcut_agrees_with_decimal_arithmetic() {
    let divisors = [
        "0.01",
        "0.5",
        "0.25",
        "7.5",
        "0.0001",
        "1e-10",
        "0.125",
        "1.5",
        "0.3",
        "1e-22",
        "2.5e-5",
        "0.07",
        "0.1",
        "12.34",
        "0.999",
        "98765.4321",
        "1e-19",
    ];
    let mut rng = Lcg(0x5eed);
    let mut decided = 0usize;
    let mut multiples = 0usize;
    for d in divisors {
        let m = MultipleOf::new(&n(d)).unwrap();
        assert!(m.scaled.is_some(), "{d}");
        let mut check = |x: f64| {
            let mut buf = [0; 48];
            let slow = m.divides_dec(&decimal::from_f64(x, &mut buf));
            if let Some(fast) = m.divides_float_fast(x) {
                assert_eq!(fast, slow, "{x:e} multipleOf {d}");
                decided += 1;
                multiples += usize::from(fast);
            }
        };
        for _ in 0..10_000 {
            // Decimal text with a few digits, read by Rust's correctly
            // rounding parser, plus its float neighbours.
            let digits = 1 + rng.next() % 16;
            let mant = rng.next() % 10u64.pow(digits as u32);
            let exp = (rng.next() % 40) as i32 - 30;
            let x: f64 = format!("{mant}e{exp}").parse().unwrap();
            for y in [
                x,
                -x,
                f64::from_bits(x.to_bits() + 1),
                f64::from_bits(x.to_bits().saturating_sub(1)),
            ] {
                check(y);
            }
            // Multiples of the divisor computed in floating point.
            let k = rng.next() % 1_000_000;
            let dv: f64 = d.parse().unwrap();
            check(k as f64 * dv);
            // Arbitrary bit patterns of moderate magnitude.
            let bits = (rng.next() % (1 << 52)) | ((1023 + rng.next() % 60 - 40) << 52);
            check(f64::from_bits(bits));
        }
    }
    // Both answers must have been exercised.
    assert!(decided > 250_000, "{decided}");
    assert!(multiples > 25_000, "{multiples}");
}

#[test]
fn float_integrality_agrees_with_the_fractional_part() {
    let edges = [
        0.0,
        -0.0,
        0.5,
        -0.5,
        1.0,
        -1.0,
        1.0 - f64::EPSILON,
        4_503_599_627_370_495.5,
        4_503_599_627_370_496.0,
        9_007_199_254_740_991.0,
        9_007_199_254_740_992.0,
        -9_007_199_254_740_992.0,
        9.223_372_036_854_775e18,
        1e300,
        -1e300,
        f64::MAX,
        f64::MIN,
        f64::MIN_POSITIVE,
        5e-324,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
    ];
    for x in edges {
        assert_eq!(float_is_integer(x), x.fract() == 0.0, "{x}");
    }
}
