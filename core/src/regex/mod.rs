//! ECMA-262 regular expressions for `pattern`, `patternProperties` and
//! `"format": "regex"`.
//!
//! JSON Schema says patterns are ECMA-262 regular expressions. This module
//! gives them ECMA-262 semantics in Unicode mode (the `u` flag; JSON Schema
//! patterns take no other flags) on top of a linear-time automaton, so no
//! pattern from an untrusted schema can make matching take more than time
//! linear in the input.
//!
//! # The stage
//!
//! 1. **Parse** the source into an AST that is faithful to the source:
//!    every node keeps its byte span, character escapes are decoded to code
//!    points, lone surrogates are kept as written. The parser is a loop with
//!    an explicit stack, and the AST is an arena whose nodes refer to
//!    children by index, so neither parsing nor dropping a tree uses call
//!    stack in proportion to nesting depth (100 000 nested groups are just a
//!    long vector). [`is_valid_syntax`] runs the same parser without keeping
//!    nodes, since it checks instance data of any size.
//! 2. **Check** that nothing needs backtracking (lookaround,
//!    backreferences), that the nesting depth is at most [`NEST_LIMIT`] (the
//!    automaton compiler below recurses over the HIR) and that the source is
//!    no longer than `size_limit`.
//! 3. **Shape**: if the pattern is a plain literal search, prefix, exact
//!    match or a repeated single class between `^` and `$` (see [`Shape`]),
//!    matching is a string operation and no automaton is built at all.
//! 4. **Lower** the AST to `regex_syntax::hir::Hir` with the HIR
//!    constructors, bottom-up in arena order. ECMA-262 meanings are fixed
//!    here: `\d`/`\w`/`\b`/`\B` are ASCII, `\s` is ECMA white space and
//!    line terminators, `.` excludes the four line terminators, `^`/`$` are
//!    input anchors, capture groups become plain grouping.
//! 5. **Compile** with `regex_automata::meta::Regex` (`build_from_hir`),
//!    whose NFA size is bounded by the caller's `size_limit`; exceeding it
//!    is [`PatternErrorKind::TooLarge`]. Searches then run on the meta
//!    engine's DFA / lazy DFA / PikeVM, all linear in the haystack. Its
//!    `is_match` always finishes: a search the lazy DFA gives up on (its
//!    cache filling too often) is run again on the PikeVM or the bounded
//!    backtracker, which cannot give up, so a give-up is never read as "no
//!    match" (`tests/regressions.rs` forces one).
//!
//! Cost: parsing and lowering are linear in the pattern length. Compilation
//! is bounded by `size_limit` (counted repetitions such as `a{1000}` are
//! expanded, which is what the limit guards). Matching is
//! O(pattern × haystack) in the worst case and usually O(haystack); a
//! pattern with `\B` cannot use the DFAs on non-ASCII input and runs on the
//! PikeVM there.
//!
//! Invariants: every input returns a value or an error, never a panic;
//! `is_match` answers exactly what ECMA-262 `RegExp(source, "u").test(s)`
//! answers for every string `s` (Rust strings cannot contain lone
//! surrogates, which is the one place where JavaScript strings differ).
//! Matching with an automaton is exact because, without lookaround and
//! backreferences, an ECMA-262 pattern matches some substring exactly when
//! the corresponding regular language does: backtracking order, laziness
//! and the empty-iteration check change which match is found, never
//! whether one exists.
//!
//! # Two dialects
//!
//! [`is_valid_syntax`] (for `"format": "regex"`) is strict ES2024
//! Unicode-mode syntax. [`Pattern::new`] (for `pattern` and
//! `patternProperties`) accepts one extension, because real tool catalogs
//! are full of patterns such as `^https\:\/\/` or `\d+\-\d+`, which `u`-mode
//! rejects while every non-`u` engine accepts them:
//!
//! > **Lenient identity escapes.** A backslash followed by an ASCII
//! > punctuation character (any of ``!"#$%&'()*+,-./:;<=>?@[\]^_`{|}~``)
//! > stands for that character, inside and outside classes.
//!
//! This never changes the meaning of a valid pattern (in ECMA-262 each of
//! those escapes is either already that character or a syntax error).
//! Escapes of letters and digits that are not defined escapes (`\a`, `\e`,
//! `\i`, `\8` without eight groups) stay errors in both dialects, as do all
//! other `u`-mode rules.
//!
//! # Constructs
//!
//! "Supported" means exact ECMA-262 `u`-mode semantics.
//!
//! | Construct | Status |
//! |---|---|
//! | Literal characters, including astral ones (one character each) | supported |
//! | `.` (any code point but `\n`, `\r`, U+2028, U+2029) | supported |
//! | `^`, `$` (start / end of input; no multiline) | supported |
//! | `\b`, `\B` (ASCII word characters `[A-Za-z0-9_]`) | supported (`\B` is confined to character boundaries with Unicode word looks, so on non-ASCII input a pattern with `\B` runs on the NFA simulation rather than a DFA: slower, still linear) |
//! | `\d \D \w \W` (ASCII) | supported |
//! | `\s \S` (TAB VT FF SP NBSP ZWNBSP, `Zs`, LF CR LS PS) | supported |
//! | `\f \n \r \t \v`, `\cX` (ASCII letter), `\0` (not before a digit) | supported |
//! | `\xHH`, `\uHHHH`, `\u{H…}` (≤ 10FFFF), `\uD83D\uDE00` pairs (one code point) | supported |
//! | Lone surrogate escapes (`\uD800`, `\u{DC00}`, unpaired) | supported: they never match, since no Rust string contains a surrogate (`[^\uD800]` matches every character) |
//! | Identity escapes of syntax characters `^$\.*+?()[]{}\|` and `/`; `\-` in a class | supported |
//! | `\p{…}` / `\P{…}`: General_Category values (`L`, `Letter`, `gc=Lu`, `General_Category=digit`…), `Script=`/`sc=`, `Script_Extensions=`/`scx=` (short and long names), and ECMA-262's binary properties (`Alphabetic`, `ASCII`, `Any`, `Assigned`, `Emoji`, `White_Space`…) | supported, names spelled exactly (no loose matching), Unicode 16.0 data; `Katakana_Or_Hiragana` / `Hrkt`, which no code point has, is rejected as every ECMAScript engine rejects it |
//! | `\p{Changes_When_NFKC_Casefolded}` / `\p{CWKCF}` | valid syntax; `Pattern::new` reports unsupported: the bundled Unicode tables have no data for it |
//! | `[…]`, `[^…]`, ranges, class escapes in classes, `\b` (backspace) in classes, `[]` (nothing), `[^]` (anything) | supported |
//! | `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}` and lazy forms | supported (laziness is irrelevant to `is_match`) |
//! | Bounds above 2³²−1 | valid syntax; `Pattern::new` reports too large |
//! | `(…)`, `(?:…)`, `(?<name>…)` (names may use `\u` escapes) | supported |
//! | `\-`, `\:`, `\#`… (identity escapes of other ASCII punctuation, in or out of classes) | `Pattern::new` reads them as literals (lenient dialect); `is_valid_syntax` rejects those `u`-mode rejects |
//! | Lookahead `(?=…)`, `(?!…)`; lookbehind `(?<=…)`, `(?<!…)` | valid syntax; unsupported: the linear-time engine has no lookaround (backtracking engines have it, at exponential worst-case cost) |
//! | Backreferences `\1`…, `\k<name>` | valid syntax; unsupported: they match non-regular languages |
//! | Errors that `u` mode enforces: `\a` and other undefined escapes, `\01`, `\c` without a letter, lone `{` `}` `]`, `{,n}`, quantifiers on nothing or on assertions, `{n,m}` with n > m, class ranges out of order or with class escapes as endpoints, unterminated groups / classes, `\N` or `\k<name>` naming no group, duplicate group names, unknown `\p` names, `\u{110000}` | syntax error in both dialects |
//! | Annex B extensions (non-`u` only): octal escapes, `\c` literal, `]`/`{` literals, quantified lookahead, `[\w-x]` | syntax error (they do not exist in `u` mode) |
//! | ES2025 modifiers `(?i:…)`, `(?-m:…)` | syntax error, as in ES2024: `i` needs the scf-based canonicalisation of complemented property escapes and of `\b`, which regex-syntax's case folding does not reproduce exactly |
//! | ES2025 duplicate group names in different alternatives | syntax error, as in ES2024 |
//! | `v`-mode syntax (`\q{…}`, properties of strings such as `RGI_Emoji`, `--` / `&&` set operations) | read by `u`-mode rules: `\q` and string properties are syntax errors, `--` and `&&` are plain characters |
//! | Flags | none: JSON Schema patterns have no flags |
//!
//! Error positions are byte offsets into the source.

mod ast;
mod lower;
mod parse;
mod shape;
mod unicode;

#[cfg(test)]
mod tests;

use std::fmt;

use regex_automata::dfa::{Automaton, dense};
use regex_automata::nfa::thompson::{self, WhichCaptures};
use regex_automata::{Input, meta};

pub use shape::{Shape, ascii_table, class_repeat_match};

/// Default `size_limit` for [`Pattern::new`]: 10 MiB of compiled NFA.
///
/// Ordinary tool-schema patterns need a few kilobytes; large Unicode
/// classes (`\p{L}`) some tens of kilobytes. 10 MiB leaves room for counted
/// repetitions of classes (`^[\p{L}\d]{1,256}$`) while keeping a hostile
/// `(a{1000}){1000}` from allocating without bound. The limit applies to
/// each NFA the engine builds (forward and reverse) separately.
pub const DEFAULT_SIZE_LIMIT: usize = 10 * (1 << 20);

/// Deepest nesting (groups, quantifiers, alternations and concatenations
/// on one path) [`Pattern::new`] compiles. The automaton compiler recurses
/// over the expression tree, so depth is bounded to keep its stack use
/// small; deeper patterns are [`PatternErrorKind::TooLarge`].
/// [`is_valid_syntax`] has no such limit.
pub const NEST_LIMIT: usize = 250;

/// A compiled `pattern` / `patternProperties` regex: ECMA-262 (Unicode
/// mode) semantics on a linear-time engine.
///
/// ```
/// use toolschema::regex::{Pattern, DEFAULT_SIZE_LIMIT};
///
/// let p = Pattern::new(r"^\d{3}-\d{4}$", DEFAULT_SIZE_LIMIT).unwrap();
/// assert!(p.is_match("555-1234"));
/// assert!(!p.is_match("555-1234\n"));
/// assert_eq!(p.as_str(), r"^\d{3}-\d{4}$");
/// ```
#[derive(Clone)]
pub struct Pattern {
    source: Box<str>,
    matcher: Matcher,
}

#[derive(Clone)]
enum Matcher {
    /// A shape, with the ASCII table of its class when it is a [`Shape::ClassRepeat`].
    Shape(Shape, Option<Box<[bool; 256]>>),
    /// A fully built DFA, for a pattern whose DFA is small ([`DENSE_LIMIT`]): a search is
    /// one table lookup a byte, with no cache to take and no strategy to pick.
    Dense(Box<dense::DFA<Vec<u32>>>),
    Automaton(meta::Regex),
}

/// The most heap a [`Matcher::Dense`] DFA may take, and the most its construction may use: a
/// pattern whose DFA would be larger is searched by the lazy DFA of a [`meta::Regex`]
/// instead, which builds states as searches need them. The patterns of FHIR's schema (dates,
/// times, decimals, URN forms, `^[^\s]+(\s[^\s]+)*$`) build DFAs of 0.3 to 15 KiB.
const DENSE_LIMIT: usize = 32 * 1024;

/// Patterns compiled to NFAs of more states than this are not tried as dense DFAs (FHIR's
/// largest has 72): their DFAs would rarely fit [`DENSE_LIMIT`], and the attempt costs time.
const DENSE_NFA_STATES: usize = 400;

/// Whether `dfa` matches anywhere in `haystack`. Out of line: the search loop, inlined into
/// every caller of [`Pattern::is_match`], would crowd the passes that test patterns among
/// other keywords.
#[inline(never)]
fn dense_match(dfa: &dense::DFA<Vec<u32>>, haystack: &str) -> bool {
    // A dense DFA without quit bytes, searched unanchored as it was built, never fails.
    dfa.try_search_fwd(&Input::new(haystack).earliest(true))
        .is_ok_and(|found| found.is_some())
}

/// The pattern's dense DFA, when it is small enough (see [`DENSE_LIMIT`]). `None` too for a
/// pattern a dense DFA cannot search (a Unicode word boundary).
fn dense_dfa(hir: &regex_syntax::hir::Hir, size_limit: usize) -> Option<dense::DFA<Vec<u32>>> {
    let nfa = thompson::Compiler::new()
        .configure(
            thompson::Config::new()
                .nfa_size_limit(Some(size_limit))
                .which_captures(WhichCaptures::None),
        )
        .build_from_hir(hir)
        .ok()?;
    if nfa.states().len() > DENSE_NFA_STATES {
        return None;
    }
    dense::Builder::new()
        .configure(
            dense::Config::new()
                .dfa_size_limit(Some(DENSE_LIMIT))
                .determinize_size_limit(Some(DENSE_LIMIT)),
        )
        .build_from_nfa(&nfa)
        .ok()
}

impl fmt::Debug for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pattern")
            .field("source", &self.source)
            .field("shape", &self.shape())
            .finish()
    }
}

impl Pattern {
    /// Parses `source` as the lenient `pattern` dialect (see the module
    /// docs) and compiles it. `size_limit` bounds each compiled NFA in bytes
    /// (regex-automata's `nfa_size_limit`), and with it the source length and
    /// the character class data; exceeding it is
    /// [`PatternErrorKind::TooLarge`].
    ///
    /// ```
    /// use toolschema::regex::{Pattern, PatternErrorKind, DEFAULT_SIZE_LIMIT};
    ///
    /// // Lenient: `\:` and `\/` read as literals.
    /// assert!(Pattern::new(r"^https\:\/\/", DEFAULT_SIZE_LIMIT).unwrap().is_match("https://x"));
    ///
    /// let err = Pattern::new(r"^(?!admin)\w+$", DEFAULT_SIZE_LIMIT).unwrap_err();
    /// assert_eq!(err.kind(), PatternErrorKind::Unsupported);
    /// assert_eq!(Pattern::new(r"\a", DEFAULT_SIZE_LIMIT).unwrap_err().kind(), PatternErrorKind::Syntax);
    /// assert_eq!(Pattern::new("(a{1000}){1000}", DEFAULT_SIZE_LIMIT).unwrap_err().kind(), PatternErrorKind::TooLarge);
    /// ```
    pub fn new(source: &str, size_limit: usize) -> Result<Pattern, PatternError> {
        Pattern::build(source, size_limit, true)
    }

    /// `new`, with the fast matchers (shapes, the dense DFA) optional so that tests can hold
    /// them against the general automaton.
    fn build(source: &str, size_limit: usize, fast: bool) -> Result<Pattern, PatternError> {
        let syntax = |e: parse::SyntaxError| {
            PatternError::new(PatternErrorKind::Syntax, source, Some(e.offset), e.message)
        };
        // Group syntax and names aside, every source byte compiles to at
        // least one NFA transition of several bytes, so a source longer than
        // the limit cannot fit; refusing it before building the tree keeps a
        // huge pattern from costing tens of bytes of tree per source byte.
        if source.len() > size_limit {
            parse::validate(source, true).map_err(syntax)?;
            return Err(PatternError::new(
                PatternErrorKind::TooLarge,
                source,
                None,
                format!(
                    "the pattern is {} bytes long, more than the size limit of {size_limit} bytes",
                    source.len()
                ),
            ));
        }
        let ast = parse::parse(source, true).map_err(syntax)?;
        lower::check_supported(&ast, source).map_err(|e| PatternError::lowering(source, e))?;
        let depth = ast.depth();
        if depth > NEST_LIMIT {
            return Err(PatternError::new(
                PatternErrorKind::TooLarge,
                source,
                None,
                format!("nesting depth {depth} exceeds the limit of {NEST_LIMIT}"),
            ));
        }
        if let Some(shape) = fast.then(|| shape::detect(&ast)).flatten() {
            let table = match &shape {
                Shape::ClassRepeat { ranges, .. } => Some(Box::new(ascii_table(ranges))),
                _ => None,
            };
            return Ok(Pattern {
                source: source.into(),
                matcher: Matcher::Shape(shape, table),
            });
        }
        let hir = lower::lower(&ast, size_limit).map_err(|e| PatternError::lowering(source, e))?;
        drop(ast);
        if let Some(dfa) = fast.then(|| dense_dfa(&hir, size_limit)).flatten() {
            return Ok(Pattern {
                source: source.into(),
                matcher: Matcher::Dense(Box::new(dfa)),
            });
        }
        let config = meta::Config::new()
            .nfa_size_limit(Some(size_limit))
            // Only `is_match` is ever asked; no group needs recording.
            .which_captures(WhichCaptures::Implicit);
        let regex = meta::Builder::new()
            .configure(config)
            .build_from_hir(&hir)
            .map_err(|e| {
                let message = match e.size_limit() {
                    Some(limit) => {
                        format!("the compiled automaton exceeds the size limit of {limit} bytes")
                    }
                    None => format!("the automaton could not be built: {e}"),
                };
                PatternError::new(PatternErrorKind::TooLarge, source, None, message)
            })?;
        Ok(Pattern {
            source: source.into(),
            matcher: Matcher::Automaton(regex),
        })
    }

    /// Whether the pattern matches anywhere in `haystack` (it is anchored
    /// only where it says `^` / `$`). Uses the [`Shape`] when there is one.
    ///
    /// ```
    /// use toolschema::regex::{Pattern, DEFAULT_SIZE_LIMIT};
    ///
    /// let p = Pattern::new("a+", DEFAULT_SIZE_LIMIT).unwrap();
    /// assert!(p.is_match("xxaayy"));
    /// let p = Pattern::new(r"^\p{Lu}", DEFAULT_SIZE_LIMIT).unwrap();
    /// assert!(p.is_match("Élan") && !p.is_match("élan"));
    /// ```
    pub fn is_match(&self, haystack: &str) -> bool {
        match &self.matcher {
            Matcher::Shape(Shape::ClassRepeat { ranges, min, max }, Some(table)) => {
                class_repeat_match(haystack, table, ranges, *min, *max)
            }
            Matcher::Shape(shape, _) => shape.is_match(haystack),
            Matcher::Dense(dfa) => dense_match(dfa, haystack),
            Matcher::Automaton(regex) => regex.is_match(haystack),
        }
    }

    /// The source, as given to [`Pattern::new`].
    ///
    /// ```
    /// use toolschema::regex::{Pattern, DEFAULT_SIZE_LIMIT};
    /// assert_eq!(Pattern::new("^a", DEFAULT_SIZE_LIMIT).unwrap().as_str(), "^a");
    /// ```
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// The simple shape of the pattern, if it has one.
    ///
    /// ```
    /// use toolschema::regex::{Pattern, Shape, DEFAULT_SIZE_LIMIT};
    ///
    /// let p = Pattern::new("^(?:asc|desc)$", DEFAULT_SIZE_LIMIT).unwrap();
    /// assert_eq!(p.shape(), Some(&Shape::Exact(vec!["asc".into(), "desc".into()])));
    /// assert_eq!(Pattern::new("^a|b$", DEFAULT_SIZE_LIMIT).unwrap().shape(), None);
    /// ```
    pub fn shape(&self) -> Option<&Shape> {
        match &self.matcher {
            Matcher::Shape(shape, _) => Some(shape),
            Matcher::Dense(_) | Matcher::Automaton(_) => None,
        }
    }
}

/// Strict ECMA-262 Unicode-mode syntax check, for `"format": "regex"`.
///
/// Everything valid in `u` mode is accepted, including constructs
/// [`Pattern::new`] cannot match (lookaround, backreferences); everything
/// `u` mode rejects is rejected, including the identity escapes the lenient
/// `pattern` dialect accepts.
///
/// ```
/// use toolschema::regex::is_valid_syntax;
///
/// assert!(is_valid_syntax(r"([abc])+\s+$"));
/// assert!(is_valid_syntax(r"^(?<year>\d{4})-\k<year>$"));
/// assert!(!is_valid_syntax(r"^(abc]"));
/// assert!(!is_valid_syntax(r"\a"));
/// assert!(!is_valid_syntax(r"https\:"));
/// ```
pub fn is_valid_syntax(source: &str) -> bool {
    parse::validate(source, false).is_ok()
}

/// Why a pattern was not compiled.
///
/// ```
/// use toolschema::regex::{Pattern, PatternErrorKind, DEFAULT_SIZE_LIMIT};
///
/// let err = Pattern::new("a{2,1}", DEFAULT_SIZE_LIMIT).unwrap_err();
/// assert_eq!(err.kind(), PatternErrorKind::Syntax);
/// assert_eq!(err.pattern(), "a{2,1}");
/// assert_eq!(err.offset(), Some(1));
/// assert!(err.to_string().contains("a{2,1}"));
/// ```
#[derive(Clone, Debug)]
pub struct PatternError {
    kind: PatternErrorKind,
    pattern: String,
    offset: Option<usize>,
    message: String,
}

/// What kind of problem a [`PatternError`] reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PatternErrorKind {
    /// Invalid syntax (the schema is invalid).
    Syntax,
    /// Valid ECMA-262 that a finite automaton cannot match: lookahead,
    /// lookbehind, backreferences (named or numbered). The message names
    /// the construct. Also a `\p` property the bundled Unicode tables have
    /// no data for.
    Unsupported,
    /// The compiled automaton exceeds the size limit (or a repetition
    /// count or nesting depth exceeds what the engine represents).
    TooLarge,
}

/// Longest prefix of the pattern quoted in messages.
const SHOWN_CHARS: usize = 64;

impl PatternError {
    fn new(
        kind: PatternErrorKind,
        pattern: &str,
        offset: Option<usize>,
        detail: String,
    ) -> PatternError {
        let mut shown: String = pattern.chars().take(SHOWN_CHARS).collect();
        if shown.len() < pattern.len() {
            shown.push('…');
        }
        let what = match kind {
            PatternErrorKind::Syntax => "invalid pattern",
            PatternErrorKind::Unsupported => "unsupported pattern",
            PatternErrorKind::TooLarge => "pattern too large",
        };
        let message = match offset {
            Some(offset) => format!("{what} `{shown}` at offset {offset}: {detail}"),
            None => format!("{what} `{shown}`: {detail}"),
        };
        PatternError {
            kind,
            pattern: pattern.to_owned(),
            offset,
            message,
        }
    }

    fn lowering(pattern: &str, e: lower::LowerError) -> PatternError {
        match e {
            lower::LowerError::Unsupported { offset, message } => PatternError::new(
                PatternErrorKind::Unsupported,
                pattern,
                Some(offset),
                message,
            ),
            lower::LowerError::TooLarge { offset, message } => {
                PatternError::new(PatternErrorKind::TooLarge, pattern, Some(offset), message)
            }
        }
    }

    /// The kind of problem.
    pub fn kind(&self) -> PatternErrorKind {
        self.kind
    }

    /// The full pattern source.
    pub fn pattern(&self) -> &str {
        &self.pattern
    }

    /// Byte offset in the source of the offending construct; `None` when
    /// the problem is the pattern as a whole (automaton size, nesting).
    pub fn offset(&self) -> Option<usize> {
        self.offset
    }

    /// The message, as `Display` prints it: the pattern (abridged if long),
    /// the position and the construct.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for PatternError {}
