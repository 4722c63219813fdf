//! From the IR to [`Types`]: what Rust type accepts exactly the values a subschema accepts.
//!
//! Every type here is sound for its subschema: any value the subschema accepts deserializes
//! into it, and serializes back to a value equal under JSON Schema equality. Keywords that
//! only narrow a value (`minimum`, `pattern`, `not`, `if`, `required` of a union branch, …)
//! leave the type alone: the validator guards them, and `parse` validates first. Where no
//! type says enough, the part is `serde_json::Value` and the reason is reported.

use super::model::{Def, Fallback, Field, Kind, Struct, Ty, Types, Union};
use super::names::{Scope, camel, field};
use serde_json::{Number, Value};
use std::collections::{BTreeSet, HashMap};
use toolschema_core::ir::{Body, DynamicRef, Ir, Keywords, NodeId};
use toolschema_core::json::{JsonType, TypeSet};
use toolschema_core::number::{compare, is_integer};

const OBJECT: TypeSet = TypeSet::EMPTY.with(JsonType::Object);
const NULL: TypeSet = TypeSet::EMPTY.with(JsonType::Null);

/// Every integer in `[-2^53, 2^53]` is an exact `f64`.
const EXACT_F64: u64 = 1 << 53;

/// The integer types, smallest first, with their ranges.
const INTS: [(&str, i128, i128); 8] = [
    ("u8", 0, u8::MAX as i128),
    ("i8", i8::MIN as i128, i8::MAX as i128),
    ("u16", 0, u16::MAX as i128),
    ("i16", i16::MIN as i128, i16::MAX as i128),
    ("u32", 0, u32::MAX as i128),
    ("i32", i32::MIN as i128, i32::MAX as i128),
    ("i64", i64::MIN as i128, i64::MAX as i128),
    ("u64", 0, u64::MAX as i128),
];

/// Maps the schema `ir` (read from `schema`, for `title`, `description` and `deprecated`)
/// to types, the root named `root`.
pub fn map(ir: &Ir, schema: &Value, root: &str) -> Types {
    let base = ir.resources[ir.node(ir.root).resource.0 as usize].clone();
    let mut m = Mapper {
        ir,
        schema,
        base,
        defs: Vec::new(),
        by_node: HashMap::new(),
        names: Scope::default(),
        fallbacks: Vec::new(),
        open_values: 0,
        root: root.to_string(),
    };
    // The tool rules make the root an object even when its schema does not say so; a
    // reference back to it then means the schema alone, and maps on its own.
    let ctx = if ir.object_root { OBJECT } else { TypeSet::ANY };
    let said = m.conjuncts(ir.root).nodes.iter().any(|&c| {
        m.keywords(c)
            .and_then(|k| k.types)
            .is_some_and(|t| t.bits() & !OBJECT.bits() == 0)
    });
    // The root's name is kept for the root: what the root's schema maps to is renamed.
    m.names.take(root.to_string());
    m.named(ir.root, root, ctx, ctx == TypeSet::ANY || said);
    let mut root_index = 0;
    for _ in 0..m.defs.len() {
        match m.defs[root_index].kind {
            Kind::Alias(Ty::Named(j)) if j != root_index => root_index = j,
            _ => break,
        }
    }
    m.defs[root_index].name = root.to_string();
    Types {
        root: root_index,
        defs: m.defs,
        fallbacks: m.fallbacks,
        open_values: m.open_values,
    }
}

struct Mapper<'a> {
    ir: &'a Ir,
    schema: &'a Value,
    /// The root resource's URI: nodes under it have their annotations in `schema`.
    base: String,
    defs: Vec<Def>,
    /// Reference targets with an item of their own.
    by_node: HashMap<NodeId, usize>,
    names: Scope,
    fallbacks: Vec<Fallback>,
    open_values: usize,
    /// The root type's name, the prefix of every other.
    root: String,
}

/// The subschemas that apply in place of one: itself, what its `$ref` leads to and its
/// `allOf` members, transitively. Whatever they say, a valid value satisfies all of it.
struct Conjuncts {
    nodes: Vec<NodeId>,
    dynamic: bool,
    never: bool,
}

impl<'a> Mapper<'a> {
    fn keywords(&self, id: NodeId) -> Option<&'a Keywords> {
        match &self.ir.node(id).body {
            Body::Keywords(k) => Some(k),
            Body::Bool(_) => None,
        }
    }

    fn conjuncts(&self, id: NodeId) -> Conjuncts {
        let mut out = Conjuncts {
            nodes: Vec::new(),
            dynamic: false,
            never: false,
        };
        let mut stack = vec![id];
        while let Some(at) = stack.pop() {
            if out.nodes.contains(&at) {
                continue;
            }
            match &self.ir.node(at).body {
                Body::Bool(false) => out.never = true,
                Body::Bool(true) => {}
                Body::Keywords(k) => {
                    out.nodes.push(at);
                    stack.extend(k.all_of.iter().rev());
                    match k.dynamic_reference.as_deref() {
                        Some(DynamicRef::Fixed(target)) => stack.push(*target),
                        Some(DynamicRef::Dynamic { .. }) => out.dynamic = true,
                        None => {}
                    }
                    stack.extend(k.reference);
                }
            }
        }
        out
    }

    /// The subschema's location for reports.
    fn location(&self, id: NodeId) -> String {
        let uri = &self.ir.node(id).uri;
        match self.pointer(id) {
            Some(pointer) => pointer,
            None => uri.clone(),
        }
    }

    /// The JSON Pointer of a node of the root resource inside the schema document.
    fn pointer(&self, id: NodeId) -> Option<String> {
        let uri = &self.ir.node(id).uri;
        let fragment = uri.strip_prefix(self.base.as_str())?.strip_prefix('#')?;
        toolschema_core::pointer::percent_decode(fragment)
    }

    fn annotation(&self, id: NodeId, key: &str) -> Option<&'a Value> {
        let pointer = self.pointer(id)?;
        self.schema.pointer(&pointer)?.get(key)
    }

    fn doc(&self, id: NodeId) -> Vec<String> {
        let mut lines = Vec::new();
        for key in ["title", "description"] {
            if let Some(text) = self.annotation(id, key).and_then(Value::as_str) {
                if !lines.is_empty() {
                    lines.push(String::new());
                }
                lines.extend(text.trim().lines().map(doc_line));
            }
        }
        lines
    }

    fn fallback(&mut self, id: NodeId, reason: &'static str) -> Ty {
        let location = self.location(id);
        self.fallbacks.push(Fallback { location, reason });
        Ty::Fallback(reason)
    }

    /// A new item for `id`, named `name` or, when that is taken, the first free `name2`, ….
    fn def(&mut self, id: NodeId, name: &str, kind: Kind) -> usize {
        let name = self.names.take(name.to_string());
        let doc = self.doc(id);
        self.defs.push(Def { name, doc, kind });
        self.defs.len() - 1
    }

    /// The type of a reference target: an alias item, made before the target is mapped so
    /// that a recursive reference finds it. The alias of an item is that item (the code
    /// writer sees through it); the alias of any other type gets a name of its own.
    fn named(&mut self, target: NodeId, name: &str, ctx: TypeSet, register: bool) -> Ty {
        if let Some(&index) = self.by_node.get(&target) {
            return Ty::Named(index);
        }
        self.defs.push(Def {
            name: String::new(),
            doc: Vec::new(),
            kind: Kind::Pending,
        });
        let index = self.defs.len() - 1;
        if register {
            self.by_node.insert(target, index);
        }
        let ty = self.ty(target, ctx, name);
        if !matches!(ty, Ty::Named(_)) {
            self.defs[index].name = self.names.take(name.to_string());
            self.defs[index].doc = self.doc(target);
        }
        self.defs[index].kind = Kind::Alias(ty);
        Ty::Named(index)
    }

    /// The name of a reference target's type: the root's name and the target's last
    /// pointer segment (`#/$defs/user` → `SearchArgsUser`).
    fn target_name(&self, target: NodeId) -> String {
        let last = self
            .pointer(target)
            .and_then(|p| p.rsplit('/').next().map(str::to_string))
            .unwrap_or_default();
        let last = if target == self.ir.root {
            "node".into()
        } else {
            last
        };
        format!("{}{}", self.root, nonempty(camel(&last)))
    }

    /// The type of subschema `id`, for values already known to be of the types `ctx`.
    fn ty(&mut self, id: NodeId, ctx: TypeSet, name: &str) -> Ty {
        let Some(k) = self.keywords(id) else {
            self.open_values += 1;
            return Ty::Any;
        };
        if let Some(target) = k.reference
            && is_pure_reference(k)
        {
            let name = self.target_name(target);
            return self.named(target, &name, TypeSet::ANY, true);
        }
        let conj = self.conjuncts(id);
        if conj.never {
            // No value is valid: any type is sound.
            self.open_values += 1;
            return Ty::Any;
        }
        if conj.dynamic {
            return self.fallback(id, "$dynamicRef whose target depends on the dynamic scope");
        }
        let mut types = widen(ctx);
        for &c in &conj.nodes {
            if let Some(t) = self.keywords(c).and_then(|k| k.types) {
                types = TypeSet::from_bits(types.bits() & widen(t).bits());
            }
        }
        let conj = conj.nodes;
        if let Some(value) = conj
            .iter()
            .find_map(|&c| self.keywords(c).and_then(|k| k.constant.as_deref()))
        {
            return self.constant(id, value, name);
        }
        if let Some(values) = conj
            .iter()
            .find_map(|&c| self.keywords(c).and_then(|k| k.enumeration.as_deref()))
        {
            let values: Vec<&Value> = values.iter().filter(|v| types.matches(v)).collect();
            return self.enumeration(id, &values, name);
        }
        if let Some(union) = self.structural_union(&conj) {
            let parent_props = self.property_names(&conj);
            let object_only = types.bits() & !widen(OBJECT).bits() == 0;
            if object_only && !parent_props.is_empty() && !self.closed(&conj) {
                let variant = self.union(&union, OBJECT, &conj, &format!("{name}Variant"));
                return self.object(id, &conj, name, None, Some(variant));
            }
            if !parent_props.is_empty() && !object_only {
                return self.fallback(id, "properties beside a union of several types");
            }
            if parent_props.is_empty() {
                return self.union(&union, types, &conj, name);
            }
        }
        self.by_types(id, &conj, types, name)
    }

    fn by_types(&mut self, id: NodeId, conj: &[NodeId], types: TypeSet, name: &str) -> Ty {
        if types == widen(TypeSet::ANY) {
            let says_something = conj.iter().any(|&c| self.keywords(c).is_some_and(asserts));
            if says_something {
                let has = |f: fn(&Keywords) -> bool| {
                    conj.iter().any(|&c| self.keywords(c).is_some_and(f))
                };
                let reason = if has(|k| k.not.is_some()) {
                    "`not` on a value of any type"
                } else if has(|k| k.condition.is_some()) {
                    "`if`/`then`/`else` on a value of any type"
                } else {
                    "no `type`: values of several types are valid"
                };
                return self.fallback(id, reason);
            }
            self.open_values += 1;
            return Ty::Any;
        }
        let nullable = types.contains(JsonType::Null);
        let mut kinds: Vec<JsonType> = types.iter().filter(|t| *t != JsonType::Null).collect();
        if kinds.contains(&JsonType::Number) {
            kinds.retain(|t| *t != JsonType::Integer);
        }
        let ty = match kinds.as_slice() {
            [] if nullable => return Ty::Unit,
            [] => {
                self.open_values += 1;
                return Ty::Any;
            }
            [one] => self.single(id, *one, conj, name),
            several => {
                let variants = several
                    .iter()
                    .map(|&t| {
                        let variant = camel(t.name());
                        let ty = self.single(id, t, conj, &format!("{name}{variant}"));
                        (variant, None, ty)
                    })
                    .collect();
                let kind = Kind::Union(Union {
                    tag: None,
                    variants,
                });
                Ty::Named(self.def(id, name, kind))
            }
        };
        if nullable {
            Ty::Option(Box::new(ty))
        } else {
            ty
        }
    }

    fn single(&mut self, id: NodeId, t: JsonType, conj: &[NodeId], name: &str) -> Ty {
        match t {
            JsonType::Null => Ty::Unit,
            JsonType::Boolean => Ty::Bool,
            JsonType::String => Ty::String,
            JsonType::Integer => {
                let (low, high) = self.bounds(conj);
                integer(low.as_ref(), high.as_ref())
            }
            JsonType::Number => {
                let (low, high) = self.bounds(conj);
                number(low.as_ref(), high.as_ref())
            }
            JsonType::Array => self.array(id, conj, name),
            JsonType::Object => self.object(id, conj, name, None, None),
        }
    }

    /// The tightest bounds any conjunct sets (an exclusive bound counts as inclusive: the
    /// range is then wider than the valid values, never narrower).
    fn bounds(&self, conj: &[NodeId]) -> (Option<Number>, Option<Number>) {
        let mut low: Option<Number> = None;
        let mut high: Option<Number> = None;
        for &c in conj {
            let Some(n) = self.keywords(c).and_then(|k| k.number.as_deref()) else {
                continue;
            };
            for b in [&n.minimum, &n.exclusive_minimum].into_iter().flatten() {
                if low.as_ref().is_none_or(|l| compare(b.number(), l).is_gt()) {
                    low = Some(b.number().clone());
                }
            }
            for b in [&n.maximum, &n.exclusive_maximum].into_iter().flatten() {
                if high.as_ref().is_none_or(|h| compare(b.number(), h).is_lt()) {
                    high = Some(b.number().clone());
                }
            }
        }
        (low, high)
    }

    fn array(&mut self, id: NodeId, conj: &[NodeId], name: &str) -> Ty {
        let plans: Vec<_> = conj
            .iter()
            .filter_map(|&c| self.keywords(c).and_then(|k| k.array.as_deref()))
            .collect();
        let min_items = plans.iter().filter_map(|p| p.min_items).max().unwrap_or(0);
        let max_items = plans.iter().filter_map(|p| p.max_items).min();
        let shaped: Vec<_> = plans
            .iter()
            .filter(|p| !p.prefix_items.is_empty() || p.items.is_some())
            .collect();
        let Some(plan) = shaped.first() else {
            self.open_values += 1;
            return Ty::Vec(Box::new(Ty::Any));
        };
        if shaped.len() > 1 {
            let item = self.fallback(id, "items described by several allOf members");
            return Ty::Vec(Box::new(item));
        }
        if plan.prefix_items.is_empty() {
            let items = plan.items.expect("an items-shaped plan");
            return Ty::Vec(Box::new(self.ty(
                items,
                TypeSet::ANY,
                &format!("{name}Item"),
            )));
        }
        let n = plan.prefix_items.len() as u64;
        let closed_after = plan
            .items
            .is_some_and(|i| matches!(self.ir.node(i).body, Body::Bool(false)))
            || max_items.is_some_and(|m| m <= n);
        if min_items >= n && closed_after {
            let prefix = plan.prefix_items.clone();
            let items = prefix
                .iter()
                .enumerate()
                .map(|(i, &p)| self.ty(p, TypeSet::ANY, &format!("{name}{i}")))
                .collect();
            return Ty::Tuple(items);
        }
        let item = self.fallback(id, "prefixItems of a length that varies");
        Ty::Vec(Box::new(item))
    }

    fn property_names(&self, conj: &[NodeId]) -> Vec<String> {
        let mut names: Vec<String> = Vec::new();
        for &c in conj {
            if let Some(o) = self.keywords(c).and_then(|k| k.object.as_deref()) {
                for (n, _) in &o.properties {
                    if !names.contains(n) {
                        names.push(n.clone());
                    }
                }
            }
        }
        names
    }

    fn required(&self, conj: &[NodeId]) -> BTreeSet<String> {
        conj.iter()
            .filter_map(|&c| self.keywords(c).and_then(|k| k.object.as_deref()))
            .flat_map(|o| o.required.iter().map(|(n, _)| n.clone()))
            .collect()
    }

    /// Whether some conjunct allows no member beyond its declared properties.
    fn closed(&self, conj: &[NodeId]) -> bool {
        let branchy = conj.iter().any(|&c| {
            self.keywords(c).is_some_and(|k| {
                k.has_combinators()
                    || k.object
                        .as_deref()
                        .is_some_and(|o| !o.dependent_schemas.is_empty())
            })
        });
        conj.iter()
            .filter_map(|&c| self.keywords(c).and_then(|k| k.object.as_deref()))
            .any(|o| {
                let is_false = |id: Option<NodeId>| {
                    id.is_some_and(|i| matches!(self.ir.node(i).body, Body::Bool(false)))
                };
                o.pattern_properties.is_empty()
                    && (is_false(o.additional_properties)
                        || (!branchy
                            && o.additional_properties.is_none()
                            && is_false(o.unevaluated_properties)))
            })
    }

    /// A struct for an object (a map when it declares no property and no union).
    fn object(
        &mut self,
        id: NodeId,
        conj: &[NodeId],
        name: &str,
        exclude: Option<&str>,
        union: Option<Ty>,
    ) -> Ty {
        let closed = self.closed(conj);
        let names = self.property_names(conj);
        let rest = if closed || union.is_some() {
            None
        } else {
            Some(self.rest(id, conj, name))
        };
        if names.iter().all(|n| Some(n.as_str()) == exclude) && union.is_none() {
            return Ty::Map(Box::new(rest.unwrap_or(Ty::Any)));
        }
        let required = self.required(conj);
        let mut scope = Scope::default();
        let mut fields = Vec::new();
        for json in names {
            if Some(json.as_str()) == exclude {
                continue;
            }
            let nodes: Vec<NodeId> = conj
                .iter()
                .filter_map(|&c| self.keywords(c).and_then(|k| k.object.as_deref()))
                .filter_map(|o| o.properties.iter().find(|(n, _)| *n == json).map(|p| p.1))
                .collect();
            let ident = scope.take(field(&json));
            let ty_name = format!("{name}{}", camel(&ident));
            let mut ty = Ty::Any;
            for &n in &nodes {
                let next = self.ty(n, TypeSet::ANY, &ty_name);
                ty = match (ty, next) {
                    (Ty::Any, next) => next,
                    (ty, Ty::Any) => ty,
                    (ty, next) if ty == next => ty,
                    _ => self.fallback(n, "allOf members type a property differently"),
                };
            }
            let first = nodes[0];
            fields.push(Field {
                required: required.contains(&json),
                doc: self.doc(first),
                deprecated: self.annotation(first, "deprecated") == Some(&Value::Bool(true)),
                json,
                ident,
                ty,
            });
        }
        let union = union.map(|u| (scope.take("variant".into()), u));
        let rest = rest.map(|r| (scope.take("rest".into()), r));
        let kind = Kind::Struct(Struct {
            fields,
            union,
            rest,
            closed,
        });
        Ty::Named(self.def(id, name, kind))
    }

    /// The type of the members an object does not declare.
    fn rest(&mut self, id: NodeId, conj: &[NodeId], name: &str) -> Ty {
        let plans: Vec<_> = conj
            .iter()
            .filter_map(|&c| self.keywords(c).and_then(|k| k.object.as_deref()))
            .collect();
        if plans.iter().any(|p| p.unevaluated_properties.is_some()) {
            return self.fallback(id, "unevaluatedProperties");
        }
        let additional: Vec<NodeId> = plans
            .iter()
            .filter_map(|p| p.additional_properties)
            .collect();
        let patterns: Vec<NodeId> = plans
            .iter()
            .flat_map(|p| p.pattern_properties.iter().map(|(_, n)| *n))
            .collect();
        let value_name = format!("{name}Value");
        match (additional.as_slice(), patterns.as_slice()) {
            ([], []) => {
                self.open_values += 1;
                Ty::Any
            }
            ([one], []) => self.ty(*one, TypeSet::ANY, &value_name),
            ([closed], [one]) if matches!(self.ir.node(*closed).body, Body::Bool(false)) => {
                self.ty(*one, TypeSet::ANY, &value_name)
            }
            (_, []) => self.fallback(id, "several additionalProperties"),
            _ => self.fallback(id, "patternProperties beside other members"),
        }
    }

    /// The first `anyOf`/`oneOf` among the conjuncts whose branches shape the value, with its
    /// discriminator.
    fn structural_union(
        &self,
        conj: &[NodeId],
    ) -> Option<(Vec<NodeId>, Option<&'a toolschema_core::ir::Discriminator>)> {
        for &c in conj {
            let Some(k) = self.keywords(c) else { continue };
            for (branches, disc) in [
                (&k.one_of, k.one_of_discriminator.as_deref()),
                (&k.any_of, k.any_of_discriminator.as_deref()),
            ] {
                if !branches.is_empty() && branches.iter().any(|&b| self.shapes(b)) {
                    return Some((branches.clone(), disc));
                }
            }
        }
        None
    }

    /// Whether a branch says what a value is (a type, a constant, members, items), rather
    /// than only narrowing it.
    fn shapes(&self, branch: NodeId) -> bool {
        let conj = self.conjuncts(branch);
        conj.never
            || conj.nodes.iter().any(|&c| {
                self.keywords(c).is_some_and(|k| {
                    k.types.is_some()
                        || k.constant.is_some()
                        || k.enumeration.is_some()
                        || !k.any_of.is_empty()
                        || !k.one_of.is_empty()
                        || k.array
                            .as_deref()
                            .is_some_and(|a| !a.prefix_items.is_empty() || a.items.is_some())
                        || k.object.as_deref().is_some_and(|o| {
                            !o.properties.is_empty()
                                || !o.pattern_properties.is_empty()
                                || o.additional_properties.is_some()
                        })
                })
            })
    }

    fn union(
        &mut self,
        (branches, disc): &(Vec<NodeId>, Option<&'a toolschema_core::ir::Discriminator>),
        ctx: TypeSet,
        parent: &[NodeId],
        name: &str,
    ) -> Ty {
        let is_null = |m: &Self, b: NodeId| {
            m.keywords(b).is_some_and(|k| {
                k.types == Some(NULL) || k.constant.as_deref() == Some(&Value::Null)
            })
        };
        let (nulls, others): (Vec<NodeId>, Vec<NodeId>) =
            branches.iter().partition(|&&b| is_null(self, b));
        if !nulls.is_empty() && !others.is_empty() {
            let inner = match others.as_slice() {
                [one] => self.ty(*one, ctx, name),
                _ => self.union(&(others, None), ctx, parent, name),
            };
            return if inner.holds_null() {
                inner
            } else {
                Ty::Option(Box::new(inner))
            };
        }
        if let Some(tagged) = self.tagged(branches, *disc, ctx, parent, name) {
            return tagged;
        }
        let mut variants: Vec<(String, Option<String>, Ty)> = Vec::new();
        let mut scope = Scope::default();
        for (i, &b) in branches.iter().enumerate() {
            let label = match disc.and_then(|d| d.values[i].as_ref()?.first()) {
                Some(value) => nonempty(camel(value)),
                None => self.variant_label(b, i),
            };
            let ty = self.ty(b, ctx, &format!("{name}{label}"));
            variants.push((label, None, ty));
        }
        if variants.windows(2).all(|w| w[0].2 == w[1].2) {
            return variants.swap_remove(0).2;
        }
        // Serde tries an untagged union's variants in order and keeps the first that accepts
        // the value; every variant keeps what it accepts, so the order only decides which
        // variant names it. Narrow shapes go first.
        variants.sort_by_key(|(_, _, ty)| self.rank(ty));
        for v in &mut variants {
            let label = camel(&v.0);
            v.0 = scope.take(label);
        }
        let kind = Kind::Union(Union {
            tag: None,
            variants,
        });
        Ty::Named(self.def(parent[0], name, kind))
    }

    /// An internally tagged union, when every branch requires one string of a discriminating
    /// member and holds objects.
    fn tagged(
        &mut self,
        branches: &[NodeId],
        disc: Option<&toolschema_core::ir::Discriminator>,
        ctx: TypeSet,
        parent: &[NodeId],
        name: &str,
    ) -> Option<Ty> {
        let disc = disc?;
        let tag = disc.property.as_str();
        if self.property_names(parent).iter().any(|n| n == tag) {
            return None;
        }
        let parent_requires = self.required(parent).contains(tag);
        let mut plans = Vec::new();
        for (i, &b) in branches.iter().enumerate() {
            let values = disc.values[i].as_ref().filter(|v| !v.is_empty())?;
            let conj = self.conjuncts(b);
            if conj.never || conj.dynamic || self.structural_union(&conj.nodes).is_some() {
                return None;
            }
            if !parent_requires && !self.required(&conj.nodes).contains(tag) {
                return None;
            }
            // Only objects carry a tag: the branch must allow nothing else.
            let mut types = widen(ctx);
            for &c in &conj.nodes {
                if let Some(t) = self.keywords(c).and_then(|k| k.types) {
                    types = TypeSet::from_bits(types.bits() & widen(t).bits());
                }
            }
            if types.bits() & !OBJECT.bits() != 0 {
                return None;
            }
            plans.push((b, conj.nodes, values.clone()));
        }
        let mut variants = Vec::new();
        let mut scope = Scope::default();
        for (b, conj, values) in plans {
            let content_name = format!("{name}{}", camel(&values[0]));
            let content = self.object(b, &conj, &content_name, Some(tag), None);
            for value in values {
                let label = scope.take(nonempty(camel(&value)));
                variants.push((label, Some(value), content.clone()));
            }
        }
        let kind = Kind::Union(Union {
            tag: Some(tag.to_string()),
            variants,
        });
        Some(Ty::Named(self.def(parent[0], name, kind)))
    }

    fn variant_label(&self, branch: NodeId, i: usize) -> String {
        if let Some(k) = self.keywords(branch) {
            if let Some(target) = k.reference.filter(|_| is_pure_reference(k))
                && let Some(last) = self
                    .pointer(target)
                    .and_then(|p| p.rsplit('/').next().map(str::to_string))
                && !camel(&last).is_empty()
            {
                return camel(&last);
            }
            if let Some(title) = self.annotation(branch, "title").and_then(Value::as_str)
                && !camel(title).is_empty()
            {
                return camel(title);
            }
            match k.constant.as_deref() {
                Some(Value::String(s)) if !camel(s).is_empty() => return camel(s),
                Some(Value::Null) => return "Null".into(),
                _ => {}
            }
            if let Some(t) = k.types {
                let names: Vec<String> = t.iter().map(|t| camel(t.name())).collect();
                if names.len() == 1 {
                    return names[0].clone();
                }
            }
        }
        format!("Variant{i}")
    }

    /// Where a variant goes in an untagged union: the narrower its type, the earlier.
    fn rank(&self, ty: &Ty) -> u8 {
        match ty {
            Ty::Unit => 0,
            Ty::Bool => 1,
            Ty::Int(_) => 2,
            Ty::F64 | Ty::Number => 3,
            Ty::Named(i) => match &self.defs[*i].kind {
                Kind::Const(_) => 0,
                Kind::Strings(_) => 4,
                Kind::Struct(s) if s.closed => 8,
                Kind::Struct(s) => 9 - (s.fields.iter().any(|f| f.required) as u8),
                _ => 10,
            },
            Ty::String => 5,
            Ty::Tuple(_) => 6,
            Ty::Vec(_) => 7,
            Ty::Option(inner) => self.rank(inner),
            Ty::Map(_) => 11,
            Ty::Any | Ty::Fallback(_) => 12,
        }
    }

    fn constant(&mut self, id: NodeId, value: &Value, name: &str) -> Ty {
        if value.is_null() {
            return Ty::Unit;
        }
        let json = serde_json::to_string(value).unwrap_or_default();
        Ty::Named(self.def(id, name, Kind::Const(json)))
    }

    fn enumeration(&mut self, id: NodeId, values: &[&Value], name: &str) -> Ty {
        let nullable = values.iter().any(|v| v.is_null());
        let values: Vec<&Value> = values.iter().copied().filter(|v| !v.is_null()).collect();
        let ty = if values.is_empty() {
            return Ty::Unit;
        } else if values.iter().all(|v| v.is_string()) {
            let mut scope = Scope::default();
            let mut variants = Vec::new();
            for v in values {
                let s = v.as_str().unwrap_or_default().to_string();
                if variants.iter().any(|(_, j)| *j == s) {
                    continue;
                }
                variants.push((scope.take(nonempty(camel(&s))), s));
            }
            Ty::Named(self.def(id, name, Kind::Strings(variants)))
        } else if values.iter().all(|v| v.is_boolean()) {
            Ty::Bool
        } else if values.iter().all(|v| v.is_number()) {
            let numbers: Vec<&Number> = values.iter().filter_map(|v| v.as_number()).collect();
            let low = numbers.iter().copied().min_by(|a, b| compare(a, b));
            let high = numbers.iter().copied().max_by(|a, b| compare(a, b));
            if numbers.iter().all(|n| is_integer(n)) {
                integer(low, high)
            } else {
                number(low, high)
            }
        } else {
            return self.fallback(id, "an enum of values of several types");
        };
        if nullable {
            Ty::Option(Box::new(ty))
        } else {
            ty
        }
    }
}

/// A `$ref` with nothing beside it that shapes the value.
fn is_pure_reference(k: &Keywords) -> bool {
    k.reference.is_some()
        && k.types.is_none()
        && k.constant.is_none()
        && k.enumeration.is_none()
        && k.array.is_none()
        && k.object.is_none()
        && k.all_of.is_empty()
        && k.any_of.is_empty()
        && k.one_of.is_empty()
        && k.dynamic_reference.is_none()
}

/// Whether a schema object asserts anything at all.
fn asserts(k: &Keywords) -> bool {
    k.reference.is_some()
        || k.dynamic_reference.is_some()
        || k.number.is_some()
        || k.string.is_some()
        || k.array.is_some()
        || k.object.is_some()
        || !k.all_of.is_empty()
        || k.has_combinators()
}

/// `number` admits integers: a set with `number` has `integer` too, so that intersecting
/// `number` with `integer` leaves `integer`.
fn widen(t: TypeSet) -> TypeSet {
    if t.contains(JsonType::Number) {
        t.with(JsonType::Integer)
    } else {
        t
    }
}

/// `n` as an integer, rounded up or down when it has a fraction; `None` past `i128`.
fn to_i128(n: &Number, up: bool) -> Option<i128> {
    if let Some(i) = n.as_i64() {
        return Some(i.into());
    }
    if let Some(u) = n.as_u64() {
        return Some(u.into());
    }
    let x = n.as_f64().filter(|x| x.abs() < 1e38)?;
    Some(if up { x.ceil() } else { x.floor() } as i128)
}

fn integer(low: Option<&Number>, high: Option<&Number>) -> Ty {
    let (Some(low), Some(high)) = (
        low.and_then(|n| to_i128(n, true)),
        high.and_then(|n| to_i128(n, false)),
    ) else {
        return Ty::Number;
    };
    INTS.iter()
        .find(|(_, lo, hi)| low >= *lo && high <= *hi)
        .map_or(Ty::Number, |(name, _, _)| Ty::Int(name))
}

fn number(low: Option<&Number>, high: Option<&Number>) -> Ty {
    let exact = Number::from(EXACT_F64);
    let minus_exact = Number::from(-(EXACT_F64 as i64));
    match (low, high) {
        (Some(l), Some(h)) if compare(l, &minus_exact).is_ge() && compare(h, &exact).is_le() => {
            Ty::F64
        }
        _ => Ty::Number,
    }
}

/// A line of a schema's `title` or `description` as doc text that stays prose: no code
/// block (an indented line or a fence would become a doctest of whatever the schema says),
/// no tab.
fn doc_line(line: &str) -> String {
    let line = line.trim().replace('\t', " ");
    if line.starts_with("```") || line.starts_with("~~~") {
        format!("\\{line}")
    } else {
        line
    }
}

fn nonempty(name: String) -> String {
    if name.is_empty() {
        "Empty".into()
    } else {
        name
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The type of property `p` of a root object whose schema for it is `schema`.
    fn member(schema: Value) -> Ty {
        let root = json!({"type": "object", "properties": {"p": schema}, "required": ["p"]});
        let ir =
            toolschema_core::frontend::build_tool(&root, &toolschema_core::Options::new()).unwrap();
        let types = map(&ir, &root, "Args");
        let Kind::Struct(s) = &types.defs[types.root].kind else {
            panic!("the root is a struct")
        };
        s.fields[0].ty.clone()
    }

    #[test]
    fn integers_are_typed_from_their_bounds_exactly() {
        let int = |min: Value, max: Value| {
            member(json!({"type": "integer", "minimum": min, "maximum": max}))
        };
        assert_eq!(int(json!(0), json!(255)), Ty::Int("u8"));
        assert_eq!(int(json!(-1), json!(255)), Ty::Int("i16"));
        assert_eq!(int(json!(0.5), json!(255.5)), Ty::Int("u8"));
        assert_eq!(int(json!(0), json!(9223372036854775807i64)), Ty::Int("i64"));
        assert_eq!(int(json!(0), json!(9223372036854775808u64)), Ty::Int("u64"));
        assert_eq!(int(json!(-1), json!(9223372036854775808u64)), Ty::Number);
        assert_eq!(int(json!(0), json!(1e20)), Ty::Number);
        assert_eq!(member(json!({"type": "integer", "minimum": 1})), Ty::Number);
        let exclusive =
            member(json!({"type": "integer", "exclusiveMinimum": -1, "exclusiveMaximum": 256}));
        assert_eq!(exclusive, Ty::Int("i16"));
    }

    #[test]
    fn numbers_are_f64_only_where_every_integer_is_exact() {
        let num = |min: Value, max: Value| {
            member(json!({"type": "number", "minimum": min, "maximum": max}))
        };
        assert_eq!(num(json!(-90), json!(90)), Ty::F64);
        assert_eq!(num(json!(0), json!(9007199254740992u64)), Ty::F64);
        assert_eq!(num(json!(0), json!(9007199254740993u64)), Ty::Number);
        assert_eq!(member(json!({"type": "number"})), Ty::Number);
        assert_eq!(member(json!({"enum": [1, 2.5]})), Ty::F64);
        assert_eq!(member(json!({"enum": [1, 300]})), Ty::Int("u16"));
    }

    #[test]
    fn nullable_and_constant_members() {
        assert_eq!(
            member(json!({"type": ["string", "null"]})),
            Ty::Option(Box::new(Ty::String))
        );
        assert_eq!(member(json!({"const": null})), Ty::Unit);
        assert_eq!(
            member(json!({"anyOf": [{"type": "boolean"}, {"type": "null"}]})),
            Ty::Option(Box::new(Ty::Bool))
        );
        assert_eq!(member(json!(true)), Ty::Any);
        assert_eq!(
            member(json!({"type": "string", "not": {"const": ""}})),
            Ty::String
        );
    }
}
