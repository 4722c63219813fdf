//! The argument limits (depth, number of values, string length), checked by a walk that
//! cannot exhaust the stack (or admitted during evaluation: [`super::admission`]).

use crate::error::Failure;
use crate::options::Limits;
use crate::pointer;
use serde_json::Value;

/// Deepest argument nesting the recursive fast walk is trusted with.
pub(super) const FAST_WALK_MAX_DEPTH: usize = 256;

/// Whether `value`, already counted, holds members within the limits: `depth_left` more
/// levels of non-empty containers may nest inside it, and `nodes_left` values may still
/// come. The fast path, which says nothing of where.
///
/// A container's members are counted in one step, and only members that are containers
/// are recursed into, so scalars cost no call.
pub(super) fn members_within(
    value: &Value,
    depth_left: usize,
    nodes_left: &mut usize,
    max_string: usize,
) -> bool {
    match value {
        Value::Array(items) if !items.is_empty() => {
            if depth_left == 0 || items.len() > *nodes_left {
                return false;
            }
            *nodes_left -= items.len();
            items
                .iter()
                .all(|v| member_within(v, depth_left, nodes_left, max_string))
        }
        Value::Object(map) if !map.is_empty() => {
            if depth_left == 0 || map.len() > *nodes_left {
                return false;
            }
            *nodes_left -= map.len();
            map.iter().all(|(k, v)| {
                k.len() <= max_string && member_within(v, depth_left, nodes_left, max_string)
            })
        }
        _ => true,
    }
}

/// Whether a member (already counted) of a container that `depth_left` levels may still
/// hold is within the limits.
#[inline]
pub(super) fn member_within(
    v: &Value,
    depth_left: usize,
    nodes_left: &mut usize,
    max_string: usize,
) -> bool {
    // Scalars first, the commonest members, settled by one comparison of the tag.
    match v {
        Value::Null | Value::Bool(_) | Value::Number(_) => true,
        Value::String(s) => s.len() <= max_string,
        Value::Array(a) if a.is_empty() => true,
        Value::Object(m) if m.is_empty() => true,
        Value::Array(_) | Value::Object(_) => {
            members_within(v, depth_left - 1, nodes_left, max_string)
        }
    }
}

/// Whether `root` is within the limits (see [`members_within`]).
fn within(root: &Value, limits: &Limits) -> bool {
    limits.max_argument_depth <= FAST_WALK_MAX_DEPTH
        && arguments_within(
            root,
            limits.max_argument_depth,
            limits.max_argument_nodes,
            limits.max_argument_string_length,
        )
}

/// Whether `root` is within these argument limits, by the recursive walk; the caller keeps
/// `max_depth` within [`FAST_WALK_MAX_DEPTH`].
fn arguments_within(root: &Value, max_depth: usize, max_nodes: usize, max_string: usize) -> bool {
    let Some(mut nodes_left) = max_nodes.checked_sub(1) else {
        return false;
    };
    match root {
        Value::String(s) => s.len() <= max_string,
        _ => members_within(root, max_depth, &mut nodes_left, max_string),
    }
}

/// Whether `root` is within the argument limits, as [`check_arguments`] decides, without
/// saying where it is not: what a first-failure check asks.
pub fn arguments_hold(root: &Value, max_depth: usize, max_nodes: usize, max_string: usize) -> bool {
    if max_depth <= FAST_WALK_MAX_DEPTH {
        return arguments_within(root, max_depth, max_nodes, max_string);
    }
    let limits = Limits::new()
        .max_argument_depth(max_depth)
        .max_argument_nodes(max_nodes)
        .max_argument_string_length(max_string);
    walk(root, &limits).is_ok()
}

/// Checks arguments against the argument limits: depth, number of values, string length
/// (member names included).
///
/// The walk keeps its own stack, so no depth limit, however high, lets the arguments exhaust
/// the native stack; it allocates only that stack and, when a limit is reached, the pointer.
pub fn check_arguments(root: &Value, limits: &Limits) -> Result<(), Failure> {
    // The common case, within every limit, takes a recursive walk that allocates nothing;
    // its recursion is bounded by the depth limit, so it is used only while that limit is
    // one the stack can take. Anything else, and any overrun, takes the iterative walk,
    // which also says where.
    if within(root, limits) {
        return Ok(());
    }
    walk(root, limits)
}

/// The iterative walk of [`check_arguments`]: no recursion, and the location of an overrun.
fn walk(root: &Value, limits: &Limits) -> Result<(), Failure> {
    let mut count = 0usize;
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

/// The argument limits, checked exactly as [`crate::Validator`] checks them.
pub fn check_argument_limits(
    instance: &Value,
    max_depth: usize,
    max_nodes: usize,
    max_string_length: usize,
) -> Result<(), Failure> {
    let limits = Limits::new()
        .max_argument_depth(max_depth)
        .max_argument_nodes(max_nodes)
        .max_argument_string_length(max_string_length);
    check_arguments(instance, &limits)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The fast walk accepts exactly what the iterative walk accepts, at every edge.
    #[test]
    fn fast_walk_agrees_with_the_iterative_walk() {
        let values = [
            json!(null),
            json!("abcd"),
            json!([]),
            json!({}),
            json!([1, "ab", [], {}]),
            json!({"abc": [1, [2, [3]]], "d": {"e": "fgh"}}),
            json!([[[["deep"]]]]),
            json!({"a": {"b": {"c": {}}}}),
            json!([{"k": [true, false, null]}, "xyz", 1.5]),
        ];
        for v in &values {
            for depth in 0..6 {
                for nodes in 0..16 {
                    for string in 0..5 {
                        let limits = Limits::new()
                            .max_argument_depth(depth)
                            .max_argument_nodes(nodes)
                            .max_argument_string_length(string);
                        assert_eq!(
                            arguments_hold(v, depth, nodes, string),
                            walk(v, &limits).is_ok(),
                            "{v} with depth {depth}, nodes {nodes}, string {string}"
                        );
                        assert_eq!(
                            within(v, &limits),
                            walk(v, &limits).is_ok(),
                            "{v} with depth {depth}, nodes {nodes}, string {string}"
                        );
                    }
                }
            }
        }
    }
}
