//! See `toolschema_reliability::evaluation`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| toolschema_reliability::evaluation::check(data));
