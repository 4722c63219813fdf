//! JSON values as JSON Schema sees them: the seven types, equality and uniqueness.

use crate::number;
use serde_json::Value;
use std::fmt;

/// One of the seven JSON Schema types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum JsonType {
    /// `null`
    Null,
    /// `true` or `false`
    Boolean,
    /// An object.
    Object,
    /// An array.
    Array,
    /// Any number.
    Number,
    /// A string.
    String,
    /// A number with no fractional part (`1.0` is one).
    Integer,
}

impl JsonType {
    /// Every type, in the order used for bit positions and messages.
    pub const ALL: [JsonType; 7] = [
        JsonType::Null,
        JsonType::Boolean,
        JsonType::Object,
        JsonType::Array,
        JsonType::Number,
        JsonType::String,
        JsonType::Integer,
    ];

    /// Parses a `type` keyword value.
    pub fn from_name(name: &str) -> Option<JsonType> {
        Some(match name {
            "null" => JsonType::Null,
            "boolean" => JsonType::Boolean,
            "object" => JsonType::Object,
            "array" => JsonType::Array,
            "number" => JsonType::Number,
            "string" => JsonType::String,
            "integer" => JsonType::Integer,
            _ => return None,
        })
    }

    /// The keyword spelling of the type.
    pub fn name(self) -> &'static str {
        match self {
            JsonType::Null => "null",
            JsonType::Boolean => "boolean",
            JsonType::Object => "object",
            JsonType::Array => "array",
            JsonType::Number => "number",
            JsonType::String => "string",
            JsonType::Integer => "integer",
        }
    }

    /// The primitive type of a value (numbers are `number`, never `integer`).
    #[inline]
    pub fn of(value: &Value) -> JsonType {
        match value {
            Value::Null => JsonType::Null,
            Value::Bool(_) => JsonType::Boolean,
            Value::Object(_) => JsonType::Object,
            Value::Array(_) => JsonType::Array,
            Value::Number(_) => JsonType::Number,
            Value::String(_) => JsonType::String,
        }
    }

    const fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// A set of types, as a `type` keyword lists them.
///
/// ```
/// use toolschema::json::{JsonType, TypeSet};
/// use serde_json::json;
/// let set = TypeSet::EMPTY.with(JsonType::Integer).with(JsonType::Null);
/// assert!(set.matches(&json!(1.0)));
/// assert!(!set.matches(&json!(1.5)));
/// assert!(set.matches(&json!(null)));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct TypeSet(u8);

impl TypeSet {
    /// No type at all.
    pub const EMPTY: TypeSet = TypeSet(0);

    /// Every type: matches any value.
    pub const ANY: TypeSet = TypeSet(0x7f);

    /// The set with `t` added.
    pub const fn with(self, t: JsonType) -> TypeSet {
        TypeSet(self.0 | t.bit())
    }

    /// Whether `t` is in the set (literally: `integer` does not imply `number`).
    pub const fn contains(self, t: JsonType) -> bool {
        self.0 & t.bit() != 0
    }

    /// The raw bits, one per [`JsonType`] in [`JsonType::ALL`] order.
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// The set from raw bits.
    pub const fn from_bits(bits: u8) -> TypeSet {
        TypeSet(bits & 0x7f)
    }

    /// Whether `value` has one of the types.
    #[inline]
    pub fn matches(self, value: &Value) -> bool {
        match value {
            Value::Null => self.contains(JsonType::Null),
            Value::Bool(_) => self.contains(JsonType::Boolean),
            Value::Object(_) => self.contains(JsonType::Object),
            Value::Array(_) => self.contains(JsonType::Array),
            Value::String(_) => self.contains(JsonType::String),
            Value::Number(n) => {
                self.contains(JsonType::Number)
                    || (self.contains(JsonType::Integer) && number::is_integer(n))
            }
        }
    }

    /// The members, in [`JsonType::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = JsonType> {
        JsonType::ALL.into_iter().filter(move |t| self.contains(*t))
    }
}

impl fmt::Debug for TypeSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set()
            .entries(self.iter().map(JsonType::name))
            .finish()
    }
}

/// JSON equality: numbers by value (`1 == 1.0`), objects regardless of key order.
///
/// ```
/// use serde_json::json;
/// assert!(toolschema::json::equal(&json!({"a": [1, 2.0]}), &json!({"a": [1.0, 2]})));
/// assert!(!toolschema::json::equal(&json!(false), &json!(0)));
/// ```
pub fn equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Number(x), Value::Number(y)) => number::equal(x, y),
        (Value::String(x), Value::String(y)) => x == y,
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| equal(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| equal(v, w)))
        }
        _ => false,
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
    // Short arrays: comparing pairs is cheaper than hashing.
    if items.len() <= 16 {
        for j in 1..items.len() {
            for i in 0..j {
                if equal(&items[i], &items[j]) {
                    return Some((i, j));
                }
            }
        }
        return None;
    }
    // Long arrays: sort by a hash that equal values share, then compare only within runs of
    // equal hashes, so hostile input costs n log n rather than n².
    let mut order: Vec<(u64, usize)> = items.iter().map(hash).zip(0..).collect();
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
                if equal(&items[i], &items[j]) {
                    let pair = (i.min(j), i.max(j));
                    if best.is_none_or(|p| (pair.1, pair.0) < (p.1, p.0)) {
                        best = Some(pair);
                    }
                }
            }
        }
        start = end;
    }
    best
}

/// A hash consistent with [`equal`]: equal values hash alike (`1` and `1.0`, objects in any
/// key order).
fn hash(value: &Value) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    match value {
        Value::Null => 0u8.hash(&mut h),
        Value::Bool(b) => (1u8, b).hash(&mut h),
        Value::Number(n) => {
            // Equal numbers have the same f64 approximation; exactness is restored by
            // `equal` on collision.
            2u8.hash(&mut h);
            let f = n.as_f64().unwrap_or(0.0);
            (if f == 0.0 { 0.0f64 } else { f }).to_bits().hash(&mut h);
        }
        Value::String(s) => (3u8, s).hash(&mut h),
        Value::Array(items) => {
            (4u8, items.len()).hash(&mut h);
            for item in items {
                hash(item).hash(&mut h);
            }
        }
        Value::Object(map) => {
            // Order-independent: members combined by a commutative sum.
            let mut sum = 0u64;
            for (k, v) in map {
                let mut member = std::collections::hash_map::DefaultHasher::new();
                (k, hash(v)).hash(&mut member);
                sum = sum.wrapping_add(member.finish());
            }
            (5u8, map.len(), sum).hash(&mut h);
        }
    }
    h.finish()
}

/// The length of `s` in code points, as `minLength` and `maxLength` count it.
#[inline]
pub fn string_length(s: &str) -> usize {
    // Counting code points is only needed when the byte length does not already decide.
    if s.is_ascii() {
        s.len()
    } else {
        s.chars().count()
    }
}

#[cfg(test)]
mod tests {
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

    #[test]
    fn long_distinct_numbers_are_unique() {
        let v: Vec<Value> = (0..100_000).map(|i| json!(i)).collect();
        assert_eq!(first_duplicate(&v), None);
    }

    #[test]
    fn equality_is_deep() {
        assert!(equal(
            &json!({"a": 1, "b": [{}]}),
            &json!({"b": [{}], "a": 1.0})
        ));
        assert!(!equal(&json!({"a": 1}), &json!({"a": 1, "b": 2})));
        assert!(!equal(&json!([1]), &json!([true])));
        assert!(equal(&json!(-0.0), &json!(0)));
    }
}
