// A part the type cannot express (`not` on a value of any type) is typed as
// `serde_json::Value`, listed in `FALLBACKS`, and guarded by the validator: not an error.
#![deny(warnings)]

toolschema_macros::tool_schema!(
    pub NoteSchema = {
        "type": "object",
        "properties": {
            "text": {"type": "string"},
            "tag": {"not": {"type": "null"}}
        },
        "required": ["text"]
    },
    types = NoteArgs
);

fn main() {
    assert_eq!(
        NoteArgs::FALLBACKS,
        [("/properties/tag", "`not` on a value of any type")]
    );
    let args = NoteArgs::parse(&serde_json::json!({"text": "hi", "tag": [1]})).unwrap();
    let tag: Option<serde_json::Value> = args.tag;
    assert_eq!(tag, Some(serde_json::json!([1])));
    let err = NoteArgs::parse(&serde_json::json!({"text": "hi", "tag": null})).unwrap_err();
    assert_eq!(err.failures()[0].instance_location(), "/tag");
}
