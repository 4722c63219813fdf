//! Arbitrary text, as Rust tokens, through the `tool_schema!` macro's JSON reader: no panic;
//! what it reads is JSON; every value it read has a span; and JSON text that Rust's tokens
//! spell the same way (an object with no escapes) reads as the value `serde_json` reads.

use proc_macro2::{Delimiter, TokenStream, TokenTree};
use serde_json::Value;
use toolschema_compiler::macro_json::from_group;

/// `data` as UTF-8 is the macro argument's text.
///
/// ```
/// toolschema_reliability::macro_json::check(br#"{"a": [1, -2.5e3, null, {"b": r"\d"}]}"#);
/// ```
pub fn check(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(tokens) = text.parse::<TokenStream>() else {
        return;
    };
    let mut trees = tokens.into_iter();
    let Some(TokenTree::Group(group)) = trees.next() else {
        return;
    };
    if group.delimiter() != Delimiter::Brace {
        return;
    }
    let alone = trees.next().is_none();
    let read = from_group(&group);
    if let Ok(json) = &read {
        let value: Value = serde_json::from_str(&json.text)
            .unwrap_or_else(|e| panic!("the reader wrote {:?}, which is not JSON: {e}", json.text));
        for pointer in pointers(&value) {
            json.span(&pointer);
        }
    }
    if alone
        && !text.contains('\\')
        && let Ok(expected @ Value::Object(_)) = serde_json::from_str::<Value>(text)
    {
        match &read {
            Ok(json) => assert_eq!(
                serde_json::from_str::<Value>(&json.text).ok(),
                Some(expected),
                "{text:?} read as {:?}",
                json.text
            ),
            Err(e) => assert!(
                e.to_string().starts_with("duplicate member"),
                "{text:?} is JSON, but the reader says: {e}"
            ),
        }
    }
}

/// The JSON Pointer of every value in `value`, itself first.
fn pointers(value: &Value) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut i = 0;
    while i < out.len() {
        let at = out[i].clone();
        match value.pointer(&at) {
            Some(Value::Object(map)) => out.extend(
                map.keys()
                    .map(|k| format!("{at}/{}", k.replace('~', "~0").replace('/', "~1"))),
            ),
            Some(Value::Array(items)) => out.extend((0..items.len()).map(|j| format!("{at}/{j}"))),
            _ => {}
        }
        i += 1;
    }
    out
}
