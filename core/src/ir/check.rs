//! A node's keywords as an ordered list of checks: what the interpreter runs.
//!
//! [`Keywords`] records what a schema object says; a [`Check`] is one concrete operation
//! evaluation performs, carrying everything it needs, decided once here:
//!
//! - keywords that cannot fail (`minLength: 0`, `minItems: 0`, `minProperties: 0`) have no
//!   check;
//! - `contains` carries the keyword its failure names (`contains` or `minContains`), and
//!   whether every item must be tried;
//! - `$dynamicRef` carries each candidate resource once, and whether it can vary at all;
//! - `anyOf`/`oneOf` carry what rules their branches out before they run, and whether a
//!   discriminator picks exactly one branch;
//! - the object keywords that share one pass over the keys form one check.
//!
//! Evaluation order is the order of the list, which is the order of the fields of
//! [`Keywords`]: `$ref`, `$dynamicRef`, the assertions on the instance itself, content,
//! array, object, `allOf`, the other applicators, and `unevaluated*` last, after every
//! annotation it reads. Both paths count steps, and stop at a limit, in this order.
//!
//! ```
//! use serde_json::json;
//! use toolschema::ir::Check;
//! use toolschema::Validator;
//!
//! let v = Validator::new(&json!({"type": "string", "minLength": 0, "maxLength": 8})).unwrap();
//! let checks = &v.ir().node(v.ir().root).checks;
//! assert!(matches!(checks[..], [Check::Type(_), Check::Length { min: 0, max: Some(8) }]));
//! ```

use super::*;
use crate::json::JsonType;

/// One operation of a node's evaluation (see the [module](self) documentation).
#[derive(Clone, Debug)]
pub enum Check {
    /// The `false` schema: nothing is valid.
    Never,
    /// `$ref`, or a `$dynamicRef` whose target cannot vary: the keyword is the one named.
    Ref {
        /// The subschema referred to.
        target: NodeId,
        /// `$ref` or `$dynamicRef`.
        keyword: &'static str,
    },
    /// A `$dynamicRef` whose target depends on the dynamic scope.
    DynamicRef(Box<DynamicTargets>),
    /// `type`.
    Type(TypeSet),
    /// `const`.
    Const(Arc<Value>),
    /// `enum`.
    Enum(Arc<[Value]>),
    /// `minimum` (numbers only).
    Minimum(Box<Bound>),
    /// `maximum` (numbers only).
    Maximum(Box<Bound>),
    /// `exclusiveMinimum` (numbers only).
    ExclusiveMinimum(Box<Bound>),
    /// `exclusiveMaximum` (numbers only).
    ExclusiveMaximum(Box<Bound>),
    /// `multipleOf` (numbers only).
    MultipleOf(Box<MultipleOf>),
    /// `minLength` (0 when absent or 0) and `maxLength`, counted in code points once
    /// (strings only).
    Length {
        /// `minLength`; 0 when it cannot fail.
        min: u64,
        /// `maxLength`.
        max: Option<u64>,
    },
    /// `pattern` (strings only).
    Pattern(PatternId),
    /// An asserted `format` (strings only).
    Format(Format),
    /// Asserted `contentEncoding` / `contentMediaType` / `contentSchema` (strings only).
    Content(Box<ContentCheck>),
    /// `minItems` (0 when absent) and `maxItems` (arrays only).
    ItemCount {
        /// `minItems`; 0 when it cannot fail.
        min: u64,
        /// `maxItems`.
        max: Option<u64>,
    },
    /// `uniqueItems: true` (arrays only).
    UniqueItems,
    /// `prefixItems` (arrays only).
    PrefixItems(Box<[NodeId]>),
    /// `items`, applied to the items after the first `skip` (arrays only).
    Items {
        /// How many items `prefixItems` covers.
        skip: usize,
        /// The subschema.
        schema: NodeId,
        /// The subschema's types when its only check is a `type` that passes nothing but
        /// nulls, booleans and numbers (GeoJSON's `{"type": "number"}`): a first-failure pass
        /// tests them in a loop of its own, with no call and no admission per item (the claim
        /// counted the items, and one that fails ends the pass). Set by lowering, once the
        /// subschema's checks are known.
        scalar_types: Option<TypeSet>,
    },
    /// `contains` with its bounds (arrays only).
    Contains(Box<ContainsCheck>),
    /// `minProperties` (0 when absent) and `maxProperties` (objects only).
    PropertyCount {
        /// `minProperties`; 0 when it cannot fail.
        min: u64,
        /// `maxProperties`.
        max: Option<u64>,
    },
    /// One pass over an object's keys: `properties`, `patternProperties`,
    /// `additionalProperties`, and the `required` names they see (objects only). The plan is
    /// the node's own, shared with its body: the pass reads those parts of it and no other
    /// (`dependentRequired`, `propertyNames`, `dependentSchemas` and `unevaluatedProperties`
    /// are checks of their own).
    KeyPass(Arc<ObjectPlan>),
    /// `required` without a key pass, each name looked up (objects only).
    Required(Box<[String]>),
    /// `dependentRequired` (objects only).
    DependentRequired(Box<[Dependent<Vec<String>>]>),
    /// `propertyNames` (objects only).
    PropertyNames(NodeId),
    /// `dependentSchemas` (objects only).
    DependentSchemas(Box<[Dependent<NodeId>]>),
    /// `allOf`.
    AllOf(Box<[NodeId]>),
    /// `anyOf`.
    AnyOf(Box<Branches>),
    /// `oneOf`.
    OneOf(Box<Branches>),
    /// `not`.
    Not(NodeId),
    /// `if` / `then` / `else`.
    Condition(Box<Condition>),
    /// `unevaluatedProperties`, once every annotation it reads is in (objects only).
    UnevaluatedProperties(NodeId),
    /// `unevaluatedItems`, likewise (arrays only).
    UnevaluatedItems(NodeId),
}

impl Check {
    /// The one instance type the check applies to, if it applies to one only: every value of
    /// another type passes it untouched. `Number` stands for every number, integers too.
    ///
    /// ```
    /// use toolschema::ir::Check;
    /// use toolschema::json::JsonType;
    ///
    /// assert_eq!(Check::UniqueItems.instance_type(), Some(JsonType::Array));
    /// assert_eq!(Check::Not(toolschema::ir::NodeId(0)).instance_type(), None);
    /// ```
    pub fn instance_type(&self) -> Option<JsonType> {
        match self {
            Check::Never
            | Check::Ref { .. }
            | Check::DynamicRef(_)
            | Check::Type(_)
            | Check::Const(_)
            | Check::Enum(_)
            | Check::AllOf(_)
            | Check::AnyOf(_)
            | Check::OneOf(_)
            | Check::Not(_)
            | Check::Condition(_) => None,
            Check::Minimum(_)
            | Check::Maximum(_)
            | Check::ExclusiveMinimum(_)
            | Check::ExclusiveMaximum(_)
            | Check::MultipleOf(_) => Some(JsonType::Number),
            Check::Length { .. } | Check::Pattern(_) | Check::Format(_) | Check::Content(_) => {
                Some(JsonType::String)
            }
            Check::ItemCount { .. }
            | Check::UniqueItems
            | Check::PrefixItems(_)
            | Check::Items { .. }
            | Check::Contains(_)
            | Check::UnevaluatedItems(_) => Some(JsonType::Array),
            Check::PropertyCount { .. }
            | Check::KeyPass(_)
            | Check::Required(_)
            | Check::DependentRequired(_)
            | Check::PropertyNames(_)
            | Check::DependentSchemas(_)
            | Check::UnevaluatedProperties(_) => Some(JsonType::Object),
        }
    }

    /// How many items, from the first, this check's pass over an array evaluates. The pass
    /// claims the array for admission to the argument limits (see `eval::admission`) when
    /// that is every item: `items` alone always, `prefixItems` when the array is no longer
    /// than it; `items` after `prefixItems` starts later and never claims.
    pub fn items_from_first(&self) -> usize {
        match self {
            Check::PrefixItems(schemas) => schemas.len(),
            Check::Items { skip: 0, .. } => usize::MAX,
            _ => 0,
        }
    }

    /// Whether the check may mark members of the instance as evaluated, itself or through a
    /// subschema it applies in place: a node with no such check has no marks to give.
    pub fn marks_members(&self) -> bool {
        matches!(
            self,
            Check::Ref { .. }
                | Check::DynamicRef(_)
                | Check::PrefixItems(_)
                | Check::Items { .. }
                | Check::Contains(_)
                | Check::KeyPass(_)
                | Check::DependentSchemas(_)
                | Check::AllOf(_)
                | Check::AnyOf(_)
                | Check::OneOf(_)
                | Check::Condition(_)
                | Check::UnevaluatedProperties(_)
                | Check::UnevaluatedItems(_)
        )
    }

    /// Whether the check reads only the value and gives a verdict: it applies no subschema,
    /// tracks nothing and cannot stop evaluation at a limit.
    pub fn only_asserts(&self) -> bool {
        matches!(
            self,
            Check::Never
                | Check::Type(_)
                | Check::Const(_)
                | Check::Enum(_)
                | Check::Minimum(_)
                | Check::Maximum(_)
                | Check::ExclusiveMinimum(_)
                | Check::ExclusiveMaximum(_)
                | Check::MultipleOf(_)
                | Check::Length { .. }
                | Check::Pattern(_)
                | Check::Format(_)
        )
    }
}

/// The targets a dynamic `$dynamicRef` may take.
#[derive(Clone, Debug)]
pub struct DynamicTargets {
    /// The target when no resource in scope defines the anchor.
    pub fallback: NodeId,
    /// Each resource defining the anchor, once, with the node it marks. The outermost of
    /// them in the dynamic scope wins.
    pub candidates: Box<[(ResourceId, NodeId)]>,
}

impl DynamicTargets {
    /// The target in `scope`: that of the outermost resource defining the anchor, or the
    /// fallback.
    pub fn target(&self, scope: &crate::eval::Scope<'_>) -> NodeId {
        match scope.outermost(&self.candidates, |(r, _)| r.0) {
            Some(i) => self.candidates[i].1,
            None => self.fallback,
        }
    }
}

/// `contains`, `minContains` and `maxContains`.
#[derive(Clone, Debug)]
pub struct ContainsCheck {
    /// The subschema.
    pub schema: NodeId,
    /// `minContains` (1 without it).
    pub min: u64,
    /// `maxContains`.
    pub max: Option<u64>,
    /// The keyword a count under `min` fails: `contains`, or `minContains` when that set
    /// another minimum than 1.
    pub min_keyword: &'static str,
}

impl ContainsCheck {
    /// Whether every item must be tried: when there is an upper bound, or when the matches
    /// are annotations someone reads (`tracking`: an `unevaluatedItems`, or an evaluation for
    /// the output formats); otherwise reaching the minimum settles it.
    #[inline]
    pub fn exhaustive(&self, tracking: bool) -> bool {
        self.max.is_some() || tracking
    }
}

/// The branches of an `anyOf` or `oneOf`, and what rules them out before they run.
#[derive(Clone, Debug)]
pub struct Branches {
    /// The subschemas.
    pub schemas: Box<[NodeId]>,
    /// A discriminating member (see [`Discriminator`]).
    pub discriminator: Option<Discriminator>,
    /// The types each branch allows (see [`branch_types`]), when one is restricted.
    pub types: Option<Box<[TypeSet]>>,
    /// The branch each value of the discriminator picks, when each admits exactly one, so a
    /// back end maps the member's value to that branch once instead of testing each.
    pub picks: Option<Picks>,
}

impl Branches {
    /// What rules branches out (see [`BranchRules`]).
    pub fn rules(&self) -> BranchRules<'_> {
        BranchRules {
            discriminator: self.discriminator.as_ref(),
            picks: self.picks.as_ref(),
            types: self.types.as_deref(),
        }
    }
}

/// The instance types for which a node's own `unevaluated*` keywords read evaluated marks
/// (see [`Node::consumes_marks`]).
pub(crate) fn consumes_marks(body: &Body) -> TypeSet {
    let mut types = TypeSet::EMPTY;
    if let Body::Keywords(k) = body {
        if k.unevaluated_properties().is_some() {
            types = types.with(crate::json::JsonType::Object);
        }
        if k.unevaluated_items().is_some() {
            types = types.with(crate::json::JsonType::Array);
        }
    }
    types
}

/// The checks of a node, in evaluation order; `scratch` is empty, and left so.
pub(crate) fn checks_of(body: &Body, scratch: &mut Vec<Check>) -> Box<[Check]> {
    let k = match body {
        Body::Bool(true) => return Box::new([]),
        Body::Bool(false) => return Box::new([Check::Never]),
        Body::Keywords(k) => k,
    };
    // The list is made in `scratch`, kept from node to node, and moved out into a slice of
    // its exact length: one allocation a node, neither grown nor shrunk.
    let out = scratch;
    if let Some(target) = k.reference {
        out.push(Check::Ref {
            target,
            keyword: "$ref",
        });
    }
    match k.dynamic_reference.as_deref() {
        Some(DynamicRef::Fixed(target)) => out.push(Check::Ref {
            target: *target,
            keyword: "$dynamicRef",
        }),
        Some(DynamicRef::Dynamic {
            fallback,
            candidates,
            ..
        }) => {
            let mut once: Vec<(ResourceId, NodeId)> = Vec::new();
            for &(r, n) in candidates {
                if !once.iter().any(|(seen, _)| *seen == r) {
                    once.push((r, n));
                }
            }
            out.push(Check::DynamicRef(Box::new(DynamicTargets {
                fallback: *fallback,
                candidates: once.into(),
            })));
        }
        None => {}
    }
    if let Some(types) = k.types {
        out.push(Check::Type(types));
    }
    if let Some(c) = &k.constant {
        out.push(Check::Const(Arc::clone(c)));
    }
    if let Some(e) = &k.enumeration {
        out.push(Check::Enum(Arc::clone(e)));
    }
    if let Some(n) = &k.number {
        let bounds = [
            (&n.minimum, Check::Minimum as fn(Box<Bound>) -> Check),
            (&n.maximum, Check::Maximum),
            (&n.exclusive_minimum, Check::ExclusiveMinimum),
            (&n.exclusive_maximum, Check::ExclusiveMaximum),
        ];
        for (bound, check) in bounds {
            if let Some(b) = bound {
                out.push(check(Box::new(b.clone())));
            }
        }
        if let Some(m) = &n.multiple_of {
            out.push(Check::MultipleOf(Box::new(m.clone())));
        }
    }
    if let Some(s) = &k.string {
        let min = s.min_length.unwrap_or(0);
        if min > 0 || s.max_length.is_some() {
            out.push(Check::Length {
                min,
                max: s.max_length,
            });
        }
        if let Some(p) = s.pattern {
            out.push(Check::Pattern(p));
        }
        if let Some(f) = s.format {
            out.push(Check::Format(f));
        }
        if let Some(c) = &s.content {
            out.push(Check::Content(Box::new(c.clone())));
        }
    }
    if let Some(a) = &k.array {
        array_checks(a, out);
    }
    if let Some(o) = &k.object {
        object_checks(o, out);
    }
    if !k.all_of.is_empty() {
        out.push(Check::AllOf(k.all_of.clone().into()));
    }
    let branches =
        |schemas: &[NodeId], d: &Option<Box<Discriminator>>, t: &Option<Box<[TypeSet]>>| {
            Box::new(Branches {
                schemas: schemas.into(),
                discriminator: d.as_deref().cloned(),
                types: t.clone(),
                picks: d.as_deref().and_then(Discriminator::picks),
            })
        };
    if !k.any_of.is_empty() {
        out.push(Check::AnyOf(branches(
            &k.any_of,
            &k.any_of_discriminator,
            &k.any_of_types,
        )));
    }
    if !k.one_of.is_empty() {
        out.push(Check::OneOf(branches(
            &k.one_of,
            &k.one_of_discriminator,
            &k.one_of_types,
        )));
    }
    if let Some(not) = k.not {
        out.push(Check::Not(not));
    }
    if let Some(c) = &k.condition {
        out.push(Check::Condition(c.clone()));
    }
    if let Some(u) = k.unevaluated_properties() {
        out.push(Check::UnevaluatedProperties(u));
    }
    if let Some(u) = k.unevaluated_items() {
        out.push(Check::UnevaluatedItems(u));
    }
    out.drain(..).collect()
}

fn array_checks(a: &ArrayPlan, out: &mut Vec<Check>) {
    let min = a.min_items.unwrap_or(0);
    if min > 0 || a.max_items.is_some() {
        out.push(Check::ItemCount {
            min,
            max: a.max_items,
        });
    }
    if a.unique_items {
        out.push(Check::UniqueItems);
    }
    if !a.prefix_items.is_empty() {
        out.push(Check::PrefixItems(a.prefix_items.clone().into()));
    }
    if let Some(schema) = a.items {
        out.push(Check::Items {
            skip: a.prefix_items.len(),
            schema,
            scalar_types: None,
        });
    }
    if let Some(c) = &a.contains {
        out.push(Check::Contains(Box::new(ContainsCheck {
            schema: c.schema,
            min: c.min,
            max: c.max,
            min_keyword: if c.min == 1 {
                "contains"
            } else {
                "minContains"
            },
        })));
    }
}

fn object_checks(o: &Arc<ObjectPlan>, out: &mut Vec<Check>) {
    let min = o.min_properties.unwrap_or(0);
    if min > 0 || o.max_properties.is_some() {
        out.push(Check::PropertyCount {
            min,
            max: o.max_properties,
        });
    }
    if o.needs_key_pass() {
        // The plan is shared with the body; the key pass reads only its part of it.
        out.push(Check::KeyPass(Arc::clone(o)));
    } else if !o.required.is_empty() {
        let names: Vec<String> = o.required.iter().map(|(n, _)| n.clone()).collect();
        out.push(Check::Required(names.into()));
    }
    if !o.dependent_required.is_empty() {
        out.push(Check::DependentRequired(
            o.dependent_required.clone().into(),
        ));
    }
    if let Some(names) = o.property_names {
        out.push(Check::PropertyNames(names));
    }
    if !o.dependent_schemas.is_empty() {
        out.push(Check::DependentSchemas(o.dependent_schemas.clone().into()));
    }
}
