//! See `toolschema_reliability::formats`; the growth in time is asserted here, in the fuzzer
//! only.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Some(growth) = toolschema_reliability::formats::check(data) {
        growth.assert_linear();
    }
});
