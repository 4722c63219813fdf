//! The differential against other validators. From every schema of the fixed set, one
//! instance built to satisfy it and mutations that each break one keyword (`generate.rs`) go
//! through toolschema's interpreter and generated validator (which must agree exactly) and
//! through the `jsonschema` crate and `boon` (`peers.rs`), with format assertion off and on.
//!
//! Every verdict where a peer disagrees with toolschema, and every schema a peer cannot build,
//! must be listed in `differential.txt` with its cause; the test fails on one that is not
//! listed, on a listed one that no longer occurs, and on a cause that is not defined there.

#[path = "differential/generate.rs"]
mod generate;
#[path = "differential/peers.rs"]
mod peers;

use peers::{NAMES, Peers, Verdict};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use toolschema::ErrorClass;
use toolschema_reliability_set::{SET, interpreted};

/// What `differential.txt` says: each cause's description, and each disagreement's cause.
struct Explanations {
    causes: BTreeMap<String, String>,
    listed: BTreeMap<String, String>,
}

fn explanations() -> Explanations {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("differential.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let mut causes = BTreeMap::new();
    let mut listed = BTreeMap::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(rest) = line.strip_prefix("cause ") {
            let (id, description) = rest.split_once(": ").expect("cause <id>: <description>");
            causes.insert(id.to_string(), description.to_string());
        } else {
            let (key, cause) = line.rsplit_once(" => ").expect("<disagreement> => <cause>");
            listed.insert(key.to_string(), cause.to_string());
        }
    }
    Explanations { causes, listed }
}

#[test]
fn peers_disagree_only_where_explained() {
    let mut found = BTreeSet::new();
    let mut cases = 0usize;
    let mut generated_valid = 0usize;
    for (i, entry) in SET.iter().enumerate() {
        let schema = entry.schema_value();
        let instances = generate::instances(&schema);
        for formats in [false, true] {
            let setting = if formats { "formats on" } else { "formats off" };
            let peers = Peers::new(&schema, formats);
            for (peer, error) in NAMES.iter().zip(peers.build_errors()) {
                if error.is_some() {
                    found.insert(format!("{} | {setting} | {peer} | build", entry.name));
                }
            }
            let ours = interpreted(i, formats);
            let compiled = entry.compiled(formats);
            for (n, (label, instance)) in instances.iter().enumerate() {
                cases += 1;
                let result = ours.validate(instance);
                assert_eq!(
                    compiled.validate(instance),
                    result,
                    "{} ({setting}): the two paths differ on {instance}",
                    entry.name
                );
                assert_eq!(compiled.is_valid(instance), result.is_ok());
                let verdict = match &result {
                    Ok(()) => "valid",
                    Err(e) if e.class() == ErrorClass::ExecutionFailure => "refused",
                    Err(_) => "invalid",
                };
                if n == 0 && result.is_ok() && !formats {
                    generated_valid += 1;
                }
                for (peer, theirs) in NAMES.iter().zip(peers.verdicts(instance)) {
                    let agrees = match theirs {
                        None => true,
                        Some(Verdict::Valid) => verdict == "valid",
                        Some(Verdict::Invalid) => verdict == "invalid",
                    };
                    if !agrees {
                        found.insert(format!(
                            "{} | {setting} | {peer} | #{n} {label} | toolschema {verdict}",
                            entry.name
                        ));
                    }
                }
            }
        }
    }
    let explained = explanations();
    let unexplained: Vec<&String> = found
        .iter()
        .filter(|k| !explained.listed.contains_key(*k))
        .collect();
    let stale: Vec<&String> = explained
        .listed
        .keys()
        .filter(|k| !found.contains(*k))
        .collect();
    let undefined: BTreeSet<&String> = explained
        .listed
        .values()
        .filter(|c| !explained.causes.contains_key(*c))
        .collect();
    let mut by_cause: BTreeMap<&str, usize> = BTreeMap::new();
    for key in &found {
        if let Some(cause) = explained.listed.get(key) {
            *by_cause.entry(cause).or_default() += 1;
        }
    }
    println!(
        "{} schemas, {cases} cases, {generated_valid} built instances valid, {} disagreements",
        SET.len(),
        found.len()
    );
    for (cause, count) in &by_cause {
        println!("  {count:5}  {cause}");
    }
    assert!(
        unexplained.is_empty() && stale.is_empty() && undefined.is_empty(),
        "unexplained disagreements:\n{}\nlisted but not found:\n{}\nundefined causes: {undefined:?}",
        unexplained
            .iter()
            .map(|k| format!("{k} => ?"))
            .collect::<Vec<_>>()
            .join("\n"),
        stale
            .iter()
            .map(|k| k.as_str())
            .collect::<Vec<_>>()
            .join("\n"),
    );
}
