//! The diagnostics of rejected input, pinned.

use std::path::{Path, PathBuf};

/// The project trybuild compiles the cases in: there `CARGO_MANIFEST_DIR` is the project's
/// directory under the target directory, so the schema files the cases name are copied in.
fn trybuild_project() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    // <target>/<profile>/deps/ui-<hash>
    let target = exe.ancestors().nth(3).unwrap();
    target.join("tests/trybuild").join(env!("CARGO_PKG_NAME"))
}

#[test]
fn ui() {
    let schemas = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/schemas");
    let copy = trybuild_project().join("tests/schemas");
    std::fs::create_dir_all(&copy).unwrap();
    for entry in std::fs::read_dir(&schemas).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, copy.join(path.file_name().unwrap())).unwrap();
    }
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
    t.pass("tests/ui_pass/*.rs");
}
