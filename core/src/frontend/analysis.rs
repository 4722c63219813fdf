//! Whole-schema analysis on the lowered IR: termination, annotation tracking, the
//! discriminators of `anyOf`/`oneOf`, and the stack looks (how far evaluation can go is
//! [`super::bound`]'s).

use super::registry::Loc;
use crate::error::{Error, ErrorClass};
use crate::eval::stack::CHECK_EVERY;
use crate::ir::{Body, BranchRules, Discriminator, DynamicRef, Ir, Keywords, NodeId};
use crate::json::{JsonType, TypeSet};
use serde_json::Value;
use std::sync::Arc;

/// The subschemas a node applies to the same instance location ("in place"), with whether
/// their annotations reach the node (everything but `not`).
pub(super) fn in_place(k: &Keywords, mut f: impl FnMut(NodeId, bool)) {
    if let Some(r) = k.reference {
        f(r, true);
    }
    match k.dynamic_reference.as_deref() {
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

/// A depth-first walk over the in-place applicators (see [`in_place`]), from every node for
/// which `start` says so, in node order; `follow` says whether to descend along an edge from a
/// node to the next, `finish` is told when a node's edges are done. One stack and one list of
/// pending edges serve the whole walk, so it allocates nothing per node. Edges are taken last
/// first.
fn depth_first<S, E>(
    ir: &Ir,
    state: &mut S,
    start: impl Fn(&mut S, NodeId) -> bool,
    follow: impl Fn(&mut S, NodeId, NodeId) -> Result<bool, E>,
    finish: impl Fn(&mut S, NodeId),
) -> Result<(), E> {
    // Each open node, with where its edges begin in `pending`.
    let mut stack: Vec<(NodeId, usize)> = Vec::new();
    let mut pending: Vec<NodeId> = Vec::new();
    let open = |id: NodeId, stack: &mut Vec<(NodeId, usize)>, pending: &mut Vec<NodeId>| {
        stack.push((id, pending.len()));
        if let Body::Keywords(k) = &ir.node(id).body {
            in_place(k, |n, _| pending.push(n));
        }
    };
    for first in (0..ir.nodes.len()).map(|i| NodeId(i as u32)) {
        if !start(state, first) {
            continue;
        }
        open(first, &mut stack, &mut pending);
        while let Some(&(node, edges)) = stack.last() {
            if pending.len() > edges {
                if let Some(next) = pending.pop() {
                    if follow(state, node, next)? {
                        open(next, &mut stack, &mut pending);
                    }
                }
            } else {
                stack.pop();
                finish(state, node);
            }
        }
    }
    Ok(())
}

/// Rejects a cycle of in-place applicators: evaluation would revisit the same subschema on the
/// same instance location forever.
pub fn reject_cycles(ir: &Ir, locs: &[Loc]) -> Result<(), Error> {
    const WHITE: u8 = 0;
    const GREY: u8 = 1;
    const BLACK: u8 = 2;
    let mut color = vec![WHITE; ir.nodes.len()];
    depth_first(
        ir,
        &mut color,
        |color, first| {
            let white = color[first.index()] == WHITE;
            if white {
                color[first.index()] = GREY;
            }
            white
        },
        |color, node, next| match color[next.index()] {
            WHITE => {
                color[next.index()] = GREY;
                Ok(true)
            }
            GREY => Err(Error::schema(
                ErrorClass::Validation,
                &locs[node.index()].ptr,
                "$ref",
                format!(
                    "the schema applies {} to itself without descending into the instance, so evaluation would never end",
                    ir.node(next).uri
                ),
            )),
            _ => Ok(false),
        },
        |color, node| color[node.index()] = BLACK,
    )
}

/// Marks shallow nodes, and the object plans of tried nodes (see [`tried`]) that mix shallow
/// and deep property subschemas. A shallow node is a leaf (see [`mark_leaves`], which runs
/// first) with no array, object or content keywords either.
///
/// Checking the shallow properties first only pays where failing is common and a failure
/// ends the work: a tried subschema, where it rules a branch out (a discriminator) before
/// any deep subschema runs. Elsewhere a failure fails the call, and a valid call, the common
/// one, would pay for a second pass over its members.
pub fn mark_shallow(ir: &mut Ir) {
    for node in &mut ir.nodes {
        node.shallow = node.leaf
            && match &node.body {
                Body::Bool(_) => true,
                Body::Keywords(k) => {
                    k.array.is_none()
                        && k.object.is_none()
                        && k.string.as_ref().is_none_or(|s| s.content.is_none())
                }
            };
    }
    let shallow: Vec<bool> = ir.nodes.iter().map(|n| n.shallow).collect();
    let tried = tried(ir);
    for (node, tried) in ir.nodes.iter_mut().zip(tried) {
        if let Body::Keywords(k) = &mut node.body {
            if let Some(o) = k.object.as_mut().filter(|_| tried) {
                let o = Arc::make_mut(o);
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

/// The tried nodes: those whose failure need not fail the node that applies them (the
/// branches of `anyOf` and `oneOf`, the subschemas of `not`, `if` and `contains`), and every
/// node they apply in place.
///
/// A branch that runs only where every other branch is ruled out (see [`sole_branches`]) is
/// not tried: when it runs, it is the one the instance was meant for, and it fails no more
/// often than any other subschema.
fn tried(ir: &Ir) -> Vec<bool> {
    let mut tried = vec![false; ir.nodes.len()];
    let mut stack: Vec<NodeId> = Vec::new();
    for node in &ir.nodes {
        if let Body::Keywords(k) = &node.body {
            for (branches, rules) in [(&k.any_of, k.any_of_rules()), (&k.one_of, k.one_of_rules())]
            {
                let sole = sole_branches(branches.len(), rules);
                stack.extend(
                    branches
                        .iter()
                        .zip(sole)
                        .filter(|(_, sole)| !sole)
                        .map(|(&b, _)| b),
                );
            }
            stack.extend(k.not);
            stack.extend(k.condition.as_ref().map(|c| c.if_));
            stack.extend(
                k.array
                    .as_ref()
                    .and_then(|a| a.contains.as_ref())
                    .map(|c| c.schema),
            );
        }
    }
    while let Some(id) = stack.pop() {
        if std::mem::replace(&mut tried[id.index()], true) {
            continue;
        }
        if let Body::Keywords(k) = &ir.node(id).body {
            in_place(k, |n, _| stack.push(n));
        }
    }
    tried
}

/// Per branch of an `anyOf` or `oneOf`, whether it runs only where the branch rules (see
/// [`BranchRules`]) rule every other branch out: against each other branch, the types they
/// allow are disjoint, or both name values of the discriminating member and share none.
/// (An object without the member runs them all; such a call is rarely valid.)
fn sole_branches(n: usize, rules: BranchRules<'_>) -> impl Iterator<Item = bool> {
    // `integer` is a kind of `number`: two sets with either of them overlap.
    let widened = |t: TypeSet| {
        if t.contains(JsonType::Integer) {
            t.with(JsonType::Number)
        } else {
            t
        }
    };
    let apart = move |i: usize, j: usize| {
        let types = rules
            .types
            .is_some_and(|t| widened(t[i]).bits() & widened(t[j]).bits() == 0);
        let values = rules
            .discriminator
            .is_some_and(|d| match (&d.values[i], &d.values[j]) {
                (Some(a), Some(b)) => !a.iter().any(|v| b.contains(v)),
                _ => false,
            });
        types || values
    };
    (0..n).map(move |i| (0..n).all(|j| j == i || apart(i, j)))
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

/// How far behind `$ref` and `allOf` a branch's member constraints are looked for.
const DISCRIMINATOR_HOPS: usize = 4;

/// Finds, for every `anyOf` and `oneOf` of two or more branches, the member that rules out
/// the most branches before they run (see [`crate::ir::Discriminator`]), if it rules out any
/// in at least two of them.
pub fn find_discriminators(ir: &mut Ir) {
    for i in 0..ir.nodes.len() {
        let Body::Keywords(k) = &ir.nodes[i].body else {
            continue;
        };
        let any_of = discriminator(ir, &k.any_of);
        let one_of = discriminator(ir, &k.one_of);
        let any_of_types = crate::ir::branch_types(ir, &k.any_of);
        let one_of_types = crate::ir::branch_types(ir, &k.one_of);
        if let Body::Keywords(k) = &mut ir.nodes[i].body {
            k.any_of_discriminator = any_of.map(Box::new);
            k.one_of_discriminator = one_of.map(Box::new);
            k.any_of_types = any_of_types;
            k.one_of_types = one_of_types;
        }
    }
}

fn discriminator(ir: &Ir, branches: &[NodeId]) -> Option<Discriminator> {
    if branches.len() < 2 {
        return None;
    }
    let constraints: Vec<Vec<(&str, Vec<String>)>> = branches
        .iter()
        .map(|&b| {
            let mut found = Vec::new();
            member_constraints(ir, b, DISCRIMINATOR_HOPS, &mut found);
            found
        })
        .collect();
    // The member most branches constrain; among equals, the first named.
    let mut best: Option<(&str, usize)> = None;
    for (name, _) in constraints.iter().flatten() {
        let count = constraints
            .iter()
            .filter(|c| c.iter().any(|(n, _)| n == name))
            .count();
        if best.is_none_or(|(_, c)| count > c) {
            best = Some((name, count));
        }
    }
    let (property, count) = best?;
    if count < 2 {
        return None;
    }
    let values = constraints
        .iter()
        .map(|c| {
            c.iter()
                .find(|(n, _)| *n == property)
                .map(|(_, v)| v.clone())
        })
        .collect();
    Some(Discriminator {
        property: property.to_owned(),
        values,
    })
}

/// The members node `id` requires, through `properties` applied in place, to be one of some
/// strings: from its own `properties`, and from what it applies behind `$ref` and `allOf`,
/// `hops` deep. The first constraint found for a member is kept (any one of them suffices to
/// rule a branch out).
fn member_constraints<'a>(
    ir: &'a Ir,
    id: NodeId,
    hops: usize,
    found: &mut Vec<(&'a str, Vec<String>)>,
) {
    let Body::Keywords(k) = &ir.node(id).body else {
        return;
    };
    for (name, child) in k.object.iter().flat_map(|o| &o.properties) {
        let Body::Keywords(c) = &ir.node(*child).body else {
            continue;
        };
        let strings = match (c.constant.as_deref(), c.enumeration.as_deref()) {
            (Some(Value::String(s)), _) => Some(vec![s.clone()]),
            (None, Some(options)) => options
                .iter()
                .map(|o| o.as_str().map(str::to_owned))
                .collect(),
            _ => None,
        };
        if let Some(strings) = strings
            && !found.iter().any(|(n, _)| n == name)
        {
            found.push((name, strings));
        }
    }
    if hops == 0 {
        return;
    }
    for &next in k.reference.iter().chain(&k.all_of) {
        member_constraints(ir, next, hops - 1, found);
    }
}

/// Where a subschema applies, relative to the node that applies it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Reach<'k> {
    /// The same value (`$ref`, `allOf`, `if`, `dependentSchemas`, …).
    InPlace,
    /// The member of this name (`properties`).
    Property(&'k str),
    /// The item at this index (`prefixItems`).
    Item(usize),
    /// Any number of members (`patternProperties`, `additionalProperties`,
    /// `unevaluatedProperties`), or their names (`propertyNames`).
    AnyProperty,
    /// Any number of items (`items`, `contains`, `unevaluatedItems`).
    AnyItem,
    /// A document decoded from a string (`contentSchema`): not part of the arguments.
    Decoded,
}

impl Reach<'_> {
    /// Whether the subschema may apply to any number of values.
    pub(super) fn is_spread(self) -> bool {
        matches!(self, Reach::AnyProperty | Reach::AnyItem)
    }
}

/// Every subschema node `k` applies, with where it applies it.
pub(super) fn reaches<'k>(k: &'k Keywords, mut f: impl FnMut(NodeId, Reach<'k>)) {
    in_place(k, |n, _| f(n, Reach::InPlace));
    if let Some(s) = k.string.as_ref().and_then(|s| s.content.as_ref()?.schema) {
        f(s, Reach::Decoded);
    }
    if let Some(a) = &k.array {
        for (i, &n) in a.prefix_items.iter().enumerate() {
            f(n, Reach::Item(i));
        }
        let contains = a.contains.as_ref().map(|c| c.schema);
        for n in [a.items, contains, a.unevaluated_items]
            .into_iter()
            .flatten()
        {
            f(n, Reach::AnyItem);
        }
    }
    if let Some(o) = &k.object {
        for (name, n) in &o.properties {
            f(*n, Reach::Property(name));
        }
        o.pattern_properties
            .iter()
            .for_each(|&(_, n)| f(n, Reach::AnyProperty));
        for n in [
            o.additional_properties,
            o.property_names,
            o.unevaluated_properties,
        ]
        .into_iter()
        .flatten()
        {
            f(n, Reach::AnyProperty);
        }
    }
}

/// Marks the key passes that leave claiming their object for admission to the argument limits
/// to a subschema applied in place after them ([`crate::ir::ObjectPlan::defers_claim`]).
///
/// The first pass to reach an awaited object claims it, and a member it applies no subschema
/// to is walked whole when the pass settles it (see `eval::admission`). A pass that evaluates
/// only named properties, ahead of `allOf`, `anyOf`, `oneOf`, `if`/`then`/`else` or
/// `dependentSchemas` subschemas with key passes of their own, would have the other members
/// walked, and then evaluated by those passes unadmitted: a tree of tagged unions is walked
/// over and over. Leaving the claim to them is always correct, since a container that no pass
/// claims is walked by the pass over its parent.
pub fn mark_deferred_claims(ir: &mut Ir) {
    let may_pass = key_pass_reach(ir);
    for node in &mut ir.nodes {
        let Body::Keywords(k) = &mut node.body else {
            continue;
        };
        let Some(o) = &k.object else {
            continue;
        };
        if !o.needs_key_pass()
            || o.additional_properties.is_some()
            || !o.pattern_properties.is_empty()
        {
            continue;
        }
        let mut later = k.all_of.iter().chain(&k.any_of).chain(&k.one_of).copied();
        let mut deferred = later.any(|n| may_pass[n.index()]);
        if let Some(c) = &k.condition {
            deferred |= [Some(c.if_), c.then, c.else_]
                .into_iter()
                .flatten()
                .any(|n| may_pass[n.index()]);
        }
        deferred |= o.dependent_schemas.iter().any(|d| may_pass[d.then.index()]);
        if let Some(o) = &mut k.object {
            Arc::make_mut(o).defers_claim = deferred;
        }
    }
}

/// For each node, whether evaluating it on an object may run a key pass over that object: its
/// own, or that of a subschema it applies in place. The in-place applicators form no cycle
/// ([`reject_cycles`] runs first), so a depth-first walk settles every node once.
fn key_pass_reach(ir: &Ir) -> Vec<bool> {
    let own = |id: NodeId| match &ir.node(id).body {
        Body::Keywords(k) => k.object.as_ref().is_some_and(|o| o.needs_key_pass()),
        Body::Bool(_) => false,
    };
    let mut reach: Vec<Option<bool>> = vec![None; ir.nodes.len()];
    let settled: Result<(), std::convert::Infallible> = depth_first(
        ir,
        &mut reach,
        |reach, first| reach[first.index()].is_none(),
        |reach, _, next| Ok(reach[next.index()].is_none()),
        |reach, node| {
            let mut passes = own(node);
            if let Body::Keywords(k) = &ir.node(node).body {
                in_place(k, |n, _| passes |= reach[n.index()] == Some(true));
            }
            reach[node.index()] = Some(passes);
        },
    );
    let Ok(()) = settled;
    reach.into_iter().map(|r| r == Some(true)).collect()
}

/// Marks the nodes that apply no subschema (see [`Node::leaf`]).
pub fn mark_leaves(ir: &mut Ir) {
    for node in &mut ir.nodes {
        node.leaf = match &node.body {
            Body::Bool(_) => true,
            Body::Keywords(k) => {
                let mut applies = false;
                reaches(k, |_, _| applies = true);
                !applies
            }
        };
    }
}

/// Marks the nodes whose evaluation looks at the native stack first ([`Node::looks_at_stack`]):
/// those from which a chain of [`CHECK_EVERY`] or more levels of evaluation can follow, their
/// own included; so every node on or above a cycle of subschemas.
///
/// Along any chain of levels, the height (the longest chain from a node down) only falls, so
/// the nodes that look come first and fewer than [`CHECK_EVERY`] levels follow the last of
/// them. A node that looks does so at every [`CHECK_EVERY`]th level; so fewer than twice that
/// many levels separate a look from the next one, or from the deepest level.
///
/// [`Node::looks_at_stack`]: crate::ir::Node::looks_at_stack
pub fn mark_stack_looks(ir: &mut Ir) {
    const UNSEEN: usize = usize::MAX;
    const OPEN: usize = usize::MAX - 1;
    const ENDLESS: usize = usize::MAX - 2;
    let children = |id: NodeId| {
        let mut out = Vec::new();
        if let Body::Keywords(k) = &ir.node(id).body {
            reaches(k, |n, _| out.push(n));
        }
        out
    };
    let mut height = vec![UNSEEN; ir.nodes.len()];
    for start in 0..ir.nodes.len() {
        if height[start] != UNSEEN {
            continue;
        }
        height[start] = OPEN;
        let start = NodeId(start as u32);
        let mut stack = vec![(start, children(start), 0usize)];
        while let Some((id, kids, next)) = stack.last_mut() {
            if let Some(&child) = kids.get(*next) {
                *next += 1;
                if height[child.index()] == UNSEEN {
                    height[child.index()] = OPEN;
                    let grandchildren = children(child);
                    stack.push((child, grandchildren, 0));
                }
                continue;
            }
            // A child still open is an ancestor: the edge to it closes a cycle.
            let below = kids.iter().map(|c| match height[c.index()] {
                OPEN | ENDLESS => ENDLESS,
                h => h,
            });
            height[id.index()] = if ir.node(*id).leaf {
                0
            } else {
                below
                    .max()
                    .map_or(1, |h| if h == ENDLESS { h } else { h + 1 })
            };
            stack.pop();
        }
    }
    for (node, h) in ir.nodes.iter_mut().zip(height) {
        node.looks_at_stack = h >= CHECK_EVERY;
    }
}

#[cfg(test)]
mod tests {
    use crate::Validator;
    use crate::ir::{Body, NodeId};
    use serde_json::{Value, json};

    /// Whether each `anyOf` / `oneOf` branch of `schema`'s root checks its shallow properties
    /// first.
    fn shallow_first(schema: Value) -> Vec<bool> {
        let v = Validator::new(&schema).unwrap();
        let ir = v.ir();
        let Body::Keywords(root) = &ir.node(ir.root).body else {
            unreachable!()
        };
        let plan = |b: &NodeId| match &ir.node(*b).body {
            Body::Keywords(k) => k.object.as_ref().is_some_and(|o| o.shallow_first),
            Body::Bool(_) => false,
        };
        root.any_of.iter().chain(&root.one_of).map(plan).collect()
    }

    /// A branch checks its shallow properties first only where another branch may hold on the
    /// same instance: not where its types or its discriminator's values leave it alone.
    #[test]
    fn only_branches_that_compete_check_shallow_properties_first() {
        let shape = |kind: &str| json!({"properties": {"kind": {"const": kind}, "items": {"items": {"type": "string"}}}});
        // The discriminator rules every other branch out.
        assert_eq!(
            shallow_first(json!({"oneOf": [shape("a"), shape("b")]})),
            [false, false]
        );
        // Two branches may both hold where the member is "a".
        let either =
            json!({"properties": {"kind": {"enum": ["a", "b"]}, "items": {"items": true}}});
        assert_eq!(
            shallow_first(json!({"anyOf": [shape("a"), either, shape("c")]})),
            [true, true, false]
        );
        // Types apart, or a branch that never holds.
        let object = json!({"type": "object", "properties": {"n": {"type": "integer"}, "items": {"items": true}}});
        assert_eq!(
            shallow_first(json!({"anyOf": [object, {"type": "array"}]})),
            [false, false]
        );
        assert_eq!(
            shallow_first(json!({"anyOf": [object, false]})),
            [false, false]
        );
        // `integer` overlaps `number`; an untyped branch overlaps everything.
        let number = json!({"type": "number", "properties": {"n": {"type": "integer"}, "items": {"items": true}}});
        assert_eq!(
            shallow_first(json!({"anyOf": [{"type": "integer"}, number]})),
            [false, true]
        );
        assert_eq!(
            shallow_first(json!({"anyOf": [{"type": "string"}, number]})),
            [false, false]
        );
        let untyped = json!({"properties": {"n": {"type": "integer"}, "items": {"items": true}}});
        assert_eq!(
            shallow_first(json!({"oneOf": [object, untyped]})),
            [true, true]
        );
    }
}
