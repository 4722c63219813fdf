//! The other validators, each built from the same schema with format assertion on or off and
//! nothing fetched: the `jsonschema` crate and `boon`.

use serde_json::Value;

/// A peer's answer for one instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Valid,
    Invalid,
}

impl Verdict {
    pub fn from(valid: bool) -> Verdict {
        if valid {
            Verdict::Valid
        } else {
            Verdict::Invalid
        }
    }
}

/// The peers' names, in the order [`Peers::verdicts`] answers.
pub const NAMES: [&str; 2] = ["jsonschema", "boon"];

/// Both peers built from one schema; a peer that cannot build it is `None`, with its error.
pub struct Peers {
    jsonschema: Result<jsonschema::Validator, String>,
    boon: Result<(boon::Schemas, boon::SchemaIndex), String>,
}

impl Peers {
    pub fn new(schema: &Value, formats: bool) -> Peers {
        let jsonschema = jsonschema::draft202012::options()
            .should_validate_formats(formats)
            .build(schema)
            .map_err(|e| e.to_string());
        let boon = (|| {
            let mut schemas = boon::Schemas::new();
            let mut compiler = boon::Compiler::new();
            compiler.set_default_draft(boon::Draft::V2020_12);
            if formats {
                compiler.enable_format_assertions();
            }
            let location = "http://differential.invalid/schema.json";
            compiler
                .add_resource(location, schema.clone())
                .map_err(|e| e.to_string())?;
            let index = compiler
                .compile(location, &mut schemas)
                .map_err(|e| e.to_string())?;
            Ok((schemas, index))
        })();
        Peers { jsonschema, boon }
    }

    /// Each peer's error, if it could not build the schema.
    pub fn build_errors(&self) -> [Option<&str>; 2] {
        [
            self.jsonschema.as_ref().err().map(String::as_str),
            self.boon.as_ref().err().map(String::as_str),
        ]
    }

    /// Each peer's verdict, `None` for a peer that could not build the schema.
    pub fn verdicts(&self, instance: &Value) -> [Option<Verdict>; 2] {
        [
            self.jsonschema
                .as_ref()
                .ok()
                .map(|v| Verdict::from(v.is_valid(instance))),
            self.boon
                .as_ref()
                .ok()
                .map(|(schemas, index)| Verdict::from(schemas.validate(instance, *index).is_ok())),
        ]
    }
}
