//! Whole-schema analysis on the lowered IR: termination and annotation tracking.

use super::registry::Loc;
use crate::error::{Error, ErrorClass};
use crate::ir::{Body, DynamicRef, Ir, Keywords, NodeId};

/// The subschemas a node applies to the same instance location ("in place"), with whether
/// their annotations reach the node (everything but `not`).
fn in_place(k: &Keywords, mut f: impl FnMut(NodeId, bool)) {
    if let Some(r) = k.reference {
        f(r, true);
    }
    match &k.dynamic_reference {
        Some(DynamicRef::Fixed(r)) => f(*r, true),
        Some(DynamicRef::Dynamic {
            fallback,
            candidates,
            ..
        }) => {
            f(*fallback, true);
            for (_, c) in candidates {
                f(*c, true);
            }
        }
        None => {}
    }
    for &n in k.all_of.iter().chain(&k.any_of).chain(&k.one_of) {
        f(n, true);
    }
    if let Some(n) = k.not {
        f(n, false);
    }
    if let Some(c) = &k.condition {
        f(c.if_, true);
        c.then.into_iter().chain(c.else_).for_each(|n| f(n, true));
    }
    if let Some(o) = &k.object {
        for d in &o.dependent_schemas {
            f(d.then, true);
        }
    }
}

/// Rejects a cycle of in-place applicators: evaluation would revisit the same subschema on the
/// same instance location forever.
pub fn reject_cycles(ir: &Ir, locs: &[Loc]) -> Result<(), Error> {
    const WHITE: u8 = 0;
    const GREY: u8 = 1;
    const BLACK: u8 = 2;
    let mut color = vec![WHITE; ir.nodes.len()];
    let edges = |id: NodeId| {
        let mut out = Vec::new();
        if let Body::Keywords(k) = &ir.node(id).body {
            in_place(k, |n, _| out.push(n));
        }
        out
    };
    for start in 0..ir.nodes.len() {
        if color[start] != WHITE {
            continue;
        }
        let mut stack: Vec<(NodeId, Vec<NodeId>)> =
            vec![(NodeId(start as u32), edges(NodeId(start as u32)))];
        color[start] = GREY;
        while let Some((node, pending)) = stack.last_mut() {
            match pending.pop() {
                Some(next) => match color[next.index()] {
                    WHITE => {
                        color[next.index()] = GREY;
                        let e = edges(next);
                        stack.push((next, e));
                    }
                    GREY => {
                        return Err(Error::schema(
                            ErrorClass::Validation,
                            &locs[node.index()].ptr,
                            "$ref",
                            format!(
                                "the schema applies {} to itself without descending into the instance, so evaluation would never end",
                                ir.node(next).uri
                            ),
                        ));
                    }
                    _ => {}
                },
                None => {
                    color[node.index()] = BLACK;
                    stack.pop();
                }
            }
        }
    }
    Ok(())
}

/// Marks shallow nodes, and object plans that mix shallow and deep property subschemas.
pub fn mark_shallow(ir: &mut Ir) {
    for node in &mut ir.nodes {
        node.shallow = match &node.body {
            Body::Bool(_) => true,
            Body::Keywords(k) => {
                k.reference.is_none()
                    && k.dynamic_reference.is_none()
                    && k.all_of.is_empty()
                    && k.any_of.is_empty()
                    && k.one_of.is_empty()
                    && k.not.is_none()
                    && k.condition.is_none()
                    && k.array.is_none()
                    && k.object.is_none()
                    && k.string.as_ref().is_none_or(|s| s.content.is_none())
            }
        };
    }
    let shallow: Vec<bool> = ir.nodes.iter().map(|n| n.shallow).collect();
    for node in &mut ir.nodes {
        if let Body::Keywords(k) = &mut node.body {
            if let Some(o) = &mut k.object {
                let deep = o
                    .properties
                    .iter()
                    .filter(|(_, n)| !shallow[n.index()])
                    .count();
                o.shallow_first = deep > 0 && (deep < o.properties.len() || !o.required.is_empty());
            }
        }
    }
}

/// Marks the nodes whose evaluated properties or items some `unevaluated*` keyword consumes:
/// the in-place subschemas of a node with `unevaluatedProperties` / `unevaluatedItems`, and
/// theirs in turn.
pub fn mark_tracking(ir: &mut Ir) {
    let mut props: Vec<NodeId> = Vec::new();
    let mut items: Vec<NodeId> = Vec::new();
    for node in &ir.nodes {
        if let Body::Keywords(k) = &node.body {
            let wants_props = k.unevaluated_properties().is_some();
            let wants_items = k.unevaluated_items().is_some();
            if wants_props || wants_items {
                in_place(k, |n, annotates| {
                    if annotates {
                        if wants_props {
                            props.push(n);
                        }
                        if wants_items {
                            items.push(n);
                        }
                    }
                });
            }
        }
    }
    propagate(ir, props, |n| &mut n.tracks_properties);
    propagate(ir, items, |n| &mut n.tracks_items);
}

fn propagate(ir: &mut Ir, mut work: Vec<NodeId>, flag: fn(&mut crate::ir::Node) -> &mut bool) {
    while let Some(id) = work.pop() {
        let node = &mut ir.nodes[id.index()];
        if *flag(node) {
            continue;
        }
        *flag(node) = true;
        if let Body::Keywords(k) = &ir.nodes[id.index()].body {
            in_place(k, |n, annotates| {
                if annotates {
                    work.push(n);
                }
            });
        }
    }
}
