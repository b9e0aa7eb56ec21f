//! When the search thread cannot be started, the engine says so with an `internal error` line of
//! its dialect (protocol.md §1) and still answers the `go` with a legal move. The failure is
//! injected with a search stack larger than the address space (`TEMPO_SEARCH_STACK_MIB`).

use std::io::Write;
use std::process::{Command, Stdio};
use tempo::draughts::International;
use tempo::engine::{Engine, Event, STACK_VARIABLE};
use tempo::game::{Game, MoveList};
use tempo::search::Limits;

/// Runs `tempo <dialect>` with an impossible search stack on `input`; returns stdout and stderr.
fn run(dialect: &str, input: &str) -> (Vec<String>, String) {
    run_with_stack(dialect, input, "1000000000000")
}

/// Runs `tempo <dialect>` with a search stack of `mib` MiB on `input`; returns stdout and stderr.
fn run_with_stack(dialect: &str, input: &str, mib: &str) -> (Vec<String>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tempo"))
        .arg(dialect)
        .env(STACK_VARIABLE, mib)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tempo starts");
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let lines = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    (lines, String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn hub_reports_an_internal_error_and_answers() {
    let (lines, stderr) = run("hub", "hub\npos start\nlevel depth=3\ngo think\nping\n");
    let at = lines
        .iter()
        .position(|l| l.starts_with("error message=\"internal error: the search thread could not"))
        .unwrap_or_else(|| panic!("no internal error: {lines:?}"));
    let done = &lines[at + 1];
    let mv = done
        .strip_prefix("done move=")
        .unwrap_or_else(|| panic!("{lines:?}"));
    assert!(International::start().parse_move(mv).is_ok(), "{done}");
    assert_eq!(lines.last().map(String::as_str), Some("pong"));
    assert_eq!(stderr, "");
}

/// A stack too small for the search (`TEMPO_SEARCH_STACK_MIB=0` or 1) gets the same documented
/// error and a legal move: it used to start the thread and abort the process with a stack
/// overflow.
#[test]
fn a_stack_too_small_is_the_same_error() {
    for mib in ["0", "1"] {
        let (lines, stderr) = run_with_stack("hub", "hub\npos start\nlevel depth=3\ngo think\nping\n", mib);
        let at = lines
            .iter()
            .position(|l| l.starts_with("error message=\"internal error: the search thread could not"))
            .unwrap_or_else(|| panic!("{mib}: no internal error: {lines:?}"));
        let mv = lines[at + 1]
            .strip_prefix("done move=")
            .unwrap_or_else(|| panic!("{lines:?}"));
        assert!(International::start().parse_move(mv).is_ok(), "{mv}");
        assert_eq!(lines.last().map(String::as_str), Some("pong"));
        assert_eq!(stderr, "");
    }
}

#[test]
fn uci_reports_an_internal_error_and_answers() {
    let (lines, stderr) = run("uci", "uci\nposition startpos\ngo depth 3\nisready\n");
    let at = lines
        .iter()
        .position(|l| l.starts_with("info string error: internal error: the search thread"))
        .unwrap_or_else(|| panic!("no internal error: {lines:?}"));
    let mv = lines[at + 1]
        .strip_prefix("bestmove ")
        .unwrap_or_else(|| panic!("{lines:?}"));
    assert!(International::start().parse_move(mv).is_ok(), "{mv}");
    assert_eq!(lines.last().map(String::as_str), Some("readyok"));
    assert_eq!(stderr, "");
}

#[test]
fn the_engine_keeps_the_reason_and_still_sends_done() {
    let mut engine = Engine::<International>::new(1);
    engine.set_stack_size(1 << 50);
    let limits = Limits {
        depth: Some(3),
        ..Limits::default()
    };
    engine.go(International::start(), Vec::new(), limits, false);
    let why = engine.take_failure().expect("the thread cannot start");
    assert!(why.contains("could not be started"), "{why}");
    assert_eq!(engine.take_failure(), None, "reported once");
    let mut moves = MoveList::new();
    International::start().generate(&mut moves);
    match engine.events().try_recv() {
        Ok(Event::Done { best, .. }) => assert_eq!(best, moves.first().copied()),
        other => panic!("{other:?}"),
    }
    // A later search with a normal stack runs and reports no failure.
    engine.set_stack_size(tempo::engine::SEARCH_STACK);
    engine.go(International::start(), Vec::new(), limits, false);
    assert_eq!(engine.take_failure(), None);
}
