//! Every format against values generated from its grammar (`toolschema_conformance::grammar`):
//! each generated valid value is accepted and each near miss rejected, by the checker itself
//! and on both paths with format assertion on, which must agree with each other too.

#![deny(warnings)]

use serde_json::{Value, json};
use toolschema::format::Format;
use toolschema::{Options, Validator};
use toolschema_conformance::agree;
use toolschema_conformance::grammar::{Rng, grammars};

mod compiled {
    toolschema::include_validators!("compiled_formats.rs");
}

/// Values of each kind drawn per format.
const DRAWS: usize = 400;

#[test]
fn every_format_has_a_grammar() {
    let named: Vec<&str> = grammars().iter().map(|g| g.format).collect();
    for f in Format::ALL {
        assert!(named.contains(&f.name()), "no grammar for {f}");
    }
    assert_eq!(named.len(), Format::ALL.len());
}

#[test]
fn generated_values_are_judged_by_their_grammar_on_both_paths() {
    let mut wrong = Vec::new();
    for (i, g) in grammars().iter().enumerate() {
        let format = Format::from_name(g.format).unwrap();
        let schema = json!({"format": g.format});
        let interpreted =
            Validator::with_options(&schema, &Options::new().format_assertion(true)).unwrap();
        let compiled = compiled::by_name(g.format).unwrap();
        let mut rng = Rng::new(0x5eed_0000 + i as u64);
        for _ in 0..DRAWS {
            for (value, expected) in [((g.valid)(&mut rng), true), ((g.invalid)(&mut rng), false)] {
                let checker = format.is_valid(&value);
                let paths = agree(compiled, &interpreted, &Value::String(value.clone()));
                if checker != expected || paths != Ok(expected) {
                    wrong.push(format!(
                        "{}: {value:?} should be {}; checker {checker}, paths {paths:?}",
                        g.format,
                        if expected { "valid" } else { "invalid" }
                    ));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} wrong verdicts:\n{}",
        wrong.len(),
        wrong[..wrong.len().min(40)].join("\n")
    );
}
