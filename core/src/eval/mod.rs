//! The evaluation runtime: what the interpreter and generated validators both run on.
//!
//! Everything evaluation needs beyond the IR lives here, once, for both back ends:
//!
//! - [`Path`]: instance and keyword locations, linked on the stack, written out only when a
//!   failure is recorded;
//! - [`Scope`]: the dynamic scope `$dynamicRef` resolves against;
//! - [`Marks`]: evaluated-property and evaluated-item annotations;
//! - [`Sink`], [`Halt`] and [`Flow`]: the failures recorded, the one place that counts
//!   evaluation steps and depth, and the halt a limit produces (which passes through every
//!   applicator unchanged, so a limit can never turn into a match or a mismatch);
//! - [`member`](member::member) and [`same_name`](member::same_name): member lookup;
//! - the argument limits: the walk ([`arguments_hold`], [`check_arguments`]), and their
//!   [`admission`] during evaluation, which spares arguments within them the walk;
//! - the native stack evaluation recurses on, grown on the heap when it runs low
//!   ([`stack`]);
//! - the values generated code builds once ([`literal`]).
//!
//! Generated code reaches all of it through `toolschema::__private`, a list of re-exports.

pub mod admission;
pub mod arguments;
pub mod literal;
mod marks;
pub mod member;
mod path;
mod scope;
mod sink;
pub mod stack;
mod trace;

pub use admission::{Claim, Mark};
pub use arguments::{arguments_hold, check_argument_limits, check_arguments};
pub use marks::Marks;
pub use path::Path;
pub use scope::Scope;
pub use sink::{
    Annotates, COLLECT, Flow, Halt, Mode, QUICK, Sink, close_unit, evaluation,
    evaluation_not_object, finish, is_valid_admitting, not_an_object, quick_first, record,
    validate_admitting,
};
pub use trace::Trace;
pub(crate) use trace::{Entry, Unit};
