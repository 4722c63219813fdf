//! The four output formats of 2020-12 core §12.4, as JSON.

use super::{Annotation, Evaluation};
use crate::error::Failure;
use crate::eval::Entry;
use serde_json::{Map, Value, json};

impl Evaluation {
    /// The `flag` format: `{"valid": …}`.
    pub fn flag(&self) -> Value {
        json!({"valid": self.is_valid()})
    }

    /// The `basic` format: the root unit, holding the flat list of
    /// [`failures`](Evaluation::failures) when the instance is invalid, of
    /// [`annotations`](Evaluation::annotations) when it is valid.
    pub fn basic(&self) -> Value {
        let valid = self.is_valid();
        let list: Vec<Value> = if valid {
            self.annotations().map(annotation_unit).collect()
        } else {
            self.failures().map(failure_unit).collect()
        };
        let mut root = self.schema_unit(0);
        root.insert(
            if valid { "annotations" } else { "errors" }.into(),
            Value::Array(list),
        );
        Value::Object(root)
    }

    /// The `detailed` format: the hierarchy of subschemas, condensed. An invalid unit keeps its
    /// failures and the units of its subschemas that failed; a valid one its annotations and
    /// the units of its subschemas that hold. Units left with nothing are dropped, and a unit
    /// with one entry is replaced by that entry.
    pub fn detailed(&self) -> Value {
        self.condensed(0).unwrap_or_else(|| {
            let mut root = self.schema_unit(0);
            if !self.is_valid() {
                root.insert("errors".into(), Value::Array(Vec::new()));
            }
            Value::Object(root)
        })
    }

    /// The `verbose` format: every unit of the evaluation, the annotations of subschemas that
    /// failed included, nested as the subschemas were applied.
    pub fn verbose(&self) -> Value {
        self.full(0)
    }

    fn condensed(&self, unit: usize) -> Option<Value> {
        let valid = self.valid(unit);
        let mut kept = Vec::new();
        for &child in &self.children[unit] {
            let child = child as usize;
            match &self.units[child].entry {
                Entry::Schema { valid: v, .. } if *v == valid => {
                    kept.extend(self.condensed(child));
                }
                Entry::Failure(f) if !valid => kept.push(failure_unit(f)),
                Entry::Annotation(a) if valid => kept.push(annotation_unit(a)),
                _ => {}
            }
        }
        match kept.len() {
            0 => None,
            1 => kept.pop(),
            _ => {
                let mut node = self.schema_unit(unit);
                node.insert(nested_key(valid).into(), Value::Array(kept));
                Some(Value::Object(node))
            }
        }
    }

    fn full(&self, unit: usize) -> Value {
        match &self.units[unit].entry {
            Entry::Failure(f) => failure_unit(f),
            Entry::Annotation(a) => annotation_unit(a),
            Entry::Schema { valid, .. } => {
                let mut node = self.schema_unit(unit);
                let nested: Vec<Value> = self.children[unit]
                    .iter()
                    .map(|&c| self.full(c as usize))
                    .collect();
                if !nested.is_empty() || !valid {
                    node.insert(nested_key(*valid).into(), Value::Array(nested));
                }
                Value::Object(node)
            }
        }
    }

    /// The fields of schema unit `unit`, without its nested units.
    fn schema_unit(&self, unit: usize) -> Map<String, Value> {
        let mut out = Map::new();
        if let Entry::Schema {
            instance_location,
            keyword_location,
            absolute_keyword_location,
            valid,
        } = &self.units[unit].entry
        {
            out.insert("valid".into(), Value::Bool(*valid));
            out.insert("keywordLocation".into(), keyword_location.as_str().into());
            out.insert(
                "absoluteKeywordLocation".into(),
                absolute_keyword_location.as_ref().into(),
            );
            out.insert("instanceLocation".into(), instance_location.as_str().into());
        }
        out
    }
}

fn nested_key(valid: bool) -> &'static str {
    if valid { "annotations" } else { "errors" }
}

fn failure_unit(f: &Failure) -> Value {
    let locations = (
        f.keyword_location(),
        f.absolute_keyword_location(),
        f.instance_location(),
    );
    keyword_unit(false, locations, f.keyword(), ("error", f.message().into()))
}

fn annotation_unit(a: &Annotation) -> Value {
    let locations = (
        a.keyword_location(),
        a.absolute_keyword_location(),
        a.instance_location(),
    );
    keyword_unit(
        true,
        locations,
        a.keyword(),
        ("annotation", a.value().clone()),
    )
}

/// The unit of one keyword's failure or annotation: its locations (keyword, absolute keyword,
/// instance), the keyword, and `what` it says.
fn keyword_unit(
    valid: bool,
    (keyword_location, absolute, instance_location): (&str, Option<&str>, &str),
    keyword: &str,
    (key, what): (&str, Value),
) -> Value {
    let mut out = Map::new();
    out.insert("valid".into(), Value::Bool(valid));
    out.insert("keywordLocation".into(), keyword_location.into());
    if let Some(absolute) = absolute {
        out.insert("absoluteKeywordLocation".into(), absolute.into());
    }
    out.insert("instanceLocation".into(), instance_location.into());
    out.insert("keyword".into(), keyword.into());
    out.insert(key.into(), what);
    Value::Object(out)
}
