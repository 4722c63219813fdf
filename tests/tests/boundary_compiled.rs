//! The tool-call boundary table on the compiled path: every case the front end accepts runs
//! on a validator generated at build time, which must give exactly the interpreter's outcome
//! and meet the case's expectation; every case it rejects must be rejected identically.

use toolschema::{InputSchema, Validate};
use toolschema_conformance::boundary;

/// What building a boundary case gave at build time.
pub enum BuildOutcome {
    /// A validator was generated.
    Compiled,
    /// Not compiled, for the reason given.
    Skipped(&'static str),
    /// The front end rejected the schema.
    Rejected {
        class: &'static str,
        location: &'static str,
        message: &'static str,
    },
}

mod compiled {
    #![allow(clippy::all)]
    use super::BuildOutcome;
    toolschema::include_validators!("compiled_boundary.rs");
}

#[test]
fn case_table_on_the_compiled_path() {
    let report = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(|| {
            let mut failed = Vec::new();
            let (mut compiled, mut rejected, mut skipped) = (0, 0, 0);
            let cases = boundary::cases();
            assert_eq!(cases.len(), compiled::OUTCOMES.len(), "the table changed since the build");
            for (i, case) in cases.into_iter().enumerate() {
                let interpreted = InputSchema::new(&case.schema, &case.options);
                match &compiled::OUTCOMES[i] {
                    BuildOutcome::Skipped(_) => skipped += 1,
                    BuildOutcome::Rejected { class, location, message } => {
                        rejected += 1;
                        match &interpreted {
                            Err(e)
                                if e.class().as_str() == *class
                                    && e.message() == *message
                                    && e.failures().first().map_or("", |f| f.instance_location())
                                        == *location => {}
                            other => failed.push(format!(
                                "{}: the build rejected it ({class}: {message}) but the interpreter gave {other:?}",
                                case.name
                            )),
                        }
                    }
                    BuildOutcome::Compiled => {
                        compiled += 1;
                        let validator = compiled::validator(i).expect("a compiled case has a validator");
                        let interpreted = match interpreted {
                            Ok(tool) => tool,
                            Err(e) => {
                                failed.push(format!("{}: compiled, but the interpreter rejected it: {e}", case.name));
                                continue;
                            }
                        };
                        let outcome = match &case.arguments {
                            Some(arguments) => {
                                let outcome = validator.validate(arguments);
                                if validator.is_valid(arguments) != outcome.is_ok() {
                                    failed.push(format!("{}: is_valid disagrees with validate", case.name));
                                }
                                if outcome != interpreted.validate(arguments) {
                                    failed.push(format!(
                                        "{}: compiled {outcome:?} but interpreted {:?}",
                                        case.name,
                                        interpreted.validate(arguments)
                                    ));
                                }
                                outcome
                            }
                            None => Ok(()),
                        };
                        if let Err(why) = boundary::check(&case, &outcome) {
                            failed.push(format!("{}: {why}", case.name));
                        }
                    }
                }
            }
            (failed, compiled, rejected, skipped)
        })
        .unwrap()
        .join()
        .unwrap();
    let (failed, compiled, rejected, skipped) = report;
    eprintln!(
        "boundary cases: {compiled} compiled, {rejected} rejected at build time, {skipped} left to the interpreter"
    );
    assert!(
        failed.is_empty(),
        "{} cases failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
    // The table's size at the time of writing was 35 compiled, 39 rejected, 14 skipped; a
    // large drop means cases stopped reaching the compiled path.
    assert!(
        compiled >= 30 && rejected >= 30,
        "too few cases ran on the compiled path"
    );
}
