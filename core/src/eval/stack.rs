//! Native stack for evaluation.
//!
//! The interpreter and generated validators both recurse once per level of evaluation (a
//! subschema that applies subschemas). A level from which [`CHECK_EVERY`] or more levels can
//! follow (`Node::looks_at_stack`, every node on or above a cycle) first asks [`stack_low`],
//! which looks at the stack every [`CHECK_EVERY`] levels; when less than [`RED_ZONE`] of it is
//! left, the level runs itself again through [`on_new_stack`], on a fresh heap-allocated
//! segment of [`SEGMENT`] bytes. So evaluation needs no particular thread stack: how deep it
//! goes is bounded by `max_evaluation_depth` alone, and its memory by that depth times the
//! frame of one level (measured in docs/limits.md). The levels below the last that looks are
//! fewer than [`CHECK_EVERY`], so fewer than twice [`CHECK_EVERY`] levels ever separate a look
//! from the next or from the deepest level; a schema whose evaluation cannot nest
//! [`CHECK_EVERY`] levels never looks.
//!
//! The level is passed as a `dyn FnMut`, not a generic closure: generated validators are
//! chains of distinct functions, and a generic helper instantiated once per link would nest
//! its instantiations as deep as the chain is long.

use super::Halt;

/// Levels of evaluation between two looks at the stack. A look reads the stack pointer and a
/// thread-local limit, which costs several times a level's cheapest work; the levels between
/// two looks (fewer than twice this, see the [module documentation](self)) take under 64 KiB
/// even unoptimised.
pub const CHECK_EVERY: usize = 8;

/// Stack that must be left when a level looks: much more than twice [`CHECK_EVERY`] levels of
/// evaluation take in an unoptimised build (about 3 KiB each) plus everything a level calls
/// that does not come back here (regular expressions, formats, decoding and parsing
/// `contentMediaType` documents, comparing argument values, messages).
pub(crate) const RED_ZONE: usize = 512 * 1024;

/// Size of each segment allocated when the stack runs low: room for hundreds of levels even
/// in an unoptimised build, so a deep evaluation allocates few of them.
pub(crate) const SEGMENT: usize = 2 * 1024 * 1024;

/// Whether the level at `depth` should not start on the current stack: it is one that looks
/// (every [`CHECK_EVERY`]th), and the stack is nearly used up (or the platform does not say how
/// much is left).
///
/// ```
/// use toolschema::__private::stack_low;
///
/// // A fresh thread has plenty.
/// assert!(!std::thread::spawn(|| stack_low(0)).join().unwrap());
/// ```
#[inline]
pub fn stack_low(depth: usize) -> bool {
    depth % CHECK_EVERY == 0 && stacker::remaining_stack().is_none_or(|left| left < RED_ZONE)
}

/// Runs one level of evaluation on a fresh stack segment; it is called once.
///
/// ```
/// use toolschema::__private::{Halt, on_new_stack, stack_low};
///
/// fn depth_of(n: usize, seen: &mut u32) -> Result<bool, Halt> {
///     if n == 0 {
///         return Ok(true);
///     }
///     if stack_low(n) {
///         return on_new_stack(&mut || depth_of(n, seen));
///     }
///     *seen += 1;
///     depth_of(n - 1, seen)
/// }
/// let mut seen = 0;
/// assert!(matches!(depth_of(100_000, &mut seen), Ok(true)));
/// assert_eq!(seen, 100_000);
/// ```
#[cold]
#[inline(never)]
pub fn on_new_stack(level: &mut dyn FnMut() -> Result<bool, Halt>) -> Result<bool, Halt> {
    stacker::grow(SEGMENT, level)
}
