//! Black-box tests of `tempo hub` (protocol.md §2): the binary driven line by line as the Hub GUI,
//! pydraughts and lidraughts drive Scan.

use crate::common;

use common::{Engine, PROMPT};
use std::time::Duration;
use tempo::draughts::International;
use tempo::game::Game;
use tempo::protocol::hub::parse_line;
use tempo::variant::Variant;

fn ready() -> Engine {
    let mut e = Engine::start(&["hub"]);
    e.send("hub");
    e.until("wait");
    e.send("init");
    e.until("ready");
    e
}

/// The move of a `done` line.
fn done_move(line: &str) -> String {
    let l = parse_line(line).unwrap();
    assert_eq!(l.command, "done");
    l.get("move").expect("done has a move").to_string()
}

/// Reads the `done` of a search, checks every `info` before it and returns the move.
fn search_result(e: &mut Engine) -> (String, Vec<String>) {
    let (done, before) = e.until("done");
    for l in &before {
        assert!(l.starts_with("info "), "unexpected line during search: {l}");
    }
    (done_move(&done), before)
}

fn legal_in(pos: &International, mv: &str) {
    pos.parse_move(mv)
        .unwrap_or_else(|e| panic!("{mv} is not legal: {e}"));
}

#[test]
fn handshake_lines_are_key_value_only_and_init_is_prompt() {
    let mut e = Engine::start(&["hub"]);
    e.send("hub");
    let (_, before) = e.until("wait");
    assert!(before[0].starts_with("id name=Tempo version="), "{}", before[0]);
    // lidraughts takes the name up to `author=`: name and version come first.
    assert!(before[0].contains(" author=") && before[0].contains(" country="));
    for line in &before {
        let parsed = parse_line(line).unwrap();
        assert!(parsed.command == "id" || parsed.command == "param", "{line}");
        // pydraughts splits every argument at `=`: no flags, no `=` inside values.
        for (name, value) in &parsed.args {
            let v = value.as_ref().unwrap_or_else(|| panic!("flag {name} in {line}"));
            assert!(!v.contains('='), "{line}");
        }
    }
    let variant = before
        .iter()
        .find(|l| l.starts_with("param name=variant "))
        .unwrap();
    let values = parse_line(variant).unwrap().get("values").unwrap().to_string();
    for scan_name in ["normal", "killer", "bt", "frisian", "losing"] {
        assert!(values.split(' ').any(|v| v == scan_name), "{values}");
    }
    assert_eq!(values.split(' ').count(), Variant::ALL.len());
    for name in [
        "tt-size",
        "threads",
        "ponder",
        "multipv",
        "huffing",
        "counted-draws",
    ] {
        assert!(
            before
                .iter()
                .any(|l| l.starts_with(&format!("param name={name} "))),
            "param {name}"
        );
    }
    let sent = e.send("init");
    let (at, _, _) = e.until_at(PROMPT, |l| l == "ready");
    assert!(at - sent < Duration::from_secs(1), "init took {:?}", at - sent);
    e.send("quit");
    assert_eq!(e.wait_exit(PROMPT).0, Some(0));
    assert_eq!(e.stderr(), "");
}

#[test]
fn each_level_ends_a_search_with_a_legal_move() {
    let mut e = ready();
    let start = International::start();
    for level in [
        "level depth=4",
        "level nodes=5000",
        "level move-time=0.05",
        "level time=2 inc=0.1",
        "level moves=40 time=30",
        "level time=0.5",
    ] {
        e.send("pos start");
        e.send(level);
        e.send("go think");
        let (mv, infos) = search_result(&mut e);
        legal_in(&start, &mv);
        assert!(!infos.is_empty(), "{level}: no info");
    }
    // Depth: the deepest info is the level's depth.
    e.send("pos start");
    e.send("level depth=3");
    e.send("go think");
    let (_, infos) = search_result(&mut e);
    let last = parse_line(infos.last().unwrap()).unwrap();
    assert_eq!(last.get("depth"), Some("3"));
    // Several level lines add up: the depth bound still holds with a move time.
    e.send("pos start");
    e.send("level move-time=5");
    e.send("level depth=2");
    e.send("go think");
    let (_, infos) = search_result(&mut e);
    assert_eq!(parse_line(infos.last().unwrap()).unwrap().get("depth"), Some("2"));
    assert_eq!(e.stderr(), "");
}

#[test]
fn info_lines_follow_scans_order_and_units() {
    let mut e = ready();
    e.send("pos start");
    e.send("level depth=6");
    e.send("go think");
    let (_, infos) = search_result(&mut e);
    for line in &infos {
        let parsed = parse_line(line).unwrap();
        let names: Vec<&str> = parsed.args.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            ["depth", "mean-depth", "score", "nodes", "time", "nps", "pv"],
            "{line}"
        );
        let get = |n: &str| parsed.get(n).unwrap().to_string();
        get("depth").parse::<u32>().unwrap();
        get("nodes").parse::<u64>().unwrap();
        let score = get("score");
        assert_eq!(score.split('.').nth(1).map(str::len), Some(2), "{line}");
        assert_eq!(get("time").split('.').nth(1).map(str::len), Some(3), "{line}");
        assert_eq!(get("nps").split('.').nth(1).map(str::len), Some(1), "{line}");
        // A one-move line is bare, a longer one quoted.
        let pv = get("pv");
        assert_eq!(line.contains("pv=\""), pv.contains(' '), "{line}");
    }
}

#[test]
fn a_won_position_scores_as_a_win_in_plies() {
    let mut e = ready();
    // White man on 28 takes the last black man on 23 next move (win in 1 ply).
    e.send("pos pos=W:W28:B23");
    e.send("level depth=3");
    // Analysis searches a forced move (a game move would be played at once, with no info).
    e.send("go analyze");
    let (mv, infos) = search_result(&mut e);
    assert_eq!(mv, "28x19x23");
    let score = parse_line(infos.last().unwrap())
        .unwrap()
        .get("score")
        .unwrap()
        .to_string();
    assert_eq!(score, "99.99");
}

#[test]
fn ping_and_ponder_hit_do_not_end_a_search_other_commands_do() {
    let mut e = ready();
    e.send("pos start");
    e.send("level infinite");
    e.send("go analyze");
    std::thread::sleep(Duration::from_millis(50));
    e.send("ping");
    let (_, _, before) = e.until_at(PROMPT, |l| l == "pong");
    assert!(before.iter().all(|l| l.starts_with("info")), "{before:?}");
    e.send("ponder-hit");
    e.silent_for_non_info(Duration::from_millis(200));
    // `new-game` ends the search with `done`, then is carried out.
    e.send("new-game");
    let (mv, _) = search_result(&mut e);
    legal_in(&International::start(), &mv);
    e.send("ping");
    e.until("pong");
    // `pos` during a search ends it, and the next search starts from the new position.
    e.send("level infinite");
    e.send("go analyze");
    e.send("pos pos=W:W28:B23");
    search_result(&mut e);
    e.send("level depth=2");
    e.send("go think");
    assert_eq!(search_result(&mut e).0, "28x19x23");
    assert_eq!(e.stderr(), "");
}

trait Quiet {
    fn silent_for_non_info(&mut self, wait: Duration);
}

impl Quiet for Engine {
    /// Asserts that nothing but `info` lines arrives for `wait`.
    fn silent_for_non_info(&mut self, wait: Duration) {
        let deadline = std::time::Instant::now() + wait;
        while let Some((_, l)) =
            self.next_within(deadline.saturating_duration_since(std::time::Instant::now()))
        {
            assert!(l.starts_with("info"), "unexpected {l}");
        }
    }
}

#[test]
fn ponder_waits_for_ponder_hit_then_uses_its_time() {
    let mut e = ready();
    e.send("pos start moves=\"32-28\"");
    e.send("level move-time=0.1");
    e.send("go ponder");
    // The clock does not run while pondering: no `done` long after the move time.
    e.silent_for_non_info(Duration::from_millis(400));
    let hit = e.send("ponder-hit");
    let (at, line, _) = e.until_at(PROMPT, |l| l.starts_with("done"));
    let took = at - hit;
    assert!(took < Duration::from_millis(600), "{took:?}");
    let pos = International::start().play(&International::start().parse_move("32-28").unwrap());
    legal_in(&pos, &done_move(&line));
}

#[test]
fn multipv_reports_several_lines() {
    let mut e = ready();
    e.send("set-param name=multipv value=3");
    e.send("pos start");
    e.send("level depth=3");
    e.send("go analyze");
    let (_, infos) = search_result(&mut e);
    for k in 2..=3 {
        assert!(
            infos.iter().any(|l| l.ends_with(&format!(" multipv={k}"))),
            "{infos:?}"
        );
    }
    assert!(!infos[0].contains("multipv"), "line 1 is as Scan prints it");
}

#[test]
fn every_variant_searches_and_answers_a_legal_move() {
    let mut e = ready();
    for v in Variant::ALL {
        e.send(&format!("set-param name=variant value={}", v.name()));
        e.send("new-game");
        e.send("pos start");
        e.send("level depth=3");
        e.send("go think");
        let (mv, _) = search_result(&mut e);
        // The move comes in the variant's Hub numbering (pydraughts' on its boards).
        let tempo_mv = v.hub_notation().move_to_tempo(&mv);
        tempo::with_variant!(v, G => {
            G::start()
                .parse_move(&tempo_mv)
                .unwrap_or_else(|err| panic!("{v}: {mv}: {err}"));
        });
    }
    assert_eq!(e.stderr(), "");
}

#[test]
fn positions_take_hub_strings_fen_and_every_move_form() {
    let mut e = ready();
    let hub = International::start().to_hub();
    // Full Hub capture, short PDN capture, then the position string and a FEN.
    e.send(&format!(
        "pos pos={hub} moves=\"32-28 19-23 28x19 14x23x19 34-29\""
    ));
    e.send("level depth=1");
    e.send("go think");
    let (mv, _) = search_result(&mut e);
    assert_eq!(mv, "23x34x29", "the capture is forced");
    e.send("pos pos=\"B:W29:B23\"");
    e.send("level depth=1");
    e.send("go think");
    assert_eq!(search_result(&mut e).0, "23x34x29");
}

#[test]
fn bad_lines_get_errors_and_change_nothing() {
    let mut e = ready();
    e.send("pos pos=W:W28:B23");
    for (line, needle) in [
        ("", "missing command"),
        ("frobnicate now=1", "bad command"),
        ("pos pos=Xbbbb", "bad position"),
        ("pos moves=\"32-28 99-98\"", "bad move 2"),
        ("pos moves=\"32-28", "unterminated"),
        ("level depth=abc", "depth"),
        ("level move-time=-1", "move-time"),
        ("level nodes=99999999999999999999999", "nodes"),
        ("set-param name=tt-size value=99", "tt-size"),
        (
            "set-param name=move-overhead value=10001",
            "move-overhead=10001 is out of range 0-10000",
        ),
        ("set-param name=move-overhead value=-5", "move-overhead"),
        ("set-param name=variant value=chess", "unknown variant"),
        ("set-param name=huffing value=maybe", "huffing"),
        ("set-param name=nonsense value=1", "unknown parameter nonsense"),
        (
            "set-param name=repetitions value=5",
            "option repetitions takes 3 or 4",
        ),
        ("pos pos=W:W30:B1:Q5", "bad position: unknown field"),
        (
            "pos start moves=\"32-28\" extra\"",
            "a quote mark is unexpected at column",
        ),
        ("set-param value=1", "set-param needs"),
        ("=== \u{1}\u{2}", "command"),
    ] {
        e.send(line);
        e.send("ping");
        let (_, _, before) = e.until_at(PROMPT, |l| l == "pong");
        assert_eq!(before.len(), 1, "{line:?}: {before:?}");
        assert!(
            before[0].starts_with("error message=") && before[0].contains(needle),
            "{line:?}: {before:?}"
        );
        parse_line(&before[0]).expect("error lines are Hub lines");
        assert!(!before[0].contains("bad position: bad position"), "{before:?}");
    }
    // The last `pos` was refused: no move for the position kept, until a valid `pos` comes.
    e.send("level depth=2");
    e.send("go think");
    let (err, _) = e.until("error");
    assert!(err.contains("no position to search"), "{err}");
    assert_eq!(e.until("done").0, "done");
    e.send("pos pos=W:W28:B23");
    e.send("level depth=2");
    e.send("go think");
    assert_eq!(search_result(&mut e).0, "28x19x23");
    assert_eq!(e.stderr(), "");
}

#[test]
fn stop_outside_a_search_and_a_finished_game_are_harmless() {
    let mut e = ready();
    e.send("stop");
    e.send("ponder-hit");
    e.send("ping");
    let (_, _, before) = e.until_at(PROMPT, |l| l == "pong");
    assert!(before.is_empty(), "{before:?}");
    // No legal move: an error, then a bare `done` (as Scan).
    e.send("pos pos=W:W:B23");
    e.send("go think");
    let (done, before) = e.until("done");
    assert_eq!(done, "done");
    assert!(before[0].starts_with("error message="), "{before:?}");
}

#[test]
fn quit_and_end_of_input_during_a_search_end_the_process_promptly() {
    let mut e = ready();
    e.send("pos start");
    e.send("level infinite");
    e.send("go analyze");
    std::thread::sleep(Duration::from_millis(100));
    e.send("quit");
    e.until("done");
    let (code, took) = e.wait_exit(PROMPT);
    assert_eq!(code, Some(0));
    assert!(took < Duration::from_millis(500), "{took:?}");
    assert_eq!(e.stderr(), "");

    let mut e = ready();
    e.send("pos start");
    e.send("level infinite");
    e.send("go analyze");
    std::thread::sleep(Duration::from_millis(100));
    e.close_stdin();
    let (code, took) = e.wait_exit(PROMPT);
    assert_eq!(code, Some(0));
    assert!(took < Duration::from_millis(500), "{took:?}");
    assert_eq!(e.stderr(), "");
}

#[test]
fn the_dialect_is_taken_from_the_first_line() {
    let mut e = Engine::start(&[]);
    e.send("hello");
    e.until("error message=");
    e.send("hub");
    e.until("wait");
    e.send("quit");
    assert_eq!(e.wait_exit(PROMPT).0, Some(0));
    assert_eq!(e.stderr(), "");
}

#[test]
fn parameters_take_effect_and_show_in_the_next_handshake() {
    let mut e = ready();
    for line in [
        "set-param name=tt-size value=16",
        "set-param name=threads value=1",
        "set-param name=ponder value=TRUE",
        "set-param name=multipv value=2",
        "set-param name=variant value=antidraughts",
        "set-param name=counted-draws value=false",
        "set-param name=repetitions value=3",
        "set-param name=huffing value=true",
        "init",
    ] {
        e.send(line);
    }
    // `init` may come again: `ready`, and no error before it.
    let (_, before) = e.until("ready");
    assert!(before.is_empty(), "{before:?}");
    e.send("hub");
    let (_, params) = e.until("wait");
    for (name, value) in [
        ("variant", "losing"),
        ("tt-size", "16"),
        ("threads", "1"),
        ("ponder", "true"),
        ("multipv", "2"),
        ("counted-draws", "false"),
        ("repetitions", "3"),
        ("huffing", "true"),
    ] {
        let line = params
            .iter()
            .find(|l| l.starts_with(&format!("param name={name} ")))
            .unwrap();
        assert_eq!(parse_line(line).unwrap().get("value"), Some(value), "{line}");
    }
    // Antidraughts with two lines per iteration.
    e.send("pos start");
    e.send("level depth=2");
    e.send("go analyze");
    let (_, infos) = search_result(&mut e);
    assert!(infos.iter().any(|l| l.ends_with(" multipv=2")), "{infos:?}");
    assert_eq!(e.stderr(), "");
}

#[test]
fn infinite_waits_for_stop_and_any_command_ends_a_search() {
    let mut e = ready();
    e.send("pos start");
    e.send("level infinite");
    e.send("level depth=2");
    e.send("go analyze");
    // The depth is reached at once, but `done` waits for a command.
    e.until("info depth=2 ");
    e.silent_for_non_info(Duration::from_millis(300));
    // `level` ends the search with `done`, then is carried out for the next one.
    e.send("level depth=1");
    search_result(&mut e);
    e.send("go think");
    let (_, infos) = search_result(&mut e);
    assert!(infos.last().unwrap().starts_with("info depth=1 "), "{infos:?}");
    // The level was used up by that search: the next one has no limit and waits for `stop`.
    e.send("go analyze");
    e.silent_for_non_info(Duration::from_millis(300));
    e.send("stop");
    search_result(&mut e);
    // `go` with no mode is `go think`: a forced move is answered at once, without `info`.
    e.send("pos pos=W:W28:B23");
    e.send("go");
    let (done, before) = e.until("done");
    assert_eq!(
        (done.as_str(), before.len()),
        ("done move=28x19x23", 0),
        "{before:?}"
    );
    // `go` during a search ends it and starts the next; `stop` ends that one.
    e.send("pos start");
    e.send("go analyze");
    std::thread::sleep(Duration::from_millis(100));
    e.send("go analyze");
    search_result(&mut e);
    std::thread::sleep(Duration::from_millis(100));
    e.send("stop");
    let (mv, _) = search_result(&mut e);
    legal_in(&International::start(), &mv);
    // `stop` outside a search writes nothing.
    e.send("stop");
    e.send("ping");
    let (_, _, before) = e.until_at(PROMPT, |l| l == "pong");
    assert!(before.is_empty(), "{before:?}");
    assert_eq!(e.stderr(), "");
}

#[test]
fn start_flag_8x8_hub_strings_and_quoted_frisian_fen() {
    let mut e = ready();
    // `start` wins over `pos=`.
    e.send("pos pos=W:W28:B23 start");
    e.send("level depth=1");
    e.send("go think");
    legal_in(&International::start(), &search_result(&mut e).0);
    // The 33-character string of the 8x8 boards, with moves in the Hub form, numbered as
    // pydraughts numbers Russian (from a1): Tempo's 22-18 11-15 18x11x15 (c3-d4 f6-e5 d4:f6).
    e.send("set-param name=variant value=russian");
    e.send("pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"10-14 23-19 14x23x19\"");
    e.send("level depth=2");
    e.send("go analyze");
    let (mv, _) = search_result(&mut e);
    let mut pos = tempo::draughts::Russian::start();
    for m in ["22-18", "11-15", "18x11x15"] {
        pos = pos.play(&pos.parse_move(m).unwrap());
    }
    pos.parse_move(&Variant::Russian.hub_notation().move_to_tempo(&mv))
        .unwrap();
    // A FEN with a Frisian king-move run holds `=`: quoted it is read, bare it is refused.
    e.send("set-param name=variant value=frisian");
    e.send("pos pos=W:W31-37,39-50,K28:B1-20:RW28=3");
    let (err, _) = e.until("error message=");
    assert!(err.contains("'=' is unexpected at column"), "{err}");
    e.send("pos pos=\"W:W31-37,39-50,K28:B1-20:RW28=3\"");
    e.send("level depth=1");
    e.send("go think");
    let (mv, before) = search_result(&mut e);
    assert!(before.iter().all(|l| l.starts_with("info")), "{before:?}");
    // The king on 28 has made three moves in a row: it may not step again (Art. 17).
    assert!(!mv.starts_with("28-"), "{mv}");
    assert_eq!(e.stderr(), "");
}

#[test]
fn an_overlong_line_is_refused_and_the_engine_answers_on() {
    let long = format!("ping {}", "x".repeat(tempo::protocol::MAX_LINE));
    let mut e = ready();
    e.send(&long);
    let (err, _) = e.until("error message=");
    assert!(err.contains("line too long"), "{err}");
    e.send("ping");
    e.until("pong");
    // Also before the protocol is chosen.
    let mut e = Engine::start(&[]);
    e.send(&long);
    e.until("error message=");
    e.send("hub");
    e.until("wait");
    assert_eq!(e.stderr(), "");
}

#[test]
fn every_variant_takes_its_hub_string_and_fen_with_moves() {
    let mut e = ready();
    for v in Variant::ALL {
        e.send(&format!("set-param name=variant value={}", v.name()));
        tempo::with_variant!(v, G => {
            let start = G::start();
            let mut list = tempo::game::MoveList::new();
            start.generate(&mut list);
            // Strings and moves in the variant's Hub numbering; a FEN keeps Tempo's.
            let hub = v.hub_notation();
            let first = hub.move_from_tempo(&start.format_move(&list[0], tempo::game::MoveStyle::Hub));
            let reply = start.play(&list[0]);
            // The Hub string of the initial position with a move in the Hub form, then the FEN.
            for pos in [hub.position_from_tempo(&start.to_hub()), format!("\"{}\"", start.to_fen())] {
                e.send(&format!("pos pos={pos} moves=\"{first}\""));
                e.send("level depth=1");
                e.send("go analyze");
                let (mv, before) = search_result(&mut e);
                assert!(before.iter().all(|l| l.starts_with("info")), "{v}: {before:?}");
                reply
                    .parse_move(&hub.move_to_tempo(&mv))
                    .unwrap_or_else(|err| panic!("{v}: {mv}: {err}"));
            }
        });
    }
    assert_eq!(e.stderr(), "");
}

/// pydraughts' lines, literally as its `HubEngine` sends them (traced from pydraughts 0.6.7), in
/// every variant it knows, each with a single legal answer (pydraughts' own list of legal moves
/// had one element): the initial position with moves, and a later position string alone.
const PYDRAUGHTS_LINES: [(&str, &str, &str); 19] = [
    (
        "standard",
        "pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww moves=\"33-29 17-22 34-30 11-17 29-24\"",
        "20x29x24",
    ),
    (
        "standard",
        "pos pos=Bbbbbbebbbbbbbbbbbbbeeeweeeeebwweeewwwwewwwwwwwwwww",
        "19x28x23",
    ),
    (
        "frisian",
        "pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww moves=\"33-29 17-22 34-30 11-17 29-24\"",
        "14x25x24x30",
    ),
    (
        "frisian",
        "pos pos=Wbbbbbbbbbbebbebbbeeeebbbbwbeeeeeeewwwewwwwwwwwwwww",
        "26x30x23x24x27",
    ),
    (
        "frysk!",
        "pos pos=Wbeeeeeeeeeeeeeeeeeeeeebeeeeweeeeeeeeeeeeeeeeeeeeee",
        "28x19x23",
    ),
    (
        "antidraughts",
        "pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww moves=\"33-29 17-22 34-30 11-17 29-24\"",
        "20x29x24",
    ),
    (
        "breakthrough",
        "pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww moves=\"33-29 17-22 34-30 11-17 29-24\"",
        "20x29x24",
    ),
    (
        "italian",
        "pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"22-18 10-13 23-20\"",
        "13x22x18",
    ),
    ("italian", "pos pos=Bbbbbbbbbeebebweeeeewweewwwewewww", "11x18x14"),
    // Russian and Brazilian count from a1: 10-14 is c3-d4, 21-18 b6-c5, 14x21x18 d4:b6.
    (
        "russian",
        "pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"10-14 21-18\"",
        "14x21x18",
    ),
    ("russian", "pos pos=Wbbbbebbbebeeeebeeebebewewwwwwwww", "11x20x15"),
    (
        "brazilian",
        "pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"10-14 21-18\"",
        "14x21x18",
    ),
    (
        "brazilian",
        "pos pos=Wbbbbebbbebeeeebeeebebewewwwwwwww",
        "11x20x15",
    ),
    // English: `W` is Black, the side that moves first, on the last squares of the string;
    // moves in standard English numbering (Black 11-15, White 24-19, Black 15x24).
    (
        "english",
        "pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"11-15 24-19\"",
        "15x24x19",
    ),
    ("english", "pos pos=Wbbbbebbbebeeeebeeebebewewwwwwwww", "10x17x14"),
    (
        "american",
        "pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"11-15 24-19\"",
        "15x24x19",
    ),
    // Turkish counts all 64 squares from a1 (17 = a3).
    (
        "turkish",
        "pos pos=Weeeeeeeebbbbbbbbbbbbbbbbeeeeeeeeeeeeeeeewwwwwwwwwwwwwwwweeeeeeee \
         moves=\"22-30 43-35 20-28 35-27 28x26x27 41-33 30-38\"",
        "46x30x38",
    ),
    (
        "turkish",
        "pos pos=Weeeeeeeebbbbbbbbebebbebbbeeeeeeeeweeeeebwwweweewwwwwwwwweeeeeeee",
        "24x40x32",
    ),
    (
        "normal",
        "pos pos=Bbbbbbebbbbbbbbbbbbbeeeweeeeebwweeewwwwewwwwwwwwwww",
        "19x28x23",
    ),
];

#[test]
fn pydraughts_lines_get_answers_in_pydraughts_numbering() {
    let mut e = ready();
    for (variant, pos, answer) in PYDRAUGHTS_LINES {
        // pydraughts' own variant names are taken without complaint.
        e.send(&format!("set-param name=variant value={variant}"));
        e.send(pos);
        e.send("level depth=2");
        e.send("go think");
        let (done, before) = e.until("done");
        assert!(
            before.iter().all(|l| l.starts_with("info")),
            "{variant}: {before:?}"
        );
        assert_eq!(done, format!("done move={answer}"), "{variant}: {pos}");
    }
    assert_eq!(e.stderr(), "");
}

#[test]
fn pydraughts_numbering_reaches_pv_and_errors() {
    let mut e = ready();
    // Russian, after c3-d4 (pydraughts' 10-14): the pv is numbered from a1 too, and every move of
    // it is legal in turn when read back through the variant's table.
    e.send("set-param name=variant value=russian");
    e.send("pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"10-14\"");
    e.send("level depth=4");
    e.send("go think");
    let (done, before) = e.until("done");
    let info = before.last().expect("an info line");
    let pv = parse_line(info).unwrap().get("pv").unwrap().to_string();
    let hub = Variant::Russian.hub_notation();
    let mut pos = tempo::draughts::Russian::start();
    pos = pos.play(&pos.parse_move("22-18").unwrap());
    // `done` names the pv's first two moves, in the same numbering.
    let d = parse_line(&done).unwrap();
    let mut line = pv.split(' ');
    assert_eq!(d.get("move"), line.next(), "{done} {pv}");
    assert_eq!(d.get("ponder"), line.next(), "{done} {pv}");
    for m in pv.split(' ') {
        let mv = pos
            .parse_move(&hub.move_to_tempo(m))
            .unwrap_or_else(|err| panic!("{m} of {pv}: {err}"));
        pos = pos.play(&mv);
    }
    // Tempo's own 11-15 (f6-e5) would be Black's legal reply here; in pydraughts' numbering it is
    // e3-f4, a White move, and is refused. The error names the move as sent.
    e.send("pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"10-14 11-15\"");
    let (err, _) = e.until("error message=");
    assert!(err.contains("bad move 2 11-15:"), "{err}");
    // Tempo's own number for it (23-19) appears nowhere.
    assert!(!err.contains("23-19"), "{err}");
    assert!(err.contains("the position is unchanged"), "{err}");
    // A FEN keeps Tempo's numbering (PDN): White's men on 21-32, and the moves after it are
    // still Hub moves, numbered from a1.
    e.send("pos pos=\"W:W21-32:B1-12\" moves=\"9-13\"");
    e.send("level depth=1");
    e.send("go think");
    let (done, _) = e.until("done");
    let reply = done_move(&done);
    let after = tempo::draughts::Russian::start();
    let after = after.play(&after.parse_move("a3-b4").unwrap());
    after.parse_move(&hub.move_to_tempo(&reply)).unwrap();
    assert_eq!(e.stderr(), "");
}

/// Issue 17: a clock holding fewer than four increments (`time` < 3 `inc`) was answered in a
/// millisecond. `level time=1 inc=0.5` is a clock of 1.5 s: the move must take a real share of it
/// (the hard budget is a quarter of the clock, about 0.37 s) and still be made well inside it.
#[test]
fn a_clock_of_few_increments_is_spent_not_thrown_away() {
    let mut e = ready();
    e.send("pos start");
    e.send("level time=1 inc=0.5");
    let sent = e.send("go think");
    let (at, done, before) = e.until_at(PROMPT, |l| l.starts_with("done"));
    legal_in(&International::start(), &done_move(&done));
    assert!(before.iter().all(|l| l.starts_with("info ")), "{before:?}");
    let took = at - sent;
    assert!(took >= Duration::from_millis(150), "thought only {took:?}");
    assert!(took < Duration::from_millis(1_500), "lost on time: {took:?}");
}

/// Issue 17: with `\r` alone ending lines, everything after the first line was swallowed.
#[test]
fn cr_alone_ends_a_line() {
    let mut e = Engine::start(&["hub"]);
    e.send_raw(b"hub\rping\r");
    e.until("wait");
    e.until("pong");
    e.send_raw(b"ping\r\nping\r\n");
    e.until("pong");
    e.until("pong");
    e.send_raw(b"quit\r");
    let (code, _) = e.wait_exit(PROMPT);
    assert_eq!(code, Some(0));
    assert_eq!(e.stderr(), "");
}

/// Issue 17: an error about an over-long name echoed all of it back.
#[test]
fn errors_quote_only_the_start_of_long_input() {
    let mut e = ready();
    let long = "n".repeat(500_000);
    for line in [
        format!("set-param name={long} value=1"),
        format!("level depth={long}"),
        format!("frobnicate{long}"),
        format!("pos start moves=\"32-28 {long}\""),
    ] {
        e.send(&line);
        let (error, _) = e.until("error");
        assert!(error.len() < 600, "{} bytes: {}", error.len(), &error[..200]);
        assert!(
            error.contains("nnnnnnnn...") || error.ends_with("...\""),
            "{error}"
        );
        e.send("ping");
        e.until("pong");
    }
    assert_eq!(e.stderr(), "");
}

/// Issue 17: `go sideways` (a mode Tempo does not know) started a search.
#[test]
fn an_unknown_go_mode_is_refused_and_starts_nothing() {
    let mut e = ready();
    e.send("pos start");
    e.send("level depth=3");
    e.send("go sideways");
    e.send("ping");
    let (_, before) = e.until("pong");
    assert_eq!(before.len(), 1, "{before:?}");
    assert!(
        before[0].starts_with("error message=") && before[0].contains("sideways"),
        "{before:?}"
    );
    // The limits are kept for the next `go`, and modes with extra arguments still search.
    e.send("go think extra=1");
    let (_, infos) = search_result(&mut e);
    assert_eq!(parse_line(infos.last().unwrap()).unwrap().get("depth"), Some("3"));
    assert_eq!(e.stderr(), "");
}

/// End of input during a search that ends by itself lets it finish and answer `done` (dame-rs
/// does the same; a script piping `go analyze` wants the result); an infinite one is stopped and
/// answered at once.
#[test]
fn end_of_input_answers_the_running_search() {
    let mut e = ready();
    e.send("pos start");
    e.send("level depth=6");
    e.send("go analyze");
    e.close_stdin();
    let (mv, infos) = search_result(&mut e);
    legal_in(&International::start(), &mv);
    assert_eq!(parse_line(infos.last().unwrap()).unwrap().get("depth"), Some("6"));
    assert_eq!(e.wait_exit(PROMPT).0, Some(0));

    let mut e = ready();
    e.send("pos start");
    e.send("level infinite");
    e.send("go analyze");
    std::thread::sleep(Duration::from_millis(100));
    e.close_stdin();
    search_result(&mut e);
    let (code, took) = e.wait_exit(PROMPT);
    assert_eq!(code, Some(0));
    assert!(took < Duration::from_millis(500), "{took:?}");
    assert_eq!(e.stderr(), "");
}

/// The input queue is bounded (64 lines): a flood of `ping` during a search is answered line by
/// line, and the `stop` behind it still ends the search.
#[test]
fn stop_gets_through_a_flood_during_a_search() {
    let mut e = ready();
    e.send("pos start");
    e.send("level infinite");
    e.send("go analyze");
    let flood = "ping\n".repeat(20_000) + "stop\n";
    e.send_raw(flood.as_bytes());
    let (_, _, before) = e.until_at(Duration::from_secs(60), |l| l.starts_with("done"));
    let pongs = before.iter().filter(|l| *l == "pong").count();
    assert_eq!(pongs, 20_000);
    e.send("ping");
    e.until("pong");
    assert_eq!(e.stderr(), "");
}

/// pydraughts sends `time` = time left − increment, below zero when less than one increment is
/// left. That line was refused, leaving the search with no limit (depth 100); it is a clock of one
/// increment and the move must come inside it.
#[test]
fn a_negative_time_is_a_clock_of_one_increment() {
    let mut e = ready();
    e.send("pos start");
    e.send("level time=-0.3 inc=0.5");
    let sent = e.send("go think");
    let (at, done, before) = e.until_at(PROMPT, |l| l.starts_with("done"));
    assert!(before.iter().all(|l| l.starts_with("info ")), "{before:?}");
    legal_in(&International::start(), &done_move(&done));
    let took = at - sent;
    assert!(
        took < Duration::from_millis(500),
        "took {took:?} on a 0.5 s clock"
    );
}

#[test]
fn two_threads_search_find_a_win_and_stop_promptly() {
    let mut e = ready();
    e.send("hub");
    let (_, params) = e.until("wait");
    assert!(
        params
            .iter()
            .any(|l| l == "param name=threads value=1 type=int min=1 max=64"),
        "{params:?}"
    );
    for n in [0, 65] {
        e.send(&format!("set-param name=threads value={n}"));
        e.send("ping");
        let (_, _, before) = e.until_at(PROMPT, |l| l == "pong");
        assert_eq!(
            before,
            [format!("error message=\"threads={n} is out of range 1-64\"")]
        );
    }
    e.send("set-param name=threads value=2");
    e.send("hub");
    let (_, params) = e.until("wait");
    assert!(
        params
            .iter()
            .any(|l| l.starts_with("param name=threads value=2 "))
    );
    // Analysis waits for `stop`, which is answered within a bound.
    e.send("pos start");
    e.send("go analyze");
    std::thread::sleep(Duration::from_millis(500));
    let sent = e.send("stop");
    let (at, done, before) = e.until_at(PROMPT, |l| l.starts_with("done"));
    assert!(
        at - sent < Duration::from_millis(300),
        "stop took {:?}",
        at - sent
    );
    assert!(before.iter().all(|l| l.starts_with("info ")), "{before:?}");
    legal_in(&International::start(), &done_move(&done));
    // A timed search plays a legal move.
    e.send("level move-time=0.2");
    e.send("go think");
    legal_in(&International::start(), &search_result(&mut e).0);
    // White wins in five moves (1-23 14-20 23-29 ...): a win score, a winning first move.
    e.send("pos pos=W:W40,45,K1:B15,14");
    e.send("level depth=14");
    e.send("go think");
    let (mv, infos) = search_result(&mut e);
    let last = parse_line(infos.last().unwrap()).unwrap();
    let score: f64 = last.get("score").unwrap().parse().unwrap();
    assert!(score > 99.0, "{infos:?}");
    legal_in(&International::from_fen("W:W40,45,K1:B15,14").unwrap(), &mv);
    e.send("quit");
    assert_eq!(e.wait_exit(PROMPT).0, Some(0));
    assert_eq!(e.stderr(), "");
}

/// After a refused `pos` (a bad position string, or a bad move in the list), `go` answers with an
/// error and a bare `done` until a valid `pos` arrives: it used to answer `done move=...` for the
/// position kept from before, which the client never sent (pydraughts and lidraughts-bot log the
/// error and play the move).
#[test]
fn a_refused_position_is_not_searched() {
    let mut e = ready();
    e.send("pos start");
    e.send("level depth=2");
    e.send("go think");
    search_result(&mut e);
    for bad in ["pos pos=Wxyz", "pos start moves=\"32-28 99-98\""] {
        e.send(bad);
        let (err, _) = e.until("error");
        assert!(err.contains("bad"), "{bad}: {err}");
        e.send("level depth=2");
        e.send("go think");
        let (err, before) = e.until("error");
        assert!(before.is_empty(), "{bad}: {before:?}");
        assert!(
            err.contains("no position to search") && err.contains("refused"),
            "{err}"
        );
        let (done, before) = e.until("done");
        assert!(before.is_empty(), "{bad}: {before:?}");
        assert_eq!(done, "done", "{bad}: a move for a position never sent");
        // Still refused at the next `go`, and analysis too.
        e.send("go analyze");
        e.until("error");
        assert_eq!(e.until("done").0, "done");
    }
    e.send("pos start moves=\"32-28\"");
    e.send("level depth=2");
    e.send("go think");
    let (mv, _) = search_result(&mut e);
    let start = International::start();
    let pos = start.play(&start.parse_move("32-28").unwrap());
    legal_in(&pos, &mv);
    e.send("ping");
    e.until("pong");
}
