//! ECMA-262 patterns.
