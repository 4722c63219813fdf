//! Lowering: schema objects become IR nodes, one per subschema, every keyword decoded and
//! type-checked once and every reference resolved to a node.
//!
//! Work proceeds from a queue rather than by recursion, so schema depth never reaches the
//! native stack.

use super::keyword::{Keyword as K, SchemaObject};
use super::registry::{Loc, LocInfo, Registry};
use super::vocabulary::Vocabularies as V;
use crate::content::{ContentEncoding, ContentMediaType};
use crate::error::{Error, ErrorClass};
use crate::format::Format;
use crate::ir::*;
use crate::json::{JsonType, TypeSet};
use crate::number::{Bound, MultipleOf};
use crate::pointer;
use crate::regex::{Pattern, PatternErrorKind};
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::sync::Arc;

/// A `$dynamicRef` whose target may depend on the dynamic scope; settled once every node is
/// known.
struct PendingDynamic {
    node: NodeId,
    anchor: String,
    fallback: NodeId,
}

pub struct Lowerer<'a> {
    pub reg: Registry<'a>,
    pub nodes: Vec<Node>,
    locs: Vec<Loc>,
    /// Beside `locs`: each node's subschema, where it was found by a step from its parent in
    /// a document the caller lent, so that lowering need not follow its pointer from the root.
    values: Vec<Option<&'a Value>>,
    /// The subschema being lowered, when the caller lent its document: where `child` steps
    /// from.
    current: Option<&'a Value>,
    /// What the walk knows of the subschema being lowered, which its children share unless
    /// they start a resource of their own.
    current_info: LocInfo,
    /// What the registry's walk knows of each node's location, beside `locs`.
    infos: Vec<LocInfo>,
    /// Each resource's root, by resource number, once asked for.
    resource_roots: HashMap<u32, Option<Loc>>,
    /// Where each node's annotations are listed before they are moved into it.
    annotation_scratch: Vec<KeywordAnnotation>,
    by_loc: HashMap<Loc, NodeId>,
    queue: Vec<NodeId>,
    patterns: Vec<Pattern>,
    pattern_ids: HashMap<String, PatternId>,
    references: usize,
    pending: Vec<PendingDynamic>,
    format_assertion: bool,
    content_assertion: bool,
}

fn err(pointer: &str, keyword: &str, message: impl Into<String>) -> Error {
    Error::schema(ErrorClass::Validation, pointer, keyword, message)
}

impl<'a> Lowerer<'a> {
    pub fn new(reg: Registry<'a>) -> Lowerer<'a> {
        let options = reg.options();
        Lowerer {
            format_assertion: options.format_assertion,
            content_assertion: options.content_assertion,
            reg,
            nodes: Vec::new(),
            locs: Vec::new(),
            values: Vec::new(),
            current: None,
            current_info: LocInfo {
                resource: 0,
                vocabularies: V::STANDARD,
            },
            infos: Vec::new(),
            resource_roots: HashMap::new(),
            annotation_scratch: Vec::new(),
            by_loc: HashMap::new(),
            queue: Vec::new(),
            patterns: Vec::new(),
            pattern_ids: HashMap::new(),
            references: 0,
            pending: Vec::new(),
        }
    }

    /// Lowers everything reachable from `root` and returns the IR.
    pub fn run(mut self, root: Loc) -> Result<(Ir, Registry<'a>), Error> {
        // A node per subschema the walk found, most often (up to a size no tool schema
        // needs): room made once rather than as they come.
        let expected = self.reg.walked().min(1 << 12);
        self.nodes.reserve(expected);
        self.locs.reserve(expected);
        self.values.reserve(expected);
        self.infos.reserve(expected);
        self.by_loc.reserve(expected);
        let root = self.node_for(root, None, None)?;
        self.drain()?;
        self.settle_dynamic_references()?;
        let dynamic_scope = self.nodes.iter().any(|n| match &n.body {
            Body::Keywords(k) => matches!(
                k.dynamic_reference.as_deref(),
                Some(DynamicRef::Dynamic { .. })
            ),
            Body::Bool(_) => false,
        });
        // Subschemas no reference reaches were counted in the room made: the IR holds no more
        // than it needs.
        self.nodes.shrink_to_fit();
        let mut ir = Ir {
            nodes: self.nodes,
            root,
            patterns: self.patterns,
            resources: self.reg.resource_uris.clone(),
            dynamic_scope,
            object_root: false,
            evaluation_bound: None,
        };
        super::analysis::reject_cycles(&ir, &self.locs)?;
        super::analysis::mark_tracking(&mut ir);
        super::analysis::mark_leaves(&mut ir);
        super::analysis::mark_stack_looks(&mut ir);
        super::analysis::find_discriminators(&mut ir);
        super::analysis::mark_shallow(&mut ir);
        super::analysis::mark_deferred_claims(&mut ir);
        ir.evaluation_bound = super::bound::evaluation_bound(&ir, &self.reg.options().limits);
        let mut scratch = Vec::new();
        for node in &mut ir.nodes {
            node.checks = crate::ir::checks_of(&node.body, &mut scratch);
            node.asserts_only = node.leaf && node.checks.iter().all(Check::only_asserts);
            node.passes_only_scalars = node.types().is_some_and(TypeSet::only_scalars);
            node.claims_what_passes = claims_what_passes(node);
            node.consumes_marks = crate::ir::consumes_marks(&node.body);
        }
        let scalar_types: Vec<Option<TypeSet>> = ir
            .nodes
            .iter()
            .map(|node| match node.checks[..] {
                [Check::Type(types)] if types.only_scalars() => Some(types),
                _ => None,
            })
            .collect();
        for node in &mut ir.nodes {
            for check in &mut node.checks {
                if let Check::Items {
                    schema,
                    scalar_types: types,
                    ..
                } = check
                {
                    *types = scalar_types[schema.index()];
                }
            }
        }
        let flat: Vec<bool> = ir
            .nodes
            .iter()
            .map(|node| {
                !node.leaf
                    && !node.looks_at_stack
                    && node.consumes_marks == TypeSet::EMPTY
                    && node.checks.iter().all(|check| match check {
                        Check::ItemCount { .. } => true,
                        Check::Items { schema, .. } => ir.node(*schema).asserts_only,
                        other => other.only_asserts(),
                    })
            })
            .collect();
        for (node, flat) in ir.nodes.iter_mut().zip(flat) {
            node.flat = flat;
        }
        Ok((ir, self.reg))
    }

    fn drain(&mut self) -> Result<(), Error> {
        while let Some(id) = self.queue.pop() {
            // Lent to `lower` and put back: nodes it creates are only pushed after it.
            let lent = &mut self.locs[id.index()];
            let loc = Loc {
                doc: lent.doc,
                ptr: std::mem::take(&mut lent.ptr),
            };
            let body = self.lower(id, &loc);
            self.locs[id.index()] = loc;
            self.nodes[id.index()].body = body?;
        }
        Ok(())
    }

    /// The node of the subschema at `loc`, made and queued when new; `value` is the subschema
    /// when the caller knows it in a lent document, `info` what the walk knows of it when the
    /// caller knows that.
    fn node_for(
        &mut self,
        loc: Loc,
        value: Option<&'a Value>,
        info: Option<LocInfo>,
    ) -> Result<NodeId, Error> {
        let entry = match self.by_loc.entry(loc) {
            Entry::Occupied(e) => return Ok(*e.get()),
            Entry::Vacant(e) => e,
        };
        let loc = entry.key();
        let limit = self.reg.options().limits.max_schema_nodes;
        if self.nodes.len() >= limit {
            return Err(Error::schema(
                ErrorClass::ExecutionFailure,
                &loc.ptr,
                "",
                format!("the schema has more than the limit of {limit} subschemas"),
            ));
        }
        let info = match info {
            Some(info) => {
                debug_assert_eq!(info, self.reg.info(loc), "{loc:?}");
                info
            }
            None => self.reg.info(loc),
        };
        let resource_uri = &self.reg.resource_uris[info.resource as usize];
        let reg = &self.reg;
        let relative = self
            .resource_roots
            .entry(info.resource)
            .or_insert_with(|| reg.resource_root(info.resource).cloned())
            .as_ref()
            .filter(|root| root.doc == loc.doc)
            .and_then(|root| loc.ptr.strip_prefix(root.ptr.as_str()))
            .unwrap_or(&loc.ptr);
        let mut uri = String::with_capacity(resource_uri.len() + 1 + relative.len());
        uri.push_str(resource_uri);
        uri.push('#');
        pointer::push_fragment_encoded(&mut uri, relative);
        let id = NodeId(self.nodes.len() as u32);
        self.nodes.push(Node {
            uri,
            resource: ResourceId(info.resource),
            body: Body::Bool(true),
            tracks_properties: false,
            tracks_items: false,
            shallow: false,
            leaf: false,
            looks_at_stack: false,
            asserts_only: false,
            passes_only_scalars: false,
            claims_what_passes: false,
            flat: false,
            checks: Box::new([]),
            consumes_marks: TypeSet::EMPTY,
            annotations: Box::new([]),
        });
        self.locs.push(loc.clone());
        self.values.push(value);
        self.infos.push(info);
        entry.insert(id);
        self.queue.push(id);
        Ok(id)
    }

    fn child(&mut self, loc: &Loc, tokens: &[&str]) -> Result<NodeId, Error> {
        let length = tokens.iter().map(|t| t.len() + 1).sum::<usize>();
        let mut ptr = String::with_capacity(loc.ptr.len() + length);
        ptr.push_str(&loc.ptr);
        for t in tokens {
            pointer::push_token(&mut ptr, t);
        }
        // One step down from the subschema being lowered, rather than the whole pointer from
        // the root later.
        let value = self.current.and_then(|parent| {
            tokens.iter().try_fold(parent, |v, t| match v {
                Value::Object(map) => map.get(*t),
                Value::Array(items) => items.get(t.parse::<usize>().ok()?),
                _ => None,
            })
        });
        // A subschema that declares no resource or dialect of its own is in its parent's, as
        // the walk found it: no lookup by location needed.
        let inherits = match value {
            Some(Value::Bool(_)) => true,
            Some(Value::Object(map)) => {
                !map.contains_key(K::Id.name()) && !map.contains_key(K::Schema.name())
            }
            _ => false,
        };
        let info = inherits.then_some(self.current_info);
        self.node_for(Loc { doc: loc.doc, ptr }, value, info)
    }

    fn lower(&mut self, id: NodeId, loc: &Loc) -> Result<Body, Error> {
        let handle = self.reg.handle(loc.doc);
        self.current = self.values[id.index()].or_else(|| {
            handle
                .borrowed()
                .and_then(|document| pointer::follow_pointer(document, &loc.ptr))
        });
        let value = match self.current {
            Some(value) => value,
            None => pointer::follow_pointer(handle.value(), &loc.ptr)
                .ok_or_else(|| err(&loc.ptr, "", "the schema location does not exist"))?,
        };
        let map = match value {
            Value::Bool(b) => return Ok(Body::Bool(*b)),
            Value::Object(map) => map,
            other => {
                return Err(err(
                    &loc.ptr,
                    "",
                    format!(
                        "a schema must be an object or a boolean, not {}",
                        describe_type(other)
                    ),
                ));
            }
        };
        let info = self.infos[id.index()];
        self.current_info = info;
        let vocab = info.vocabularies;
        let obj = SchemaObject::of(map);
        let mut k = Keywords::default();
        let at = |keyword: &str| {
            let mut p = loc.ptr.clone();
            pointer::push_token(&mut p, keyword);
            p
        };

        if let Some(r) = obj.get(K::Ref) {
            let r = r
                .as_str()
                .ok_or_else(|| err(&at("$ref"), "$ref", "`$ref` must be a string"))?;
            self.count_reference(&at("$ref"))?;
            let target = self.reg.resolve(info.resource, r, &at("$ref"))?;
            // A document the reference brought in is held to its meta-schema before any of it
            // is lowered, so that its errors say what is wrong with it, and where.
            super::check_pending(&mut self.reg)?;
            k.reference = Some(self.node_for(target, None, None)?);
        }
        if let Some(r) = obj.get(K::DynamicRef) {
            let r = r.as_str().ok_or_else(|| {
                err(
                    &at("$dynamicRef"),
                    "$dynamicRef",
                    "`$dynamicRef` must be a string",
                )
            })?;
            self.count_reference(&at("$dynamicRef"))?;
            let target_loc = self.reg.resolve(info.resource, r, &at("$dynamicRef"))?;
            super::check_pending(&mut self.reg)?;
            let anchor = r.rsplit_once('#').map(|(_, f)| f).unwrap_or("");
            let dynamic = !anchor.is_empty()
                && !anchor.starts_with('/')
                && self.reg.dynamic_anchor_at(&target_loc) == Some(anchor);
            let target = self.node_for(target_loc, None, None)?;
            if dynamic {
                self.pending.push(PendingDynamic {
                    node: id,
                    anchor: anchor.to_string(),
                    fallback: target,
                });
            }
            k.dynamic_reference = Some(Box::new(DynamicRef::Fixed(target)));
        }

        if vocab.contains(V::VALIDATION) {
            self.lower_validation(&obj, loc, &mut k)?;
        }
        if vocab.contains(V::APPLICATOR) {
            self.lower_applicators(&obj, loc, vocab, &mut k)?;
        }
        if vocab.contains(V::UNEVALUATED) {
            if obj.has(K::UnevaluatedProperties) {
                let n = self.child(loc, &["unevaluatedProperties"])?;
                Arc::make_mut(k.object.get_or_insert_with(Default::default))
                    .unevaluated_properties = Some(n);
            }
            if obj.has(K::UnevaluatedItems) {
                let n = self.child(loc, &["unevaluatedItems"])?;
                k.array
                    .get_or_insert_with(Default::default)
                    .unevaluated_items = Some(n);
            }
        }
        let format_on = vocab.contains(V::FORMAT_ASSERTION)
            || (self.format_assertion && vocab.contains(V::FORMAT_ANNOTATION));
        if format_on {
            if let Some(f) = obj.get(K::Format) {
                let name = f
                    .as_str()
                    .ok_or_else(|| err(&at("format"), "format", "`format` must be a string"))?;
                if let Some(format) = Format::from_name(name) {
                    k.string.get_or_insert_with(Default::default).format = Some(format);
                }
            }
        }
        if self.content_assertion && vocab.contains(V::CONTENT) {
            self.lower_content(&obj, loc, &mut k)?;
        }
        if let Some(object) = &mut k.object {
            finish_object_plan(Arc::make_mut(object));
        }
        self.nodes[id.index()].annotations =
            super::annotations::of(map, vocab, &mut self.annotation_scratch);
        Ok(Body::Keywords(Box::new(k)))
    }

    fn count_reference(&mut self, at: &str) -> Result<(), Error> {
        self.references += 1;
        let limit = self.reg.options().limits.max_references;
        if self.references > limit {
            return Err(Error::schema(
                ErrorClass::ExecutionFailure,
                at,
                "$ref",
                format!("the schema has more than the limit of {limit} references"),
            ));
        }
        Ok(())
    }

    fn lower_validation(
        &mut self,
        obj: &SchemaObject<'_>,
        loc: &Loc,
        k: &mut Keywords,
    ) -> Result<(), Error> {
        let at = |keyword: &str| {
            let mut p = loc.ptr.clone();
            pointer::push_token(&mut p, keyword);
            p
        };
        if let Some(t) = obj.get(K::Type) {
            k.types = Some(decode_types(t).map_err(|m| err(&at("type"), "type", m))?);
        }
        if let Some(c) = obj.get(K::Const) {
            k.constant = Some(Arc::new(c.clone()));
        }
        if let Some(e) = obj.get(K::Enum) {
            let Value::Array(items) = e else {
                return Err(err(&at("enum"), "enum", "`enum` must be an array"));
            };
            k.enumeration = Some(items.as_slice().into());
        }
        let bound = |keyword: K| -> Result<Option<Bound>, Error> {
            match obj.get(keyword) {
                None => Ok(None),
                Some(Value::Number(n)) => Ok(Some(Bound::new(n))),
                Some(_) => {
                    let keyword = keyword.name();
                    Err(err(
                        &at(keyword),
                        keyword,
                        format!("`{keyword}` must be a number"),
                    ))
                }
            }
        };
        let numbers = NumberChecks {
            minimum: bound(K::Minimum)?,
            maximum: bound(K::Maximum)?,
            exclusive_minimum: bound(K::ExclusiveMinimum)?,
            exclusive_maximum: bound(K::ExclusiveMaximum)?,
            multiple_of: match obj.get(K::MultipleOf) {
                None => None,
                Some(Value::Number(n)) => Some(MultipleOf::new(n).ok_or_else(|| {
                    err(
                        &at("multipleOf"),
                        "multipleOf",
                        "`multipleOf` must be greater than 0",
                    )
                })?),
                Some(_) => {
                    return Err(err(
                        &at("multipleOf"),
                        "multipleOf",
                        "`multipleOf` must be a number",
                    ));
                }
            },
        };
        if numbers.minimum.is_some()
            || numbers.maximum.is_some()
            || numbers.exclusive_minimum.is_some()
            || numbers.exclusive_maximum.is_some()
            || numbers.multiple_of.is_some()
        {
            k.number = Some(Box::new(numbers));
        }
        let count = |keyword: K| optional_count(obj, keyword, at);
        let min_length = count(K::MinLength)?;
        let max_length = count(K::MaxLength)?;
        let pattern = match obj.get(K::Pattern) {
            None => None,
            Some(Value::String(source)) => Some(self.pattern(source, &at("pattern"), "pattern")?),
            Some(_) => return Err(err(&at("pattern"), "pattern", "`pattern` must be a string")),
        };
        if min_length.is_some() || max_length.is_some() || pattern.is_some() {
            let s = k.string.get_or_insert_with(Default::default);
            s.min_length = min_length;
            s.max_length = max_length;
            s.pattern = pattern;
        }
        let min_items = count(K::MinItems)?;
        let max_items = count(K::MaxItems)?;
        let unique_items = match obj.get(K::UniqueItems) {
            None => false,
            Some(Value::Bool(b)) => *b,
            Some(_) => {
                return Err(err(
                    &at("uniqueItems"),
                    "uniqueItems",
                    "`uniqueItems` must be a boolean",
                ));
            }
        };
        if min_items.is_some() || max_items.is_some() || unique_items {
            let a = k.array.get_or_insert_with(Default::default);
            a.min_items = min_items;
            a.max_items = max_items;
            a.unique_items = unique_items;
        }
        let min_properties = count(K::MinProperties)?;
        let max_properties = count(K::MaxProperties)?;
        let required = match obj.get(K::Required) {
            None => Vec::new(),
            Some(v) => string_array(v).ok_or_else(|| {
                err(
                    &at("required"),
                    "required",
                    "`required` must be an array of strings",
                )
            })?,
        };
        let mut dependent_required = Vec::new();
        if let Some(v) = obj.get(K::DependentRequired) {
            let Value::Object(deps) = v else {
                return Err(err(
                    &at("dependentRequired"),
                    "dependentRequired",
                    "`dependentRequired` must be an object",
                ));
            };
            for (name, names) in deps {
                let names = string_array(names).ok_or_else(|| {
                    err(
                        &at("dependentRequired"),
                        "dependentRequired",
                        format!("`dependentRequired/{name}` must be an array of strings"),
                    )
                })?;
                dependent_required.push(Dependent {
                    keyword: "dependentRequired",
                    property: name.clone(),
                    then: names,
                });
            }
        }
        if min_properties.is_some()
            || max_properties.is_some()
            || !required.is_empty()
            || !dependent_required.is_empty()
        {
            let o = Arc::make_mut(k.object.get_or_insert_with(Default::default));
            o.min_properties = min_properties;
            o.max_properties = max_properties;
            o.required = required.into_iter().map(|r| (r, None)).collect();
            o.dependent_required = dependent_required;
        }
        Ok(())
    }

    fn lower_applicators(
        &mut self,
        obj: &SchemaObject<'_>,
        loc: &Loc,
        vocab: V,
        k: &mut Keywords,
    ) -> Result<(), Error> {
        let at = |keyword: &str| {
            let mut p = loc.ptr.clone();
            pointer::push_token(&mut p, keyword);
            p
        };
        for (keyword, list) in [
            (K::AllOf, &mut k.all_of),
            (K::AnyOf, &mut k.any_of),
            (K::OneOf, &mut k.one_of),
        ] {
            if let Some(v) = obj.get(keyword) {
                let keyword = keyword.name();
                let Value::Array(items) = v else {
                    return Err(err(
                        &at(keyword),
                        keyword,
                        format!("`{keyword}` must be an array"),
                    ));
                };
                if items.is_empty() {
                    return Err(err(
                        &at(keyword),
                        keyword,
                        format!("`{keyword}` must not be empty"),
                    ));
                }
                for i in 0..items.len() {
                    list.push(self.child(loc, &[keyword, &i.to_string()])?);
                }
            }
        }
        if obj.has(K::Not) {
            k.not = Some(self.child(loc, &["not"])?);
        }
        if obj.has(K::If) {
            k.condition = Some(Box::new(Condition {
                if_: self.child(loc, &["if"])?,
                then: if obj.has(K::Then) {
                    Some(self.child(loc, &["then"])?)
                } else {
                    None
                },
                else_: if obj.has(K::Else) {
                    Some(self.child(loc, &["else"])?)
                } else {
                    None
                },
            }));
        }

        let members = |keyword: K| -> Result<Option<&Map<String, Value>>, Error> {
            match obj.get(keyword) {
                None => Ok(None),
                Some(Value::Object(m)) => Ok(Some(m)),
                Some(_) => {
                    let keyword = keyword.name();
                    Err(err(
                        &at(keyword),
                        keyword,
                        format!("`{keyword}` must be an object"),
                    ))
                }
            }
        };
        let mut object = k
            .object
            .take()
            .map(Arc::unwrap_or_clone)
            .unwrap_or_default();
        if let Some(props) = members(K::Properties)? {
            for name in props.keys() {
                let n = self.child(loc, &["properties", name])?;
                object.properties.push((name.clone(), n));
            }
        }
        if let Some(props) = members(K::PatternProperties)? {
            for source in props.keys() {
                let p = self.pattern(source, &at("patternProperties"), "patternProperties")?;
                let n = self.child(loc, &["patternProperties", source])?;
                object.pattern_properties.push((p, n));
            }
        }
        if obj.has(K::AdditionalProperties) {
            object.additional_properties = Some(self.child(loc, &["additionalProperties"])?);
        }
        if obj.has(K::PropertyNames) {
            object.property_names = Some(self.child(loc, &["propertyNames"])?);
        }
        if let Some(deps) = members(K::DependentSchemas)? {
            for name in deps.keys() {
                let n = self.child(loc, &["dependentSchemas", name])?;
                object.dependent_schemas.push(Dependent {
                    keyword: "dependentSchemas",
                    property: name.clone(),
                    then: n,
                });
            }
        }
        // `dependencies`, from before 2019-09, split into the two keywords that replaced it;
        // accepted for compatibility because it cannot mean anything else.
        if let Some(deps) = members(K::Dependencies)? {
            for (name, value) in deps {
                if value.is_array() {
                    let names = string_array(value).ok_or_else(|| {
                        err(
                            &at("dependencies"),
                            "dependencies",
                            format!(
                                "`dependencies/{name}` must be an array of strings or a schema"
                            ),
                        )
                    })?;
                    object.dependent_required.push(Dependent {
                        keyword: "dependencies",
                        property: name.clone(),
                        then: names,
                    });
                } else {
                    let n = self.child(loc, &["dependencies", name])?;
                    object.dependent_schemas.push(Dependent {
                        keyword: "dependencies",
                        property: name.clone(),
                        then: n,
                    });
                }
            }
        }
        if object.needs_key_pass()
            || object.property_names.is_some()
            || !object.dependent_schemas.is_empty()
            || !object.required.is_empty()
            || !object.dependent_required.is_empty()
            || object.min_properties.is_some()
            || object.max_properties.is_some()
        {
            k.object = Some(Arc::new(object));
        }

        let mut array = k.array.take().unwrap_or_default();
        if let Some(v) = obj.get(K::PrefixItems) {
            let Value::Array(items) = v else {
                return Err(err(
                    &at("prefixItems"),
                    "prefixItems",
                    "`prefixItems` must be an array",
                ));
            };
            for i in 0..items.len() {
                array
                    .prefix_items
                    .push(self.child(loc, &["prefixItems", &i.to_string()])?);
            }
        }
        if obj.has(K::Items) {
            array.items = Some(self.child(loc, &["items"])?);
        }
        if obj.has(K::Contains) {
            let (min, max) = if vocab.contains(V::VALIDATION) {
                (
                    optional_count(obj, K::MinContains, at)?,
                    optional_count(obj, K::MaxContains, at)?,
                )
            } else {
                (None, None)
            };
            array.contains = Some(Contains {
                schema: self.child(loc, &["contains"])?,
                min: min.unwrap_or(1),
                max,
            });
        }
        if !array.prefix_items.is_empty()
            || array.items.is_some()
            || array.contains.is_some()
            || array.min_items.is_some()
            || array.max_items.is_some()
            || array.unique_items
        {
            k.array = Some(array);
        }
        Ok(())
    }

    fn lower_content(
        &mut self,
        obj: &SchemaObject<'_>,
        loc: &Loc,
        k: &mut Keywords,
    ) -> Result<(), Error> {
        let name = |keyword: K| obj.get(keyword).and_then(Value::as_str);
        let encoding = name(K::ContentEncoding).and_then(ContentEncoding::from_name);
        let media_type = name(K::ContentMediaType).and_then(ContentMediaType::from_name);
        let schema = if media_type.is_some() && obj.has(K::ContentSchema) {
            Some(self.child(loc, &["contentSchema"])?)
        } else {
            None
        };
        if encoding.is_some() || media_type.is_some() {
            k.string.get_or_insert_with(Default::default).content = Some(ContentCheck {
                encoding,
                media_type,
                schema,
            });
        }
        Ok(())
    }

    fn pattern(&mut self, source: &str, at: &str, keyword: &str) -> Result<PatternId, Error> {
        if let Some(&id) = self.pattern_ids.get(source) {
            return Ok(id);
        }
        let pattern = compile_pattern(
            source,
            self.reg.options().limits.max_regex_size,
            at,
            keyword,
        )?;
        let id = PatternId(self.patterns.len() as u32);
        self.patterns.push(pattern);
        self.pattern_ids.insert(source.to_string(), id);
        Ok(id)
    }

    /// Decides every `$dynamicRef` that named a `$dynamicAnchor`: the candidates are the
    /// anchors of that name in every resource some node belongs to (only those can be in the
    /// dynamic scope). Adding a candidate can bring in new resources, so this repeats until
    /// nothing changes.
    fn settle_dynamic_references(&mut self) -> Result<(), Error> {
        if self.pending.is_empty() {
            return Ok(());
        }
        loop {
            let before = self.nodes.len();
            let resources: std::collections::BTreeSet<u32> =
                self.nodes.iter().map(|n| n.resource.0).collect();
            let names: std::collections::BTreeSet<String> =
                self.pending.iter().map(|p| p.anchor.clone()).collect();
            for r in resources {
                let anchors: Vec<Loc> = self
                    .reg
                    .dynamic_anchors(r)
                    .iter()
                    .filter(|(n, _)| names.contains(n))
                    .map(|(_, l)| l.clone())
                    .collect();
                for l in anchors {
                    self.node_for(l, None, None)?;
                }
            }
            self.drain()?;
            if self.nodes.len() == before {
                break;
            }
        }
        let pending = std::mem::take(&mut self.pending);
        for p in pending {
            let mut candidates = Vec::new();
            let resources: std::collections::BTreeSet<u32> =
                self.nodes.iter().map(|n| n.resource.0).collect();
            for r in resources {
                for (name, l) in self.reg.dynamic_anchors(r) {
                    if *name == p.anchor {
                        candidates.push((ResourceId(r), self.by_loc[l]));
                    }
                }
            }
            let fixed = candidates.iter().all(|(_, n)| *n == p.fallback);
            let Body::Keywords(k) = &mut self.nodes[p.node.index()].body else {
                continue;
            };
            k.dynamic_reference = Some(Box::new(if fixed {
                DynamicRef::Fixed(p.fallback)
            } else {
                DynamicRef::Dynamic {
                    anchor: p.anchor,
                    fallback: p.fallback,
                    candidates,
                }
            }));
        }
        Ok(())
    }
}

/// [`Node::claims_what_passes`] of a node whose checks are known: for each kind of container
/// its `type` allows, a pass over the members that always claims (see
/// `Check::items_from_first` and `ObjectPlan::defers_claim`).
fn claims_what_passes(node: &Node) -> bool {
    let types = node.types().unwrap_or(TypeSet::ANY);
    let checks = &node.checks;
    let arrays = !types.contains(JsonType::Array)
        || checks.iter().any(|c| c.items_from_first() == usize::MAX);
    let objects = !types.contains(JsonType::Object)
        || checks
            .iter()
            .any(|c| matches!(c, Check::KeyPass(plan) if !plan.defers_claim));
    arrays && objects
}

/// `keyword`'s count, if `obj` has it; `at` locates a keyword, for the error.
fn optional_count(
    obj: &SchemaObject<'_>,
    keyword: K,
    at: impl Fn(&str) -> String,
) -> Result<Option<u64>, Error> {
    match obj.get(keyword) {
        None => Ok(None),
        Some(v) => non_negative_integer(v).map(Some).ok_or_else(|| {
            let keyword = keyword.name();
            err(
                &at(keyword),
                keyword,
                format!("`{keyword}` must be a non-negative integer"),
            )
        }),
    }
}

/// Fills the derived parts of an object plan: the property table and, for each required
/// name, its position among the properties.
fn finish_object_plan(object: &mut ObjectPlan) {
    object.index_properties();
    let required = std::mem::take(&mut object.required);
    object.required = required
        .into_iter()
        .map(|(name, _)| {
            let index = object.property_index(&name).map(|i| i as u32);
            (name, index)
        })
        .collect();
}

/// The types `type` names, or what is wrong with it.
fn decode_types(value: &Value) -> Result<TypeSet, String> {
    let one = |v: &Value| -> Result<JsonType, String> {
        v.as_str()
            .and_then(JsonType::from_name)
            .ok_or_else(|| format!("{v} is not a JSON Schema type name"))
    };
    match value {
        Value::Array(items) => {
            let mut set = TypeSet::EMPTY;
            for item in items {
                set = set.with(one(item)?);
            }
            Ok(set)
        }
        v => Ok(TypeSet::EMPTY.with(one(v)?)),
    }
}

fn non_negative_integer(v: &Value) -> Option<u64> {
    let n = v.as_number()?;
    if let Some(u) = n.as_u64() {
        return Some(u);
    }
    let f = n.as_f64()?;
    if f >= 0.0 && f.fract() == 0.0 {
        // Counts beyond u64 are unreachable limits; saturating keeps their meaning.
        Some(if f >= u64::MAX as f64 {
            u64::MAX
        } else {
            f as u64
        })
    } else {
        None
    }
}

fn string_array(v: &Value) -> Option<Vec<String>> {
    v.as_array()?
        .iter()
        .map(|s| s.as_str().map(str::to_string))
        .collect()
}

/// "a string", "an object", … for messages about a value's type.
pub fn describe_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Compiles a pattern, its error classed: bad syntax is the schema's fault, an unsupported
/// construct a capability we lack, a pattern too large a limit.
pub(crate) fn compile_pattern(
    source: &str,
    limit: usize,
    at: &str,
    keyword: &str,
) -> Result<Pattern, Error> {
    Pattern::new(source, limit).map_err(|e| {
        let class = match e.kind() {
            PatternErrorKind::Syntax => ErrorClass::Validation,
            PatternErrorKind::Unsupported => ErrorClass::UnsupportedCapability,
            PatternErrorKind::TooLarge => ErrorClass::ExecutionFailure,
        };
        Error::schema(class, at, keyword, e.to_string())
    })
}
