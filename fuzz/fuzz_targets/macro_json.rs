//! See `toolschema_reliability::macro_json`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| toolschema_reliability::macro_json::check(data));
