//! `allOf`, `anyOf`, `oneOf`, `not`, and `if` / `then` / `else`.

use super::{At, Interpreter};
use crate::eval::{Flow, Marks, Sink};
use crate::ir::{Branches, Condition, Node, NodeId};
use crate::messages;
use serde_json::Value;

impl Interpreter<'_> {
    /// `allOf`.
    pub(super) fn all_of<const C: bool>(
        &self,
        schemas: &[NodeId],
        v: &Value,
        at: At<'_>,
        st: &mut Sink,
        mut marks: Option<&mut Marks>,
    ) -> Flow {
        let kp = at.kp.key("allOf");
        let mut valid = true;
        for (i, &schema) in schemas.iter().enumerate() {
            let kp = kp.index(i);
            if !self.eval::<C>(schema, v, at.keyword::<C>(&kp), st, marks.as_deref_mut())? {
                if !C {
                    return Ok(false);
                }
                valid = false;
            }
        }
        Ok(valid)
    }

    /// `anyOf`: every branch that is not ruled out runs until one holds, or, when its marks
    /// are read, every branch.
    pub(super) fn any_of<const C: bool>(
        &self,
        node: &Node,
        branches: &Branches,
        v: &Value,
        at: At<'_>,
        st: &mut Sink,
        marks: Option<&mut Marks>,
    ) -> Flow {
        // Recording for the output formats runs every branch: each one's failures or
        // annotations are part of the result.
        let recording = C && st.recording();
        let rules = branches.rules();
        let read = rules.read(v);
        let kp = at.kp.key("anyOf");
        let mut any = false;
        let mut marks = marks;
        for i in rules.candidates(read, branches.schemas.len(), recording) {
            if !recording && rules.rules_out(i, read, v) {
                continue;
            }
            let schema = branches.schemas[i];
            let kp = kp.index(i);
            let inner = at.keyword::<C>(&kp);
            match marks.as_deref_mut() {
                Some(marks) => {
                    let mut branch = Marks::default();
                    if self.branch::<C>(schema, v, inner, st, Some(&mut branch))? {
                        marks.merge(&branch);
                        any = true;
                    }
                }
                None => {
                    if self.branch::<C>(schema, v, inner, st, None)? {
                        any = true;
                        if !recording {
                            break;
                        }
                    }
                }
            }
        }
        if !any && C {
            self.fail(st, node, "anyOf", at, messages::any_of());
        }
        Ok(any)
    }

    /// `oneOf`: branches run until a second one holds.
    pub(super) fn one_of<const C: bool>(
        &self,
        node: &Node,
        branches: &Branches,
        v: &Value,
        at: At<'_>,
        st: &mut Sink,
        marks: Option<&mut Marks>,
    ) -> Flow {
        // Recording for the output formats runs every branch: each one's failures or
        // annotations are part of the result.
        let recording = C && st.recording();
        let rules = branches.rules();
        let read = rules.read(v);
        let kp = at.kp.key("oneOf");
        let tracking = marks.is_some();
        let mut first: Option<(usize, Marks)> = None;
        let mut second = None;
        for i in rules.candidates(read, branches.schemas.len(), recording) {
            if !recording && rules.rules_out(i, read, v) {
                continue;
            }
            let schema = branches.schemas[i];
            let kp = kp.index(i);
            let mut branch = Marks::default();
            let out = if tracking { Some(&mut branch) } else { None };
            if self.branch::<C>(schema, v, at.keyword::<C>(&kp), st, out)? {
                if first.is_none() {
                    first = Some((i, branch));
                } else if second.is_none() {
                    second = Some(i);
                    if !recording {
                        break;
                    }
                }
            }
        }
        match (first, second) {
            (Some((_, kept)), None) => {
                if let Some(marks) = marks {
                    marks.merge(&kept);
                }
                Ok(true)
            }
            (None, _) => {
                if C {
                    self.fail(st, node, "oneOf", at, messages::one_of_none());
                }
                Ok(false)
            }
            (Some((a, _)), Some(b)) => {
                if C {
                    self.fail(st, node, "oneOf", at, messages::one_of_many(a, b));
                }
                Ok(false)
            }
        }
    }

    /// `not`.
    pub(super) fn not<const C: bool>(
        &self,
        node: &Node,
        schema: NodeId,
        v: &Value,
        at: At<'_>,
        st: &mut Sink,
    ) -> Flow {
        let kp = at.kp.key("not");
        if !self.branch::<C>(schema, v, at.keyword::<C>(&kp), st, None)? {
            return Ok(true);
        }
        if C {
            self.fail(st, node, "not", at, messages::not());
        }
        Ok(false)
    }

    /// `if` / `then` / `else`.
    pub(super) fn condition<const C: bool>(
        &self,
        condition: &Condition,
        v: &Value,
        at: At<'_>,
        st: &mut Sink,
        marks: Option<&mut Marks>,
    ) -> Flow {
        let kp = at.kp.key("if");
        let tracking = marks.is_some();
        let mut branch = Marks::default();
        let out = if tracking { Some(&mut branch) } else { None };
        let holds = self.branch::<C>(condition.if_, v, at.keyword::<C>(&kp), st, out)?;
        let (keyword, then) = if holds {
            ("then", condition.then)
        } else {
            ("else", condition.else_)
        };
        let mut marks = marks;
        if holds {
            if let Some(marks) = marks.as_deref_mut() {
                marks.merge(&branch);
            }
        }
        let Some(then) = then else {
            return Ok(true);
        };
        let kp = at.kp.key(keyword);
        self.eval::<C>(then, v, at.keyword::<C>(&kp), st, marks)
    }
}
