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
