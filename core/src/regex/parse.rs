//! ECMA-262 `Pattern[+UnicodeMode, +NamedCaptureGroups]` parser.
//!
//! The parser is a loop over the source with an explicit stack of open
//! groups, so nesting depth costs heap, not call stack. It accepts exactly
//! the ES2024 grammar in Unicode mode (none of the Annex B extensions, which
//! apply only without the `u` flag), plus, when `lenient` is set, identity
//! escapes of ASCII punctuation.

use std::collections::HashSet;

use super::ast::{
    Assertion, Ast, Backref, Class, ClassEscape, ClassItem, LookKind, Node, NodeId, NodeKind, Span,
};
use super::unicode::{self, Property};

/// A grammar violation at a byte offset of the source.
#[derive(Debug)]
pub(crate) struct SyntaxError {
    pub offset: usize,
    pub message: String,
}

/// Parses `source`. With `lenient`, `\` before any ASCII punctuation
/// character reads as that character, inside and outside classes.
pub(crate) fn parse(source: &str, lenient: bool) -> Result<Ast, SyntaxError> {
    Parser::new(source, lenient, true).run()
}

/// Checks syntax without building the tree. `"format": "regex"` validates
/// instance data, which may be large and hostile, so memory stays at a few
/// bytes per term instead of a node per character.
pub(crate) fn validate(source: &str, lenient: bool) -> Result<(), SyntaxError> {
    Parser::new(source, lenient, false).run().map(drop)
}

struct Parser<'s> {
    src: &'s str,
    pos: usize,
    lenient: bool,
    /// Whether nodes are kept; when not, node ids are placeholders.
    record: bool,
    nodes: Vec<Node>,
    captures: u64,
    names: HashSet<String>,
    /// Backreferences with their spans, resolved once all groups are known.
    backrefs: Vec<(Span, Backref)>,
}

#[derive(Clone, Copy)]
enum Opener {
    Group { start: usize },
    Look { kind: LookKind, start: usize },
}

/// One open `(`: the alternatives finished so far and the terms of the
/// current one.
struct Frame {
    opener: Opener,
    body_start: usize,
    alt_start: usize,
    alternatives: Vec<NodeId>,
    terms: Vec<NodeId>,
}

impl Frame {
    fn new(opener: Opener, body_start: usize) -> Frame {
        Frame {
            opener,
            body_start,
            alt_start: body_start,
            alternatives: Vec::new(),
            terms: Vec::new(),
        }
    }
}

enum ClassAtom {
    Char(u32),
    Escape(ClassEscape),
}

const SYNTAX_CHARACTERS: &str = "^$\\.*+?()[]{}|";

fn err<T>(offset: usize, message: impl Into<String>) -> Result<T, SyntaxError> {
    Err(SyntaxError {
        offset,
        message: message.into(),
    })
}

impl<'s> Parser<'s> {
    fn new(src: &'s str, lenient: bool, record: bool) -> Parser<'s> {
        Parser {
            src,
            pos: 0,
            lenient,
            record,
            nodes: Vec::new(),
            captures: 0,
            names: HashSet::new(),
            backrefs: Vec::new(),
        }
    }

    fn peek(&self) -> Option<char> {
        self.src[self.pos..].chars().next()
    }

    fn peek_second(&self) -> Option<char> {
        let mut chars = self.src[self.pos..].chars();
        chars.next();
        chars.next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += c.len_utf8();
            true
        } else {
            false
        }
    }

    fn push(&mut self, kind: NodeKind, start: usize, end: usize) -> NodeId {
        if !self.record {
            return 0;
        }
        self.nodes.push(Node {
            kind,
            span: Span { start, end },
        });
        self.nodes.len() - 1
    }

    fn run(mut self) -> Result<Ast, SyntaxError> {
        // The root frame is never closed, so its opener is never read.
        let mut root = Frame::new(Opener::Group { start: 0 }, 0);
        let mut open: Vec<Frame> = Vec::new();
        while let Some(c) = self.peek() {
            let start = self.pos;
            match c {
                '|' => {
                    self.pos += 1;
                    let frame = open.last_mut().unwrap_or(&mut root);
                    let terms = std::mem::take(&mut frame.terms);
                    let alt = self.alternative(terms, frame.alt_start, start);
                    frame.alternatives.push(alt);
                    frame.alt_start = self.pos;
                }
                '(' => {
                    self.pos += 1;
                    let opener = self.group_opener(start)?;
                    open.push(Frame::new(opener, self.pos));
                }
                ')' => {
                    let Some(done) = open.pop() else {
                        return err(start, "unmatched `)`");
                    };
                    self.pos += 1;
                    let opener = done.opener;
                    let sub = self.disjunction(done, start);
                    let (kind, group_start, quantifiable) = match opener {
                        Opener::Group { start } => (NodeKind::Group { sub }, start, true),
                        Opener::Look { kind, start } => {
                            (NodeKind::Look { kind, sub }, start, false)
                        }
                    };
                    let id = self.push(kind, group_start, self.pos);
                    let frame = open.last_mut().unwrap_or(&mut root);
                    self.term(frame, id, group_start, quantifiable)?;
                }
                '^' | '$' => {
                    self.pos += 1;
                    let assertion = if c == '^' {
                        Assertion::Start
                    } else {
                        Assertion::End
                    };
                    let id = self.push(NodeKind::Assertion(assertion), start, self.pos);
                    self.term(open.last_mut().unwrap_or(&mut root), id, start, false)?;
                }
                '.' => {
                    self.pos += 1;
                    let id = self.push(NodeKind::Dot, start, self.pos);
                    self.term(open.last_mut().unwrap_or(&mut root), id, start, true)?;
                }
                '[' => {
                    self.pos += 1;
                    let class = self.class(start)?;
                    let id = self.push(NodeKind::Class(class), start, self.pos);
                    self.term(open.last_mut().unwrap_or(&mut root), id, start, true)?;
                }
                '\\' => {
                    self.pos += 1;
                    let (kind, quantifiable) = self.atom_escape(start)?;
                    if let NodeKind::Backref(backref) = &kind {
                        let span = Span {
                            start,
                            end: self.pos,
                        };
                        self.backrefs.push((span, backref.clone()));
                    }
                    let id = self.push(kind, start, self.pos);
                    let frame = open.last_mut().unwrap_or(&mut root);
                    self.term(frame, id, start, quantifiable)?;
                }
                '*' | '+' | '?' => {
                    return err(start, format!("quantifier `{c}` has nothing to repeat"));
                }
                '{' => {
                    return match self.braces()? {
                        Some(_) => err(
                            start,
                            format!(
                                "quantifier `{}` has nothing to repeat",
                                &self.src[start..self.pos]
                            ),
                        ),
                        None => err(start, lone_brace_message()),
                    };
                }
                '}' | ']' => {
                    return err(
                        start,
                        format!("lone `{c}` is not allowed in unicode mode (write `\\{c}`)"),
                    );
                }
                _ => {
                    self.pos += c.len_utf8();
                    let id = self.push(NodeKind::Char(c as u32), start, self.pos);
                    self.term(open.last_mut().unwrap_or(&mut root), id, start, true)?;
                }
            }
        }
        if let Some(frame) = open.last() {
            let (Opener::Group { start, .. } | Opener::Look { start, .. }) = frame.opener;
            return err(start, "unterminated group");
        }
        let end = self.src.len();
        let root = self.disjunction(root, end);
        self.check_backreferences()?;
        Ok(Ast {
            nodes: self.nodes,
            root,
        })
    }

    fn alternative(&mut self, mut terms: Vec<NodeId>, start: usize, end: usize) -> NodeId {
        match terms.len() {
            0 => self.push(NodeKind::Empty, start, start),
            1 => terms.pop().unwrap_or_default(),
            _ => self.push(NodeKind::Concat(terms), start, end),
        }
    }

    /// Closes a frame whose body ends at `end`.
    fn disjunction(&mut self, mut frame: Frame, end: usize) -> NodeId {
        let terms = std::mem::take(&mut frame.terms);
        let last = self.alternative(terms, frame.alt_start, end);
        if frame.alternatives.is_empty() {
            return last;
        }
        frame.alternatives.push(last);
        self.push(
            NodeKind::Alternation(frame.alternatives),
            frame.body_start,
            end,
        )
    }

    /// Adds `atom` to the current alternative, wrapped in the quantifier
    /// that follows it, if any.
    fn term(
        &mut self,
        frame: &mut Frame,
        atom: NodeId,
        atom_start: usize,
        quantifiable: bool,
    ) -> Result<(), SyntaxError> {
        let start = self.pos;
        let Some((min, max, greedy)) = self.quantifier()? else {
            frame.terms.push(atom);
            return Ok(());
        };
        if !quantifiable {
            let atom_text = &self.src[atom_start..start];
            return err(
                start,
                format!(
                    "quantifier `{}` has nothing to repeat: `{atom_text}` is an assertion",
                    &self.src[start..self.pos]
                ),
            );
        }
        let id = self.push(
            NodeKind::Repeat {
                min,
                max,
                greedy,
                sub: atom,
            },
            atom_start,
            self.pos,
        );
        frame.terms.push(id);
        Ok(())
    }

    #[allow(clippy::type_complexity)]
    fn quantifier(&mut self) -> Result<Option<(u64, Option<u64>, bool)>, SyntaxError> {
        let start = self.pos;
        let (min, max) = match self.peek() {
            Some('{') => match self.braces()? {
                Some(bounds) => bounds,
                None => return err(start, lone_brace_message()),
            },
            Some(c @ ('*' | '+' | '?')) => {
                self.pos += 1;
                match c {
                    '*' => (0, None),
                    '+' => (1, None),
                    _ => (0, Some(1)),
                }
            }
            _ => return Ok(None),
        };
        let greedy = !self.eat('?');
        Ok(Some((min, max, greedy)))
    }

    /// Reads `{n}`, `{n,}` or `{n,m}` at `{`. `Ok(None)` (position
    /// unchanged) when the braces do not form a quantifier.
    fn braces(&mut self) -> Result<Option<(u64, Option<u64>)>, SyntaxError> {
        let start = self.pos;
        self.pos += 1;
        let Some(low) = self.digits() else {
            self.pos = start;
            return Ok(None);
        };
        let bounds = if self.eat('}') {
            (low.0, Some(low.0))
        } else if self.eat(',') {
            let high = self.digits();
            if !self.eat('}') {
                self.pos = start;
                return Ok(None);
            }
            match high {
                None => (low.0, None),
                Some(high) => {
                    if digits_greater(low.1, high.1) {
                        return err(
                            start,
                            format!(
                                "quantifier `{}` has its minimum above its maximum",
                                &self.src[start..self.pos]
                            ),
                        );
                    }
                    (low.0, Some(high.0))
                }
            }
        } else {
            self.pos = start;
            return Ok(None);
        };
        Ok(Some(bounds))
    }

    /// DecimalDigits: the value (saturating) and the written digits.
    fn digits(&mut self) -> Option<(u64, &'s str)> {
        let start = self.pos;
        let len = self.src[start..]
            .bytes()
            .take_while(u8::is_ascii_digit)
            .count();
        if len == 0 {
            return None;
        }
        self.pos += len;
        let text: &'s str = &self.src[start..self.pos];
        let value = text.bytes().fold(0u64, |acc, d| {
            acc.saturating_mul(10).saturating_add(u64::from(d - b'0'))
        });
        Some((value, text))
    }

    /// After `(`: the kind of group.
    fn group_opener(&mut self, start: usize) -> Result<Opener, SyntaxError> {
        if !self.eat('?') {
            self.captures += 1;
            return Ok(Opener::Group { start });
        }
        let look = |kind| Ok(Opener::Look { kind, start });
        match self.bump() {
            Some(':') => Ok(Opener::Group { start }),
            Some('=') => look(LookKind::Ahead),
            Some('!') => look(LookKind::NegativeAhead),
            Some('<') if self.eat('=') => look(LookKind::Behind),
            Some('<') if self.eat('!') => look(LookKind::NegativeBehind),
            Some('<') => {
                let name = self.group_name(start)?;
                if self.names.contains(&name) {
                    return err(start, format!("duplicate group name `{name}`"));
                }
                self.names.insert(name);
                self.captures += 1;
                Ok(Opener::Group { start })
            }
            _ => err(
                start,
                format!(
                    "invalid group `{}`: `(?` must be followed by `:`, `=`, `!`, `<=`, `<!` or `<name>`",
                    &self.src[start..self.pos]
                ),
            ),
        }
    }

    /// RegExpIdentifierName up to and including `>`, after `<`.
    fn group_name(&mut self, start: usize) -> Result<String, SyntaxError> {
        let mut name = String::new();
        loop {
            let at = self.pos;
            let c = match self.bump() {
                None => return err(start, "unterminated group name"),
                Some('>') => break,
                Some('\\') => {
                    if !self.eat('u') {
                        return err(at, "only `\\u` escapes may appear in a group name");
                    }
                    let cp = self.unicode_escape(at)?;
                    match char::from_u32(cp) {
                        Some(c) => c,
                        None => return err(at, "a lone surrogate cannot appear in a group name"),
                    }
                }
                Some(c) => c,
            };
            let fits = if name.is_empty() {
                unicode::is_identifier_start(c)
            } else {
                unicode::is_identifier_part(c)
            };
            if !fits {
                return err(at, format!("`{c}` cannot appear in a group name here"));
            }
            name.push(c);
        }
        if name.is_empty() {
            return err(start, "empty group name");
        }
        Ok(name)
    }

    /// After `\` outside a class.
    fn atom_escape(&mut self, esc: usize) -> Result<(NodeKind, bool), SyntaxError> {
        match self.peek() {
            None => err(esc, "pattern ends with a lone `\\`"),
            Some('b') => {
                self.pos += 1;
                Ok((NodeKind::Assertion(Assertion::WordBoundary), false))
            }
            Some('B') => {
                self.pos += 1;
                Ok((NodeKind::Assertion(Assertion::NotWordBoundary), false))
            }
            Some('1'..='9') => {
                let (n, _) = self.digits().unwrap_or_default();
                Ok((NodeKind::Backref(Backref::Number(n)), true))
            }
            Some('k') => {
                self.pos += 1;
                if !self.eat('<') {
                    return err(esc, "`\\k` must be followed by a group name `<name>`");
                }
                let name = self.group_name(esc)?;
                Ok((NodeKind::Backref(Backref::Named(name)), true))
            }
            Some('d' | 'D' | 's' | 'S' | 'w' | 'W' | 'p' | 'P') => {
                Ok((NodeKind::Escape(self.class_escape(esc)?), true))
            }
            Some(_) => Ok((NodeKind::Char(self.character_escape(esc, false)?), true)),
        }
    }

    /// CharacterClassEscape, at its letter.
    fn class_escape(&mut self, esc: usize) -> Result<ClassEscape, SyntaxError> {
        let letter = self.bump().unwrap_or_default();
        let negated = letter.is_ascii_uppercase();
        Ok(match letter.to_ascii_lowercase() {
            'd' => ClassEscape::Digit { negated },
            'w' => ClassEscape::Word { negated },
            's' => ClassEscape::Space { negated },
            _ => ClassEscape::Property {
                negated,
                property: self.property(esc, letter)?,
            },
        })
    }

    /// `{UnicodePropertyValueExpression}` after `\p` / `\P`.
    fn property(&mut self, esc: usize, letter: char) -> Result<Property, SyntaxError> {
        if !self.eat('{') {
            return err(
                esc,
                format!("`\\{letter}` must be followed by `{{property}}`"),
            );
        }
        let start = self.pos;
        let len = self.src[start..]
            .bytes()
            .take_while(|&b| b.is_ascii_alphanumeric() || b == b'_' || b == b'=')
            .count();
        self.pos += len;
        if !self.eat('}') {
            return err(esc, "unterminated or malformed property escape");
        }
        let text = &self.src[start..start + len];
        match Property::resolve(text) {
            Some(property) => Ok(property),
            None => err(
                esc,
                format!(
                    "unknown unicode property `{text}` (names and values must be spelled exactly as in the unicode property aliases)"
                ),
            ),
        }
    }

    /// CharacterEscape (and, in a class, `\-`), at the character after `\`.
    fn character_escape(&mut self, esc: usize, in_class: bool) -> Result<u32, SyntaxError> {
        let Some(c) = self.bump() else {
            return err(esc, "pattern ends with a lone `\\`");
        };
        Ok(match c {
            'f' => 0x0C,
            'n' => 0x0A,
            'r' => 0x0D,
            't' => 0x09,
            'v' => 0x0B,
            'c' => match self.peek() {
                Some(l) if l.is_ascii_alphabetic() => {
                    self.pos += 1;
                    l as u32 % 32
                }
                _ => return err(esc, "`\\c` must be followed by an ascii letter"),
            },
            '0' => {
                if self.peek().is_some_and(|d| d.is_ascii_digit()) {
                    return err(
                        esc,
                        "`\\0` followed by a digit (a legacy octal escape) is not allowed in unicode mode",
                    );
                }
                0
            }
            'x' => match self.hex_digits(2) {
                Some(v) => v,
                None => return err(esc, "`\\x` must be followed by two hex digits"),
            },
            'u' => self.unicode_escape(esc)?,
            '-' if in_class => u32::from('-'),
            c if c == '/' || SYNTAX_CHARACTERS.contains(c) => c as u32,
            c if self.lenient && c.is_ascii_punctuation() => c as u32,
            c if c.is_ascii_digit() && in_class => {
                return err(
                    esc,
                    format!("`\\{c}` is not allowed in a class in unicode mode"),
                );
            }
            c if c.is_ascii_alphanumeric() => {
                return err(esc, format!("`\\{c}` is not a defined escape"));
            }
            c => {
                return err(
                    esc,
                    format!(
                        "`\\{c}` is not allowed in unicode mode (only syntax characters{} and `/` may be escaped)",
                        if in_class { ", `-`" } else { "" }
                    ),
                );
            }
        })
    }

    /// RegExpUnicodeEscapeSequence after `\u`. A `\uXXXX\uXXXX` surrogate
    /// pair reads as one code point; any other surrogate stays lone.
    fn unicode_escape(&mut self, esc: usize) -> Result<u32, SyntaxError> {
        if self.eat('{') {
            let len = self.src[self.pos..]
                .bytes()
                .take_while(u8::is_ascii_hexdigit)
                .count();
            let digits = &self.src[self.pos..self.pos + len];
            self.pos += len;
            if len == 0 || !self.eat('}') {
                return err(esc, "`\\u{` must be followed by hex digits and `}`");
            }
            let significant = digits.trim_start_matches('0');
            return match u32::from_str_radix(
                if significant.is_empty() {
                    "0"
                } else {
                    significant
                },
                16,
            ) {
                Ok(v) if significant.len() <= 6 && v <= 0x10FFFF => Ok(v),
                _ => err(esc, "code point escape above U+10FFFF"),
            };
        }
        let Some(first) = self.hex_digits(4) else {
            return err(
                esc,
                "`\\u` must be followed by four hex digits or `{code point}`",
            );
        };
        if (0xD800..=0xDBFF).contains(&first) && self.src[self.pos..].starts_with("\\u") {
            let save = self.pos;
            self.pos += 2;
            match self.hex_digits(4) {
                Some(second) if (0xDC00..=0xDFFF).contains(&second) => {
                    return Ok(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00));
                }
                _ => self.pos = save,
            }
        }
        Ok(first)
    }

    /// Exactly `n` hex digits, consumed only when all are present.
    fn hex_digits(&mut self, n: usize) -> Option<u32> {
        let text = self.src.get(self.pos..self.pos + n)?;
        if !text.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        self.pos += n;
        u32::from_str_radix(text, 16).ok()
    }

    /// A class, after `[`.
    fn class(&mut self, start: usize) -> Result<Class, SyntaxError> {
        let negated = self.eat('^');
        let mut items = Vec::new();
        loop {
            let atom_start = self.pos;
            match self.peek() {
                None => return err(start, "unterminated character class"),
                Some(']') => {
                    self.pos += 1;
                    break;
                }
                Some(_) => {}
            }
            let first = self.class_atom(start)?;
            if self.peek() == Some('-') && !matches!(self.peek_second(), Some(']') | None) {
                self.pos += 1;
                let second = self.class_atom(start)?;
                let range = &self.src[atom_start..self.pos];
                match (first, second) {
                    (ClassAtom::Char(a), ClassAtom::Char(b)) => {
                        if a > b {
                            return err(
                                atom_start,
                                format!("class range `{range}` is out of order"),
                            );
                        }
                        items.push(ClassItem::Range(a, b));
                    }
                    _ => {
                        return err(
                            atom_start,
                            format!(
                                "class range `{range}` has a class escape as an endpoint, which unicode mode rejects"
                            ),
                        );
                    }
                }
            } else {
                items.push(match first {
                    ClassAtom::Char(c) => ClassItem::Range(c, c),
                    ClassAtom::Escape(e) => ClassItem::Escape(e),
                });
            }
        }
        Ok(Class { negated, items })
    }

    fn class_atom(&mut self, class_start: usize) -> Result<ClassAtom, SyntaxError> {
        let start = self.pos;
        match self.bump() {
            None => err(class_start, "unterminated character class"),
            Some('\\') => match self.peek() {
                None => err(start, "pattern ends with a lone `\\`"),
                Some('b') => {
                    self.pos += 1;
                    Ok(ClassAtom::Char(0x08))
                }
                Some('d' | 'D' | 's' | 'S' | 'w' | 'W' | 'p' | 'P') => {
                    Ok(ClassAtom::Escape(self.class_escape(start)?))
                }
                Some(_) => Ok(ClassAtom::Char(self.character_escape(start, true)?)),
            },
            Some(c) => Ok(ClassAtom::Char(c as u32)),
        }
    }

    /// In Unicode mode every `\N` must name an existing group and every
    /// `\k<name>` an existing name, wherever the group appears.
    fn check_backreferences(&self) -> Result<(), SyntaxError> {
        for (span, backref) in &self.backrefs {
            match backref {
                Backref::Number(n) if *n > self.captures => {
                    return err(
                        span.start,
                        format!(
                            "backreference `{}` refers to a group that does not exist (the pattern has {} capturing groups)",
                            &self.src[span.start..span.end],
                            self.captures
                        ),
                    );
                }
                Backref::Named(name) if !self.names.contains(name) => {
                    return err(
                        span.start,
                        format!("backreference `\\k<{name}>` names no group"),
                    );
                }
                _ => {}
            }
        }
        Ok(())
    }
}

fn lone_brace_message() -> &'static str {
    "`{` does not start a quantifier `{n}`, `{n,}` or `{n,m}`, and a lone `{` is not allowed in unicode mode (write `\\{`)"
}

/// Whether the decimal numeral `a` is greater than `b`, exactly, however
/// long they are.
fn digits_greater(a: &str, b: &str) -> bool {
    let a = a.trim_start_matches('0');
    let b = b.trim_start_matches('0');
    (a.len(), a) > (b.len(), b)
}
