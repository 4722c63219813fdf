//! The dynamic scope that `$dynamicRef` resolves against.

use crate::ir::ResourceId;

/// The dynamic scope: the schema resources entered, innermost first.
#[derive(Clone, Copy)]
pub struct Scope<'a> {
    resource: ResourceId,
    parent: Option<&'a Scope<'a>>,
}

impl<'a> Scope<'a> {
    /// The scope of an evaluation that starts in `resource`.
    pub fn root(resource: u32) -> Scope<'static> {
        Scope {
            resource: ResourceId(resource),
            parent: None,
        }
    }

    /// The resource entered last.
    pub fn resource(&self) -> u32 {
        self.resource.0
    }

    /// This scope with `resource` entered (itself when it is already the innermost).
    pub fn enter(&'a self, resource: u32) -> Scope<'a> {
        Scope {
            resource: ResourceId(resource),
            parent: Some(self),
        }
    }

    /// Which of `candidates` the outermost resource in scope is, by the `resource` each names:
    /// how `$dynamicRef` picks among the resources that define its anchor.
    ///
    /// ```
    /// use toolschema::eval::Scope;
    ///
    /// let root = Scope::root(1);
    /// let inner = root.enter(2);
    /// assert_eq!(inner.outermost(&[2, 1], |&r| r), Some(1));
    /// assert_eq!(inner.outermost(&[2, 3], |&r| r), Some(0));
    /// assert_eq!(inner.outermost(&[3], |&r| r), None);
    /// ```
    pub fn outermost<T>(&self, candidates: &[T], resource: impl Fn(&T) -> u32) -> Option<usize> {
        let mut chosen = None;
        for r in self.resources() {
            if let Some(i) = candidates.iter().position(|c| resource(c) == r) {
                chosen = Some(i);
            }
        }
        chosen
    }

    /// The resources in scope, innermost first.
    pub fn resources(&self) -> impl Iterator<Item = u32> + '_ {
        let mut at = Some(self);
        std::iter::from_fn(move || {
            let s = at?;
            at = s.parent;
            Some(s.resource.0)
        })
    }
}
