//! RFC 4122 §3 string representation of a UUID.

/// `8-4-4-4-12` hexadecimal digits in either case; the version and variant
/// nibbles are not constrained, so every version (and the nil UUID) passes.
pub(super) fn is_uuid(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 36
        && b.iter().enumerate().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => *c == b'-',
            _ => c.is_ascii_hexdigit(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc4122_example_and_boundaries() {
        assert!(is_uuid("f81d4fae-7dec-11d0-a765-00a0c91e6bf6"));
        assert!(is_uuid("F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6"));
        assert!(is_uuid("00000000-0000-0000-0000-000000000000"));
        assert!(is_uuid("ffffffff-ffff-ffff-ffff-ffffffffffff"));
        assert!(!is_uuid("f81d4fae-7dec-11d0-a765-00a0c91e6bf"));
        assert!(!is_uuid("f81d4fae-7dec-11d0-a765-00a0c91e6bf6a"));
        assert!(!is_uuid("{f81d4fae-7dec-11d0-a765-00a0c91e6bf6}"));
        assert!(!is_uuid("urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6"));
        assert!(!is_uuid("f81d4fae7dec-11d0-a765-00a0c91e6bf6-"));
        assert!(!is_uuid("g81d4fae-7dec-11d0-a765-00a0c91e6bf6"));
        assert!(!is_uuid("f81d4fae-7dec-11d0-a765_00a0c91e6bf6"));
    }
}
