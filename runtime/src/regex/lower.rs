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

/// Reports the leftmost construct a finite automaton cannot match.
pub(crate) fn check_supported(ast: &Ast, source: &str) -> Result<(), LowerError> {
    let mut found: Option<(Span, String)> = None;
    for node in &ast.nodes {
        let what = match &node.kind {
            NodeKind::Look { kind, .. } => match kind {
                LookKind::Ahead => "lookahead `(?=…)`",
                LookKind::NegativeAhead => "negative lookahead `(?!…)`",
                LookKind::Behind => "lookbehind `(?<=…)`",
                LookKind::NegativeBehind => "negative lookbehind `(?<!…)`",
            }
            .to_owned(),
            NodeKind::Backref(_) => format!(
                "backreference `{}`",
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
            message: format!(
                "{what} cannot be matched by a finite automaton (it needs a backtracking engine)"
            ),
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
            NodeKind::Assertion(assertion) => Hir::look(match assertion {
                Assertion::Start => Look::Start,
                Assertion::End => Look::End,
                Assertion::WordBoundary => Look::WordAscii,
                Assertion::NotWordBoundary => Look::WordAsciiNegate,
            }),
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
                    message:
                        "lookaround and backreferences cannot be matched by a finite automaton"
                            .to_owned(),
                });
            }
        };
        done.push(Some(hir));
    }
    Ok(take(&mut done, ast.root))
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
