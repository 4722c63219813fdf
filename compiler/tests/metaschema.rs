//! `toolschema-core` checks schemas against the 2020-12 meta-schema with a validator this
//! compiler generated (`core/src/metaschema/compiled.rs`, checked in: the compiler depends on
//! core, so core cannot generate it at build time). This test generates it again and fails
//! when the checked-in file differs. To regenerate it, build core without it, so that a change
//! to what generated code calls cannot stop the compiler from building:
//!
//! ```sh
//! RUSTFLAGS="--cfg toolschema_bootstrap" UPDATE_SNAPSHOTS=1 cargo test -p toolschema-compiler --test metaschema
//! ```

use std::path::Path;
use toolschema::Limits;
use toolschema::metaschema::{check_limits, document};

const DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

#[test]
fn the_checked_in_metaschema_validator_is_what_the_compiler_generates() {
    let schema = document(DIALECT).expect("embedded").clone();
    let code = toolschema_compiler::Builder::new()
        .schema_value("meta_schema", schema)
        .limits(check_limits(&Limits::default()))
        .runtime_path("crate")
        .generate()
        .unwrap();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../core/src/metaschema/compiled.rs");
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some_and(|v| v == "1") {
        toolschema_compiler::write_if_changed(&path, &code).unwrap();
    } else {
        assert!(
            std::fs::read_to_string(&path).ok().as_deref() == Some(code.as_str()),
            "core/src/metaschema/compiled.rs is not what the compiler generates; regenerate it \
             as this file's header says and review the diff"
        );
    }
}
