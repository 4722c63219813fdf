//! The object keywords: `minProperties`, `maxProperties`, the key pass (`properties`,
//! `patternProperties`, `additionalProperties`, `required`), `dependentRequired`,
//! `propertyNames`, `dependentSchemas`.

use super::{At, Interpreter};
use crate::eval::member::has_member;
use crate::eval::{Claim, Flow, Marks, Sink};
use crate::ir::{Check, Dependent, Node, NodeId, ObjectPlan};
use crate::messages;
use serde_json::{Map, Value};

/// How many members' property indices the shallow-first pass keeps for the key pass.
const KEPT: usize = 32;

/// A member that is no declared property, among the kept indices.
const NOT_FOUND: u8 = u8::MAX;

impl Interpreter<'_> {
    /// One object check on `map` (`whole` is the object as a value).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn object<const C: bool>(
        &self,
        node: &Node,
        check: &Check,
        map: &Map<String, Value>,
        whole: &Value,
        at: At<'_>,
        st: &mut Sink,
        mut marks: Option<&mut Marks>,
    ) -> Flow {
        match check {
            Check::PropertyCount { min, max } => {
                Ok(self.property_count::<C>(node, *min, *max, map.len(), at, st))
            }
            Check::KeyPass(plan) => self.key_pass::<C>(node, plan, map, whole, at, st, marks),
            Check::Required(names) => {
                let mut valid = true;
                for name in names.iter().filter(|n| !has_member(map, n)) {
                    if !C {
                        return Ok(false);
                    }
                    valid = false;
                    self.fail(st, node, "required", at, messages::required(name));
                }
                Ok(valid)
            }
            Check::DependentRequired(dependents) => {
                Ok(self.dependent_required::<C>(node, dependents, map, at, st))
            }
            Check::PropertyNames(schema) => self.property_names::<C>(node, *schema, map, at, st),
            Check::DependentSchemas(dependents) => {
                let mut valid = true;
                for dependent in dependents.iter() {
                    if !has_member(map, &dependent.property) {
                        continue;
                    }
                    let kp1 = at.kp.key(dependent.keyword);
                    let kp = kp1.key(&dependent.property);
                    let inner = at.keyword::<C>(&kp);
                    if !self.eval::<C>(dependent.then, whole, inner, st, marks.as_deref_mut())? {
                        if !C {
                            return Ok(false);
                        }
                        valid = false;
                    }
                }
                Ok(valid)
            }
            _ => Ok(true),
        }
    }

    fn property_count<const C: bool>(
        &self,
        node: &Node,
        min: u64,
        max: Option<u64>,
        n: usize,
        at: At<'_>,
        st: &mut Sink,
    ) -> bool {
        let mut valid = true;
        if (n as u64) < min {
            if !C {
                return false;
            }
            valid = false;
            self.fail(
                st,
                node,
                "minProperties",
                at,
                messages::min_properties(min, n),
            );
        }
        if let Some(max) = max.filter(|&max| n as u64 > max) {
            if C {
                self.fail(
                    st,
                    node,
                    "maxProperties",
                    at,
                    messages::max_properties(max, n),
                );
            }
            valid = false;
        }
        valid
    }

    /// The key pass: each key matched once against `properties`, `patternProperties` and
    /// `additionalProperties`; the `required` names that are declared properties are seen
    /// there, the others looked up.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn key_pass<const C: bool>(
        &self,
        node: &Node,
        plan: &ObjectPlan,
        map: &Map<String, Value>,
        whole: &Value,
        at: At<'_>,
        st: &mut Sink,
        mut marks: Option<&mut Marks>,
    ) -> Flow {
        let mut valid = true;
        let mut seen: u64 = 0;
        let use_seen = plan.properties.len() <= 64;
        // First-failure mode: the shallow properties and `required` before any deep
        // subschema runs (the verdict is the same in any order; only the work differs).
        let shallow_first = !C && plan.shallow_first;
        // What the shallow-first pass finds for each member (by position) is kept for the key
        // pass, which then looks nothing up again: for objects of up to `KEPT` members, and
        // property indices that fit a byte.
        let keep = shallow_first && map.len() <= KEPT && plan.properties.len() < NOT_FOUND.into();
        let mut found = [NOT_FOUND; KEPT];
        if shallow_first {
            let mut next = 0;
            for (i, (key, value)) in map.iter().enumerate() {
                let Some(pi) = plan.property_index_from(key, &mut next) else {
                    continue;
                };
                if keep {
                    found[i] = pi as u8;
                }
                if use_seen {
                    seen |= 1 << pi;
                }
                let child = plan.properties[pi].1;
                if self.ir.node(child).shallow && !self.eval::<false>(child, value, at, st, None)? {
                    return Ok(false);
                }
            }
            if !self.required_seen(plan, map, seen, use_seen) {
                return Ok(false);
            }
        }
        // The first pass to reach the object while it is awaited admits its members to the
        // argument limits (see `eval::admission`), unless it leaves that to a later one; not
        // before the shallow-first checks, so that a branch they rule out claims nothing.
        let claim = if plan.defers_claim {
            Claim::NONE
        } else {
            st.claim(whole, map.len())?
        };
        let kp_props = at.kp.key("properties");
        let kp_patterns = at.kp.key("patternProperties");
        let kp_additional = at.kp.key("additionalProperties");
        let mut next = 0;
        for (i, (key, value)) in map.iter().enumerate() {
            st.admit(claim, Some(key), value)?;
            let ip = at.ip.key(key);
            let mut matched = false;
            let index = if keep {
                (found[i] != NOT_FOUND).then(|| usize::from(found[i]))
            } else {
                plan.property_index_from(key, &mut next)
            };
            if let Some(pi) = index {
                matched = true;
                if use_seen {
                    seen |= 1 << pi;
                }
                let child = plan.properties[pi].1;
                let node = self.ir.node(child);
                if !(shallow_first && node.shallow) {
                    // In first-failure mode a subschema that only asserts records nothing and
                    // cannot stop evaluation: it needs no location, so none is built.
                    let ok = if !C && node.asserts_only {
                        self.holds(node, value, at, st)
                    } else {
                        let kp = kp_props.key(key);
                        self.member::<C>(
                            child,
                            value,
                            &ip,
                            &kp,
                            at,
                            st,
                            "properties",
                            Some(key),
                            None,
                        )?
                    };
                    if !ok {
                        if !C {
                            return Ok(false);
                        }
                        valid = false;
                    }
                }
            }
            for &(pattern, child) in &plan.pattern_properties {
                let pattern = self.ir.pattern(pattern);
                if pattern.is_match(key) {
                    matched = true;
                    let kp = kp_patterns.key(pattern.as_str());
                    let ok = self.member::<C>(
                        child,
                        value,
                        &ip,
                        &kp,
                        at,
                        st,
                        "patternProperties",
                        Some(key),
                        None,
                    )?;
                    if !ok {
                        if !C {
                            return Ok(false);
                        }
                        valid = false;
                    }
                }
            }
            if !matched {
                if let Some(child) = plan.additional_properties {
                    matched = true;
                    let ok = self.member::<C>(
                        child,
                        value,
                        &ip,
                        &kp_additional,
                        at,
                        st,
                        "additionalProperties",
                        Some(key),
                        None,
                    )?;
                    if !ok {
                        if !C {
                            return Ok(false);
                        }
                        valid = false;
                    }
                }
            }
            if matched {
                if let Some(m) = marks.as_deref_mut() {
                    m.set(i);
                }
            }
            st.settle(claim, value)?;
        }
        if !C {
            // The shallow-first pass has already found every required name.
            return Ok(valid && (shallow_first || self.required_seen(plan, map, seen, use_seen)));
        }
        for (name, index) in &plan.required {
            if !is_present(map, name, *index, seen, use_seen) {
                valid = false;
                self.fail(st, node, "required", at, messages::required(name));
            }
        }
        Ok(valid)
    }

    /// Whether every `required` name is present, declared ones by the `seen` bits.
    fn required_seen(
        &self,
        plan: &ObjectPlan,
        map: &Map<String, Value>,
        seen: u64,
        use_seen: bool,
    ) -> bool {
        plan.required
            .iter()
            .all(|(name, index)| is_present(map, name, *index, seen, use_seen))
    }

    fn dependent_required<const C: bool>(
        &self,
        node: &Node,
        dependents: &[Dependent<Vec<String>>],
        map: &Map<String, Value>,
        at: At<'_>,
        st: &mut Sink,
    ) -> bool {
        let mut valid = true;
        for dependent in dependents.iter().filter(|d| has_member(map, &d.property)) {
            for dependency in dependent.then.iter().filter(|d| !has_member(map, d)) {
                if !C {
                    return false;
                }
                valid = false;
                let message = messages::dependent_required(&dependent.property, dependency);
                self.fail(st, node, dependent.keyword, at, message);
            }
        }
        valid
    }

    fn property_names<const C: bool>(
        &self,
        node: &Node,
        schema: NodeId,
        map: &Map<String, Value>,
        at: At<'_>,
        st: &mut Sink,
    ) -> Flow {
        let kp = at.kp.key("propertyNames");
        let inner = at.keyword::<C>(&kp);
        let mut valid = true;
        for key in map.keys() {
            let name = Value::String(key.clone());
            // A name is checked in the first-failure flavour only, recording too; collecting,
            // a halt is located as a branch's is.
            if !self.first_failure::<C>(schema, &name, inner, st, None)? {
                if !C {
                    return Ok(false);
                }
                valid = false;
                self.fail(st, node, "propertyNames", at, messages::property_name(key));
            }
        }
        Ok(valid)
    }
}

/// Whether the required `name` is present: by the key pass's `seen` bits when it is the
/// declared property `index` and the bits were kept, by a lookup otherwise.
#[inline]
fn is_present(
    map: &Map<String, Value>,
    name: &str,
    index: Option<u32>,
    seen: u64,
    use_seen: bool,
) -> bool {
    match index {
        Some(i) if use_seen => seen & (1 << i) != 0,
        _ => has_member(map, name),
    }
}

#[cfg(test)]
mod tests {
    use crate::{Validate, Validator};
    use serde_json::{Map, Value, json};

    /// Objects around the number of members whose lookups the shallow-first pass keeps, and
    /// schemas around the number of properties it keeps them for: the key pass applies each
    /// member's own subschema either way, wherever the member comes.
    #[test]
    fn the_key_pass_applies_what_the_shallow_first_pass_found() {
        // Deep: they apply a subschema, so they run in the key pass, after the others. Their
        // names come first, in the middle and last, in either member order.
        let deep = ["a_deep", "p1_deep", "z_deep"];
        for declared in [4, 40, 254, 300] {
            let mut properties = Map::new();
            for p in 0..declared {
                properties.insert(format!("p{p}"), json!({"type": "integer"}));
            }
            for name in deep {
                properties.insert(name.into(), json!({"items": {"type": "string"}}));
            }
            // Under `anyOf`, beside a branch that may hold too, where the shallow properties go
            // first.
            let v = Validator::new(
                &json!({"anyOf": [{"properties": properties}, {"required": ["never"]}]}),
            )
            .unwrap();
            for members in [1, 29, 30, 31, 40] {
                let bad_ones = deep.iter().chain(&["p0", "undeclared"]).map(Some);
                for bad in [None].into_iter().chain(bad_ones) {
                    let mut call = Map::new();
                    // Some names undeclared.
                    for m in (0..members).rev() {
                        let name = if m % 5 == 4 {
                            format!("x{m}")
                        } else {
                            format!("p{}", m % declared)
                        };
                        call.insert(name, json!(m));
                    }
                    for name in deep {
                        call.insert(name.into(), json!(["a", "b"]));
                    }
                    let name = bad.copied().unwrap_or_default();
                    call.insert(name.into(), json!([1]));
                    let valid = matches!(bad, None | Some(&"undeclared"));
                    let call = Value::Object(call);
                    let at = format!(
                        "{declared} properties, {} members, {bad:?}",
                        call.as_object().unwrap().len()
                    );
                    assert_eq!(v.is_valid(&call), valid, "{at}");
                    assert_eq!(v.validate(&call).is_ok(), valid, "{at}");
                }
            }
        }
    }
}
