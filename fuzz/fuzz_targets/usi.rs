#![no_main]
//! Fuzzes `henka::fuzzing::usi`: see that function for what it checks and how `go` is bounded.

libfuzzer_sys::fuzz_target!(|data: &[u8]| henka::fuzzing::usi(data));
