//! The embedded meta-schemas are the normative 2020-12 documents.

use std::path::PathBuf;

fn spec_root() -> PathBuf {
    std::env::var_os("JSON_SCHEMA_SPEC")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../shared/json-schema-spec"
            ))
        })
}

#[test]
fn embedded_documents_equal_the_normative_ones() {
    let root = spec_root();
    assert!(
        root.is_dir(),
        "the specification documents were not found at {}",
        root.display()
    );
    for (uri, text) in toolschema_core::metaschema::DOCUMENTS {
        let relative = uri
            .strip_prefix("https://json-schema.org/draft/2020-12/")
            .expect("a 2020-12 URI");
        let file = if relative == "schema" {
            root.join("schema.json")
        } else {
            root.join(format!("{relative}.json"))
        };
        let normative: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let embedded: serde_json::Value = serde_json::from_str(text).unwrap();
        assert_eq!(embedded, normative, "{uri} differs from {}", file.display());
        assert_eq!(embedded["$id"], *uri);
    }
    assert_eq!(toolschema_core::metaschema::DOCUMENTS.len(), 9);
}
