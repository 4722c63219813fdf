//! What a build script sees when a schema cannot be compiled.

use std::error::Error as _;
use toolschema::ErrorClass;
use toolschema_compiler::{Builder, CompileError};

#[test]
fn a_rejected_schema_names_the_file_the_pointer_and_the_class() {
    let dir =
        std::env::temp_dir().join(format!("toolschema-compiler-errors-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.json");
    std::fs::write(&path, r#"{"properties": {"limit": {"type": "integr"}}}"#).unwrap();
    let err = Builder::new()
        .schema("bad_args", &path)
        .generate()
        .unwrap_err();
    let schema_error = err.schema_error().expect("a schema error");
    assert_eq!(schema_error.class(), ErrorClass::Validation);
    let text = err.to_string();
    assert!(text.starts_with(&path.display().to_string()), "{text}");
    assert!(text.contains("/properties/limit/type"), "{text}");
    assert!(err.source().is_some());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn unreadable_and_unparsable_files_name_the_file() {
    let err = Builder::new()
        .schema("gone_args", "no/such/file.json")
        .generate()
        .unwrap_err();
    assert!(matches!(err, CompileError::Io { .. }));
    assert!(err.to_string().contains("no/such/file.json"));

    let dir = std::env::temp_dir().join(format!("toolschema-compiler-json-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("broken.json");
    std::fs::write(&path, "{").unwrap();
    let err = Builder::new()
        .schema("broken_args", &path)
        .generate()
        .unwrap_err();
    assert!(matches!(err, CompileError::Json { .. }));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn names_must_be_snake_case_and_distinct() {
    let schema = serde_json::json!({"type": "object"});
    let err = Builder::new()
        .schema_value("SearchArgs", schema.clone())
        .generate()
        .unwrap_err();
    assert!(matches!(err, CompileError::Name { .. }));
    let err = Builder::new()
        .schema_value("a_args", schema.clone())
        .schema_value("a_args", schema)
        .generate()
        .unwrap_err();
    assert!(matches!(err, CompileError::Name { .. }));
}

#[test]
fn unsupported_drafts_are_rejected_as_the_interpreter_rejects_them() {
    let schema =
        serde_json::json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"});
    let err = Builder::new()
        .schema_value("old_args", schema.clone())
        .generate()
        .unwrap_err();
    let interpreted = toolschema::Validator::new(&schema).unwrap_err();
    assert_eq!(err.schema_error().unwrap(), &interpreted);
}
