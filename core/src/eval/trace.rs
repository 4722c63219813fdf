//! What an evaluation records for the output formats: one unit for every subschema applied,
//! with the failures and annotations of its keywords beneath it.
//!
//! The back ends only record; everything the output formats say (which annotations survive,
//! which keyword annotated which members, how a hierarchy condenses) is decided from the
//! units, once, in [`crate::output`].

use super::path::Path;
use crate::error::Failure;
use crate::output::Annotation;
use crate::pointer;
use serde_json::Value;
use std::borrow::Cow;

/// One recorded unit.
#[derive(Clone, Debug)]
pub(crate) struct Unit {
    /// The schema unit this one belongs to (`None` for the root).
    pub parent: Option<u32>,
    pub entry: Entry,
}

/// What a unit records.
#[derive(Clone, Debug)]
pub(crate) enum Entry {
    /// A subschema applied to the value at `instance_location`.
    Schema {
        instance_location: String,
        keyword_location: String,
        absolute_keyword_location: Cow<'static, str>,
        valid: bool,
    },
    /// A keyword that failed.
    Failure(Failure),
    /// A keyword that produced an annotation (kept whatever the subschema's result: only the
    /// verbose format shows those of failed subschemas).
    Annotation(Annotation),
}

/// What an evaluation for the output formats records: the units so far, and the schema units
/// still open, innermost last. Made empty, lent to [`Sink::for_output`](super::Sink::for_output)
/// and turned into an [`Evaluation`](crate::Evaluation) by [`evaluation`](super::evaluation).
#[derive(Debug, Default)]
pub struct Trace {
    pub(crate) units: Vec<Unit>,
    open: Vec<u32>,
}

impl Trace {
    fn add(&mut self, entry: Entry) -> u32 {
        let index = self.units.len() as u32;
        self.units.push(Unit {
            parent: self.open.last().copied(),
            entry,
        });
        index
    }

    /// Opens the unit of a subschema applied at `ip`, reached along `kp`.
    pub(crate) fn open(&mut self, ip: &Path<'_>, kp: &Path<'_>, absolute: Cow<'static, str>) {
        let index = self.add(Entry::Schema {
            instance_location: ip.pointer(),
            keyword_location: kp.pointer(),
            absolute_keyword_location: absolute,
            valid: false,
        });
        self.open.push(index);
    }

    /// Closes the innermost open unit with its result.
    pub(crate) fn close(&mut self, result: bool) {
        if let Some(index) = self.open.pop() {
            if let Entry::Schema { valid, .. } = &mut self.units[index as usize].entry {
                *valid = result;
            }
        }
    }

    /// Records a failure in the innermost open unit.
    pub(crate) fn fail(&mut self, failure: Failure) {
        self.add(Entry::Failure(failure));
    }

    /// Records an annotation of the innermost open unit's subschema, whose keyword location is
    /// `kp` and absolute location `absolute` (the keyword is appended to both).
    pub(crate) fn annotate(
        &mut self,
        ip: &Path<'_>,
        kp: &Path<'_>,
        absolute: &str,
        keyword: &str,
        value: Value,
    ) {
        let keyword_location = kp.key(keyword).pointer();
        let mut token = String::with_capacity(keyword.len() + 1);
        pointer::push_token(&mut token, keyword);
        let mut absolute_keyword_location = String::with_capacity(absolute.len() + token.len());
        absolute_keyword_location.push_str(absolute);
        pointer::push_fragment_encoded(&mut absolute_keyword_location, &token);
        self.add(Entry::Annotation(Annotation::new(
            ip.pointer(),
            keyword_location,
            Some(absolute_keyword_location),
            keyword.to_owned(),
            value,
        )));
    }
}
