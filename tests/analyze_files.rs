//! `tempo analyze` on game files shaped as real collections write them (tests/data/pdn/, each
//! file's shape named in its first comment): every game read and analysed, the variant given,
//! typed or inferred and said, a damaged game skipped with its place, scores that agree, and the
//! annotated file and chart.

use serde_json::Value;
use std::process::{Command, Output};

fn data(name: &str) -> String {
    format!("{}/tests/data/pdn/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn tempo(args: &[&str]) -> Output {
    let mut all = vec!["analyze"];
    all.extend_from_slice(args);
    Command::new(env!("CARGO_BIN_EXE_tempo"))
        .args(&all)
        .output()
        .expect("the tempo binary runs")
}

/// Standard output of a successful run, and standard error.
fn ok(args: &[&str]) -> (String, String) {
    let out = tempo(args);
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success(), "tempo analyze {args:?} failed: {err}");
    (String::from_utf8(out.stdout).expect("UTF-8"), err)
}

fn json(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

fn of_type<'a>(lines: &'a [Value], t: &str) -> Vec<&'a Value> {
    lines.iter().filter(|v| v["type"] == t).collect()
}

fn temp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("tempo-analyze-files-{}-{name}", std::process::id()))
}

/// The played moves of every game in JSON output, game by game.
fn played(lines: &[Value]) -> Vec<Vec<String>> {
    let mut games: Vec<Vec<String>> = Vec::new();
    for v in lines {
        if v["type"] == "game" {
            games.push(Vec::new());
        } else if v["type"] == "move" {
            games
                .last_mut()
                .expect("a game first")
                .push(v["played"].as_str().unwrap().to_string());
        }
    }
    games
}

#[test]
fn files_of_five_variants_read_whole() {
    // (file, options, variant, games, plies of each game)
    let cases: [(&str, &[&str], &str, &[usize]); 5] = [
        ("international-aligned.pdn", &[], "international", &[20, 9]),
        (
            "english-problems.pdn",
            &["--variant", "english"],
            "english",
            &[3, 11],
        ),
        ("russian-club.pdn", &["--variant", "russian"], "russian", &[7, 5]),
        ("brazilian-typed.pdn", &[], "brazilian", &[7]),
        ("frisian-typed.pdn", &[], "frisian", &[9]),
    ];
    for (file, extra, variant, plies) in cases {
        let path = data(file);
        let mut args = vec!["--pdn", &path, "--depth", "1", "--no-book", "--json"];
        args.extend_from_slice(extra);
        let (out, err) = ok(&args);
        let lines = json(&out);
        let games = of_type(&lines, "game");
        assert_eq!(games.len(), plies.len(), "{file}: {out}");
        for (g, n) in games.iter().zip(plies) {
            assert_eq!(g["variant"], variant, "{file}");
            assert_eq!(g["moves"], *n, "{file}: {g}");
        }
        let moves = played(&lines);
        assert_eq!(moves.iter().map(Vec::len).collect::<Vec<_>>(), plies, "{file}");
        // No game skipped: a warning would say so.
        assert!(!err.contains("skipped"), "{file}: {err}");
    }
    // The column-aligned export keeps its moves with the spaces gone, and its names.
    let (out, _) = ok(&[
        "--pdn",
        &data("international-aligned.pdn"),
        "--depth",
        "1",
        "--no-book",
        "--json",
    ]);
    let lines = json(&out);
    assert_eq!(played(&lines)[0][7], "1-7");
    assert_eq!(of_type(&lines, "game")[0]["white"], "Šimůnek, Jiří");
}

#[test]
fn the_first_line_says_the_variant_and_why() {
    let (out, _) = ok(&["--pdn", &data("brazilian-typed.pdn"), "--depth", "1"]);
    let first = out.lines().next().unwrap_or("");
    assert!(
        first.starts_with("brazilian (from the GameType tag \"26,W,8,8,A0,0\"): game 1 of"),
        "{out}"
    );
    // No GameType: International by PDN's default, and the output says what else fits.
    let (out, _) = ok(&[
        "--pdn",
        &data("international-aligned.pdn"),
        "--game",
        "2",
        "--depth",
        "1",
    ]);
    let first = out.lines().next().unwrap_or("");
    assert!(
        first.starts_with("international (from the GameType tag \"20\")"),
        "{first}"
    );
    let path = temp("untyped.pdn");
    std::fs::write(&path, "1. 32-28 18-23 2. 37-32 12-18 *\n").unwrap();
    let (out, _) = ok(&["--pdn", path.to_str().unwrap(), "--depth", "1"]);
    let first = out.lines().next().unwrap_or("").to_string();
    let _ = std::fs::remove_file(&path);
    assert!(
        first.starts_with("international (no GameType tag: PDN's default;"),
        "{first}"
    );
    assert!(first.contains("--variant"), "{first}");
    let (out, _) = ok(&[
        "--pdn",
        &data("frisian-typed.pdn"),
        "--variant",
        "frisian",
        "--depth",
        "1",
    ]);
    assert!(out.starts_with("frisian (given by --variant)"), "{out}");
}

#[test]
fn several_variants_fitting_are_refused_with_the_candidates() {
    for file in ["russian-club.pdn", "english-problems.pdn"] {
        let out = tempo(&["--pdn", &data(file), "--depth", "1"]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{file}: {err}");
        assert!(out.stdout.is_empty(), "{file}");
        assert!(
            err.contains("no GameType tag, and the games read legally in several variants")
                && err.contains("--variant"),
            "{file}: {err}"
        );
        let want = if file.starts_with("russian") {
            ["russian", "brazilian"]
        } else {
            ["english", "pool"]
        };
        for v in want {
            assert!(err.contains(v), "{file}: {err}");
        }
        assert!(!err.contains("international"), "{file}: {err}");
    }
}

#[test]
fn a_question_mark_side_is_inferred_and_said() {
    let (out, err) = ok(&[
        "--pdn",
        &data("english-problems.pdn"),
        "--variant",
        "english",
        "--game",
        "1",
        "--depth",
        "2",
    ]);
    assert!(
        err.contains("game 1: the FEN's side to move is '?': White moves"),
        "{err}"
    );
    assert!(out.contains("from W:W22,24:B7,11"), "{out}");
    // The first move written is White's, numbered as the book numbers it.
    assert!(out.contains("1... 24-19"), "{out}");
}

#[test]
fn a_damaged_game_is_skipped_with_its_place_and_the_rest_analysed() {
    let (out, err) = ok(&["--pdn", &data("one-bad-game.pdn"), "--depth", "1", "--no-book"]);
    assert!(
        err.contains("game 2: line 13, column 25: not a move: \"12#18\": skipped"),
        "{err}"
    );
    assert!(
        err.contains("game 3: move 2. (White \"28-22\")") && err.contains("(line 19, column 19)"),
        "{err}"
    );
    assert!(
        out.contains("international game 1:") && out.contains("international game 4:"),
        "{out}"
    );
    assert!(!out.contains("game 2:") && !out.contains("game 3:"), "{out}");
    assert!(
        out.contains("File: 2 games analysed (2 skipped: see the warnings)"),
        "{out}"
    );
}

#[test]
fn every_game_or_the_ones_selected() {
    let path = data("international-aligned.pdn");
    let (out, _) = ok(&["--pdn", &path, "--depth", "1", "--no-book", "--json"]);
    let lines = json(&out);
    assert_eq!(of_type(&lines, "game").len(), 2);
    assert_eq!(of_type(&lines, "summary").len(), 4);
    let file = of_type(&lines, "file");
    assert_eq!(file.len(), 1, "{out}");
    assert_eq!(file[0]["games"], 2);
    assert_eq!(file[0]["moves"], 29);
    let (out, _) = ok(&["--pdn", &path, "--game", "2-2", "--depth", "1", "--json"]);
    let lines = json(&out);
    let games = of_type(&lines, "game");
    assert_eq!((games.len(), &games[0]["game"]), (1, &Value::from(2)));
    assert!(of_type(&lines, "file").is_empty());
    let out = tempo(&["--pdn", &path, "--game", "2-5"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no games 2-5 (the file holds 2 games)"), "{err}");
    let out = tempo(&["--pdn", &path, "--game", "3-1"]);
    assert!(!out.status.success());
}

/// No move of the test files shows a negative loss, or a best move scoring below the move played.
#[test]
fn the_best_move_never_scores_below_the_move_played() {
    for (file, extra) in [
        ("international-aligned.pdn", &[][..]),
        ("russian-club.pdn", &["--variant", "russian"][..]),
        ("english-problems.pdn", &["--variant", "english"][..]),
        ("one-bad-game.pdn", &[][..]),
    ] {
        let path = data(file);
        let mut args = vec!["--pdn", &path, "--depth", "6", "--no-book", "--json"];
        args.extend_from_slice(extra);
        let (out, _) = ok(&args);
        let lines = json(&out);
        let moves = of_type(&lines, "move");
        assert!(!moves.is_empty(), "{file}");
        for m in moves {
            let (b, p) = (m["best_score"].as_i64(), m["played_score"].as_i64());
            if let (Some(b), Some(p)) = (b, p) {
                assert!(b >= p, "{file}: {m}");
            }
            if let Some(l) = m["loss"].as_i64() {
                assert!(l >= 0, "{file}: {m}");
            }
            if m["best"] == m["played"] {
                assert_eq!(b, p, "{file}: {m}");
            }
        }
    }
}

const BLUNDER_GAME: &str = "[Event \"A thrown-away win\"]\n[White \"Careless\"]\n[Black \"Lucky\"]\n\
                            [Result \"*\"]\n[FEN \"W:W31,32,36:B21,22\"]\n\n1. 32-27 21x32 *\n";

#[test]
fn the_annotated_file_reads_back_to_the_same_games() {
    let blunder = temp("blunder.pdn");
    std::fs::write(&blunder, BLUNDER_GAME).unwrap();
    for (input, extra) in [
        (data("international-aligned.pdn"), &[][..]),
        (data("russian-club.pdn"), &["--variant", "russian"][..]),
        (blunder.to_string_lossy().to_string(), &[][..]),
    ] {
        let out_pdn = temp("annotated.pdn");
        let mut args = vec!["--pdn", &input, "--depth", "4", "--json"];
        args.extend_from_slice(extra);
        let (first, _) = ok(&args);
        let o = out_pdn.to_str().unwrap();
        args.extend_from_slice(&["--annotate", o]);
        ok(&args);
        let text = std::fs::read_to_string(&out_pdn).unwrap();
        // Read back: the same games, the same moves, the same players.
        let mut again = vec!["--pdn", o, "--depth", "4", "--json"];
        again.extend_from_slice(extra);
        let (second, _) = ok(&again);
        let (a, b) = (json(&first), json(&second));
        assert_eq!(played(&a), played(&b), "{input}: {text}");
        for (x, y) in of_type(&a, "game").iter().zip(of_type(&b, "game")) {
            assert_eq!(
                (&x["white"], &x["black"], &x["fen"]),
                (&y["white"], &y["black"], &y["fen"])
            );
        }
        assert!(text.contains("[Annotator \"Tempo\"]"), "{text}");
        // A score comment on every move analysed (`{+0.12/4}`, `{book -0.04}`).
        let analysed = of_type(&a, "move").len();
        assert!(text.matches('{').count() >= analysed, "{text}");
        let _ = std::fs::remove_file(&out_pdn);
    }
    // The blunder is marked and its better line given as a variation.
    let out_pdn = temp("blunder-annotated.pdn");
    ok(&[
        "--pdn",
        blunder.to_str().unwrap(),
        "--depth",
        "6",
        "--annotate",
        out_pdn.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&out_pdn).unwrap();
    let _ = std::fs::remove_file(&out_pdn);
    let _ = std::fs::remove_file(&blunder);
    assert!(text.contains("1. 32-27?? {"), "{text}");
    assert!(text.contains("(1. 31-27 {win in 2/"), "{text}");
}

#[test]
#[cfg_attr(
    not(pydraughts),
    ignore = "needs pydraughts: set TEMPO_PYDRAUGHTS_PYTHON to a Python with pydraughts 0.6.7"
)]
fn pydraughts_reads_the_annotated_file() {
    let python = crate::common::pydraughts_python();
    for (input, extra, games) in [
        (data("international-aligned.pdn"), &[][..], "2"),
        (data("russian-club.pdn"), &["--variant", "russian"][..], "2"),
    ] {
        let out_pdn = temp("pydraughts-annotated.pdn");
        let mut args = vec![
            "--pdn",
            &input,
            "--depth",
            "4",
            "--annotate",
            out_pdn.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        ok(&args);
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/compat/read_pdn.py");
        let o = Command::new(&python)
            .args([script, "--annotated", out_pdn.to_str().unwrap(), games])
            .output()
            .unwrap_or_else(|e| panic!("cannot run {python}: {e}"));
        let _ = std::fs::remove_file(&out_pdn);
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(
            o.status.success(),
            "{input}: {out}{}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(out.starts_with(&format!("ok: {games} games")), "{out}");
    }
}

#[test]
fn the_chart_draws_each_game_and_marks_the_mistakes() {
    let blunder = temp("chart-blunder.pdn");
    std::fs::write(&blunder, BLUNDER_GAME).unwrap();
    let svg = temp("chart.svg");
    ok(&[
        "--pdn",
        blunder.to_str().unwrap(),
        "--depth",
        "6",
        "--chart",
        svg.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg"), "{text}");
    assert!(text.contains("Game 1: Careless - Lucky (*)"), "{text}");
    assert_eq!(text.matches("class=\"mark\"").count(), 1, "{text}");
    assert!(text.contains("1.32-27??"), "{text}");
    let _ = std::fs::remove_file(&blunder);
    let path = data("international-aligned.pdn");
    ok(&["--pdn", &path, "--depth", "1", "--chart", svg.to_str().unwrap()]);
    let text = std::fs::read_to_string(&svg).unwrap();
    let _ = std::fs::remove_file(&svg);
    assert_eq!(text.matches("<path").count(), 2, "one curve per game");
    // The chart and the annotated file may not overwrite the game file.
    let out = tempo(&["--pdn", &path, "--chart", &path]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("the same file"));
}

/// One file of a corpus as `tempo analyze` read it: games read, games skipped (with the
/// warnings), the variant and why, the moves analysed and those whose best scored below them.
struct FileTally {
    read: usize,
    skipped: Vec<String>,
    variant: String,
    why: String,
    moves: usize,
    disagree: Vec<String>,
}

/// Runs `tempo analyze` on one file at depth 1 without the book; `None` with the error when the
/// command fails.
fn tally(path: &std::path::Path, variant: Option<&str>) -> Result<FileTally, String> {
    let file = path.to_str().expect("a UTF-8 path");
    let mut args = vec!["--pdn", file, "--depth", "1", "--no-book", "--json"];
    if let Some(v) = variant {
        args.extend(["--variant", v]);
    }
    let out = tempo(&args);
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    if !out.status.success() {
        return Err(err.trim().to_string());
    }
    let lines = json(&String::from_utf8(out.stdout).expect("UTF-8"));
    let games = of_type(&lines, "game");
    let moves = of_type(&lines, "move");
    let disagree = moves
        .iter()
        .filter(|m| {
            let (b, p) = (&m["best_score"], &m["played_score"]);
            m["loss"].as_i64().is_some_and(|l| l < 0)
                || (b.as_i64().zip(p.as_i64()).is_some_and(|(b, p)| b < p))
        })
        .map(|m| m.to_string())
        .collect();
    Ok(FileTally {
        read: games.len(),
        skipped: err
            .lines()
            .filter(|l| l.ends_with(": skipped"))
            .map(str::to_string)
            .collect(),
        variant: games
            .first()
            .map_or("-".into(), |g| g["variant"].as_str().unwrap().to_string()),
        why: games
            .first()
            .map_or("-".into(), |g| g["variant_from"].as_str().unwrap().to_string()),
        moves: moves.len(),
        disagree,
    })
}

/// Every game of every `.pdn` file in the directory `TEMPO_PDN_CORPUS` (such as the PDN 3.0
/// standard's test games, github.com/wiegerw/pdn, `games/succeed`) reads and replays legally in
/// the variant its GameType names or the games show, and no move's best scores below it at the
/// smallest depth.
///
/// A game the command skips for its record's own fault (a capture written by its first and last
/// squares that fits several ways, the rest of the record reading after each; a FEN that is no
/// position) is listed without failing. A file whose games fit several
/// variants (a problem book of positions alone) is refused with the candidates; it is then read
/// with the first one the hint names, and the table says so. Prints a table per file and the
/// totals by variant.
#[test]
#[ignore = "needs a directory of PDN files: set TEMPO_PDN_CORPUS"]
fn every_game_of_a_corpus_reads_and_replays() {
    let dir = std::env::var("TEMPO_PDN_CORPUS").expect("TEMPO_PDN_CORPUS names a directory of PDN files");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("the corpus directory reads")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("pdn")))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no .pdn file in {dir}");
    let mut failures = Vec::new();
    let mut by_variant: std::collections::BTreeMap<String, (usize, usize, usize)> = Default::default();
    println!(
        "{:<32} {:>5} {:>5} {:>6}  {:<13} how the variant was decided",
        "file", "games", "read", "moves", "variant"
    );
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let t = match tally(path, None) {
            Ok(t) => Ok(t),
            // "... give the one they are with --variant (e.g. --variant english)"
            Err(e) if e.contains("(e.g. --variant ") => {
                let hint = e.rsplit("(e.g. --variant ").next().unwrap().trim_end_matches(')');
                tally(path, Some(hint)).map(|mut t| {
                    let candidates = e
                        .split("several variants: ")
                        .nth(1)
                        .and_then(|s| s.split(';').next());
                    t.why = format!(
                        "--variant {hint} (refused without it: {})",
                        candidates.unwrap_or("?")
                    );
                    t
                })
            }
            Err(e) => Err(e),
        };
        match t {
            Ok(t) => {
                let games = t.read + t.skipped.len();
                println!(
                    "{name:<32} {games:>5} {:>5} {:>6}  {:<13} {}",
                    t.read, t.moves, t.variant, t.why
                );
                let total = by_variant.entry(t.variant.clone()).or_default();
                *total = (total.0 + 1, total.1 + games, total.2 + t.read);
                // The records' own faults are shown, not failed: a capture written by its ends
                // that fits several ways with the rest reading after each, and a problem's FEN
                // that is no position (a man on its promotion row, an empty side).
                const RECORD_FAULTS: [&str; 3] = [
                    "the rest of the game reads legally after",
                    "man on its promotion row",
                    "bad position: empty field",
                ];
                let (undecided, bad): (Vec<&String>, Vec<&String>) = t
                    .skipped
                    .iter()
                    .partition(|s| RECORD_FAULTS.iter().any(|f| s.contains(f)));
                undecided.iter().for_each(|s| println!("  {s}"));
                failures.extend(bad.iter().map(|s| format!("{name}: {s}")));
                failures.extend(
                    t.disagree
                        .iter()
                        .map(|s| format!("{name}: best below played: {s}")),
                );
            }
            Err(e) => {
                println!("{name:<32} error: {e}");
                failures.push(format!("{name}: {e}"));
            }
        }
    }
    println!("{:<14} {:>5} {:>6} {:>6}", "variant", "files", "games", "read");
    for (v, (f, g, r)) in &by_variant {
        println!("{v:<14} {f:>5} {g:>6} {r:>6}");
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Problem books write `[White ""]`: an empty name shows as unknown, as a missing one does.
#[test]
fn an_empty_player_name_shows_as_unknown() {
    let path = temp("empty-names.pdn");
    std::fs::write(
        &path,
        "[White \"\"]\n[Black \" \"]\n[GameType \"20\"]\n[FEN \"W:W31,32,36:B21,22\"]\n\n1. 31-27 22x31 *\n",
    )
    .unwrap();
    let file = path.to_str().unwrap();
    let (out, _) = ok(&["--pdn", file, "--depth", "2", "--no-book"]);
    assert!(out.contains("game 1: ? - ?, from"), "{out}");
    let (out, _) = ok(&["--pdn", file, "--depth", "2", "--no-book", "--json"]);
    let game = of_type(&json(&out), "game")[0].clone();
    assert_eq!(
        (game["white"].as_str(), game["black"].as_str()),
        (Some("?"), Some("?"))
    );
    std::fs::remove_file(&path).ok();
}
