//! Fuzz target `hub_position`: see `tests/fuzz_checks/mod.rs`.
#![no_main]

#[path = "../../tests/fuzz_checks/mod.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::hub_position(data));
