//! See `toolschema_reliability::schema_building`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| toolschema_reliability::schema_building::check(data));
