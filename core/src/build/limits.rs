//! Size and depth checks on JSON documents, done without recursion so that no input can
//! exhaust the stack before a limit is reported.

use crate::error::{Error, ErrorClass, Failure};
use crate::options::Limits;
use crate::pointer;
use serde_json::Value;

/// Checks a schema document against the schema size and depth limits.
pub fn check_document(root: &Value, limits: &Limits) -> Result<(), Error> {
    let mut size = 0usize;
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
            Value::Object(map) => {
                size += map.keys().map(|k| string_size(k)).sum::<usize>();
                stack.extend(map.values().map(|v| (v, depth + 1)));
            }
            _ => {}
        }
    }
    Ok(())
}

/// The bytes a value takes in compact JSON (`serde_json::to_string`), not counting its
/// children: exact, so that a limit set to a document's length admits it.
fn compact_size(value: &Value) -> usize {
    match value {
        Value::Null => 4,
        Value::Bool(true) => 4,
        Value::Bool(false) => 5,
        Value::Number(n) => n.to_string().len(),
        Value::String(s) => string_size(s),
        // Brackets and the commas between items.
        Value::Array(items) => 2 + items.len().saturating_sub(1),
        // Braces, the commas between members and each member's colon.
        Value::Object(map) => 2 + map.len().saturating_sub(1) + map.len(),
    }
}

/// The length of a string as serde_json writes it: quotes and escapes included.
fn string_size(s: &str) -> usize {
    2 + s
        .bytes()
        .map(|b| match b {
            b'"' | b'\\' | b'\n' | b'\r' | b'\t' | 0x08 | 0x0c => 2,
            0..0x20 => 6,
            _ => 1,
        })
        .sum::<usize>()
}

/// Deepest argument nesting the recursive fast walk is trusted with.
const FAST_WALK_MAX_DEPTH: usize = 256;

/// Whether `value` is within the limits; the fast path, which says nothing of where.
fn within(value: &Value, depth: usize, limits: &Limits, count: &mut usize) -> bool {
    *count += 1;
    if *count > limits.max_argument_nodes {
        return false;
    }
    match value {
        Value::String(s) => s.len() <= limits.max_argument_string_length,
        Value::Array(items) => {
            items.is_empty()
                || (depth < limits.max_argument_depth
                    && items.iter().all(|v| within(v, depth + 1, limits, count)))
        }
        Value::Object(map) => {
            map.is_empty()
                || (depth < limits.max_argument_depth
                    && map.iter().all(|(k, v)| {
                        k.len() <= limits.max_argument_string_length
                            && within(v, depth + 1, limits, count)
                    }))
        }
        _ => true,
    }
}

/// Checks arguments against the argument limits: depth, number of values, string length
/// (member names included).
///
/// The walk keeps its own stack, so no depth limit, however high, lets the arguments exhaust
/// the native stack; it allocates only that stack and, when a limit is reached, the pointer.
pub fn check_arguments(root: &Value, limits: &Limits) -> Result<(), Failure> {
    let mut count = 0usize;
    // The common case, within every limit, takes a recursive walk that allocates nothing;
    // its recursion is bounded by the depth limit, so it is used only while that limit is
    // one the stack can take. Anything else, and any overrun, takes the iterative walk,
    // which also says where.
    if limits.max_argument_depth <= FAST_WALK_MAX_DEPTH && within(root, 0, limits, &mut count) {
        return Ok(());
    }
    count = 0;
    let mut frames: Vec<Frame<'_>> = Vec::new();
    let mut next = Some(root);
    loop {
        if let Some(value) = next.take() {
            count += 1;
            if count > limits.max_argument_nodes {
                return Err(overrun(
                    &frames,
                    format!(
                        "the arguments hold more than the limit of {} values",
                        limits.max_argument_nodes
                    ),
                ));
            }
            let children = match value {
                Value::String(s) => {
                    check_string(s, &frames, limits)?;
                    None
                }
                Value::Array(items) if !items.is_empty() => {
                    Some(Children::Array(items.iter().enumerate()))
                }
                Value::Object(map) if !map.is_empty() => Some(Children::Object(map.iter())),
                _ => None,
            };
            if let Some(children) = children {
                if frames.len() >= limits.max_argument_depth {
                    return Err(overrun(
                        &frames,
                        format!(
                            "the arguments nest deeper than the limit of {} levels",
                            limits.max_argument_depth
                        ),
                    ));
                }
                frames.push(Frame {
                    children,
                    token: Token::Index(0),
                });
            }
        }
        let Some(frame) = frames.last_mut() else {
            return Ok(());
        };
        match &mut frame.children {
            Children::Array(items) => match items.next() {
                Some((i, item)) => {
                    frame.token = Token::Index(i);
                    next = Some(item);
                }
                None => {
                    frames.pop();
                }
            },
            Children::Object(members) => match members.next() {
                Some((key, item)) => {
                    frame.token = Token::Key(key);
                    check_string(key, &frames, limits)?;
                    next = Some(item);
                }
                None => {
                    frames.pop();
                }
            },
        }
    }
}

enum Children<'a> {
    Array(std::iter::Enumerate<std::slice::Iter<'a, Value>>),
    Object(serde_json::map::Iter<'a>),
}

enum Token<'a> {
    Index(usize),
    Key(&'a str),
}

/// An open array or object: what is left of it, and the member being walked.
struct Frame<'a> {
    children: Children<'a>,
    token: Token<'a>,
}

fn check_string(s: &str, frames: &[Frame<'_>], limits: &Limits) -> Result<(), Failure> {
    if s.len() > limits.max_argument_string_length {
        return Err(overrun(
            frames,
            format!(
                "the string is longer than the limit of {} bytes",
                limits.max_argument_string_length
            ),
        ));
    }
    Ok(())
}

/// The failure at the value the walk is on.
fn overrun(frames: &[Frame<'_>], message: String) -> Failure {
    let path: Vec<String> = frames
        .iter()
        .map(|f| match f.token {
            Token::Index(i) => i.to_string(),
            Token::Key(k) => k.to_string(),
        })
        .collect();
    Failure::new(pointer::join(&path), "", None, "", message)
}
