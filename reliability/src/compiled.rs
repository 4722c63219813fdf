//! Arbitrary instances against the fixed set on both paths: the generated validator and the
//! interpreter give the same verdict and the same error (class, message and every failure with
//! its locations and message, in order).

use toolschema_reliability_set as set;

/// Two bytes choose a schema of [`set::SET`], the rest is the instance; both format settings.
///
/// ```
/// toolschema_reliability::compiled::check(b"\x05\0[1, \"a\"]");
/// ```
pub fn check(data: &[u8]) {
    let Some((i, instance)) = set::split_input(data) else {
        return;
    };
    let entry = &set::SET[i];
    for formats in [false, true] {
        let interpreted = set::interpreted(i, formats);
        let compiled = entry.compiled(formats);
        assert_eq!(
            compiled.is_valid(&instance),
            interpreted.is_valid(&instance),
            "{} (format assertion {formats}): is_valid differs on {instance}",
            entry.name
        );
        assert_eq!(
            compiled.validate(&instance),
            interpreted.validate(&instance),
            "{} (format assertion {formats}): validate differs on {instance}",
            entry.name
        );
    }
}
