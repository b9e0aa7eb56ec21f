//! Black-box tests of `tempo uci` (protocol.md §3).

use crate::common;

use common::{Engine, PROMPT};
use std::time::Duration;
use tempo::draughts::{International, Russian};
use tempo::game::Game;
use tempo::variant::Variant;

fn ready() -> Engine {
    let mut e = Engine::start(&["uci"]);
    e.send("uci");
    e.until("uciok");
    e
}

/// Reads to `bestmove`; returns the move, the ponder move and the info lines.
fn result(e: &mut Engine) -> (String, Option<String>, Vec<String>) {
    let (line, before) = e.until("bestmove");
    for l in &before {
        assert!(l.starts_with("info "), "unexpected line: {l}");
    }
    let words: Vec<&str> = line.split_whitespace().collect();
    let ponder = (words.get(2) == Some(&"ponder")).then(|| words[3].to_string());
    (words[1].to_string(), ponder, before)
}

#[test]
fn handshake_lists_every_option() {
    let mut e = Engine::start(&["uci"]);
    e.send("uci");
    let (_, before) = e.until("uciok");
    assert!(before[0].starts_with("id name Tempo "));
    assert!(before[1].starts_with("id author "));
    let variant = before
        .iter()
        .find(|l| l.starts_with("option name UCI_Variant type combo default international "))
        .unwrap();
    for v in Variant::ALL {
        assert!(variant.contains(&format!(" var {}", v.name())), "{v}");
    }
    for name in [
        "Hash",
        "Threads",
        "MultiPV",
        "Ponder",
        "Clear Hash",
        "huffing",
        "counted-draws",
    ] {
        assert!(
            before
                .iter()
                .any(|l| l.starts_with(&format!("option name {name} type "))),
            "{name}"
        );
    }
    e.send("isready");
    e.until("readyok");
    e.send("quit");
    assert_eq!(e.wait_exit(PROMPT).0, Some(0));
    assert_eq!(e.stderr(), "");
}

#[test]
fn go_limits_end_with_a_legal_bestmove_and_well_formed_info() {
    let mut e = ready();
    let start = International::start();
    for go in [
        "go depth 4",
        "go nodes 5000",
        "go movetime 50",
        "go wtime 2000 btime 2000 winc 100 binc 100",
        "go wtime 30000 btime 30000 movestogo 40",
    ] {
        e.send("position startpos");
        e.send(go);
        let (mv, ponder, infos) = result(&mut e);
        let m = start
            .parse_move(&mv)
            .unwrap_or_else(|err| panic!("{go}: {mv}: {err}"));
        if let Some(p) = ponder {
            start.play(&m).parse_move(&p).unwrap();
        }
        assert!(!infos.is_empty(), "{go}");
        for info in &infos {
            let words: Vec<&str> = info.split_whitespace().collect();
            let keys: Vec<&str> = words
                .iter()
                .copied()
                .filter(|w| {
                    [
                        "depth", "seldepth", "multipv", "score", "nodes", "nps", "time", "hashfull", "pv",
                    ]
                    .contains(w)
                })
                .collect();
            assert_eq!(
                keys,
                [
                    "depth", "seldepth", "multipv", "score", "nodes", "nps", "time", "hashfull", "pv"
                ],
                "{info}"
            );
            assert!(
                info.contains(" score cp ") || info.contains(" score win "),
                "{info}"
            );
        }
    }
    // The depth limit is the last info's depth.
    e.send("go depth 3");
    let (_, _, infos) = result(&mut e);
    assert!(infos.last().unwrap().starts_with("info depth 3 "));
}

#[test]
fn infinite_and_ponder_wait_for_stop_and_ponderhit() {
    let mut e = ready();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    e.send("isready");
    let (_, _, before) = e.until_at(PROMPT, |l| l == "readyok");
    assert!(before.iter().all(|l| l.starts_with("info")));
    e.send("stop");
    result(&mut e);
    // A bare `go` is infinite too.
    e.send("go");
    std::thread::sleep(Duration::from_millis(200));
    e.send("stop");
    result(&mut e);
    e.send("position startpos moves 32-28");
    e.send("go ponder movetime 100");
    std::thread::sleep(Duration::from_millis(400));
    e.send("isready");
    let (_, _, before) = e.until_at(PROMPT, |l| l == "readyok");
    assert!(before.iter().all(|l| l.starts_with("info")), "{before:?}");
    let hit = e.send("ponderhit");
    let (at, _, _) = e.until_at(PROMPT, |l| l.starts_with("bestmove "));
    assert!(at - hit < Duration::from_millis(600));
    assert_eq!(e.stderr(), "");
}

#[test]
fn scores_report_wins_in_moves() {
    let mut e = ready();
    e.send("position fen W:W28:B23");
    e.send("go depth 3");
    let (mv, _, infos) = result(&mut e);
    assert_eq!(mv, "28x19");
    assert!(infos.last().unwrap().contains(" score win 1 "), "{infos:?}");
    // White's only move 46-41 is taken by 37x46: lost in one move.
    e.send("position fen W:W46:B37");
    e.send("go depth 3");
    let (_, _, infos) = result(&mut e);
    assert!(infos.last().unwrap().contains(" score win -1 "), "{infos:?}");
}

#[test]
fn russian_takes_numeric_and_algebraic_moves_and_answers_algebraic() {
    let mut e = ready();
    e.send("setoption name UCI_Variant value russian");
    // c3-d4 is 22-18 in numeric notation (square 22 is c3).
    e.send("position startpos moves c3-d4 f6-e5 d4xf6");
    e.send("go depth 3");
    let (mv, _, _) = result(&mut e);
    let mut pos = Russian::start();
    for m in ["c3-d4", "f6-e5", "d4xf6"] {
        pos = pos.play(&pos.parse_move(m).unwrap());
    }
    pos.parse_move(&mv).unwrap();
    assert!(mv.chars().next().unwrap().is_ascii_lowercase(), "{mv}");
    e.send("position startpos moves 22-18");
    e.send("go depth 1");
    result(&mut e);
    assert_eq!(e.stderr(), "");
}

#[test]
fn searchmoves_restricts_the_root() {
    let mut e = ready();
    e.send("position startpos");
    e.send("go depth 4 searchmoves 35-30");
    assert_eq!(result(&mut e).0, "35-30");
    e.send("go searchmoves 31-26 depth 3");
    assert_eq!(result(&mut e).0, "31-26");
}

#[test]
fn every_variant_plays_a_legal_move() {
    let mut e = ready();
    for v in Variant::ALL {
        e.send(&format!("setoption name UCI_Variant value {}", v.name()));
        e.send("ucinewgame");
        e.send("position startpos");
        e.send("go depth 3");
        let (mv, _, _) = result(&mut e);
        tempo::with_variant!(v, G => {
            G::start().parse_move(&mv).unwrap_or_else(|err| panic!("{v}: {mv}: {err}"));
        });
    }
}

#[test]
fn bad_input_gets_an_error_and_changes_nothing() {
    let mut e = ready();
    e.send("position fen W:W28:B23");
    for (line, needle) in [
        ("xyzzy", "unknown command"),
        ("position startpos moves 32-28 99-98", "bad move 2"),
        ("position fen W:W1:B2", "bad position"),
        ("position fen W", "no pieces on the board"),
        ("position", "position needs"),
        ("setoption name Hash value 0", "out of range"),
        ("setoption name Hash value 99999999999", "Hash"),
        (
            "setoption name Threads value 0",
            "Threads value 0 is out of range 1-64",
        ),
        (
            "setoption name Threads value 65",
            "Threads value 65 is out of range 1-64",
        ),
        (
            "setoption name Move Overhead value 10001",
            "Move Overhead takes milliseconds 0-10000",
        ),
        ("setoption name UCI_Variant value chess", "unknown variant"),
        ("setoption name huffing value perhaps", "huffing"),
        ("setoption name Nonsense value 1", "unknown option \"Nonsense\""),
        (
            "setoption name repetitions value 5",
            "option repetitions takes 3 or 4",
        ),
        ("setoption", "setoption needs"),
    ] {
        e.send(line);
        e.send("isready");
        let (_, _, before) = e.until_at(PROMPT, |l| l == "readyok");
        assert_eq!(before.len(), 1, "{line}: {before:?}");
        assert!(
            before[0].starts_with("info string error: ") && before[0].contains(needle),
            "{line}: {before:?}"
        );
    }
    // The last `position` was refused: no move until a valid one comes.
    e.send("go depth 2");
    let (err, _) = e.until("info string error");
    assert!(err.contains("no position to search"), "{err}");
    assert_eq!(e.until("bestmove").0, "bestmove (none)");
    e.send("position fen W:W28:B23");
    e.send("go depth 2");
    assert_eq!(result(&mut e).0, "28x19");
    // No legal move: an error, then `bestmove (none)`.
    e.send("position fen W:W:B23");
    e.send("go depth 2");
    let (line, before) = e.until("bestmove");
    assert_eq!(line, "bestmove (none)");
    assert!(
        before[0].starts_with("info string error: the game is over"),
        "{before:?}"
    );
    assert_eq!(e.stderr(), "");
}

#[test]
fn a_huge_hash_is_refused_and_the_engine_goes_on() {
    let mut e = ready();
    e.send(&format!(
        "setoption name Hash value {}",
        tempo::protocol::uci::HASH_MAX
    ));
    e.send("isready");
    let (_, _, before) = e.until_at(PROMPT, |l| l == "readyok");
    // Refused when it exceeds half of the available memory; accepted otherwise.
    if let Some(l) = before.first() {
        assert!(l.contains("does not fit"), "{l}");
    }
    e.send("position startpos");
    e.send("go depth 2");
    result(&mut e);
}

#[test]
fn quit_and_end_of_input_during_a_search_end_the_process() {
    let mut e = ready();
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.send("quit");
    let (code, took) = e.wait_exit(PROMPT);
    assert_eq!(code, Some(0));
    assert!(took < Duration::from_millis(500), "{took:?}");
    let mut e = ready();
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.close_stdin();
    let (code, took) = e.wait_exit(PROMPT);
    assert_eq!(code, Some(0));
    assert!(took < Duration::from_millis(500), "{took:?}");
    assert_eq!(e.stderr(), "");
}

#[test]
fn detection_starts_uci_from_the_first_line() {
    let mut e = Engine::start(&[]);
    e.send("uci");
    e.until("uciok");
    e.send("isready");
    e.until("readyok");
}

#[test]
fn housekeeping_commands_are_silent_and_harmless() {
    let mut e = ready();
    for line in [
        "setoption name Clear Hash",
        "setoption name MultiPV value 2",
        "setoption name Ponder value true",
        "setoption name counted-draws value false",
        // Option names are not case-sensitive.
        "setoption name Counted-Draws value true",
        "setoption name hash value 16",
        "setoption name Threads value 1",
        "setoption name UCI_Variant value shashki",
        "setoption name uci_variant value International",
        "debug on",
        "register later",
        "ponderhit",
        "stop",
        "",
        "   ",
    ] {
        e.send(line);
        e.send("isready");
        let (_, _, before) = e.until_at(PROMPT, |l| l == "readyok");
        assert!(before.is_empty(), "{line:?}: {before:?}");
    }
    // MultiPV 2 reports two lines per depth.
    e.send("position startpos");
    e.send("go depth 2");
    let (_, _, infos) = result(&mut e);
    assert!(infos.iter().any(|l| l.contains(" multipv 2 ")), "{infos:?}");
}

#[test]
fn the_clock_of_the_side_to_move_is_used() {
    let mut e = ready();
    // English: Black moves first. With 0.3 s on Black's clock the move comes at once, though
    // White's clock holds ten minutes; and the other way round in International.
    e.send("setoption name UCI_Variant value english");
    e.send("position startpos");
    let sent = e.send("go wtime 600000 btime 300 winc 0 binc 0");
    let (at, _, _) = e.until_at(PROMPT, |l| l.starts_with("bestmove "));
    assert!(at - sent < Duration::from_secs(2), "{:?}", at - sent);
    e.send("setoption name UCI_Variant value international");
    e.send("position startpos");
    let sent = e.send("go wtime 300 btime 600000");
    let (at, _, _) = e.until_at(PROMPT, |l| l.starts_with("bestmove "));
    assert!(at - sent < Duration::from_secs(2), "{:?}", at - sent);
    assert_eq!(e.stderr(), "");
}

#[test]
fn go_ends_a_running_search_and_position_waits_for_the_next() {
    let mut e = ready();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    // `position` during a search sets the next search's position; this one goes on.
    e.send("position fen W:W28:B23");
    e.send("isready");
    let (_, _, before) = e.until_at(PROMPT, |l| l == "readyok");
    assert!(before.iter().all(|l| l.starts_with("info ")), "{before:?}");
    // `go` ends the running search (its bestmove is for the start position) and starts anew.
    e.send("go depth 2");
    let (first, _, _) = result(&mut e);
    International::start().parse_move(&first).unwrap();
    assert_eq!(result(&mut e).0, "28x19");
    assert_eq!(e.stderr(), "");
}

#[test]
fn an_overlong_line_is_refused_and_the_engine_answers_on() {
    let mut e = ready();
    e.send(&format!("isready {}", "x".repeat(tempo::protocol::MAX_LINE)));
    let (err, _) = e.until("info string error: ");
    assert!(err.contains("line too long"), "{err}");
    e.send("isready");
    e.until("readyok");
    assert_eq!(e.stderr(), "");
}

#[test]
fn every_variant_takes_a_fen_with_moves_in_its_notation() {
    let mut e = ready();
    for v in Variant::ALL {
        e.send(&format!("setoption name UCI_Variant value {}", v.name()));
        tempo::with_variant!(v, G => {
            let start = G::start();
            let mut list = tempo::game::MoveList::new();
            start.generate(&mut list);
            let first = start.format_move(&list[0], tempo::game::MoveStyle::Standard);
            e.send(&format!("position fen {} moves {first}", start.to_fen()));
            e.send("go depth 1");
            let (mv, _, _) = result(&mut e);
            start
                .play(&list[0])
                .parse_move(&mv)
                .unwrap_or_else(|err| panic!("{v}: {mv}: {err}"));
        });
    }
    assert_eq!(e.stderr(), "");
}

/// Issue 17: `wtime` under four `winc` was answered in a millisecond. With 1 s on the clock and
/// 0.5 s to come back, the move must take a real share of the clock (about a quarter) and still be
/// made well inside it.
#[test]
fn a_clock_of_few_increments_is_spent_not_thrown_away() {
    let mut e = ready();
    e.send("position startpos");
    let sent = e.send("go wtime 1000 btime 1000 winc 500 binc 500");
    let (at, line, _) = e.until_at(PROMPT, |l| l.starts_with("bestmove"));
    assert!(!line.contains("(none)"), "{line}");
    let took = at - sent;
    assert!(took >= Duration::from_millis(100), "thought only {took:?}");
    assert!(took < Duration::from_millis(1_000), "lost on time: {took:?}");
}

/// Issue 17: an error about an over-long option name echoed all of it back.
#[test]
fn errors_quote_only_the_start_of_long_input() {
    let mut e = ready();
    let long = "n".repeat(500_000);
    for line in [
        format!("setoption name {long} value 1"),
        format!("setoption name {} value 1", "n ".repeat(200_000)),
        format!("go depth {long}"),
        format!("xyzzy{long}"),
    ] {
        e.send(&line);
        let (error, _) = e.until("info string error");
        assert!(error.len() < 600, "{} bytes: {}", error.len(), &error[..200]);
        assert!(error.contains("n...") || error.ends_with("..."), "{error}");
        e.send("isready");
        e.until("readyok");
    }
}

/// Issue 17: `go depth 300` answered an error and never `bestmove`, and `go movetime -5` was taken
/// as 0 silently. Every `go` must end in a `bestmove`, saying what it did with a bad value.
#[test]
fn every_go_ends_in_bestmove() {
    let mut e = ready();
    // One legal move, a capture that wins: every search of it is short.
    e.send("position fen W:W28:B23");
    for (line, said) in [
        (
            "go depth 300",
            "info string go depth 300: out of range 1-100; searching to depth 100",
        ),
        (
            "go depth 0",
            "info string go depth 0: out of range 1-100; searching to depth 1",
        ),
        ("go depth -1", "info string go depth -1: out of range"),
        (
            "go movetime -5",
            "info string go movetime -5: below 0; taken as 0",
        ),
        (
            "go think",
            "info string error: go: unknown word \"think\"; searching to depth 1",
        ),
        ("go mate 3", "info string error: go mate is not supported"),
        ("go nodes", "info string error: go nodes needs a number"),
        ("go movestogo 99999999999", "info string error: go movestogo"),
        (
            "go depth 2 searchmoves 99-98",
            "info string error: searchmoves 99-98",
        ),
    ] {
        e.send(line);
        let (mv, _, before) = result_after_notes(&mut e);
        assert_eq!(mv, "28x19", "{line}");
        assert!(
            before.first().is_some_and(|l| l.starts_with(said)),
            "{line}: {before:?}"
        );
        e.send("isready");
        e.until("readyok");
    }
    assert_eq!(e.stderr(), "");
}

/// Reads to `bestmove`, allowing `info string` lines; returns the move, the ponder move and the
/// lines before it.
fn result_after_notes(e: &mut Engine) -> (String, Option<String>, Vec<String>) {
    let (line, before) = e.until("bestmove");
    for l in &before {
        assert!(l.starts_with("info "), "unexpected line: {l}");
    }
    let words: Vec<&str> = line.split_whitespace().collect();
    let ponder = (words.get(2) == Some(&"ponder")).then(|| words[3].to_string());
    (words[1].to_string(), ponder, before)
}

/// End of input during a search that ends by itself lets it finish and answer (a script piping
/// `go depth 6` wants the move); an infinite search is stopped and answered at once.
#[test]
fn end_of_input_answers_the_running_search() {
    let mut e = ready();
    e.send("position startpos");
    e.send("go depth 6");
    e.close_stdin();
    let (mv, _, infos) = result(&mut e);
    assert!(International::start().parse_move(&mv).is_ok(), "{mv}");
    assert!(
        infos.last().is_some_and(|l| l.starts_with("info depth 6 ")),
        "{infos:?}"
    );
    assert_eq!(e.wait_exit(PROMPT).0, Some(0));

    let mut e = ready();
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.close_stdin();
    result(&mut e);
    let (code, took) = e.wait_exit(PROMPT);
    assert_eq!(code, Some(0));
    assert!(took < Duration::from_millis(500), "{took:?}");
    assert_eq!(e.stderr(), "");
}

#[test]
fn two_threads_search_and_stop_promptly() {
    let mut e = Engine::start(&["uci"]);
    e.send("uci");
    let (_, options) = e.until("uciok");
    assert!(
        options
            .iter()
            .any(|l| l == "option name Threads type spin default 1 min 1 max 64"),
        "{options:?}"
    );
    e.send("setoption name Threads value 2");
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(500));
    let sent = e.send("stop");
    let (at, line, before) = e.until_at(PROMPT, |l| l.starts_with("bestmove "));
    assert!(
        at - sent < Duration::from_millis(300),
        "stop took {:?}",
        at - sent
    );
    assert!(before.iter().all(|l| l.starts_with("info ")), "{before:?}");
    let mv = line.split_whitespace().nth(1).unwrap();
    International::start().parse_move(mv).unwrap();
    e.send("go movetime 200");
    let (mv, _, _) = result(&mut e);
    International::start().parse_move(&mv).unwrap();
    e.send("uci");
    let (_, options) = e.until("uciok");
    assert!(
        options
            .iter()
            .any(|l| l.starts_with("option name Threads type spin default 2 "))
    );
    e.send("quit");
    assert_eq!(e.wait_exit(PROMPT).0, Some(0));
    assert_eq!(e.stderr(), "");
}

/// After a refused `position`, `go` answers with an error and `bestmove (none)` until a valid
/// position arrives (it used to search the position kept from before, which the GUI never sent).
#[test]
fn a_refused_position_is_not_searched() {
    let mut e = ready();
    for bad in [
        "position fen W:W99:B1",
        "position startpos moves 32-28 99-98",
        "position",
    ] {
        e.send(bad);
        let (err, _) = e.until("info string error");
        assert!(!err.contains("no position to search"), "{bad}: {err}");
        e.send("go depth 2");
        let (err, before) = e.until("info string error");
        assert!(before.is_empty(), "{bad}: {before:?}");
        assert!(err.contains("no position to search"), "{bad}: {err}");
        let (best, before) = e.until("bestmove");
        assert!(before.is_empty(), "{bad}: {before:?}");
        assert_eq!(best, "bestmove (none)", "{bad}");
    }
    e.send("position startpos");
    e.send("go depth 2");
    let (mv, _, _) = result(&mut e);
    International::start().parse_move(&mv).unwrap();
}
