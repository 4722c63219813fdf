//! Values generated from the grammars the `format` checkers implement, for the tests that hold
//! every checker to its standard beyond hand-picked cases: each grammar gives valid values
//! (every production the standard allows, chosen at random from a seed) and near misses (a
//! valid value with one rule broken in a way the grammar plainly forbids).
//!
//! ```
//! use toolschema_conformance::grammar::{Rng, grammars};
//!
//! let mut rng = Rng::new(7);
//! for g in grammars() {
//!     let value = (g.valid)(&mut rng);
//!     assert!(!g.format.is_empty() && value.len() < 4096);
//! }
//! ```

mod idn;
mod net;
mod text;
mod time;
mod uri;

/// A deterministic generator (SplitMix64): the same seed gives the same values everywhere.
///
/// ```
/// use toolschema_conformance::grammar::Rng;
///
/// use toolschema_conformance::grammar::grammars;
///
/// let date = &grammars()[1];
/// assert_eq!((date.valid)(&mut Rng::new(1)), (date.valid)(&mut Rng::new(1)));
/// ```
pub struct Rng(u64);

impl Rng {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// A number in `lo..=hi`.
    fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }

    /// True one time in `n`.
    fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    /// One of `items`.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    /// One character of `set`.
    fn char_of(&mut self, set: &str) -> char {
        let chars: Vec<char> = set.chars().collect();
        self.pick(&chars)
    }

    /// `min..=max` characters of `set`.
    fn chars_of(&mut self, set: &str, min: usize, max: usize) -> String {
        let n = self.range(min, max);
        (0..n).map(|_| self.char_of(set)).collect()
    }

    /// `min..=max` productions of `item`, joined by `sep`.
    fn join(
        &mut self,
        min: usize,
        max: usize,
        sep: &str,
        mut item: impl FnMut(&mut Rng) -> String,
    ) -> String {
        let n = self.range(min, max);
        (0..n).map(|_| item(self)).collect::<Vec<_>>().join(sep)
    }

    /// `text` with each ASCII letter in either case.
    fn any_case(&mut self, text: &str) -> String {
        text.chars()
            .map(|c| {
                if self.one_in(2) {
                    c.to_ascii_uppercase()
                } else {
                    c.to_ascii_lowercase()
                }
            })
            .collect()
    }
}

/// `DIGIT`.
const DIGIT: &str = "0123456789";
/// `ALPHA`.
const ALPHA: &str = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
/// `HEXDIG`, either case.
const HEXDIG: &str = "0123456789abcdefABCDEF";

/// One format's grammar.
///
/// ```
/// use toolschema_conformance::grammar::{Rng, grammars};
/// use toolschema::format::Format;
///
/// let uuid = grammars().into_iter().find(|g| g.format == "uuid").unwrap();
/// let mut rng = Rng::new(3);
/// assert!(Format::Uuid.is_valid(&(uuid.valid)(&mut rng)));
/// assert!(!Format::Uuid.is_valid(&(uuid.invalid)(&mut rng)));
/// ```
pub struct Grammar {
    /// The format name, as a schema writes it.
    pub format: &'static str,
    /// A value the grammar produces.
    pub valid: fn(&mut Rng) -> String,
    /// A value the grammar cannot produce: a valid one with one rule broken.
    pub invalid: fn(&mut Rng) -> String,
}

/// The grammar of every format the validator checks, in no particular order.
///
/// ```
/// use toolschema_conformance::grammar::grammars;
///
/// assert_eq!(grammars().len(), toolschema::format::Format::ALL.len());
/// ```
pub fn grammars() -> Vec<Grammar> {
    let mut all = Vec::new();
    all.extend(time::grammars());
    all.extend(net::grammars());
    all.extend(idn::grammars());
    all.extend(uri::grammars());
    all.extend(text::grammars());
    all
}
