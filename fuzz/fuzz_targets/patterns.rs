//! See `toolschema_reliability::patterns`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| toolschema_reliability::patterns::check(data));
