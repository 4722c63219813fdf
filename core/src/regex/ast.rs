//! The syntax tree of one pattern, faithful to the source.
//!
//! Nodes live in one arena (`Ast::nodes`) and refer to their children by
//! index. A child is always pushed before its parent, so every child index is
//! smaller than its parent's: passes over the tree can run bottom-up in index
//! order without recursion, and dropping a tree of any depth is a flat
//! `Vec` drop.

use super::unicode::Property;

/// Index of a node in [`Ast::nodes`].
pub(crate) type NodeId = usize;

/// Byte offsets into the pattern source, `start..end`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Span {
    pub start: usize,
    pub end: usize,
}

#[derive(Debug)]
pub(crate) struct Ast {
    pub nodes: Vec<Node>,
    pub root: NodeId,
}

#[derive(Debug)]
pub(crate) struct Node {
    pub kind: NodeKind,
    pub span: Span,
}

#[derive(Debug)]
pub(crate) enum NodeKind {
    /// An empty alternative or group body.
    Empty,
    /// One code point: a literal character or a character escape. Lone
    /// surrogates (`\uD800`) are kept as written.
    Char(u32),
    /// `.`
    Dot,
    /// `\d \D \s \S \w \W \p{…} \P{…}` outside a class.
    Escape(ClassEscape),
    /// `[…]` / `[^…]`
    Class(Class),
    /// `^ $ \b \B`
    Assertion(Assertion),
    /// `(…)`, `(?<name>…)` or `(?:…)`. Which one is only visible in the
    /// span: capture numbers and names matter to backreferences alone, and
    /// the parser resolves those itself.
    Group {
        sub: NodeId,
    },
    /// `(?=…) (?!…) (?<=…) (?<!…)`
    Look {
        kind: LookKind,
        sub: NodeId,
    },
    /// A quantified atom. Bounds saturate at `u64::MAX`; the parser compares
    /// the written digits exactly, so saturation never hides `{n,m}` with
    /// `n > m`.
    Repeat {
        min: u64,
        max: Option<u64>,
        greedy: bool,
        sub: NodeId,
    },
    Concat(Vec<NodeId>),
    Alternation(Vec<NodeId>),
    /// `\N` or `\k<name>`.
    Backref(Backref),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ClassEscape {
    Digit { negated: bool },
    Word { negated: bool },
    Space { negated: bool },
    Property { negated: bool, property: Property },
}

#[derive(Debug)]
pub(crate) struct Class {
    pub negated: bool,
    pub items: Vec<ClassItem>,
}

#[derive(Debug)]
pub(crate) enum ClassItem {
    /// `a`, or `a-z` (inclusive code points; a single character is a range
    /// of one). Endpoints may be lone surrogates.
    Range(u32, u32),
    Escape(ClassEscape),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Assertion {
    Start,
    End,
    WordBoundary,
    NotWordBoundary,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LookKind {
    Ahead,
    NegativeAhead,
    Behind,
    NegativeBehind,
}

#[derive(Clone, Debug)]
pub(crate) enum Backref {
    Number(u64),
    Named(String),
}

impl NodeKind {
    /// The direct children, in source order.
    pub(crate) fn children(&self) -> &[NodeId] {
        match self {
            NodeKind::Group { sub, .. }
            | NodeKind::Look { sub, .. }
            | NodeKind::Repeat { sub, .. } => std::slice::from_ref(sub),
            NodeKind::Concat(subs) | NodeKind::Alternation(subs) => subs,
            _ => &[],
        }
    }
}

impl Ast {
    /// The number of nested nodes on the longest root-to-leaf path.
    pub(crate) fn depth(&self) -> usize {
        let mut depth = vec![0usize; self.nodes.len()];
        for (i, node) in self.nodes.iter().enumerate() {
            let below = node
                .kind
                .children()
                .iter()
                .map(|&c| depth[c])
                .max()
                .unwrap_or(0);
            depth[i] = below + 1;
        }
        depth.get(self.root).copied().unwrap_or(0)
    }
}
