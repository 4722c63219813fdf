//! The assertions on the instance itself: `type`, `const`, `enum`, the numeric and the string
//! keywords, and the `false` schema.

use super::{Cx, Frame, Subject, Test, int};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use serde_json::Value;
use toolschema_core::format::Format;
use toolschema_core::ir::PatternId;
use toolschema_core::json::{JsonType, TypeSet};
use toolschema_core::messages;
use toolschema_core::number::{Bound, MultipleOf};
use toolschema_core::regex::Shape;

/// Which of the four numeric bounds a `Bound` is.
#[derive(Clone, Copy)]
pub(super) enum BoundKind {
    Minimum,
    Maximum,
    ExclusiveMinimum,
    ExclusiveMaximum,
}

impl BoundKind {
    /// The keyword, the `static` holding the bound, the operator under which a value is
    /// outside it, and the message function.
    fn parts(self) -> (&'static str, &'static str, TokenStream, TokenStream) {
        match self {
            BoundKind::Minimum => ("minimum", "MINIMUM", quote! { < }, quote! { minimum }),
            BoundKind::Maximum => ("maximum", "MAXIMUM", quote! { > }, quote! { maximum }),
            BoundKind::ExclusiveMinimum => (
                "exclusiveMinimum",
                "EXCLUSIVE_MINIMUM",
                quote! { <= },
                quote! { exclusive_minimum },
            ),
            BoundKind::ExclusiveMaximum => (
                "exclusiveMaximum",
                "EXCLUSIVE_MAXIMUM",
                quote! { >= },
                quote! { exclusive_maximum },
            ),
        }
    }
}

impl Cx<'_> {
    /// The `false` schema: nothing is valid.
    pub(super) fn never(&self, f: &mut Frame) -> TokenStream {
        f.fails_always = true;
        let uri = f.uri_expr();
        self.records();
        quote! {
            if C {
                rt::record(failures, ip, kp, #uri, "false", rt::messages::false_schema("", None, None));
            }
        }
    }

    /// `type`.
    pub(super) fn types(&self, f: &mut Frame, types: TypeSet) -> TokenStream {
        if f.subject == Subject::Name {
            // A member name is a string.
            f.fails_always = !types.contains(JsonType::String);
            return quote! {};
        }
        let test = type_test(types);
        let bits = int(types.bits());
        let msg = quote! { rt::messages::type_mismatch_shared(rt::TypeSet::from_bits(#bits), v) };
        let failure = self.fail(f, "type", quote! { ip }, msg);
        let negated = test.negated();
        quote! { if #negated { #failure } }
    }

    /// `const`.
    pub(super) fn constant(&self, f: &mut Frame, value: &Value) -> TokenStream {
        let text = value.to_string();
        let naming = f.subject == Subject::Name;
        if naming && value.is_string() {
            self.uses(|u| u.instance = true);
        }
        let (setup, test) = match value {
            Value::String(s) if naming => (quote! {}, Test::compound(quote! { key == #s })),
            _ if naming => (quote! {}, Test::atom(quote! { false })),
            Value::String(s) => (
                quote! {},
                Test::compound(quote! { ::core::matches!(v, Value::String(s) if s == #s) }),
            ),
            Value::Bool(x) => (quote! {}, Test::compound(quote! { *v == Value::Bool(#x) })),
            Value::Null => (quote! {}, Test::atom(quote! { v.is_null() })),
            // An integer equals an integer value directly; a float (`5.0`) still compares
            // exactly through `equal`.
            Value::Number(n) if n.as_i64().is_some() => {
                let i = proc_macro2::Literal::i64_unsuffixed(n.as_i64().unwrap_or_default());
                (
                    quote! { static CONST: rt::LazyLock<Value> = rt::LazyLock::new(|| rt::value(#text)); },
                    Test::compound(quote! {
                        match v {
                            Value::Number(n) => match n.as_i64() {
                                Some(x) => x == #i,
                                None => rt::equal(&CONST, v),
                            },
                            _ => false,
                        }
                    }),
                )
            }
            _ => (
                quote! { static CONST: rt::LazyLock<Value> = rt::LazyLock::new(|| rt::value(#text)); },
                Test::atom(quote! { rt::equal(&CONST, v) }),
            ),
        };
        // The message names only the schema's value: written here, once, unless the value
        // holds a number, whose text depends on how the runtime's JSON is built.
        let msg = if holds_number(value) {
            quote! { rt::messages::const_mismatch(&rt::value(#text)) }
        } else {
            let msg = messages::const_mismatch(value);
            quote! { #msg }
        };
        let failure = self.fail(f, "const", quote! { ip }, msg);
        let negated = test.negated();
        quote! { #setup if #negated { #failure } }
    }

    /// `enum`.
    pub(super) fn enumeration(&self, f: &mut Frame, options: &[Value]) -> TokenStream {
        let text = Value::Array(options.to_vec()).to_string();
        let naming = f.subject == Subject::Name;
        let strings: Option<Vec<&str>> = options.iter().map(Value::as_str).collect();
        let names: Vec<&str> = options.iter().filter_map(Value::as_str).collect();
        if naming && !names.is_empty() {
            self.uses(|u| u.instance = true);
        }
        // The options are parsed at run time only where they are compared as values.
        let (test, compares_values) = match strings {
            _ if naming && names.is_empty() => (Test::atom(quote! { false }), false),
            _ if naming => (
                Test::atom(quote! { ::core::matches!(key, #(#names)|*) }),
                false,
            ),
            Some(list) if !list.is_empty() => (
                Test::atom(
                    quote! { ::core::matches!(v, Value::String(s) if ::core::matches!(s.as_str(), #(#list)|*)) },
                ),
                false,
            ),
            _ => (
                Test::atom(quote! { ENUM.iter().any(|option| rt::equal(option, v)) }),
                true,
            ),
        };
        let numbers = options.iter().any(holds_number);
        let setup = if compares_values || numbers {
            quote! {
                static ENUM: rt::LazyLock<Vec<Value>> = rt::LazyLock::new(|| match rt::value(#text) {
                    Value::Array(options) => options,
                    _ => Vec::new(),
                });
            }
        } else {
            quote! {}
        };
        // The message names only the schema's options: written here, once, unless they hold a
        // number, whose text depends on how the runtime's JSON is built.
        let msg = if numbers {
            quote! { rt::messages::enum_mismatch(&ENUM) }
        } else {
            let msg = messages::enum_mismatch(options);
            quote! { #msg }
        };
        let failure = self.fail(f, "enum", quote! { ip }, msg);
        let negated = test.negated();
        quote! {
            #setup
            if #negated { #failure }
        }
    }

    /// `minimum`, `maximum`, `exclusiveMinimum` or `exclusiveMaximum`, on the number `n`.
    pub(super) fn bound(&self, f: &mut Frame, kind: BoundKind, bound: &Bound) -> TokenStream {
        let (keyword, name, test, message) = kind.parts();
        let text = bound.number().to_string();
        let name = format_ident!("{}", name);
        // Integer bounds against integer values need no decimal arithmetic.
        // `value.cmp(bound) OP Equal` is `value OP bound`, exactly.
        let exact = quote! { #name.compare_general(n) #test ::core::cmp::Ordering::Equal };
        let outside = match bound.number().as_i64() {
            Some(i) => {
                let i = proc_macro2::Literal::i64_unsuffixed(i);
                quote! { match n.as_i64() { Some(x) => x #test #i, None => #exact } }
            }
            None => exact,
        };
        let failure = self.fail(
            f,
            keyword,
            quote! { ip },
            quote! { rt::messages::#message(n, #name.number()) },
        );
        quote! {
            static #name: rt::LazyLock<rt::Bound> = rt::LazyLock::new(|| rt::Bound::new(&rt::number(#text)));
            if #outside { #failure }
        }
    }

    /// `multipleOf`, on the number `n`.
    pub(super) fn multiple_of(&self, f: &mut Frame, m: &MultipleOf) -> TokenStream {
        let text = m.number().to_string();
        let test = match m.number().as_i64() {
            // Every integer is a multiple of 1; only other numbers need the division.
            Some(1) => Test::compound(
                quote! { n.as_i64().is_some() || n.as_u64().is_some() || MULTIPLE_OF.divides(n) },
            ),
            Some(d) if d > 0 => {
                let d = proc_macro2::Literal::i64_unsuffixed(d);
                Test::compound(
                    quote! { match n.as_i64() { Some(x) => x % #d == 0, None => MULTIPLE_OF.divides(n) } },
                )
            }
            _ => Test::atom(quote! { MULTIPLE_OF.divides(n) }),
        };
        let failure = self.fail(
            f,
            "multipleOf",
            quote! { ip },
            quote! { rt::messages::multiple_of(n, MULTIPLE_OF.number()) },
        );
        let negated = test.negated();
        quote! {
            static MULTIPLE_OF: rt::LazyLock<rt::MultipleOf> = rt::LazyLock::new(|| rt::multiple_of(#text));
            if #negated { #failure }
        }
    }

    /// `minLength` and `maxLength`, on the string `s`, counted in code points once.
    pub(super) fn length(&self, f: &mut Frame, min: u64, max: Option<u64>) -> TokenStream {
        let bounds = self.count_bounds(
            f,
            quote! { length },
            (min, max),
            ["minLength", "maxLength"],
            ["min_length", "max_length"],
        );
        quote! {
            let length = rt::string_length(s);
            #bounds
        }
    }

    /// `pattern`, on the string `s`.
    pub(super) fn pattern(&self, f: &mut Frame, p: PatternId) -> TokenStream {
        let (setup, test) = self.pattern_test(p, quote! { s }, format_ident!("PATTERN"));
        let source = self.ir.pattern(p).as_str();
        let failure = self.fail(
            f,
            "pattern",
            quote! { ip },
            quote! { rt::messages::pattern(#source) },
        );
        let negated = test.negated();
        quote! { #setup if #negated { #failure } }
    }

    /// An asserted `format`, on the string `s`.
    pub(super) fn format(&self, f: &mut Frame, format: Format) -> TokenStream {
        let variant = format_ident!("{}", format!("{format:?}"));
        let failure = self.fail(
            f,
            "format",
            quote! { ip },
            quote! { rt::messages::format(rt::Format::#variant.description()) },
        );
        quote! { if !rt::Format::#variant.is_valid(s) { #failure } }
    }

    /// The test of pattern `p` on `s`: inline for literal shapes, the compiled pattern
    /// otherwise; with the `static` it needs, named `name`.
    pub(super) fn pattern_test(
        &self,
        p: PatternId,
        s: TokenStream,
        name: syn::Ident,
    ) -> (TokenStream, Test) {
        let pattern = self.ir.pattern(p);
        match pattern.shape() {
            Some(Shape::Contains(lit)) => (quote! {}, Test::atom(quote! { #s.contains(#lit) })),
            Some(Shape::Prefix(lit)) => (quote! {}, Test::atom(quote! { #s.starts_with(#lit) })),
            Some(Shape::Exact(list)) if !list.is_empty() => {
                let list = list.iter().map(|l| l.as_str());
                (
                    quote! {},
                    Test::atom(quote! { ::core::matches!(#s.as_str(), #(#list)|*) }),
                )
            }
            Some(Shape::ClassRepeat { ranges, min, max }) => {
                // The class's ASCII table is built when the code is compiled.
                let table = format_ident!("{name}_ASCII");
                let n = int(ranges.len() as u64);
                let ranges = ranges.iter().map(|(a, b)| quote! { (#a, #b) });
                let min = int(*min);
                let max = match max {
                    Some(m) => {
                        let m = int(*m);
                        quote! { Some(#m) }
                    }
                    None => quote! { None },
                };
                (
                    quote! {
                        const #name: [(char, char); #n] = [#(#ranges),*];
                        static #table: [bool; 256] = rt::ascii_table(&#name);
                    },
                    Test::atom(quote! { rt::class_repeat_match(#s, &#table, &#name, #min, #max) }),
                )
            }
            _ => {
                let source = pattern.as_str();
                let limit = self.limits.get_max_regex_size();
                (
                    quote! { static #name: rt::LazyLock<rt::Pattern> = rt::LazyLock::new(|| rt::pattern(#source, #limit)); },
                    Test::atom(quote! { #name.is_match(#s) }),
                )
            }
        }
    }
}

/// Whether `value` is or holds a number.
fn holds_number(value: &Value) -> bool {
    match value {
        Value::Number(_) => true,
        Value::Array(items) => items.iter().any(holds_number),
        Value::Object(map) => map.values().any(holds_number),
        _ => false,
    }
}

/// The `type` test, as one `matches!` over the value's variants; the integer test, which needs
/// a guard, stands alone, since a guard applies to a whole `matches!` pattern.
pub(super) fn type_test(types: TypeSet) -> Test {
    let mut plain = Vec::new();
    let mut integer = None;
    for t in types.iter() {
        plain.push(match t {
            JsonType::Null => quote! { Value::Null },
            JsonType::Boolean => quote! { Value::Bool(_) },
            JsonType::Object => quote! { Value::Object(_) },
            JsonType::Array => quote! { Value::Array(_) },
            JsonType::String => quote! { Value::String(_) },
            JsonType::Number => quote! { Value::Number(_) },
            JsonType::Integer => {
                if !types.contains(JsonType::Number) {
                    integer =
                        Some(quote! { ::core::matches!(v, Value::Number(n) if rt::is_integer(n)) });
                }
                continue;
            }
        });
    }
    let mut tests = Vec::new();
    if !plain.is_empty() {
        tests.push(quote! { ::core::matches!(v, #(#plain)|*) });
    }
    tests.extend(integer);
    match tests.len() {
        0 => Test::atom(quote! { false }),
        1 => Test::atom(quote! { #(#tests)* }),
        _ => Test::compound(quote! { #(#tests)||* }),
    }
}
