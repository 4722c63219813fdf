//! Arbitrary pattern text through the ECMA-262 parser, the lowering and compilation: no panic;
//! compilation respects its size limit; `format: regex` ([`is_valid_syntax`]) agrees with
//! `pattern` ([`Pattern::new`]) on what is valid syntax; and a schema's `pattern` is accepted
//! exactly when the pattern compiles.

use serde_json::json;
use toolschema::regex::{Pattern, PatternErrorKind, is_valid_syntax};
use toolschema::{ErrorClass, Limits, Options, Validate, Validator};

/// A size limit small enough that ordinary counted repetitions exceed it.
const SMALL_LIMIT: usize = 4096;

/// `data` as UTF-8 is the pattern.
///
/// ```
/// toolschema_reliability::patterns::check(br"^[\p{L}\d]{1,8}(?:-\w+)*$");
/// ```
pub fn check(data: &[u8]) {
    let Ok(source) = std::str::from_utf8(data) else {
        return;
    };
    let strict = is_valid_syntax(source);
    let limit = Limits::new().get_max_regex_size();
    let compiled = Pattern::new(source, limit);
    match &compiled {
        Ok(pattern) => {
            assert_eq!(pattern.as_str(), source);
            for haystack in ["", "a", source, "\r\n\u{2028}", "🦀x9_ -"] {
                pattern.is_match(haystack);
            }
            if !strict {
                assert!(
                    has_lenient_escape(source),
                    "{source:?} compiles but is not ECMA-262 syntax, and has no lenient escape"
                );
            }
        }
        Err(e) => {
            if strict {
                assert_ne!(
                    e.kind(),
                    PatternErrorKind::Syntax,
                    "{source:?} is valid syntax but `pattern` says: {}",
                    e.message()
                );
            }
            if let Some(offset) = e.offset() {
                assert!(offset <= source.len(), "{source:?}: offset {offset}");
            }
        }
    }
    // Within a smaller limit: the same outcome, or too large; never more.
    match (Pattern::new(source, SMALL_LIMIT), &compiled) {
        (Ok(_), Ok(_)) => {}
        (Ok(_), Err(e)) => panic!("{source:?} compiles within {SMALL_LIMIT} but not {limit}: {e}"),
        (Err(small), Ok(_)) => assert_eq!(small.kind(), PatternErrorKind::TooLarge),
        (Err(small), Err(large)) => assert!(
            small.kind() == large.kind() || small.kind() == PatternErrorKind::TooLarge,
            "{source:?}: {small} within {SMALL_LIMIT}, {large} within {limit}"
        ),
    }
    // The schema keyword is accepted exactly when the pattern compiles.
    let built = Validator::new(&json!({"pattern": source}));
    match (&built, &compiled) {
        (Ok(_), Ok(_)) => {}
        (Err(e), Err(p)) => {
            let class = match p.kind() {
                PatternErrorKind::Syntax => ErrorClass::Validation,
                PatternErrorKind::Unsupported => ErrorClass::UnsupportedCapability,
                PatternErrorKind::TooLarge => ErrorClass::ExecutionFailure,
                kind => panic!("{source:?}: {kind:?} has no error class in this check"),
            };
            assert_eq!(e.class(), class, "{source:?}: {e}");
        }
        _ => panic!(
            "{source:?}: schema {:?}, pattern {:?}",
            built.as_ref().err(),
            compiled.as_ref().err()
        ),
    }
    // And `format: regex`, asserted, accepts the text exactly when it is valid syntax.
    let format = Validator::with_options(
        &json!({"format": "regex"}),
        &Options::new().format_assertion(true),
    )
    .expect("a fixed schema");
    assert_eq!(format.is_valid(&json!(source)), strict, "{source:?}");
}

/// Whether `source` has a backslash before ASCII punctuation that ECMA-262's Unicode mode does
/// not define as an escape everywhere (the lenient identity escapes `pattern` reads as
/// literals): any but the syntax characters, `-` included since `\-` is defined only in a
/// class.
fn has_lenient_escape(source: &str) -> bool {
    let mut chars = source.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some(next) if next.is_ascii_punctuation() && !"^$\\.*+?()[]{}|/".contains(next) => {
                    return true;
                }
                _ => {}
            }
        }
    }
    false
}
