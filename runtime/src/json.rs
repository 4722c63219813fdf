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

/// The first pair of indices `(i, j)`, `i < j`, whose items are equal, if any.
///
/// ```
/// use serde_json::json;
/// let items = json!([1, "a", 1.0]);
/// assert_eq!(toolschema::json::first_duplicate(items.as_array().unwrap()), Some((0, 2)));
/// ```
pub fn first_duplicate(items: &[Value]) -> Option<(usize, usize)> {
    // Quadratic, but with a cheap discriminant first; arrays under `uniqueItems` in tool
    // arguments are short. Long arrays of scalars take the sorted path below.
    if items.len() > 32 && items.iter().all(|v| matches!(v, Value::String(_))) {
        let mut idx: Vec<usize> = (0..items.len()).collect();
        idx.sort_by(|&a, &b| items[a].as_str().cmp(&items[b].as_str()).then(a.cmp(&b)));
        let mut best: Option<(usize, usize)> = None;
        for w in idx.windows(2) {
            if items[w[0]] == items[w[1]] {
                let pair = (w[0], w[1]);
                best = Some(best.map_or(pair, |b| b.min(pair)));
            }
        }
        return best;
    }
    for j in 1..items.len() {
        for i in 0..j {
            if std::mem::discriminant(&items[i]) == std::mem::discriminant(&items[j])
                && equal(&items[i], &items[j])
            {
                return Some((i, j));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn duplicates_of_strings_sorted_path() {
        let mut v: Vec<Value> = (0..40).map(|i| json!(format!("s{i}"))).collect();
        assert_eq!(first_duplicate(&v), None);
        v.push(json!("s3"));
        assert_eq!(first_duplicate(&v), Some((3, 40)));
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
