//! The interpreter: executes an [`Ir`] against an instance.
//!
//! One evaluation function serves both modes, chosen at compile time by a const parameter:
//! `is_valid` (stop at the first failure, build no locations) and `validate` (collect every
//! failure with its locations). Evaluation is three-valued: `Ok(true)`, `Ok(false)`, or
//! `Err(Halt)` when a limit stops it; a halt passes through every applicator unchanged, so a
//! limit inside `not` or `anyOf` can never turn into a match or a mismatch.
//!
//! Locations are linked lists on the stack ([`Path`]); they become strings only when a failure
//! is recorded. Evaluated-property and evaluated-item annotations are collected only for nodes
//! the IR marks as tracking them.

use crate::error::Failure;
use crate::ir::*;
use crate::json;
use crate::messages;
use crate::pointer;
use serde_json::{Map, Value};
use std::borrow::Cow;

/// Evaluation stopped by a limit.
///
/// Boxed so that `Result<bool, Halt>`, which every evaluation step returns, is two words and
/// travels in registers rather than through memory.
#[derive(Debug)]
pub struct Halt(pub Box<Failure>);

type Flow = Result<bool, Halt>;

/// A location as a linked list of segments, innermost first.
#[derive(Clone, Copy)]
pub struct Path<'a> {
    segment: Segment<'a>,
    parent: Option<&'a Path<'a>>,
}

#[derive(Clone, Copy)]
enum Segment<'a> {
    Root,
    Key(&'a str),
    Index(usize),
}

impl<'a> Path<'a> {
    pub const ROOT: Path<'static> = Path {
        segment: Segment::Root,
        parent: None,
    };

    /// The location of the member `key` of this one.
    #[inline]
    pub fn key(&'a self, key: &'a str) -> Path<'a> {
        Path {
            segment: Segment::Key(key),
            parent: Some(self),
        }
    }

    /// The location of item `index` of this one.
    #[inline]
    pub fn index(&'a self, index: usize) -> Path<'a> {
        Path {
            segment: Segment::Index(index),
            parent: Some(self),
        }
    }

    /// The location as a JSON Pointer.
    pub fn pointer(&self) -> String {
        // The segments come innermost first; they are written outermost first. The innermost
        // ones are kept in a short buffer on the stack (deeper paths spill), and the pointer
        // is allocated once, at its length short of escapes.
        const INLINE: usize = 16;
        let mut inline = [Segment::Root; INLINE];
        let mut spilled = Vec::new();
        let mut count = 0;
        let mut length = 0;
        for segment in std::iter::successors(Some(self), |p| p.parent).map(|p| p.segment) {
            if count < INLINE {
                inline[count] = segment;
            } else {
                spilled.push(segment);
            }
            length += match segment {
                Segment::Root => 0,
                Segment::Key(key) => 1 + key.len(),
                Segment::Index(_) => 4,
            };
            count += 1;
        }
        let mut out = String::with_capacity(length);
        for segment in spilled
            .iter()
            .rev()
            .chain(inline[..count.min(INLINE)].iter().rev())
        {
            match *segment {
                Segment::Root => {}
                Segment::Key(key) => pointer::push_token(&mut out, key),
                Segment::Index(index) => pointer::push_index(&mut out, index),
            }
        }
        out
    }
}

/// The dynamic scope: the schema resources entered, innermost first.
#[derive(Clone, Copy)]
pub struct Scope<'a> {
    resource: ResourceId,
    parent: Option<&'a Scope<'a>>,
}

impl<'a> Scope<'a> {
    /// The scope of an evaluation that starts in `resource`.
    pub fn root(resource: u32) -> Scope<'static> {
        Scope {
            resource: ResourceId(resource),
            parent: None,
        }
    }

    /// The resource entered last.
    pub fn resource(&self) -> u32 {
        self.resource.0
    }

    /// This scope with `resource` entered (itself when it is already the innermost).
    pub fn enter(&'a self, resource: u32) -> Scope<'a> {
        Scope {
            resource: ResourceId(resource),
            parent: Some(self),
        }
    }

    /// The resources in scope, innermost first.
    pub fn resources(&self) -> impl Iterator<Item = u32> + '_ {
        let mut at = Some(self);
        std::iter::from_fn(move || {
            let s = at?;
            at = s.parent;
            Some(s.resource.0)
        })
    }
}

/// Which instance members (object properties by position, or array items by index) have been
/// evaluated. The first 64 members are kept inline, so marking the members of an ordinary
/// object allocates nothing.
#[derive(Default)]
pub struct Marks {
    first: u64,
    rest: Vec<u64>,
}

impl Marks {
    /// Marks member `i` as evaluated.
    #[inline]
    pub fn set(&mut self, i: usize) {
        if i < 64 {
            self.first |= 1 << i;
            return;
        }
        let word = i / 64 - 1;
        if self.rest.len() <= word {
            self.rest.resize(word + 1, 0);
        }
        self.rest[word] |= 1 << (i % 64);
    }

    /// Whether member `i` was evaluated.
    #[inline]
    pub fn get(&self, i: usize) -> bool {
        if i < 64 {
            return self.first & (1 << i) != 0;
        }
        self.rest
            .get(i / 64 - 1)
            .is_some_and(|w| w & (1 << (i % 64)) != 0)
    }

    /// Whether members `0..n` are all marked: then an `unevaluated*` keyword has nothing to
    /// evaluate, and its loop over the members can be skipped.
    ///
    /// ```
    /// use toolschema::__private::Marks;
    /// let mut marks = Marks::default();
    /// marks.set(0);
    /// marks.set(1);
    /// assert!(marks.all(2) && !marks.all(3));
    /// ```
    #[inline]
    pub fn all(&self, n: usize) -> bool {
        let low = |bits: usize| {
            if bits >= 64 {
                u64::MAX
            } else {
                (1u64 << bits) - 1
            }
        };
        if self.first & low(n) != low(n) {
            return false;
        }
        (0..n.saturating_sub(64).div_ceil(64)).all(|w| {
            let want = low(n - 64 * (w + 1));
            self.rest.get(w).is_some_and(|word| word & want == want)
        })
    }

    /// Adds every member `other` marks.
    #[inline]
    pub fn merge(&mut self, other: &Marks) {
        self.first |= other.first;
        if other.rest.is_empty() {
            return;
        }
        if self.rest.len() < other.rest.len() {
            self.rest.resize(other.rest.len(), 0);
        }
        for (a, b) in self.rest.iter_mut().zip(&other.rest) {
            *a |= b;
        }
    }
}

/// Mutable state of one evaluation.
struct State {
    failures: Vec<Failure>,
    max_depth: usize,
    steps_left: usize,
}

/// Runs an [`Ir`].
pub struct Interpreter<'ir> {
    ir: &'ir Ir,
    max_depth: usize,
    max_steps: usize,
}

impl<'ir> Interpreter<'ir> {
    /// An interpreter bounded by `limits`' evaluation depth and steps.
    pub fn new(ir: &'ir Ir, limits: &crate::Limits) -> Interpreter<'ir> {
        Interpreter {
            ir,
            max_depth: limits.max_evaluation_depth,
            max_steps: limits.max_evaluation_steps,
        }
    }

    fn state(&self) -> State {
        State {
            failures: Vec::new(),
            max_depth: self.max_depth,
            steps_left: self.max_steps,
        }
    }

    /// First-failure check.
    pub fn is_valid(&self, instance: &Value) -> Result<bool, Halt> {
        if self.ir.object_root && !instance.is_object() {
            return Ok(false);
        }
        let mut st = self.state();
        let scope = Scope {
            resource: self.ir.node(self.ir.root).resource,
            parent: None,
        };
        self.eval::<false>(
            self.ir.root,
            instance,
            &Path::ROOT,
            &Path::ROOT,
            &scope,
            0,
            &mut st,
            None,
        )
    }

    /// Every failure.
    pub fn validate(&self, instance: &Value) -> Result<Vec<Failure>, Halt> {
        if self.ir.object_root && !instance.is_object() {
            return Ok(vec![Failure::new(
                "",
                "",
                Some(self.ir.node(self.ir.root).uri.clone()),
                "type",
                messages::arguments_not_object(instance),
            )]);
        }
        let mut st = self.state();
        let scope = Scope {
            resource: self.ir.node(self.ir.root).resource,
            parent: None,
        };
        self.eval::<true>(
            self.ir.root,
            instance,
            &Path::ROOT,
            &Path::ROOT,
            &scope,
            0,
            &mut st,
            None,
        )?;
        Ok(st.failures)
    }

    #[allow(clippy::too_many_arguments)]
    fn eval<const C: bool>(
        &self,
        id: NodeId,
        v: &Value,
        ip: &Path<'_>,
        kp: &Path<'_>,
        scope: &Scope<'_>,
        depth: usize,
        st: &mut State,
        out: Option<&mut Marks>,
    ) -> Flow {
        let node = self.ir.node(id);
        let k = match &node.body {
            Body::Bool(true) => return Ok(true),
            Body::Bool(false) => {
                if C {
                    self.record(st, node, "", ip, kp, messages::false_schema("", None, None));
                }
                return Ok(false);
            }
            Body::Keywords(k) => k,
        };
        // A node that applies no subschema costs no step and no level (`Node::leaf`).
        if !node.leaf {
            if crate::stack::stack_low(depth) {
                let mut out = out;
                let mut level = || self.eval::<C>(id, v, ip, kp, scope, depth, st, out.take());
                return crate::stack::on_new_stack(&mut level);
            }
            if st.steps_left == 0 {
                return Err(halt(
                    node,
                    ip,
                    kp,
                    messages::evaluation_too_long(self.max_steps),
                ));
            }
            st.steps_left -= 1;
            if depth >= st.max_depth {
                return Err(halt(
                    node,
                    ip,
                    kp,
                    messages::evaluation_too_deep(st.max_depth),
                ));
            }
        }
        let inner;
        let scope = if self.ir.dynamic_scope && scope.resource != node.resource {
            inner = Scope {
                resource: node.resource,
                parent: Some(scope),
            };
            &inner
        } else {
            scope
        };
        self.keywords::<C>(node, k, v, ip, kp, scope, depth + 1, st, out)
    }

    #[cold]
    #[inline(never)]
    fn record(
        &self,
        st: &mut State,
        node: &Node,
        keyword: &'static str,
        ip: &Path<'_>,
        kp: &Path<'_>,
        message: impl Into<Cow<'static, str>>,
    ) {
        let absolute = if keyword.is_empty() {
            node.uri.clone()
        } else {
            format!("{}/{keyword}", node.uri)
        };
        let keyword_name = if keyword.is_empty() { "false" } else { keyword };
        st.failures.push(Failure::borrowing(
            ip.pointer(),
            kp.pointer(),
            Some(Cow::Owned(absolute)),
            keyword_name,
            message.into(),
        ));
    }

    #[allow(clippy::too_many_arguments)]
    fn keywords<const C: bool>(
        &self,
        node: &Node,
        k: &Keywords,
        v: &Value,
        ip: &Path<'_>,
        kp: &Path<'_>,
        scope: &Scope<'_>,
        depth: usize,
        st: &mut State,
        out: Option<&mut Marks>,
    ) -> Flow {
        let mut valid = true;
        macro_rules! sub {
            ($ok:expr) => {{
                if !$ok {
                    if !C {
                        return Ok(false);
                    }
                    valid = false;
                }
            }};
        }

        // Annotations are gathered when an `unevaluated*` keyword here needs them, or when the
        // caller asked for them.
        let wants_local = match v {
            Value::Object(_) => k.unevaluated_properties().is_some(),
            Value::Array(_) => k.unevaluated_items().is_some(),
            _ => false,
        };
        let tracking =
            matches!(v, Value::Object(_) | Value::Array(_)) && (wants_local || out.is_some());
        let mut marks = Marks::default();
        macro_rules! marks {
            () => {
                if tracking { Some(&mut marks) } else { None }
            };
        }

        if let Some(target) = k.reference {
            let kp2 = kp.key("$ref");
            sub!(self.eval::<C>(target, v, ip, &kp2, scope, depth, st, marks!())?);
        }
        if let Some(dynamic) = &k.dynamic_reference {
            let target = match &**dynamic {
                DynamicRef::Fixed(t) => *t,
                DynamicRef::Dynamic {
                    fallback,
                    candidates,
                    ..
                } => {
                    let mut chosen = *fallback;
                    let mut at = Some(scope);
                    while let Some(s) = at {
                        if let Some((_, n)) = candidates.iter().find(|(r, _)| *r == s.resource) {
                            chosen = *n;
                        }
                        at = s.parent;
                    }
                    chosen
                }
            };
            let kp2 = kp.key("$dynamicRef");
            sub!(self.eval::<C>(target, v, ip, &kp2, scope, depth, st, marks!())?);
        }
        if !self.assertions::<C>(node, k, v, ip, kp, st) {
            if !C {
                return Ok(false);
            }
            valid = false;
        }
        match v {
            Value::String(s) => {
                if let Some(content) = k.string.as_ref().and_then(|c| c.content.as_ref()) {
                    sub!(self.content::<C>(node, content, s, ip, kp, scope, depth, st)?);
                }
            }
            Value::Array(items) => {
                if let Some(plan) = &k.array {
                    sub!(self.array::<C>(node, plan, items, ip, kp, scope, depth, st, marks!())?);
                }
            }
            Value::Object(map) => {
                if let Some(plan) = &k.object {
                    sub!(self.object::<C>(
                        node,
                        plan,
                        map,
                        v,
                        ip,
                        kp,
                        scope,
                        depth,
                        st,
                        marks!()
                    )?);
                }
            }
            _ => {}
        }

        for (i, &child) in k.all_of.iter().enumerate() {
            let kp1 = kp.key("allOf");
            let kp2 = kp1.index(i);
            sub!(self.eval::<C>(child, v, ip, &kp2, scope, depth, st, marks!())?);
        }
        if k.has_combinators() {
            sub!(
                self.combinators::<C>(node, k, v, ip, kp, scope, depth, st, &mut marks, tracking)?
            );
        }
        if tracking {
            sub!(self.unevaluated::<C>(k, v, ip, kp, scope, depth, st, &mut marks)?);
        }
        if valid {
            if let Some(out) = out {
                out.merge(&marks);
            }
        }
        Ok(valid)
    }

    /// The assertions on the instance itself: `type`, `const`, `enum`, and the numeric and
    /// string keywords. Kept out of [`Self::keywords`] so that the frame on the recursive path
    /// stays small.
    fn assertions<const C: bool>(
        &self,
        node: &Node,
        k: &Keywords,
        v: &Value,
        ip: &Path<'_>,
        kp: &Path<'_>,
        st: &mut State,
    ) -> bool {
        let mut valid = true;
        macro_rules! fail {
            ($keyword:expr, $ip:expr, $message:expr) => {{
                if !C {
                    return false;
                }
                valid = false;
                let kp_kw = kp.key($keyword);
                self.record(st, node, $keyword, $ip, &kp_kw, $message);
            }};
        }
        if let Some(types) = k.types {
            if !types.matches(v) {
                fail!("type", ip, messages::type_mismatch_shared(types, v));
            }
        }
        if let Some(c) = &k.constant {
            if !json::equal(c, v) {
                fail!("const", ip, messages::const_mismatch(c));
            }
        }
        if let Some(options) = &k.enumeration {
            if !options.iter().any(|o| json::equal(o, v)) {
                fail!("enum", ip, messages::enum_mismatch(options));
            }
        }
        match v {
            Value::Number(n) => {
                if let Some(checks) = &k.number {
                    use std::cmp::Ordering::*;
                    if let Some(b) = &checks.minimum {
                        if b.compare(n) == Less {
                            fail!("minimum", ip, messages::minimum(n, b.number()));
                        }
                    }
                    if let Some(b) = &checks.maximum {
                        if b.compare(n) == Greater {
                            fail!("maximum", ip, messages::maximum(n, b.number()));
                        }
                    }
                    if let Some(b) = &checks.exclusive_minimum {
                        if b.compare(n) != Greater {
                            fail!(
                                "exclusiveMinimum",
                                ip,
                                messages::exclusive_minimum(n, b.number())
                            );
                        }
                    }
                    if let Some(b) = &checks.exclusive_maximum {
                        if b.compare(n) != Less {
                            fail!(
                                "exclusiveMaximum",
                                ip,
                                messages::exclusive_maximum(n, b.number())
                            );
                        }
                    }
                    if let Some(m) = &checks.multiple_of {
                        if !m.divides(n) {
                            fail!("multipleOf", ip, messages::multiple_of(n, m.number()));
                        }
                    }
                }
            }
            Value::String(s) => {
                if let Some(checks) = &k.string {
                    if checks.min_length.is_some() || checks.max_length.is_some() {
                        let length = string_length(s);
                        if let Some(min) = checks.min_length {
                            if (length as u64) < min {
                                fail!("minLength", ip, messages::min_length(min, length));
                            }
                        }
                        if let Some(max) = checks.max_length {
                            if (length as u64) > max {
                                fail!("maxLength", ip, messages::max_length(max, length));
                            }
                        }
                    }
                    if let Some(p) = checks.pattern {
                        let pattern = self.ir.pattern(p);
                        if !pattern.is_match(s) {
                            fail!("pattern", ip, messages::pattern(pattern.as_str()));
                        }
                    }
                    if let Some(f) = checks.format {
                        if !f.is_valid(s) {
                            fail!("format", ip, messages::format(f.description()));
                        }
                    }
                }
            }
            _ => {}
        }
        valid
    }

    /// `anyOf`, `oneOf`, `not` and `if`/`then`/`else`.
    #[allow(clippy::too_many_arguments)]
    fn combinators<const C: bool>(
        &self,
        node: &Node,
        k: &Keywords,
        v: &Value,
        ip: &Path<'_>,
        kp: &Path<'_>,
        scope: &Scope<'_>,
        depth: usize,
        st: &mut State,
        marks: &mut Marks,
        tracking: bool,
    ) -> Flow {
        let mut valid = true;
        macro_rules! fail {
            ($keyword:expr, $ip:expr, $message:expr) => {{
                if !C {
                    return Ok(false);
                }
                valid = false;
                let kp_kw = kp.key($keyword);
                self.record(st, node, $keyword, $ip, &kp_kw, $message);
            }};
        }
        macro_rules! sub {
            ($ok:expr) => {{
                if !$ok {
                    if !C {
                        return Ok(false);
                    }
                    valid = false;
                }
            }};
        }
        macro_rules! marks {
            () => {
                if tracking { Some(&mut *marks) } else { None }
            };
        }
        if !k.any_of.is_empty() {
            let mut any = false;
            let rules = k.any_of_rules();
            let member = rules.member(v);
            for (i, &child) in k.any_of.iter().enumerate() {
                if rules.rules_out(i, member, v) {
                    continue;
                }
                let kp1 = kp.key("anyOf");
                let kp2 = kp1.index(i);
                if tracking {
                    let mut branch = Marks::default();
                    if self.eval::<false>(
                        child,
                        v,
                        ip,
                        &kp2,
                        scope,
                        depth,
                        st,
                        Some(&mut branch),
                    )? {
                        marks.merge(&branch);
                        any = true;
                    }
                } else if self.eval::<false>(child, v, ip, &kp2, scope, depth, st, None)? {
                    any = true;
                    break;
                }
            }
            if !any {
                fail!("anyOf", ip, messages::any_of());
            }
        }
        if !k.one_of.is_empty() {
            let mut first: Option<usize> = None;
            let mut second: Option<usize> = None;
            let mut kept = Marks::default();
            let rules = k.one_of_rules();
            let member = rules.member(v);
            for (i, &child) in k.one_of.iter().enumerate() {
                if rules.rules_out(i, member, v) {
                    continue;
                }
                let kp1 = kp.key("oneOf");
                let kp2 = kp1.index(i);
                let mut branch = Marks::default();
                let ok = self.eval::<false>(
                    child,
                    v,
                    ip,
                    &kp2,
                    scope,
                    depth,
                    st,
                    if tracking { Some(&mut branch) } else { None },
                )?;
                if ok {
                    if first.is_none() {
                        first = Some(i);
                        kept = branch;
                    } else {
                        second = Some(i);
                        break;
                    }
                }
            }
            match (first, second) {
                (Some(_), None) => marks.merge(&kept),
                (None, _) => fail!("oneOf", ip, messages::one_of_none()),
                (Some(a), Some(b)) => fail!("oneOf", ip, messages::one_of_many(a, b)),
            }
        }
        if let Some(child) = k.not {
            let kp2 = kp.key("not");
            if self.eval::<false>(child, v, ip, &kp2, scope, depth, st, None)? {
                fail!("not", ip, messages::not());
            }
        }
        if let Some(cond) = &k.condition {
            let kp_if = kp.key("if");
            let mut branch = Marks::default();
            let holds = self.eval::<false>(
                cond.if_,
                v,
                ip,
                &kp_if,
                scope,
                depth,
                st,
                if tracking { Some(&mut branch) } else { None },
            )?;
            if holds {
                marks.merge(&branch);
                if let Some(then) = cond.then {
                    let kp2 = kp.key("then");
                    sub!(self.eval::<C>(then, v, ip, &kp2, scope, depth, st, marks!())?);
                }
            } else if let Some(else_) = cond.else_ {
                let kp2 = kp.key("else");
                sub!(self.eval::<C>(else_, v, ip, &kp2, scope, depth, st, marks!())?);
            }
        }

        Ok(valid)
    }

    /// `unevaluatedProperties` and `unevaluatedItems`, once every annotation they read is in.
    #[allow(clippy::too_many_arguments)]
    fn unevaluated<const C: bool>(
        &self,
        k: &Keywords,
        v: &Value,
        ip: &Path<'_>,
        kp: &Path<'_>,
        scope: &Scope<'_>,
        depth: usize,
        st: &mut State,
        marks: &mut Marks,
    ) -> Flow {
        let mut valid = true;
        macro_rules! sub {
            ($ok:expr) => {{
                if !$ok {
                    if !C {
                        return Ok(false);
                    }
                    valid = false;
                }
            }};
        }
        match v {
            Value::Object(map) => {
                // Nothing is left to evaluate when every member is marked.
                let unevaluated = k.unevaluated_properties().filter(|_| !marks.all(map.len()));
                if let Some(child) = unevaluated {
                    let kp1 = kp.key("unevaluatedProperties");
                    for (i, (key, value)) in map.iter().enumerate() {
                        if marks.get(i) {
                            continue;
                        }
                        let ip2 = ip.key(key);
                        let ok = self.member::<C>(
                            child,
                            value,
                            &ip2,
                            &kp1,
                            scope,
                            depth,
                            st,
                            "unevaluatedProperties",
                            Some(key),
                            None,
                        )?;
                        sub!(ok);
                        marks.set(i);
                    }
                }
            }
            Value::Array(items) => {
                let unevaluated = k.unevaluated_items().filter(|_| !marks.all(items.len()));
                if let Some(child) = unevaluated {
                    let kp1 = kp.key("unevaluatedItems");
                    for (i, item) in items.iter().enumerate() {
                        if marks.get(i) {
                            continue;
                        }
                        let ip2 = ip.index(i);
                        let ok = self.member::<C>(
                            child,
                            item,
                            &ip2,
                            &kp1,
                            scope,
                            depth,
                            st,
                            "unevaluatedItems",
                            None,
                            Some(i),
                        )?;
                        sub!(ok);
                        marks.set(i);
                    }
                }
            }
            _ => {}
        }
        Ok(valid)
    }

    /// Applies `child` to a member (property value or item). A `false` child gets a message
    /// naming the member instead of the generic one.
    #[allow(clippy::too_many_arguments)]
    fn member<const C: bool>(
        &self,
        child: NodeId,
        v: &Value,
        ip: &Path<'_>,
        kp: &Path<'_>,
        scope: &Scope<'_>,
        depth: usize,
        st: &mut State,
        keyword: &'static str,
        property: Option<&str>,
        index: Option<usize>,
    ) -> Flow {
        let node = self.ir.node(child);
        if let Body::Bool(false) = node.body {
            if C {
                st.failures.push(Failure::borrowing(
                    ip.pointer(),
                    kp.pointer(),
                    Some(Cow::Owned(node.uri.clone())),
                    keyword,
                    messages::false_schema(keyword, property, index).into(),
                ));
            }
            return Ok(false);
        }
        self.eval::<C>(child, v, ip, kp, scope, depth, st, None)
    }

    #[allow(clippy::too_many_arguments)]
    fn content<const C: bool>(
        &self,
        node: &Node,
        content: &ContentCheck,
        s: &str,
        ip: &Path<'_>,
        kp: &Path<'_>,
        scope: &Scope<'_>,
        depth: usize,
        st: &mut State,
    ) -> Flow {
        let decoded;
        let bytes: &[u8] = match content.encoding {
            Some(encoding) => match encoding.decode(s) {
                Some(b) => {
                    decoded = b;
                    &decoded
                }
                None => {
                    if C {
                        let kp2 = kp.key("contentEncoding");
                        self.record(
                            st,
                            node,
                            "contentEncoding",
                            ip,
                            &kp2,
                            messages::content_encoding(encoding.name()),
                        );
                    }
                    return Ok(false);
                }
            },
            None => s.as_bytes(),
        };
        let Some(media_type) = content.media_type else {
            return Ok(true);
        };
        let Some(document) = media_type.parse(bytes) else {
            if C {
                let kp2 = kp.key("contentMediaType");
                self.record(
                    st,
                    node,
                    "contentMediaType",
                    ip,
                    &kp2,
                    messages::content_media_type(media_type.name()),
                );
            }
            return Ok(false);
        };
        match content.schema {
            Some(schema) => {
                let kp2 = kp.key("contentSchema");
                self.eval::<C>(schema, &document, ip, &kp2, scope, depth, st, None)
            }
            None => Ok(true),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn array<const C: bool>(
        &self,
        node: &Node,
        plan: &ArrayPlan,
        items: &[Value],
        ip: &Path<'_>,
        kp: &Path<'_>,
        scope: &Scope<'_>,
        depth: usize,
        st: &mut State,
        mut marks: Option<&mut Marks>,
    ) -> Flow {
        let mut valid = true;
        macro_rules! fail {
            ($keyword:expr, $message:expr) => {{
                if !C {
                    return Ok(false);
                }
                valid = false;
                let kp_kw = kp.key($keyword);
                self.record(st, node, $keyword, ip, &kp_kw, $message);
            }};
        }
        if let Some(min) = plan.min_items {
            if (items.len() as u64) < min {
                fail!("minItems", messages::min_items(min, items.len()));
            }
        }
        if let Some(max) = plan.max_items {
            if (items.len() as u64) > max {
                fail!("maxItems", messages::max_items(max, items.len()));
            }
        }
        if plan.unique_items {
            if let Some((a, b)) = json::first_duplicate(items) {
                fail!("uniqueItems", messages::unique_items(a, b));
            }
        }
        let kp_prefix = kp.key("prefixItems");
        for (i, (item, &child)) in items.iter().zip(&plan.prefix_items).enumerate() {
            let kp2 = kp_prefix.index(i);
            let ip2 = ip.index(i);
            let ok = self.member::<C>(
                child,
                item,
                &ip2,
                &kp2,
                scope,
                depth,
                st,
                "prefixItems",
                None,
                Some(i),
            )?;
            if !ok {
                if !C {
                    return Ok(false);
                }
                valid = false;
            }
            if let Some(m) = marks.as_deref_mut() {
                m.set(i);
            }
        }
        if let Some(child) = plan.items {
            let kp2 = kp.key("items");
            for (i, item) in items.iter().enumerate().skip(plan.prefix_items.len()) {
                let ip2 = ip.index(i);
                let ok = self.member::<C>(
                    child,
                    item,
                    &ip2,
                    &kp2,
                    scope,
                    depth,
                    st,
                    "items",
                    None,
                    Some(i),
                )?;
                if !ok {
                    if !C {
                        return Ok(false);
                    }
                    valid = false;
                }
                if let Some(m) = marks.as_deref_mut() {
                    m.set(i);
                }
            }
        }
        if let Some(contains) = &plan.contains {
            let kp2 = kp.key("contains");
            let mut count = 0usize;
            // Every item must be tried when the matches are annotations someone reads or when
            // there is an upper bound; otherwise reaching the minimum is enough.
            let exhaustive = marks.is_some() || contains.max.is_some();
            for (i, item) in items.iter().enumerate() {
                let ip2 = ip.index(i);
                if self.eval::<false>(contains.schema, item, &ip2, &kp2, scope, depth, st, None)? {
                    count += 1;
                    if let Some(m) = marks.as_deref_mut() {
                        m.set(i);
                    }
                    if !exhaustive && count as u64 >= contains.min {
                        break;
                    }
                }
            }
            if (count as u64) < contains.min {
                let keyword = if contains.min == 1 {
                    "contains"
                } else {
                    "minContains"
                };
                fail!(keyword, messages::min_contains(contains.min, count));
            }
            if let Some(max) = contains.max {
                if count as u64 > max {
                    fail!("maxContains", messages::max_contains(max, count));
                }
            }
        }
        Ok(valid)
    }

    #[allow(clippy::too_many_arguments)]
    fn object<const C: bool>(
        &self,
        node: &Node,
        plan: &ObjectPlan,
        map: &Map<String, Value>,
        whole: &Value,
        ip: &Path<'_>,
        kp: &Path<'_>,
        scope: &Scope<'_>,
        depth: usize,
        st: &mut State,
        mut marks: Option<&mut Marks>,
    ) -> Flow {
        let mut valid = true;
        macro_rules! fail {
            ($keyword:expr, $message:expr) => {{
                if !C {
                    return Ok(false);
                }
                valid = false;
                let kp_kw = kp.key($keyword);
                self.record(st, node, $keyword, ip, &kp_kw, $message);
            }};
        }
        macro_rules! sub {
            ($ok:expr) => {{
                if !$ok {
                    if !C {
                        return Ok(false);
                    }
                    valid = false;
                }
            }};
        }
        if let Some(min) = plan.min_properties {
            if (map.len() as u64) < min {
                fail!("minProperties", messages::min_properties(min, map.len()));
            }
        }
        if let Some(max) = plan.max_properties {
            if (map.len() as u64) > max {
                fail!("maxProperties", messages::max_properties(max, map.len()));
            }
        }
        // The key pass: each key is matched once against properties, patternProperties and
        // additionalProperties; required properties that are also declared are seen here.
        // First-failure mode: cheap checks before any deep subschema runs (the verdict is the
        // same in any order; only the work differs).
        let mut seen: u64 = 0;
        let use_seen = plan.properties.len() <= 64;
        if !C && plan.shallow_first {
            // One pass over the keys: shallow properties are checked, required ones seen.
            for (key, value) in map {
                let Some(pi) = plan.property_index(key) else {
                    continue;
                };
                if use_seen {
                    seen |= 1 << pi;
                }
                let child = plan.properties[pi].1;
                if self.ir.node(child).shallow
                    && !self.eval::<false>(child, value, ip, kp, scope, depth, st, None)?
                {
                    return Ok(false);
                }
            }
            for (name, index) in &plan.required {
                let present = match index {
                    Some(i) if use_seen => seen & (1 << i) != 0,
                    _ => has_member(map, name),
                };
                if !present {
                    return Ok(false);
                }
            }
        }
        if plan.needs_key_pass() {
            let kp_props = kp.key("properties");
            let kp_patterns = kp.key("patternProperties");
            let kp_additional = kp.key("additionalProperties");
            for (i, (key, value)) in map.iter().enumerate() {
                let ip2 = ip.key(key);
                let mut matched = false;
                if let Some(pi) = plan.property_index(key) {
                    matched = true;
                    if use_seen {
                        seen |= 1 << pi;
                    }
                    let child = plan.properties[pi].1;
                    let kp2 = kp_props.key(key);
                    let checked = !C && plan.shallow_first && self.ir.node(child).shallow;
                    if !checked {
                        sub!(self.member::<C>(
                            child,
                            value,
                            &ip2,
                            &kp2,
                            scope,
                            depth,
                            st,
                            "properties",
                            Some(key),
                            None
                        )?);
                    }
                }
                for (pattern, child) in &plan.pattern_properties {
                    let pattern_ref = self.ir.pattern(*pattern);
                    if pattern_ref.is_match(key) {
                        matched = true;
                        let kp2 = kp_patterns.key(pattern_ref.as_str());
                        sub!(self.member::<C>(
                            *child,
                            value,
                            &ip2,
                            &kp2,
                            scope,
                            depth,
                            st,
                            "patternProperties",
                            Some(key),
                            None
                        )?);
                    }
                }
                if !matched {
                    if let Some(child) = plan.additional_properties {
                        matched = true;
                        sub!(self.member::<C>(
                            child,
                            value,
                            &ip2,
                            &kp_additional,
                            scope,
                            depth,
                            st,
                            "additionalProperties",
                            Some(key),
                            None
                        )?);
                    }
                }
                if matched {
                    if let Some(m) = marks.as_deref_mut() {
                        m.set(i);
                    }
                }
            }
        }
        for (name, index) in &plan.required {
            let present = match index {
                Some(i) if use_seen && plan.needs_key_pass() => seen & (1 << i) != 0,
                _ => has_member(map, name),
            };
            if !present {
                fail!("required", messages::required(name));
            }
        }
        for dependent in &plan.dependent_required {
            if has_member(map, &dependent.property) {
                for dependency in &dependent.then {
                    if !has_member(map, dependency) {
                        fail!(
                            dependent.keyword,
                            messages::dependent_required(&dependent.property, dependency)
                        );
                    }
                }
            }
        }
        if let Some(child) = plan.property_names {
            let kp2 = kp.key("propertyNames");
            for key in map.keys() {
                let name = Value::String(key.clone());
                if !self.eval::<false>(child, &name, ip, &kp2, scope, depth, st, None)? {
                    fail!("propertyNames", messages::property_name(key));
                }
            }
        }
        for dependent in &plan.dependent_schemas {
            if has_member(map, &dependent.property) {
                let kp1 = kp.key(dependent.keyword);
                let kp2 = kp1.key(&dependent.property);
                {
                    sub!(self.eval::<C>(
                        dependent.then,
                        whole,
                        ip,
                        &kp2,
                        scope,
                        depth,
                        st,
                        marks.as_deref_mut()
                    )?);
                }
            }
        }
        Ok(valid)
    }
}

/// A limit stopped evaluation at this node. Out of line: it is rare, and its temporaries
/// would otherwise enlarge the frame of every evaluation.
#[cold]
#[inline(never)]
fn halt(node: &Node, ip: &Path<'_>, kp: &Path<'_>, message: String) -> Halt {
    Halt(Box::new(Failure::new(
        ip.pointer(),
        kp.pointer(),
        Some(node.uri.clone()),
        "",
        message,
    )))
}

/// The length of `s` in code points, as `minLength` and `maxLength` count it.
#[inline]
pub fn string_length(s: &str) -> usize {
    // Counting code points is only needed when the byte length does not already decide.
    if s.is_ascii() {
        s.len()
    } else {
        s.chars().count()
    }
}

#[cfg(test)]
mod tests {
    use super::{Marks, Path};

    /// `all` agrees with `get` on every member count, inline and spilled alike.
    #[test]
    fn marks_all_agrees_with_get() {
        for marked in [0usize, 1, 63, 64, 65, 127, 128, 130, 200] {
            for hole in [None, Some(0), Some(63), Some(64), Some(129)] {
                let mut marks = Marks::default();
                for i in (0..marked).filter(|&i| Some(i) != hole) {
                    marks.set(i);
                }
                for n in 0..=210 {
                    assert_eq!(
                        marks.all(n),
                        (0..n).all(|i| marks.get(i)),
                        "{marked} marked, hole {hole:?}, n {n}"
                    );
                }
            }
        }
        let mut a = Marks::default();
        a.set(3);
        let mut b = Marks::default();
        b.set(100);
        a.merge(&b);
        assert!(a.get(3) && a.get(100) && !a.get(99) && !a.get(64));
    }

    /// Pointers of any depth, in order, with every escape and index width.
    #[test]
    fn pointers_of_any_length() {
        fn nest(depth: usize, at: &Path<'_>, expected: &mut String) {
            if depth == 0 {
                assert_eq!(at.pointer(), *expected);
                return;
            }
            let len = expected.len();
            if depth % 2 == 0 {
                expected.push_str(&format!("/{depth}"));
                nest(depth - 1, &at.index(depth), expected);
            } else {
                expected.push_str("/a~1b");
                nest(depth - 1, &at.key("a/b"), expected);
            }
            expected.truncate(len);
        }
        for depth in [0, 1, 15, 16, 17, 47, 48, 49, 200] {
            nest(depth, &Path::ROOT, &mut String::new());
        }
        let (a, b, c, d) = ("~x/", "", "é", "a~1");
        let p = Path::ROOT.key(a);
        let p = p.index(0);
        let p = p.key(b);
        let p = p.index(10);
        let p = p.key(c);
        let p = p.index(usize::MAX);
        let p = p.key(d);
        assert_eq!(p.pointer(), format!("/~0x~1/0//10/é/{}/a~01", usize::MAX));
    }
}
