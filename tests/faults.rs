//! Faults a client can cause, through the binary, in both dialects (end of input and `quit` during a
//! search are in `tests/hub.rs` and `tests/uci.rs`):
//! - the client closes its end of stdout during a search: the engine ends, promptly, with status 0
//!   and nothing on stderr;
//! - `go` while a search runs: the running search ends with its move, then the new one runs;
//! - `ponder-hit`/`ponderhit` during a search that is not pondering, `init` twice, `set-param` /
//!   `setoption` during a search: each handled as the protocol says, the engine going on;
//! - tables beyond the machine (`tt-size`, `Hash`): refused with an error line, never an abort.

use crate::common;

use common::{Engine, PROMPT};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use tempo::draughts::{International, Russian};
use tempo::game::Game;
use tempo::protocol::hub::parse_line;
use tempo::tt::Tt;

/// Starts `tempo <dialect>`, sends `setup`, reads until a line starting with `until`, then closes
/// the read end of the engine's stdout and measures how long the process takes to end.
fn close_stdout_during_search(dialect: &str, setup: &[&str], until: &str, grace: Duration) -> Duration {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tempo"))
        .arg(dialect)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut stderr = child.stderr.take().unwrap();
    for l in setup {
        writeln!(stdin, "{l}").unwrap();
    }
    stdin.flush().unwrap();
    let mut line = String::new();
    loop {
        line.clear();
        assert!(
            stdout.read_line(&mut line).unwrap() > 0,
            "{dialect}: output ended early"
        );
        if line.starts_with(until) {
            break;
        }
    }
    // The client goes away from the engine's output; its input stays open.
    drop(stdout);
    let closed = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if closed.elapsed() > grace {
            let _ = child.kill();
            panic!("{dialect}: still running {grace:?} after its stdout was closed");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let took = closed.elapsed();
    drop(stdin);
    let mut err = String::new();
    stderr.read_to_string(&mut err).unwrap();
    assert_eq!(err, "", "{dialect}: stderr");
    assert_eq!(status.code(), Some(0), "{dialect}: exit status");
    took
}

#[test]
fn a_closed_stdout_during_a_search_ends_the_engine_cleanly() {
    // A timed search: its next `info` or its `done` finds the pipe closed.
    let hub = close_stdout_during_search(
        "hub",
        &["hub", "init", "pos start", "level move-time=0.5", "go think"],
        "info",
        Duration::from_secs(5),
    );
    assert!(hub < Duration::from_millis(1500), "hub: {hub:?}");
    let uci = close_stdout_during_search(
        "uci",
        &["uci", "position startpos", "go movetime 500"],
        "info",
        Duration::from_secs(5),
    );
    assert!(uci < Duration::from_millis(1500), "uci: {uci:?}");
    // An infinite search ends too: at its next line of output at the latest.
    let hub = close_stdout_during_search(
        "hub",
        &["hub", "init", "pos start", "level infinite", "go analyze"],
        "info depth=3",
        Duration::from_secs(30),
    );
    let uci = close_stdout_during_search(
        "uci",
        &["uci", "position startpos", "go infinite"],
        "info depth 3",
        Duration::from_secs(30),
    );
    eprintln!("closed stdout: infinite search ended after {hub:?} (hub), {uci:?} (uci)");
}

fn hub_ready() -> Engine {
    let mut e = Engine::start(&["hub"]);
    e.send("hub");
    e.until("wait");
    e.send("init");
    e.until("ready");
    e
}

fn done_move(line: &str) -> String {
    parse_line(line).unwrap().get("move").expect("a move").to_string()
}

#[test]
fn hub_go_during_a_search_ends_it_then_searches_again() {
    let mut e = hub_ready();
    e.send("pos start");
    e.send("level infinite");
    e.send("go analyze");
    e.until("info");
    e.send("level depth=3");
    // `level` ended the first search; this `go` starts the second with depth 3.
    let (first, _) = e.until("done");
    International::start().parse_move(&done_move(&first)).unwrap();
    e.send("go think");
    let (second, _) = e.until("done");
    International::start().parse_move(&done_move(&second)).unwrap();
    // A `go` straight into a running search: one `done` for each.
    e.send("level infinite");
    e.send("go analyze");
    e.send("go analyze");
    e.until("done");
    e.send("ping");
    let (_, _, before) = e.until_at(PROMPT, |l| l == "pong");
    assert!(before.iter().all(|l| l.starts_with("info")), "{before:?}");
    e.send("stop");
    e.until("done");
    e.send("ping");
    let (_, _, before) = e.until_at(PROMPT, |l| l == "pong");
    assert!(before.iter().all(|l| l.starts_with("info")), "{before:?}");
    assert_eq!(e.stderr(), "");
}

#[test]
fn hub_init_twice_ponder_hit_and_set_param_during_a_search() {
    let mut e = hub_ready();
    // `init` again (lidraughts re-sends it): `ready` again.
    e.send("set-param name=multipv value=1");
    e.send("init");
    e.until("ready");
    // `ponder-hit` during a search that is not pondering changes nothing.
    e.send("pos start");
    e.send("level depth=4");
    e.send("go think");
    e.send("ponder-hit");
    let (done, before) = e.until("done");
    assert!(before.iter().all(|l| l.starts_with("info")), "{before:?}");
    International::start().parse_move(&done_move(&done)).unwrap();
    // `set-param` during a search ends it, then takes effect: the next search is Russian.
    e.send("level infinite");
    e.send("go analyze");
    e.until("info");
    e.send("set-param name=variant value=russian");
    e.until("done");
    e.send("pos start");
    e.send("level depth=3");
    e.send("go think");
    let (done, _) = e.until("done");
    // Hub numbers Russian moves from a1, as pydraughts does (protocol.md 4.6).
    let mv = tempo::variant::Variant::Russian
        .hub_notation()
        .move_to_tempo(&done_move(&done));
    Russian::start().parse_move(&mv).unwrap();
    assert_eq!(e.stderr(), "");
}

fn uci_ready() -> Engine {
    let mut e = Engine::start(&["uci"]);
    e.send("uci");
    e.until("uciok");
    e
}

fn bestmove(line: &str) -> String {
    line.split_whitespace().nth(1).unwrap().to_string()
}

#[test]
fn uci_go_ponderhit_and_setoption_during_a_search() {
    let mut e = uci_ready();
    e.send("position startpos");
    e.send("go infinite");
    e.until("info");
    // `go` during a search ends it with its move, then searches again.
    e.send("go depth 3");
    let (first, _) = e.until("bestmove");
    International::start().parse_move(&bestmove(&first)).unwrap();
    let (second, _) = e.until("bestmove");
    International::start().parse_move(&bestmove(&second)).unwrap();
    // `ponderhit` in a search that does not ponder: ignored.
    e.send("go depth 4");
    e.send("ponderhit");
    let (line, _) = e.until("bestmove");
    International::start().parse_move(&bestmove(&line)).unwrap();
    // `setoption` during a search ends it, then takes effect.
    e.send("go infinite");
    e.until("info");
    e.send("setoption name UCI_Variant value russian");
    e.until("bestmove");
    e.send("position startpos");
    e.send("go depth 3");
    let (line, _) = e.until("bestmove");
    Russian::start().parse_move(&bestmove(&line)).unwrap();
    // `uci` twice: the handshake again.
    e.send("uci");
    e.until("uciok");
    assert_eq!(e.stderr(), "");
}

#[test]
fn tables_beyond_the_machine_are_refused_with_an_error() {
    let mut e = hub_ready();
    let mut errors = vec![("set-param name=tt-size value=1000000000", "out of range")];
    // tt-size 30 is 16 GiB: refused wherever half the available memory is less.
    if 16 << 10 > Tt::max_mib() {
        errors.push(("set-param name=tt-size value=30", "does not fit"));
    }
    for (line, needle) in errors {
        e.send(line);
        e.send("ping");
        let (_, _, before) = e.until_at(PROMPT, |l| l == "pong");
        assert_eq!(before.len(), 1, "{line}: {before:?}");
        assert!(
            before[0].starts_with("error ") && before[0].contains(needle),
            "{before:?}"
        );
    }
    // The table and the engine are as before.
    e.send("hub");
    let (_, params) = e.until("wait");
    assert!(
        params
            .iter()
            .any(|l| l.starts_with("param name=tt-size value=22 ")),
        "{params:?}"
    );
    e.send("pos start");
    e.send("level depth=3");
    e.send("go think");
    e.until("done move=");
    assert_eq!(e.stderr(), "");

    let mut e = uci_ready();
    let mut errors = vec![("setoption name Hash value 99999999", "out of range")];
    if 65_536 > Tt::max_mib() {
        errors.push(("setoption name Hash value 65536", "does not fit"));
    }
    for (line, needle) in errors {
        e.send(line);
        e.send("isready");
        let (_, _, before) = e.until_at(PROMPT, |l| l == "readyok");
        assert_eq!(before.len(), 1, "{line}: {before:?}");
        assert!(
            before[0].starts_with("info string error: ") && before[0].contains(needle),
            "{before:?}"
        );
    }
    e.send("position startpos");
    e.send("go depth 3");
    e.until("bestmove");
    assert_eq!(e.stderr(), "");
}

#[test]
fn a_variant_change_never_holds_two_tables() {
    // tt-size 23: 128 MiB, every page written when the table is made.
    let mut e = hub_ready();
    e.send("set-param name=tt-size value=23");
    for v in ["russian", "frisian", "normal"] {
        e.send(&format!("set-param name=variant value={v}"));
    }
    e.send("ping");
    let (_, _, before) = e.until_at(PROMPT, |l| l == "pong");
    assert!(before.is_empty(), "{before:?}");
    let Some(peak) = e.status_kib("VmHWM") else {
        eprintln!("skipped: no /proc/<pid>/status here");
        return;
    };
    let peak_mib = peak / 1024;
    eprintln!("peak resident memory with a 128 MiB table and three variant changes: {peak_mib} MiB");
    assert!(peak_mib < 128 + 96, "{peak_mib} MiB: two tables at once");
    assert_eq!(e.stderr(), "");
}

/// Runs `tempo args` with its standard output closed by the reader before anything is written;
/// the command must end without a panic, with status 0 or killed by SIGPIPE (141 in a shell).
fn closed_pipe(args: &[&str]) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tempo"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tempo runs");
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !err.contains("panicked") && !err.contains("Broken pipe"),
        "{args:?}: {err}"
    );
    assert!(
        out.status.success() || std::os::unix::process::ExitStatusExt::signal(&out.status) == Some(13),
        "{args:?}: {:?} {err}",
        out.status
    );
}

#[test]
fn every_command_stops_quietly_when_its_reader_goes_away() {
    closed_pipe(&["perft", "--depth", "7"]);
    closed_pipe(&["perft", "--depth", "4", "--divide"]);
    closed_pipe(&["bench", "--depth", "3"]);
    closed_pipe(&["search", "--depth", "9"]);
    closed_pipe(&["analyze", "--depth", "8"]);
    closed_pipe(&["analyze", "--depth", "4", "--json", "--multipv", "3"]);
    closed_pipe(&["show"]);
    closed_pipe(&["egdb", "build", "--variant", "russian", "--pieces", "6", "--list"]);
    closed_pipe(&["--help"]);
}
