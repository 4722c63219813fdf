//! See `toolschema_reliability::compiled`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| toolschema_reliability::compiled::check(data));
