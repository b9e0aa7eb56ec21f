//! Compatibility with the real pydraughts `HubEngine` (the client lidraughts-bot and pydraughts'
//! tournaments use): complete games in International, Frisian, Antidraughts and Breakthrough, with
//! pydraughts as the independent referee of every move and lidraughts' pattern checked on every
//! `info` line (`tests/compat/pydraughts_games.py`).
//!
//! Needs a Python with pydraughts: `TEMPO_PYDRAUGHTS_PYTHON=/path/to/venv/bin/python`. Without it
//! the test says so and passes, unless `TEMPO_REQUIRE_PYDRAUGHTS=1` (set by `.ci/run`, which
//! installs pydraughts), where a missing pydraughts fails it.

use std::process::Command;

#[test]
fn pydraughts_hub_engine_plays_complete_legal_games() {
    let python = match std::env::var("TEMPO_PYDRAUGHTS_PYTHON") {
        Ok(p) => p,
        Err(_) => {
            assert!(
                std::env::var_os("TEMPO_REQUIRE_PYDRAUGHTS").is_none(),
                "TEMPO_REQUIRE_PYDRAUGHTS is set but TEMPO_PYDRAUGHTS_PYTHON is not"
            );
            eprintln!("skipped: set TEMPO_PYDRAUGHTS_PYTHON to a Python with pydraughts installed");
            return;
        }
    };
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/compat/pydraughts_games.py");
    let output = Command::new(&python)
        .args([script, env!("CARGO_BIN_EXE_tempo"), "2"])
        .output()
        .unwrap_or_else(|e| panic!("cannot run {python}: {e}"));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    eprintln!("{stdout}");
    assert!(output.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("ok: "), "{stdout}");
    for variant in ["standard", "frisian", "antidraughts", "breakthrough"] {
        assert!(stdout.contains(&format!("{variant} game 2:")), "{stdout}");
    }
}
