//! Patterns simple enough to check with string operations.
//!
//! A shape is only reported when it matches exactly the strings the regex
//! matches. That rests on three facts of the pattern dialect: there are no
//! flags (so no case folding and no multiline anchors), `^` / `$` assert the
//! start / end of the whole input, and a literal character matches exactly
//! itself.

use super::ast::{Assertion, Ast, NodeId, NodeKind};
use super::lower;
use crate::eval::member::{same_bytes, same_name};

/// A pattern checked without a regex engine: each variant states the exact
/// string test that is equivalent to the pattern.
///
/// ```
/// use toolschema::regex::{Pattern, Shape, DEFAULT_SIZE_LIMIT};
///
/// let p = Pattern::new("^[a-z_]{1,64}$", DEFAULT_SIZE_LIMIT).unwrap();
/// assert_eq!(
///     p.shape(),
///     Some(&Shape::ClassRepeat { ranges: vec![('_', '_'), ('a', 'z')], min: 1, max: Some(64) })
/// );
/// assert!(p.shape().unwrap().is_match("get_weather"));
/// assert!(!p.shape().unwrap().is_match("GetWeather"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Matches any string containing the literal: an unanchored pattern of
    /// literal characters, e.g. `abc` or `https\:\/\/`.
    Contains(String),
    /// `^literal`: the string starts with the literal.
    Prefix(String),
    /// `^abc$` or `^(?:a|b|c)$`: the whole string is one of the literals.
    Exact(Vec<String>),
    /// `^[class]{min,max}$`, `^[class]+$`, `^[class]*$`, `^\d{4}$`, `^.*$`…:
    /// every character lies in one of `ranges` and the number of characters
    /// is within `min..=max` (`max: None` is unbounded).
    ///
    /// `ranges` are inclusive, sorted by start and disjoint (shapes built by
    /// [`Pattern`](super::Pattern) always are; `is_match` relies on it).
    ClassRepeat {
        ranges: Vec<(char, char)>,
        min: u32,
        max: Option<u32>,
    },
}

impl Shape {
    /// Whether `haystack` matches, with the same answer as the pattern the
    /// shape came from.
    ///
    /// ```
    /// use toolschema::regex::Shape;
    ///
    /// assert!(Shape::Prefix("https://".into()).is_match("https://example.com"));
    /// assert!(Shape::Exact(vec!["asc".into(), "desc".into()]).is_match("desc"));
    /// assert!(!Shape::Contains("@".into()).is_match("nobody"));
    /// ```
    pub fn is_match(&self, haystack: &str) -> bool {
        match self {
            Shape::Contains(lit) => haystack.contains(lit.as_str()),
            // Literals are short: compared as machine words, without a call to `memcmp`.
            Shape::Prefix(lit) => haystack
                .as_bytes()
                .get(..lit.len())
                .is_some_and(|head| same_bytes(head, lit.as_bytes())),
            Shape::Exact(lits) => lits.iter().any(|lit| same_name(lit, haystack)),
            Shape::ClassRepeat { ranges, min, max } => {
                class_repeat_match(haystack, &ascii_table(ranges), ranges, *min, *max)
            }
        }
    }
}

/// The ASCII characters among `ranges` as a table of every byte value, so that
/// [`class_repeat_match`] tests a byte with one load instead of a search. Bytes from 0x80 up,
/// which start or continue a multi-byte character, are never in it. A `const fn`, so that
/// generated code builds the table at compile time.
///
/// ```
/// use toolschema::regex::ascii_table;
///
/// let digits = ascii_table(&[('0', '9')]);
/// assert!(digits[b'7' as usize] && !digits[b'a' as usize]);
/// assert!(!ascii_table(&[('\0', char::MAX)])[0xc3]);
/// ```
pub const fn ascii_table(ranges: &[(char, char)]) -> [bool; 256] {
    let mut table = [false; 256];
    let mut r = 0;
    while r < ranges.len() {
        let (start, end) = (ranges[r].0 as usize, ranges[r].1 as usize);
        let mut b = start;
        while b <= end && b < 0x80 {
            table[b] = true;
            b += 1;
        }
        r += 1;
    }
    table
}

/// [`Shape::ClassRepeat`]'s test, with its ASCII table built once ([`ascii_table`] of the
/// same `ranges`): every character of `haystack` lies in `ranges`, and there are `min..=max`
/// of them.
///
/// ```
/// use toolschema::regex::{ascii_table, class_repeat_match};
///
/// let ranges = [('0', '9'), ('a', 'f'), ('é', 'é')];
/// let table = ascii_table(&ranges);
/// assert!(class_repeat_match("c0ffee", &table, &ranges, 1, Some(8)));
/// assert!(class_repeat_match("cafébabe", &table, &ranges, 8, Some(8)));
/// assert!(!class_repeat_match("coffee", &table, &ranges, 1, Some(8)));
/// assert!(!class_repeat_match(&"f".repeat(40), &table, &ranges, 1, Some(32)));
/// assert!(!class_repeat_match("", &table, &ranges, 1, None));
/// ```
#[inline]
pub fn class_repeat_match(
    haystack: &str,
    table: &[bool; 256],
    ranges: &[(char, char)],
    min: u32,
    max: Option<u32>,
) -> bool {
    let bytes = haystack.as_bytes();
    // A character takes one to four bytes, so the byte length bounds the count both ways
    // before any character is read.
    let max = max.map_or(usize::MAX, |m| m as usize);
    if bytes.len() < min as usize || bytes.len() / 4 > max {
        return false;
    }
    // Every byte ASCII and in the class, the common case: tested one load a byte with no exit
    // inside a block, so each character is one byte. A short string is one block; a long one
    // stops at the first block with any other byte, and is read on from there.
    const BLOCK: usize = 64;
    let in_class = |block: &[u8]| block.iter().fold(true, |ok, &b| ok & table[usize::from(b)]);
    let mut i = 0;
    if bytes.len() <= BLOCK {
        if in_class(bytes) {
            return bytes.len() <= max;
        }
    } else {
        for block in bytes.chunks(BLOCK) {
            if !in_class(block) {
                break;
            }
            i += block.len();
        }
        if i == bytes.len() {
            return bytes.len() <= max;
        }
    }
    // Every byte before `i` is a character of the class.
    let mut count = i;
    while let Some(&b) = bytes.get(i) {
        if b < 0x80 {
            if !table[usize::from(b)] {
                return false;
            }
            i += 1;
        } else {
            let Some(c) = haystack.get(i..).and_then(|rest| rest.chars().next()) else {
                return false;
            };
            if !in_ranges(ranges, c) {
                return false;
            }
            i += c.len_utf8();
        }
        count += 1;
        if count > max {
            return false;
        }
    }
    count >= min as usize
}

fn in_ranges(ranges: &[(char, char)], c: char) -> bool {
    let i = ranges.partition_point(|&(_, end)| end < c);
    ranges.get(i).is_some_and(|&(start, _)| start <= c)
}

/// The shape of a parsed pattern, if it has one. Only called on trees that
/// passed the nesting limit, which bounds the recursion here.
pub(crate) fn detect(ast: &Ast) -> Option<Shape> {
    let seq: &[NodeId] = match &ast.nodes[ast.root].kind {
        NodeKind::Concat(items) => items,
        _ => std::slice::from_ref(&ast.root),
    };
    let is = |id: NodeId, want: Assertion| matches!(ast.nodes[id].kind, NodeKind::Assertion(a) if a == want);
    match seq {
        [first, middle @ .., last] if is(*first, Assertion::Start) && is(*last, Assertion::End) => {
            anchored(ast, middle)
        }
        [first, rest @ ..] if is(*first, Assertion::Start) => literal(ast, rest).map(Shape::Prefix),
        _ => literal(ast, seq).map(Shape::Contains),
    }
}

/// The part between `^` and `$`.
fn anchored(ast: &Ast, middle: &[NodeId]) -> Option<Shape> {
    if let Some(lit) = literal(ast, middle) {
        return Some(Shape::Exact(vec![lit]));
    }
    let [only] = middle else { return None };
    let mut id = *only;
    // `^(?:a|b)$` and `^(a|b)$`: one group of literal alternatives.
    if let NodeKind::Group { sub, .. } = ast.nodes[id].kind {
        if let NodeKind::Alternation(alts) = &ast.nodes[sub].kind {
            return alts
                .iter()
                .map(|&alt| literal(ast, &[alt]))
                .collect::<Option<Vec<_>>>()
                .map(Shape::Exact);
        }
    }
    let (min, max) = match ast.nodes[id].kind {
        NodeKind::Repeat { min, max, sub, .. } => {
            id = sub;
            (
                u32::try_from(min).ok()?,
                match max {
                    Some(max) => Some(u32::try_from(max).ok()?),
                    None => None,
                },
            )
        }
        _ => (1, Some(1)),
    };
    let ranges = class_atom(ast, id)?;
    Some(Shape::ClassRepeat { ranges, min, max })
}

/// The code points of a single-character atom, as sorted disjoint ranges.
fn class_atom(ast: &Ast, id: NodeId) -> Option<Vec<(char, char)>> {
    let node = &ast.nodes[id];
    let set = match &node.kind {
        NodeKind::Char(cp) => {
            let c = char::from_u32(*cp)?;
            return Some(vec![(c, c)]);
        }
        NodeKind::Dot => super::unicode::dot(),
        NodeKind::Escape(escape) => lower::escape_set(*escape, node.span).ok()?,
        NodeKind::Class(class) => lower::class_set(class, node.span).ok()?,
        NodeKind::Group { sub, .. } => return class_atom(ast, *sub),
        _ => return None,
    };
    Some(set.ranges().iter().map(|r| (r.start(), r.end())).collect())
}

/// The string a sequence of nodes matches, if it is made of literal
/// characters only (groups around literals included).
fn literal(ast: &Ast, ids: &[NodeId]) -> Option<String> {
    let mut out = String::new();
    for &id in ids {
        push_literal(ast, id, &mut out)?;
    }
    Some(out)
}

fn push_literal(ast: &Ast, id: NodeId, out: &mut String) -> Option<()> {
    match &ast.nodes[id].kind {
        NodeKind::Empty => {}
        NodeKind::Char(cp) => out.push(char::from_u32(*cp)?),
        NodeKind::Group { sub, .. } => push_literal(ast, *sub, out)?,
        NodeKind::Concat(items) => {
            for &item in items {
                push_literal(ast, item, out)?;
            }
        }
        _ => return None,
    }
    Some(())
}
