//! Admitting the root's members to the argument limits during a first-failure check, in the
//! key pass that evaluates them, instead of a walk of their own.

use super::Cx;
use toolschema_core::ir::{Check, Ir, NodeId};

/// How a function takes part in admitting the root's members to the argument limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Admission {
    /// Its key pass admits them.
    Own,
    /// It hands the admitting on to its `$ref`.
    Ref,
    /// It hands the admitting on to this member of its `allOf`.
    AllOf(usize),
}

/// The chain of functions from the root to the one whose key pass admits the root's members
/// to the argument limits, in a first-failure check (`rt::is_valid_admitting`), instead of a
/// walk of their own: the root itself when it has a key pass, else the first `$ref` or `allOf`
/// member (applied to the same value, unconditionally) that has one, or hands on to one.
/// Empty when there is none, or when arguments are walked before evaluation
/// (`Ir::compares_arguments`).
///
/// At run time the chain passes on the root value's address (`Sink::hand`), and each function
/// of the chain admits, or hands on, only when its own call is the one handed to
/// (`Sink::take_hand`), so a function of the chain called anywhere else admits nothing.
pub(super) fn admission_chain(ir: &Ir) -> Vec<(NodeId, Admission)> {
    fn find(ir: &Ir, id: NodeId, chain: &mut Vec<(NodeId, Admission)>) -> bool {
        // In-place applicators form no cycle, but the chain is kept short all the same.
        if chain.len() >= 16 || chain.iter().any(|(n, _)| *n == id) {
            return false;
        }
        let checks = &ir.node(id).checks;
        if checks.iter().any(|c| matches!(c, Check::KeyPass(_))) {
            chain.push((id, Admission::Own));
            return true;
        }
        let next = checks.iter().flat_map(|c| match c {
            Check::Ref {
                target,
                keyword: "$ref",
            } => vec![(*target, Admission::Ref)],
            Check::AllOf(members) => members
                .iter()
                .enumerate()
                .map(|(i, &m)| (m, Admission::AllOf(i)))
                .collect(),
            _ => Vec::new(),
        });
        for (child, how) in next {
            chain.push((id, how));
            if find(ir, child, chain) {
                return true;
            }
            chain.pop();
        }
        false
    }
    let mut chain = Vec::new();
    if !ir.compares_arguments && !find(ir, ir.root, &mut chain) {
        chain.clear();
    }
    chain
}

impl Cx<'_> {
    /// What the function being emitted does to admit the root's members, if it takes part.
    pub(super) fn admission(&self) -> Option<Admission> {
        let members = self.current_members();
        self.admission
            .iter()
            .find(|(id, _)| members.contains(id))
            .map(|&(_, a)| a)
    }
}
