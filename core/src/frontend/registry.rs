//! Documents, schema resources and anchors: where every URI points.
//!
//! Each document is walked once, schema-aware (only keywords that hold subschemas are entered,
//! so an `$id` inside `enum` or an unknown keyword identifies nothing). The walk assigns base
//! URIs, records resources (`$id`), anchors (`$anchor`, `$dynamicAnchor`) and the dialect in
//! force at every subschema. References are resolved against this index; documents other than
//! the root come from the registry, the embedded meta-schemas or the caller's loader, and are
//! walked the first time something refers to them.

use super::keyword::{Keyword, SchemaObject};
use super::uri;
use super::vocabulary::{self, Vocabularies};
use crate::error::{Error, ErrorClass};
use crate::options::Options;
use crate::pointer;
use serde_json::{Map, Value};
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// What the loader answered for each URI during one build, shared by the nested builds of
/// custom meta-schemas so that the loader is asked at most once per URI per build. It lives
/// only as long as the build: nothing outlives it or is shared between builds.
pub type LoadCache = Rc<RefCell<HashMap<String, Result<Rc<Value>, String>>>>;

/// Index of a document.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DocId(pub u32);

/// A place in a document: the document and an (escaped) JSON Pointer from its root.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Loc {
    pub doc: DocId,
    pub ptr: String,
}

/// What the walk learned about one subschema.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LocInfo {
    /// The resource the subschema belongs to (index into [`Registry::resource_uris`]).
    pub resource: u32,
    /// The vocabularies in force.
    pub vocabularies: Vocabularies,
}

#[derive(Clone)]
enum DocValue<'a> {
    Borrowed(&'a Value),
    Shared(Rc<Value>),
}

impl DocValue<'_> {
    fn get(&self) -> &Value {
        match self {
            DocValue::Borrowed(v) => v,
            DocValue::Shared(v) => v,
        }
    }
}

/// A held document value that stays valid while the registry grows.
pub struct DocHandle<'a>(DocValue<'a>);

impl<'a> DocHandle<'a> {
    pub fn value(&self) -> &Value {
        self.0.get()
    }

    /// The document's value for as long as the registry's, when the caller lent it.
    pub fn borrowed(&self) -> Option<&'a Value> {
        match self.0 {
            DocValue::Borrowed(v) => Some(v),
            DocValue::Shared(_) => None,
        }
    }
}

struct Document<'a> {
    value: DocValue<'a>,
}

/// A document waiting for its meta-schema check.
pub struct Unchecked {
    pub doc: DocId,
    /// The custom meta-schema URI, or `None` for 2020-12.
    pub dialect: Option<String>,
    /// For a loaded document: the reference that loaded it, where that is written, and the URI.
    pub origin: Option<(String, String, String)>,
}

/// Every resource, anchor and subschema known so far.
pub struct Registry<'a> {
    options: &'a Options,
    docs: Vec<Document<'a>>,
    /// Resource URI (normalised, no fragment) → location of its root.
    resources: HashMap<String, Loc>,
    /// `resource#name` → location of the subschema with that `$anchor` or `$dynamicAnchor`.
    anchors: HashMap<String, Loc>,
    /// Resource index → its `$dynamicAnchor`s (name, location).
    dynamic_anchors: HashMap<u32, Vec<(String, Loc)>>,
    /// Every walked subschema.
    info: HashMap<Loc, LocInfo>,
    /// URIs of resources, indexed by resource number.
    pub resource_uris: Vec<String>,
    resource_index: HashMap<String, u32>,
    /// The loader's answers, shared with nested builds.
    loads: LoadCache,
    /// Meta-schema documents being read for their `$vocabulary`, to stop cycles.
    reading_dialect: HashSet<String>,
    /// Documents waiting for a meta-schema check.
    pub unchecked: Vec<Unchecked>,
}

impl<'a> Registry<'a> {
    pub fn new(options: &'a Options, loads: LoadCache) -> Registry<'a> {
        Registry {
            options,
            docs: Vec::new(),
            resources: HashMap::new(),
            anchors: HashMap::new(),
            dynamic_anchors: HashMap::new(),
            info: HashMap::new(),
            resource_uris: Vec::new(),
            resource_index: HashMap::new(),
            loads,
            reading_dialect: HashSet::new(),
            unchecked: Vec::new(),
        }
    }

    pub fn options(&self) -> &'a Options {
        self.options
    }

    /// The cache of loader answers, for a nested build.
    pub fn loads(&self) -> LoadCache {
        Rc::clone(&self.loads)
    }

    /// Adds the root document under `retrieval_uri` and walks it.
    pub fn add_root(
        &mut self,
        value: &'a Value,
        retrieval_uri: &str,
        trusted: bool,
    ) -> Result<DocId, Error> {
        self.add_document(DocValue::Borrowed(value), retrieval_uri, trusted, None)
    }

    pub fn handle(&self, doc: DocId) -> DocHandle<'a> {
        DocHandle(self.docs[doc.0 as usize].value.clone())
    }

    fn add_document(
        &mut self,
        value: DocValue<'a>,
        retrieval_uri: &str,
        trusted: bool,
        origin: Option<(String, String, String)>,
    ) -> Result<DocId, Error> {
        let doc = DocId(self.docs.len() as u32);
        self.docs.push(Document {
            value: value.clone(),
        });
        let schemas = super::limits::check_document(value.get(), &self.options.limits)?;
        // The walk records every subschema it finds: room for as many as there can be (up to
        // a size no tool schema needs, whatever objects a hostile `const` holds), so that the
        // table is not rehashed as it grows.
        self.info.reserve(schemas.min(1 << 12));
        let root = value.get();
        let dialect = self.dialect_of(root, "")?;
        if !trusted {
            self.unchecked.push(Unchecked {
                doc,
                dialect: dialect.1.clone(),
                origin,
            });
        }
        self.walk(doc, root, retrieval_uri, dialect.0)?;
        Ok(doc)
    }

    fn resource_id(&mut self, uri: &str) -> u32 {
        if let Some(&i) = self.resource_index.get(uri) {
            return i;
        }
        let i = self.resource_uris.len() as u32;
        self.resource_uris.push(uri.to_string());
        self.resource_index.insert(uri.to_string(), i);
        i
    }

    /// The vocabularies a schema object's `$schema` selects, and the custom meta-schema URI
    /// when it is not the 2020-12 one. `None` when the schema has no `$schema`.
    fn declared_dialect(
        &mut self,
        schema: &Value,
        pointer: &str,
    ) -> Result<Option<(Vocabularies, Option<String>)>, Error> {
        let Some(declared) = schema.get("$schema") else {
            return Ok(None);
        };
        let at = format!("{pointer}/$schema");
        let Value::String(declared) = declared else {
            return Err(Error::schema(
                ErrorClass::Validation,
                &at,
                "$schema",
                "`$schema` must be a string (a URI)",
            ));
        };
        if vocabulary::is_2020_12(declared) {
            return Ok(Some((Vocabularies::STANDARD, None)));
        }
        if let Some(name) = vocabulary::known_other_draft(declared) {
            return Err(Error::schema(
                ErrorClass::UnsupportedCapability,
                &at,
                "$schema",
                format!(
                    "the dialect {declared} ({name}) is not supported: only JSON Schema Draft 2020-12 ({}) is",
                    vocabulary::DIALECT_2020_12
                ),
            ));
        }
        let unsupported = || {
            Error::schema(
                ErrorClass::UnsupportedCapability,
                &at,
                "$schema",
                format!(
                    "the dialect {declared} is not supported: it is neither JSON Schema Draft 2020-12 nor a meta-schema supplied to the registry"
                ),
            )
        };
        let Ok(uri) = uri::normalize_absolute(declared) else {
            return Err(unsupported());
        };
        let (uri, _) = uri::split_fragment(&uri);
        let uri = uri.to_string();
        if !self.reading_dialect.insert(uri.clone()) {
            // A meta-schema that is its own dialect (or a cycle of them) declares nothing new.
            return Ok(Some((Vocabularies::STANDARD, Some(uri))));
        }
        let result = (|| {
            let Some(loc) = self.lookup_resource(&uri, declared, &at)? else {
                return Err(unsupported());
            };
            let handle = self.handle(loc.doc);
            let meta = pointer::follow_pointer(handle.value(), &loc.ptr).unwrap_or(&Value::Null);
            let vocabularies = match meta.get("$vocabulary") {
                Some(declaration) => Vocabularies::from_declaration(declaration, &uri, &at)?,
                None => Vocabularies::STANDARD,
            };
            Ok(Some((vocabularies, Some(uri.clone()))))
        })();
        self.reading_dialect.remove(&uri);
        result
    }

    fn dialect_of(
        &mut self,
        root: &Value,
        pointer: &str,
    ) -> Result<(Vocabularies, Option<String>), Error> {
        Ok(self
            .declared_dialect(root, pointer)?
            .unwrap_or((Vocabularies::STANDARD, None)))
    }

    /// The schema-aware walk of one document.
    fn walk(
        &mut self,
        doc: DocId,
        root: &Value,
        retrieval_uri: &str,
        vocabularies: Vocabularies,
    ) -> Result<(), Error> {
        let base = uri::normalize_absolute(retrieval_uri).map_err(|e| {
            Error::schema(
                ErrorClass::Validation,
                "",
                "$id",
                format!("bad document URI: {e}"),
            )
        })?;
        let base = uri::split_fragment(&base).0.to_string();
        let root_resource = self.resource_id(&base);
        self.resources.entry(base.clone()).or_insert(Loc {
            doc,
            ptr: String::new(),
        });
        let limit = self.options.limits.max_schema_pointer_bytes;
        let mut pointer_bytes = 0usize;
        let mut stack: Vec<(String, &Value, u32, Vocabularies)> =
            vec![(String::new(), root, root_resource, vocabularies)];
        while let Some((ptr, value, parent_resource, parent_vocab)) = stack.pop() {
            let loc = Loc { doc, ptr };
            let ptr = loc.ptr.as_str();
            let Value::Object(map) = value else {
                self.info.insert(
                    loc,
                    LocInfo {
                        resource: parent_resource,
                        vocabularies: parent_vocab,
                    },
                );
                continue;
            };
            let mut resource = parent_resource;
            let mut vocab = parent_vocab;
            let obj = SchemaObject::of(map);
            if let Some(id) = obj.get(Keyword::Id) {
                let Value::String(id) = id else {
                    return Err(Error::schema(
                        ErrorClass::Validation,
                        &format!("{ptr}/$id"),
                        "$id",
                        "`$id` must be a string",
                    ));
                };
                let parent_uri = self.resource_uris[parent_resource as usize].clone();
                let resolved = uri::resolve(&parent_uri, id).map_err(|e| {
                    Error::schema(ErrorClass::Validation, &format!("{ptr}/$id"), "$id", e)
                })?;
                let (without_fragment, fragment) = uri::split_fragment(&resolved);
                if !fragment.is_empty() {
                    return Err(Error::schema(
                        ErrorClass::Validation,
                        &format!("{ptr}/$id"),
                        "$id",
                        format!("`$id` must not have a non-empty fragment: {id}"),
                    ));
                }
                let without_fragment = without_fragment.to_string();
                resource = self.resource_id(&without_fragment);
                self.resources
                    .entry(without_fragment)
                    .or_insert_with(|| loc.clone());
                if !ptr.is_empty() {
                    if let Some((v, _)) = self.declared_dialect(value, ptr)? {
                        vocab = v;
                    }
                }
            } else if !ptr.is_empty() && obj.has(Keyword::Schema) {
                // `$schema` outside a resource root selects nothing, but one naming another
                // dialect says the author wrote for it: held to the same rule as a resource's.
                self.declared_dialect(value, ptr)?;
            }
            for keyword in [Keyword::Anchor, Keyword::DynamicAnchor] {
                if let Some(anchor) = obj.get(keyword) {
                    let keyword = keyword.name();
                    let Value::String(name) = anchor else {
                        return Err(Error::schema(
                            ErrorClass::Validation,
                            &format!("{ptr}/{keyword}"),
                            keyword,
                            format!("`{keyword}` must be a string"),
                        ));
                    };
                    let resource_uri = &self.resource_uris[resource as usize];
                    self.anchors
                        .entry(format!("{resource_uri}#{name}"))
                        .or_insert_with(|| loc.clone());
                    if keyword == "$dynamicAnchor" {
                        self.dynamic_anchors
                            .entry(resource)
                            .or_default()
                            .push((name.clone(), loc.clone()));
                    }
                }
            }
            let mut over = false;
            for_each_subschema(map, vocab, |suffix, child| {
                pointer_bytes += ptr.len() + suffix.len();
                // Checked before the pointer is made, so a hostile document never gets to
                // allocate past the limit.
                over |= pointer_bytes > limit;
                if !over {
                    let mut pointer = String::with_capacity(ptr.len() + suffix.len());
                    pointer.push_str(ptr);
                    pointer.push_str(suffix);
                    stack.push((pointer, child, resource, vocab));
                }
            });
            if over {
                return Err(Error::schema(
                    ErrorClass::ExecutionFailure,
                    ptr,
                    "",
                    format!(
                        "the locations of the schema's subschemas take more than the limit of {limit} bytes as JSON Pointers"
                    ),
                ));
            }
            self.info.insert(
                loc,
                LocInfo {
                    resource,
                    vocabularies: vocab,
                },
            );
        }
        Ok(())
    }

    /// The location of the resource `uri` (no fragment), loading its document if needed.
    /// `reference` is the text that led here and `at` where it is written, for errors.
    /// `Ok(None)`: nothing has that URI.
    fn lookup_resource(
        &mut self,
        uri: &str,
        reference: &str,
        at: &str,
    ) -> Result<Option<Loc>, Error> {
        if let Some(loc) = self.resources.get(uri) {
            return Ok(Some(loc.clone()));
        }
        let options = self.options;
        if let Some((_, document)) = options.registry.iter().rev().find(|(u, _)| {
            uri::normalize_absolute(u)
                .map(|n| uri::split_fragment(&n).0 == uri)
                .unwrap_or(false)
        }) {
            self.add_document(DocValue::Borrowed(document), uri, false, None)?;
        } else if let Some(document) = crate::metaschema::document(uri) {
            self.add_document(DocValue::Borrowed(document), uri, true, None)?;
        } else if options.loader.is_some() {
            let document = self.load(uri, reference, at)?;
            let origin = (reference.to_string(), at.to_string(), uri.to_string());
            self.add_document(DocValue::Shared(document), uri, false, Some(origin))
                .map_err(|e| loaded_document_error(e, uri, reference, at))?;
        } else {
            return Ok(None);
        }
        Ok(self.resources.get(uri).cloned())
    }

    /// Asks the loader for `uri`, or repeats what it answered before in this build.
    ///
    /// A loader error is an `ExecutionFailure`: the schema was never judged (the loader may be
    /// offline, or refuse on policy), and retrying later may succeed.
    fn load(&mut self, uri: &str, reference: &str, at: &str) -> Result<Rc<Value>, Error> {
        let cached = self.loads.borrow().get(uri).cloned();
        let answer = match cached {
            Some(answer) => answer,
            None => {
                let loader = self.options.loader.as_ref().expect("checked by the caller");
                let answer = loader(uri).map(Rc::new).map_err(|e| e.to_string());
                self.loads
                    .borrow_mut()
                    .insert(uri.to_string(), answer.clone());
                answer
            }
        };
        answer.map_err(|e| {
            Error::schema(
                ErrorClass::ExecutionFailure,
                at,
                at.rsplit('/').next().unwrap_or("$ref"),
                format!("the reference {reference} cannot be resolved: the schema loader failed for {uri}: {e}"),
            )
        })
    }

    /// Resolves a reference written at `at` in a subschema whose resource is `resource`.
    pub fn resolve(&mut self, resource: u32, reference: &str, at: &str) -> Result<Loc, Error> {
        let keyword = at.rsplit('/').next().unwrap_or("$ref").to_string();
        let bad = |message: String| Error::schema(ErrorClass::Validation, at, &keyword, message);
        let base = self.resource_uris[resource as usize].clone();
        let absolute =
            uri::resolve(&base, reference).map_err(|e| bad(format!("invalid reference: {e}")))?;
        let (document_uri, fragment) = uri::split_fragment(&absolute);
        let fragment = pointer::percent_decode(fragment).ok_or_else(|| {
            bad(format!(
                "the reference {reference} has a malformed fragment"
            ))
        })?;
        let Some(resource_loc) = self.lookup_resource(document_uri, reference, at)? else {
            return Err(bad(format!(
                "the reference {reference} cannot be resolved: no schema has the URI {document_uri} (supply it as a registry document)"
            )));
        };
        if fragment.is_empty() || fragment.starts_with('/') {
            if pointer::tokens(&fragment).is_none() {
                return Err(bad(format!(
                    "the reference {reference} has an invalid JSON Pointer"
                )));
            }
            // Both are pointers as written (escaped), so the fragment's follows the resource's.
            let full = format!("{}{fragment}", resource_loc.ptr);
            let handle = self.handle(resource_loc.doc);
            if pointer::follow_pointer(handle.value(), &full).is_none() {
                return Err(bad(format!(
                    "the reference {reference} cannot be resolved: {document_uri} has nothing at {fragment}"
                )));
            }
            return Ok(Loc {
                doc: resource_loc.doc,
                ptr: full,
            });
        }
        self.anchors
            .get(&format!("{document_uri}#{fragment}"))
            .cloned()
            .ok_or_else(|| {
                bad(format!(
                    "the reference {reference} cannot be resolved: {document_uri} has no anchor named {fragment:?}"
                ))
            })
    }

    /// What the walk knows of `loc`, or of its nearest walked ancestor when `loc` lies inside
    /// something the walk did not enter (a reference into an unknown keyword).
    pub fn info(&self, loc: &Loc) -> LocInfo {
        if let Some(info) = self.info.get(loc) {
            return *info;
        }
        let mut ptr = loc.ptr.as_str();
        while let Some(cut) = ptr.rfind('/') {
            ptr = &ptr[..cut];
            if let Some(info) = self.info.get(&Loc {
                doc: loc.doc,
                ptr: ptr.to_string(),
            }) {
                return *info;
            }
        }
        self.info
            .get(&Loc {
                doc: loc.doc,
                ptr: String::new(),
            })
            .copied()
            .unwrap_or(LocInfo {
                resource: 0,
                vocabularies: Vocabularies::STANDARD,
            })
    }

    /// Every `pattern` and `patternProperties` name in the subschemas the walk found in
    /// `doc`: (source, pointer to it, keyword).
    pub fn patterns_in(&self, doc: DocId) -> Vec<(String, String, &'static str)> {
        let handle = self.handle(doc);
        let mut locs: Vec<&Loc> = self.info.keys().filter(|loc| loc.doc == doc).collect();
        locs.sort_by(|a, b| a.ptr.cmp(&b.ptr));
        let mut out = Vec::new();
        for loc in locs {
            let Some(Value::Object(map)) = pointer::follow_pointer(handle.value(), &loc.ptr) else {
                continue;
            };
            if let Some(Value::String(source)) = map.get("pattern") {
                let mut at = loc.ptr.clone();
                pointer::push_token(&mut at, "pattern");
                out.push((source.clone(), at, "pattern"));
            }
            if let Some(Value::Object(members)) = map.get("patternProperties") {
                for name in members.keys() {
                    let mut at = loc.ptr.clone();
                    pointer::push_token(&mut at, "patternProperties");
                    pointer::push_token(&mut at, name);
                    out.push((name.clone(), at, "patternProperties"));
                }
            }
        }
        out
    }

    /// Every `$ref` and `$dynamicRef` in the subschemas the walk found in `doc`, in document
    /// order: (resource, reference, pointer to the keyword).
    pub fn references_in(&self, doc: DocId) -> Vec<(u32, String, String)> {
        let handle = self.handle(doc);
        let mut locs: Vec<(&Loc, &LocInfo)> =
            self.info.iter().filter(|(loc, _)| loc.doc == doc).collect();
        locs.sort_by(|a, b| a.0.ptr.cmp(&b.0.ptr));
        let mut out = Vec::new();
        for (loc, info) in locs {
            let Some(Value::Object(map)) = pointer::follow_pointer(handle.value(), &loc.ptr) else {
                continue;
            };
            for keyword in ["$ref", "$dynamicRef"] {
                if let Some(Value::String(reference)) = map.get(keyword) {
                    let mut at = loc.ptr.clone();
                    pointer::push_token(&mut at, keyword);
                    out.push((info.resource, reference.clone(), at));
                }
            }
        }
        out
    }

    /// How many subschemas the walks have found.
    pub fn walked(&self) -> usize {
        self.info.len()
    }

    /// The location of a resource's root.
    pub fn resource_root(&self, resource: u32) -> Option<&Loc> {
        self.resources.get(&self.resource_uris[resource as usize])
    }

    /// The `$dynamicAnchor`s a resource defines.
    pub fn dynamic_anchors(&self, resource: u32) -> &[(String, Loc)] {
        self.dynamic_anchors
            .get(&resource)
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    /// The `$dynamicAnchor` name defined exactly at `loc`, if any.
    pub fn dynamic_anchor_at(&self, loc: &Loc) -> Option<&str> {
        let info = self.info.get(loc)?;
        self.dynamic_anchors(info.resource)
            .iter()
            .find(|(_, l)| l == loc)
            .map(|(n, _)| n.as_str())
    }
}

/// Calls `f` with the pointer suffix and value of every subschema directly under a schema
/// object, for the keywords of the vocabularies in force.
pub fn for_each_subschema<'v>(
    map: &'v Map<String, Value>,
    vocab: Vocabularies,
    mut f: impl FnMut(&str, &'v Value),
) {
    // One buffer for every suffix: the keyword's token, then the member's.
    let mut suffix = String::new();
    for (keyword, value) in map {
        let kind = match subschema_kind(keyword) {
            Some((kind, v)) if vocab.contains(v) => kind,
            _ => continue,
        };
        suffix.clear();
        pointer::push_token(&mut suffix, keyword);
        let keyword_end = suffix.len();
        match (kind, value) {
            (Kind::Single, v) => f(&suffix, v),
            (Kind::Array, Value::Array(items)) => {
                for (i, item) in items.iter().enumerate() {
                    suffix.truncate(keyword_end);
                    pointer::push_index(&mut suffix, i);
                    f(&suffix, item);
                }
            }
            (Kind::Map, Value::Object(members)) => {
                for (name, item) in members {
                    suffix.truncate(keyword_end);
                    pointer::push_token(&mut suffix, name);
                    f(&suffix, item);
                }
            }
            _ => {}
        }
    }
}

#[derive(Clone, Copy)]
enum Kind {
    Single,
    Array,
    Map,
}

fn subschema_kind(keyword: &str) -> Option<(Kind, Vocabularies)> {
    use Vocabularies as V;
    Some(match keyword {
        "$defs" => (Kind::Map, V::CORE),
        "properties" | "patternProperties" | "dependentSchemas" | "dependencies" => {
            (Kind::Map, V::APPLICATOR)
        }
        "prefixItems" | "allOf" | "anyOf" | "oneOf" => (Kind::Array, V::APPLICATOR),
        "additionalProperties"
        | "propertyNames"
        | "items"
        | "contains"
        | "not"
        | "if"
        | "then"
        | "else" => (Kind::Single, V::APPLICATOR),
        "unevaluatedProperties" | "unevaluatedItems" => (Kind::Single, V::UNEVALUATED),
        "contentSchema" => (Kind::Single, V::CONTENT),
        _ => return None,
    })
}

/// Says which reference brought in a loaded document that could not be read, keeping the
/// error's class and its location inside that document.
pub fn loaded_document_error(e: Error, uri: &str, reference: &str, at: &str) -> Error {
    let message = format!(
        "the reference {reference} at {} loads {uri}, which cannot be used: {}",
        if at.is_empty() { "the root" } else { at },
        e.message()
    );
    Error::new(e.class(), e.subject(), message, e.failures().to_vec())
}
