//! `$ref` and `$dynamicRef`.

use super::{At, Interpreter};
use crate::eval::{Flow, Marks, Sink};
use crate::ir::{DynamicTargets, NodeId};
use serde_json::Value;

impl Interpreter<'_> {
    /// `$ref`, or a `$dynamicRef` whose target cannot vary (`keyword` names which).
    pub(super) fn reference<const C: bool>(
        &self,
        target: NodeId,
        keyword: &'static str,
        v: &Value,
        at: At<'_>,
        st: &mut Sink,
        marks: Option<&mut Marks>,
    ) -> Flow {
        let kp = at.kp.key(keyword);
        self.eval::<C>(target, v, at.keyword::<C>(&kp), st, marks)
    }

    /// A `$dynamicRef` whose target the dynamic scope decides.
    pub(super) fn dynamic_reference<const C: bool>(
        &self,
        targets: &DynamicTargets,
        v: &Value,
        at: At<'_>,
        st: &mut Sink,
        marks: Option<&mut Marks>,
    ) -> Flow {
        let target = targets.target(at.scope);
        self.reference::<C>(target, "$dynamicRef", v, at, st, marks)
    }
}
