//! What generated validators name. Not a public API: its shape follows the code generator.
//!
//! Generated code reaches everything through `::toolschema::__private::…`, so a crate that
//! includes validators needs no dependency of its own on `serde_json` or on the runtime's
//! internal module layout. What it runs on is the evaluation runtime, [`crate::eval`].

pub use crate::content::{ContentEncoding, ContentMediaType};
pub use crate::error::{Error, Failure};
pub use crate::eval::admission::first_duplicate;
pub use crate::eval::literal::{multiple_of, number, pattern, value};
pub use crate::eval::member::{admits, discriminating_member, has_member, same_name};
pub use crate::eval::stack::{on_new_stack, stack_low};
pub use crate::eval::{
    Annotates, COLLECT, Halt, Marks, Mode, Path, QUICK, Scope, Sink, Trace,
    check_argument_limits as check_arguments, close_unit, evaluation, evaluation_not_object,
    is_valid_admitting, not_an_object, quick_first, record, validate_admitting,
};
pub use crate::format::Format;
pub use crate::json::{JsonType, TypeSet, equal, string_length};
pub use crate::messages;
pub use crate::number::{Bound, MultipleOf, is_integer};
pub use crate::options::Limits;
pub use crate::output::Evaluation;
pub use crate::regex::{Pattern, Shape, ascii_table, class_repeat_match};
pub use crate::validator::Validate;
pub use serde_json;
pub use serde_json::{Map, Number, Value};
pub use std::sync::LazyLock;
