//! Calls between node functions: their names, the class member each call serves, the URIs a
//! function names, and the arguments that travel with a call.

use super::{Cx, Subject, int, takes_out};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use toolschema_core::ir::{Ir, NodeId};

/// Which flavour a call runs in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Flavour {
    /// The calling function's own (`mode`).
    Same,
    /// First failure (`rt::QUICK`).
    Quick,
    /// Every failure (`rt::COLLECT`).
    Collect,
}

/// A URI in generated code: known when the function serves one node, looked up by the
/// member `at` when it serves a class.
pub(super) enum Uri {
    Static(String),
    /// The URIs of a class's members, and the expression that picks the one at `at`.
    Table(Vec<String>, TokenStream),
}

impl Uri {
    /// The URI, as a `&str` expression.
    pub(super) fn expr(&self) -> TokenStream {
        match self {
            Uri::Static(s) => quote! { #s },
            Uri::Table(_, t) => t.clone(),
        }
    }

    /// The URI followed by `suffix` (a JSON Pointer tail), as a `&'static str` expression:
    /// for a class, a table of the joined URIs of its members.
    pub(super) fn join(&self, suffix: &str) -> TokenStream {
        match self {
            Uri::Static(s) => {
                let joined = format!("{s}{suffix}");
                quote! { #joined }
            }
            Uri::Table(uris, _) => {
                let n = int(uris.len() as u64);
                let joined = uris.iter().map(|u| format!("{u}{suffix}"));
                quote! { { static ABSOLUTE: [&str; #n] = [#(#joined),*]; ABSOLUTE[at] } }
            }
        }
    }
}

/// `n{id}_{where}`: the id keeps names unique, the JSON Pointer tail says which subschema.
pub(super) fn fn_name(ir: &Ir, id: NodeId) -> syn::Ident {
    let uri = &ir.node(id).uri;
    let fragment = uri.rsplit_once('#').map(|(_, f)| f).unwrap_or("");
    let mut tail = String::new();
    for c in fragment.chars() {
        if c.is_ascii_alphanumeric() {
            tail.push(c.to_ascii_lowercase());
        } else if !tail.ends_with('_') {
            tail.push('_');
        }
    }
    let tail = tail.trim_matches('_');
    let tail = &tail[tail.len().saturating_sub(32)..];
    let tail = tail.trim_start_matches('_');
    if tail.is_empty() {
        format_ident!("n{}", id.0)
    } else {
        format_ident!("n{}_{}", id.0, tail)
    }
}

/// The member-name flavour of node `id`'s function.
pub(super) fn name_fn_name(ir: &Ir, id: NodeId) -> syn::Ident {
    format_ident!("{}_on_name", fn_name(ir, id))
}

/// The name of the out-of-line collecting flavour of a leaf's function (see
/// [`Cx::collecting_leaf`]).
pub(super) fn collecting_fn_name(ir: &Ir, id: NodeId) -> syn::Ident {
    format_ident!("{}_collecting", fn_name(ir, id))
}

impl<'a> Cx<'a> {
    /// The out-of-line collecting flavour of leaf `representative`'s function, to call
    /// where it would otherwise be inlined in that flavour: a leaf's function is inlined
    /// (its quick flavour is a few comparisons), but its collecting flavour, which runs only
    /// for a member that failed the quick check, records failures with their locations and
    /// messages; inlined at every call, it was a quarter of the MCP tools' validators.
    pub(super) fn collecting_leaf(&self, representative: NodeId) -> syn::Ident {
        self.collecting.borrow_mut().push(representative);
        collecting_fn_name(self.ir, representative)
    }

    /// The out-of-line collecting flavour of leaf `id`'s function (see
    /// [`Cx::collecting_leaf`]). Cold: it runs for a member that failed the quick check, or
    /// when recording for the output formats.
    pub(super) fn collecting_fn(&self, id: NodeId) -> TokenStream {
        let name = fn_name(self.ir, id);
        let collecting = collecting_fn_name(self.ir, id);
        let (at_param, at) = if self.sharing.members(id).len() > 1 {
            (quote! { at: usize, }, quote! { at, })
        } else {
            (quote! {}, quote! {})
        };
        let (scope_param, scope) = if self.ir.dynamic_scope {
            (quote! { scope: &rt::Scope<'_>, }, quote! { scope, })
        } else {
            (quote! {}, quote! {})
        };
        let doc = format!(" [`{name}`] collecting, out of line.");
        quote! {
            #[doc = #doc]
            #[cold]
            #[inline(never)]
            pub(super) fn #collecting(
                #at_param
                v: &Value,
                ip: &rt::Path<'_>,
                kp: &rt::Path<'_>,
                #scope_param
                depth: usize,
                failures: &mut rt::Sink,
            ) -> Result<bool, rt::Halt> {
                #name(rt::COLLECT, #at v, ip, kp, #scope depth, failures)
            }
        }
    }

    pub(super) fn scope_arg(&self) -> TokenStream {
        if self.ir.dynamic_scope {
            self.uses(|u| u.scope = true);
            quote! { scope, }
        } else {
            quote! {}
        }
    }

    /// The call of the root node `id`'s function on `instance`, collecting or quick, with the
    /// sink expression `sink` (a `&mut rt::Sink`).
    pub(super) fn call_root(&self, id: NodeId, collect: bool, sink: TokenStream) -> TokenStream {
        let name = fn_name(self.ir, self.sharing.representative(id));
        let at = if self.sharing.members(id).len() > 1 {
            let i = int(self.sharing.index(id) as u64);
            quote! { #i, }
        } else {
            quote! {}
        };
        let node = self.ir.node(id);
        let scope = if self.ir.dynamic_scope {
            let r = int(node.resource.0);
            quote! { &rt::Scope::root(#r), }
        } else {
            quote! {}
        };
        let out = if takes_out(node) {
            quote! { , None }
        } else {
            quote! {}
        };
        let mode = if collect {
            quote! { rt::COLLECT }
        } else {
            quote! { rt::QUICK }
        };
        quote! { #name(#mode, #at instance, &rt::Path::ROOT, &rt::Path::ROOT, #scope 0, #sink #out) }
    }

    /// A call of node `id`'s function applied to `subject`; `mode` is this function's `mode`
    /// (the same flavour) or `rt::QUICK`, `ip` the callee's instance location (`None` for the
    /// caller's own), `marks` the `out` argument when the caller may be tracking.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn call(
        &self,
        subject: Subject,
        id: NodeId,
        mode: Flavour,
        v: TokenStream,
        ip: Option<TokenStream>,
        kp: TokenStream,
        marks: Option<TokenStream>,
    ) -> TokenStream {
        let flow = self.call_flow(subject, id, mode, v, ip, kp, marks);
        quote! { #flow? }
    }

    /// [`Cx::call`] as the result of the call, its halt not yet passed on.
    #[allow(clippy::too_many_arguments)]
    fn call_flow(
        &self,
        subject: Subject,
        id: NodeId,
        mode: Flavour,
        v: TokenStream,
        ip: Option<TokenStream>,
        kp: TokenStream,
        marks: Option<TokenStream>,
    ) -> TokenStream {
        let class = self.sharing.members(id);
        let representative = class[0];
        let naming = subject == Subject::Name;
        let name = if naming {
            self.called_names.borrow_mut().push(representative);
            name_fn_name(self.ir, representative)
        } else {
            self.called.borrow_mut().push(representative);
            fn_name(self.ir, representative)
        };
        // Which member of the callee's class each member of this function's class calls.
        let at = if class.len() > 1 {
            let indices: Vec<usize> = self
                .current_members()
                .iter()
                .map(|&m| self.sharing.index(self.counterpart(m, id)))
                .collect();
            if indices.iter().all(|&i| i == indices[0]) {
                let i = int(indices[0] as u64);
                quote! { #i, }
            } else {
                // A `static` table exists once; an array literal would be built on the stack
                // at every call.
                let n = int(indices.len() as u64);
                let indices = indices.iter().map(|&i| int(i as u64));
                self.uses(|u| u.at = true);
                quote! { { static AT: [usize; #n] = [#(#indices),*]; AT[at] }, }
            }
        } else {
            quote! {}
        };
        let scope = self.scope_arg();
        self.uses(|u| {
            u.depth = true;
            u.failures = true;
            u.ip = true;
            u.kp = true;
            u.instance = true;
        });
        // The quick flavour builds no location: it is given the caller's own, and the
        // callee's is never built. A halt it meets either ends a first-failure check, which
        // reports none, or is located by running the subschema again collecting (see
        // `branch_call`). A member name is checked in the quick flavour only, for collecting
        // too: it keeps its locations where a halt can be reached.
        let own = quote! { ip };
        // `None`: the caller's own instance location.
        let built = ip.is_some();
        let ip = ip.unwrap_or_else(|| own.clone());
        let (quick_ip, quick_kp) = if naming && !self.bounded() {
            (ip.clone(), kp.clone())
        } else {
            (own.clone(), quote! { kp })
        };
        if naming {
            // The name flavour is quick and tracks nothing; the instance is always `key`.
            return quote! { #name(rt::QUICK, #at key, #quick_ip, #quick_kp, #scope depth, failures) };
        }
        let out = if takes_out(self.ir.node(id)) {
            let m = marks.unwrap_or_else(|| quote! { None });
            quote! { , #m }
        } else {
            quote! {}
        };
        // A subschema that applies no other is checked quick first when collecting without
        // recording: a value that passes has no failure to collect, and the quick check, small
        // enough to be inlined, spares it the call that opens and closes a unit.
        if mode == Flavour::Same && self.ir.node(id).leaf && out.is_empty() {
            let collecting = self.collecting_leaf(representative);
            return quote! {
                rt::quick_first::<C>(
                    failures,
                    |failures| #name(rt::QUICK, #at #v, #quick_ip, #quick_kp, #scope depth, failures),
                    |failures| #collecting(#at #v, #ip, #kp, #scope depth, failures),
                )
            };
        }
        if mode == Flavour::Collect && self.ir.node(id).leaf && out.is_empty() {
            let collecting = self.collecting_leaf(representative);
            return quote! { #collecting(#at #v, #ip, #kp, #scope depth, failures) };
        }
        let (mode, ip, kp) = match mode {
            Flavour::Same => {
                self.uses(|u| u.mode = true);
                // Built only when collecting: `rt::Path::collecting` drops it otherwise.
                let ip = if built {
                    quote! { rt::Path::collecting::<C>(#ip, ip) }
                } else {
                    own
                };
                let kp = quote! { rt::Path::collecting::<C>(#kp, kp) };
                (quote! { mode }, ip, kp)
            }
            Flavour::Quick => (quote! { rt::QUICK }, quick_ip, quick_kp),
            Flavour::Collect => (quote! { rt::COLLECT }, ip, kp),
        };
        quote! { #name(#mode, #at #v, #ip, #kp, #scope depth, failures #out) }
    }

    /// A call of node `id` as a subschema whose failure does not fail this one (an `anyOf`
    /// branch, the subschema of `not`, `if`, `contains`): the quick check, except when
    /// recording for the output formats, where every unit counts. An `if` expression, bound to
    /// a variable before it is tested.
    pub(super) fn branch_call(
        &self,
        subject: Subject,
        id: NodeId,
        v: TokenStream,
        ip: Option<TokenStream>,
        kp: TokenStream,
        marks: Option<TokenStream>,
    ) -> TokenStream {
        let quick = self.call_flow(
            subject,
            id,
            Flavour::Quick,
            v.clone(),
            ip.clone(),
            kp.clone(),
            marks.clone(),
        );
        // A member name is only ever checked in the quick flavour.
        if subject == Subject::Name {
            return quote! { #quick? };
        }
        let collect = self.call_flow(subject, id, Flavour::Collect, v, ip, kp, marks);
        let recording = self.recording();
        // A subschema that applies no other claims nothing, and costs no step.
        if self.ir.node(id).leaf {
            return quote! { if #recording { #collect? } else { #quick? } };
        }
        // A branch that fails may have stopped halfway through admitting a container to the
        // argument limits: admission returns to where it was before it (see
        // `eval::admission`).
        if self.bounded() {
            return quote! {
                if #recording {
                    #collect?
                } else {
                    let mark = failures.mark();
                    let held = #quick?;
                    if !held {
                        failures.rollback(mark);
                    }
                    held
                }
            };
        }
        // The quick flavour locates no halt of an evaluation limit. Collecting, a branch that
        // halts runs again from where it began, collecting, and halts at the same place with
        // its location: until the halt, the quick run met no failure, and the collecting run
        // takes the same steps in the same order.
        quote! {
            'branch: {
                if !#recording {
                    let mark = failures.mark();
                    let steps = failures.steps_left();
                    match #quick {
                        Ok(held) => {
                            if !held {
                                failures.rollback(mark);
                            }
                            break 'branch held;
                        }
                        Err(halt) => {
                            if !C {
                                return Err(halt);
                            }
                            failures.resume(mark, steps);
                        }
                    }
                }
                #collect?
            }
        }
    }

    /// The members of the class whose function is being emitted.
    pub(super) fn current_members(&self) -> &[NodeId] {
        self.sharing.members(self.current.get())
    }

    /// The node `member` references where the representative references `id`; `member`
    /// itself for the representative.
    pub(super) fn counterpart(&self, member: NodeId, id: NodeId) -> NodeId {
        if member == self.current.get() {
            id
        } else {
            self.sharing.counterpart(member, id)
        }
    }

    /// The URI of the node being emitted.
    pub(super) fn own_uri(&self) -> Uri {
        let members = self.current_members();
        if members.len() > 1 {
            let uris = members.iter().map(|&m| self.ir.node(m).uri.clone());
            Uri::Table(uris.collect(), quote! { URIS[at] })
        } else {
            Uri::Static(self.ir.node(self.current.get()).uri.clone())
        }
    }

    /// The annotations of the node being emitted (see [`KeywordAnnotation`]), as a
    /// `&'static [rt::Annotates]` expression: for a class whose members' differ, picked by
    /// the member `at`.
    pub(super) fn annotations(&self) -> TokenStream {
        let members = self.current_members();
        let list = |m: NodeId| {
            let entries = self.ir.node(m).annotations.iter().map(|a| {
                let keyword = a.keyword.as_ref();
                let json = a.value.to_string();
                let strings_only = a.strings_only;
                quote! { (#keyword, #json, #strings_only) }
            });
            quote! { &[#(#entries),*] }
        };
        let first = &self.ir.node(members[0]).annotations;
        if members
            .iter()
            .all(|&m| self.ir.node(m).annotations == *first)
        {
            return list(members[0]);
        }
        let lists = members.iter().map(|&m| list(m));
        let n = int(members.len() as u64);
        quote! { { static ANNOTATIONS: [&[rt::Annotates]; #n] = [#(#lists),*]; ANNOTATIONS[at] } }
    }

    /// The URI of `id`, a subschema the node being emitted references.
    pub(super) fn uri_of(&self, id: NodeId) -> Uri {
        let uris: Vec<&str> = self
            .current_members()
            .iter()
            .map(|&m| self.ir.node(self.counterpart(m, id)).uri.as_str())
            .collect();
        if uris.iter().all(|u| *u == uris[0]) {
            Uri::Static(uris[0].to_owned())
        } else {
            let n = int(uris.len() as u64);
            self.uses(|u| u.at = true);
            Uri::Table(
                uris.iter().map(|u| u.to_string()).collect(),
                quote! { { static CHILD_URIS: [&str; #n] = [#(#uris),*]; CHILD_URIS[at] } },
            )
        }
    }
}
