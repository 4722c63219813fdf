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
        size += approximate_size(value);
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
                size += map.keys().map(|k| k.len() + 3).sum::<usize>();
                stack.extend(map.values().map(|v| (v, depth + 1)));
            }
            _ => {}
        }
    }
    Ok(())
}

/// The bytes a value takes in compact JSON, not counting its children.
fn approximate_size(value: &Value) -> usize {
    match value {
        Value::Null => 4,
        Value::Bool(_) => 5,
        Value::Number(_) => 8,
        Value::String(s) => s.len() + 2,
        Value::Array(items) => 1 + items.len(),
        Value::Object(map) => 1 + map.len(),
    }
}

/// Checks arguments against the argument limits: depth, number of values, string length.
///
/// Recursion here is bounded by `max_argument_depth`, so it cannot exhaust the stack, and the
/// walk allocates nothing unless a limit is reached.
pub fn check_arguments(root: &Value, limits: &Limits) -> Result<(), Failure> {
    let mut count = 0usize;
    if within(root, 0, limits, &mut count) {
        return Ok(());
    }
    // Past a limit: walk again, slowly, to say where.
    count = 0;
    walk_arguments(root, 0, limits, &mut count).map_err(|(mut path, message)| {
        path.reverse();
        Failure::new(pointer::join(&path), "", None, "", message)
    })
}

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
                    && map.values().all(|v| within(v, depth + 1, limits, count)))
        }
        _ => true,
    }
}

type Overrun = (Vec<String>, String);

fn walk_arguments(
    value: &Value,
    depth: usize,
    limits: &Limits,
    count: &mut usize,
) -> Result<(), Overrun> {
    *count += 1;
    if *count > limits.max_argument_nodes {
        return Err((
            Vec::new(),
            format!(
                "the arguments hold more than the limit of {} values",
                limits.max_argument_nodes
            ),
        ));
    }
    let nested = |e: Overrun, token: String| {
        let (mut path, message) = e;
        path.push(token);
        (path, message)
    };
    match value {
        Value::String(s) if s.len() > limits.max_argument_string_length => Err((
            Vec::new(),
            format!(
                "the string is longer than the limit of {} bytes",
                limits.max_argument_string_length
            ),
        )),
        Value::Array(items) if !items.is_empty() => {
            if depth >= limits.max_argument_depth {
                return Err(too_deep(limits));
            }
            for (i, item) in items.iter().enumerate() {
                walk_arguments(item, depth + 1, limits, count)
                    .map_err(|e| nested(e, i.to_string()))?;
            }
            Ok(())
        }
        Value::Object(map) if !map.is_empty() => {
            if depth >= limits.max_argument_depth {
                return Err(too_deep(limits));
            }
            for (key, item) in map {
                walk_arguments(item, depth + 1, limits, count)
                    .map_err(|e| nested(e, key.clone()))?;
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

fn too_deep(limits: &Limits) -> Overrun {
    (
        Vec::new(),
        format!(
            "the arguments nest deeper than the limit of {} levels",
            limits.max_argument_depth
        ),
    )
}
