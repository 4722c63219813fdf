//! Which nodes share one generated function.
//!
//! Real schemas repeat themselves: the same `{"type": "string"}` under many properties, the
//! same object shape in several `$defs`, one definition copied into two documents. Nodes that
//! would generate the same code apart from their own URIs are grouped in a class, and each
//! class gets one function. The function takes the member it runs for (`at`), and reads that
//! member's URI from a table, so failures keep each subschema's own absolute location.
//!
//! Two nodes are in one class when their keywords are equal once every subschema reference is
//! replaced by its class, and their subschemas, paired in [`Keywords::visit_references_mut`]
//! order, are in the same classes. The classes are found by partition refinement, so
//! recursive schemas are shared too (two copies of a recursive definition are one class).

use std::collections::HashMap;
use toolschema_core::ir::{Body, Ir, Keywords, NodeId, PatternId};

/// The classes of structurally identical nodes.
pub struct Sharing {
    /// Each node's class.
    class: Vec<u32>,
    /// Each class's members, in ascending order; the first is its representative.
    members: Vec<Vec<NodeId>>,
    /// Each node's index within its class.
    index: Vec<u32>,
    /// Each node's subschema references, in visiting order.
    children: Vec<Vec<NodeId>>,
}

impl Sharing {
    pub fn new(ir: &Ir) -> Sharing {
        // A pattern is known by its first occurrence with the same source.
        let mut first_pattern: HashMap<&str, u32> = HashMap::new();
        let pattern_class: Vec<u32> = ir
            .patterns
            .iter()
            .enumerate()
            .map(|(i, p)| *first_pattern.entry(p.as_str()).or_insert(i as u32))
            .collect();
        let mut children = Vec::with_capacity(ir.nodes.len());
        let mut shapes = Vec::with_capacity(ir.nodes.len());
        for node in &ir.nodes {
            let (shape, refs) = match &node.body {
                Body::Bool(b) => (format!("{b}"), Vec::new()),
                Body::Keywords(k) => {
                    let mut k: Keywords = (**k).clone();
                    let mut refs = Vec::new();
                    k.visit_references_mut(
                        |id| {
                            refs.push(*id);
                            *id = NodeId(0);
                        },
                        |p| *p = PatternId(pattern_class[p.0 as usize]),
                    );
                    // Which references repeat an earlier one: members must agree on it, so a
                    // reference pairs with one subschema in every member.
                    let repeats: Vec<usize> = refs
                        .iter()
                        .map(|r| refs.iter().position(|q| q == r).unwrap_or(0))
                        .collect();
                    let resource = if ir.dynamic_scope {
                        Some(node.resource)
                    } else {
                        None
                    };
                    let shape = format!(
                        "{k:?} {repeats:?} {} {} {} {resource:?}",
                        node.tracks_properties, node.tracks_items, node.shallow
                    );
                    (shape, refs)
                }
            };
            shapes.push(shape);
            children.push(refs);
        }
        let mut class = intern(shapes.iter());
        let mut count = class.iter().max().map_or(0, |&c| c + 1);
        loop {
            let keys = (0..ir.nodes.len()).map(|i| {
                let kids: Vec<u32> = children[i].iter().map(|c| class[c.index()]).collect();
                (class[i], kids)
            });
            let refined = intern(keys);
            let refined_count = refined.iter().max().map_or(0, |&c| c + 1);
            class = refined;
            // Refinement only splits classes: an unchanged count is the fixed point.
            if refined_count == count {
                break;
            }
            count = refined_count;
        }
        let mut members = vec![Vec::new(); count as usize];
        let mut index = vec![0; ir.nodes.len()];
        for (i, &c) in class.iter().enumerate() {
            index[i] = members[c as usize].len() as u32;
            members[c as usize].push(NodeId(i as u32));
        }
        Sharing {
            class,
            members,
            index,
            children,
        }
    }

    /// The members of `id`'s class, `id` among them.
    pub fn members(&self, id: NodeId) -> &[NodeId] {
        &self.members[self.class[id.index()] as usize]
    }

    /// The node whose function serves `id`'s class.
    pub fn representative(&self, id: NodeId) -> NodeId {
        self.members(id)[0]
    }

    /// `id`'s position in its class: the `at` its class's function is called with.
    pub fn index(&self, id: NodeId) -> usize {
        self.index[id.index()] as usize
    }

    /// The subschema of `member` that plays the part `child` plays in `member`'s
    /// representative.
    pub fn counterpart(&self, member: NodeId, child: NodeId) -> NodeId {
        let representative = self.representative(member);
        let position = self.children[representative.index()]
            .iter()
            .position(|&c| c == child)
            .expect("a reference of the representative");
        self.children[member.index()][position]
    }
}

/// Numbers distinct keys in order of first appearance.
fn intern<K: std::hash::Hash + Eq>(keys: impl Iterator<Item = K>) -> Vec<u32> {
    let mut seen: HashMap<K, u32> = HashMap::new();
    keys.map(|k| {
        let next = seen.len() as u32;
        *seen.entry(k).or_insert(next)
    })
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use toolschema_core::Options;

    fn node_at(ir: &Ir, fragment: &str) -> NodeId {
        let uri = format!("toolschema:///schema.json#{fragment}");
        NodeId(ir.nodes.iter().position(|n| n.uri == uri).expect("a node") as u32)
    }

    #[test]
    fn identical_subschemas_share_and_others_do_not() {
        let schema = json!({
            "properties": {
                "a": {"type": "string", "maxLength": 3},
                "b": {"type": "string", "maxLength": 3},
                "c": {"type": "string", "maxLength": 4},
                "d": {"type": "string", "pattern": "^x"},
                "e": {"type": "string", "pattern": "^x"},
                "f": {"type": "string", "pattern": "^y"}
            }
        });
        let ir = toolschema_core::frontend::build(&schema, &Options::new()).unwrap();
        let sharing = Sharing::new(&ir);
        let at = |f: &str| node_at(&ir, f);
        assert_eq!(
            sharing.members(at("/properties/a")),
            [at("/properties/a"), at("/properties/b")]
        );
        assert_eq!(sharing.index(at("/properties/b")), 1);
        assert_eq!(sharing.members(at("/properties/c")), [at("/properties/c")]);
        assert_eq!(
            sharing.members(at("/properties/d")),
            [at("/properties/d"), at("/properties/e")]
        );
        assert_eq!(sharing.members(at("/properties/f")), [at("/properties/f")]);
    }

    #[test]
    fn copies_of_a_recursive_definition_share() {
        let schema = json!({
            "properties": {
                "x": {"$ref": "#/$defs/x"},
                "y": {"$ref": "#/$defs/y"},
                "z": {"$ref": "#/$defs/z"}
            },
            "$defs": {
                "x": {"$id": "x", "properties": {"value": {"type": "integer"}, "children": {"items": {"$ref": "x"}}}},
                "y": {"$id": "y", "properties": {"value": {"type": "integer"}, "children": {"items": {"$ref": "y"}}}},
                "z": {"$id": "z", "properties": {"value": {"type": "string"}, "children": {"items": {"$ref": "z"}}}}
            }
        });
        let ir = toolschema_core::frontend::build(&schema, &Options::new()).unwrap();
        let sharing = Sharing::new(&ir);
        let by_uri = |u: &str| NodeId(ir.nodes.iter().position(|n| n.uri == u).expect(u) as u32);
        let x = by_uri("toolschema:///x#");
        let y = by_uri("toolschema:///y#");
        let z = by_uri("toolschema:///z#");
        assert_eq!(sharing.members(x).len(), 2);
        assert_eq!(sharing.members(x), sharing.members(y));
        assert_eq!(sharing.members(z), [z]);
        // The pairing follows the structure: one copy's `items` is the counterpart of the
        // other's.
        let children = |d: &str| by_uri(&format!("toolschema:///{d}#/properties/children"));
        let items = |d: &str| by_uri(&format!("toolschema:///{d}#/properties/children/items"));
        let (first, second) = if sharing.representative(children("x")) == children("x") {
            ("x", "y")
        } else {
            ("y", "x")
        };
        assert_eq!(
            sharing.counterpart(children(second), items(first)),
            items(second)
        );
        // So are the references to them.
        let px = by_uri("toolschema:///schema.json#/properties/x");
        let py = by_uri("toolschema:///schema.json#/properties/y");
        let pz = by_uri("toolschema:///schema.json#/properties/z");
        // As are x's and y's own `{"$ref": "x"}` and `{"$ref": "y"}`, for the same reason.
        assert_eq!(
            sharing.members(px),
            [
                px,
                py,
                items(first).min(items(second)),
                items(first).max(items(second))
            ]
        );
        assert_eq!(sharing.members(pz), [pz, items("z")]);
        assert_eq!(sharing.counterpart(py, x), y);
    }
}
