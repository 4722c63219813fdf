//! Powers of ten of unbounded size.
//!
//! JSON puts no limit on the exponent of a number, and with arbitrary
//! precision enabled serde_json keeps whatever text it was given, so an
//! exponent may have any number of digits. Exponents that fit an `i128`
//! (every exponent anyone writes) stay on machine arithmetic; the rest are
//! kept as decimal digit strings so that even absurd inputs are ordered
//! exactly, at a cost linear in their length.

use std::cmp::Ordering;

/// A signed integer, used as the power of ten of a decimal.
///
/// Invariant: `Big` is used only for values outside the `i128` range, so a
/// `Big` always lies beyond every `Small` on its side of zero.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Scale {
    Small(i128),
    /// `mag` holds digit values (0..=9), most significant first, without
    /// leading zeros.
    Big {
        neg: bool,
        mag: Box<[u8]>,
    },
}

impl Scale {
    pub(crate) const ZERO: Scale = Scale::Small(0);

    /// The integer written as ASCII digits (leading zeros allowed).
    pub(crate) fn from_ascii(neg: bool, ascii: &[u8]) -> Scale {
        let mut acc: i128 = 0;
        for &c in ascii {
            match acc
                .checked_mul(10)
                .and_then(|a| a.checked_add(i128::from(c - b'0')))
            {
                Some(a) => acc = a,
                None => {
                    return normalize(neg, ascii.iter().map(|c| c - b'0').collect());
                }
            }
        }
        // acc <= i128::MAX here, so negation cannot overflow.
        Scale::Small(if neg { -acc } else { acc })
    }

    pub(crate) fn signum(&self) -> i8 {
        match self {
            Scale::Small(v) => v.signum() as i8,
            Scale::Big { neg: true, .. } => -1,
            Scale::Big { neg: false, .. } => 1,
        }
    }

    pub(crate) fn add(&self, other: &Scale) -> Scale {
        if let (Scale::Small(a), Scale::Small(b)) = (self, other) {
            if let Some(s) = a.checked_add(*b) {
                return Scale::Small(s);
            }
        }
        let (an, am) = self.parts();
        let (bn, bm) = other.parts();
        if an == bn {
            return normalize(an, mag_add(&am, &bm));
        }
        match mag_cmp(&am, &bm) {
            Ordering::Greater => normalize(an, mag_sub(&am, &bm)),
            Ordering::Less => normalize(bn, mag_sub(&bm, &am)),
            Ordering::Equal => Scale::ZERO,
        }
    }

    pub(crate) fn add_i128(&self, d: i128) -> Scale {
        match self {
            Scale::Small(a) => match a.checked_add(d) {
                Some(s) => Scale::Small(s),
                None => self.add(&Scale::Small(d)),
            },
            Scale::Big { .. } => self.add(&Scale::Small(d)),
        }
    }

    pub(crate) fn neg(&self) -> Scale {
        match self {
            Scale::Small(v) => match v.checked_neg() {
                Some(n) => Scale::Small(n),
                None => normalize(false, digits_of(v.unsigned_abs())),
            },
            Scale::Big { neg, mag } => normalize(!neg, mag.to_vec()),
        }
    }

    pub(crate) fn sub(&self, other: &Scale) -> Scale {
        match (self, other) {
            (Scale::Small(a), Scale::Small(b)) => match a.checked_sub(*b) {
                Some(d) => Scale::Small(d),
                None => self.add(&other.neg()),
            },
            _ => self.add(&other.neg()),
        }
    }

    /// `min(self, cap)` for use as a count; negative values give 0.
    pub(crate) fn min_u64(&self, cap: u64) -> u64 {
        match self {
            Scale::Small(v) if *v <= 0 => 0,
            Scale::Small(v) => u64::try_from(*v).map_or(cap, |v| v.min(cap)),
            Scale::Big { neg: true, .. } => 0,
            Scale::Big { neg: false, .. } => cap,
        }
    }

    /// The value if it lies in `lo..=hi`.
    pub(crate) fn small_in(&self, lo: i128, hi: i128) -> Option<i128> {
        match self {
            Scale::Small(v) if (lo..=hi).contains(v) => Some(*v),
            _ => None,
        }
    }

    fn parts(&self) -> (bool, Vec<u8>) {
        match self {
            Scale::Small(v) => (*v < 0, digits_of(v.unsigned_abs())),
            Scale::Big { neg, mag } => (*neg, mag.to_vec()),
        }
    }
}

impl PartialOrd for Scale {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Scale {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (Scale::Small(a), Scale::Small(b)) => a.cmp(b),
            (Scale::Small(_), Scale::Big { neg, .. }) => {
                if *neg {
                    Ordering::Greater
                } else {
                    Ordering::Less
                }
            }
            (Scale::Big { neg, .. }, Scale::Small(_)) => {
                if *neg {
                    Ordering::Less
                } else {
                    Ordering::Greater
                }
            }
            (Scale::Big { neg: an, mag: am }, Scale::Big { neg: bn, mag: bm }) => {
                if an != bn {
                    return if *an {
                        Ordering::Less
                    } else {
                        Ordering::Greater
                    };
                }
                let c = mag_cmp(am, bm);
                if *an { c.reverse() } else { c }
            }
        }
    }
}

/// Restores the invariant: `Small` whenever the value fits.
fn normalize(neg: bool, mut mag: Vec<u8>) -> Scale {
    strip_leading_zeros(&mut mag);
    if mag.len() <= 39 {
        let mut v: u128 = 0;
        let mut fits = true;
        for &d in &mag {
            match v.checked_mul(10).and_then(|x| x.checked_add(u128::from(d))) {
                Some(x) => v = x,
                None => {
                    fits = false;
                    break;
                }
            }
        }
        if fits {
            if !neg && v <= i128::MAX as u128 {
                return Scale::Small(v as i128);
            }
            if neg && v <= i128::MIN.unsigned_abs() {
                // For v == 2^127 the cast gives i128::MIN, which is its own
                // wrapping negation, as wanted.
                return Scale::Small((v as i128).wrapping_neg());
            }
        }
    }
    Scale::Big {
        neg,
        mag: mag.into_boxed_slice(),
    }
}

// Magnitudes below are digit values, most significant first, without
// leading zeros (the empty slice is zero).

pub(crate) fn strip_leading_zeros(mag: &mut Vec<u8>) {
    let z = mag.iter().take_while(|&&d| d == 0).count();
    if z > 0 {
        mag.drain(..z);
    }
}

fn digits_of(mut v: u128) -> Vec<u8> {
    let mut out = Vec::new();
    while v > 0 {
        out.push((v % 10) as u8);
        v /= 10;
    }
    out.reverse();
    out
}

pub(crate) fn mag_cmp(a: &[u8], b: &[u8]) -> Ordering {
    a.len().cmp(&b.len()).then_with(|| a.cmp(b))
}

fn mag_add(a: &[u8], b: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(a.len().max(b.len()) + 1);
    let mut carry = 0;
    let (mut i, mut j) = (a.len(), b.len());
    while i > 0 || j > 0 || carry > 0 {
        let mut s = carry;
        if i > 0 {
            i -= 1;
            s += a[i];
        }
        if j > 0 {
            j -= 1;
            s += b[j];
        }
        out.push(s % 10);
        carry = s / 10;
    }
    out.reverse();
    out
}

/// `a - b`; requires `a >= b`.
fn mag_sub(a: &[u8], b: &[u8]) -> Vec<u8> {
    let mut out = a.to_vec();
    mag_sub_assign(&mut out, b);
    out
}

/// `a -= b`; requires `a >= b`. Leaves `a` without leading zeros.
pub(crate) fn mag_sub_assign(a: &mut Vec<u8>, b: &[u8]) {
    let mut borrow = 0u8;
    let mut j = b.len();
    for i in (0..a.len()).rev() {
        let sub = borrow
            + if j > 0 {
                j -= 1;
                b[j]
            } else {
                0
            };
        if a[i] >= sub {
            a[i] -= sub;
            borrow = 0;
        } else {
            a[i] = a[i] + 10 - sub;
            borrow = 1;
        }
        if j == 0 && borrow == 0 {
            break;
        }
    }
    strip_leading_zeros(a);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn big(neg: bool, s: &str) -> Scale {
        Scale::from_ascii(neg, s.as_bytes())
    }

    #[test]
    fn small_values_stay_small() {
        assert_eq!(big(false, "000123"), Scale::Small(123));
        assert_eq!(big(true, "999999999"), Scale::Small(-999_999_999));
        assert_eq!(big(false, &i128::MAX.to_string()), Scale::Small(i128::MAX));
        assert_eq!(
            big(true, &i128::MIN.unsigned_abs().to_string()),
            Scale::Small(i128::MIN)
        );
        assert!(matches!(
            big(false, &(i128::MAX as u128 + 1).to_string()),
            Scale::Big { .. }
        ));
    }

    #[test]
    fn arithmetic_across_the_boundary() {
        let max = Scale::Small(i128::MAX);
        let over = max.add_i128(1);
        assert!(matches!(over, Scale::Big { neg: false, .. }));
        assert_eq!(over.add_i128(-1), max);
        assert_eq!(over.sub(&max), Scale::Small(1));
        assert_eq!(max.sub(&over), Scale::Small(-1));
        assert_eq!(Scale::Small(i128::MIN).neg().neg(), Scale::Small(i128::MIN));
        assert_eq!(
            Scale::Small(i128::MIN).sub(&Scale::Small(1)).add_i128(1),
            Scale::Small(i128::MIN)
        );
        let huge = big(false, &"9".repeat(60));
        let huge_plus = huge.add_i128(1);
        assert_eq!(huge_plus, big(false, &format!("1{}", "0".repeat(60))));
        assert_eq!(huge_plus.sub(&huge), Scale::Small(1));
        assert_eq!(huge.sub(&huge_plus), Scale::Small(-1));
        assert_eq!(huge.neg().add(&huge), Scale::ZERO);
    }

    #[test]
    fn ordering() {
        let huge = big(false, &"9".repeat(60));
        let neg_huge = huge.neg();
        let mut v = vec![
            huge.clone(),
            Scale::Small(0),
            neg_huge.clone(),
            huge.add_i128(1),
            neg_huge.add_i128(-1),
            Scale::Small(i128::MAX),
            Scale::Small(i128::MIN),
        ];
        v.sort();
        assert_eq!(
            v,
            vec![
                neg_huge.add_i128(-1),
                neg_huge,
                Scale::Small(i128::MIN),
                Scale::Small(0),
                Scale::Small(i128::MAX),
                huge.clone(),
                huge.add_i128(1),
            ]
        );
        assert_eq!(huge.min_u64(7), 7);
        assert_eq!(huge.neg().min_u64(7), 0);
        assert_eq!(Scale::Small(3).min_u64(7), 3);
        assert_eq!(Scale::Small(-3).min_u64(7), 0);
    }
}
