//! The specification's output formats and the annotations evaluation produces (2020-12 core,
//! §12 "Output Formatting").
//!
//! [`Validate::evaluate`](crate::Validate::evaluate) records one unit for every subschema it
//! applies, with the failures and annotations of its keywords beneath it; both back ends
//! record the same units. Everything the formats say is decided here, from those units:
//!
//! - which annotations survive: those whose every enclosing subschema holds (the verbose
//!   format shows the others too);
//! - the annotations of the applicators that evaluate members (`properties`,
//!   `patternProperties`, `additionalProperties`, `unevaluatedProperties`: the names they
//!   evaluated; `prefixItems`: the largest index; `items`, `unevaluatedItems`: `true`;
//!   `contains`: the indices that matched), read from the units of the subschemas each one
//!   applied;
//! - the four formats: `flag`, `basic` (a flat list), `detailed` (the hierarchy condensed:
//!   units without children dropped, units with one child replaced by it) and `verbose`
//!   (every unit).
//!
//! `basic` always has the root unit around its list, even when the list holds one unit (the
//! form the test suite's README calls ambiguous): a reader can then always find `errors` or
//! `annotations` at the top.
//!
//! ```
//! use serde_json::json;
//! use toolschema::{Validate, Validator};
//!
//! let v = Validator::new(&json!({
//!     "properties": {"path": {"type": "string", "title": "Path"}},
//! })).unwrap();
//! let evaluation = v.evaluate(&json!({"path": "/tmp"})).unwrap();
//! assert!(evaluation.is_valid());
//! let titles: Vec<_> = evaluation.annotations().filter(|a| a.keyword() == "title").collect();
//! assert_eq!(titles[0].instance_location(), "/path");
//! assert_eq!(titles[0].value(), &json!("Path"));
//! assert_eq!(evaluation.flag(), json!({"valid": true}));
//! ```

mod derive;
mod formats;

use crate::error::{Error, Failure};
use crate::eval::{Entry, Halt, Trace, Unit};
use serde_json::Value;

/// One annotation: what a keyword says about the value at an instance location.
///
/// ```
/// use serde_json::json;
/// use toolschema::{Validate, Validator};
///
/// let v = Validator::new(&json!({"description": "A search", "deprecated": true})).unwrap();
/// let evaluation = v.evaluate(&json!({})).unwrap();
/// let deprecated = evaluation.annotations().find(|a| a.keyword() == "deprecated").unwrap();
/// assert_eq!(deprecated.keyword_location(), "/deprecated");
/// assert_eq!(deprecated.absolute_keyword_location(), Some("toolschema:///schema.json#/deprecated"));
/// assert_eq!(deprecated.value(), &json!(true));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Annotation {
    instance_location: String,
    keyword_location: String,
    absolute_keyword_location: Option<String>,
    keyword: String,
    value: Value,
}

impl Annotation {
    pub(crate) fn new(
        instance_location: String,
        keyword_location: String,
        absolute_keyword_location: Option<String>,
        keyword: String,
        value: Value,
    ) -> Annotation {
        Annotation {
            instance_location,
            keyword_location,
            absolute_keyword_location,
            keyword,
            value,
        }
    }

    /// JSON Pointer to the value annotated.
    pub fn instance_location(&self) -> &str {
        &self.instance_location
    }

    /// JSON Pointer to the keyword along the evaluation path (through `$ref`s).
    pub fn keyword_location(&self) -> &str {
        &self.keyword_location
    }

    /// The absolute URI of the keyword in its schema resource.
    pub fn absolute_keyword_location(&self) -> Option<&str> {
        self.absolute_keyword_location.as_deref()
    }

    /// The keyword, such as `title` or `properties`.
    pub fn keyword(&self) -> &str {
        &self.keyword
    }

    /// The annotation's value: the keyword's value for the meta-data, format, content and
    /// unknown keywords; for the applicators, what they evaluated.
    pub fn value(&self) -> &Value {
        &self.value
    }
}

/// The result of [`Validate::evaluate`](crate::Validate::evaluate): the verdict, every unit of
/// the evaluation, and from them the output formats and the annotations.
///
/// ```
/// use serde_json::json;
/// use toolschema::{Validate, Validator};
///
/// let v = Validator::new(&json!({
///     "oneOf": [
///         {"properties": {"kind": {"const": "file"}, "path": {"type": "string"}}, "required": ["kind", "path"]},
///         {"properties": {"kind": {"const": "url"}, "href": {"type": "string"}}, "required": ["kind", "href"]},
///     ],
/// })).unwrap();
/// let evaluation = v.evaluate(&json!({"kind": "file"})).unwrap();
/// assert!(!evaluation.is_valid());
/// let basic = evaluation.basic();
/// let keywords: Vec<_> = basic["errors"].as_array().unwrap().iter()
///     .map(|e| e["keywordLocation"].as_str().unwrap())
///     .collect();
/// assert!(keywords.contains(&"/oneOf/0/required"));
/// assert!(keywords.contains(&"/oneOf"));
/// ```
#[derive(Clone, Debug)]
pub struct Evaluation {
    units: Vec<Unit>,
    children: Vec<Vec<u32>>,
}

impl Evaluation {
    /// The evaluation a back end recorded in `trace`, or the halt that stopped it.
    pub(crate) fn from_trace(outcome: Result<Trace, Halt>) -> Result<Evaluation, Error> {
        let trace = outcome.map_err(|Halt(failure)| Error::instance_execution_failure(*failure))?;
        let mut units = trace.units;
        let mut children = vec![Vec::new(); units.len()];
        for (i, unit) in units.iter().enumerate() {
            if let Some(parent) = unit.parent {
                children[parent as usize].push(i as u32);
            }
        }
        for unit in derive::applicator_annotations(&units, &children) {
            if let Some(parent) = unit.parent {
                children[parent as usize].push(units.len() as u32);
            }
            children.push(Vec::new());
            units.push(unit);
        }
        Ok(Evaluation { units, children })
    }

    /// The evaluation of an instance that failed before any subschema applied: a tool's
    /// arguments that are not an object.
    pub(crate) fn refused(absolute: String, failure: Failure) -> Evaluation {
        let root = Unit {
            parent: None,
            entry: Entry::Schema {
                instance_location: String::new(),
                keyword_location: String::new(),
                absolute_keyword_location: absolute.into(),
                valid: false,
            },
        };
        let failure = Unit {
            parent: Some(0),
            entry: Entry::Failure(failure),
        };
        Evaluation {
            units: vec![root, failure],
            children: vec![vec![1], Vec::new()],
        }
    }

    /// Whether the instance is valid.
    pub fn is_valid(&self) -> bool {
        self.valid(0)
    }

    /// The annotations that survive: those of subschemas that hold, inside subschemas that
    /// hold; the keywords' own in evaluation order, then those of the applicators.
    pub fn annotations(&self) -> impl Iterator<Item = &Annotation> + '_ {
        self.units
            .iter()
            .enumerate()
            .filter_map(|(i, unit)| match &unit.entry {
                Entry::Annotation(a) if self.on_path(i, true) => Some(a),
                _ => None,
            })
    }

    /// The failures that decide the verdict, in evaluation order: those inside subschemas
    /// that failed, inside subschemas that failed (the failures of an `anyOf` branch, when
    /// another branch holds, are not among them). The `basic` format's list.
    pub fn failures(&self) -> impl Iterator<Item = &Failure> + '_ {
        self.units
            .iter()
            .enumerate()
            .filter_map(|(i, unit)| match &unit.entry {
                Entry::Failure(f) if self.on_path(i, false) => Some(f),
                _ => None,
            })
    }

    /// The branches of the `anyOf` or `oneOf` whose failure is `failure` (one of
    /// [`Evaluation::failures`]), each with its index and the failures inside it; empty for
    /// any other failure. What a caller shows to say what each branch would need.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolschema::{Validate, Validator};
    ///
    /// let v = Validator::new(&json!({"anyOf": [{"type": "string"}, {"required": ["id"]}]})).unwrap();
    /// let evaluation = v.evaluate(&json!({})).unwrap();
    /// let any_of = evaluation.failures().find(|f| f.keyword() == "anyOf").unwrap();
    /// let branches = evaluation.branches(any_of);
    /// assert_eq!(branches.len(), 2);
    /// assert_eq!(branches[1].0, 1);
    /// assert_eq!(branches[1].1[0].keyword(), "required");
    /// ```
    pub fn branches(&self, failure: &Failure) -> Vec<(usize, Vec<&Failure>)> {
        let keyword = failure.keyword();
        if keyword != "anyOf" && keyword != "oneOf" {
            return Vec::new();
        }
        let Some(at) = self.units.iter().position(|u| match &u.entry {
            Entry::Failure(f) => std::ptr::eq(f, failure),
            _ => false,
        }) else {
            return Vec::new();
        };
        let Some(parent) = self.units[at].parent else {
            return Vec::new();
        };
        let prefix = format!("{}/{keyword}/", self.keyword_location(parent as usize));
        let mut out = Vec::new();
        for &child in &self.children[parent as usize] {
            let Entry::Schema {
                keyword_location,
                valid: false,
                ..
            } = &self.units[child as usize].entry
            else {
                continue;
            };
            let Some(index) = keyword_location
                .strip_prefix(&prefix)
                .and_then(|rest| rest.parse::<usize>().ok())
            else {
                continue;
            };
            let mut inside = Vec::new();
            self.collect_failures(child as usize, &mut inside);
            out.push((index, inside));
        }
        out
    }

    fn collect_failures<'a>(&'a self, unit: usize, out: &mut Vec<&'a Failure>) {
        for &child in &self.children[unit] {
            match &self.units[child as usize].entry {
                Entry::Failure(f) => out.push(f),
                Entry::Schema { valid: false, .. } => self.collect_failures(child as usize, out),
                _ => {}
            }
        }
    }

    fn valid(&self, unit: usize) -> bool {
        match &self.units[unit].entry {
            Entry::Schema { valid, .. } => *valid,
            Entry::Failure(_) => false,
            Entry::Annotation(_) => true,
        }
    }

    fn keyword_location(&self, unit: usize) -> &str {
        match &self.units[unit].entry {
            Entry::Schema {
                keyword_location, ..
            } => keyword_location,
            Entry::Failure(f) => f.keyword_location(),
            Entry::Annotation(a) => a.keyword_location(),
        }
    }

    /// Whether every schema unit enclosing `unit` has the result `valid`.
    fn on_path(&self, unit: usize, valid: bool) -> bool {
        let mut at = self.units[unit].parent;
        while let Some(parent) = at {
            if self.valid(parent as usize) != valid {
                return false;
            }
            at = self.units[parent as usize].parent;
        }
        true
    }
}
