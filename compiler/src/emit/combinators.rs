//! The in-place applicators: `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`.

use super::{Cx, Flavour, Frame, Subject, int, name_dispatch};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use toolschema_core::ir::{Branches, Condition, Discriminator, NodeId};
use toolschema_core::json::{JsonType, TypeSet};

impl Cx<'_> {
    /// `allOf`: every member on the value.
    pub(super) fn all_of(&self, f: &mut Frame, schemas: &[NodeId]) -> TokenStream {
        let mut out = Vec::new();
        for (i, &child) in schemas.iter().enumerate() {
            let i = int(i as u64);
            let call = self.call(
                f.subject,
                child,
                Flavour::Same,
                quote! { v },
                None,
                quote! { &kp.key("allOf").index(#i) },
                f.marks.clone(),
            );
            out.push(self.sub(f, call));
        }
        quote! { #(#out)* }
    }

    /// `anyOf`: the first branch that holds settles it, unless annotations are read from every
    /// branch that holds (tracking), or every unit counts (recording).
    pub(super) fn any_of(&self, f: &mut Frame, branches: &Branches) -> TokenStream {
        let filter = BranchFilter::new(branches, f.subject, "any_of_member");
        let setup = filter.setup(self);
        let quick: Vec<TokenStream> = branches
            .schemas
            .iter()
            .enumerate()
            .filter_map(|(i, &child)| {
                let guards = filter.guards(i)?;
                let i = int(i as u64);
                let call = self.branch_call(
                    f.subject,
                    child,
                    quote! { v },
                    None,
                    quote! { &kp.key("anyOf").index(#i) },
                    None,
                );
                let recording = self.recording();
                Some(self.guarded(
                    guards,
                    quote! {
                        let held = #call;
                        if held {
                            if !#recording {
                                break 'any_of true;
                            }
                            any = true;
                        }
                    },
                ))
            })
            .collect();
        let failure = self.fail(f, "anyOf", quote! { ip }, quote! { rt::messages::any_of() });
        // A member name is a string: when no branch allows one, none can hold.
        if quick.is_empty() {
            f.fails_always = true;
            return quote! {};
        }
        // Recording for the output formats runs every branch.
        let quick = quote! { 'any_of: { let mut any = false; #(#quick)* any } };
        if !f.may_track {
            return quote! { #setup if !(#quick) { #failure } };
        }
        // Annotations come from every branch that matches, so none may be skipped.
        let all: Vec<TokenStream> = branches
            .schemas
            .iter()
            .enumerate()
            .filter_map(|(i, &child)| {
                let guards = filter.guards(i)?;
                let i = int(i as u64);
                let call = self.branch_call(
                    f.subject,
                    child,
                    quote! { v },
                    None,
                    quote! { &kp.key("anyOf").index(#i) },
                    Some(quote! { Some(&mut branch) }),
                );
                let branch = quote! {
                    let mut branch = rt::Marks::default();
                    let held = #call;
                    if held {
                        marks.merge(&branch);
                        any = true;
                    }
                };
                Some(self.guarded(guards, branch))
            })
            .collect();
        quote! {
            #setup
            let any = if tracking {
                let mut any = false;
                #(#all)*
                any
            } else {
                #quick
            };
            if !any { #failure }
        }
    }

    /// `oneOf`: stops at a second branch that holds, unless every unit counts (recording);
    /// the marks of the one that holds are kept.
    pub(super) fn one_of(&self, f: &mut Frame, branches: &Branches) -> TokenStream {
        let filter = BranchFilter::new(branches, f.subject, "one_of_member");
        let setup = filter.setup(self);
        let tracks = f.may_track;
        let list: Vec<TokenStream> = branches
            .schemas
            .iter()
            .enumerate()
            .filter_map(|(i, &child)| {
                let guards = filter.guards(i)?;
                let i = int(i as u64);
                let m = tracks.then(|| quote! { if tracking { Some(&mut branch) } else { None } });
                let call = self.branch_call(
                    f.subject,
                    child,
                    quote! { v },
                    None,
                    quote! { &kp.key("oneOf").index(#i) },
                    m,
                );
                let (decl, keep) = if tracks {
                    (
                        quote! { let mut branch = rt::Marks::default(); },
                        quote! { kept = branch; },
                    )
                } else {
                    (quote! {}, quote! {})
                };
                let recording = self.recording();
                let branch = quote! {
                    #decl
                    let held = #call;
                    if held {
                        if first.is_none() {
                            first = Some(#i);
                            #keep
                        } else if second.is_none() {
                            second = Some(#i);
                            if !#recording {
                                break 'one_of;
                            }
                        }
                    }
                };
                Some(self.guarded(guards, branch))
            })
            .collect();
        let none = self.fail(
            f,
            "oneOf",
            quote! { ip },
            quote! { rt::messages::one_of_none() },
        );
        // A member name is a string: when no branch allows one, none can hold.
        if list.is_empty() {
            f.fails_always = true;
            return quote! {};
        }
        let (kept_decl, merge) = if tracks {
            (
                quote! { let mut kept = rt::Marks::default(); },
                quote! { marks.merge(&kept); },
            )
        } else {
            (quote! {}, quote! {})
        };
        let many = self.fail(
            f,
            "oneOf",
            quote! { ip },
            quote! { rt::messages::one_of_many(a, b) },
        );
        // The two branches that hold name themselves in the message, which a member name,
        // checked in quick mode, never records.
        let two = if f.subject == Subject::Name {
            quote! { (Some(_), Some(_)) }
        } else {
            quote! { (Some(a), Some(b)) }
        };
        quote! {
            #setup
            let mut first: Option<usize> = None;
            let mut second: Option<usize> = None;
            #kept_decl
            'one_of: {
                #(#list)*
            }
            match (first, second) {
                (Some(_), None) => { #merge }
                (None, _) => { #none }
                #two => { #many }
            }
        }
    }

    /// `not`.
    pub(super) fn not(&self, f: &mut Frame, child: NodeId) -> TokenStream {
        let call = self.branch_call(
            f.subject,
            child,
            quote! { v },
            None,
            quote! { &kp.key("not") },
            None,
        );
        let failure = self.fail(f, "not", quote! { ip }, quote! { rt::messages::not() });
        quote! {
            let held = #call;
            if held { #failure }
        }
    }

    /// `if`, with `then` or `else` by its verdict; the marks of `if` count when it holds.
    pub(super) fn condition(&self, f: &mut Frame, cond: &Condition) -> TokenStream {
        let tracks = f.may_track;
        let m = tracks.then(|| quote! { if tracking { Some(&mut branch) } else { None } });
        let call = self.branch_call(
            f.subject,
            cond.if_,
            quote! { v },
            None,
            quote! { &kp.key("if") },
            m,
        );
        let (decl, merge) = if tracks {
            (
                quote! { let mut branch = rt::Marks::default(); },
                quote! { marks.merge(&branch); },
            )
        } else {
            (quote! {}, quote! {})
        };
        let mut applied = |child: NodeId, keyword: &str| {
            let call = self.call(
                f.subject,
                child,
                Flavour::Same,
                quote! { v },
                None,
                quote! { &kp.key(#keyword) },
                f.marks.clone(),
            );
            self.sub(f, call)
        };
        let then = cond.then.map(|then| applied(then, "then"));
        let else_ = cond.else_.map(|else_| applied(else_, "else"));
        let holds = match (tracks, then, else_) {
            // Nothing depends on the verdict, but a limit reached inside still halts.
            (false, None, None) => quote! { let _ = #call; },
            (false, None, Some(else_)) => quote! { let held = #call; if !held { #else_ } },
            (_, then, None) => quote! { let held = #call; if held { #merge #then } },
            (_, then, Some(else_)) => {
                quote! { let held = #call; if held { #merge #then } else { #else_ } }
            }
        };
        quote! {
            #decl
            #holds
        }
    }

    /// `body` run only where every guard holds (see [`BranchFilter::guards`]).
    fn guarded(&self, guards: Vec<TokenStream>, body: TokenStream) -> TokenStream {
        guards
            .into_iter()
            .rev()
            .fold(body, |body, guard| quote! { if #guard { #body } })
    }
}

/// The IR's [`BranchRules`] of an `anyOf` / `oneOf`, as tests written into generated code
/// (the discriminating member read into `var`).
struct BranchFilter<'a> {
    discriminator: Option<&'a Discriminator>,
    /// Whether each discriminator value picks one branch (see [`Branches::picks`]).
    picks: bool,
    types: Option<&'a [TypeSet]>,
    /// The member-name flavour: the instance is a string, which no discriminator reads.
    naming: bool,
    var: &'static str,
    /// How many branches there are.
    branches: usize,
}

impl<'a> BranchFilter<'a> {
    fn new(branches: &'a Branches, subject: Subject, var: &'static str) -> BranchFilter<'a> {
        let naming = subject == Subject::Name;
        let rules = branches.rules();
        let discriminator = rules.discriminator.filter(|_| !naming);
        BranchFilter {
            discriminator,
            picks: discriminator.is_some() && branches.picks.is_some(),
            types: rules.types,
            naming,
            var,
            branches: branches.schemas.len(),
        }
    }

    /// The statements that read the discriminating member, if there is one; the guards and
    /// the pick also read the function's `recording` local (see `Cx::recording`).
    fn setup(&self, cx: &Cx) -> TokenStream {
        let guarded = (0..self.branches).any(|i| self.guards(i).is_some_and(|g| !g.is_empty()));
        if !guarded && !self.picks {
            return quote! {};
        }
        cx.recording();
        let member = self
            .discriminator
            .map(|d| discriminator_setup(d, self.var, self.picks));
        quote! { #member }
    }

    /// The tests under which branch `i` runs; `None` when it cannot hold (a member name is
    /// a string, and the branch allows none). Each holds when recording for the output
    /// formats, where a branch ruled out still has its failures to report.
    fn guards(&self, i: usize) -> Option<Vec<TokenStream>> {
        let mut guards = Vec::new();
        if let Some(&t) = self
            .types
            .and_then(|t| t.get(i))
            .filter(|&&t| t != TypeSet::ANY)
        {
            if self.naming {
                if !t.contains(JsonType::String) {
                    return None;
                }
            } else {
                let bits = int(t.bits());
                guards.push(quote! { recording || rt::TypeSet::from_bits(#bits).matches(v) });
            }
        }
        guards.extend(
            self.discriminator
                .and_then(|d| admits(d, i, self.var, self.picks)),
        );
        Some(guards)
    }
}

/// The discriminating member of `v`, in `var`; when the values pick one branch each, also the
/// picked branch in `{var}_pick`, encoded as the interpreter's `ir::Picks::pick` encodes it:
/// its index, `usize::MAX` (`Picks::ABSENT`) when no branch is ruled out (the member is
/// absent, or the sink records) and `usize::MAX - 1` (`Picks::NOTHING`) when it is none of
/// the values.
fn discriminator_setup(d: &Discriminator, var: &str, picks: bool) -> TokenStream {
    let property = &d.property;
    let member = format_ident!("{var}");
    if !picks {
        return quote! { let #member = rt::discriminating_member(v, #property); };
    }
    let pick = format_ident!("{var}_pick");
    let arms: Vec<(&str, TokenStream)> = d
        .values
        .iter()
        .enumerate()
        .flat_map(|(i, values)| {
            let i = int(i as u64);
            values
                .iter()
                .flatten()
                .map(move |value| (value.as_str(), quote! { break 'pick #i; }))
        })
        .collect();
    let dispatch = name_dispatch(quote! { s }, &arms);
    quote! {
        let #member = rt::discriminating_member(v, #property);
        let #pick: usize = match #member {
            _ if recording => usize::MAX,
            None => usize::MAX,
            Some(Value::String(s)) => 'pick: {
                #dispatch
                usize::MAX - 1
            }
            Some(_) => usize::MAX - 1,
        };
    }
}

/// The test that branch `i` may hold given the discriminating member in `var` (and, when
/// `picks`, the branch it picked, which rules out none when the sink records), when the
/// discriminator constrains that branch.
fn admits(d: &Discriminator, i: usize, var: &str, picks: bool) -> Option<TokenStream> {
    let values = d.values[i].as_ref()?;
    let member = format_ident!("{var}");
    if picks {
        let pick = format_ident!("{var}_pick");
        if values.is_empty() {
            return Some(quote! { #pick == usize::MAX });
        }
        let i = int(i as u64);
        return Some(quote! { #pick == #i || #pick == usize::MAX });
    }
    if values.is_empty() {
        return Some(quote! { recording || #member.is_none() });
    }
    Some(quote! { recording || rt::admits(#member, &[#(#values),*]) })
}
