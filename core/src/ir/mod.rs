//! The intermediate representation: a schema after parsing, resolution and analysis.
//!
//! This is the contract between the front end and the two back ends. The front end
//! ([`crate::frontend`]) reads schema JSON once: it checks the dialect and the meta-schema,
//! assigns base URIs, resolves every `$ref` and `$dynamicRef` to a [`NodeId`], decodes every
//! keyword into a typed field, and decides what evaluation needs (annotation tracking, dynamic
//! scope). The interpreter (behind [`crate::Validator`]) executes an [`Ir`]; the code generator
//! (`toolschema-compiler`) emits Rust from the same [`Ir`]. Neither back end looks at schema
//! JSON again, and neither decides a keyword's meaning: when a keyword is absent from a plan it
//! is absent from evaluation.
//!
//! # Invariants
//! - `nodes[root]` is the schema's root; every [`NodeId`] in the arena is valid.
//! - Keywords outside the active vocabularies, and `format`/`content*` when they are only
//!   annotations, are not in the IR at all.
//! - [`Node::tracks_properties`] / [`Node::tracks_items`] are true exactly for the nodes whose
//!   evaluated-property / evaluated-item annotations some `unevaluated*` keyword consumes.
//! - A `$dynamicRef` whose target cannot vary is a [`DynamicRef::Fixed`]; [`Ir::dynamic_scope`]
//!   is true only when some [`DynamicRef::Dynamic`] exists.
//! - No cycle of in-place applicators (a cycle that does not descend into the instance) exists:
//!   the front end rejects such schemas, so evaluation always terminates.
//! - Evaluation order within a node is the order of fields in [`Keywords`]; `unevaluated*` run
//!   last, after every annotation they depend on.
//!
//! The IR is public so that generated-code tooling can read it; its shape may change between
//! minor versions.

use crate::content::{ContentEncoding, ContentMediaType};
use crate::format::Format;
use crate::json::{JsonType, TypeSet};
use crate::number::{Bound, MultipleOf};
use crate::regex::Pattern;
use serde_json::Value;
use std::borrow::Cow;
use std::sync::Arc;

mod branches;
mod check;
pub use crate::eval::member::{
    admits, discriminating_member, has_member, member, name_hash, name_prefix, same_bytes,
    same_name,
};
pub use branches::{BranchRules, Candidates, Discriminator, Picks, Reading};
pub use check::{Branches, Check, ContainsCheck, DynamicTargets};
pub(crate) use check::{checks_of, consumes_marks};

/// Index of a [`Node`] in [`Ir::nodes`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub u32);

impl NodeId {
    /// The index as `usize`.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Index of a [`Pattern`] in [`Ir::patterns`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PatternId(pub u32);

/// Index of a schema resource (a document root or a subschema with `$id`) in [`Ir::resources`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ResourceId(pub u32);

/// A built schema, ready for a back end.
#[derive(Clone, Debug)]
pub struct Ir {
    /// Every subschema reached from the root, each once.
    pub nodes: Vec<Node>,
    /// The root node.
    pub root: NodeId,
    /// Every `pattern` and `patternProperties` key, compiled once.
    pub patterns: Vec<Pattern>,
    /// The absolute URI of every schema resource.
    pub resources: Vec<String>,
    /// Whether some `$dynamicRef` needs the dynamic scope at run time.
    pub dynamic_scope: bool,
    /// Whether the instance must be an object before anything else is checked (a tool's
    /// arguments always are, even when the root schema has no `type`). A non-object then
    /// fails with [`messages::arguments_not_object`](crate::messages::arguments_not_object) at
    /// the root, keyword `type`, keyword location empty.
    pub object_root: bool,
    /// How far any evaluation can go, when the schema's subschemas form no cycle (see
    /// [`EvaluationBound`]); `None` for a recursive schema, or one with `contentSchema`.
    pub evaluation_bound: Option<EvaluationBound>,
}

/// The most any evaluation of an acyclic schema can take, against which a back end can prove
/// that the evaluation limits cannot be reached and leave their checks out.
///
/// Steps are bounded two ways (see `frontend::bound`), and the smaller total counts: by kind
/// (`fixed_steps`, and `spread_steps` for every value) and by value (`root_steps`, and
/// `value_steps` for every value below the root).
///
/// ```
/// use toolschema::Limits;
/// use toolschema::ir::EvaluationBound;
///
/// let bound = EvaluationBound {
///     depth: 3,
///     fixed_steps: 12,
///     spread_steps: 20,
///     root_steps: 10,
///     value_steps: Some(2),
/// };
/// assert!(bound.within(&Limits::default()));
/// // At most two evaluations at each of the other values of the arguments: by value,
/// // 10 + 2 × (max_argument_nodes - 1); by kind, 20 × max_argument_nodes + 12.
/// assert!(!bound.within(&Limits::default().max_evaluation_steps(2_000_007)));
/// assert!(bound.within(&Limits::default().max_evaluation_steps(2_000_008)));
/// assert!(!bound.within(&Limits::default().max_evaluation_depth(2)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvaluationBound {
    /// The longest chain of subschemas evaluated inside one another.
    pub depth: usize,
    /// Evaluations of subschemas that apply at one place in the arguments only (the root, and
    /// what `properties` and `prefixItems` reach from it), counted over every path to them.
    pub fixed_steps: u64,
    /// The same for subschemas that apply to any number of values (under `items`,
    /// `additionalProperties`, `patternProperties`, `contains`, `propertyNames` or an
    /// `unevaluated*` keyword): each evaluates at most once per value per path.
    pub spread_steps: u64,
    /// Evaluations at the root of the arguments, counted over every path; made with
    /// `value_steps`, and 0 where that is `None`.
    pub root_steps: u64,
    /// The most evaluations at any one value below the root (a member's name counted with
    /// the member), over every path that can reach it; `None` where the count by kind was
    /// enough for the limits the schema was built under, or where the schema shares
    /// subschemas between members in too many ways to tell them apart.
    pub value_steps: Option<u64>,
}

impl EvaluationBound {
    /// Whether, for arguments within `limits`' argument limits, no evaluation can reach its
    /// evaluation depth or step limit.
    pub fn within(&self, limits: &crate::Limits) -> bool {
        let values = limits.get_max_argument_nodes() as u64;
        let by_kind = self
            .spread_steps
            .saturating_mul(values)
            .saturating_add(self.fixed_steps);
        let by_value = self.value_steps.map_or(u64::MAX, |steps| {
            steps
                .saturating_mul(values.saturating_sub(1))
                .saturating_add(self.root_steps)
        });
        self.depth <= limits.get_max_evaluation_depth()
            && by_kind.min(by_value) <= limits.get_max_evaluation_steps() as u64
    }
}

impl Ir {
    /// Whether evaluation ever looks at the native stack (`eval::stack::stack_low`) as it
    /// goes down: whether some node does ([`Node::looks_at_stack`]). A schema whose
    /// evaluation cannot nest [`crate::eval::stack::CHECK_EVERY`] levels never looks: it takes
    /// no more stack than the levels between two looks, which the looks budget for anyway.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolschema::{Options, frontend};
    ///
    /// let flat = frontend::build(&json!({"properties": {"a": {"type": "string"}}}), &Options::new())?;
    /// assert!(!flat.looks_at_stack());
    /// let tree = json!({"properties": {
    ///     "children": {"items": {"$ref": "#"}},
    ///     "name": {"properties": {"first": {"type": "string"}}}
    /// }});
    /// let tree = frontend::build(&tree, &Options::new())?;
    /// assert!(tree.looks_at_stack());
    /// let looks = |at: &str| tree.nodes.iter().find(|n| n.uri.ends_with(at)).unwrap().looks_at_stack;
    /// // The root is on a cycle; below `name`, one level at most.
    /// assert!(looks("#"));
    /// assert!(!looks("#/properties/name"));
    /// # Ok::<(), toolschema::Error>(())
    /// ```
    pub fn looks_at_stack(&self) -> bool {
        self.nodes.iter().any(|n| n.looks_at_stack)
    }

    /// Whether an evaluation of arguments within `limits`' argument limits may reach its
    /// evaluation depth or step limit: only then do the back ends count steps and levels
    /// (see [`EvaluationBound`]).
    ///
    /// ```
    /// use serde_json::json;
    /// use toolschema::{Limits, Options, frontend};
    ///
    /// let list = json!({"properties": {"tags": {"items": {"not": {"const": ""}}}}});
    /// let ir = frontend::build(&list, &Options::new())?;
    /// assert!(!ir.counts_evaluation(&Limits::default()));
    /// // One evaluation at each value (`not`'s subschema applies none), counted by value
    /// // where the limits the schema is built under need it: as many steps as the arguments
    /// // may hold values.
    /// let steps = |n| Limits::default().max_argument_nodes(1_000).max_evaluation_steps(n);
    /// let tight = frontend::build(&list, &Options::new().limits(steps(1_000)))?;
    /// assert!(!tight.counts_evaluation(&steps(1_000)));
    /// assert!(tight.counts_evaluation(&steps(999)));
    /// let tree = json!({"properties": {"children": {"items": {"$ref": "#"}}}});
    /// assert!(frontend::build(&tree, &Options::new())?.counts_evaluation(&Limits::default()));
    /// # Ok::<(), toolschema::Error>(())
    /// ```
    pub fn counts_evaluation(&self, limits: &crate::Limits) -> bool {
        !self.evaluation_bound.is_some_and(|b| b.within(limits))
    }

    /// The node with this id.
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.index()]
    }

    /// Whether `validate` runs the first-failure check first and collects failures only when
    /// it fails (both back ends do as this says). Most instances are valid, and the
    /// first-failure check proves that at a fraction of the cost of collecting; but where the
    /// root applies no subschema (`Node::leaf`), both flavours do the same work on a valid
    /// instance, and a failing one would pay it twice.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolschema::Validator;
    ///
    /// let call = Validator::new(&json!({"properties": {"q": {"type": "string"}}})).unwrap();
    /// assert!(call.ir().validate_checks_first());
    /// let text = Validator::new(&json!({"type": "string", "pattern": "^a"})).unwrap();
    /// assert!(!text.ir().validate_checks_first());
    /// ```
    pub fn validate_checks_first(&self) -> bool {
        !self.node(self.root).leaf
    }

    /// The types a valid instance has, when the root decides them before anything else: an
    /// object where the root must be one ([`Ir::object_root`]), otherwise the root's own
    /// `type`. A first-failure check tests them before it sets up an evaluation, so an
    /// instance of another type costs one test.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolschema::{Validator, json::{JsonType, TypeSet}};
    ///
    /// let v = Validator::new(&json!({"type": ["array", "null"], "items": true})).unwrap();
    /// let array_or_null = TypeSet::EMPTY.with(JsonType::Array).with(JsonType::Null);
    /// assert_eq!(v.ir().root_types(), Some(array_or_null));
    /// assert_eq!(Validator::new(&json!({"items": true})).unwrap().ir().root_types(), None);
    /// ```
    pub fn root_types(&self) -> Option<TypeSet> {
        if self.object_root {
            return Some(TypeSet::EMPTY.with(JsonType::Object));
        }
        self.node(self.root).types()
    }

    /// The pattern with this id.
    pub fn pattern(&self, id: PatternId) -> &Pattern {
        &self.patterns[id.0 as usize]
    }
}

/// One subschema.
#[derive(Clone, Debug)]
pub struct Node {
    /// Absolute URI of this subschema: its resource's URI and a JSON Pointer fragment. Keyword
    /// names appended to it give each keyword's absolute location.
    pub uri: String,
    /// The schema resource this subschema belongs to (for the dynamic scope).
    pub resource: ResourceId,
    /// What the subschema requires.
    pub body: Body,
    /// Whether evaluation must report the object properties this node evaluated.
    pub tracks_properties: bool,
    /// Whether evaluation must report the array items this node evaluated.
    pub tracks_items: bool,
    /// Whether the node only checks the instance itself: no references, applicators or
    /// array/object keywords, so it costs a few comparisons. A first-failure back end checks
    /// such subschemas before deep ones.
    pub shallow: bool,
    /// Whether the node applies no subschema: its keywords check the instance alone. Evaluating
    /// such a node costs no evaluation step and no level of evaluation depth on either path
    /// (as a boolean schema costs none): it cannot multiply the work or recurse, so the limits
    /// need not watch it.
    pub leaf: bool,
    /// Whether evaluating the node looks at the native stack first (`eval::stack::stack_low`),
    /// and runs on a new segment when it is low: a node from which evaluation can nest
    /// [`crate::eval::stack::CHECK_EVERY`] levels or more (decided by analysis). Below the
    /// last such node on any chain of levels, fewer levels than that follow, and they need
    /// no look.
    pub looks_at_stack: bool,
    /// Whether the node only asserts: it applies no subschema and each of its checks reads
    /// the value and gives a verdict ([`Check::only_asserts`]). In first-failure mode such a
    /// node records nothing and cannot stop evaluation, so it needs no location.
    pub asserts_only: bool,
    /// Whether only nulls, booleans and numbers pass the node (its `type` allows no other).
    /// Admitting such an item of a claimed array to the argument limits takes nothing beyond
    /// the count the claim made (see `eval::admission`), so a first-failure pass over the
    /// items need not admit those that pass; one that fails ends the pass anyway.
    pub passes_only_scalars: bool,
    /// Whether a non-empty container that passes the node in first-failure mode has been
    /// claimed for admission to the argument limits (see `eval::admission`): the node's
    /// `type` rules out arrays, or it has `items` over every item, and rules out objects, or it
    /// has a key pass that claims. A pass admitting a member held by such a node need not
    /// settle it in that mode: what passes was claimed, and what fails ends the pass.
    pub claims_what_passes: bool,
    /// Whether the node applies subschemas only to an array's items, and only subschemas that
    /// only assert ([`Node::asserts_only`]), its other checks reading the value alone
    /// (GeoJSON's `{"type": "array", "minItems": 2, "items": {"type": "number"}}`). Where
    /// evaluation counts no step or level, a first-failure evaluation of such a node needs no
    /// scope, level or marks of its own: its checks run as they are, the items' admission to
    /// the argument limits included.
    pub flat: bool,
    /// What evaluating the node does, in order (see [`Check`]): the body, decided.
    pub checks: Box<[Check]>,
    /// The instance types (object, array) for which the node's own `unevaluatedProperties`
    /// or `unevaluatedItems` reads the members evaluated: evaluation of such an instance
    /// tracks them.
    pub consumes_marks: TypeSet,
    /// The annotations the node's own keywords produce when it is applied (what the output
    /// formats report; evaluation itself never reads them).
    pub annotations: Box<[KeywordAnnotation]>,
}

impl Node {
    /// The node's `type`, if it has one: what its `Type` check allows.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolschema::Validator;
    /// use toolschema::json::{JsonType, TypeSet};
    ///
    /// let v = Validator::new(&json!({"type": "object", "properties": {"a": {}}})).unwrap();
    /// let ir = v.ir();
    /// assert_eq!(ir.node(ir.root).types(), Some(TypeSet::EMPTY.with(JsonType::Object)));
    /// ```
    pub fn types(&self) -> Option<TypeSet> {
        self.checks.iter().find_map(|check| match check {
            Check::Type(types) => Some(*types),
            _ => None,
        })
    }
}

/// An annotation a keyword produces with its own value: the meta-data keywords, `format`,
/// the content keywords and keywords no vocabulary in force defines (never `$comment`).
///
/// ```
/// use serde_json::json;
/// use toolschema::Validator;
///
/// let v = Validator::new(&json!({"title": "Search", "contentMediaType": "text/html"})).unwrap();
/// let annotations = &v.ir().node(v.ir().root).annotations;
/// let title = annotations.iter().find(|a| a.keyword == "title").unwrap();
/// assert!(title.applies_to(&json!(1)));
/// let media_type = annotations.iter().find(|a| a.keyword == "contentMediaType").unwrap();
/// assert!(!media_type.applies_to(&json!(1)) && media_type.applies_to(&json!("<p>")));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct KeywordAnnotation {
    /// The keyword: borrowed for one a vocabulary defines, owned for an unknown one.
    pub keyword: Cow<'static, str>,
    /// Its value, which is the annotation.
    pub value: Value,
    /// Whether only a string instance is annotated (the content keywords).
    pub strings_only: bool,
}

impl KeywordAnnotation {
    /// Whether the keyword annotates `instance`.
    pub fn applies_to(&self, instance: &Value) -> bool {
        KeywordAnnotation::annotates(self.strings_only, instance)
    }

    /// Whether a keyword that annotates only strings if `strings_only` annotates `instance`
    /// (what generated code, which holds the flag alone, asks).
    pub fn annotates(strings_only: bool, instance: &Value) -> bool {
        !strings_only || instance.is_string()
    }
}

/// A boolean schema or a schema object.
#[derive(Clone, Debug)]
pub enum Body {
    /// `true` accepts everything, `false` nothing.
    Bool(bool),
    /// A schema object's keywords.
    Keywords(Box<Keywords>),
}

/// The keywords of a schema object, decoded. Evaluated in field order.
#[derive(Clone, Debug, Default)]
pub struct Keywords {
    /// `$ref`.
    pub reference: Option<NodeId>,
    /// `$dynamicRef`.
    pub dynamic_reference: Option<Box<DynamicRef>>,
    /// `type`.
    pub types: Option<TypeSet>,
    /// `const`; shared with the node's `Const` check.
    pub constant: Option<Arc<Value>>,
    /// `enum`; shared with the node's `Enum` check.
    pub enumeration: Option<Arc<[Value]>>,
    /// Numeric keywords; checked for numbers only.
    pub number: Option<Box<NumberChecks>>,
    /// String keywords; checked for strings only.
    pub string: Option<Box<StringChecks>>,
    /// Array keywords; checked for arrays only.
    pub array: Option<Box<ArrayPlan>>,
    /// Object keywords; checked for objects only.
    pub object: Option<Arc<ObjectPlan>>,
    /// `allOf`.
    pub all_of: Vec<NodeId>,
    /// `anyOf`.
    pub any_of: Vec<NodeId>,
    /// A member that rules out `anyOf` branches before they run.
    pub any_of_discriminator: Option<Box<Discriminator>>,
    /// The types each `anyOf` branch allows (see [`branch_types`]), when one is restricted.
    pub any_of_types: Option<Box<[TypeSet]>>,
    /// `oneOf`.
    pub one_of: Vec<NodeId>,
    /// A member that rules out `oneOf` branches before they run.
    pub one_of_discriminator: Option<Box<Discriminator>>,
    /// The types each `oneOf` branch allows (see [`branch_types`]), when one is restricted.
    pub one_of_types: Option<Box<[TypeSet]>>,
    /// `not`.
    pub not: Option<NodeId>,
    /// `if` / `then` / `else` (present only when `if` is).
    pub condition: Option<Box<Condition>>,
}

impl Keywords {
    /// `unevaluatedProperties`, when present.
    pub fn unevaluated_properties(&self) -> Option<NodeId> {
        self.object.as_ref().and_then(|o| o.unevaluated_properties)
    }

    /// `unevaluatedItems`, when present.
    pub fn unevaluated_items(&self) -> Option<NodeId> {
        self.array.as_ref().and_then(|a| a.unevaluated_items)
    }

    /// What rules `anyOf` branches out before they run.
    pub fn any_of_rules(&self) -> BranchRules<'_> {
        BranchRules {
            discriminator: self.any_of_discriminator.as_deref(),
            picks: None,
            types: self.any_of_types.as_deref(),
        }
    }

    /// What rules `oneOf` branches out before they run.
    pub fn one_of_rules(&self) -> BranchRules<'_> {
        BranchRules {
            discriminator: self.one_of_discriminator.as_deref(),
            picks: None,
            types: self.one_of_types.as_deref(),
        }
    }

    /// Whether any of `anyOf`, `oneOf`, `not`, `if` is present.
    pub fn has_combinators(&self) -> bool {
        !self.any_of.is_empty()
            || !self.one_of.is_empty()
            || self.not.is_some()
            || self.condition.is_some()
    }

    /// Visits every subschema reference and every pattern reference of this node, in one
    /// fixed order, mutably. Two nodes whose keywords are equal once each reference is
    /// replaced by an equivalent one behave alike; the code generator relies on the order to
    /// pair their subschemas.
    ///
    /// ```
    /// use toolschema::ir::{Keywords, NodeId};
    ///
    /// let mut k = Keywords { all_of: vec![NodeId(3), NodeId(7)], not: Some(NodeId(3)), ..Keywords::default() };
    /// let mut seen = Vec::new();
    /// k.visit_references_mut(|id| seen.push(id.0), |_| {});
    /// assert_eq!(seen, [3, 7, 3]);
    /// ```
    pub fn visit_references_mut(
        &mut self,
        mut node: impl FnMut(&mut NodeId),
        mut pattern: impl FnMut(&mut PatternId),
    ) {
        if let Some(id) = &mut self.reference {
            node(id);
        }
        match self.dynamic_reference.as_deref_mut() {
            Some(DynamicRef::Fixed(id)) => node(id),
            Some(DynamicRef::Dynamic {
                fallback,
                candidates,
                ..
            }) => {
                node(fallback);
                candidates.iter_mut().for_each(|(_, id)| node(id));
            }
            None => {}
        }
        if let Some(string) = &mut self.string {
            if let Some(p) = &mut string.pattern {
                pattern(p);
            }
            if let Some(id) = string.content.as_mut().and_then(|c| c.schema.as_mut()) {
                node(id);
            }
        }
        if let Some(array) = &mut self.array {
            array.prefix_items.iter_mut().for_each(&mut node);
            let contains = array.contains.as_mut().map(|c| &mut c.schema);
            for id in [
                array.items.as_mut(),
                contains,
                array.unevaluated_items.as_mut(),
            ]
            .into_iter()
            .flatten()
            {
                node(id);
            }
        }
        if let Some(object) = &mut self.object {
            let object = Arc::make_mut(object);
            object.properties.iter_mut().for_each(|(_, id)| node(id));
            for (p, id) in &mut object.pattern_properties {
                pattern(p);
                node(id);
            }
            object
                .dependent_schemas
                .iter_mut()
                .for_each(|d| node(&mut d.then));
            for id in [
                object.additional_properties.as_mut(),
                object.property_names.as_mut(),
                object.unevaluated_properties.as_mut(),
            ]
            .into_iter()
            .flatten()
            {
                node(id);
            }
        }
        for id in self
            .all_of
            .iter_mut()
            .chain(&mut self.any_of)
            .chain(&mut self.one_of)
            .chain(&mut self.not)
        {
            node(id);
        }
        if let Some(c) = &mut self.condition {
            node(&mut c.if_);
            for id in [c.then.as_mut(), c.else_.as_mut()].into_iter().flatten() {
                node(id);
            }
        }
    }
}

/// `$dynamicRef`, resolved as far as the schema allows.
#[derive(Clone, Debug)]
pub enum DynamicRef {
    /// The target is the same whatever the dynamic scope: a plain reference.
    Fixed(NodeId),
    /// The target depends on the dynamic scope.
    Dynamic {
        /// The anchor name (the reference's fragment).
        anchor: String,
        /// The statically resolved target, used when no resource in scope defines the anchor.
        fallback: NodeId,
        /// Every resource that defines `$dynamicAnchor` with this name, and the node it marks.
        candidates: Vec<(ResourceId, NodeId)>,
    },
}

/// How far behind `$ref` a branch's `type` is looked for.
const TYPE_HOPS: usize = 4;

/// The types each of `branches` allows, read from its `type` keyword or, without one, from
/// that of the subschema its `$ref` leads to (a `false` branch allows none); `None` when no
/// branch is restricted. An instance of another type fails the branch at that keyword, so
/// `anyOf` and `oneOf` rule the branch out without running it, on both paths alike: the
/// verdict is the same, and a branch of another type costs no evaluation step.
///
/// ```
/// use serde_json::json;
/// use toolschema::ir::{branch_types, Body};
/// use toolschema::json::{JsonType, TypeSet};
/// use toolschema::{Options, Validator};
///
/// let schema = json!({"oneOf": [{"type": "string"}, {"$ref": "#/$defs/list"}, {"minimum": 1}],
///                     "$defs": {"list": {"type": "array"}}});
/// let v = Validator::with_options(&schema, &Options::new()).unwrap();
/// let ir = v.ir();
/// let Body::Keywords(root) = &ir.node(ir.root).body else { unreachable!() };
/// let types = branch_types(ir, &root.one_of).unwrap();
/// let string = TypeSet::EMPTY.with(JsonType::String);
/// let array = TypeSet::EMPTY.with(JsonType::Array);
/// assert_eq!(&types[..], [string, array, TypeSet::ANY]);
/// ```
pub fn branch_types(ir: &Ir, branches: &[NodeId]) -> Option<Box<[TypeSet]>> {
    let types: Box<[TypeSet]> = branches
        .iter()
        .map(|&branch| {
            let mut at = branch;
            for _ in 0..=TYPE_HOPS {
                match &ir.node(at).body {
                    Body::Bool(true) => return TypeSet::ANY,
                    Body::Bool(false) => return TypeSet::EMPTY,
                    Body::Keywords(k) => match (k.types, k.reference) {
                        (Some(types), _) => return types,
                        (None, Some(target)) => at = target,
                        (None, None) => return TypeSet::ANY,
                    },
                }
            }
            TypeSet::ANY
        })
        .collect();
    types.iter().any(|&t| t != TypeSet::ANY).then_some(types)
}

/// `if`, `then`, `else`.
#[derive(Clone, Debug)]
pub struct Condition {
    /// `if`.
    pub if_: NodeId,
    /// `then`.
    pub then: Option<NodeId>,
    /// `else`.
    pub else_: Option<NodeId>,
}

/// Numeric keywords.
#[derive(Clone, Debug, Default)]
pub struct NumberChecks {
    /// `minimum`.
    pub minimum: Option<Bound>,
    /// `maximum`.
    pub maximum: Option<Bound>,
    /// `exclusiveMinimum`.
    pub exclusive_minimum: Option<Bound>,
    /// `exclusiveMaximum`.
    pub exclusive_maximum: Option<Bound>,
    /// `multipleOf`.
    pub multiple_of: Option<MultipleOf>,
}

/// String keywords.
#[derive(Clone, Debug, Default)]
pub struct StringChecks {
    /// `minLength`, in code points.
    pub min_length: Option<u64>,
    /// `maxLength`, in code points.
    pub max_length: Option<u64>,
    /// `pattern`.
    pub pattern: Option<PatternId>,
    /// `format`, present only when asserted.
    pub format: Option<Format>,
    /// `contentEncoding` / `contentMediaType` / `contentSchema`, present only when asserted.
    pub content: Option<ContentCheck>,
}

/// Asserted content keywords.
#[derive(Clone, Debug)]
pub struct ContentCheck {
    /// `contentEncoding`, when it names an encoding we decode.
    pub encoding: Option<ContentEncoding>,
    /// `contentMediaType`, when it names a media type we parse.
    pub media_type: Option<ContentMediaType>,
    /// `contentSchema` (only meaningful with a media type).
    pub schema: Option<NodeId>,
}

/// Array keywords, evaluated in one pass over the items where possible.
#[derive(Clone, Debug, Default)]
pub struct ArrayPlan {
    /// `prefixItems`.
    pub prefix_items: Vec<NodeId>,
    /// `items` (applies to items after the prefix).
    pub items: Option<NodeId>,
    /// `contains`, with `minContains` (default 1) and `maxContains`.
    pub contains: Option<Contains>,
    /// `minItems`.
    pub min_items: Option<u64>,
    /// `maxItems`.
    pub max_items: Option<u64>,
    /// `uniqueItems: true`.
    pub unique_items: bool,
    /// `unevaluatedItems`.
    pub unevaluated_items: Option<NodeId>,
}

/// `contains` and its bounds.
#[derive(Clone, Debug)]
pub struct Contains {
    /// The subschema.
    pub schema: NodeId,
    /// `minContains`, 1 when absent.
    pub min: u64,
    /// `maxContains`.
    pub max: Option<u64>,
}

/// Object keywords as one plan: `properties`, `patternProperties`, `additionalProperties` and
/// `required` are decided in a single pass over the instance's keys.
#[derive(Clone, Debug, Default)]
pub struct ObjectPlan {
    /// `properties`, in schema order.
    pub properties: Vec<(String, NodeId)>,
    /// Past eight properties, an open-addressing table of indices into `properties` (a power
    /// of two long, at most half full, [`EMPTY_SLOT`] where free), by [`name_hash`].
    pub property_slots: Vec<u32>,
    /// Each property's [`name_prefix`], beside `properties`, so that a lookup rules most names
    /// out without reading their bytes.
    pub property_prefixes: Vec<u64>,
    /// `patternProperties`.
    pub pattern_properties: Vec<(PatternId, NodeId)>,
    /// `additionalProperties`.
    pub additional_properties: Option<NodeId>,
    /// `required`, each with its index in `properties` when it is one (seen during the key
    /// pass), `None` when it must be looked up separately.
    pub required: Vec<(String, Option<u32>)>,
    /// `propertyNames`.
    pub property_names: Option<NodeId>,
    /// `minProperties`.
    pub min_properties: Option<u64>,
    /// `maxProperties`.
    pub max_properties: Option<u64>,
    /// `dependentRequired` (and the array form of the older `dependencies`).
    pub dependent_required: Vec<Dependent<Vec<String>>>,
    /// `dependentSchemas` (and the schema form of the older `dependencies`).
    pub dependent_schemas: Vec<Dependent<NodeId>>,
    /// `unevaluatedProperties`.
    pub unevaluated_properties: Option<NodeId>,
    /// Whether the node is tried (a branch of `anyOf` or `oneOf` that another branch may share
    /// an instance with, the subschema of `not`, `if` or `contains`, or applied in place by
    /// one) and some `properties` subschemas are shallow and others not: a first-failure back
    /// end then checks `required` and the shallow properties before the key pass, so a
    /// mismatch in a discriminator rules the branch out before any deep subschema runs.
    /// Elsewhere a failure fails the call anyway, and the valid call would pay for the second
    /// pass.
    pub shallow_first: bool,
    /// Whether the key pass leaves claiming the object for admission to the argument limits
    /// (see `eval::admission`) to a subschema applied in place after it, whose own key pass
    /// evaluates more of the members (decided by analysis).
    pub defers_claim: bool,
}

/// What the presence of a property brings: more required names, or a subschema.
#[derive(Clone, Debug)]
pub struct Dependent<T> {
    /// The keyword that declared it: `dependentRequired`, `dependentSchemas` or
    /// `dependencies`.
    pub keyword: &'static str,
    /// The property whose presence triggers it.
    pub property: String,
    /// The names or the subschema.
    pub then: T,
}

/// A free slot of [`ObjectPlan::property_slots`].
pub const EMPTY_SLOT: u32 = u32::MAX;

impl ObjectPlan {
    /// The index in `properties` of the property named `key`.
    pub fn property_index(&self, key: &str) -> Option<usize> {
        let prefix = name_prefix(key);
        if self.properties.len() <= 8 {
            // Lengths and first bytes settle most mismatches without a call to memcmp.
            return (0..self.properties.len()).find(|&i| self.is_named(i, key, prefix));
        }
        let mask = self.property_slots.len().checked_sub(1)?;
        let mut slot = name_hash(key) as usize & mask;
        loop {
            let index = self.property_slots[slot];
            if index == EMPTY_SLOT {
                return None;
            }
            if self.is_named(index as usize, key, prefix) {
                return Some(index as usize);
            }
            slot = (slot + 1) & mask;
        }
    }

    /// [`ObjectPlan::property_index`], trying property `*next` first and leaving `*next` after
    /// the property found. Passing the members of an object in order, each is most often
    /// the one after the last found: maps iterate in name order, `properties` are kept in it,
    /// and calls pass most declared properties. Any other order only costs the first try.
    ///
    /// ```
    /// use toolschema::ir::{NodeId, ObjectPlan};
    /// let mut plan = ObjectPlan {
    ///     properties: ["mode", "path", "size"].map(|n| (n.to_string(), NodeId(0))).into(),
    ///     ..ObjectPlan::default()
    /// };
    /// plan.index_properties();
    /// let mut next = 0;
    /// let found: Vec<_> = ["mode", "size", "other", "path"]
    ///     .iter()
    ///     .map(|key| plan.property_index_from(key, &mut next))
    ///     .collect();
    /// assert_eq!(found, [Some(0), Some(2), None, Some(1)]);
    /// ```
    #[inline]
    pub fn property_index_from(&self, key: &str, next: &mut usize) -> Option<usize> {
        let index = match self.properties.get(*next) {
            Some((name, _)) if same_name(name, key) => *next,
            _ => self.property_index(key)?,
        };
        *next = index + 1;
        Some(index)
    }

    /// Whether property `i` is named `key`, whose [`name_prefix`] is `prefix`.
    #[inline]
    fn is_named(&self, i: usize, key: &str, prefix: u64) -> bool {
        let name = &self.properties[i].0;
        // Up to eight bytes, length and prefix are the whole name.
        name.len() == key.len()
            && self.property_prefixes[i] == prefix
            && (key.len() <= 8 || same_name(name, key))
    }

    /// Fills [`ObjectPlan::property_slots`] and [`ObjectPlan::property_prefixes`] from
    /// `properties`.
    pub fn index_properties(&mut self) {
        self.property_prefixes = self
            .properties
            .iter()
            .map(|(n, _)| name_prefix(n))
            .collect();
        if self.properties.len() <= 8 {
            self.property_slots = Vec::new();
            return;
        }
        let len = (self.properties.len() * 2).next_power_of_two();
        let mut slots = vec![EMPTY_SLOT; len];
        for (index, (name, _)) in self.properties.iter().enumerate() {
            let mut slot = name_hash(name) as usize & (len - 1);
            while slots[slot] != EMPTY_SLOT {
                slot = (slot + 1) & (len - 1);
            }
            slots[slot] = index as u32;
        }
        self.property_slots = slots;
    }

    /// Whether the key pass must visit every key (otherwise only lookups are needed).
    pub fn needs_key_pass(&self) -> bool {
        !self.properties.is_empty()
            || !self.pattern_properties.is_empty()
            || self.additional_properties.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn property_index_finds_every_name_and_no_other() {
        for count in [0, 1, 8, 9, 40, 300] {
            let names: Vec<String> = (0..count)
                .map(|i| match i % 3 {
                    0 => format!("p{i}"),
                    1 => format!("a_rather_long_member_name_{i}"),
                    _ => "x".repeat(i + 1),
                })
                .collect();
            let mut plan = ObjectPlan {
                properties: names.iter().map(|n| (n.clone(), NodeId(0))).collect(),
                ..ObjectPlan::default()
            };
            plan.index_properties();
            for (i, name) in names.iter().enumerate() {
                assert_eq!(plan.property_index(name), Some(i), "{name} of {count}");
            }
            for missing in ["", "p", "q0", "a_rather_long_member_name_", "xx_", "p1000"] {
                assert_eq!(plan.property_index(missing), None, "{missing} of {count}");
            }
        }
    }
}
