//! The object keywords: `minProperties`/`maxProperties`, the key pass (`properties`,
//! `patternProperties`, `additionalProperties`, and the `required` names it sees),
//! `required`, `dependentRequired`, `propertyNames`, `dependentSchemas`. Each runs on the
//! object `map`.

use super::{Cx, Flavour, Frame, Subject, int, name_dispatch};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use toolschema_core::ir::{Body, Dependent, NodeId, ObjectPlan};

impl Cx<'_> {
    /// `minProperties` (0 when it cannot fail) and `maxProperties`.
    pub(super) fn property_count(&self, f: &mut Frame, min: u64, max: Option<u64>) -> TokenStream {
        self.count_bounds(
            f,
            quote! { map.len() },
            (min, max),
            ["minProperties", "maxProperties"],
            ["min_properties", "max_properties"],
        )
    }

    /// One pass over the keys: each key is matched once against `properties`,
    /// `patternProperties` and `additionalProperties`; then the `required` names, those that
    /// `properties` declares from the bits the pass set.
    pub(super) fn key_pass(&self, f: &mut Frame, plan: &ObjectPlan) -> TokenStream {
        let mut out = Vec::new();
        // Required properties that `properties` also declares are seen in the key pass: one
        // bit each, in as many 64-bit words as they need.
        let mut seen_required: Vec<u32> = Vec::new();
        for index in plan.required.iter().filter_map(|(_, i)| *i) {
            if !seen_required.contains(&index) {
                seen_required.push(index);
            }
        }
        let words = seen_required.len().div_ceil(64);
        // The word of `seen` and the bit within it for property `index`.
        let seen_bit = |index: u32| {
            let position = seen_required.iter().position(|&i| i == index)?;
            let shift = int(position as u64 % 64);
            let bit = quote! { 1 << #shift };
            if words == 1 {
                Some((quote! { seen }, bit))
            } else {
                let word = int(position as u64 / 64);
                Some((quote! { seen[#word] }, bit))
            }
        };
        // The test that required property `name` (declared at `index`, if it is) is absent.
        let missing = |name: &str, index: Option<u32>| match index.and_then(&seen_bit) {
            Some((word, bit)) => quote! { #word & (#bit) == 0 },
            None => quote! { !rt::has_member(map, #name) },
        };
        let seen_decl = match words {
            0 => quote! {},
            1 => quote! { let mut seen: u64 = 0; },
            n => {
                let n = int(n as u64);
                quote! { let mut seen = [0u64; #n]; }
            }
        };
        out.push(seen_decl);
        if plan.shallow_first {
            // First-failure mode checks the shallow properties and `required` in one pass over
            // the keys before the key pass, as the interpreter does, so a wrong discriminator
            // fails before any deep subschema runs (the verdict is the same in any order; only
            // the work differs).
            let mut arms = Vec::new();
            for (index, (name, child)) in plan.properties.iter().enumerate() {
                let seen = match seen_bit(index as u32) {
                    Some((word, bit)) => quote! { #word |= #bit; },
                    None => quote! {},
                };
                let child_node = self.ir.node(*child);
                let check = match child_node.body {
                    _ if !child_node.shallow => quote! {},
                    Body::Bool(true) => quote! {},
                    Body::Bool(false) => quote! { return Ok(false); },
                    Body::Keywords(_) => {
                        let call = self.call(
                            Subject::Value,
                            *child,
                            Flavour::Quick,
                            quote! { value },
                            None,
                            quote! { kp },
                            None,
                        );
                        quote! { if !#call { return Ok(false); } }
                    }
                };
                if seen.is_empty() && check.is_empty() {
                    continue;
                }
                arms.push((name.as_str(), quote! { #seen #check }));
            }
            let mut early: Vec<TokenStream> = plan
                .required
                .iter()
                .map(|(name, index)| {
                    let missing = missing(name, *index);
                    quote! { if #missing { return Ok(false); } }
                })
                .collect();
            if !arms.is_empty() {
                let dispatch = name_dispatch(quote! { key }, &arms);
                // Only a shallow subschema with keywords is called on the value.
                let calls = plan.properties.iter().any(|(_, child)| {
                    let node = self.ir.node(*child);
                    node.shallow && matches!(node.body, Body::Keywords(_))
                });
                let value = if calls {
                    quote! { value }
                } else {
                    quote! { _ }
                };
                early.insert(
                    0,
                    quote! {
                        for (key, #value) in map {
                            #dispatch
                        }
                    },
                );
            }
            if !early.is_empty() {
                out.push(quote! {
                    if !C {
                        #(#early)*
                    }
                });
            }
        }
        // The key pass: each key is matched once against properties, patternProperties
        // and additionalProperties.
        // What `additionalProperties` checks of an unmatched member; a `true` there checks
        // nothing, and then only tracking needs to know which members matched.
        let additional_member = plan.additional_properties.map(|child| {
            self.member(
                f,
                child,
                quote! { value },
                quote! { &ip.key(key) },
                quote! { &kp.key("additionalProperties") },
                "additionalProperties",
                quote! { Some(key) },
                quote! { None },
            )
        });
        // Whether a key's match by `properties` or `patternProperties` must be remembered: for
        // tracking, or to keep the key from `additionalProperties`, which applies to every key
        // when nothing else matches names.
        let names_match = !plan.properties.is_empty() || !plan.pattern_properties.is_empty();
        // The pass admits the members to the argument limits, when the object is awaited,
        // unless it leaves that to a later one.
        let claims = !plan.defers_claim;
        // A member that `properties` names is admitted in its arm, as its one subschema needs
        // (see `admission`), its name within the limits since the schema's is; the others
        // after the dispatch, which every arm leaves. Not with `patternProperties`, where a
        // member may have several subschemas, nor where matches are tracked.
        let per_arm = claims && !f.may_track && plan.pattern_properties.is_empty();
        let needs_matched = !per_arm
            && (f.may_track
                || (names_match && additional_member.as_ref().is_some_and(|m| !m.is_empty())));
        let max_name = self.limits.get_max_argument_string_length();
        let mut arms = Vec::new();
        for (index, (name, child)) in plan.properties.iter().enumerate() {
            let index = index as u32;
            let seen = match seen_bit(index) {
                Some((word, bit)) => quote! { #word |= #bit; },
                None => quote! {},
            };
            let member = self.member(
                f,
                *child,
                quote! { value },
                quote! { &ip.key(key) },
                quote! { &kp_properties.key(key) },
                "properties",
                quote! { Some(key) },
                quote! { None },
            );
            // First-failure mode checked the shallow ones before the key pass.
            let member = if plan.shallow_first && self.ir.node(*child).shallow {
                quote! { if C { #member } }
            } else {
                member
            };
            let matched = if needs_matched {
                quote! { matched = true; }
            } else {
                quote! {}
            };
            let (admit, settle) = if per_arm {
                let name = (name.len() > max_name).then(|| quote! { key });
                let (admit, settle) = self.sole_admission(name, quote! { value }, *child);
                (admit, quote! { #settle break 'member; })
            } else {
                (quote! {}, quote! {})
            };
            arms.push((
                name.as_str(),
                quote! {
                    #admit
                    #matched
                    #seen
                    let kp_properties = kp.key("properties");
                    #member
                    #settle
                },
            ));
        }
        let dispatch = if arms.is_empty() {
            quote! {}
        } else {
            name_dispatch(quote! { key }, &arms)
        };
        let mut patterns = Vec::new();
        for (n, (p, child)) in plan.pattern_properties.iter().enumerate() {
            let (setup, test) =
                self.pattern_test(*p, quote! { key }, format_ident!("PATTERN_{}", n));
            let test = test.tokens;
            let source = self.ir.pattern(*p).as_str();
            let member = self.member(
                f,
                *child,
                quote! { value },
                quote! { &ip.key(key) },
                quote! { &kp.key("patternProperties").key(#source) },
                "patternProperties",
                quote! { Some(key) },
                quote! { None },
            );
            let matched = if needs_matched {
                quote! { matched = true; }
            } else {
                quote! {}
            };
            // A member that needs nothing checked, and no record that it matched, makes no
            // test at all.
            if !(matched.is_empty() && member.is_empty()) {
                patterns.push(quote! {
                    #setup
                    if #test {
                        #matched
                        #member
                    }
                });
            }
        }
        let additional = match additional_member {
            Some(member) => {
                let matched = if f.may_track {
                    quote! { matched = true; }
                } else {
                    quote! {}
                };
                if matched.is_empty() && member.is_empty() {
                    quote! {}
                } else if needs_matched {
                    quote! {
                        if !matched {
                            #matched
                            #member
                        }
                    }
                } else {
                    member
                }
            }
            None => quote! {},
        };
        let mark = if f.may_track {
            quote! { if matched && tracking { marks.set(i); } }
        } else {
            quote! {}
        };
        let matched_decl = if needs_matched {
            quote! { let mut matched = false; }
        } else {
            quote! {}
        };
        let children = || {
            let children = plan.properties.iter().map(|(_, c)| *c);
            let named = if per_arm { 0 } else { plan.properties.len() };
            children
                .take(named)
                .chain(plan.pattern_properties.iter().map(|(_, c)| *c))
                .chain(plan.additional_properties)
        };
        let (claim, admit, settle) = if claims {
            let (admit, settle) =
                self.admission(Some(quote! { key }), quote! { value }, children());
            (self.claim_members(), admit, settle)
        } else {
            (quote! {}, quote! {}, quote! {})
        };
        // The value is read by admitting it, and by the subschemas with keywords; a boolean
        // subschema is written inline and reads only the key.
        let value = if claims || children().any(|c| self.reads_member(c)) {
            quote! { value }
        } else {
            quote! { _ }
        };
        let (binding, iteration) = if f.may_track {
            (
                quote! { (i, (key, #value)) },
                quote! { map.iter().enumerate() },
            )
        } else {
            (quote! { (key, #value) }, quote! { map })
        };
        out.push(claim);
        out.push(if per_arm && !arms.is_empty() {
            // Every arm admits its member and leaves the block; what follows the dispatch
            // is the unmatched members' (no `patternProperties`, nothing tracked).
            quote! {
                for #binding in #iteration {
                    'member: {
                        #dispatch
                        #admit
                        #additional
                        #settle
                    }
                }
            }
        } else {
            quote! {
                for #binding in #iteration {
                    #admit
                    #matched_decl
                    #dispatch
                    #(#patterns)*
                    #additional
                    #mark
                    #settle
                }
            }
        });
        for (name, index) in &plan.required {
            let missing = missing(name, *index);
            let failure = self.fail(
                f,
                "required",
                quote! { ip },
                quote! { rt::messages::required(#name) },
            );
            out.push(quote! { if #missing { #failure } });
        }
        quote! { #(#out)* }
    }

    /// `required`, each name looked up.
    pub(super) fn required(&self, f: &mut Frame, names: &[String]) -> TokenStream {
        let tests = names.iter().map(|name| {
            let failure = self.fail(
                f,
                "required",
                quote! { ip },
                quote! { rt::messages::required(#name) },
            );
            quote! { if !rt::has_member(map, #name) { #failure } }
        });
        let tests: Vec<TokenStream> = tests.collect();
        quote! { #(#tests)* }
    }

    /// `dependentRequired`.
    pub(super) fn dependent_required(
        &self,
        f: &mut Frame,
        dependents: &[Dependent<Vec<String>>],
    ) -> TokenStream {
        let mut out = Vec::new();
        for dependent in dependents {
            let property = &dependent.property;
            for dependency in &dependent.then {
                let failure = self.fail(
                    f,
                    dependent.keyword,
                    quote! { ip },
                    quote! { rt::messages::dependent_required(#property, #dependency) },
                );
                out.push(quote! {
                    if rt::has_member(map, #property) && !rt::has_member(map, #dependency) { #failure }
                });
            }
        }
        quote! { #(#out)* }
    }

    /// `propertyNames`: each name is checked as a string in place, in the member-name
    /// flavour, so no `Value` is made for it.
    pub(super) fn property_names(&self, f: &mut Frame, child: NodeId) -> TokenStream {
        let call = self.call(
            Subject::Name,
            child,
            Flavour::Quick,
            quote! { key },
            None,
            quote! { &kp.key("propertyNames") },
            None,
        );
        let failure = self.fail(
            f,
            "propertyNames",
            quote! { ip },
            quote! { rt::messages::property_name(key) },
        );
        quote! {
            for key in map.keys() {
                if !#call { #failure }
            }
        }
    }

    /// `dependentSchemas`: each subschema on the whole object, when its property is present.
    pub(super) fn dependent_schemas(
        &self,
        f: &mut Frame,
        dependents: &[Dependent<NodeId>],
    ) -> TokenStream {
        let mut out = Vec::new();
        for dependent in dependents {
            let property = &dependent.property;
            let keyword = dependent.keyword;
            let call = self.call(
                f.subject,
                dependent.then,
                Flavour::Same,
                quote! { v },
                None,
                quote! { &kp.key(#keyword).key(#property) },
                f.marks.clone(),
            );
            let s = self.sub(f, call);
            out.push(quote! { if rt::has_member(map, #property) { #s } });
        }
        quote! { #(#out)* }
    }
}
