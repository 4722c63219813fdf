//! Values that generated code builds once, from the text the code generator wrote.

use crate::number::MultipleOf;
use crate::regex::Pattern;
use serde_json::{Number, Value};

/// A number from its JSON text, as the schema wrote it.
pub fn number(text: &str) -> Number {
    serde_json::from_str(text).expect("the code generator writes valid numbers")
}

/// A value from its JSON text.
pub fn value(text: &str) -> Value {
    serde_json::from_str(text).expect("the code generator writes valid JSON")
}

/// A pattern the front end has already compiled once with the same limit.
pub fn pattern(source: &str, size_limit: usize) -> Pattern {
    Pattern::new(source, size_limit).expect("the front end accepted this pattern")
}

/// A `multipleOf` divisor the front end has already accepted.
pub fn multiple_of(text: &str) -> MultipleOf {
    MultipleOf::new(&number(text)).expect("the front end accepted this divisor")
}
