//! Exact decimals: sign, significant digits and a power of ten.
//!
//! Every JSON number is a finite decimal, so one representation serves all
//! of them: integers, the shortest round-trip text of an `f64`, and the raw
//! text kept under arbitrary precision. Digits are borrowed from the text
//! they were read from, so building a `Dec` does not allocate (short of an
//! exponent beyond `i128`).

use std::cmp::Ordering;
use std::fmt::Write as _;

use super::scale::{Scale, mag_cmp, mag_sub_assign, strip_leading_zeros};

/// Significant digits (ASCII), without leading or trailing zeros; empty for
/// zero. Two slices because a decimal point may split them in the text.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Digits<'a> {
    hi: &'a [u8],
    lo: &'a [u8],
}

impl<'a> Digits<'a> {
    pub(crate) fn len(&self) -> usize {
        self.hi.len() + self.lo.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.hi.is_empty() && self.lo.is_empty()
    }

    /// Digit values, most significant first.
    pub(crate) fn values(&self) -> impl Iterator<Item = u8> + 'a {
        self.hi.iter().chain(self.lo.iter()).map(|c| c - b'0')
    }

    /// The digits as an integer, if it is below 10^38 (and so fits u128).
    fn to_u128(self) -> Option<u128> {
        if self.len() > 38 {
            return None;
        }
        Some(self.values().fold(0u128, |acc, d| acc * 10 + u128::from(d)))
    }
}

/// `(-1)^neg × digits × 10^exp`. Zero has `neg == false` and `exp == 0`, so
/// `-0.0` and `0` are the same value.
#[derive(Clone, Debug)]
pub(crate) struct Dec<'a> {
    pub(crate) neg: bool,
    pub(crate) digits: Digits<'a>,
    pub(crate) exp: Scale,
}

impl<'a> Dec<'a> {
    pub(crate) const ZERO: Dec<'static> = Dec {
        neg: false,
        digits: Digits { hi: &[], lo: &[] },
        exp: Scale::ZERO,
    };

    /// `int.frac × 10^exp`, from the ASCII digits of the two parts.
    fn from_parts(neg: bool, int: &'a [u8], frac: &'a [u8], exp: Scale) -> Dec<'a> {
        let mut hi = trim_start_zeros(int);
        let mut lo = frac;
        if hi.is_empty() {
            lo = trim_start_zeros(lo);
            if lo.is_empty() {
                return Dec::ZERO;
            }
        }
        let mut trailing = 0;
        let t = trim_end_zeros(lo);
        trailing += lo.len() - t.len();
        lo = t;
        if lo.is_empty() {
            let t = trim_end_zeros(hi);
            trailing += hi.len() - t.len();
            hi = t;
        }
        // Lengths are bounded by memory, far inside i128.
        let shift = trailing as i128 - frac.len() as i128;
        Dec {
            neg,
            digits: Digits { hi, lo },
            exp: exp.add_i128(shift),
        }
    }

    pub(crate) fn is_zero(&self) -> bool {
        self.digits.is_empty()
    }

    pub(crate) fn is_integer(&self) -> bool {
        self.is_zero() || self.exp.signum() >= 0
    }

    fn signum(&self) -> i8 {
        if self.is_zero() {
            0
        } else if self.neg {
            -1
        } else {
            1
        }
    }

    pub(crate) fn cmp(&self, other: &Dec<'_>) -> Ordering {
        let (sa, sb) = (self.signum(), other.signum());
        if sa != sb || sa == 0 {
            return sa.cmp(&sb);
        }
        // Same sign, both non-zero: the position of the leading digit
        // decides, then the digits themselves; with no trailing zeros, a
        // longer run of equal digits is the larger magnitude, which is how
        // iterators compare.
        let lead_a = self.exp.add_i128(self.digits.len() as i128);
        let lead_b = other.exp.add_i128(other.digits.len() as i128);
        let mag = lead_a
            .cmp(&lead_b)
            .then_with(|| self.digits.values().cmp(other.digits.values()));
        if sa < 0 { mag.reverse() } else { mag }
    }

    pub(crate) fn to_owned(&self) -> OwnedDec {
        let mut digits = Vec::with_capacity(self.digits.len());
        digits.extend_from_slice(self.digits.hi);
        digits.extend_from_slice(self.digits.lo);
        OwnedDec {
            neg: self.neg,
            digits: digits.into_boxed_slice(),
            exp: self.exp.clone(),
        }
    }
}

/// A `Dec` that owns its digits, for bounds decoded once and kept.
#[derive(Clone, Debug)]
pub(crate) struct OwnedDec {
    neg: bool,
    digits: Box<[u8]>,
    exp: Scale,
}

impl OwnedDec {
    pub(crate) fn as_dec(&self) -> Dec<'_> {
        Dec {
            neg: self.neg,
            digits: Digits {
                hi: &self.digits,
                lo: &[],
            },
            exp: self.exp.clone(),
        }
    }
}

fn trim_start_zeros(s: &[u8]) -> &[u8] {
    let z = s.iter().take_while(|&&c| c == b'0').count();
    &s[z..]
}

fn trim_end_zeros(s: &[u8]) -> &[u8] {
    let z = s.iter().rev().take_while(|&&c| c == b'0').count();
    &s[..s.len() - z]
}

fn digit_run(s: &[u8]) -> usize {
    s.iter().take_while(|c| c.is_ascii_digit()).count()
}

/// Reads a number in JSON syntax (`-?digits(.digits)?([eE][+-]?digits)?`;
/// leading zeros are tolerated since they do not change the value).
pub(crate) fn parse(text: &[u8]) -> Option<Dec<'_>> {
    let (neg, rest) = match text.split_first() {
        Some((b'-', r)) => (true, r),
        _ => (false, text),
    };
    let n = digit_run(rest);
    if n == 0 {
        return None;
    }
    let (int, mut rest) = rest.split_at(n);
    let mut frac: &[u8] = &[];
    if let Some((b'.', r)) = rest.split_first() {
        let n = digit_run(r);
        if n == 0 {
            return None;
        }
        (frac, rest) = r.split_at(n);
    }
    let mut exp = Scale::ZERO;
    if let Some((b'e' | b'E', r)) = rest.split_first() {
        let (eneg, r) = match r.split_first() {
            Some((b'-', r)) => (true, r),
            Some((b'+', r)) => (false, r),
            _ => (false, r),
        };
        if r.is_empty() || digit_run(r) != r.len() {
            return None;
        }
        exp = Scale::from_ascii(eneg, r);
        rest = &[];
    }
    if !rest.is_empty() {
        return None;
    }
    Some(Dec::from_parts(neg, int, frac, exp))
}

/// Room for the text of any integer up to 2^128 and of any `f64` in
/// exponent form (at most 24 bytes, e.g. `-2.2250738585072014e-308`).
pub(crate) type Buf = [u8; 48];

pub(crate) fn from_int(n: i128, buf: &mut Buf) -> Dec<'_> {
    let mut v = n.unsigned_abs();
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    Dec::from_parts(n < 0, &buf[i..], &[], Scale::ZERO)
}

/// The shortest decimal that rounds to `x`: Rust's float formatting
/// produces exactly that digit string.
pub(crate) fn from_f64(x: f64, buf: &mut Buf) -> Dec<'_> {
    if !x.is_finite() {
        // JSON has no such numbers and serde_json never produces them.
        return Dec::ZERO;
    }
    let mut w = BufWriter { buf, len: 0 };
    if write!(w, "{x:e}").is_err() {
        // Unreachable: the buffer holds the longest form.
        return Dec::ZERO;
    }
    let len = w.len;
    parse(&buf[..len]).unwrap_or(Dec::ZERO)
}

struct BufWriter<'a> {
    buf: &'a mut Buf,
    len: usize,
}

impl std::fmt::Write for BufWriter<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let end = self.len + s.len();
        let dst = self.buf.get_mut(self.len..end).ok_or(std::fmt::Error)?;
        dst.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// A positive integer kept as machine word when below 10^37 (so that
/// `rem * 10 + 9` cannot overflow while reducing modulo it), else as digit
/// values.
#[derive(Clone, Debug)]
pub(crate) enum Mag {
    Small(u128),
    Big(Box<[u8]>),
}

const SMALL_LIMIT: u128 = 10_000_000_000_000_000_000_000_000_000_000_000_000; // 10^37

impl Mag {
    pub(crate) fn from_digits(d: Digits<'_>) -> Mag {
        match d.to_u128() {
            Some(v) if v < SMALL_LIMIT => Mag::Small(v),
            _ => Mag::from_values(d.values().collect()),
        }
    }

    fn from_values(mut v: Vec<u8>) -> Mag {
        strip_leading_zeros(&mut v);
        if v.len() <= 37 {
            let x = v.iter().fold(0u128, |acc, &d| acc * 10 + u128::from(d));
            return Mag::Small(x);
        }
        Mag::Big(v.into_boxed_slice())
    }

    /// Multiplicities of 2 and 5. For digit strings this costs the length
    /// times the multiplicity, paid once per divisor.
    pub(crate) fn twos_and_fives(&self) -> (u64, u64) {
        if self.is_zero() {
            return (0, 0);
        }
        match self {
            Mag::Small(v) => {
                let twos = u64::from(v.trailing_zeros());
                let mut fives = 0;
                let mut v = *v;
                while v % 5 == 0 {
                    v /= 5;
                    fives += 1;
                }
                (twos, fives)
            }
            Mag::Big(v) => {
                let mut m = v.to_vec();
                let mut twos = 0;
                while m.last().is_some_and(|d| d % 2 == 0) {
                    div_exact(&mut m, 2);
                    twos += 1;
                }
                let mut m = v.to_vec();
                let mut fives = 0;
                while m.last().is_some_and(|&d| d == 0 || d == 5) {
                    div_exact(&mut m, 5);
                    fives += 1;
                }
                (twos, fives)
            }
        }
    }

    fn is_zero(&self) -> bool {
        match self {
            Mag::Small(v) => *v == 0,
            Mag::Big(v) => v.is_empty(),
        }
    }

    /// `self / (2^twos × 5^fives)`; the caller guarantees divisibility.
    pub(crate) fn without(&self, twos: u64, fives: u64) -> Mag {
        match self {
            Mag::Small(v) => {
                // A u128 holds at most 127 factors of two.
                let mut v = v >> twos.min(127);
                for _ in 0..fives {
                    v /= 5;
                }
                Mag::Small(v)
            }
            Mag::Big(v) => {
                let mut m = v.to_vec();
                let mut t = twos;
                while t > 0 {
                    let s = t.min(32);
                    div_exact(&mut m, 1 << s);
                    t -= s;
                }
                let mut f = fives;
                while f > 0 {
                    let s = f.min(13);
                    div_exact(&mut m, 5u64.pow(s as u32));
                    f -= s;
                }
                Mag::from_values(m)
            }
        }
    }

    /// Whether the integer spelled by `v` is a multiple of `self` (> 0).
    pub(crate) fn divides(&self, v: Digits<'_>) -> bool {
        match self {
            Mag::Small(m) => rem_small(v, *m) == 0,
            Mag::Big(m) => divides_big(v, m),
        }
    }

    pub(crate) fn as_u128(&self) -> Option<u128> {
        match self {
            Mag::Small(v) => Some(*v),
            Mag::Big(_) => None,
        }
    }
}

/// `v mod m` for `0 < m < 10^37`.
fn rem_small(v: Digits<'_>, m: u128) -> u128 {
    if let Some(x) = v.to_u128() {
        return x % m;
    }
    let mut rem = 0u128;
    if m <= u128::from(u64::MAX) {
        // rem < 2^64, so rem × 10^19 + chunk stays below 2^128: one division
        // per nineteen digits.
        let mut chunk = 0u128;
        let mut scale = 1u128;
        for d in v.values() {
            chunk = chunk * 10 + u128::from(d);
            scale *= 10;
            if scale == 10_000_000_000_000_000_000 {
                rem = (rem * scale + chunk) % m;
                chunk = 0;
                scale = 1;
            }
        }
        (rem * scale + chunk) % m
    } else {
        for d in v.values() {
            rem = (rem * 10 + u128::from(d)) % m;
        }
        rem
    }
}

/// Schoolbook long division keeping only the remainder: linear in the
/// length of `v` times the length of `m`, and reached only for divisors of
/// 37 or more significant digits.
fn divides_big(v: Digits<'_>, m: &[u8]) -> bool {
    if v.len() < m.len() {
        // A non-zero v below m; zero is decided before we get here, but
        // answer it correctly anyway.
        return v.is_empty();
    }
    let mut rem: Vec<u8> = Vec::with_capacity(m.len() + 1);
    for d in v.values() {
        if !(rem.is_empty() && d == 0) {
            rem.push(d);
        }
        while mag_cmp(&rem, m) != Ordering::Less {
            mag_sub_assign(&mut rem, m);
        }
    }
    rem.is_empty()
}

/// `m /= d` for digit values `m`, when `d` divides `m`; `d` up to 2^32
/// keeps `carry × 10 + 9` well inside a `u64`.
fn div_exact(m: &mut Vec<u8>, d: u64) {
    let mut rem = 0u64;
    for x in m.iter_mut() {
        let cur = rem * 10 + u64::from(*x);
        *x = (cur / d) as u8;
        rem = cur % d;
    }
    strip_leading_zeros(m);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `digits e exp`, with "0" for zero.
    fn show(d: &Dec<'_>) -> String {
        let digits: String = d.digits.values().map(|v| char::from(b'0' + v)).collect();
        let exp = match &d.exp {
            Scale::Small(e) => e.to_string(),
            Scale::Big { .. } => "big".to_string(),
        };
        let sign = if d.neg { "-" } else { "" };
        if digits.is_empty() {
            "0".to_string()
        } else {
            format!("{sign}{digits}e{exp}")
        }
    }

    fn horner(text: &str, m: u128) -> u128 {
        text.bytes()
            .fold(0, |r, c| (r * 10 + u128::from(c - b'0')) % m)
    }

    #[test]
    fn parses_and_normalizes() {
        let cases = [
            ("0", "0"),
            ("-0", "0"),
            ("-0.000e5", "0"),
            ("0e-99999999999999999999999999999999999999999", "0"),
            ("1", "1e0"),
            ("100", "1e2"),
            ("1.500", "15e-1"),
            ("-0.0075", "-75e-4"),
            ("120.0300", "12003e-2"),
            ("1e308", "1e308"),
            ("1E+2", "1e2"),
            ("12.5e-3", "125e-4"),
            ("0.001e3", "1e0"),
            ("007", "7e0"),
            ("1e999999999", "1e999999999"),
            ("1e-999999999", "1e-999999999"),
            ("1e99999999999999999999999999999999999999999", "1ebig"),
        ];
        for (input, want) in cases {
            let d = parse(input.as_bytes()).unwrap();
            assert_eq!(show(&d), want, "{input}");
        }
        for bad in [
            "", "-", ".5", "1.", "1e", "1e+", "+1", "1x", "1.5.5", "--1", "1e5e5", " 1", "1 ",
        ] {
            assert!(parse(bad.as_bytes()).is_none(), "{bad:?}");
        }
    }

    #[test]
    fn floats_use_the_shortest_round_trip_digits() {
        let mut buf = [0; 48];
        assert_eq!(
            show(&from_f64(0.30000000000000004, &mut buf)),
            "30000000000000004e-17"
        );
        assert_eq!(show(&from_f64(0.1, &mut buf)), "1e-1");
        assert_eq!(show(&from_f64(-0.0, &mut buf)), "0");
        assert!(!from_f64(-0.0, &mut buf).neg);
        assert_eq!(show(&from_f64(f64::MAX, &mut buf)), "17976931348623157e292");
        assert_eq!(
            show(&from_f64(-f64::MIN_POSITIVE, &mut buf)),
            "-22250738585072014e-324"
        );
        assert_eq!(show(&from_f64(5e-324, &mut buf)), "5e-324");
        assert_eq!(
            show(&from_f64(9007199254740993.0, &mut buf)),
            "9007199254740992e0"
        );
    }

    #[test]
    fn integers() {
        let mut buf = [0; 48];
        assert_eq!(show(&from_int(0, &mut buf)), "0");
        assert_eq!(show(&from_int(-1200, &mut buf)), "-12e2");
        assert_eq!(
            show(&from_int(i128::MIN, &mut buf)),
            "-170141183460469231731687303715884105728e0"
        );
    }

    #[test]
    fn ordering() {
        let sorted = [
            "-1e99999999999999999999999999999999999999999",
            "-1e400",
            "-18446744073709551616",
            "-18446744073709551615.5",
            "-18446744073709551615",
            "-1",
            "-0.5",
            "-1e-400",
            "0",
            "1e-99999999999999999999999999999999999999999",
            "1e-400",
            "0.0999",
            "0.1",
            "0.10000000000000001",
            "1",
            "1.000000000000000000000000000000000000001",
            "972783798187987123879878123.18878137",
            "972783798187987123879878123.188781371",
            "1e400",
            "1e99999999999999999999999999999999999999999",
            "1e100000000000000000000000000000000000000000",
        ];
        for (i, a) in sorted.iter().enumerate() {
            for (j, b) in sorted.iter().enumerate() {
                let (da, db) = (parse(a.as_bytes()).unwrap(), parse(b.as_bytes()).unwrap());
                assert_eq!(da.cmp(&db), i.cmp(&j), "{a} vs {b}");
            }
        }
        let zero = parse(b"0").unwrap();
        assert_eq!(parse(b"-0.0e7").unwrap().cmp(&zero), Ordering::Equal);
        assert_eq!(
            parse(b"1.0").unwrap().cmp(&parse(b"0.01e2").unwrap()),
            Ordering::Equal
        );
    }

    #[test]
    fn integrality() {
        for t in [
            "0",
            "-0.0",
            "1.0",
            "1e308",
            "1.5e1",
            "12345678910111213141516171819202122232425262728293031",
            "1e99999999999999999999999999999999999999999",
        ] {
            assert!(parse(t.as_bytes()).unwrap().is_integer(), "{t}");
        }
        for t in [
            "0.5",
            "1.05e1",
            "1e-1",
            "1e-99999999999999999999999999999999999999999",
            "12345678910111213141516171819202122232425262728293031.1",
        ] {
            assert!(!parse(t.as_bytes()).unwrap().is_integer(), "{t}");
        }
    }

    #[test]
    fn remainders() {
        // No trailing zero, so the digits are the text.
        let long = "123456789012345678901234567890123456789012345678901234567891";
        let d = parse(long.as_bytes()).unwrap();
        for m in [
            1,
            2,
            7,
            97,
            u128::from(u64::MAX),
            u128::from(u64::MAX) + 2,
            SMALL_LIMIT - 1,
        ] {
            assert_eq!(rem_small(d.digits, m), horner(long, m), "{m}");
        }
        let short = parse(b"98765432109876543211").unwrap();
        assert_eq!(
            rem_small(short.digits, 1_000_003),
            horner("98765432109876543211", 1_000_003)
        );
    }

    #[test]
    fn big_divisors() {
        // 3 × (10^40 + 1) is a multiple of 10^40 + 1 but not of 10^40 + 3.
        let m1 = format!("1{}1", "0".repeat(39));
        let m3 = format!("1{}3", "0".repeat(39));
        let v = format!("3{}3", "0".repeat(39));
        let mag1 = Mag::from_digits(parse(m1.as_bytes()).unwrap().digits);
        let mag3 = Mag::from_digits(parse(m3.as_bytes()).unwrap().digits);
        let dv = parse(v.as_bytes()).unwrap();
        assert!(matches!(mag1, Mag::Big(_)));
        assert!(mag1.divides(dv.digits));
        assert!(!mag3.divides(dv.digits));
        assert!(!mag1.divides(parse(b"7").unwrap().digits));
        assert!(mag1.divides(parse(m1.as_bytes()).unwrap().digits));
    }

    #[test]
    fn twos_fives_and_reduction() {
        assert_eq!(Mag::Small(75).twos_and_fives(), (0, 2));
        assert_eq!(Mag::Small(96).twos_and_fives(), (5, 0));
        assert_eq!(Mag::Small(75).without(0, 1).as_u128(), Some(15));
        assert_eq!(Mag::Small(96).without(3, 0).as_u128(), Some(12));
        // 2^130 and 5^60 both have more than 37 digits.
        let two130 = "1361129467683753853853498429727072845824";
        let m = Mag::from_digits(parse(two130.as_bytes()).unwrap().digits);
        assert!(matches!(m, Mag::Big(_)));
        assert_eq!(m.twos_and_fives(), (130, 0));
        assert_eq!(m.without(130, 0).as_u128(), Some(1));
        assert_eq!(m.without(70, 0).as_u128(), Some(1 << 60));
        let five60 = "867361737988403547205962240695953369140625";
        let m = Mag::from_digits(parse(five60.as_bytes()).unwrap().digits);
        assert!(matches!(m, Mag::Big(_)));
        assert_eq!(m.twos_and_fives(), (0, 60));
        assert_eq!(m.without(0, 60).as_u128(), Some(1));
        assert_eq!(m.without(0, 10).as_u128(), Some(5u128.pow(50)));
    }
}
