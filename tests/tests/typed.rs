//! Typed arguments on the JSON-Schema-Test-Suite: for every group the compiler admits, the
//! type generated from its IR parses every valid instance and serializes it back to an equal
//! value, and fails on every invalid one with exactly the validator's error.

#![deny(warnings)]

mod typed {
    include!(concat!(env!("OUT_DIR"), "/typed_suite.rs"));
}

#[test]
fn typed_arguments_round_trip_on_the_suite() {
    let mut total = toolschema_conformance::typed::Tally::default();
    let mut groups = 0;
    for (file, round_trips) in typed::FILES {
        let tally = toolschema_conformance::typed::check_suite_file(file, round_trips);
        groups += round_trips.len();
        total.valid += tally.valid;
        total.valid_object_root += tally.valid_object_root;
        total.invalid += tally.invalid;
    }
    println!(
        "{groups} typed groups: {} valid instances round-trip ({} of them objects under \
         schemas the tool rules admit), {} invalid instances fail with the validator's error",
        total.valid, total.valid_object_root, total.invalid
    );
    assert!(groups > 0 && total.valid_object_root > 0);
}
