//! The annotations of the applicators that evaluate members, read from the units of the
//! subschemas each one applied. The back ends record a unit for every subschema they apply
//! (a `true` one included), so what each keyword evaluated is in the units, once.

use crate::eval::{Entry, Unit};
use crate::output::Annotation;
use crate::pointer;
use serde_json::Value;

/// What an applicator's annotation is made of.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Made {
    /// The names of the properties its subschema was applied to.
    Names,
    /// The largest index its subschemas were applied to.
    LargestIndex,
    /// `true` when its subschema was applied to any item.
    Applied,
    /// The indices of the items its subschema holds for, ascending.
    Matches,
}

fn made_of(keyword: &str) -> Option<Made> {
    Some(match keyword {
        "properties" | "patternProperties" | "additionalProperties" | "unevaluatedProperties" => {
            Made::Names
        }
        "prefixItems" => Made::LargestIndex,
        "items" | "unevaluatedItems" => Made::Applied,
        "contains" => Made::Matches,
        _ => return None,
    })
}

/// One annotation being gathered: the keyword and what its subschemas were applied to.
struct Gathered<'a> {
    keyword: &'a str,
    made: Made,
    members: Vec<(&'a str, bool)>,
}

/// The annotation of every member-evaluating applicator of every schema unit of `units`
/// (whose `children` are given), each as a unit of that schema unit.
pub(super) fn applicator_annotations(units: &[Unit], children: &[Vec<u32>]) -> Vec<Unit> {
    let mut added = Vec::new();
    for (s, kids) in children.iter().enumerate() {
        let Entry::Schema {
            instance_location: ip,
            keyword_location: kp,
            absolute_keyword_location: absolute,
            ..
        } = &units[s].entry
        else {
            continue;
        };
        let mut gathered: Vec<Gathered<'_>> = Vec::new();
        for &c in kids {
            let c = c as usize;
            let Entry::Schema {
                instance_location: child_ip,
                keyword_location: child_kp,
                valid,
                ..
            } = &units[c].entry
            else {
                continue;
            };
            let Some(keyword) = child_kp
                .strip_prefix(kp.as_str())
                .and_then(|rest| rest.strip_prefix('/'))
                .map(|rest| rest.split('/').next().unwrap_or(rest))
            else {
                continue;
            };
            let Some(made) = made_of(keyword) else {
                continue;
            };
            // The member's token in the child's instance location (its name may be empty).
            let Some(member) = child_ip
                .strip_prefix(ip.as_str())
                .and_then(|rest| rest.strip_prefix('/'))
            else {
                continue;
            };
            let entry = match gathered.iter_mut().find(|g| g.keyword == keyword) {
                Some(entry) => entry,
                None => {
                    gathered.push(Gathered {
                        keyword,
                        made,
                        members: Vec::new(),
                    });
                    gathered.last_mut().expect("just pushed")
                }
            };
            entry.members.push((member, *valid));
        }
        for g in gathered {
            let value = match g.made {
                Made::Names => {
                    let mut names: Vec<String> = Vec::new();
                    for (token, _) in &g.members {
                        let name = unescape(token);
                        if !names.contains(&name) {
                            names.push(name);
                        }
                    }
                    Value::from(names)
                }
                Made::LargestIndex => g
                    .members
                    .iter()
                    .filter_map(|(token, _)| token.parse::<u64>().ok())
                    .max()
                    .map_or(Value::Bool(true), Value::from),
                Made::Applied => Value::Bool(true),
                Made::Matches => {
                    let mut indices: Vec<u64> = g
                        .members
                        .iter()
                        .filter(|(_, valid)| *valid)
                        .filter_map(|(token, _)| token.parse().ok())
                        .collect();
                    indices.sort_unstable();
                    indices.dedup();
                    Value::from(indices)
                }
            };
            let mut absolute_location = absolute.to_string();
            absolute_location.push('/');
            absolute_location.push_str(g.keyword);
            added.push(Unit {
                parent: Some(s as u32),
                entry: Entry::Annotation(Annotation::new(
                    ip.clone(),
                    format!("{kp}/{}", g.keyword),
                    Some(absolute_location),
                    g.keyword.to_owned(),
                    value,
                )),
            });
        }
    }
    added
}

/// A JSON Pointer token's text.
fn unescape(token: &str) -> String {
    pointer::tokens(&format!("/{token}"))
        .and_then(|mut t| t.pop())
        .unwrap_or_else(|| token.to_owned())
}
