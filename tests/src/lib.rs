//! Shared harness for the conformance tests.
