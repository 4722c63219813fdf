//! The array keywords: `minItems`, `maxItems`, `uniqueItems`, `prefixItems`, `items`,
//! `contains`.

use super::{At, Interpreter};
use crate::eval::admission::first_duplicate;
use crate::eval::{Claim, Flow, Halt, Marks, Path, Sink};
use crate::ir::{Check, ContainsCheck, Node, NodeId};
use crate::json::TypeSet;
use crate::messages;
use serde_json::Value;

impl Interpreter<'_> {
    /// One array check on `items` (`whole` is the array as a value).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn array<const C: bool>(
        &self,
        node: &Node,
        check: &Check,
        items: &[Value],
        whole: &Value,
        at: At<'_>,
        st: &mut Sink,
        marks: Option<&mut Marks>,
    ) -> Flow {
        match check {
            Check::ItemCount { min, max } => {
                Ok(self.item_count::<C>(node, *min, *max, items, at, st))
            }
            Check::UniqueItems => match first_duplicate(items, self.max_argument_depth)? {
                None => Ok(true),
                Some((a, b)) => {
                    if C {
                        self.fail(st, node, "uniqueItems", at, messages::unique_items(a, b));
                    }
                    Ok(false)
                }
            },
            Check::PrefixItems(schemas) => {
                let kp = at.kp.key("prefixItems");
                let each = items.iter().zip(schemas.iter()).enumerate();
                let claim = st.claim_items(whole, items.len(), check.items_from_first())?;
                self.each_item::<C>(each, (&kp, true), "prefixItems", claim, at, st, marks)
            }
            Check::Items {
                skip,
                schema,
                scalar_types,
            } => {
                let claim = st.claim_items(whole, items.len(), check.items_from_first())?;
                if let (false, Some(types)) = (C, scalar_types) {
                    return Ok(scalar_items(items, *skip, *types, marks));
                }
                let child = self.ir.node(*schema);
                // In first-failure mode, items under a subschema that only asserts need no
                // location and no unit: they are checked in a loop of their own, without
                // entering each one (a leaf costs no step or level either way). Not in
                // `member`, which the key pass shares: the item's location and the call it
                // still builds there cost GeoJSON 39.7 M instructions a call against 33.9 M.
                if !C && child.asserts_only {
                    let rest = items.get(*skip..).unwrap_or_default();
                    let held = match child.checks[..] {
                        _ if rest.is_empty() => true,
                        // The commonest such subschema checks only `type`: tested in the loop
                        // (one passing only scalars above). Items that pass a subschema
                        // passing only scalars need no admission (`Node::passes_only_scalars`).
                        [Check::Type(types)] => {
                            all_whole(st, claim, rest, |_, i| types.matches(i))?
                        }
                        _ if child.passes_only_scalars => {
                            rest.iter().all(|i| self.holds(child, i, at, st))
                        }
                        _ => all_whole(st, claim, rest, |st, i| self.holds(child, i, at, st))?,
                    };
                    if !held {
                        return Ok(false);
                    }
                    if let Some(m) = marks {
                        (*skip..items.len()).for_each(|i| m.set(i));
                    }
                    return Ok(true);
                }
                // Items under a flat subschema (`Node::flat`) are likewise run in a loop of
                // their own, each admitted and its checks run as they are: no location and
                // no call per item (GeoJSON's rings of points).
                if !C && child.flat && !self.counts {
                    for item in items.get(*skip..).unwrap_or_default() {
                        st.admit(claim, None, item)?;
                        if !self.flat_item(child, item, at, st)? {
                            return Ok(false);
                        }
                        st.settle(claim, item)?;
                    }
                    if let Some(m) = marks {
                        (*skip..items.len()).for_each(|i| m.set(i));
                    }
                    return Ok(true);
                }
                let kp = at.kp.key("items");
                let each = items
                    .iter()
                    .zip(std::iter::repeat(schema))
                    .enumerate()
                    .skip(*skip);
                self.each_item::<C>(each, (&kp, false), "items", claim, at, st, marks)
            }
            Check::Contains(contains) => self.contains::<C>(node, contains, items, at, st, marks),
            _ => Ok(true),
        }
    }

    pub(super) fn item_count<const C: bool>(
        &self,
        node: &Node,
        min: u64,
        max: Option<u64>,
        items: &[Value],
        at: At<'_>,
        st: &mut Sink,
    ) -> bool {
        let n = items.len();
        let mut valid = true;
        if (n as u64) < min {
            if !C {
                return false;
            }
            valid = false;
            self.fail(st, node, "minItems", at, messages::min_items(min, n));
        }
        if let Some(max) = max.filter(|&max| n as u64 > max) {
            if C {
                self.fail(st, node, "maxItems", at, messages::max_items(max, n));
            }
            valid = false;
        }
        valid
    }

    /// Applies each item's subschema, marking the items it evaluated, and admitting them under
    /// `claim`. The keyword location is `kp`, followed by the item's index when `indexed`
    /// (`prefixItems`).
    #[allow(clippy::too_many_arguments)]
    fn each_item<'v, const C: bool>(
        &self,
        each: impl Iterator<Item = (usize, (&'v Value, &'v NodeId))>,
        (kp, indexed): (&Path<'_>, bool),
        keyword: &'static str,
        claim: Claim,
        at: At<'_>,
        st: &mut Sink,
        mut marks: Option<&mut Marks>,
    ) -> Flow {
        let mut valid = true;
        for (i, (item, &schema)) in each {
            st.admit(claim, None, item)?;
            let ip = at.ip.index(i);
            let kp_item;
            let kp = if indexed {
                kp_item = kp.index(i);
                &kp_item
            } else {
                kp
            };
            if !self.member::<C>(schema, item, &ip, kp, at, st, keyword, None, Some(i))? {
                if !C {
                    return Ok(false);
                }
                valid = false;
            }
            st.settle(claim, item)?;
            if let Some(m) = marks.as_deref_mut() {
                m.set(i);
            }
        }
        Ok(valid)
    }

    /// The checks of an item's flat node (`Node::flat`) in first-failure mode, in the loop over
    /// the items: those such nodes hold most (`type`, the item count, `items` under a `type`
    /// passing only scalars) run right here, the others are dispatched. GeoJSON's rings, each
    /// point an array of two numbers: 8.2 M instructions a call against 12.8 M through the
    /// general dispatch, whose call to the `items` pass each point then paid.
    #[inline(always)]
    fn flat_item(&self, node: &Node, v: &Value, at: At<'_>, st: &mut Sink) -> Flow {
        for check in &node.checks {
            let holds = match (check, v) {
                (Check::Type(types), _) => self.types::<false>(node, *types, v, at, st),
                (Check::ItemCount { min, max }, Value::Array(items)) => {
                    self.item_count::<false>(node, *min, *max, items, at, st)
                }
                (
                    Check::Items {
                        skip,
                        scalar_types: Some(types),
                        ..
                    },
                    Value::Array(items),
                ) => {
                    st.claim_items(v, items.len(), check.items_from_first())?;
                    scalar_items(items, *skip, *types, None)
                }
                _ => self.check::<false>(node, check, v, at, st, None)?,
            };
            if !holds {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// `contains`, `minContains`, `maxContains`.
    fn contains<const C: bool>(
        &self,
        node: &Node,
        contains: &ContainsCheck,
        items: &[Value],
        at: At<'_>,
        st: &mut Sink,
        mut marks: Option<&mut Marks>,
    ) -> Flow {
        let kp = at.kp.key("contains");
        let mut count = 0usize;
        // The matches are annotations read by an `unevaluatedItems`, or by evaluation for the
        // output formats.
        let exhaustive = contains.exhaustive(marks.is_some() || (C && st.recording()));
        for (i, item) in items.iter().enumerate() {
            let ip = at.ip.index(i);
            let inner = at.member::<C>(&ip, &kp);
            if self.branch::<C>(contains.schema, item, inner, st, None)? {
                count += 1;
                if let Some(m) = marks.as_deref_mut() {
                    m.set(i);
                }
                if !exhaustive && count as u64 >= contains.min {
                    break;
                }
            }
        }
        let mut valid = true;
        if (count as u64) < contains.min {
            if !C {
                return Ok(false);
            }
            valid = false;
            let message = messages::min_contains(contains.min, count);
            self.fail(st, node, contains.min_keyword, at, message);
        }
        if let Some(max) = contains.max.filter(|&max| count as u64 > max) {
            if C {
                self.fail(
                    st,
                    node,
                    "maxContains",
                    at,
                    messages::max_contains(max, count),
                );
            }
            valid = false;
        }
        Ok(valid)
    }
}

/// `items` whose subschema is a `type` passing only scalars, in first-failure mode (see
/// `Check::Items::scalar_types`): whether every item from `skip` on has one of `types`, those
/// marked if it holds. Inlined into the pass over the checks, where a call per array would
/// cost more than the test of a short array's items (GeoJSON's pairs).
#[inline(always)]
fn scalar_items(items: &[Value], skip: usize, types: TypeSet, marks: Option<&mut Marks>) -> bool {
    for item in items.get(skip..).unwrap_or_default() {
        if !types.matches(item) {
            return false;
        }
    }
    if let Some(m) = marks {
        (skip..items.len()).for_each(|i| m.set(i));
    }
    true
}

/// Whether every one of `items` holds, each admitted whole under `claim` before it is tested.
#[inline(always)]
fn all_whole(
    st: &mut Sink,
    claim: Claim,
    items: &[Value],
    mut holds: impl FnMut(&mut Sink, &Value) -> bool,
) -> Result<bool, Halt> {
    for item in items {
        st.admit_whole(claim, None, item)?;
        if !holds(st, item) {
            return Ok(false);
        }
    }
    Ok(true)
}
