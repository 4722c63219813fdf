//! Size and depth checks on JSON documents, done without recursion so that no input can
//! exhaust the stack before a limit is reported.

use crate::error::{Error, ErrorClass};
use crate::options::Limits;
use serde_json::Value;

/// Checks a schema document against the schema size and depth limits. Returns how many of
/// its values are objects or booleans: the most subschemas it can hold.
pub fn check_document(root: &Value, limits: &Limits) -> Result<usize, Error> {
    let mut size = 0usize;
    let mut schemas = 0usize;
    let mut stack: Vec<(&Value, usize)> = vec![(root, 1)];
    while let Some((value, depth)) = stack.pop() {
        if depth > limits.max_schema_depth {
            return Err(Error::schema(
                ErrorClass::ExecutionFailure,
                "",
                "",
                format!(
                    "the schema nests deeper than the limit of {} levels",
                    limits.max_schema_depth
                ),
            ));
        }
        size += compact_size(value);
        if size > limits.max_schema_size {
            return Err(Error::schema(
                ErrorClass::ExecutionFailure,
                "",
                "",
                format!(
                    "the schema is larger than the limit of {} bytes",
                    limits.max_schema_size
                ),
            ));
        }
        match value {
            Value::Array(items) => stack.extend(items.iter().map(|v| (v, depth + 1))),
            Value::Bool(_) => schemas += 1,
            Value::Object(map) => {
                schemas += 1;
                stack.reserve(map.len());
                for (key, member) in map {
                    size += string_size(key);
                    stack.push((member, depth + 1));
                }
            }
            _ => {}
        }
    }
    Ok(schemas)
}

/// The bytes a value takes in compact JSON (`serde_json::to_string`), not counting its
/// children: exact, so that a limit set to a document's length admits it.
fn compact_size(value: &Value) -> usize {
    match value {
        Value::Null => 4,
        Value::Bool(true) => 4,
        Value::Bool(false) => 5,
        Value::Number(n) => written_len(n),
        Value::String(s) => string_size(s),
        // Brackets and the commas between items.
        Value::Array(items) => 2 + items.len().saturating_sub(1),
        // Braces, the commas between members and each member's colon.
        Value::Object(map) => 2 + map.len().saturating_sub(1) + map.len(),
    }
}

/// The length of a string as serde_json writes it: quotes and escapes included.
fn string_size(s: &str) -> usize {
    // Almost every string needs no escape; that test runs over all bytes without branching,
    // so it vectorizes, and only strings that fail it are measured byte by byte.
    let escapes = s.bytes().fold(false, |any, b| {
        any | (b < 0x20) | (b == b'"') | (b == b'\\')
    });
    if !escapes {
        return 2 + s.len();
    }
    2 + s
        .bytes()
        .map(|b| match b {
            b'"' | b'\\' | b'\n' | b'\r' | b'\t' | 0x08 | 0x0c => 2,
            0..0x20 => 6,
            _ => 1,
        })
        .sum::<usize>()
}

/// The length of `n` as serde_json writes it, without writing it anywhere.
fn written_len(n: &serde_json::Number) -> usize {
    // Integers, most of a schema's numbers, are counted digit by digit.
    if let Some(u) = n.as_u64() {
        return u.checked_ilog10().map_or(1, |digits| digits as usize + 1);
    }
    if let Some(i) = n.as_i64().filter(|i| *i < 0) {
        return 1 + i.unsigned_abs().ilog10() as usize + 1;
    }
    struct Count(usize);
    impl std::fmt::Write for Count {
        fn write_str(&mut self, s: &str) -> std::fmt::Result {
            self.0 += s.len();
            Ok(())
        }
    }
    let mut count = Count(0);
    // Writing to a counter cannot fail.
    let _ = std::fmt::Write::write_fmt(&mut count, format_args!("{n}"));
    count.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn schema_size_is_the_compact_length() {
        let documents = [
            json!({"description": "plain text", "maximum": 1e300, "minimum": -0.5, "x": 12345}),
            json!({"q\"uote": "a\\b\nc\td\u{1}e\u{7f}é🙂", "n": [null, true, false, 0, -7]}),
            json!([[], {}, "", [[["deep"]]], {"k": {"v": 18446744073709551615u64}}]),
            json!([
                0,
                9,
                10,
                99,
                100,
                -1,
                -9,
                -10,
                -100,
                i64::MIN,
                i64::MAX,
                -0.0,
                0.1,
                1e-7
            ]),
        ];
        for document in documents {
            let exact = serde_json::to_string(&document).unwrap().len();
            for (limit, ok) in [(exact, true), (exact - 1, false)] {
                let limits = Limits::new().max_schema_size(limit);
                assert_eq!(check_document(&document, &limits).is_ok(), ok, "{document}");
            }
        }
    }
}
