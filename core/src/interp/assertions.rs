//! The assertions on the instance itself: `type`, `const`, `enum`, the numeric and the string
//! keywords.

use super::{At, Interpreter};
use crate::eval::Sink;
use crate::format::Format;
use crate::ir::{Check, Node, PatternId};
use crate::json::{self, TypeSet, string_length};
use crate::messages;
use serde_json::{Number, Value};
use std::cmp::Ordering::{Greater, Less};

impl Interpreter<'_> {
    /// A check that only asserts (`Check::only_asserts`) on `v`: the `false` schema, `type`,
    /// `const`, `enum`, and the numeric and string keywords, each true of a value of a type it
    /// does not apply to. Every other check is no assertion, and holds here. Inlined into its
    /// callers: a frame of its own costs more than the check itself.
    #[inline(always)]
    pub(super) fn assertion<const C: bool>(
        &self,
        node: &Node,
        check: &Check,
        v: &Value,
        at: At<'_>,
        st: &mut Sink,
    ) -> bool {
        match check {
            Check::Never => {
                if C {
                    self.record(
                        st,
                        node,
                        "",
                        at.ip,
                        at.kp,
                        messages::false_schema("", None, None),
                    );
                }
                false
            }
            Check::Type(types) => self.types::<C>(node, *types, v, at, st),
            Check::Const(c) => self.constant::<C>(node, c, v, at, st),
            Check::Enum(options) => self.enumeration::<C>(node, options, v, at, st),
            Check::Minimum(_)
            | Check::Maximum(_)
            | Check::ExclusiveMinimum(_)
            | Check::ExclusiveMaximum(_)
            | Check::MultipleOf(_) => match v {
                Value::Number(n) => self.number::<C>(node, check, n, at, st),
                _ => true,
            },
            Check::Length { min, max } => match v {
                Value::String(s) => self.length::<C>(node, *min, *max, s, at, st),
                _ => true,
            },
            Check::Pattern(p) => match v {
                Value::String(s) => self.pattern::<C>(node, *p, s, at, st),
                _ => true,
            },
            Check::Format(f) => match v {
                Value::String(s) => self.format::<C>(node, *f, s, at, st),
                _ => true,
            },
            _ => true,
        }
    }

    /// `type`.
    #[inline]
    pub(super) fn types<const C: bool>(
        &self,
        node: &Node,
        types: TypeSet,
        v: &Value,
        at: At<'_>,
        st: &mut Sink,
    ) -> bool {
        if types.matches(v) {
            return true;
        }
        if C {
            self.fail(
                st,
                node,
                "type",
                at,
                messages::type_mismatch_shared(types, v),
            );
        }
        false
    }

    /// `const`.
    pub(super) fn constant<const C: bool>(
        &self,
        node: &Node,
        c: &Value,
        v: &Value,
        at: At<'_>,
        st: &mut Sink,
    ) -> bool {
        if json::equal(c, v) {
            return true;
        }
        if C {
            self.fail(st, node, "const", at, messages::const_mismatch(c));
        }
        false
    }

    /// `enum`.
    pub(super) fn enumeration<const C: bool>(
        &self,
        node: &Node,
        options: &[Value],
        v: &Value,
        at: At<'_>,
        st: &mut Sink,
    ) -> bool {
        if options.iter().any(|o| json::equal(o, v)) {
            return true;
        }
        if C {
            self.fail(st, node, "enum", at, messages::enum_mismatch(options));
        }
        false
    }

    /// The numeric keywords, each its own check.
    #[inline]
    pub(super) fn number<const C: bool>(
        &self,
        node: &Node,
        check: &Check,
        n: &Number,
        at: At<'_>,
        st: &mut Sink,
    ) -> bool {
        let (keyword, message): (&'static str, fn(&Number, &Number) -> String) = match check {
            Check::Minimum(b) if b.compare(n) == Less => ("minimum", messages::minimum),
            Check::Maximum(b) if b.compare(n) == Greater => ("maximum", messages::maximum),
            Check::ExclusiveMinimum(b) if b.compare(n) != Greater => {
                ("exclusiveMinimum", messages::exclusive_minimum)
            }
            Check::ExclusiveMaximum(b) if b.compare(n) != Less => {
                ("exclusiveMaximum", messages::exclusive_maximum)
            }
            Check::MultipleOf(m) if !m.divides(n) => ("multipleOf", messages::multiple_of),
            _ => return true,
        };
        if C {
            let limit = match check {
                Check::Minimum(b)
                | Check::Maximum(b)
                | Check::ExclusiveMinimum(b)
                | Check::ExclusiveMaximum(b) => b.number(),
                Check::MultipleOf(m) => m.number(),
                _ => return false,
            };
            self.fail(st, node, keyword, at, message(n, limit));
        }
        false
    }

    /// `minLength` and `maxLength`, the length counted once.
    pub(super) fn length<const C: bool>(
        &self,
        node: &Node,
        min: u64,
        max: Option<u64>,
        s: &str,
        at: At<'_>,
        st: &mut Sink,
    ) -> bool {
        let length = string_length(s);
        let mut valid = true;
        if (length as u64) < min {
            if !C {
                return false;
            }
            valid = false;
            self.fail(st, node, "minLength", at, messages::min_length(min, length));
        }
        if let Some(max) = max.filter(|&max| length as u64 > max) {
            if C {
                self.fail(st, node, "maxLength", at, messages::max_length(max, length));
            }
            valid = false;
        }
        valid
    }

    /// `pattern`.
    pub(super) fn pattern<const C: bool>(
        &self,
        node: &Node,
        id: PatternId,
        s: &str,
        at: At<'_>,
        st: &mut Sink,
    ) -> bool {
        let pattern = self.ir.pattern(id);
        if pattern.is_match(s) {
            return true;
        }
        if C {
            self.fail(st, node, "pattern", at, messages::pattern(pattern.as_str()));
        }
        false
    }

    /// An asserted `format`.
    pub(super) fn format<const C: bool>(
        &self,
        node: &Node,
        format: Format,
        s: &str,
        at: At<'_>,
        st: &mut Sink,
    ) -> bool {
        if format.is_valid(s) {
            return true;
        }
        if C {
            self.fail(
                st,
                node,
                "format",
                at,
                messages::format(format.description()),
            );
        }
        false
    }
}
