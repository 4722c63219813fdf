//! Replays the committed corpus of every fuzz target (`fuzz/corpus/<target>/`) through the
//! target's check, so that a regression on anything the fuzzers once found fails CI on the
//! stable toolchain. The formats target's growth in time is measured but not asserted here
//! (see `toolschema_reliability::formats`).

use std::path::Path;
use toolschema_reliability::TARGETS;

#[test]
fn every_target_replays_its_corpus() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/corpus");
    for (target, check) in TARGETS {
        let dir = corpus.join(target);
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        assert!(!files.is_empty(), "{target} has no corpus");
        for file in &files {
            let data = std::fs::read(file).unwrap();
            let outcome = std::panic::catch_unwind(|| check(&data));
            assert!(
                outcome.is_ok(),
                "{target}: {} fails its check",
                file.display()
            );
        }
        println!("{target}: {} inputs", files.len());
    }
}

#[test]
fn every_fuzz_target_is_replayed() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/fuzz_targets");
    let mut targets: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter_map(|p| Some(p.file_stem()?.to_str()?.to_string()))
        .collect();
    targets.sort();
    let mut replayed: Vec<String> = TARGETS.iter().map(|(t, _)| t.to_string()).collect();
    replayed.sort();
    assert_eq!(targets, replayed);
}
