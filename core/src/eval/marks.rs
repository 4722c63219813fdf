//! Evaluated-property and evaluated-item annotations, as bits.

/// Which instance members (object properties by position, or array items by index) have been
/// evaluated. The first 64 members are kept inline, so marking the members of an ordinary
/// object allocates nothing.
#[derive(Default)]
pub struct Marks {
    first: u64,
    rest: Vec<u64>,
}

impl Marks {
    /// Marks member `i` as evaluated.
    #[inline]
    pub fn set(&mut self, i: usize) {
        if i < 64 {
            self.first |= 1 << i;
            return;
        }
        let word = i / 64 - 1;
        if self.rest.len() <= word {
            self.rest.resize(word + 1, 0);
        }
        self.rest[word] |= 1 << (i % 64);
    }

    /// Whether member `i` was evaluated.
    #[inline]
    pub fn get(&self, i: usize) -> bool {
        if i < 64 {
            return self.first & (1 << i) != 0;
        }
        self.rest
            .get(i / 64 - 1)
            .is_some_and(|w| w & (1 << (i % 64)) != 0)
    }

    /// Whether members `0..n` are all marked: then an `unevaluated*` keyword has nothing to
    /// evaluate, and its loop over the members can be skipped.
    ///
    /// ```
    /// use toolschema::__private::Marks;
    /// let mut marks = Marks::default();
    /// marks.set(0);
    /// marks.set(1);
    /// assert!(marks.all(2) && !marks.all(3));
    /// ```
    #[inline]
    pub fn all(&self, n: usize) -> bool {
        let low = |bits: usize| {
            if bits >= 64 {
                u64::MAX
            } else {
                (1u64 << bits) - 1
            }
        };
        if self.first & low(n) != low(n) {
            return false;
        }
        (0..n.saturating_sub(64).div_ceil(64)).all(|w| {
            let want = low(n - 64 * (w + 1));
            self.rest.get(w).is_some_and(|word| word & want == want)
        })
    }

    /// Adds every member `other` marks.
    #[inline]
    pub fn merge(&mut self, other: &Marks) {
        self.first |= other.first;
        if other.rest.is_empty() {
            return;
        }
        if self.rest.len() < other.rest.len() {
            self.rest.resize(other.rest.len(), 0);
        }
        for (a, b) in self.rest.iter_mut().zip(&other.rest) {
            *a |= b;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Marks;

    /// `all` agrees with `get` on every member count, inline and spilled alike.
    #[test]
    fn marks_all_agrees_with_get() {
        for marked in [0usize, 1, 63, 64, 65, 127, 128, 130, 200] {
            for hole in [None, Some(0), Some(63), Some(64), Some(129)] {
                let mut marks = Marks::default();
                for i in (0..marked).filter(|&i| Some(i) != hole) {
                    marks.set(i);
                }
                for n in 0..=210 {
                    assert_eq!(
                        marks.all(n),
                        (0..n).all(|i| marks.get(i)),
                        "{marked} marked, hole {hole:?}, n {n}"
                    );
                }
            }
        }
        let mut a = Marks::default();
        a.set(3);
        let mut b = Marks::default();
        b.set(100);
        a.merge(&b);
        assert!(a.get(3) && a.get(100) && !a.get(99) && !a.get(64));
    }
}
