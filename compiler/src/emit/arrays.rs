//! The array keywords: `minItems`/`maxItems`, `uniqueItems`, `prefixItems`, `items`,
//! `contains` with its bounds. Each runs on the array `items`.

use super::{Cx, Frame, Subject, int, limit};
use proc_macro2::TokenStream;
use quote::quote;
use toolschema_core::ir::{ContainsCheck, NodeId};

impl Cx<'_> {
    /// `minItems` (0 when it cannot fail) and `maxItems`.
    pub(super) fn item_count(&self, f: &mut Frame, min: u64, max: Option<u64>) -> TokenStream {
        self.count_bounds(
            f,
            quote! { items.len() },
            (min, max),
            ["minItems", "maxItems"],
            ["min_items", "max_items"],
        )
    }

    /// `uniqueItems: true`.
    pub(super) fn unique_items(&self, f: &mut Frame) -> TokenStream {
        let failure = self.fail(
            f,
            "uniqueItems",
            quote! { ip },
            quote! { rt::messages::unique_items(a, b) },
        );
        let max_depth = limit(self.limits.get_max_argument_depth());
        quote! { if let Some((a, b)) = rt::first_duplicate(items, #max_depth)? { #failure } }
    }

    /// `prefixItems`: each subschema on the item at its index, if there is one. It admits
    /// the items to the argument limits when it covers them all (`covered`, see
    /// `Check::items_from_first`).
    pub(super) fn prefix_items(
        &self,
        f: &mut Frame,
        schemas: &[NodeId],
        covered: usize,
    ) -> TokenStream {
        let mut out = vec![self.claim_items(covered)];
        for (i, &child) in schemas.iter().enumerate() {
            let get = if i == 0 {
                quote! { items.first() }
            } else {
                let i = int(i as u64);
                quote! { items.get(#i) }
            };
            let i = int(i as u64);
            let member = self.member(
                f,
                child,
                quote! { item },
                quote! { &ip.index(#i) },
                quote! { &kp.key("prefixItems").index(#i) },
                "prefixItems",
                quote! { None },
                quote! { Some(#i) },
            );
            let mark = f.mark(quote! { #i });
            let (admit, settle) = self.sole_admission(None, quote! { item }, child);
            out.push(quote! {
                if let Some(item) = #get {
                    #admit
                    #member
                    #mark
                    #settle
                }
            });
        }
        quote! { #(#out)* }
    }

    /// `items`, on the items after the first `skip`; it admits the items to the argument
    /// limits when it covers them all (`covered`, see `Check::items_from_first`).
    pub(super) fn items(
        &self,
        f: &mut Frame,
        skip: usize,
        child: NodeId,
        covered: usize,
    ) -> TokenStream {
        let iteration = if skip == 0 {
            quote! { items.iter().enumerate() }
        } else {
            let skip = int(skip as u64);
            quote! { items.iter().enumerate().skip(#skip) }
        };
        let member = self.member(
            f,
            child,
            quote! { item },
            quote! { &ip.index(i) },
            quote! { &kp_items },
            "items",
            quote! { None },
            quote! { Some(i) },
        );
        let mark = f.mark(quote! { i });
        if covered == 0 {
            let item = if self.reads_member(child) {
                quote! { item }
            } else {
                quote! { _ }
            };
            return quote! {
                let kp_items = kp.key("items");
                for (i, #item) in #iteration {
                    #member
                    #mark
                }
            };
        }
        let claim = self.claim_items(covered);
        let (admit, settle) = self.sole_admission(None, quote! { item }, child);
        quote! {
            let kp_items = kp.key("items");
            #claim
            for (i, item) in #iteration {
                #admit
                #member
                #mark
                #settle
            }
        }
    }

    /// `contains`, `minContains` and `maxContains`.
    pub(super) fn contains(&self, f: &mut Frame, contains: &ContainsCheck) -> TokenStream {
        let call = self.branch_call(
            Subject::Value,
            contains.schema,
            quote! { item },
            Some(quote! { &ip.index(i) }),
            quote! { &kp_contains },
            None,
        );
        let min_value = contains.min;
        let min = int(min_value);
        // Whether the loop may stop once the minimum is reached: not where
        // `ContainsCheck::exhaustive` says every item must be tried, that is with an upper
        // bound, or when the matches are annotations someone reads, which is known only at run
        // time (recording for the output formats, or this node tracking).
        let recording = self.recording();
        let may_stop = if contains.exhaustive(false) {
            None
        } else if f.may_track {
            Some(quote! { !#recording && !tracking })
        } else {
            Some(quote! { !#recording })
        };
        let too_few = if min_value > 0 {
            let failure = self.fail(
                f,
                contains.min_keyword,
                quote! { ip },
                quote! { rt::messages::min_contains(#min, count) },
            );
            quote! { if (count as u64) < #min { #failure } }
        } else {
            quote! {}
        };
        let too_many = match contains.max {
            Some(max) => {
                let max = int(max);
                let failure = self.fail(
                    f,
                    "maxContains",
                    quote! { ip },
                    quote! { rt::messages::max_contains(#max, count) },
                );
                quote! { if count as u64 > #max { #failure } }
            }
            None => quote! {},
        };
        let stop = match (may_stop, min_value) {
            (None, _) => quote! {},
            (Some(may_stop), 0) => quote! { if #may_stop { break; } },
            (Some(may_stop), _) => quote! { if #may_stop && count as u64 >= #min { break; } },
        };
        let counts = min_value > 0 || contains.max.is_some();
        let (count_decl, count_up) = if counts {
            (quote! { let mut count = 0usize; }, quote! { count += 1; })
        } else {
            (quote! {}, quote! {})
        };
        let mark = f.mark(quote! { i });
        quote! {
            let kp_contains = kp.key("contains");
            #count_decl
            for (i, item) in items.iter().enumerate() {
                let held = #call;
                if held {
                    #count_up
                    #mark
                    #stop
                }
            }
            #too_few
            #too_many
        }
    }
}
