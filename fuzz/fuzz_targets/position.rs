#![no_main]
//! Fuzzes `henka::fuzzing::position`: see that function for what it checks.

libfuzzer_sys::fuzz_target!(|data: &[u8]| henka::fuzzing::position(data));
