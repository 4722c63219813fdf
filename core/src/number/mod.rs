//! Exact numeric semantics for JSON Schema keywords.
//!
//! JSON Schema defines `minimum`, `maximum`, `exclusiveMinimum`,
//! `exclusiveMaximum`, `multipleOf` and `type: "integer"` on the
//! mathematical value of a number, not on a machine approximation of it.
//! This module answers those questions exactly for every
//! [`serde_json::Number`] it is given.
//!
//! # What a number means
//!
//! Integers stored as `u64`/`i64` mean themselves. An `f64` means the
//! *shortest decimal that rounds to it* (the digits Rust's `Display` prints):
//! `0.1` is one tenth, not 0.1000000000000000055511151231257827…, so
//! `0.3` is a multiple of `0.1` and `19.99` a multiple of `0.01`, as the JSON
//! text said. It is always the value serde_json itself would print, and the
//! value of the original text whenever that had at most 15 significant
//! digits and the parser rounded it correctly (see below). The reading is
//! the same for every operation, so `compare`, `equal`, `is_integer` and
//! `multipleOf` never contradict each other. For floats of magnitude below
//! 2^53 it agrees with the binary value in every comparison against an
//! integer; above 2^53, where one `f64` stands for a range of integers, it
//! takes the one its shortest text spells: the `f64` -2^63 reads as
//! -9223372036854776000, which is less than `i64::MIN`.
//!
//! # Exactness
//!
//! All operations are exact on the values defined above, with no overflow,
//! no rounding and no panics: comparisons of `u64` with `i64` never go
//! through `f64`; a float against an integer is decided on the decimal;
//! `multipleOf` is decided by integer arithmetic on decimal digits, so
//! `1e308` is a multiple of `0.5` and `u64::MAX` a multiple of 5.
//!
//! Without the `arbitrary-precision` feature, what is lost is lost before
//! this module sees it: serde_json rounds number text with more precision
//! than an `f64` holds (`0.10000000000000000001` arrives as `0.1`), turns
//! integers beyond the `u64`/`i64` range into (rounded) floats, and rejects
//! numbers beyond the `f64` range such as `1e400`. Its default float parser
//! is also not always correctly rounded: texts of up to 15 significant
//! digits whose decimal exponent stays within ±22 (`19.99`, `0.0075`,
//! `1e-7`, `123456.789`) are read exactly, but for others it may be one
//! unit in the last place off (`1.5e-300` arrives as
//! `1.4999999999999998e-300`, not a multiple of `0.5e-300`); serde_json's
//! `float_roundtrip` feature removes that error. This module answers for
//! the number it is given.
//!
//! With the `arbitrary-precision` feature (which turns on serde_json's
//! `arbitrary_precision`), every number keeps its text and every operation
//! is exact on that text, whatever its length or exponent: a 50-digit
//! integer is an integer, `972783798187987123879878123.188781371` exceeds
//! `972783798187987123879878123.18878137`, and `1e999999999` is compared
//! without materialising its digits. The feature must be enabled on this
//! crate: if only some other crate turns serde_json's flag on, floats are
//! still read through `f64`.
//!
//! # Cost
//!
//! Integer against integer and float against float are single machine
//! comparisons; `multipleOf` on an integer is one remainder, and on a float
//! with a divisor like `0.01` one multiplication, one division and one
//! remainder. Nothing allocates except exponents beyond the `i128` range
//! and divisors with 37 or more significant digits. Floats that need their
//! decimal digits (beyond 2^50 once scaled by the divisor's decimal places,
//! divisors with more than 22 of them, or a float above 2^53 against an
//! integer) are formatted into a stack buffer. Under `arbitrary-precision`
//! the work is linear in the length of the text, except that a divisor of
//! 37 or more digits costs its length times the value's length.

mod decimal;
mod scale;

use std::cmp::Ordering;

use serde_json::Number;

use decimal::{Buf, Dec, Mag, OwnedDec};
use scale::Scale;

/// 2^53: below it every `f64` integer is exact and its shortest decimal is
/// its binary value.
const TWO_53: f64 = 9_007_199_254_740_992.0;
/// 2^65: from here on a float's decimal exceeds every 64-bit integer.
const TWO_65: f64 = 36_893_488_147_419_103_232.0;

/// Powers of ten exact in f64 (10^22 is the last).
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// A number as the operations see it.
enum Num<'a> {
    /// Only values of `u64` or `i64`, so the magnitude is at most `u64::MAX`.
    Int(i128),
    Float(f64),
    Dec(Dec<'a>),
    /// Text read through `Display`, see `classify`.
    #[cfg(not(feature = "arbitrary-precision"))]
    Owned(OwnedDec),
}

impl Num<'_> {
    fn to_dec<'s>(&'s self, buf: &'s mut Buf) -> Dec<'s> {
        match self {
            Num::Int(n) => decimal::from_int(*n, buf),
            Num::Float(x) => decimal::from_f64(*x, buf),
            Num::Dec(d) => d.clone(),
            #[cfg(not(feature = "arbitrary-precision"))]
            Num::Owned(o) => o.as_dec(),
        }
    }

    fn is_integer(&self) -> bool {
        match self {
            Num::Int(_) => true,
            // Consistent with the decimal reading: a fractional f64 is below
            // 2^52 in magnitude, where no integer rounds to it.
            Num::Float(x) => float_is_integer(*x),
            Num::Dec(d) => d.is_integer(),
            #[cfg(not(feature = "arbitrary-precision"))]
            Num::Owned(o) => o.as_dec().is_integer(),
        }
    }
}

/// Whether `x` has no fractional part. `f64::fract` calls `trunc`, out of line on the
/// baseline x86-64 target, and the optimizer may hoist it above the test that needs it;
/// every float of magnitude 2^53 or more is an integer, and below that the round trip
/// through `i64` is exact for integers only.
#[inline]
fn float_is_integer(x: f64) -> bool {
    if x.abs() >= TWO_53 {
        x.is_finite()
    } else {
        (x as i64) as f64 == x
    }
}

/// Text that is not JSON number syntax can only come from serde_json's
/// hidden `from_string_unchecked`; it is read as Rust reads an `f64`, and
/// as zero when even that fails.
fn fallback(n: &Number) -> Num<'static> {
    Num::Float(n.as_f64().unwrap_or(0.0))
}

#[cfg(not(feature = "arbitrary-precision"))]
fn classify(n: &Number) -> Num<'_> {
    if let Some(u) = n.as_u64() {
        Num::Int(i128::from(u))
    } else if let Some(i) = n.as_i64() {
        Num::Int(i128::from(i))
    } else if let Some(x) = n.as_f64() {
        Num::Float(x)
    } else {
        // Only when serde_json's arbitrary precision was enabled by some
        // other crate and the text is beyond the f64 range: read the text.
        let text = n.to_string();
        match decimal::parse(text.as_bytes()) {
            Some(d) => Num::Owned(d.to_owned()),
            None => fallback(n),
        }
    }
}

#[cfg(feature = "arbitrary-precision")]
fn classify(n: &Number) -> Num<'_> {
    if let Some(u) = n.as_u64() {
        Num::Int(i128::from(u))
    } else if let Some(i) = n.as_i64() {
        Num::Int(i128::from(i))
    } else {
        match decimal::parse(n.as_str().as_bytes()) {
            Some(d) => Num::Dec(d),
            None => fallback(n),
        }
    }
}

fn cmp_num(a: &Num<'_>, b: &Num<'_>) -> Ordering {
    match (a, b) {
        (Num::Int(x), Num::Int(y)) => x.cmp(y),
        // Finite floats are totally ordered, and -0.0 == 0.0.
        (Num::Float(x), Num::Float(y)) => x.partial_cmp(y).unwrap_or(Ordering::Equal),
        (Num::Int(n), Num::Float(x)) => cmp_int_float(*n, *x, a, b),
        (Num::Float(x), Num::Int(n)) => cmp_int_float(*n, *x, b, a).reverse(),
        _ => cmp_dec(a, b),
    }
}

fn cmp_dec(a: &Num<'_>, b: &Num<'_>) -> Ordering {
    let (mut ba, mut bb): (Buf, Buf) = ([0; 48], [0; 48]);
    a.to_dec(&mut ba).cmp(&b.to_dec(&mut bb))
}

/// `n.cmp(x)`; `int` and `float` are `n` and `x` for the slow path.
fn cmp_int_float(n: i128, x: f64, int: &Num<'_>, float: &Num<'_>) -> Ordering {
    if x.abs() < TWO_53 {
        if n.unsigned_abs() <= 1 << 53 {
            // Both exact as f64.
            (n as f64).partial_cmp(&x).unwrap_or(Ordering::Equal)
        } else if n > 0 {
            Ordering::Greater
        } else {
            Ordering::Less
        }
    } else if x.abs() >= TWO_65 {
        if x > 0.0 {
            Ordering::Less
        } else {
            Ordering::Greater
        }
    } else {
        cmp_dec(int, float)
    }
}

/// Exact comparison of two JSON numbers: a total order, in which numbers of
/// equal value (`1` and `1.0`, `-0.0` and `0`) are `Equal`.
///
/// ```
/// use std::cmp::Ordering;
/// use serde_json::Number;
/// use toolschema::number::compare;
///
/// let big = Number::from(9_007_199_254_740_993_u64); // 2^53 + 1
/// let float = Number::from_f64(9_007_199_254_740_992.0).unwrap();
/// assert_eq!(compare(&big, &float), Ordering::Greater);
/// assert_eq!(compare(&Number::from(-1), &Number::from(u64::MAX)), Ordering::Less);
/// ```
pub fn compare(a: &Number, b: &Number) -> Ordering {
    cmp_num(&classify(a), &classify(b))
}

/// JSON equality of numbers: equal mathematical value, whatever the
/// representation.
///
/// ```
/// use serde_json::Number;
/// use toolschema::number::equal;
///
/// assert!(equal(&Number::from(1), &Number::from_f64(1.0).unwrap()));
/// assert!(equal(&Number::from_f64(-0.0).unwrap(), &Number::from(0)));
/// assert!(!equal(&Number::from_f64(0.1 + 0.2).unwrap(), &Number::from_f64(0.3).unwrap()));
/// ```
pub fn equal(a: &Number, b: &Number) -> bool {
    compare(a, b) == Ordering::Equal
}

/// Whether the number is an integer in JSON Schema's sense: its fractional
/// part is zero, however it is written (`1.0`, `1e2` and `1e308` are
/// integers).
///
/// ```
/// use serde_json::Number;
/// use toolschema::number::is_integer;
///
/// assert!(is_integer(&Number::from_f64(1.0).unwrap()));
/// assert!(is_integer(&Number::from_f64(1e308).unwrap()));
/// assert!(!is_integer(&Number::from_f64(1.5).unwrap()));
/// ```
#[inline]
pub fn is_integer(n: &Number) -> bool {
    // Numbers read without a fraction or exponent are integers without classifying them.
    n.is_i64() || n.is_u64() || classified_integer(n)
}

/// [`is_integer`] of a number read with a fraction or an exponent. Out of line: inlined, the
/// optimizer may classify every number a loop over checks meets before it knows that a check
/// asks, on each pass.
#[inline(never)]
fn classified_integer(n: &Number) -> bool {
    classify(n).is_integer()
}

/// A numeric bound from a schema (`minimum`, `maximum`, `exclusiveMinimum`,
/// `exclusiveMaximum`), decoded once for repeated exact comparison.
///
/// ```
/// use std::cmp::Ordering;
/// use serde_json::Number;
/// use toolschema::number::Bound;
///
/// let maximum = Bound::new(&Number::from_f64(2.5).unwrap());
/// assert_eq!(maximum.compare(&Number::from(2)), Ordering::Less);
/// assert_eq!(maximum.compare(&Number::from_f64(2.5).unwrap()), Ordering::Equal);
/// assert_eq!(maximum.number().to_string(), "2.5");
/// ```
#[derive(Clone, Debug)]
pub struct Bound {
    number: Number,
    repr: Repr,
}

#[derive(Clone, Debug)]
enum Repr {
    Int(i128),
    Float(f64),
    Dec(OwnedDec),
}

impl Bound {
    /// Decodes `n` as a bound.
    pub fn new(n: &Number) -> Bound {
        let repr = match classify(n) {
            Num::Int(i) => Repr::Int(i),
            Num::Float(x) => Repr::Float(x),
            Num::Dec(d) => Repr::Dec(d.to_owned()),
            #[cfg(not(feature = "arbitrary-precision"))]
            Num::Owned(o) => Repr::Dec(o),
        };
        Bound {
            number: n.clone(),
            repr,
        }
    }

    /// `value.cmp(bound)`, exactly: `Less` means the value is below the
    /// bound.
    ///
    /// ```
    /// use std::cmp::Ordering;
    /// use serde_json::Number;
    /// use toolschema::number::Bound;
    ///
    /// let minimum = Bound::new(&Number::from(i64::MIN));
    /// assert_eq!(minimum.compare(&Number::from(u64::MAX)), Ordering::Greater);
    /// ```
    #[inline(always)]
    pub fn compare(&self, value: &Number) -> Ordering {
        // The common case, an integer against an integer bound, without classifying either:
        // inlined into the check, a few instructions.
        if let (Repr::Int(bound), Some(n)) = (&self.repr, value.as_i64()) {
            return i128::from(n).cmp(bound);
        }
        self.compare_general(value)
    }

    /// [`Bound::compare`] without its fast path for an integer against an integer bound, out of
    /// line: for callers that test that case themselves (generated code), so that the fast
    /// path is not compiled twice at every bound.
    ///
    /// ```
    /// use std::cmp::Ordering;
    /// use serde_json::Number;
    /// use toolschema::number::Bound;
    ///
    /// let minimum = Bound::new(&Number::from(1));
    /// assert_eq!(minimum.compare_general(&Number::from_f64(0.5).unwrap()), Ordering::Less);
    /// assert_eq!(minimum.compare_general(&Number::from(3)), Ordering::Greater);
    /// ```
    #[inline(never)]
    pub fn compare_general(&self, value: &Number) -> Ordering {
        let bound = match &self.repr {
            Repr::Int(i) => Num::Int(*i),
            Repr::Float(x) => Num::Float(*x),
            Repr::Dec(d) => Num::Dec(d.as_dec()),
        };
        cmp_num(&classify(value), &bound)
    }

    /// The bound as written in the schema, for messages.
    pub fn number(&self) -> &Number {
        &self.number
    }
}

/// A `multipleOf` divisor (> 0), decoded once.
///
/// ```
/// use serde_json::Number;
/// use toolschema::number::MultipleOf;
///
/// let cents = MultipleOf::new(&Number::from_f64(0.01).unwrap()).unwrap();
/// assert!(cents.divides(&Number::from_f64(19.99).unwrap()));
/// assert!(!cents.divides(&Number::from_f64(19.999).unwrap()));
/// assert!(MultipleOf::new(&Number::from(0)).is_none());
/// ```
#[derive(Clone, Debug)]
pub struct MultipleOf {
    number: Number,
    /// The divisor is `mantissa × 10^exp`, with `mantissa` not a multiple
    /// of ten.
    mantissa: Mag,
    exp: Scale,
    /// Multiplicities of 2 and 5 in `mantissa`.
    twos: u64,
    fives: u64,
    /// The test for integers of at most 64 bits, precomputed because they
    /// are the common case (counts, ids, amounts in minor units).
    int_rule: IntRule,
    /// For a divisor `m × 10^-j` with `1 <= j <= 22` and `m` a `u64`: `10^j`
    /// (exact as f64) and `m`, for deciding floats without their digits.
    scaled: Option<(f64, u64)>,
}

#[derive(Clone, Copy, Debug)]
enum IntRule {
    /// `n` is a multiple exactly when `n % m == 0` (`m >= 1`).
    Modulus(u64),
    /// The divisor, reduced as for `Modulus`, exceeds `u64::MAX` and so
    /// every such integer but 0.
    OnlyZero,
}

impl IntRule {
    fn for_modulus(modulus: Option<u128>) -> IntRule {
        match modulus.map(u64::try_from) {
            Some(Ok(m)) => IntRule::Modulus(m),
            _ => IntRule::OnlyZero,
        }
    }
}

impl MultipleOf {
    /// Decodes a divisor; `None` unless it is greater than zero (the schema
    /// is invalid then).
    ///
    /// ```
    /// use serde_json::Number;
    /// use toolschema::number::MultipleOf;
    ///
    /// assert!(MultipleOf::new(&Number::from(3)).is_some());
    /// assert!(MultipleOf::new(&Number::from_f64(-0.5).unwrap()).is_none());
    /// ```
    pub fn new(divisor: &Number) -> Option<MultipleOf> {
        let num = classify(divisor);
        let mut buf: Buf = [0; 48];
        let d = num.to_dec(&mut buf);
        if d.is_zero() || d.neg {
            return None;
        }
        let mantissa = Mag::from_digits(d.digits);
        let (twos, fives) = mantissa.twos_and_fives();
        let mut m = MultipleOf {
            number: divisor.clone(),
            mantissa,
            exp: d.exp.clone(),
            twos,
            fives,
            int_rule: IntRule::OnlyZero,
            scaled: None,
        };
        m.int_rule = m.int_rule();
        if let (Some(j), Some(mant)) = (
            m.exp.small_in(-22, -1),
            m.mantissa.as_u128().and_then(|v| u64::try_from(v).ok()),
        ) {
            m.scaled = Some((POW10[(-j) as usize], mant));
        }
        Some(m)
    }

    fn int_rule(&self) -> IntRule {
        if self.exp.signum() >= 0 {
            // An integer divisor: it must divide n itself.
            let m = self.mantissa.as_u128();
            let e = self.exp.small_in(0, 38);
            let d = match (m, e) {
                (Some(m), Some(e)) => 10u128.checked_pow(e as u32).and_then(|p| p.checked_mul(m)),
                _ => None,
            };
            IntRule::for_modulus(d)
        } else {
            IntRule::for_modulus(self.modulus(&self.exp.neg()).as_u128())
        }
    }

    /// For a value `v × 10^(e + k)` with `v` an integer and `k >= 0`, the
    /// quotient by `mantissa × 10^e` is `v × 10^k / mantissa`, an integer
    /// exactly when `v` is a multiple of `mantissa` with the factors 2 and 5
    /// that `10^k` supplies taken out.
    fn modulus(&self, k: &Scale) -> Mag {
        self.mantissa
            .without(k.min_u64(self.twos), k.min_u64(self.fives))
    }

    /// Whether `value / divisor` is an integer, decided exactly on the
    /// decimal values (floats as their shortest round-trip text). Zero is a
    /// multiple of everything.
    ///
    /// ```
    /// use serde_json::Number;
    /// use toolschema::number::MultipleOf;
    ///
    /// let tenth = MultipleOf::new(&Number::from_f64(0.1).unwrap()).unwrap();
    /// assert!(tenth.divides(&Number::from_f64(0.3).unwrap()));
    /// assert!(!tenth.divides(&Number::from_f64(0.1 + 0.2).unwrap()));
    ///
    /// let half = MultipleOf::new(&Number::from_f64(0.5).unwrap()).unwrap();
    /// assert!(half.divides(&Number::from_f64(1e308).unwrap()));
    /// ```
    pub fn divides(&self, value: &Number) -> bool {
        match classify(value) {
            Num::Int(n) => self.divides_int(n),
            Num::Float(x) => {
                if float_is_integer(x) {
                    if x.abs() < TWO_53 {
                        return self.divides_int(x as i128);
                    }
                } else if self.exp.signum() >= 0 {
                    // A fractional value over an integer divisor.
                    return false;
                } else if let Some(answer) = self.divides_float_fast(x) {
                    return answer;
                }
                self.divides_slow(&Num::Float(x))
            }
            other => self.divides_slow(&other),
        }
    }

    fn divides_slow(&self, value: &Num<'_>) -> bool {
        let mut buf: Buf = [0; 48];
        self.divides_dec(&value.to_dec(&mut buf))
    }

    /// Decides a float against a divisor `m × 10^-j` without formatting it,
    /// when `|x| × 10^j < 2^50`.
    ///
    /// Why this is exact: the decimals that round to `x` span at most one
    /// ulp, below `|x| × 2^-52 < 10^-j / 4`, so at most one multiple of
    /// `10^-j` rounds to `x`, and if one does it is `n = round(x × 10^j)`
    /// (the product's own rounding error is below 1/8). `n / 10^j`, one
    /// correctly rounded division of exact operands, gives back `x` exactly
    /// when it does. If not, no multiple of `10^-j`, hence of the divisor,
    /// is read as `x`. If so, that multiple is the shortest decimal in the
    /// span (a shorter one would end above the `10^-j` digit, making it a
    /// second multiple, unless a power of ten lay between the two, for which
    /// the span is far too narrow), so it is the value we read `x` as, and
    /// `x ÷ (m × 10^-j) = n / m`.
    fn divides_float_fast(&self, x: f64) -> Option<bool> {
        const TWO_50: f64 = 1_125_899_906_842_624.0;
        let (pow, m) = self.scaled?;
        let y = (x * pow).abs();
        // A large x overflows to infinity here, which this also sends away.
        if y >= TWO_50 {
            return None;
        }
        let n = y.round();
        if n / pow != x.abs() {
            return Some(false);
        }
        // n < 2^50, so the conversion is exact.
        Some((n as u64) % m == 0)
    }

    fn divides_int(&self, n: i128) -> bool {
        match (self.int_rule, u64::try_from(n.unsigned_abs())) {
            (IntRule::Modulus(m), Ok(a)) => a % m == 0,
            (IntRule::Modulus(m), Err(_)) => n.unsigned_abs() % u128::from(m) == 0,
            (IntRule::OnlyZero, _) => n == 0,
        }
    }

    fn divides_dec(&self, v: &Dec<'_>) -> bool {
        if v.is_zero() {
            return true;
        }
        let k = v.exp.sub(&self.exp);
        if k.signum() < 0 {
            // The quotient is digits / (mantissa × 10^-k); the digits end in
            // a non-zero digit, so they cannot supply the factor ten.
            return false;
        }
        self.modulus(&k).divides(v.digits)
    }

    /// The divisor as written in the schema, for messages.
    pub fn number(&self) -> &Number {
        &self.number
    }
}

#[cfg(test)]
mod tests;
