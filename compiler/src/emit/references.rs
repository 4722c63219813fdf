//! `$ref` and `$dynamicRef`.

use super::{Cx, Flavour, Frame, int};
use proc_macro2::TokenStream;
use quote::quote;
use toolschema_core::ir::{DynamicTargets, NodeId};

impl Cx<'_> {
    /// `$ref`, or a `$dynamicRef` whose target cannot vary (`keyword` names which).
    pub(super) fn reference(&self, f: &mut Frame, target: NodeId, keyword: &str) -> TokenStream {
        let call = self.call(
            f.subject,
            target,
            Flavour::Same,
            quote! { v },
            None,
            quote! { &kp.key(#keyword) },
            f.marks.clone(),
        );
        self.sub(f, call)
    }

    /// A `$dynamicRef` whose target depends on the dynamic scope: that of the outermost
    /// candidate resource in scope (`Scope::outermost`, as the interpreter picks it).
    pub(super) fn dynamic_reference(&self, f: &mut Frame, targets: &DynamicTargets) -> TokenStream {
        let DynamicTargets {
            fallback,
            candidates,
        } = targets;
        let call = |target: NodeId| {
            self.call(
                f.subject,
                target,
                Flavour::Same,
                quote! { v },
                None,
                quote! { &kp.key("$dynamicRef") },
                f.marks.clone(),
            )
        };
        let arms = candidates.iter().enumerate().map(|(i, (_, n))| {
            let i = int(i as u64);
            let call = call(*n);
            quote! { ::core::option::Option::Some(#i) => #call, }
        });
        let arms: Vec<TokenStream> = arms.collect();
        let fallback = call(*fallback);
        let n = int(candidates.len() as u64);
        self.uses(|u| u.scope = true);
        let resources = candidates.iter().map(|(r, _)| int(r.0));
        let s = self.sub(
            f,
            quote! {
                match scope.outermost(&CANDIDATES, |&r| r) {
                    #(#arms)*
                    _ => #fallback,
                }
            },
        );
        quote! {
            static CANDIDATES: [u32; #n] = [#(#resources),*];
            #s
        }
    }
}
