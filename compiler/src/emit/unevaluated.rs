//! `unevaluatedProperties` and `unevaluatedItems`: the members no other keyword evaluated,
//! read from the marks the node gathered.

use super::{Cx, Frame};
use proc_macro2::TokenStream;
use quote::quote;
use toolschema_core::ir::NodeId;

impl Cx<'_> {
    /// `unevaluatedProperties`, on the object `map`.
    pub(super) fn unevaluated_properties(&self, f: &mut Frame, child: NodeId) -> TokenStream {
        let member = self.member(
            f,
            child,
            quote! { value },
            quote! { &ip.key(key) },
            quote! { &kp_unevaluated },
            "unevaluatedProperties",
            quote! { Some(key) },
            quote! { None },
        );
        let value = if self.reads_member(child) {
            quote! { value }
        } else {
            quote! { _ }
        };
        quote! {
            let kp_unevaluated = kp.key("unevaluatedProperties");
            if !marks.all(map.len()) {
                for (i, (key, #value)) in map.iter().enumerate() {
                    if marks.get(i) {
                        continue;
                    }
                    #member
                    marks.set(i);
                }
            }
        }
    }

    /// `unevaluatedItems`, on the array `items`.
    pub(super) fn unevaluated_items(&self, f: &mut Frame, child: NodeId) -> TokenStream {
        let member = self.member(
            f,
            child,
            quote! { item },
            quote! { &ip.index(i) },
            quote! { &kp_unevaluated },
            "unevaluatedItems",
            quote! { None },
            quote! { Some(i) },
        );
        let item = if self.reads_member(child) {
            quote! { item }
        } else {
            quote! { _ }
        };
        quote! {
            let kp_unevaluated = kp.key("unevaluatedItems");
            if !marks.all(items.len()) {
                for (i, #item) in items.iter().enumerate() {
                    if marks.get(i) {
                        continue;
                    }
                    #member
                    marks.set(i);
                }
            }
        }
    }
}
