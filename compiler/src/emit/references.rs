//! `$ref` and `$dynamicRef`.

use super::{Admission, Cx, Frame, int, sub};
use proc_macro2::TokenStream;
use quote::quote;
use toolschema_core::ir::{DynamicTargets, NodeId};

impl Cx<'_> {
    /// `$ref`, or a `$dynamicRef` whose target cannot vary (`keyword` names which).
    pub(super) fn reference(&self, f: &mut Frame, target: NodeId, keyword: &str) -> TokenStream {
        let hand = if keyword == "$ref" {
            f.hand(Admission::Ref)
        } else {
            quote! {}
        };
        let call = self.call(
            f.subject,
            target,
            &quote! { mode },
            quote! { v },
            quote! { ip },
            quote! { &kp.key(#keyword) },
            f.marks.clone(),
        );
        let s = sub(f, call);
        quote! { #hand #s }
    }

    /// A `$dynamicRef` whose target depends on the dynamic scope: the outermost resource in
    /// scope that defines the anchor wins, each candidate resource tested once.
    pub(super) fn dynamic_reference(&self, f: &mut Frame, targets: &DynamicTargets) -> TokenStream {
        let DynamicTargets {
            fallback,
            candidates,
        } = targets;
        let mut arms = Vec::new();
        let mut calls = Vec::new();
        let call = |target: NodeId| {
            self.call(
                f.subject,
                target,
                &quote! { mode },
                quote! { v },
                quote! { ip },
                quote! { &kp.key("$dynamicRef") },
                f.marks.clone(),
            )
        };
        for (i, (r, n)) in candidates.iter().enumerate() {
            let idx = int(i as u64 + 1);
            let rr = int(r.0);
            arms.push(quote! { #rr => chosen = #idx, });
            let call = call(*n);
            calls.push(quote! { #idx => #call, });
        }
        let fallback_call = call(*fallback);
        let call = quote! {
            match chosen {
                #(#calls)*
                _ => #fallback_call,
            }
        };
        let s = sub(f, call);
        quote! {
            // The outermost resource in scope that defines the anchor wins.
            let mut chosen = 0usize;
            for resource in scope.resources() {
                match resource {
                    #(#arms)*
                    _ => {}
                }
            }
            #s
        }
    }
}
