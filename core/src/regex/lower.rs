//! AST → `regex_syntax::hir::Hir`.
//!
//! Every node maps to HIR built with the HIR constructors; nothing is ever
//! re-escaped into regex text. Capture groups lower to their contents:
//! without backreferences no capture is observable through `is_match`, and
//! leaving them out keeps the automaton smaller.

use regex_syntax::hir::{Class as HirClass, ClassUnicode, Hir, Look, Repetition};

use super::ast::{Assertion, Ast, Class, ClassEscape, ClassItem, LookKind, NodeKind, Span};
use super::unicode::{self, Property};

/// Why a syntactically valid pattern does not lower.
#[derive(Debug)]
pub(crate) enum LowerError {
    /// Valid ECMA-262 without an automaton equivalent (or without data).
    Unsupported { offset: usize, message: String },
    /// A bound the automaton engine cannot represent.
    TooLarge { offset: usize, message: String },
}

/// Reports the leftmost construct the automaton engine cannot match.
pub(crate) fn check_supported(ast: &Ast, source: &str) -> Result<(), LowerError> {
    const LOOKAROUND: &str = "is not supported: the linear-time automaton engine has no lookaround";
    let mut found: Option<(Span, String)> = None;
    for node in &ast.nodes {
        let what = match &node.kind {
            NodeKind::Look { kind, .. } => {
                let name = match kind {
                    LookKind::Ahead => "lookahead `(?=…)`",
                    LookKind::NegativeAhead => "negative lookahead `(?!…)`",
                    LookKind::Behind => "lookbehind `(?<=…)`",
                    LookKind::NegativeBehind => "negative lookbehind `(?<!…)`",
                };
                format!("{name} {LOOKAROUND}")
            }
            NodeKind::Backref(_) => format!(
                "backreference `{}` is not supported: backreferences match non-regular languages, which no finite automaton can",
                &source[node.span.start..node.span.end]
            ),
            _ => continue,
        };
        if found
            .as_ref()
            .is_none_or(|(span, _)| node.span.start < span.start)
        {
            found = Some((node.span, what));
        }
    }
    match found {
        None => Ok(()),
        Some((span, what)) => Err(LowerError::Unsupported {
            offset: span.start,
            message: what,
        }),
    }
}

/// Lowers the tree bottom-up in arena order (children first), so no
/// recursion is involved however deep the pattern nests.
///
/// `size_limit` also bounds the class data held in the HIR: a class of n
/// ranges compiles to at least n NFA transitions, so classes whose ranges
/// alone exceed the limit can never fit, and stopping here keeps a short
/// pattern such as `\p{L}` repeated 25 000 times from first allocating
/// hundreds of megabytes of HIR.
pub(crate) fn lower(ast: &Ast, size_limit: usize) -> Result<Hir, LowerError> {
    let mut done: Vec<Option<Hir>> = Vec::with_capacity(ast.nodes.len());
    let mut class_bytes: usize = 0;
    let mut class_hir = |class: ClassUnicode, span: Span| {
        let bytes = std::mem::size_of_val(class.ranges());
        class_bytes = class_bytes.saturating_add(bytes);
        if class_bytes > size_limit {
            return Err(LowerError::TooLarge {
                offset: span.start,
                message: format!(
                    "the character classes need more than the size limit of {size_limit} bytes"
                ),
            });
        }
        Ok(Hir::class(HirClass::Unicode(class)))
    };
    for node in &ast.nodes {
        let span = node.span;
        let hir = match &node.kind {
            NodeKind::Empty => Hir::empty(),
            NodeKind::Char(cp) => match char::from_u32(*cp) {
                Some(c) => Hir::literal(c.encode_utf8(&mut [0; 4]).as_bytes()),
                // A lone surrogate: no Rust string contains one.
                None => Hir::fail(),
            },
            NodeKind::Dot => class_hir(unicode::dot(), span)?,
            NodeKind::Escape(escape) => class_hir(escape_set(*escape, span)?, span)?,
            NodeKind::Class(class) => class_hir(class_set(class, span)?, span)?,
            NodeKind::Assertion(assertion) => match assertion {
                Assertion::Start => Hir::look(Look::Start),
                Assertion::End => Hir::look(Look::End),
                // `\b` needs an ASCII word character on one side, so it
                // never holds inside a multi-byte character.
                Assertion::WordBoundary => Hir::look(Look::WordAscii),
                Assertion::NotWordBoundary => not_word_boundary(),
            },
            NodeKind::Group { sub, .. } => take(&mut done, *sub),
            NodeKind::Repeat {
                min,
                max,
                greedy,
                sub,
            } => {
                let bound = |n: u64| {
                    u32::try_from(n).map_err(|_| LowerError::TooLarge {
                        offset: span.start,
                        message: format!(
                            "repetition count {n} exceeds the largest the automaton supports ({})",
                            u32::MAX
                        ),
                    })
                };
                let min = bound(*min)?;
                let max = max.map(bound).transpose()?;
                Hir::repetition(Repetition {
                    min,
                    max,
                    greedy: *greedy,
                    sub: Box::new(take(&mut done, *sub)),
                })
            }
            NodeKind::Concat(subs) => {
                Hir::concat(subs.iter().map(|&s| take(&mut done, s)).collect())
            }
            NodeKind::Alternation(subs) => {
                Hir::alternation(subs.iter().map(|&s| take(&mut done, s)).collect())
            }
            NodeKind::Look { .. } | NodeKind::Backref(_) => {
                return Err(LowerError::Unsupported {
                    offset: span.start,
                    message: "lookaround and backreferences are not supported".to_owned(),
                });
            }
        };
        done.push(Some(hir));
    }
    Ok(take(&mut done, ast.root))
}

/// ECMA-262 `\B`: no ASCII word boundary, at a character boundary.
///
/// The engine evaluates looks at byte offsets, and `WordAsciiNegate` also
/// holds inside a multi-byte character (both neighbouring bytes are
/// non-word), where ECMA-262 has no position at all. The engine then
/// discards the resulting empty matches, but by re-running the search from
/// one byte further each time, which is quadratic (and, in its
/// earliest-match mode, can even lose a match already under way). At any
/// character boundary of valid UTF-8 exactly one of `WordUnicode` and
/// `WordUnicodeNegate` holds, and inside a character neither does, so
/// requiring one of them confines `\B` to character boundaries. The cost:
/// on non-ASCII haystacks the DFAs cannot evaluate Unicode word looks, so
/// patterns with `\B` run on the (still linear) NFA simulation there.
fn not_word_boundary() -> Hir {
    Hir::concat(vec![
        Hir::look(Look::WordAsciiNegate),
        Hir::alternation(vec![
            Hir::look(Look::WordUnicode),
            Hir::look(Look::WordUnicodeNegate),
        ]),
    ])
}

fn take(done: &mut [Option<Hir>], id: usize) -> Hir {
    done.get_mut(id)
        .and_then(Option::take)
        .unwrap_or_else(Hir::fail)
}

/// The code points of a class escape.
pub(crate) fn escape_set(escape: ClassEscape, span: Span) -> Result<ClassUnicode, LowerError> {
    let (mut set, negated) = match escape {
        ClassEscape::Digit { negated } => (unicode::digit(), negated),
        ClassEscape::Word { negated } => (unicode::word(), negated),
        ClassEscape::Space { negated } => (unicode::space().clone(), negated),
        ClassEscape::Property { negated, property } => (property_set(property, span)?, negated),
    };
    if negated {
        set.negate();
    }
    Ok(set)
}

fn property_set(property: Property, span: Span) -> Result<ClassUnicode, LowerError> {
    property.class().ok_or_else(|| {
        let name = match property {
            Property::GeneralCategory(n)
            | Property::Script(n)
            | Property::ScriptExtensions(n)
            | Property::Binary(n) => n,
        };
        LowerError::Unsupported {
            offset: span.start,
            message: format!("unicode property `{name}` has no data in the bundled unicode tables"),
        }
    })
}

/// The code points a `[…]` class matches (negation applied).
pub(crate) fn class_set(class: &Class, span: Span) -> Result<ClassUnicode, LowerError> {
    let mut set = ClassUnicode::empty();
    for item in &class.items {
        match item {
            ClassItem::Range(a, b) => unicode::push_code_points(&mut set, *a, *b),
            ClassItem::Escape(escape) => set.union(&escape_set(*escape, span)?),
        }
    }
    if class.negated {
        set.negate();
    }
    Ok(set)
}
