//! Instance and keyword locations as linked lists on the stack, written out as JSON Pointers
//! only when a failure is recorded.

use crate::pointer;

/// A location as a linked list of segments, innermost first.
#[derive(Clone, Copy)]
pub struct Path<'a> {
    segment: Segment<'a>,
    parent: Option<&'a Path<'a>>,
}

#[derive(Clone, Copy)]
enum Segment<'a> {
    Root,
    Key(&'a str),
    Index(usize),
}

impl<'a> Path<'a> {
    pub const ROOT: Path<'static> = Path {
        segment: Segment::Root,
        parent: None,
    };

    /// The location of the member `key` of this one.
    #[inline]
    pub fn key(&'a self, key: &'a str) -> Path<'a> {
        Path {
            segment: Segment::Key(key),
            parent: Some(self),
        }
    }

    /// The location of item `index` of this one.
    #[inline]
    pub fn index(&'a self, index: usize) -> Path<'a> {
        Path {
            segment: Segment::Index(index),
            parent: Some(self),
        }
    }

    /// `path` in the collecting flavour (`C`), `parent` in the quick one, which reads no
    /// location: both back ends pass a callee its location through this, and inlined, the
    /// unused `path` is never built. A collecting evaluation that sees a quick one halt runs
    /// it again collecting for the halt's location (`Sink::resume`).
    ///
    /// ```
    /// # use toolschema_core::__private::Path;
    /// let root = Path::ROOT;
    /// let member = root.key("a");
    /// assert_eq!(Path::collecting::<true>(&member, &root).pointer(), "/a");
    /// assert_eq!(Path::collecting::<false>(&member, &root).pointer(), "");
    /// ```
    #[inline(always)]
    pub fn collecting<'p, const C: bool>(path: &'p Path<'p>, parent: &'p Path<'p>) -> &'p Path<'p> {
        if C { path } else { parent }
    }

    /// The location as a JSON Pointer.
    pub fn pointer(&self) -> String {
        // Many failures are recorded at the root of the instance: no walk for its pointer.
        if self.parent.is_none() {
            return String::new();
        }
        // The segments come innermost first; they are written outermost first. The innermost
        // ones are kept in a short buffer on the stack (deeper paths spill), and the pointer
        // is allocated once, at its length short of escapes.
        const INLINE: usize = 16;
        let mut inline = [Segment::Root; INLINE];
        let mut spilled = Vec::new();
        let mut count = 0;
        let mut length = 0;
        for segment in std::iter::successors(Some(self), |p| p.parent).map(|p| p.segment) {
            if count < INLINE {
                inline[count] = segment;
            } else {
                spilled.push(segment);
            }
            length += match segment {
                Segment::Root => 0,
                Segment::Key(key) => 1 + key.len(),
                Segment::Index(_) => 4,
            };
            count += 1;
        }
        let mut out = String::with_capacity(length);
        for segment in spilled
            .iter()
            .rev()
            .chain(inline[..count.min(INLINE)].iter().rev())
        {
            match *segment {
                Segment::Root => {}
                Segment::Key(key) => pointer::push_token(&mut out, key),
                Segment::Index(index) => pointer::push_index(&mut out, index),
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::Path;

    /// Pointers of any depth, in order, with every escape and index width.
    #[test]
    fn pointers_of_any_length() {
        fn nest(depth: usize, at: &Path<'_>, expected: &mut String) {
            if depth == 0 {
                assert_eq!(at.pointer(), *expected);
                return;
            }
            let len = expected.len();
            if depth % 2 == 0 {
                expected.push_str(&format!("/{depth}"));
                nest(depth - 1, &at.index(depth), expected);
            } else {
                expected.push_str("/a~1b");
                nest(depth - 1, &at.key("a/b"), expected);
            }
            expected.truncate(len);
        }
        for depth in [0, 1, 15, 16, 17, 47, 48, 49, 200] {
            nest(depth, &Path::ROOT, &mut String::new());
        }
        let (a, b, c, d) = ("~x/", "", "é", "a~1");
        let p = Path::ROOT.key(a);
        let p = p.index(0);
        let p = p.key(b);
        let p = p.index(10);
        let p = p.key(c);
        let p = p.index(usize::MAX);
        let p = p.key(d);
        assert_eq!(p.pointer(), format!("/~0x~1/0//10/é/{}/a~01", usize::MAX));
    }
}
