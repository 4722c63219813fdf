//! How far any evaluation of an acyclic schema can go ([`EvaluationBound`]): what a back end
//! proves the evaluation limits unreachable with, to leave their checks out.
//!
//! Every evaluation step happens at one value of the arguments (a member's name is counted
//! with the member), and a path of subschemas evaluates its last subschema at most once per
//! value. The bound counts paths two ways, and a back end takes the smaller total:
//! - by kind: paths that apply at one place only (the root, and what `properties` and
//!   `prefixItems` reach from it), plus paths that may apply to any number of values, each
//!   counted once per value;
//! - by value: the paths that can meet at any one value below the root, at most, counted for
//!   every value. Members are told apart by the names and indices that `properties` and
//!   `prefixItems` give, so the subschemas of different members, or of different levels, do
//!   not add up.

use super::analysis::{Reach, in_place, reaches};
use crate::Limits;
use crate::ir::{Body, EvaluationBound, Ir, NodeId};
use std::collections::{BTreeMap, HashMap};

/// How far any evaluation of the schema can go (see [`EvaluationBound`]), when no cycle of
/// subschemas and no `contentSchema` is reachable from the root. The count by value, which
/// costs more to make, is made only where the count by kind leaves `limits` (the build's)
/// reachable and the depth does not already exceed them; otherwise `value_steps` is `None`.
pub fn evaluation_bound(ir: &Ir, limits: &Limits) -> Option<EvaluationBound> {
    let order = topological_order(ir)?;
    // Parents before children: paths to each node, the longest chain ending there, and
    // whether every path to it stays at one place in the arguments. Leaves cost no step and
    // no level (see `Node::leaf`).
    let counts = |id: NodeId| usize::from(!ir.node(id).leaf);
    let mut paths = vec![0u64; ir.nodes.len()];
    let mut chain = vec![0usize; ir.nodes.len()];
    let mut fixed = vec![true; ir.nodes.len()];
    paths[ir.root.index()] = 1;
    chain[ir.root.index()] = counts(ir.root);
    let mut bound = EvaluationBound {
        depth: 0,
        fixed_steps: 0,
        spread_steps: 0,
        root_steps: 0,
        value_steps: None,
    };
    for &id in &order {
        let i = id.index();
        bound.depth = bound.depth.max(chain[i]);
        if ir.node(id).leaf {
            // Costs nothing, and applies nothing.
        } else if fixed[i] {
            bound.fixed_steps = bound.fixed_steps.saturating_add(paths[i]);
        } else {
            bound.spread_steps = bound.spread_steps.saturating_add(paths[i]);
        }
        for (child, reach) in children(ir, id) {
            let c = child.index();
            paths[c] = paths[c].saturating_add(paths[i]);
            chain[c] = chain[c].max(chain[i] + counts(child));
            fixed[c] &= fixed[i] && !reach.is_spread();
        }
    }
    // The analysis by value recurses once per level of the arguments.
    let needed = !bound.within(limits) && bound.depth <= limits.get_max_evaluation_depth();
    if needed && bound.depth <= MAX_LEVELS {
        let mut by_value = ByValue::new(ir, &order);
        if let Some(root) = by_value.close([(ir.root, 1)]) {
            bound.root_steps = steps(ir, &root);
            bound.value_steps = by_value.most_below(&root);
        }
    }
    Some(bound)
}

/// The deepest chain of subschemas the analysis by value follows.
const MAX_LEVELS: usize = 128;

/// The most nodes and edges the analysis by value visits before it gives up: sharing
/// subschemas between members, a schema can have more ways to tell members apart than nodes.
const MAX_WORK: usize = 1 << 20;

/// The nodes reachable from the root, parents before children; `None` on a cycle, or where
/// a document decoded from a string is checked.
fn topological_order(ir: &Ir) -> Option<Vec<NodeId>> {
    const NEW: u8 = 0;
    const OPEN: u8 = 1;
    const DONE: u8 = 2;
    let mut state = vec![NEW; ir.nodes.len()];
    let mut order = Vec::new();
    let mut stack = vec![(ir.root, children(ir, ir.root), 0usize)];
    state[ir.root.index()] = OPEN;
    while let Some((id, kids, next)) = stack.last_mut() {
        if let Some(&(child, reach)) = kids.get(*next) {
            *next += 1;
            if reach == Reach::Decoded {
                return None;
            }
            match state[child.index()] {
                OPEN => return None,
                NEW => {
                    state[child.index()] = OPEN;
                    let grandchildren = children(ir, child);
                    stack.push((child, grandchildren, 0));
                }
                _ => {}
            }
        } else {
            state[id.index()] = DONE;
            order.push(*id);
            stack.pop();
        }
    }
    order.reverse();
    Some(order)
}

fn children(ir: &Ir, id: NodeId) -> Vec<(NodeId, Reach<'_>)> {
    let mut out = Vec::new();
    if let Body::Keywords(k) = &ir.node(id).body {
        reaches(k, |n, reach| out.push((n, reach)));
    }
    out
}

/// The subschemas evaluated at one value, each with the number of paths that reach it, in
/// topological order.
type Here = Vec<(NodeId, u64)>;

/// The steps the subschemas of `here` take at their value.
fn steps(ir: &Ir, here: &Here) -> u64 {
    here.iter()
        .filter(|(id, _)| !ir.node(*id).leaf)
        .fold(0u64, |sum, &(_, paths)| sum.saturating_add(paths))
}

/// The analysis by value: the most evaluations at one value, level by level.
struct ByValue<'a> {
    ir: &'a Ir,
    /// Each reachable node's place in topological order.
    rank: Vec<u32>,
    /// The most evaluations at or below a value where these subschemas are evaluated.
    memo: HashMap<Here, u64>,
    work: usize,
}

impl<'a> ByValue<'a> {
    fn new(ir: &'a Ir, order: &[NodeId]) -> ByValue<'a> {
        let mut rank = vec![u32::MAX; ir.nodes.len()];
        for (r, id) in order.iter().enumerate() {
            rank[id.index()] = r as u32;
        }
        ByValue {
            ir,
            rank,
            memo: HashMap::new(),
            work: 0,
        }
    }

    /// Counts `n` visits; `None` past [`MAX_WORK`].
    fn spend(&mut self, n: usize) -> Option<()> {
        self.work += n;
        (self.work <= MAX_WORK).then_some(())
    }

    /// `seed` with every subschema it applies in place, each with the paths to it.
    fn close(&mut self, seed: impl IntoIterator<Item = (NodeId, u64)>) -> Option<Here> {
        // In topological order, a node comes out after every in-place parent has added its
        // paths.
        let mut pending: BTreeMap<u32, (NodeId, u64)> = BTreeMap::new();
        let add = |pending: &mut BTreeMap<u32, (NodeId, u64)>, id: NodeId, paths: u64| {
            let entry = pending.entry(self.rank[id.index()]).or_insert((id, 0));
            entry.1 = entry.1.saturating_add(paths);
        };
        for (id, paths) in seed {
            add(&mut pending, id, paths);
        }
        let mut here = Vec::new();
        while let Some((_, (id, paths))) = pending.pop_first() {
            if let Body::Keywords(k) = &self.ir.node(id).body {
                in_place(k, |child, _| add(&mut pending, child, paths));
            }
            here.push((id, paths));
        }
        self.spend(here.len())?;
        Some(here)
    }

    /// The most evaluations at a value where `here` is evaluated, or at any value below it.
    fn most(&mut self, here: Here) -> Option<u64> {
        if let Some(&most) = self.memo.get(&here) {
            return Some(most);
        }
        let most = steps(self.ir, &here).max(self.most_below(&here)?);
        self.memo.insert(here, most);
        Some(most)
    }

    /// The most evaluations at any member or item of a value where `here` is evaluated, or
    /// below it.
    fn most_below(&mut self, here: &Here) -> Option<u64> {
        let mut edges = Vec::new();
        for &(id, paths) in here {
            if let Body::Keywords(k) = &self.ir.node(id).body {
                reaches(k, |child, reach| {
                    if reach != Reach::InPlace {
                        edges.push((reach, child, paths));
                    }
                });
            }
        }
        self.spend(edges.len())?;
        // The members that are told apart: each name and index the edges give, and any other
        // member or item.
        let mut classes: Vec<Reach<'_>> = Vec::new();
        for &(reach, _, _) in &edges {
            if !classes.contains(&reach) {
                classes.push(reach);
            }
        }
        let mut most = 0;
        for class in classes {
            let seed = edges
                .iter()
                .filter(|(reach, _, _)| applies(*reach, class))
                .map(|&(_, child, paths)| (child, paths));
            let below = self.close(seed)?;
            most = most.max(self.most(below)?);
        }
        Some(most)
    }
}

/// Whether a subschema reaching members as `edge` applies to those of `class`: a member of a
/// name or index some edge gives, or any other (`AnyProperty`, `AnyItem`).
fn applies(edge: Reach<'_>, class: Reach<'_>) -> bool {
    match edge {
        Reach::AnyProperty => matches!(class, Reach::Property(_) | Reach::AnyProperty),
        Reach::AnyItem => matches!(class, Reach::Item(_) | Reach::AnyItem),
        _ => edge == class,
    }
}

#[cfg(test)]
mod tests {
    use crate::eval::Sink;
    use crate::interp::Interpreter;
    use crate::{ErrorClass, Limits, Options, frontend};
    use serde_json::Value;
    use std::path::{Path, PathBuf};

    /// How many values `v` holds, itself included.
    fn values(v: &Value) -> usize {
        1 + match v {
            Value::Array(items) => items.iter().map(values).sum(),
            Value::Object(map) => map.values().map(values).sum(),
            _ => 0,
        }
    }

    fn json_files(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                json_files(&path, out);
            } else if path.extension().is_some_and(|e| e == "json") {
                out.push(path);
            }
        }
    }

    /// The bound holds for each way of counting on its own: every case of the suite whose
    /// schema builds without remote documents, evaluated by the interpreter with steps and
    /// depth counted whatever the bound proves, under limits set to exactly one count for
    /// the instance's size (the count by value made wherever a step can be taken),
    /// never halts: not when recording every unit for the output formats (every branch
    /// runs), not when collecting failures, not in the first-failure check.
    #[test]
    fn no_evaluation_of_the_suite_halts_within_either_count() {
        let suite = std::env::var_os("JSON_SCHEMA_TEST_SUITE")
            .map(PathBuf::from)
            .unwrap_or_else(|| {
                Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/json-schema-test-suite")
            });
        let mut files = Vec::new();
        json_files(&suite.join("tests/draft2020-12"), &mut files);
        // Limits that the count by kind never meets, so that the count by value is made too.
        let analysed = Options::new().limits(Limits::new().max_evaluation_steps(0));
        let (mut by_kind, mut by_value) = (0, 0);
        for file in files {
            let groups: Value =
                serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
            for group in groups.as_array().unwrap() {
                let Ok(ir) = frontend::build(&group["schema"], &analysed) else {
                    continue;
                };
                let Some(bound) = ir.evaluation_bound else {
                    continue;
                };
                for test in group["tests"].as_array().unwrap() {
                    let instance = &test["data"];
                    let n = values(instance) as u64;
                    let kind = bound.fixed_steps + bound.spread_steps * n;
                    let value = bound.value_steps.map(|v| bound.root_steps + v * (n - 1));
                    for (steps, tally) in [(Some(kind), &mut by_kind), (value, &mut by_value)] {
                        let Some(steps) = steps else { continue };
                        let limits = Limits::new()
                            .max_argument_nodes(n as usize)
                            .max_evaluation_depth(bound.depth)
                            .max_evaluation_steps(steps as usize);
                        let interpreter = Interpreter::counting(&ir, &limits, true);
                        let what = format!("{}: {instance} within {bound:?}", file.display());
                        let evaluation = interpreter.evaluate(instance);
                        assert!(
                            !evaluation.is_err_and(|e| e.class() == ErrorClass::ExecutionFailure),
                            "{what}: recording halted at {steps} steps"
                        );
                        let mut failures = Vec::new();
                        let mut sink = Sink::collecting(&mut failures, steps as usize);
                        assert!(
                            interpreter.validate_in(instance, &mut sink).is_ok(),
                            "{what}: collecting halted at {steps} steps"
                        );
                        let mut sink = Sink::new(steps as usize);
                        assert!(
                            interpreter.is_valid_in(instance, &mut sink).is_ok(),
                            "{what}: the first-failure check halted at {steps} steps"
                        );
                        *tally += 1;
                    }
                }
            }
        }
        // Schemas that apply no subschema take no step either way, and are not counted by
        // value.
        assert!(
            by_kind > 1500 && by_value > 500,
            "{by_kind} and {by_value} cases"
        );
    }
}
