//! Admitting the arguments to their limits in the passes that evaluate them (see
//! `toolschema_core::eval::admission`): the claim of a key pass or an `items` loop, and the
//! admission of each member before and after its evaluation.

use super::{Cx, int};
use proc_macro2::TokenStream;
use quote::quote;
use toolschema_core::ir::NodeId;

impl Cx<'_> {
    /// The claim of a key pass over the members of the object `v`: it admits them when `v`
    /// is the container awaited.
    pub(super) fn claim_members(&self) -> TokenStream {
        self.uses(|u| {
            u.instance = true;
            u.failures = true;
        });
        quote! { let claim = failures.claim(v, map.len())?; }
    }

    /// The claim of a pass over the first `covered` items of the array `v`
    /// (`Check::items_from_first`): it admits them when `v` is the container awaited and
    /// they are all its items.
    pub(super) fn claim_items(&self, covered: usize) -> TokenStream {
        self.uses(|u| {
            u.instance = true;
            u.failures = true;
        });
        if covered == usize::MAX {
            return quote! { let claim = failures.claim(v, items.len())?; };
        }
        let covered = int(covered as u64);
        quote! { let claim = failures.claim_items(v, items.len(), #covered)?; }
    }

    /// The admission of the member `value` (named `name`) of a claimed container, evaluated
    /// under `children`: the statements before its evaluation and after. A member whose
    /// subschemas apply no other is admitted whole at once, since nothing under it can claim;
    /// an item that passes a subschema passing only scalars needs no admission in the quick
    /// flavour (`Node::passes_only_scalars`: the claim counted it, and an item that fails
    /// ends the pass).
    pub(super) fn admission(
        &self,
        name: Option<TokenStream>,
        value: TokenStream,
        children: impl Iterator<Item = NodeId> + Clone,
    ) -> (TokenStream, TokenStream) {
        let nodes = children.map(|c| self.ir.node(c));
        let leaves = nodes.clone().all(|n| n.leaf);
        if name.is_none() && leaves && nodes.clone().any(|n| n.passes_only_scalars) {
            (
                quote! { if C { failures.admit_whole(claim, None, #value)?; } },
                quote! {},
            )
        } else if leaves {
            let name = name.map_or_else(|| quote! { None }, |n| quote! { Some(#n) });
            (
                quote! { failures.admit_whole(claim, #name, #value)?; },
                quote! {},
            )
        } else {
            let name = name.map_or_else(|| quote! { None }, |n| quote! { Some(#n) });
            (
                quote! { failures.admit(claim, #name, #value)?; },
                quote! { failures.settle(claim, #value)?; },
            )
        }
    }

    /// [`Cx::admission`] of a member that `child` alone evaluates, whenever the pass reaches
    /// it (an item, or a member `properties` names). In the quick flavour a member that
    /// passes a node claiming what passes (`Node::claims_what_passes`) was claimed, so it is
    /// settled only when collecting.
    pub(super) fn sole_admission(
        &self,
        name: Option<TokenStream>,
        value: TokenStream,
        child: NodeId,
    ) -> (TokenStream, TokenStream) {
        let (admit, settle) = self.admission(name, value, std::iter::once(child));
        if self.ir.node(child).claims_what_passes && !settle.is_empty() {
            (admit, quote! { if C { #settle } })
        } else {
            (admit, settle)
        }
    }
}
