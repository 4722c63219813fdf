//! The argument limits admitted during evaluation, by the passes that evaluate the members,
//! so that arguments within the limits are never walked a second time.
//!
//! Every container the arguments hold is admitted by at most one pass over its members: the
//! first key pass (objects) or `items` loop (arrays) to reach it while it is *awaited*. The
//! root is awaited when evaluation starts; a pass that claims a container admits each member
//! before evaluating it (its name and, for a string, its length; a container member becomes
//! the awaited value, one level down) and settles it after: a container member that no pass
//! claimed meanwhile is walked then, all of it, by the recursive walk of
//! [`super::arguments`]. So every value is counted once, wherever evaluation went.
//!
//! A pass that stops early (a first-failure check that failed) leaves its container half
//! admitted; where such a failure does not end the evaluation (a branch of `anyOf`, `oneOf`,
//! `not`, `if`), the caller takes a [`Mark`] before the branch and rolls back to it after a
//! failure, so the container is awaited again, and its counts are as before. A pass that
//! completed stays admitted, whatever its verdict.
//!
//! What admission finds over a limit is over it: the counts only ever hold distinct values,
//! so it halts evaluation at once. The halt's failure says nothing of where; the caller walks
//! the arguments ([`super::check_arguments`]) for the failure to report, which is also the
//! one it reports when evaluation halts at an evaluation limit with arguments over theirs.
//! When evaluation ends with the root admitted, the arguments are within the limits;
//! otherwise (the root never claimed, or admission off) the walk decides.
//!
//! One check reads deeper than the schema reaches: `uniqueItems` compares items, which no
//! pass may have admitted yet. It follows them only as deep as the whole arguments may nest
//! ([`first_duplicate`]), and nesting past that is over the depth limit, so it halts too.

use super::arguments::{FAST_WALK_MAX_DEPTH, member_within, members_within};
use super::sink::Halt;
use crate::error::Failure;
use crate::json::{self, Nesting, TooDeep};
use crate::messages;
use serde_json::Value;

/// The state of admission in one evaluation.
#[derive(Clone, Copy, Debug)]
pub(super) struct Admission {
    /// How many more values the arguments may hold.
    nodes_left: usize,
    max_string: usize,
    /// The address of the container the next pass over it claims; 0 when none is awaited.
    awaiting: usize,
    /// How many levels of non-empty containers the awaited one may still hold, itself
    /// included; never 0 while admission runs (a container member with no level left is
    /// over the limit as soon as it is admitted), so 0 says admission is off and the
    /// arguments are walked, before or after.
    depth: usize,
}

/// What a pass over a container's members holds: whether it claimed the container, and then
/// how many levels of non-empty containers each member may still hold.
#[derive(Clone, Copy, Debug)]
pub struct Claim(usize);

impl Claim {
    /// A pass that claimed nothing: admitting under it does nothing.
    pub const NONE: Claim = Claim(0);
}

/// The state of admission before a branch, to return to when the branch fails (see the
/// [module documentation](self)).
#[derive(Clone, Copy, Debug)]
pub struct Mark {
    nodes_left: usize,
    awaiting: usize,
    depth: usize,
}

#[inline]
fn address(v: &Value) -> usize {
    v as *const Value as usize
}

/// The halt of a value over the argument limits, found by admission. Its failure is never
/// reported: the caller walks the arguments for the one to report.
#[cold]
#[inline(never)]
fn over() -> Halt {
    Halt(Box::new(Failure::new(
        "",
        "",
        None,
        "",
        messages::arguments_over_limits(),
    )))
}

impl Admission {
    /// No admission: the arguments are walked.
    pub(super) const OFF: Admission = Admission {
        nodes_left: 0,
        max_string: 0,
        awaiting: 0,
        depth: 0,
    };

    /// Admission of `root` under these limits, the root itself counted and awaited when it
    /// has members. Off when the root alone is over the limits, or when the depth limit is
    /// beyond what the recursive walk of unclaimed members is trusted with, or 0 (a rare
    /// setting: an awaited container needs a level of its own, see [`Admission::admit`]);
    /// the walk decides then.
    #[inline]
    pub(super) fn of(root: &Value, max_depth: usize, max_nodes: usize, max_string: usize) -> Self {
        let Some(nodes_left) = max_nodes.checked_sub(1) else {
            return Admission::OFF;
        };
        if !(1..=FAST_WALK_MAX_DEPTH).contains(&max_depth) {
            return Admission::OFF;
        }
        let awaiting = match root {
            Value::String(s) if s.len() > max_string => return Admission::OFF,
            Value::Array(a) if !a.is_empty() => address(root),
            Value::Object(m) if !m.is_empty() => address(root),
            _ => 0,
        };
        Admission {
            nodes_left,
            max_string,
            awaiting,
            depth: max_depth,
        }
    }

    /// Whether admission runs.
    #[inline]
    pub(super) fn is_on(&self) -> bool {
        self.depth != 0
    }

    /// Whether every value of `root` was admitted.
    #[inline]
    pub(super) fn admitted(&self, root: &Value) -> bool {
        self.is_on() && self.awaiting != address(root)
    }

    /// Whether `v`, with `members` members, is the awaited container; if so it is claimed.
    #[inline]
    pub(super) fn claim(&mut self, v: &Value, members: usize) -> Result<Claim, Halt> {
        if self.awaiting != address(v) {
            return Ok(Claim::NONE);
        }
        self.awaiting = 0;
        if members > self.nodes_left {
            return Err(over());
        }
        self.nodes_left -= members;
        Ok(Claim(self.depth))
    }

    /// Admits a member of a claimed container before its evaluation: its name, if it has
    /// one, and its value, which it awaits when it has members. A container with members
    /// where no level is left for one is over the depth limit at once, whether or not a pass
    /// claims it; so a pass that claims an awaited container never needs to check depth.
    #[inline]
    pub(super) fn admit(
        &mut self,
        claim: Claim,
        name: Option<&str>,
        v: &Value,
    ) -> Result<(), Halt> {
        if claim.0 == 0 {
            return Ok(());
        }
        if name.is_some_and(|n| n.len() > self.max_string) {
            return Err(over());
        }
        match v {
            Value::String(s) if s.len() > self.max_string => Err(over()),
            Value::Array(a) if !a.is_empty() => self.await_(v, claim),
            Value::Object(m) if !m.is_empty() => self.await_(v, claim),
            _ => Ok(()),
        }
    }

    #[inline]
    fn await_(&mut self, v: &Value, claim: Claim) -> Result<(), Halt> {
        if claim.0 == 1 {
            return Err(over());
        }
        self.awaiting = address(v);
        self.depth = claim.0 - 1;
        Ok(())
    }

    /// Settles a member of a claimed container after its evaluation: a container that no
    /// pass claimed is walked.
    #[inline]
    pub(super) fn settle(&mut self, claim: Claim, v: &Value) -> Result<(), Halt> {
        if claim.0 == 0 || self.awaiting != address(v) {
            return Ok(());
        }
        self.awaiting = 0;
        if members_within(v, claim.0 - 1, &mut self.nodes_left, self.max_string) {
            Ok(())
        } else {
            Err(over())
        }
    }

    /// Admits a member of a claimed container whose evaluation claims nothing (its
    /// subschemas apply no other), all of it.
    #[inline]
    pub(super) fn admit_whole(
        &mut self,
        claim: Claim,
        name: Option<&str>,
        v: &Value,
    ) -> Result<(), Halt> {
        if claim.0 == 0 {
            return Ok(());
        }
        if name.is_some_and(|n| n.len() > self.max_string)
            || !member_within(v, claim.0, &mut self.nodes_left, self.max_string)
        {
            return Err(over());
        }
        Ok(())
    }

    #[inline]
    pub(super) fn mark(&self) -> Mark {
        Mark {
            nodes_left: self.nodes_left,
            awaiting: self.awaiting,
            depth: self.depth,
        }
    }

    #[inline]
    pub(super) fn rollback(&mut self, mark: Mark) {
        self.nodes_left = mark.nodes_left;
        self.awaiting = mark.awaiting;
        self.depth = mark.depth;
    }
}

/// The first pair of equal items (`uniqueItems`; see [`json::first_duplicate`]), which no
/// pass may have admitted yet. A comparison follows them only as deep as the whole arguments
/// may nest (`max_depth`, the argument depth limit): nesting past that is over the limit, so
/// it halts as admission would, and the walk reports the failure. With admission off, the
/// arguments were walked before evaluation, and nest no deeper than that anyway.
///
/// ```
/// use serde_json::json;
/// use toolschema::eval::admission::first_duplicate;
///
/// let items = json!([{"a": [1]}, [2], {"a": [1.0]}]);
/// let items = items.as_array().unwrap();
/// assert_eq!(first_duplicate(items, 2).unwrap(), Some((0, 2)));
/// assert!(first_duplicate(items, 1).is_err());
/// ```
#[inline]
pub fn first_duplicate(items: &[Value], max_depth: usize) -> Result<Option<(usize, usize)>, Halt> {
    json::first_duplicate_within(items, Nesting::at_most(max_depth)).map_err(|TooDeep| over())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::arguments::check_arguments;
    use crate::options::Limits;
    use serde_json::json;

    /// How a simulated evaluation treats the containers it meets.
    #[derive(Clone, Copy, Debug)]
    enum Plan {
        /// Every pass claims.
        ClaimAll,
        /// No pass claims below the root.
        RootOnly,
        /// Passes at odd levels claim.
        OddLevels,
        /// A branch claims each container, fails halfway and is rolled back; then the pass
        /// claims it again.
        FailedBranchFirst,
        /// The root's pass admits each member whole, as a pass whose subschemas apply no
        /// other does.
        WholeMembers,
    }

    /// Evaluates `v` at `level` as a schema that recurses into every member would, admitting
    /// as `plan` says.
    fn evaluate(a: &mut Admission, v: &Value, level: usize, plan: Plan) -> Result<(), Halt> {
        let members: Vec<(Option<&str>, &Value)> = match v {
            Value::Array(items) => items.iter().map(|i| (None, i)).collect(),
            Value::Object(map) => map.iter().map(|(k, v)| (Some(k.as_str()), v)).collect(),
            _ => return Ok(()),
        };
        let claims = match plan {
            Plan::ClaimAll | Plan::FailedBranchFirst | Plan::WholeMembers => true,
            Plan::RootOnly => level == 0,
            Plan::OddLevels => level == 0 || level % 2 == 1,
        };
        if !claims {
            return Ok(());
        }
        if let Plan::FailedBranchFirst = plan {
            let mark = a.mark();
            let claim = a.claim(v, members.len())?;
            if let Some((name, first)) = members.first() {
                a.admit(claim, *name, first)?;
            }
            a.rollback(mark);
        }
        let claim = a.claim(v, members.len())?;
        if let Plan::WholeMembers = plan {
            for (name, member) in members {
                a.admit_whole(claim, name, member)?;
            }
            return Ok(());
        }
        for (name, member) in members {
            a.admit(claim, name, member)?;
            evaluate(a, member, level + 1, plan)?;
            a.settle(claim, member)?;
        }
        Ok(())
    }

    /// Whatever the passes claim, admission accepts exactly what the walk accepts, at every
    /// edge of every limit.
    #[test]
    fn admission_agrees_with_the_walk() {
        let values = [
            json!(null),
            json!("abcd"),
            json!([]),
            json!({}),
            json!({"a": 1}),
            json!([1, "ab", [], {}]),
            json!({"abc": [1, [2, [3]]], "d": {"e": "fgh"}}),
            json!([[[["deep"]]]]),
            json!({"k": [[[["deep"]]]], "l": true}),
            json!({"a": {"b": {"c": {}}}, "xyzzy": [1, 2, 3, 4]}),
            json!([{"k": [true, false, null]}, "xyz", 1.5]),
        ];
        let plans = [
            Plan::ClaimAll,
            Plan::RootOnly,
            Plan::OddLevels,
            Plan::FailedBranchFirst,
            Plan::WholeMembers,
        ];
        let mut admitted = 0;
        for v in &values {
            for depth in 0..6 {
                for nodes in 0..16 {
                    for string in 0..6 {
                        let limits = Limits::new()
                            .max_argument_depth(depth)
                            .max_argument_nodes(nodes)
                            .max_argument_string_length(string);
                        let expected = check_arguments(v, &limits).is_ok();
                        for plan in plans {
                            let mut a = Admission::of(v, depth, nodes, string);
                            let verdict = match evaluate(&mut a, v, 0, plan) {
                                Err(_) => false,
                                Ok(()) if a.admitted(v) => {
                                    admitted += 1;
                                    true
                                }
                                Ok(()) => expected,
                            };
                            assert_eq!(
                                verdict, expected,
                                "{v} with depth {depth}, nodes {nodes}, string {string}, {plan:?}"
                            );
                        }
                    }
                }
            }
        }
        assert!(admitted > 5000, "admission decided too few cases");
    }

    /// A root that no pass claimed is not admitted, and neither is anything when admission
    /// is off.
    #[test]
    fn an_unclaimed_root_is_not_admitted() {
        let v = json!({"a": [1]});
        let a = Admission::of(&v, 8, 100, 8);
        assert!(!a.admitted(&v));
        let mut a = Admission::of(&v, 8, 100, 8);
        let claim = a.claim(&v, 1).unwrap();
        a.admit(claim, Some("a"), &v["a"]).unwrap();
        a.settle(claim, &v["a"]).unwrap();
        assert!(a.admitted(&v));
        assert!(!Admission::OFF.admitted(&v));
        assert!(Admission::of(&json!(3), 8, 100, 8).admitted(&json!(3)));
        assert!(!Admission::of(&json!("long"), 8, 100, 2).admitted(&json!("long")));
    }
}
