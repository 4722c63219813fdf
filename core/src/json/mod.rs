//! JSON values as JSON Schema sees them: the seven types, equality and uniqueness.

mod unique;

pub use unique::{Nesting, TooDeep, first_duplicate, first_duplicate_within};

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

    /// Whether every type in the set is a scalar: no string, array or object.
    ///
    /// ```
    /// use toolschema::json::{JsonType, TypeSet};
    /// assert!(TypeSet::EMPTY.with(JsonType::Number).with(JsonType::Null).only_scalars());
    /// assert!(!TypeSet::EMPTY.with(JsonType::String).only_scalars());
    /// ```
    pub const fn only_scalars(self) -> bool {
        let containers = JsonType::String.bit() | JsonType::Array.bit() | JsonType::Object.bit();
        self.0 & containers == 0
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

/// JSON equality: numbers by value (`1 == 1.0`), objects regardless of key order. Values of
/// any depth compare without exhausting the stack.
///
/// ```
/// use serde_json::json;
/// assert!(toolschema::json::equal(&json!({"a": [1, 2.0]}), &json!({"a": [1.0, 2]})));
/// assert!(!toolschema::json::equal(&json!(false), &json!(0)));
/// ```
pub fn equal(a: &Value, b: &Value) -> bool {
    unique::equal_within(a, b, Nesting::ANY).unwrap_or(false)
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
