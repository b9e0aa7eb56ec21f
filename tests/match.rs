//! `tempo match` end to end: Tempo against itself (Hub against UCI) in several variants, broken
//! engines (`tests/fake/hub.sh`: an illegal move, a crash, a hang, no move), the failure of an
//! engine that cannot start and of bad options, adjudication, a round robin, an SPRT that stops
//! the match, and the PDN read back by Tempo's reader (and by pydraughts when
//! `TEMPO_PYDRAUGHTS_PYTHON` is set, mandatory with `TEMPO_REQUIRE_PYDRAUGHTS=1`).

use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
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

use crate::common::{MatchRun as Run, run_match as run};

/// A run of `tempo match` watched from outside: killed at `limit` or beyond 1 GiB, its resident
/// memory sampled.
struct Watched {
    run: Run,
    /// Whether it had to be killed at the limit.
    killed: bool,
    /// The largest resident set seen, in MiB.
    peak_mib: u64,
    /// How long it ran.
    took: Duration,
}

/// The resident set of a process in KiB, from /proc (0 when it cannot be read).
fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|t| {
            let l = t.lines().find(|l| l.starts_with("VmRSS:"))?;
            l.split_whitespace().nth(1)?.parse().ok()
        })
        .unwrap_or(0)
}

fn watched(args: &[&str], limit: Duration) -> Watched {
    let began = Instant::now();
    let mut child = Command::new(TEMPO)
        .arg("match")
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tempo runs");
    // Both outputs are drained on threads, so that the child never blocks on a full pipe.
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let mut peak = 0;
    let mut killed = false;
    let status = loop {
        peak = peak.max(rss_kib(child.id()));
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        // Past the limit, or far past the memory a match needs: stopped before it harms the machine.
        if began.elapsed() > limit || peak > 1 << 20 {
            killed = true;
            let _ = child.kill();
            break child.wait().unwrap();
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let took = began.elapsed();
    let run = Run {
        ok: status.success(),
        out: out.join().unwrap(),
        err: err.join().unwrap(),
    };
    eprintln!(
        "tempo match {} ({:.1} s, peak {} MiB{})\n{}{}",
        args.join(" "),
        took.as_secs_f64(),
        peak / 1024,
        if killed { ", killed" } else { "" },
        run.out,
        run.err
    );
    Watched {
        run,
        killed,
        peak_mib: peak / 1024,
        took,
    }
}

/// The memory a match may use with any engine output: the manager's own few MiB, a queue of
/// engine lines, and the reader buffers.
const PEAK_MIB: u64 = 150;

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
        "turkish",
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
        // Hub numbers some boards as pydraughts does (protocol.md 4.6): the manager translates,
        // so no game may end by an illegal move.
        assert!(!r.out.contains("illegal move"), "{variant}: {}", r.out);
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
    // Overruns add up (issue 53 item 4): at a clock of a microsecond every move overruns it by a
    // few milliseconds, and a margin of 100 ms is spent within a few dozen moves. Each move's
    // overrun used to be forgiven, and such games ran to their end.
    let r = run(&[
        "--engine",
        &tempo("hub"),
        "--engine",
        &tempo("hub"),
        "--games",
        "1",
        "--tc",
        "0.000001",
        "--margin",
        "100",
    ]);
    assert!(r.out.contains("loses on time}"), "{}", r.out);
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
        ("--adjudicate-draw", "0.05/20", "expected MEN/PLIES/FROM"),
        (
            "--openings",
            "/nonexistent.pdn",
            "openings: cannot read /nonexistent.pdn",
        ),
        // The default --balance is 0.5 men: no opening can be ahead by more and within it.
        (
            "--imbalance",
            "0.5",
            "--imbalance 0.5 must be below --balance 0.5",
        ),
        ("--imbalance", "NaN", "--imbalance NaN: must be 0 or more men"),
    ] {
        let r = run(&["--engine", &tempo("hub"), "--engine", &tempo("uci"), opt, value]);
        assert!(!r.ok, "{opt}");
        assert!(r.err.contains(message), "{opt}: {}", r.err);
        assert!(!r.err.contains("panicked"));
    }
    let r = run(&[
        "--engine",
        &tempo("hub"),
        "--engine",
        &tempo("uci"),
        "--openings",
        "/nonexistent.pdn",
        "--imbalance",
        "0.3",
    ]);
    assert!(
        !r.ok
            && r.err
                .contains("--imbalance filters random openings: it cannot be given with --openings"),
        "{}",
        r.err
    );
    let r = run(&["--engine", &tempo("hub")]);
    assert!(!r.ok && r.err.contains("at least two --engine"), "{}", r.err);
    let r = run(&[
        "--engine",
        &format!("{} proto=dxp", tempo("hub")),
        "--engine",
        &tempo("hub"),
    ]);
    assert!(!r.ok && r.err.contains("proto is hub, hub1 or uci"), "{}", r.err);
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

/// `--adjudicate-draw`: with a bound no score reaches, each game is drawn once the last four
/// plies were all scored (a forced move played at once may come without a score, which breaks
/// the run) and the game has at least FROM plies; never before.
#[test]
fn level_scores_adjudicate_a_draw_from_the_given_ply() {
    let pdn = temp("adjudicated-draw.pdn");
    let r = run(&[
        "--engine",
        &tempo("hub"),
        "--engine",
        &tempo("uci"),
        "--games",
        "2",
        "--depth",
        "2",
        "--random-plies",
        "2",
        "--adjudicate-draw",
        "99/4/11",
        "--pdn",
        pdn.to_str().unwrap(),
    ]);
    assert!(r.ok, "{}", r.err);
    let games = finished(&r.out);
    assert_eq!(games.len(), 2, "{}", r.out);
    for g in games {
        assert!(
            g.contains("1/2-1/2 {Draw by adjudication: 4 plies within 99.00 men of level}"),
            "{g}"
        );
    }
    let text = std::fs::read_to_string(&pdn).unwrap();
    for game in text.split("[Event").skip(1) {
        let body = game.rsplit(']').next().unwrap();
        // Without the move comments (`{+0.02/2 0.003s}`), which hold digits too.
        let mut moves = String::new();
        let mut depth = 0;
        for c in body.chars() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ if depth == 0 => moves.push(c),
                _ => {}
            }
        }
        // The moves: every token with a square number in it but the result and move numbers.
        let plies = moves
            .split_whitespace()
            .filter(|t| !t.ends_with('.') && *t != "1-1" && t.contains(|c: char| c.is_ascii_digit()))
            .count();
        assert!((11..40).contains(&plies), "{plies} plies: {game}");
    }
}

/// `--adjudicate-egdb`: English tables to 3 pieces built for the test; from two kings against one
/// (won) and a king against a king (drawn) the games end before any engine moves, with the
/// tables' result; a directory without tables is a clear error before play.
#[test]
fn endgame_tables_adjudicate_before_the_engines_move() {
    let dir = temp("adjudication-tables");
    let built = Command::new(TEMPO)
        .args(["egdb", "build", "--variant", "english", "--pieces", "3", "--dir"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let openings = temp("adjudication-tables.fen");
    std::fs::write(&openings, "W:WK22,K23:BK1\nW:WK22:BK1\n").unwrap();
    let common = [
        "--variant",
        "english",
        "--engine",
        &tempo("hub"),
        "--engine",
        &tempo("uci"),
        "--depth",
        "2",
        "--openings",
        openings.to_str().unwrap(),
    ];
    let r = run(&[&common[..], &["--adjudicate-egdb", dir.to_str().unwrap()]].concat());
    assert!(r.ok, "{}", r.err);
    let games = finished(&r.out);
    assert_eq!(games.len(), 4, "{}", r.out);
    for g in &games[..2] {
        assert!(
            g.contains("1-0 {White wins by adjudication: endgame tables}"),
            "{g}"
        );
    }
    for g in &games[2..] {
        assert!(
            g.contains("1/2-1/2 {Draw by adjudication: endgame tables}"),
            "{g}"
        );
    }
    // Without the option the engines play the same positions.
    let r = run(&common);
    assert!(r.ok, "{}", r.err);
    assert!(!r.out.contains("endgame tables"), "{}", r.out);
    let r = run(&[&common[..], &["--adjudicate-egdb", "/nonexistent-tables"]].concat());
    assert!(!r.ok);
    assert!(
        r.err.contains("--adjudicate-egdb /nonexistent-tables"),
        "{}",
        r.err
    );
    assert!(!r.out.contains("Started game"), "{}", r.out);
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

/// Frisian Art. 17 (rules.md 2.6): a king that has made three moves in a row while its side has
/// men may not move on. A Hub position string cannot say so: the start goes to Hub engines as its
/// FEN, with the run, or they play moves the referee refuses (four of these six games did, when the
/// Hub string was sent).
#[test]
fn a_frisian_king_run_in_the_opening_reaches_hub_engines() {
    let openings = temp("runs.fen");
    std::fs::write(
        &openings,
        "W:W47,K17:BK5:RW17=3\nW:WK17,43,47:BK5:RW17=3\nB:W18,35,K40:BK42:RW40=3\n",
    )
    .unwrap();
    let pdn = temp("runs.pdn");
    let r = run(&[
        "--engine",
        &tempo("hub"),
        "--engine",
        &tempo("hub"),
        "--variant",
        "frisian",
        "--openings",
        openings.to_str().unwrap(),
        "--depth",
        "2",
        "--pdn",
        pdn.to_str().unwrap(),
    ]);
    assert!(r.ok, "{}", r.err);
    assert_eq!(finished(&r.out).len(), 6);
    let text = std::fs::read_to_string(&pdn).unwrap();
    assert!(!text.contains("illegal"), "{text}");
    let games = tempo::pdn::parse_games(&text).unwrap();
    assert_eq!(games.len(), 6);
    for g in &games {
        // The restricted White king stays where it is on White's first move.
        let (king, first) = if g.tag("FEN").unwrap().starts_with('W') {
            ("17-", &g.moves[0])
        } else {
            ("40-", &g.moves[1])
        };
        assert!(!first.starts_with(king), "{:?}: {first}", g.tag("FEN"));
    }
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
    // Every game lost: the upper end of its Elo's interval (4 games: 0.025^(1/4) = 0.397635, by
    // hand; -400 log10(1 / (1 - 0.397635) - 1) = 72.15), never an infinite Elo.
    assert!(last.contains(" < 72.1 ") || last.contains(" < 72.2 "), "{last}");
    let ranking = &r.out[r.out.find("Rank Name").unwrap()..];
    assert!(!ranking.contains("inf"), "{ranking}");
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
    // Every pair won: with unseen outcomes counted as half a pair (src/arena/stats.rs), the
    // narrow hypotheses (10 Elo apart) decide after 19 pairs, well before the 100 games.
    assert!(finished(&r.out).len() < 50);
}

/// Without --games an SPRT is not cut short by the default of a plain match (20 games a pairing):
/// here it needs more than 20 games to decide, and decides.
#[test]
fn sprt_without_a_game_count_runs_until_it_decides() {
    let r = run(&[
        "--engine",
        &tempo("hub"),
        "--engine",
        &fake("illegal"),
        "--depth",
        "1",
        // The default balance filter: its searches are made as the games need openings, not
        // for all 5,000 rounds before the first game.
        "--sprt",
        "elo0=0 elo1=10",
    ]);
    assert!(r.ok);
    assert!(r.out.contains("Openings: 5000 random of 6 plies"), "{}", r.out);
    assert!(r.out.contains("H1 accepted; the match stopped"), "{}", r.out);
    assert!(finished(&r.out).len() > 20, "{}", r.out);
}

#[test]
#[cfg_attr(
    not(pydraughts),
    ignore = "needs pydraughts: set TEMPO_PYDRAUGHTS_PYTHON to a Python with pydraughts 0.6.7"
)]
fn pydraughts_reads_the_pdn_back() {
    let python = crate::common::pydraughts_python();
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

#[test]
fn an_engine_flooding_the_handshake_fails_it_in_time_and_bounded_memory() {
    // `yes` never stops writing and never writes `wait`: the handshake deadline (10 s) must hold.
    let w = watched(
        &[
            "--engine",
            "yes garbage proto=hub",
            "--engine",
            &tempo("hub"),
            "--depth",
            "1",
        ],
        Duration::from_secs(30),
    );
    assert!(!w.killed, "the handshake never failed");
    assert!(!w.run.ok);
    assert!(
        w.run
            .err
            .contains("engine engine1: no `wait` after `hub`: no answer in time"),
        "{}",
        w.run.err
    );
    assert!(w.took < Duration::from_secs(20), "{:?}", w.took);
    assert!(w.peak_mib < PEAK_MIB, "{} MiB", w.peak_mib);
}

#[test]
fn an_engine_flooding_info_lines_loses_on_time_in_bounded_memory() {
    let log = temp("flood.log");
    let w = watched(
        &[
            "--engine",
            &tempo("hub"),
            "--engine",
            &fake("flood"),
            "--games",
            "1",
            "--movetime",
            "0.05",
            "--log",
            log.to_str().unwrap(),
        ],
        Duration::from_secs(20),
    );
    assert!(!w.killed, "the flooding engine was never forfeited");
    assert!(w.run.ok);
    assert!(
        w.run
            .out
            .contains("1-0 {Black loses: no move in 1.1 s at 0.050 s per move}"),
        "{}",
        w.run.out
    );
    assert!(w.peak_mib < PEAK_MIB, "{} MiB", w.peak_mib);
    // The log keeps the first lines of the flood and says that it skipped the rest.
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.contains("[more lines: not logged after 10000 in one answer]"));
    assert!(text.lines().count() < 12_000, "{}", text.lines().count());
}

#[test]
fn endless_lines_and_endless_standard_error_keep_memory_bounded() {
    let log = temp("noise.log");
    for mode in ["noeol", "noise"] {
        let w = watched(
            &[
                "--engine",
                &fake(mode),
                "--engine",
                &tempo("hub"),
                "--games",
                "1",
                "--movetime",
                "0.3",
                "--log",
                log.to_str().unwrap(),
            ],
            Duration::from_secs(20),
        );
        assert!(!w.killed, "{mode}");
        assert!(
            w.run.out.contains("0-1 {White loses: no move in 1.6 s"),
            "{mode}: {}",
            w.run.out
        );
        assert!(w.peak_mib < PEAK_MIB, "{mode}: {} MiB", w.peak_mib);
    }
    // The log keeps a bounded part of the noise, and says so.
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.contains("[more standard error: not logged after 10000 lines]"));
    assert!(text.lines().count() < 10_100, "{}", text.lines().count());
}

#[test]
fn settings_an_engine_refuses_stop_the_match_before_play() {
    let r = run(&[
        "--engine",
        &format!("{} option.bogus=1", tempo("hub")),
        "--engine",
        &tempo("uci"),
        "--games",
        "2",
        "--depth",
        "1",
    ]);
    assert!(!r.ok);
    assert!(
        r.err.contains("engine engine1 refused its settings")
            && r.err.contains("error message=\"unknown parameter bogus\""),
        "{}",
        r.err
    );
    assert!(finished(&r.out).is_empty());
    let r = run(&[
        "--engine",
        &tempo("hub"),
        "--engine",
        &format!("{} option.Bogus=1", tempo("uci")),
        "--depth",
        "1",
    ]);
    assert!(!r.ok);
    assert!(
        r.err.contains("engine engine2 refused its settings")
            && r.err.contains("info string error: unknown option"),
        "{}",
        r.err
    );
}

#[test]
fn an_engine_that_exits_at_once_is_reported_with_its_status_and_stderr() {
    let r = run(&[
        "--engine",
        &fake("dies"),
        "--engine",
        &tempo("hub"),
        "--depth",
        "1",
    ]);
    assert!(!r.ok);
    assert!(
        r.err.contains("the engine exited (exit status: 7)")
            && r.err.contains("fake-dies: cannot load its weights"),
        "{}",
        r.err
    );
    assert!(!r.err.contains("Broken pipe"), "{}", r.err);
}

#[test]
fn a_log_that_cannot_be_written_is_an_error() {
    let r = run(&[
        "--engine",
        &tempo("hub"),
        "--engine",
        &tempo("uci"),
        "--games",
        "2",
        "--depth",
        "1",
        "--log",
        "/dev/full",
    ]);
    assert!(!r.ok);
    assert!(r.err.contains("cannot write log /dev/full"), "{}", r.err);
}

#[test]
fn the_openings_file_is_never_overwritten_by_the_pdn() {
    let ballots = temp("same-file.txt");
    let text = "9-13 22-18 10-14\n";
    std::fs::write(&ballots, text).unwrap();
    // The same file named two ways.
    let other = ballots.parent().unwrap().join(".").join("same-file.txt");
    let r = run(&[
        "--engine",
        &tempo("hub"),
        "--engine",
        &tempo("uci"),
        "--variant",
        "english",
        "--depth",
        "1",
        "--openings",
        ballots.to_str().unwrap(),
        "--pdn",
        other.to_str().unwrap(),
    ]);
    assert!(!r.ok);
    assert!(
        r.err.contains("--openings and --pdn name the same file"),
        "{}",
        r.err
    );
    assert_eq!(std::fs::read_to_string(&ballots).unwrap(), text);
}

#[test]
fn huge_counts_are_refused_before_any_allocation() {
    for (opt, value) in [
        ("--games", "1000000000"),
        ("--games", "18446744073709551615"),
        ("--rounds", "1000000000"),
        ("--random-plies", "1000000000"),
        ("--concurrency", "100000"),
    ] {
        let w = watched(
            &[
                "--engine",
                &tempo("hub"),
                "--engine",
                &tempo("uci"),
                "--depth",
                "1",
                opt,
                value,
            ],
            Duration::from_secs(20),
        );
        assert!(!w.killed && !w.run.ok, "{opt} {value}");
        assert!(
            w.run.err.contains("is not a whole number from"),
            "{opt}: {}",
            w.run.err
        );
        assert!(!w.run.err.contains("panicked"), "{opt}: {}", w.run.err);
    }
    // Rounds within range whose games exceed the cap in a round robin.
    let r = run(&[
        "--engine",
        &tempo("hub"),
        "--engine",
        &tempo("uci"),
        "--engine",
        &tempo("hub"),
        "--rounds",
        "400000",
        "--depth",
        "1",
    ]);
    assert!(!r.ok && r.err.contains("more than 1000000 games"), "{}", r.err);
}

#[test]
fn a_closed_standard_output_ends_the_match_quietly() {
    let mut child = Command::new(TEMPO)
        .args([
            "match",
            "--engine",
            &tempo("hub"),
            "--engine",
            &tempo("uci"),
            "--games",
            "40",
            "--depth",
            "2",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The reader goes away before anything is written.
    drop(child.stdout.take());
    let began = Instant::now();
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert!(
        out.status.success() || std::os::unix::process::ExitStatusExt::signal(&out.status) == Some(13),
        "{:?} {err}",
        out.status
    );
    // Stopped, not played to the end.
    assert!(began.elapsed() < Duration::from_secs(20));
}

#[test]
fn the_same_seed_gives_the_same_random_openings() {
    let openings = |seed: &str| {
        let pdn = temp(&format!("seed-{seed}-{}.pdn", rand_suffix()));
        let r = run(&[
            "--engine",
            &tempo("hub"),
            "--engine",
            &tempo("uci"),
            "--games",
            "4",
            "--depth",
            "1",
            "--draw-after",
            "6",
            "--seed",
            seed,
            "--pdn",
            pdn.to_str().unwrap(),
        ]);
        assert!(r.ok);
        assert!(r.out.contains(&format!("seed {seed}")), "{}", r.out);
        let games = tempo::pdn::parse_games(&std::fs::read_to_string(&pdn).unwrap()).unwrap();
        games.iter().map(|g| g.moves[..6].join(" ")).collect::<Vec<_>>()
    };
    let a = openings("11");
    assert_eq!(a.len(), 4);
    // Each opening is played with both colours.
    assert_eq!(a[0], a[1]);
    assert_eq!(a, openings("11"));
    assert_ne!(a, openings("12"));
}

/// A name part that differs between calls in one process.
fn rand_suffix() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    N.fetch_add(1, Ordering::Relaxed)
}

/// The strict Hub-1 fake (`tests/fake/hub1.sh`, moves from Tempo's Hub engine), as an engine
/// setting; `extra` adds settings such as `proto=hub1`.
fn fake_hub1(extra: &str) -> String {
    format!(
        "bash {}/tests/fake/hub1.sh {TEMPO} {extra}",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// The lines the manager sent to the engine labelled `label` in the log (its `name=`, or
/// `engine1` for a first engine without one).
fn sent_to(log: &str, label: &str) -> Vec<String> {
    log.lines()
        .filter_map(|l| {
            let mut w = l.split_whitespace();
            let (_, who, dir) = (w.next()?, w.next()?, w.next()?);
            (who.starts_with(&format!("{label}#")) || who.starts_with(&format!("{label}.w")))
                .then_some(())
                .filter(|()| dir == ">")
                .map(|()| w.collect::<Vec<_>>().join(" "))
        })
        .collect()
}

#[test]
fn a_hub1_engine_plays_whole_games_under_each_limit() {
    // Each run: the limit, and the line it must become in Hub-1.
    for (limit, line) in [
        (&["--depth", "2"][..], "depth 2"),
        (&["--movetime", "0.05"][..], "time 50"),
        (&["--tc", "40/10+0.1"][..], "level "),
    ] {
        let log = temp(&format!("hub1-{}.log", rand_suffix()));
        let mut args: Vec<String> = vec![
            "--engine".into(),
            fake_hub1("name=h1 proto=hub1 option.tt-size=16"),
            "--engine".into(),
            format!("{} name=t", tempo("hub")),
            "--games".into(),
            "2".into(),
            "--random-plies".into(),
            "2".into(),
            "--draw-after".into(),
            "40".into(),
            "--log".into(),
            log.to_str().unwrap().into(),
        ];
        args.extend(limit.iter().map(|a| a.to_string()));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let r = run(&args);
        assert!(r.ok, "{}", r.err);
        let games = finished(&r.out);
        assert_eq!(games.len(), 2, "{}", r.out);
        for g in games {
            // A game the fake lost by a fault would say so; 40 plies at most end in an
            // adjudicated draw or a win by the rules.
            assert!(
                !g.contains("loses") && !g.contains("illegal") && !g.contains("disconnects"),
                "{g}"
            );
        }
        let sent = sent_to(&std::fs::read_to_string(&log).unwrap(), "h1");
        for must in ["hub", "set tt-size 16", "init", "new", "go"] {
            assert!(sent.iter().any(|l| l == must), "{must:?} not in {sent:?}");
        }
        assert!(
            sent.iter().any(|l| l.starts_with(line)),
            "{line:?} not in {sent:?}"
        );
        assert!(sent.iter().any(|l| l == "start" || l.starts_with("pos ")));
        // The games continue past the opening: move lines, and captures with their squares.
        assert!(sent.iter().filter(|l| l.starts_with("move ")).count() >= 4);
        for l in &sent {
            assert!(
                !l.contains('=') && !l.starts_with("go ") && l != "new-game",
                "a Hub line sent to a Hub-1 engine: {l:?}"
            );
            if let Some(rest) = l.strip_prefix("level ") {
                let n: Vec<u64> = rest.split(' ').map(|w| w.parse().unwrap()).collect();
                // 40 moves to go at most, at most 10 s (+ increments) left, 100 ms increment.
                assert!(n.len() == 3 && n[0] <= 40 && n[1] <= 12_000 && n[2] == 100, "{l}");
            }
        }
    }
}

/// The closing lines give each engine's mean thinking time, and a match at a fixed time a move
/// warns of an engine that overran it: its games were not played at equal time.
#[test]
fn a_match_reports_thinking_time_and_warns_of_an_engine_that_overruns_the_move_time() {
    let r = run(&[
        "--engine",
        &fake_hub1("slow name=slow proto=hub1"),
        "--engine",
        &format!("{} name=t", tempo("hub")),
        "--games",
        "2",
        "--random-plies",
        "2",
        "--draw-after",
        "24",
        "--movetime",
        "0.05",
    ]);
    assert!(r.ok, "{}", r.err);
    let line = r
        .out
        .lines()
        .find(|l| l.starts_with("Thinking time a searched move: "))
        .unwrap_or_else(|| panic!("no thinking time in {}", r.out));
    // The fake sleeps 0.15 s a move; Tempo stops at about 0.05 s.
    // Each engine's part: `NAME MEAN s (longest ...; ...)`, the parts separated by `), `.
    let mean = |name: &str| -> f64 {
        let parts = line.strip_prefix("Thinking time a searched move: ").unwrap();
        let part = parts
            .split("), ")
            .find_map(|p| p.strip_prefix(&format!("{name} ")))
            .unwrap_or_else(|| panic!("no {name} in {line}"));
        part.split(' ').next().unwrap().parse().unwrap()
    };
    assert!(mean("slow") >= 0.15, "{line}");
    assert!(mean("t") < 0.1, "{line}");
    let warnings: Vec<&str> = r.out.lines().filter(|l| l.starts_with("Warning: ")).collect();
    assert!(
        warnings
            .iter()
            .any(|w| w.starts_with("Warning: slow thought ") && w.contains("not played at equal time")),
        "{}",
        r.out
    );
    // Tempo is warned exactly when its own mean is more than 10 % over the move time: on a loaded
    // machine it can be, and the warning must then say so (the printed mean is rounded, so a mean
    // within a millisecond of the line may go either way).
    let t_warned = warnings.iter().any(|w| w.starts_with("Warning: t thought "));
    let t = mean("t");
    if (t - 0.055).abs() > 0.001 {
        assert_eq!(t_warned, t > 0.055, "{}", r.out);
    }
    assert_eq!(warnings.len(), 1 + usize::from(t_warned), "{}", r.out);
    assert!(r.out.trim_end().ends_with("Finished match"));
}

#[test]
fn a_hub1_engine_is_detected_from_its_handshake() {
    // No proto=: the `hub` probe is answered with `name …` lines and no `id`, so the manager
    // speaks Hub-1 (the strict fake would end on any Hub line).
    let log = temp(&format!("hub1-detect-{}.log", rand_suffix()));
    let r = run(&[
        "--engine",
        &fake_hub1(""),
        "--engine",
        &tempo("hub"),
        "--games",
        "2",
        "--depth",
        "1",
        "--draw-after",
        "20",
        "--log",
        log.to_str().unwrap(),
    ]);
    assert!(r.ok, "{}", r.err);
    assert!(r.out.contains("Score of Fake Hub-1 vs Tempo"), "{}", r.out);
    for g in finished(&r.out) {
        assert!(!g.contains("loses") && !g.contains("disconnects"), "{g}");
    }
    let sent = sent_to(&std::fs::read_to_string(&log).unwrap(), "engine1");
    assert!(sent.iter().any(|l| l == "depth 1"), "{sent:?}");
}

#[test]
fn hub1_limits_it_cannot_take_are_clear_errors() {
    // Another variant: refused before play.
    let r = run(&[
        "--engine",
        &fake_hub1("proto=hub1"),
        "--engine",
        &tempo("hub"),
        "--variant",
        "frisian",
        "--games",
        "2",
        "--depth",
        "1",
    ]);
    assert!(!r.ok);
    assert!(
        r.err.contains("Hub-1, which plays International draughts only"),
        "{}",
        r.err
    );
    // An option value of two words, which `set NAME VALUE` cannot carry.
    let r = run(&[
        "--engine",
        &fake_hub1("proto=hub1 'option.book=a b'"),
        "--engine",
        &tempo("hub"),
        "--games",
        "2",
        "--depth",
        "1",
    ]);
    assert!(!r.ok);
    assert!(r.err.contains("takes one word each"), "{}", r.err);
    // proto=hub given for an engine that answers in Hub-1: said at the start, not as timeouts.
    let r = run(&[
        "--engine",
        &fake_hub1("proto=hub"),
        "--engine",
        &tempo("hub"),
        "--games",
        "2",
        "--depth",
        "1",
    ]);
    assert!(!r.ok);
    assert!(r.err.contains("answered `hub` in Hub-1"), "{}", r.err);
    // A node limit: the Hub-1 engine loses its games, the reason said.
    let r = run(&[
        "--engine",
        &fake_hub1("proto=hub1"),
        "--engine",
        &tempo("hub"),
        "--games",
        "2",
        "--nodes",
        "100",
    ]);
    assert!(r.ok, "{}", r.err);
    let games = finished(&r.out);
    assert_eq!(games.len(), 2);
    for g in games {
        assert!(g.contains("Hub-1 has no node limit"), "{g}");
    }
}

#[test]
fn the_hub1_fake_refuses_lines_scan_2_would_not_read() {
    // The fake's strictness is what the Hub-1 tests rest on: Hub's `pos pos=…` line, a limit sent
    // before the position (which resets it), and a capture without its captured squares each end
    // it with status 2.
    let start = "wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww";
    for (input, why) in [
        (format!("hub\ninit\npos pos={start}\n"), "not a Hub-1 position"),
        (
            "hub\ninit\ntime 100\nstart\ngo\n".to_string(),
            "go without a limit",
        ),
        ("hub\ninit\nstart\nmove 32x23\n".to_string(), "not a Hub-1 move"),
        ("hub\ninit\nnew-game\n".to_string(), "not a Hub-1 command"),
    ] {
        let mut child = Command::new("bash")
            .arg(format!("{}/tests/fake/hub1.sh", env!("CARGO_MANIFEST_DIR")))
            .arg(TEMPO)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
        let o = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{input:?}: {err}");
        assert!(err.contains(why), "{input:?}: {err}");
    }
}

#[test]
fn a_hub1_engine_that_refuses_a_move_of_the_game_loses_with_its_answer_quoted() {
    // Its next `move` would be for another position: the game is lost at once, the reason quoting
    // the engine, and not as an illegal move found later.
    let r = run(&[
        "--engine",
        &fake_hub1("refuse proto=hub1 name=refuser"),
        "--engine",
        &tempo("hub"),
        "--games",
        "2",
        "--depth",
        "1",
        "--random-plies",
        "2",
    ]);
    assert!(r.ok, "{}", r.err);
    let games = finished(&r.out);
    assert_eq!(games.len(), 2);
    for g in games {
        assert!(
            g.contains("loses: answered \"error illegal move\" to the game sent"),
            "{g}"
        );
    }
    assert!(
        r.out.contains("Score of refuser vs Tempo: 0 - 2 - 0"),
        "{}",
        r.out
    );
}

/// Issue 53 item 11: the processes an engine starts end with the match (each engine leads a
/// process group of its own, and the group is killed when the engine is done).
#[test]
fn what_an_engine_starts_ends_with_the_match() {
    // A sleep no other test runs, found afterwards by its command line.
    let secs = format!("{}.25", 1000 + std::process::id() % 1000);
    let r = run(&[
        "--engine",
        &format!("{} {secs}", fake("spawner")),
        "--engine",
        &tempo("hub"),
        "--games",
        "2",
        "--depth",
        "1",
    ]);
    assert!(r.ok, "{}", r.err);
    let wanted = format!("sleep\0{secs}\0");
    let left: Vec<String> = std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| std::fs::read(e.ok()?.path().join("cmdline")).ok())
        .map(|c| String::from_utf8_lossy(&c).into_owned())
        .filter(|c| *c == wanted)
        .collect();
    assert!(left.is_empty(), "left running: {left:?}");
}

/// Issue 53 item 11: a command-line error quotes at most 80 characters of what it refuses.
#[test]
fn errors_quote_little_of_what_they_refuse() {
    let r = run(&[
        "--engine",
        &tempo("hub"),
        "--engine",
        &tempo("hub"),
        "--movetime",
        "1e308",
    ]);
    assert!(!r.ok);
    assert!(r.err.contains("--movetime"), "{}", r.err);
    assert!(r.err.len() < 300, "{} bytes: {}", r.err.len(), r.err);
    let openings = temp("long-token.txt");
    std::fs::write(&openings, format!("W:W31-50:B1-20 {}\n", "9".repeat(200_000))).unwrap();
    let r = run(&[
        "--engine",
        &tempo("hub"),
        "--engine",
        &tempo("hub"),
        "--openings",
        openings.to_str().unwrap(),
    ]);
    assert!(!r.ok);
    assert!(r.err.len() < 1000, "{} bytes", r.err.len());
}

/// Issue 53 item 10: a balance depth that would take minutes an opening is refused at once.
#[test]
fn a_balance_depth_beyond_reason_is_refused() {
    let r = run(&[
        "--engine",
        &tempo("hub"),
        "--engine",
        &tempo("hub"),
        "--balance-depth",
        "1000000",
    ]);
    assert!(!r.ok);
    assert!(r.err.contains("--balance-depth"), "{}", r.err);
}
