//! Replays every input kept from fuzzing (`tests/data/fuzz-regressions/<target>/`) through the
//! fuzz targets' own checks (`tests/fuzz_checks/mod.rs`), so that a finding, once fixed, stays fixed
//! in a plain `cargo test` without cargo-fuzz. New findings are added by copying the fuzzer's
//! `crash-*`/`timeout-*` file (or the minimized input) into the target's directory.

use crate::fuzz_checks;

use std::path::Path;

fn replay(target: &str, check: fn(&[u8])) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/fuzz-regressions")
        .join(target);
    let mut n = 0;
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        let data = std::fs::read(&path).unwrap();
        eprintln!("{target}: {}", path.display());
        check(&data);
        n += 1;
    }
    n
}

#[test]
fn fen_inputs() {
    assert!(replay("fen", fuzz_checks::fen) > 0);
}

#[test]
fn hub_position_inputs() {
    assert!(replay("hub_position", fuzz_checks::hub_position) > 0);
}

#[test]
fn move_notation_inputs() {
    assert!(replay("move_notation", fuzz_checks::move_notation) > 0);
}

#[test]
fn hub_line_inputs() {
    assert!(replay("hub_line", fuzz_checks::hub_lines) > 0);
}

#[test]
fn uci_line_inputs() {
    assert!(replay("uci_line", fuzz_checks::uci_lines) > 0);
}
