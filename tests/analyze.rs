//! Black-box tests of `tempo analyze`: a position's lines in text and JSON, game analysis with a
//! marked blunder, and errors for bad input.

use serde_json::Value;
use std::process::{Command, Output};

/// White to move wins in two: 31-27 forces 22x31 (21x32 is blocked by the man on 32), and 36x16
/// then takes both black men (over 31 and 21).
const SHOT: &str = "W:W31,32,36:B21,22";

fn tempo(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tempo"))
        .args(args)
        .output()
        .expect("the tempo binary runs")
}

/// Runs `tempo analyze`, asserting success; returns standard output.
fn analyze(args: &[&str]) -> String {
    let mut all = vec!["analyze"];
    all.extend_from_slice(args);
    let out = tempo(&all);
    assert!(
        out.status.success(),
        "tempo {all:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Standard error is not a terminal here: no progress output.
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// Every line parsed as a JSON object.
fn json_lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"));
            assert!(v.is_object(), "{l}");
            v
        })
        .collect()
}

/// Writes a PDN file in the temporary directory; removed on drop.
struct PdnFile(std::path::PathBuf);

impl PdnFile {
    fn new(name: &str, text: &str) -> PdnFile {
        let path = std::env::temp_dir().join(format!("tempo-analyze-{}-{name}.pdn", std::process::id()));
        std::fs::write(&path, text).expect("temporary file written");
        PdnFile(path)
    }
    fn path(&self) -> String {
        self.0.to_string_lossy().to_string()
    }
}

impl Drop for PdnFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

#[test]
fn finds_the_shot_in_text() {
    let out = analyze(&["--fen", SHOT, "--depth", "6"]);
    assert!(
        out.starts_with("international W:W31,32,36:B21,22, White to move"),
        "{out}"
    );
    let last = out.lines().last().unwrap_or("");
    assert!(
        last.starts_with("best 31-27") && last.contains("win in 2"),
        "{out}"
    );
    // The deepest iteration shows the whole combination.
    assert!(out.contains("31-27 22x31 36x16"), "{out}");
}

#[test]
fn json_lines_parse_and_report_the_win() {
    let out = analyze(&["--fen", SHOT, "--depth", "6", "--json"]);
    let lines = json_lines(&out);
    let (infos, last) = lines.split_at(lines.len() - 1);
    assert!(!infos.is_empty());
    let mut depth = 0;
    for i in infos {
        assert_eq!(i["type"], "info");
        let d = i["depth"].as_u64().expect("depth");
        assert!(d > depth, "depths increase");
        depth = d;
        assert!(i["pv"].as_array().is_some_and(|pv| !pv.is_empty()));
        assert!(i["score"].is_i64());
    }
    assert_eq!(depth, 6);
    let deepest = &infos[infos.len() - 1];
    assert_eq!(deepest["pv"][0], "31-27");
    assert_eq!(deepest["win"], 2);
    assert_eq!(last[0]["type"], "best");
    assert_eq!(last[0]["move"], "31-27");
    assert_eq!(last[0]["win"], 2);
    assert_eq!(last[0]["outcome"], "game on");
}

#[test]
fn multipv_reports_each_line() {
    let out = analyze(&["--depth", "3", "--multipv", "3", "--json"]);
    let lines = json_lines(&out);
    for d in 1..=3 {
        let mut at_depth: Vec<u64> = lines
            .iter()
            .filter(|v| v["type"] == "info" && v["depth"] == d)
            .map(|v| v["multipv"].as_u64().unwrap_or(0))
            .collect();
        at_depth.sort_unstable();
        assert_eq!(at_depth, [1, 2, 3], "depth {d}: {out}");
    }
}

#[test]
fn movetime_limits_the_search() {
    let t = std::time::Instant::now();
    let out = analyze(&["--movetime", "0.3"]);
    assert!(
        out.lines().last().is_some_and(|l| l.starts_with("best ")),
        "{out}"
    );
    assert!(t.elapsed().as_secs_f64() < 5.0);
}

const BLUNDER_GAME: &str = r#"[Event "A thrown-away win"]
[White "Careless"]
[Black "Lucky"]
[Result "*"]
[FEN "W:W31,32,36:B21,22"]

1. 32-27 21x32 *
"#;

#[test]
fn a_blunder_in_a_game_is_marked() {
    let pdn = PdnFile::new("blunder", BLUNDER_GAME);
    let out = analyze(&["--pdn", &pdn.path(), "--depth", "6"]);
    let first = out
        .lines()
        .find(|l| l.contains("32-27"))
        .expect("the first move's line");
    assert!(
        first.contains("??") && first.contains("best 31-27") && first.contains("win in 2"),
        "{out}"
    );
    let second = out
        .lines()
        .find(|l| l.contains("21x32"))
        .expect("the reply's line");
    assert!(!second.contains('?') && second.contains("(best)"), "{out}");
    assert!(
        out.contains("White: 1 move, 0 mistakes (?), 1 blunder (??)"),
        "{out}"
    );

    let lines = json_lines(&analyze(&["--pdn", &pdn.path(), "--depth", "6", "--json"]));
    assert_eq!(lines[0]["type"], "game");
    assert_eq!(lines[0]["white"], "Careless");
    assert_eq!(lines[0]["fen"], "W:W31,32,36:B21,22");
    let moves: Vec<&Value> = lines.iter().filter(|v| v["type"] == "move").collect();
    assert_eq!(moves.len(), 2);
    assert_eq!(moves[0]["number"], "1.");
    assert_eq!(moves[0]["side"], "white");
    assert_eq!(moves[0]["played"], "32-27");
    assert_eq!(moves[0]["best"], "31-27");
    assert_eq!(moves[0]["best_win"], 2);
    assert!(moves[0]["played_win"].is_null());
    assert_eq!(moves[0]["mark"], "??");
    assert_eq!(moves[1]["number"], "1...");
    assert_eq!(moves[1]["mark"], "");
    // The blunder was searched again two plies deeper before its mark stood.
    assert_eq!(moves[0]["rechecked"], true);
    assert_eq!(moves[0]["depth"], 8);
    // The reply is forced and best: both scores agree and are (at their own depths) about the
    // negation of White's.
    assert_eq!(moves[1]["rechecked"], false);
    assert_eq!(moves[1]["best_score"], moves[1]["played_score"]);
    let (w, b) = (
        moves[0]["played_score"].as_i64().unwrap(),
        moves[1]["played_score"].as_i64().unwrap(),
    );
    assert!((w + b).abs() <= 10, "{w} {b}");
    let summary: Vec<&Value> = lines.iter().filter(|v| v["type"] == "summary").collect();
    assert_eq!(summary.len(), 2);
    assert_eq!(summary[0]["side"], "white");
    assert_eq!(summary[0]["blunders"], 1);
    assert_eq!(summary[1]["blunders"], 0);
}

#[test]
fn mistake_threshold_marks_smaller_losses() {
    // From the start, 32-28 19-23 28x19 14x23 is an even exchange; with a loss threshold of
    // a hundredth of a man almost any move that is not the engine's choice is marked. The marks
    // follow the thresholds: none reach two men.
    let pdn = PdnFile::new("thresholds", "1. 32-28 19-23 2. 28x19 14x23 *\n");
    let lines = json_lines(&analyze(&[
        "--pdn",
        &pdn.path(),
        "--depth",
        "4",
        "--json",
        "--no-book",
        "--mistake",
        "0.01",
        "--blunder",
        "2",
    ]));
    for m in lines.iter().filter(|v| v["type"] == "move") {
        let loss = m["loss"].as_i64();
        let mark = m["mark"].as_str().unwrap_or("");
        match loss {
            Some(l) if l >= 200 => assert_eq!(mark, "??", "{m}"),
            Some(l) if l >= 1 && m["best"] != m["played"] => assert_eq!(mark, "?", "{m}"),
            _ => assert_eq!(mark, "", "{m}"),
        }
    }
}

/// The opening moves of a game from the start are in the shipped book: marked `book`, scored from
/// it (the book's best move and the loss included), and counted in the summary; `--no-book`
/// searches them instead.
#[test]
fn book_moves_of_a_game_are_marked_and_scored_from_the_book() {
    let pdn = PdnFile::new("book", "1. 32-28 19-23 2. 28x19 14x23 *\n");
    let lines = json_lines(&analyze(&["--pdn", &pdn.path(), "--depth", "2", "--json"]));
    let moves: Vec<&Value> = lines.iter().filter(|v| v["type"] == "move").collect();
    assert_eq!(moves.len(), 4);
    // The initial position is the book's root, always expanded.
    assert_eq!(moves[0]["book"], true, "{:?}", moves[0]);
    for m in moves.iter().filter(|m| m["book"] == true) {
        let (best, played) = (m["best_score"].as_i64(), m["played_score"].as_i64());
        assert!(best.is_some() && played.is_some() && best >= played, "{m}");
        assert!(m["depth"].as_u64().is_some_and(|d| d > 2), "book depth: {m}");
    }
    let summary: Vec<&Value> = lines.iter().filter(|v| v["type"] == "summary").collect();
    let in_book = moves.iter().filter(|m| m["book"] == true).count() as u64;
    assert_eq!(
        summary[0]["book"].as_u64().unwrap() + summary[1]["book"].as_u64().unwrap(),
        in_book
    );
    let text = analyze(&["--pdn", &pdn.path(), "--depth", "2"]);
    let first = text
        .lines()
        .find(|l| l.contains("32-28"))
        .expect("the first move");
    assert!(first.ends_with("book"), "{text}");
    assert!(text.contains("from the book)"), "{text}");

    let searched = json_lines(&analyze(&[
        "--pdn",
        &pdn.path(),
        "--depth",
        "2",
        "--json",
        "--no-book",
    ]));
    assert!(
        searched
            .iter()
            .filter(|v| v["type"] == "move")
            .all(|m| m["book"] == false && m["depth"] == 2),
        "{searched:?}"
    );
}

#[test]
fn a_book_of_another_variant_is_refused() {
    let pdn = PdnFile::new("wrong-book", "1. 32-28 *\n");
    let book = std::env::temp_dir().join(format!("tempo-analyze-{}-ru.book", std::process::id()));
    let out = tempo(&[
        "book",
        "build",
        "--variant",
        "russian",
        "--out",
        &book.to_string_lossy(),
        "--depth",
        "1",
        "--positions",
        "20",
        "--quiet",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let err = analyze_fails(&["--pdn", &pdn.path(), "--book", &book.to_string_lossy()]);
    let _ = std::fs::remove_file(&book);
    assert!(err.contains("a book of russian, not of international"), "{err}");
}

#[test]
fn english_games_number_black_first() {
    let pdn = PdnFile::new("english", "[GameType \"21\"]\n1. 11-15 23-19 2. 8-11 *\n");
    let lines = json_lines(&analyze(&[
        "--variant",
        "english",
        "--pdn",
        &pdn.path(),
        "--depth",
        "3",
        "--json",
    ]));
    let moves: Vec<&Value> = lines.iter().filter(|v| v["type"] == "move").collect();
    assert_eq!(moves.len(), 3);
    assert_eq!(
        (&moves[0]["number"], &moves[0]["side"]),
        (&"1.".into(), &"black".into())
    );
    assert_eq!(
        (&moves[1]["number"], &moves[1]["side"]),
        (&"1...".into(), &"white".into())
    );
    assert_eq!(moves[2]["number"], "2.");
}

/// Runs `tempo analyze` expecting failure; returns standard error.
fn analyze_fails(args: &[&str]) -> String {
    let mut all = vec!["analyze"];
    all.extend_from_slice(args);
    let out = tempo(&all);
    assert!(!out.status.success(), "tempo {all:?} succeeded");
    assert!(out.stdout.is_empty(), "{}", String::from_utf8_lossy(&out.stdout));
    String::from_utf8_lossy(&out.stderr).to_string()
}

#[test]
fn an_illegal_game_move_is_named_by_its_number() {
    // After 19-23 White must capture (28x19): 28-22 is illegal.
    let pdn = PdnFile::new(
        "illegal",
        "[Event \"x\"]\n[GameType \"20\"]\n\n1. 32-28 19-23 2. 28-22 18-23 *\n",
    );
    let err = analyze_fails(&["--pdn", &pdn.path(), "--depth", "2"]);
    assert!(
        err.contains("move 2.") && err.contains("28-22") && err.contains("illegal"),
        "{err}"
    );

    let pdn = PdnFile::new("unreadable", "1. 32-28 19-93 *\n");
    let err = analyze_fails(&["--pdn", &pdn.path(), "--depth", "2"]);
    assert!(err.contains("move 1...") && err.contains("19-93"), "{err}");
}

#[test]
fn bad_input_gets_clear_errors() {
    let err = analyze_fails(&["--fen", "W:W31:B31"]);
    assert!(err.contains("bad FEN") && err.contains("31"), "{err}");
    let err = analyze_fails(&["--fen", "X:W31:B1"]);
    assert!(err.contains("bad FEN"), "{err}");
    let err = analyze_fails(&["--pdn", "/nonexistent/game.pdn"]);
    assert!(err.contains("cannot read"), "{err}");
    let pdn = PdnFile::new("one", "1. 32-28 *\n");
    let err = analyze_fails(&["--pdn", &pdn.path(), "--game", "3"]);
    assert!(err.contains("no game 3") && err.contains("1 game"), "{err}");
    let pdn = PdnFile::new("badfen", "[FEN \"W:W99:B1\"]\n1. 32-28 *\n");
    let err = analyze_fails(&["--pdn", &pdn.path()]);
    assert!(err.contains("bad FEN tag"), "{err}");
    let err = analyze_fails(&["--movetime=-1"]);
    assert!(err.contains("movetime"), "{err}");
    let pdn = PdnFile::new("marks", "1. 32-28 *\n");
    let err = analyze_fails(&["--pdn", &pdn.path(), "--mistake", "2", "--blunder", "1"]);
    assert!(err.contains("--blunder"), "{err}");
}

#[test]
fn a_closed_output_ends_the_command_without_a_panic() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_tempo"))
        .args(["analyze", "--depth", "30"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the tempo binary runs");
    let stdout = child.stdout.take().expect("piped");
    let mut first = String::new();
    BufReader::new(stdout)
        .read_line(&mut first)
        .expect("a first line");
    assert!(first.starts_with("international"), "{first}");
    // The reader is gone; the next iteration's line cannot be written.
    let t = std::time::Instant::now();
    let out = child.wait_with_output().expect("tempo ends");
    let err = String::from_utf8_lossy(&out.stderr);
    // The reader has what it wanted: a quiet end, as `head` users expect (issue 17 item 5).
    assert!(out.status.success(), "{:?} {err}", out.status);
    assert!(err.is_empty(), "{err}");
    assert!(t.elapsed().as_secs_f64() < 10.0);
}

#[test]
fn analysis_stops_where_a_repetition_ended_the_game() {
    // English kings shuffle: after 8 plies the start position stands for the third time (a draw
    // by threefold repetition); the record goes on for two more plies, which are not analysed.
    let pdn = PdnFile::new(
        "repetition",
        "[White \"A\"]\n[Black \"B\"]\n[GameType \"21\"]\n[FEN \"B:WK32:BK1\"]\n\
         1... 1-6 2. 32-27 6-1 3. 27-32 1-6 4. 32-27 6-1 5. 27-32 1-6 6. 32-27 *\n",
    );
    let lines = json_lines(&analyze(&[
        "--variant",
        "english",
        "--pdn",
        &pdn.path(),
        "--depth",
        "2",
        "--json",
    ]));
    let moves = lines.iter().filter(|v| v["type"] == "move").count();
    assert_eq!(moves, 8, "{lines:?}");
    let end: Vec<&Value> = lines.iter().filter(|v| v["type"] == "end").collect();
    assert_eq!(end.len(), 1, "{lines:?}");
    assert_eq!(end[0]["ply"], 8);
    assert_eq!(end[0]["result"], "1/2-1/2");
    assert_eq!(end[0]["unanalysed"], 2);
    assert!(
        end[0]["reason"].as_str().unwrap().contains("repetition"),
        "{:?}",
        end[0]
    );
    let text = analyze(&["--variant", "english", "--pdn", &pdn.path(), "--depth", "2"]);
    assert!(
        text.contains("Game over after 8 plies: Draw by 3-fold repetition (1/2-1/2); the 2 moves after it are not analysed"),
        "{text}"
    );
}

#[test]
fn names_with_quotes_and_control_characters_stay_valid_json() {
    let pdn = PdnFile::new(
        "names",
        "[White \"Jan \\\"de\\\" Vries\\\\x\"]\n[Black \"tab\there\"]\n1. 32-28 *\n",
    );
    let lines = json_lines(&analyze(&["--pdn", &pdn.path(), "--depth", "1", "--json"]));
    assert_eq!(lines[0]["type"], "game");
    let white = lines[0]["white"].as_str().unwrap();
    assert!(white.contains('"') || white.contains('\\'), "{white}");
    assert_eq!(lines[0]["black"], "tab\there");
}

#[test]
fn tables_beyond_the_machine_are_clear_errors() {
    // A table larger than the machine: an error, not a panic.
    let out = tempo(&["analyze", "--tt", "65536", "--depth", "1"]);
    let err = String::from_utf8_lossy(&out.stderr);
    if 65_536 > tempo::tt::Tt::max_mib() {
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(
            err.contains("--tt 65536: a 65536 MiB table does not fit"),
            "{err}"
        );
    }
    assert!(!err.contains("panicked"), "{err}");
    let out = tempo(&["search", "--tt", "1048576", "--depth", "1"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("does not fit"), "{err}");
}

/// A device or FIFO as the PDN file is refused at once (issue 53 item 3: a FIFO's `open` used to
/// wait for a writer for ever), and a regular file is read up to the cap.
#[test]
fn an_input_without_end_is_refused_at_once() {
    let t = std::time::Instant::now();
    let out = tempo(&["analyze", "--pdn", "/dev/zero", "--depth", "1"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("cannot read /dev/zero: it is a device, not a regular file"),
        "{err}"
    );
    let fifo = std::env::temp_dir().join(format!("tempo-analyze-{}-fifo.pdn", std::process::id()));
    let _ = std::fs::remove_file(&fifo);
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        let out = tempo(&["analyze", "--pdn", fifo.to_str().unwrap(), "--depth", "1"]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(err.contains("FIFO"), "{err}");
        let _ = std::fs::remove_file(&fifo);
    }
    let big = std::env::temp_dir().join(format!("tempo-analyze-{}-big.pdn", std::process::id()));
    let f = std::fs::File::create(&big).unwrap();
    f.set_len((64 << 20) + 1).unwrap();
    let out = tempo(&["analyze", "--pdn", big.to_str().unwrap(), "--depth", "1"]);
    let err = String::from_utf8_lossy(&out.stderr);
    let _ = std::fs::remove_file(&big);
    assert!(err.contains("larger than 64 MiB"), "{err}");
    assert!(t.elapsed().as_secs() < 10);
}

/// Issue 54: a game's variant comes from its `GameType` tag when `--variant` is not given, and
/// the output says so; an unknown type is refused with a hint, and `--variant` still decides.
#[test]
fn the_variant_comes_from_the_game_type_tag() {
    let russian = PdnFile::new(
        "russian",
        "[White \"A\"]\n[Black \"B\"]\n[GameType \"25\"]\n[Result \"*\"]\n\n1. c3-d4 f6-e5 2. d4:f6 g7:e5 *\n",
    );
    let out = analyze(&["--pdn", &russian.path(), "--depth", "2"]);
    assert!(
        out.starts_with("russian (from the GameType tag \"25\"): game 1 of"),
        "{out}"
    );
    assert!(out.contains("\nrussian game 1: A - B, from "), "{out}");
    // Read as International, the same game fails, and says how it was read.
    let out = tempo(&[
        "analyze",
        "--pdn",
        &russian.path(),
        "--depth",
        "2",
        "-v",
        "international",
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("game 1:"), "{err}");
    let odd = PdnFile::new("gametype-99", "[GameType \"99\"]\n[Result \"*\"]\n\n1. 32-28 *\n");
    let out = tempo(&["analyze", "--pdn", &odd.path(), "--depth", "2"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("GameType \"99\"") && err.contains("--variant"),
        "{err}"
    );
}
