//! `unevaluatedProperties` and `unevaluatedItems`, once every annotation they read is in.

use super::{At, Interpreter};
use crate::eval::{Flow, Marks, Sink};
use crate::ir::NodeId;
use serde_json::{Map, Value};

impl Interpreter<'_> {
    /// `unevaluatedProperties`: the members no other keyword evaluated.
    pub(super) fn unevaluated_properties<const C: bool>(
        &self,
        schema: NodeId,
        map: &Map<String, Value>,
        at: At<'_>,
        st: &mut Sink,
        marks: &mut Marks,
    ) -> Flow {
        // Nothing is left to evaluate when every member is marked.
        if marks.all(map.len()) {
            return Ok(true);
        }
        let kp = at.kp.key("unevaluatedProperties");
        let mut valid = true;
        for (i, (key, value)) in map.iter().enumerate() {
            if marks.get(i) {
                continue;
            }
            let ip = at.ip.key(key);
            let keyword = "unevaluatedProperties";
            if !self.member::<C>(schema, value, &ip, &kp, at, st, keyword, Some(key), None)? {
                if !C {
                    return Ok(false);
                }
                valid = false;
            }
            marks.set(i);
        }
        Ok(valid)
    }

    /// `unevaluatedItems`: the items no other keyword evaluated.
    pub(super) fn unevaluated_items<const C: bool>(
        &self,
        schema: NodeId,
        items: &[Value],
        at: At<'_>,
        st: &mut Sink,
        marks: &mut Marks,
    ) -> Flow {
        if marks.all(items.len()) {
            return Ok(true);
        }
        let kp = at.kp.key("unevaluatedItems");
        let mut valid = true;
        for (i, item) in items.iter().enumerate() {
            if marks.get(i) {
                continue;
            }
            let ip = at.ip.index(i);
            let keyword = "unevaluatedItems";
            if !self.member::<C>(schema, item, &ip, &kp, at, st, keyword, None, Some(i))? {
                if !C {
                    return Ok(false);
                }
                valid = false;
            }
            marks.set(i);
        }
        Ok(valid)
    }
}
