//! Deep equality and the first duplicate among items (`uniqueItems`): the one place where
//! evaluation follows the arguments' own nesting rather than the schema's.
//!
//! Comparisons follow nesting only as deep as their caller allows ([`Nesting`]), and on a
//! stack that grows on the heap as they go, so values of any depth compare without exhausting
//! it. Evaluation may compare items before they are admitted to the argument limits (see
//! `eval::admission`); it allows as many levels as `max_argument_depth`, and nesting past
//! that is over the limit whatever else the arguments hold, so the comparison stops there
//! ([`TooDeep`]) instead of following it.

use crate::eval::member::same_name;
use crate::eval::stack::{RED_ZONE, SEGMENT};
use crate::number;
use serde_json::Value;

/// Nesting deeper than a comparison was allowed to follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooDeep;

/// How many levels of non-empty containers a comparison may follow inside the values it is
/// handed (each value itself included), and how many it has followed.
///
/// ```
/// use serde_json::json;
/// use toolschema::json::{Nesting, TooDeep, first_duplicate_within};
///
/// let items = json!([[[1]], [[1.0]]]);
/// let items = items.as_array().unwrap();
/// assert_eq!(first_duplicate_within(items, Nesting::at_most(2)), Ok(Some((0, 1))));
/// assert_eq!(first_duplicate_within(items, Nesting::at_most(1)), Err(TooDeep));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Nesting {
    followed: usize,
    allowed: usize,
}

/// Levels between two looks at how much stack is left: a look costs several times a level of
/// comparison, and 64 levels take a few KiB at most.
const LOOK_EVERY: usize = 64;

impl Nesting {
    /// As deep as the values nest.
    pub const ANY: Nesting = Nesting::at_most(usize::MAX);

    /// At most `levels` levels.
    pub const fn at_most(levels: usize) -> Nesting {
        Nesting {
            followed: 0,
            allowed: levels,
        }
    }

    /// Runs `f` one level further in, inside a non-empty container; on a fresh stack segment
    /// when the stack runs low.
    #[inline]
    fn inside<T>(self, f: impl FnOnce(Nesting) -> Result<T, TooDeep>) -> Result<T, TooDeep> {
        if self.followed == self.allowed {
            return Err(TooDeep);
        }
        let inner = Nesting {
            followed: self.followed + 1,
            ..self
        };
        if inner.followed % LOOK_EVERY == 0 {
            return stacker::maybe_grow(RED_ZONE, SEGMENT, || f(inner));
        }
        f(inner)
    }
}

/// [`equal`](super::equal), following at most `nesting` levels.
pub(super) fn equal_within(a: &Value, b: &Value, nesting: Nesting) -> Result<bool, TooDeep> {
    match (a, b) {
        (Value::Null, Value::Null) => Ok(true),
        (Value::Bool(x), Value::Bool(y)) => Ok(x == y),
        (Value::Number(x), Value::Number(y)) => Ok(number::equal(x, y)),
        (Value::String(x), Value::String(y)) => Ok(same_name(x, y)),
        (Value::Array(x), Value::Array(y)) => {
            if x.len() != y.len() || x.is_empty() {
                return Ok(x.len() == y.len());
            }
            nesting.inside(|inner| {
                for (p, q) in x.iter().zip(y) {
                    if !equal_within(p, q, inner)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            })
        }
        (Value::Object(x), Value::Object(y)) => {
            if x.len() != y.len() || x.is_empty() {
                return Ok(x.len() == y.len());
            }
            nesting.inside(|inner| {
                for (k, v) in x {
                    match y.get(k) {
                        Some(w) if equal_within(v, w, inner)? => {}
                        _ => return Ok(false),
                    }
                }
                Ok(true)
            })
        }
        _ => Ok(false),
    }
}

/// The first pair of indices `(i, j)`, `i < j`, whose items are equal, if any: the smallest
/// `j`, and for it the smallest `i`.
///
/// ```
/// use serde_json::json;
/// let items = json!([1, "a", 1.0]);
/// assert_eq!(toolschema::json::first_duplicate(items.as_array().unwrap()), Some((0, 2)));
/// ```
pub fn first_duplicate(items: &[Value]) -> Option<(usize, usize)> {
    // Unbounded nesting is never too deep.
    first_duplicate_within(items, Nesting::ANY).unwrap_or(None)
}

/// [`first_duplicate`], following at most `nesting` levels inside each item: an item nested
/// deeper is [`TooDeep`] when the search has to look that far into it.
pub fn first_duplicate_within(
    items: &[Value],
    nesting: Nesting,
) -> Result<Option<(usize, usize)>, TooDeep> {
    // Short arrays: comparing pairs is cheaper than sorting. Past a few items, a digest of
    // each item's top level first rules out most pairs of unequal containers, which would
    // otherwise each cost a member lookup; below, every digest is left 0, so every pair is
    // compared.
    if items.len() <= SHORT {
        let mut digests = [0u64; SHORT];
        if items.len() >= DIGEST_FROM {
            for (d, item) in digests.iter_mut().zip(items) {
                *d = digest(item);
            }
        }
        for j in 1..items.len() {
            for i in 0..j {
                if digests[i] == digests[j] && equal_within(&items[i], &items[j], nesting)? {
                    return Ok(Some((i, j)));
                }
            }
        }
        return Ok(None);
    }
    // Long arrays: sort by a hash that equal values share, then compare only within runs of
    // equal hashes, so hostile input costs n log n rather than n².
    let mut order = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        order.push((hash(item, nesting)?, i));
    }
    order.sort_unstable();
    let mut best: Option<(usize, usize)> = None;
    let mut start = 0;
    while start < order.len() {
        let mut end = start + 1;
        while end < order.len() && order[end].0 == order[start].0 {
            end += 1;
        }
        for b in start + 1..end {
            for a in start..b {
                let (i, j) = (order[a].1, order[b].1);
                if equal_within(&items[i], &items[j], nesting)? {
                    let pair = (i.min(j), i.max(j));
                    if best.is_none_or(|p| (pair.1, pair.0) < (p.1, p.0)) {
                        best = Some(pair);
                    }
                }
            }
        }
        start = end;
    }
    Ok(best)
}

/// The longest array searched pair by pair.
const SHORT: usize = 16;

/// The shortest array whose pairs are first told apart by [`digest`]: below it, digesting
/// every item costs more than the comparisons it saves.
const DIGEST_FROM: usize = 5;

/// A number's digest and hash: equal numbers have the same `f64` approximation (exactness
/// is restored by `equal` on collision), and both zeros are one.
fn number_bits(n: &serde_json::Number) -> u64 {
    let f = n.as_f64().unwrap_or(0.0);
    (if f == 0.0 { 0.0f64 } else { f }).to_bits()
}

/// A string's digest: its length and its first and last bytes.
fn string_digest(s: &str) -> u64 {
    let b = s.as_bytes();
    match (b.first(), b.last()) {
        (Some(&first), Some(&last)) => {
            (b.len() as u64) << 16 | u64::from(first) << 8 | u64::from(last)
        }
        _ => 0,
    }
}

/// A digest of a value's top level that equal values share, without following its nesting:
/// a scalar's digest, a container's kind and length, and for an object, its members' names
/// and their values' top levels, combined in any order.
fn digest(value: &Value) -> u64 {
    // Odd multipliers spread the parts over the word, so that a sum of members rarely
    // collides.
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    fn top(value: &Value) -> u64 {
        match value {
            Value::Null => 1,
            Value::Bool(b) => 2 + u64::from(*b),
            Value::Number(n) => number_bits(n),
            Value::String(s) => string_digest(s).wrapping_mul(K) ^ 3,
            Value::Array(items) => (items.len() as u64).wrapping_mul(K) ^ 4,
            Value::Object(map) => (map.len() as u64).wrapping_mul(K) ^ 5,
        }
    }
    match value {
        Value::Object(map) => map.iter().fold(top(value), |sum, (k, v)| {
            let member = (string_digest(k) ^ top(v).rotate_left(29)).wrapping_mul(K);
            sum.wrapping_add(member ^ member >> 31)
        }),
        _ => top(value),
    }
}

/// A hash consistent with [`equal`](super::equal): equal values hash alike (`1` and `1.0`,
/// objects in any key order).
fn hash(value: &Value, nesting: Nesting) -> Result<u64, TooDeep> {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    match value {
        Value::Null => 0u8.hash(&mut h),
        Value::Bool(b) => (1u8, b).hash(&mut h),
        Value::Number(n) => (2u8, number_bits(n)).hash(&mut h),
        Value::String(s) => (3u8, s).hash(&mut h),
        Value::Array(items) if items.is_empty() => (4u8, 0usize).hash(&mut h),
        Value::Array(items) => nesting.inside(|inner| {
            (4u8, items.len()).hash(&mut h);
            for item in items {
                hash(item, inner)?.hash(&mut h);
            }
            Ok(())
        })?,
        Value::Object(map) if map.is_empty() => (5u8, 0usize, 0u64).hash(&mut h),
        Value::Object(map) => nesting.inside(|inner| {
            // Order-independent: members combined by a commutative sum.
            let mut sum = 0u64;
            for (k, v) in map {
                let mut member = std::collections::hash_map::DefaultHasher::new();
                (k, hash(v, inner)?).hash(&mut member);
                sum = sum.wrapping_add(member.finish());
            }
            (5u8, map.len(), sum).hash(&mut h);
            Ok(())
        })?,
    }
    Ok(h.finish())
}

#[cfg(test)]
mod tests {
    use super::super::equal;
    use super::*;
    use serde_json::json;

    #[test]
    fn duplicates_in_long_arrays_agree_with_pairwise_search() {
        let mut v: Vec<Value> = (0..40).map(|i| json!(format!("s{i}"))).collect();
        assert_eq!(first_duplicate(&v), None);
        v.push(json!({"a": [1, 2.0], "b": null}));
        v.push(json!(7));
        v.push(json!({"b": null, "a": [1.0, 2]}));
        v.push(json!("s3"));
        v.push(json!(7.0));
        // The pair with the smallest second index wins, as in the pairwise search.
        assert_eq!(first_duplicate(&v), Some((40, 42)));
        let pairwise =
            (1..v.len()).find_map(|j| (0..j).find(|&i| equal(&v[i], &v[j])).map(|i| (i, j)));
        assert_eq!(first_duplicate(&v), pairwise);
    }

    /// Equal values share a digest however they are written, so a search that digests finds
    /// the same pair as one that compares every pair.
    #[test]
    fn digests_keep_every_duplicate() {
        let equal_pairs = [
            (json!(1), json!(1.0)),
            (json!(0.0), json!(-0.0)),
            (json!(""), json!("")),
            (json!({"a": 1, "b": [1]}), json!({"b": [1.0], "a": 1.0})),
            (json!({"x": {"y": 2}}), json!({"x": {"y": 2.0}})),
            (json!([{"a": null}]), json!([{"a": null}])),
        ];
        for (a, b) in equal_pairs {
            assert_eq!(digest(&a), digest(&b), "{a} and {b}");
            let mut items: Vec<Value> = (0..DIGEST_FROM).map(|i| json!(format!("s{i}"))).collect();
            items.push(a);
            items.push(b);
            let n = items.len();
            assert_eq!(first_duplicate(&items), Some((n - 2, n - 1)));
        }
        // Items alike at the top level but unequal below it are compared, and found unequal.
        let items: Vec<Value> = (0..8).map(|i| json!({"a": [i], "b": "same"})).collect();
        assert!(items.windows(2).all(|w| digest(&w[0]) == digest(&w[1])));
        assert_eq!(first_duplicate(&items), None);
    }

    /// Arrays of every length up to past the pairwise search's, drawn from values that are
    /// equal in several spellings (`1` and `1.0`, members in either order) and values that
    /// differ only below their top level: the search finds the pair a plain pairwise search
    /// finds.
    #[test]
    fn every_length_agrees_with_pairwise_search() {
        let pool = [
            json!(1),
            json!(1.0),
            json!(-0.0),
            json!(0),
            json!("ab"),
            json!("ba"),
            json!(null),
            json!(false),
            json!([1, 2]),
            json!([1.0, 2]),
            json!([2, 1]),
            json!({"a": 1, "b": "x"}),
            json!({"b": "x", "a": 1.0}),
            json!({"a": 1, "b": "y"}),
            json!({"a": [1], "b": "x"}),
            json!({"a": [2], "b": "x"}),
        ];
        // A fixed linear congruential sequence: the same arrays on every run.
        let mut state: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = move || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 33) as usize
        };
        for round in 0..2_000 {
            let len = round % (SHORT + 4);
            let items: Vec<Value> = (0..len)
                .map(|_| pool[next() % pool.len()].clone())
                .collect();
            let pairwise = (1..items.len()).find_map(|j| {
                (0..j)
                    .find(|&i| equal(&items[i], &items[j]))
                    .map(|i| (i, j))
            });
            assert_eq!(first_duplicate(&items), pairwise, "{items:?}");
        }
    }

    #[test]
    fn long_distinct_numbers_are_unique() {
        let v: Vec<Value> = (0..100_000).map(|i| json!(i)).collect();
        assert_eq!(first_duplicate(&v), None);
    }

    /// `depth` arrays inside one another around `leaf`, built without recursion.
    fn nested(depth: usize, leaf: Value) -> Value {
        (0..depth).fold(leaf, |inner, _| Value::Array(vec![inner]))
    }

    /// Drops a value of any depth without recursion.
    fn dismantle(value: Value) {
        let mut stack = vec![value];
        while let Some(value) = stack.pop() {
            if let Value::Array(items) = value {
                stack.extend(items);
            }
        }
    }

    #[test]
    fn nesting_is_followed_as_far_as_allowed() {
        // Past 16 items the search hashes; both ways stop at the same depth.
        for filler in [0, 20] {
            let mut items: Vec<Value> = (0..filler).map(|i| json!(i)).collect();
            items.push(nested(3, json!(1)));
            items.push(nested(3, json!(1.0)));
            let found = Ok(Some((filler, filler + 1)));
            assert_eq!(first_duplicate_within(&items, Nesting::at_most(3)), found);
            assert_eq!(
                first_duplicate_within(&items, Nesting::at_most(2)),
                Err(TooDeep)
            );
        }
        // A pair that differs at the top is not followed down.
        let items = [
            json!([nested(3, json!(1))]),
            json!([nested(3, json!(1)), 2]),
        ];
        assert_eq!(
            first_duplicate_within(&items, Nesting::at_most(0)),
            Ok(None)
        );
        // Empty containers hold no level.
        let items = [json!([[]]), json!({}), json!([{}]), json!([[]])];
        assert_eq!(
            first_duplicate_within(&items, Nesting::at_most(1)),
            Ok(Some((0, 3)))
        );
    }

    /// Values nested far deeper than a thread's stack could follow by plain recursion compare
    /// on the heap, on a small thread.
    #[test]
    fn deep_values_compare_on_a_small_stack() {
        let outcome = std::thread::Builder::new()
            .stack_size(256 << 10)
            .spawn(|| {
                let a = nested(200_000, json!(1));
                let b = nested(200_000, json!(1.0));
                let c = nested(200_000, json!(2));
                let verdicts = (equal(&a, &b), equal(&a, &c));
                let items = vec![a, c, b];
                let duplicate = first_duplicate(&items);
                let bounded = first_duplicate_within(&items, Nesting::at_most(128));
                items.into_iter().for_each(dismantle);
                (verdicts, duplicate, bounded)
            })
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(outcome, ((true, false), Some((0, 2)), Err(TooDeep)));
    }
}
