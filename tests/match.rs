//! `tempo match` end to end: Tempo against itself (Hub against UCI) in several variants, broken
//! engines (`tests/fake/hub.sh`: an illegal move, a crash, a hang, no move), the failure of an
//! engine that cannot start and of bad options, adjudication, a round robin, an SPRT that stops
//! the match, and the PDN read back by Tempo's reader (and by pydraughts when
//! `TEMPO_PYDRAUGHTS_PYTHON` is set, mandatory with `TEMPO_REQUIRE_PYDRAUGHTS=1`).

use std::path::PathBuf;
use std::process::Command;
use tempo::game::{Game, Outcome, Side};
use tempo::variant::Variant;

const TEMPO: &str = env!("CARGO_BIN_EXE_tempo");

fn fake(mode: &str) -> String {
    format!("bash {}/tests/fake/hub.sh {mode}", env!("CARGO_MANIFEST_DIR"))
}

fn tempo(dialect: &str) -> String {
    format!("{TEMPO} {dialect}")
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tempo-match-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

struct Run {
    ok: bool,
    out: String,
    err: String,
}

fn run(args: &[&str]) -> Run {
    let o = Command::new(TEMPO)
        .arg("match")
        .args(args)
        .output()
        .expect("tempo runs");
    let run = Run {
        ok: o.status.success(),
        out: String::from_utf8_lossy(&o.stdout).into_owned(),
        err: String::from_utf8_lossy(&o.stderr).into_owned(),
    };
    eprintln!("tempo match {}\n{}{}", args.join(" "), run.out, run.err);
    run
}

fn finished(out: &str) -> Vec<&str> {
    out.lines().filter(|l| l.starts_with("Finished game")).collect()
}

/// Reads a PDN file with Tempo's reader and replays every game by the variant's rules; checks the
/// tags and that a game ended by the rules ends in a position whose outcome is the result.
fn check_pdn<G: Game>(path: &PathBuf, games: usize, names: [&str; 2]) {
    let text = std::fs::read_to_string(path).unwrap();
    let parsed = tempo::pdn::parse_games(&text).unwrap();
    assert_eq!(parsed.len(), games, "{text}");
    for g in &parsed {
        let start = g.tag("FEN").map_or_else(G::start, |f| G::from_fen(f).unwrap());
        let mut pos = start;
        for m in &g.moves {
            let mv = pos.parse_move(m).unwrap_or_else(|e| panic!("{m}: {e}\n{text}"));
            pos = pos.play(&mv);
        }
        let result = g.tag("Result").unwrap();
        assert_eq!(g.result.as_deref(), Some(result));
        assert!(["2-0", "0-2", "1-1"].contains(&result));
        assert!(g.tag("Date").is_some() && g.tag("Event").is_some() && g.tag("Round").is_some());
        assert!(names.contains(&g.tag("White").unwrap()) && names.contains(&g.tag("Black").unwrap()));
        let why = g.tag("Termination").unwrap();
        if why.contains("has no legal move") || why.contains("draw rule") {
            let expected = match result {
                "2-0" => Outcome::Win(Side::White),
                "0-2" => Outcome::Win(Side::Black),
                _ => Outcome::Draw,
            };
            assert_eq!(pos.outcome(), Some(expected), "{why}");
        }
    }
}

#[test]
fn tempo_hub_against_tempo_uci_in_several_variants() {
    for variant in [
        "international",
        "russian",
        "english",
        "frisian",
        "brazilian",
        "italian",
    ] {
        let pdn = temp(&format!("self-{variant}.pdn"));
        let r = run(&[
            "--engine",
            &tempo("hub"),
            "--engine",
            &format!("{} name=Tempo-UCI", tempo("uci")),
            "--variant",
            variant,
            "--games",
            "2",
            "--depth",
            "2",
            "--random-plies",
            "2",
            "--balance-depth",
            "2",
            "--seed",
            "3",
            "--pdn",
            pdn.to_str().unwrap(),
        ]);
        assert!(r.ok, "{variant}");
        assert_eq!(finished(&r.out).len(), 2, "{variant}");
        assert!(r.out.contains("Score of Tempo vs Tempo-UCI: "), "{variant}");
        assert!(r.out.contains("Elo difference: "), "{variant}");
        assert!(r.out.trim_end().ends_with("Finished match"));
        let v: Variant = variant.parse().unwrap();
        tempo::with_variant!(v, G => check_pdn::<G>(&pdn, 2, ["Tempo", "Tempo-UCI"]));
    }
}

#[test]
fn an_illegal_move_loses_and_the_engine_is_restarted() {
    let log = temp("illegal.log");
    let r = run(&[
        "--engine",
        &tempo("hub"),
        "--engine",
        &fake("illegal"),
        "--games",
        "2",
        "--depth",
        "1",
        "--log",
        log.to_str().unwrap(),
    ]);
    assert!(r.ok);
    let games = finished(&r.out);
    assert_eq!(games.len(), 2);
    for g in games {
        assert!(
            g.contains("makes an illegal move: 1-2 in W:") || g.contains("makes an illegal move: 1-2 in B:"),
            "{g}"
        );
    }
    assert!(r.out.contains("Score of Tempo vs fake-illegal: 2 - 0 - 0"));
    // The log shows the traffic, and a second process for the second game.
    let log = std::fs::read_to_string(&log).unwrap();
    assert!(log.contains("< done move=1-2"));
    assert!(log.matches("> hub").count() >= 3, "probe and two games");
}

#[test]
fn a_crash_loses_and_the_engine_is_restarted() {
    let r = run(&[
        "--engine",
        &fake("crash"),
        "--engine",
        &tempo("hub"),
        "--games",
        "2",
        "--depth",
        "1",
    ]);
    assert!(r.ok);
    let games = finished(&r.out);
    assert_eq!(games.len(), 2);
    for g in &games {
        assert!(g.contains("disconnects"), "{g}");
    }
    assert!(r.out.contains("Score of fake-crash vs Tempo: 0 - 2 - 0"));
}

#[test]
fn a_hung_engine_loses_under_every_time_limit() {
    // Move time: lost after twice the move time plus a second.
    let r = run(&[
        "--engine",
        &tempo("hub"),
        "--engine",
        &fake("hang"),
        "--games",
        "1",
        "--movetime",
        "0.05",
    ]);
    assert!(r.ok);
    assert!(
        r.out
            .contains("1-0 {Black loses: no move in 1.1 s at 0.050 s per move}"),
        "{}",
        r.out
    );
    // Depth only: the stall timeout.
    let r = run(&[
        "--engine",
        &fake("hang"),
        "--engine",
        &tempo("hub"),
        "--games",
        "1",
        "--depth",
        "1",
        "--stall",
        "0.5",
    ]);
    assert!(
        r.out.contains("0-1 {White loses: stalls (no move in 0.5 s)}"),
        "{}",
        r.out
    );
    // A clock: lost on time.
    let r = run(&[
        "--engine",
        &fake("hang"),
        "--engine",
        &tempo("hub"),
        "--games",
        "1",
        "--tc",
        "0.3+0",
        "--margin",
        "20",
    ]);
    assert!(r.out.contains("0-1 {White loses on time}"), "{}", r.out);
    // No move in the answer.
    let r = run(&[
        "--engine",
        &fake("nomove"),
        "--engine",
        &tempo("hub"),
        "--games",
        "1",
        "--depth",
        "1",
    ]);
    assert!(
        r.out.contains("0-1 {White loses: protocol error") || r.out.contains("0-1 {White loses: no move in"),
        "{}",
        r.out
    );
}

#[test]
fn bad_input_is_a_clear_error() {
    let r = run(&[
        "--engine",
        "/nonexistent/engine hub",
        "--engine",
        &tempo("hub"),
        "--depth",
        "1",
    ]);
    assert!(!r.ok);
    assert!(
        r.err.contains("cannot start engine \"/nonexistent/engine hub\""),
        "{}",
        r.err
    );
    assert!(!r.err.contains("panicked"));
    for (opt, value, message) in [
        (
            "--tc",
            "fast",
            "--tc \"fast\": expected SECONDS+INC or MOVES/SECONDS+INC",
        ),
        ("--sprt", "elo0=5 elo1=0", "elo0 (5) must be below elo1 (0)"),
        ("--resign", "3", "expected MEN/PLIES"),
        ("--openings", "/nonexistent.pdn", "cannot read openings"),
    ] {
        let r = run(&["--engine", &tempo("hub"), "--engine", &tempo("uci"), opt, value]);
        assert!(!r.ok, "{opt}");
        assert!(r.err.contains(message), "{opt}: {}", r.err);
        assert!(!r.err.contains("panicked"));
    }
    let r = run(&["--engine", &tempo("hub")]);
    assert!(!r.ok && r.err.contains("at least two --engine"), "{}", r.err);
    let r = run(&[
        "--engine",
        &format!("{} proto=dxp", tempo("hub")),
        "--engine",
        &tempo("hub"),
    ]);
    assert!(!r.ok && r.err.contains("proto is hub or uci"), "{}", r.err);
}

#[test]
fn protocol_detection_and_adjudication() {
    // `tempo` without a dialect argument takes it from the first line: detected as Hub.
    let r = run(&[
        "--engine",
        &format!("{TEMPO} name=auto"),
        "--engine",
        &format!("{} name=uci", tempo("uci")),
        "--games",
        "2",
        "--depth",
        "1",
        "--draw-after",
        "12",
        "--random-plies",
        "2",
    ]);
    assert!(r.ok);
    for g in finished(&r.out) {
        assert!(g.contains("1/2-1/2 {Draw by adjudication after 12 plies}"), "{g}");
    }
    assert!(r.out.contains("Score of auto vs uci: 0 - 0 - 2  [0.500] 2"));
    assert!(
        r.out
            .contains("Elo difference: 0.0 +/- 0.0, LOS: 50.0 %, DrawRatio: 100.0 %")
    );
}

#[test]
fn openings_from_a_ballot_file_with_both_colours() {
    let ballots = temp("ballots.txt");
    std::fs::write(
        &ballots,
        "# English three-move ballots\n9-13 22-18 10-14\n1. 11-15 23-19 2. 8-11\n",
    )
    .unwrap();
    let pdn = temp("ballots.pdn");
    let r = run(&[
        "--engine",
        &tempo("hub"),
        "--engine",
        &tempo("uci"),
        "--variant",
        "english",
        "--openings",
        ballots.to_str().unwrap(),
        "--depth",
        "1",
        "--pdn",
        pdn.to_str().unwrap(),
    ]);
    assert!(r.ok);
    // Two openings, each with both colours.
    assert_eq!(finished(&r.out).len(), 4);
    let games = tempo::pdn::parse_games(&std::fs::read_to_string(&pdn).unwrap()).unwrap();
    let mut firsts: Vec<String> = games.iter().map(|g| g.moves[..3].join(" ")).collect();
    firsts.sort();
    assert_eq!(
        firsts,
        [
            "11-15 23-19 8-11",
            "11-15 23-19 8-11",
            "9-13 22-18 10-14",
            "9-13 22-18 10-14"
        ]
    );
    assert!(
        games
            .iter()
            .all(|g| g.tag("GameType") == Some("21,B,8,8,N1,0") && g.tag("FEN").is_none())
    );
}

#[test]
fn a_round_robin_of_three() {
    let r = run(&[
        "--engine",
        &tempo("hub"),
        "--engine",
        &tempo("uci"),
        "--engine",
        &fake("illegal"),
        "--rounds",
        "1",
        "--depth",
        "1",
        "--concurrency",
        "2",
    ]);
    assert!(r.ok);
    // Three pairings, each with both colours.
    assert_eq!(finished(&r.out).len(), 6);
    assert!(r.out.contains("Rank Name"));
    let last = r.out.lines().rev().nth(1).unwrap();
    assert!(last.contains("fake-illegal") && last.contains("0.0%"), "{last}");
}

#[test]
fn sprt_stops_the_match_when_it_decides() {
    let r = run(&[
        "--engine",
        &tempo("hub"),
        "--engine",
        &fake("illegal"),
        "--games",
        "100",
        "--depth",
        "1",
        "--sprt",
        "elo0=0 elo1=10",
    ]);
    assert!(r.ok);
    assert!(r.out.contains(" - H1 was accepted"), "{}", r.out);
    assert!(r.out.contains("H1 accepted; the match stopped"));
    assert!(finished(&r.out).len() < 20);
}

#[test]
fn pydraughts_reads_the_pdn_back() {
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
    let pdn = temp("pydraughts.pdn");
    let r = run(&[
        "--engine",
        &tempo("hub"),
        "--engine",
        &tempo("uci"),
        "--games",
        "4",
        "--depth",
        "2",
        "--concurrency",
        "2",
        "--pdn",
        pdn.to_str().unwrap(),
    ]);
    assert!(r.ok);
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/compat/read_pdn.py");
    let o = Command::new(&python)
        .args([script, pdn.to_str().unwrap(), "4"])
        .output()
        .unwrap_or_else(|e| panic!("cannot run {python}: {e}"));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.starts_with("ok: 4 games"), "{out}");
}
