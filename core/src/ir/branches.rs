//! What rules the branches of an `anyOf` or `oneOf` out before they run: a discriminating
//! member, the branch its value picks, and the types each branch allows.

use super::{admits, discriminating_member, same_name};
use crate::json::TypeSet;
use serde_json::Value;

/// A member whose value rules out branches of an `anyOf` or `oneOf` before they run.
///
/// A branch that applies, in place (itself, or behind `$ref` and `allOf`), `properties` whose
/// subschema for the member is a `const` string or an `enum` of strings fails whenever the
/// instance is an object holding the member with any other value. Both back ends skip such
/// branches rather than evaluate them: the verdict is the same, and a discriminated union of
/// many object shapes (FHIR's resources on `resourceType`, a tool's `action`) costs one branch
/// instead of all of them.
///
/// ```
/// use serde_json::json;
/// use toolschema::ir::Discriminator;
///
/// let d = Discriminator {
///     property: "action".into(),
///     values: vec![Some(vec!["read".into()]), Some(vec!["write".into(), "append".into()]), None],
/// };
/// let call = json!({"action": "append"});
/// let member = d.member(&call);
/// assert_eq!((0..3).map(|i| d.rules_out(i, member)).collect::<Vec<_>>(), [true, false, false]);
/// // Without the member, nothing is ruled out.
/// let call = json!({});
/// assert!(!d.rules_out(0, d.member(&call)));
/// ```
#[derive(Clone, Debug)]
pub struct Discriminator {
    /// The member's name.
    pub property: String,
    /// Per branch, the strings the member may be for the branch to hold; `None` where the
    /// branch does not constrain it.
    pub values: Vec<Option<Vec<String>>>,
}

impl Discriminator {
    /// The member in `instance`, when it can rule branches out: `instance` is an object that
    /// holds it.
    pub fn member<'v>(&self, instance: &'v Value) -> Option<&'v Value> {
        discriminating_member(instance, &self.property)
    }

    /// The branch each value picks, when each value the member may take admits one branch
    /// only, so that the member's value picks the branch to run (or none) instead of being
    /// tested against each.
    ///
    /// ```
    /// use toolschema::ir::Discriminator;
    /// let d = |values: Vec<Option<Vec<String>>>| Discriminator { property: "kind".into(), values };
    /// assert!(d(vec![Some(vec!["a".into()]), Some(vec!["b".into()])]).picks().is_some());
    /// assert!(d(vec![Some(vec!["a".into()]), Some(vec!["a".into(), "b".into()])]).picks().is_none());
    /// ```
    pub fn picks(&self) -> Option<Picks> {
        let mut by_value: Vec<(Box<str>, usize)> = self
            .values
            .iter()
            .enumerate()
            .flat_map(|(i, values)| values.iter().flatten().map(move |v| (v.as_str().into(), i)))
            .collect();
        by_value.sort_unstable();
        let distinct = by_value.windows(2).all(|w| w[0].0 != w[1].0);
        distinct.then(|| Picks {
            by_value: by_value.into(),
            open: (self.values.iter().enumerate())
                .filter_map(|(i, values)| values.is_none().then_some(i))
                .collect(),
        })
    }

    /// Whether branch `i` fails, without running it, for an instance whose member (from
    /// [`Discriminator::member`]) is `member`.
    pub fn rules_out(&self, i: usize, member: Option<&Value>) -> bool {
        self.values[i]
            .as_ref()
            .is_some_and(|values| !admits(member, values))
    }
}

/// What rules the branches of one `anyOf` or `oneOf` out before they run, as the front end
/// decided it: a discriminating member (and the branch each of its values picks, where each
/// picks one), and the types each branch allows. The interpreter
/// asks [`BranchRules::rules_out`]; generated code writes the same tests inline.
///
/// ```
/// use serde_json::json;
/// use toolschema::ir::Body;
/// use toolschema::{Options, Validator};
///
/// let schema = json!({"oneOf": [
///     {"type": "string"},
///     {"properties": {"action": {"const": "read"}}},
///     {"properties": {"action": {"const": "write"}}},
/// ]});
/// let v = Validator::with_options(&schema, &Options::new()).unwrap();
/// let Body::Keywords(root) = &v.ir().node(v.ir().root).body else { unreachable!() };
/// let rules = root.one_of_rules();
/// let call = json!({"action": "write"});
/// let read = rules.read(&call);
/// let ruled_out: Vec<bool> = (0..3).map(|i| rules.rules_out(i, read, &call)).collect();
/// assert_eq!(ruled_out, [true, true, false]);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct BranchRules<'k> {
    /// The member whose value rules branches out, if one does.
    pub discriminator: Option<&'k Discriminator>,
    /// The branch each of the member's values picks, when each picks one.
    pub picks: Option<&'k Picks>,
    /// The types each branch allows (see [`super::branch_types`]), when one is restricted.
    pub types: Option<&'k [TypeSet]>,
}

impl BranchRules<'_> {
    /// The discriminating member of `instance`, read once for every branch.
    #[inline(always)]
    pub fn read<'v>(&self, instance: &'v Value) -> Reading<'v> {
        // Most `anyOf` and `oneOf` have no discriminator: that case stays a test inline.
        match self.discriminator {
            None => Reading::ABSENT,
            Some(d) => self.read_member(d, instance),
        }
    }

    fn read_member<'v>(&self, d: &Discriminator, instance: &'v Value) -> Reading<'v> {
        let member = d.member(instance);
        let pick = self.picks.map_or(Picks::ABSENT, |p| p.pick(member));
        Reading { member, pick }
    }

    /// The branches of `n` that the member's pick leaves to test, in order: the picked one and
    /// those that name no value when it picked a branch or nothing, every branch otherwise
    /// (no pick, an absent member, or `every` asked for, as recording for the output formats
    /// does). [`BranchRules::rules_out`] still decides each.
    #[inline]
    pub fn candidates(&self, read: Reading<'_>, n: usize, every: bool) -> Candidates<'_> {
        match self.picks {
            Some(p) if !every && read.pick != Picks::ABSENT => Candidates::Picked {
                open: &p.open,
                pick: (read.pick < n).then_some(read.pick),
            },
            _ => Candidates::Every(0..n),
        }
    }

    /// Whether branch `i`, one of [`BranchRules::candidates`], fails on `instance` without
    /// running, its discriminating member read by [`BranchRules::read`]. Where the member's
    /// values pick branches, the candidates are already the branches the member admits, so
    /// only the types are left to test.
    #[inline(always)]
    pub fn rules_out(&self, i: usize, read: Reading<'_>, instance: &Value) -> bool {
        self.discriminator
            .is_some_and(|d| self.picks.is_none() && d.rules_out(i, read.member))
            || self.types.is_some_and(|t| !t[i].matches(instance))
    }
}

/// The branches [`BranchRules::candidates`] leaves to test, in order.
#[derive(Clone, Debug)]
pub enum Candidates<'k> {
    /// Every branch.
    Every(core::ops::Range<usize>),
    /// The branches that name no value, and the picked one, if any.
    Picked {
        /// The branches that name no value, not yet returned.
        open: &'k [usize],
        /// The picked branch, until it is returned.
        pick: Option<usize>,
    },
}

impl Iterator for Candidates<'_> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        match self {
            Candidates::Every(range) => range.next(),
            Candidates::Picked { open, pick } => match (open.first(), *pick) {
                (Some(&o), Some(p)) if p < o => pick.take(),
                (Some(&o), _) => {
                    *open = &open[1..];
                    Some(o)
                }
                (None, _) => pick.take(),
            },
        }
    }
}

/// The discriminating member of one instance, as [`BranchRules::read`] found it.
#[derive(Clone, Copy, Debug)]
pub struct Reading<'v> {
    member: Option<&'v Value>,
    /// The branch the member picks (see [`Picks::pick`]).
    pick: usize,
}

impl Reading<'_> {
    /// No member: there is no discriminator, or the instance does not hold it.
    const ABSENT: Reading<'static> = Reading {
        member: None,
        pick: Picks::ABSENT,
    };
}

/// The branch each value of a discriminating member picks, where each picks one: the member
/// is then read once, and every branch tested against the branch it picked instead of
/// against the member's values. Generated code writes the same encoding into a `match`.
///
/// ```
/// use serde_json::json;
/// use toolschema::ir::{Discriminator, Picks};
///
/// let d = Discriminator {
///     property: "action".into(),
///     values: vec![Some(vec!["read".into()]), Some(vec!["write".into(), "append".into()])],
/// };
/// let picks = d.picks().unwrap();
/// assert_eq!(picks.pick(Some(&json!("append"))), 1);
/// assert_eq!(picks.pick(Some(&json!("delete"))), Picks::NOTHING);
/// assert_eq!(picks.pick(None), Picks::ABSENT);
/// ```
#[derive(Clone, Debug)]
pub struct Picks {
    /// Every value with its branch, sorted by value.
    by_value: Box<[(Box<str>, usize)]>,
    /// The branches that name no value, in order: the member rules none of them out.
    open: Box<[usize]>,
}

/// Up to this many values, [`Picks::pick`] scans them rather than searching.
const SCANNED_VALUES: usize = 32;

impl Picks {
    /// The pick of an absent member: it rules out only the branches that require it.
    pub const ABSENT: usize = usize::MAX;
    /// The pick of a member that is none of the values: every branch that names values
    /// fails.
    pub const NOTHING: usize = usize::MAX - 1;

    /// The branch `member` picks: its index, [`Picks::ABSENT`] or [`Picks::NOTHING`].
    #[inline]
    pub fn pick(&self, member: Option<&Value>) -> usize {
        match member {
            None => Self::ABSENT,
            // A few values are scanned, their lengths and words compared without a call to
            // `memcmp`; the ordered search pays one such call a step.
            Some(Value::String(s)) if self.by_value.len() <= SCANNED_VALUES => self
                .by_value
                .iter()
                .find(|(value, _)| same_name(value, s))
                .map_or(Self::NOTHING, |&(_, branch)| branch),
            Some(Value::String(s)) => self
                .by_value
                .binary_search_by(|(value, _)| value.as_ref().cmp(s.as_str()))
                .map_or(Self::NOTHING, |at| self.by_value[at].1),
            Some(_) => Self::NOTHING,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The branches left to run, through the picks and through the member's values alike.
    fn left(d: &Discriminator, instance: &Value) -> (Vec<usize>, Vec<usize>) {
        let picks = d.picks().expect("each value picks one branch");
        let picked = BranchRules {
            discriminator: Some(d),
            picks: Some(&picks),
            types: None,
        };
        let tested = BranchRules {
            picks: None,
            ..picked
        };
        let n = d.values.len();
        let run = |rules: &BranchRules<'_>| {
            let read = rules.read(instance);
            rules
                .candidates(read, n, false)
                .filter(|&i| !rules.rules_out(i, read, instance))
                .collect::<Vec<_>>()
        };
        (run(&picked), run(&tested))
    }

    #[test]
    fn a_pick_leaves_the_branches_the_values_leave() {
        let d = Discriminator {
            property: "kind".into(),
            values: vec![
                None,
                Some(vec!["b".into(), "bb".into()]),
                Some(vec![]),
                Some(vec!["d".into()]),
                None,
                Some(vec!["f".into()]),
            ],
        };
        for instance in [
            json!({"kind": "b"}),
            json!({"kind": "bb"}),
            json!({"kind": "d"}),
            json!({"kind": "f"}),
            json!({"kind": "x"}),
            json!({"kind": 1}),
            json!({}),
            json!("not an object"),
        ] {
            let (picked, tested) = left(&d, &instance);
            assert_eq!(picked, tested, "{instance}");
        }
        assert_eq!(left(&d, &json!({"kind": "d"})).0, [0, 3, 4]);
        assert_eq!(left(&d, &json!({})).0, [0, 1, 2, 3, 4, 5]);
    }

    #[test]
    fn recording_leaves_every_branch() {
        let d = Discriminator {
            property: "kind".into(),
            values: vec![Some(vec!["a".into()]), Some(vec!["b".into()])],
        };
        let picks = d.picks().unwrap();
        let rules = BranchRules {
            discriminator: Some(&d),
            picks: Some(&picks),
            types: None,
        };
        let instance = json!({"kind": "b"});
        let read = rules.read(&instance);
        assert_eq!(rules.candidates(read, 2, true).collect::<Vec<_>>(), [0, 1]);
        assert_eq!(rules.candidates(read, 2, false).collect::<Vec<_>>(), [1]);
    }
}
