//! Member lookup: names compared as machine words, small objects scanned.

use serde_json::{Map, Value};

/// `instance`'s member `property`, if `instance` is an object that holds it.
#[inline]
pub fn discriminating_member<'v>(instance: &'v Value, property: &str) -> Option<&'v Value> {
    instance.as_object().and_then(|map| member(map, property))
}

/// Objects of at most this many members are searched by [`member`] one name after another.
const SCANNED_MEMBERS: usize = 11;

/// `map`'s member `name`. A small object (one node of the B-tree) is scanned, comparing names
/// as machine words ([`same_name`]): cheaper than the tree's ordered search, which calls
/// `memcmp` for every name it passes.
///
/// ```
/// use serde_json::json;
/// use toolschema::ir::member;
/// let call = json!({"path": "a", "mode": "r"});
/// let map = call.as_object().unwrap();
/// assert_eq!(member(map, "mode"), Some(&json!("r")));
/// assert_eq!(member(map, "size"), None);
/// ```
#[inline]
pub fn member<'v>(map: &'v Map<String, Value>, name: &str) -> Option<&'v Value> {
    if map.len() <= SCANNED_MEMBERS {
        map.iter().find(|(k, _)| same_name(k, name)).map(|(_, v)| v)
    } else {
        map.get(name)
    }
}

/// Whether `map` has a member `name` (see [`member`]).
#[inline]
pub fn has_member(map: &Map<String, Value>, name: &str) -> bool {
    member(map, name).is_some()
}

/// Whether a branch requiring the member to be one of `values` may still hold: the member is
/// absent, or one of them.
#[inline]
pub fn admits<S: AsRef<str>>(member: Option<&Value>, values: &[S]) -> bool {
    match member {
        None => true,
        Some(m) => m
            .as_str()
            .is_some_and(|s| values.iter().any(|v| same_name(v.as_ref(), s))),
    }
}

/// Whether two member names are equal. Names are short: up to sixteen bytes they are compared
/// as two overlapping machine words, without a call to `memcmp`.
///
/// ```
/// use toolschema::ir::same_name;
/// assert!(same_name("timeout_ms", "timeout_ms"));
/// assert!(!same_name("timeout_ms", "timeout_us"));
/// assert!(!same_name("a", "ab"));
/// ```
// Generated code calls this with a literal `b`: inlined, the length is known and the test is
// one or two word comparisons, whatever the caller's size.
#[inline(always)]
pub fn same_name(a: &str, b: &str) -> bool {
    same_bytes(a.as_bytes(), b.as_bytes())
}

/// [`same_name`] of byte strings: for a pattern's literal, compared with part of a string.
///
/// ```
/// use toolschema::ir::same_bytes;
/// assert!(same_bytes(&b"x-trace"[..2], b"x-"));
/// assert!(!same_bytes(b"x-", b"y-"));
/// ```
#[inline(always)]
pub fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    let word8 =
        |s: &[u8], at: usize| u64::from_le_bytes(s[at..at + 8].try_into().unwrap_or([0; 8]));
    let word4 =
        |s: &[u8], at: usize| u32::from_le_bytes(s[at..at + 4].try_into().unwrap_or([0; 4]));
    match n {
        0 => true,
        1..4 => a.iter().zip(b).all(|(x, y)| x == y),
        4..8 => word4(a, 0) == word4(b, 0) && word4(a, n - 4) == word4(b, n - 4),
        8..=16 => word8(a, 0) == word8(b, 0) && word8(a, n - 8) == word8(b, n - 8),
        _ => a == b,
    }
}

/// A member name's first eight bytes as a number, zero past its end.
///
/// ```
/// use toolschema::ir::name_prefix;
/// assert_eq!(name_prefix("ab"), u64::from_le_bytes(*b"ab\0\0\0\0\0\0"));
/// assert_eq!(name_prefix("timeout_ms"), u64::from_le_bytes(*b"timeout_"));
/// ```
pub fn name_prefix(name: &str) -> u64 {
    let b = name.as_bytes();
    let n = b.len();
    let word4 = |at: usize| {
        u64::from(u32::from_le_bytes(
            b[at..at + 4].try_into().unwrap_or([0; 4]),
        ))
    };
    match n {
        0 => 0,
        1..4 => b
            .iter()
            .rev()
            .fold(0, |word, &byte| word << 8 | u64::from(byte)),
        // Two overlapping halves: the bytes they share are the same, so OR keeps them.
        4..8 => word4(0) | word4(n - 4) << (8 * (n - 4)),
        _ => u64::from_le_bytes(b[..8].try_into().unwrap_or([0; 8])),
    }
}

/// The hash of a member name in [`ObjectPlan::property_slots`]: its length and its first and
/// last eight bytes (overlapping for shorter names), so it costs the same for any name. Names
/// that agree there only share a probe sequence; [`same_name`] still decides, and the probe
/// length is bounded by the schema's own names, whatever the arguments hold.
pub fn name_hash(name: &str) -> u64 {
    let b = name.as_bytes();
    let n = b.len();
    let word8 = |at: usize| u64::from_le_bytes(b[at..at + 8].try_into().unwrap_or([0; 8]));
    let word4 = |at: usize| {
        u64::from(u32::from_le_bytes(
            b[at..at + 4].try_into().unwrap_or([0; 4]),
        ))
    };
    let (first, last) = match n {
        0 => (0, 0),
        1..4 => (
            u64::from(b[0]) | u64::from(b[n / 2]) << 8,
            u64::from(b[n - 1]),
        ),
        4..8 => (word4(0), word4(n - 4)),
        _ => (word8(0), word8(n - 8)),
    };
    let mix = |h: u64, word: u64| {
        (h ^ word)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(29)
    };
    mix(mix(mix(0, n as u64), first), last)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_name_is_equality() {
        let names = [
            "",
            "a",
            "ab",
            "abc",
            "abcd",
            "abcde",
            "abcdefg",
            "abcdefgh",
            "abcdefghi",
            "abcdefghijklmnop",
            "abcdefghijklmnopq",
            "abcdefghijklmnopqrstuvwxyz0123456789",
        ];
        for a in names {
            for b in names {
                assert_eq!(same_name(a, b), a == b, "{a} {b}");
                // One byte changed anywhere.
                for i in 0..b.len() {
                    let mut c = b.as_bytes().to_vec();
                    c[i] ^= 1;
                    let c = String::from_utf8(c).unwrap();
                    assert_eq!(same_name(a, &c), a == c, "{a} {c}");
                }
            }
        }
    }

    #[test]
    fn name_prefix_is_the_first_eight_bytes() {
        for n in 0..20 {
            let name: String = (0..n).map(|i| char::from(b'a' + i as u8)).collect();
            let mut padded = [0u8; 8];
            let head = &name.as_bytes()[..n.min(8)];
            padded[..head.len()].copy_from_slice(head);
            assert_eq!(name_prefix(&name), u64::from_le_bytes(padded), "{name}");
        }
    }
}
