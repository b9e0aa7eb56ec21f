//! Fuzz target `uci_line`: see `tests/fuzz_checks/mod.rs`.
#![no_main]

#[path = "../../tests/fuzz_checks/mod.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::uci_lines(data));
