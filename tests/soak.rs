//! Soak: Tempo plays itself through the Hub binary, two processes, in every variant, at short time
//! controls, and the harness referees. Every move must be legal (read by Tempo's own rules against
//! the harness's position, and written in exactly the Hub form); no engine may crash, write an
//! error or stderr, or lose on time; the resident memory of each process (`VmRSS`, sampled after
//! every game) must stay within the table size plus [`RSS_SLACK_MIB`].
//!
//! Time controls rotate: a Fischer clock (`level time= inc=`, the harness keeping each clock from
//! the wall time between `go` and `done`), moves in a time (`level moves= time=`), and a fixed move
//! time (`level move-time=`). As in match managers (cutechess-cli's `timemargin`), a game is lost on
//! time when a clock falls below minus a margin (an overrun of the move time beyond it), 250 ms by
//! default, `TEMPO_SOAK_MARGIN_MS` to change it; moves that end with the clock below zero but within
//! the margin are counted and reported as late moves. Each game opens with a few random plies so
//! that games differ, and is adjudicated a draw after [`MAX_PLIES`] plies.
//!
//! The games of the 10x10 variants and Frisian go to a file that pydraughts replays as an
//! independent referee (`tests/compat/replay_games.py`) when `TEMPO_PYDRAUGHTS_PYTHON` names a
//! Python with pydraughts.
//!
//! The default run plays one short game per variant. The long form (1,000 games by default,
//! `TEMPO_SOAK_GAMES` for another count):
//!
//! ```sh
//! TEMPO_PYDRAUGHTS_PYTHON=/tmp/pyd/bin/python cargo test --release --test integration soak:: -- --ignored --nocapture
//! ```

use crate::common;

use common::{Engine, PROMPT};
use std::fmt::Write as _;
use std::time::{Duration, Instant};
use tempo::game::{Game, MoveList, MoveStyle, Outcome, Repetition};
use tempo::protocol::hub::{hub_name, parse_line};
use tempo::variant::Variant;
use tempo::with_variant;
use tempo::zobrist::splitmix;

/// `tt-size` of both engines: 2^20 entries of 16 bytes, 16 MiB.
const TT_SIZE: u32 = 20;
const TT_MIB: u64 = 16;
/// Resident memory allowed beyond the table: code, stacks, buffers.
const RSS_SLACK_MIB: u64 = 48;
/// A game still going after this many plies is adjudicated a draw.
const MAX_PLIES: usize = 200;
/// The time margin: how far below zero a clock may fall (a move time be overrun) before the game
/// is lost on time. Wall time, pipes included, on a machine that may be shared.
fn margin() -> Duration {
    let ms = std::env::var("TEMPO_SOAK_MARGIN_MS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(250);
    Duration::from_millis(ms)
}
/// How long one move may take before the harness gives up on the engine.
const MOVE_TIMEOUT: Duration = Duration::from_secs(20);

#[derive(Clone, Copy, Debug)]
enum Control {
    /// Seconds on the clock and the increment.
    Fischer(f64, f64),
    /// Moves per period and the seconds of a period.
    Period(u32, f64),
    /// Seconds per move.
    MoveTime(f64),
}

const CONTROLS: [Control; 4] = [
    Control::Fischer(0.5, 0.02),
    Control::Period(20, 0.3),
    Control::MoveTime(0.01),
    Control::Fischer(0.3, 0.01),
];

#[derive(Default, Debug)]
struct Figures {
    games: usize,
    plies: usize,
    illegal: usize,
    crashes: usize,
    time_losses: usize,
    late_moves: usize,
    adjudicated: usize,
    results: [usize; 3],
    max_rss_mib: u64,
    min_clock_left: f64,
    max_overrun: Duration,
    per_variant: Vec<(Variant, usize)>,
    failures: Vec<String>,
}

struct Player {
    engine: Engine,
}

impl Player {
    fn start() -> Player {
        let mut engine = Engine::start(&["hub"]);
        engine.send("hub");
        engine.until("wait");
        engine.send(&format!("set-param name=tt-size value={TT_SIZE}"));
        engine.send("init");
        engine.until("ready");
        Player { engine }
    }

    fn rss_mib(&self) -> Option<u64> {
        self.engine.status_kib("VmRSS").map(|k| k / 1024)
    }

    /// One move: the `done` move text and the wall time, or why there is none.
    fn think(&mut self, moves: &[String], level: &str) -> Result<(String, Duration), String> {
        let e = &mut self.engine;
        if moves.is_empty() {
            e.send("pos start");
        } else {
            e.send(&format!("pos start moves=\"{}\"", moves.join(" ")));
        }
        e.send(level);
        let sent = e.send("go think");
        let deadline = sent + MOVE_TIMEOUT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let Some((at, line)) = e.next_within(left) else {
                return Err(format!("no done within {MOVE_TIMEOUT:?}"));
            };
            if line.starts_with("info ") {
                continue;
            }
            if line.starts_with("done") {
                e.log.clear();
                let l = parse_line(&line).map_err(|err| format!("{line}: {err}"))?;
                let mv = l.get("move").ok_or_else(|| format!("{line}: no move"))?;
                return Ok((mv.to_string(), at - sent));
            }
            return Err(format!("unexpected line: {line}"));
        }
    }
}

/// The name pydraughts gives a variant it referees (the 10x10 family and Frisian).
fn pydraughts_name(v: Variant) -> Option<&'static str> {
    match v {
        Variant::International => Some("standard"),
        Variant::Frisian => Some("frisian"),
        Variant::Frysk => Some("frysk"),
        Variant::Killer => Some("killer"),
        Variant::Breakthrough => Some("breakthrough"),
        Variant::Antidraughts => Some("antidraughts"),
        _ => None,
    }
}

/// Plays one game of `G`; updates `figures`; returns the Hub moves played.
#[allow(clippy::too_many_arguments)]
fn game<G: Game>(
    v: Variant,
    players: &mut [Player; 2],
    swap: bool,
    control: Control,
    max_plies: usize,
    seed: &mut u64,
    figures: &mut Figures,
) -> Vec<String> {
    let mut pos = G::start();
    let mut moves: Vec<String> = Vec::new();
    let mut keys: Vec<u64> = Vec::new();
    let mut list = MoveList::new();
    let play = |pos: &mut G, keys: &mut Vec<u64>, m: &G::Move| {
        if pos.is_irreversible(m) {
            keys.clear();
        } else {
            keys.push(pos.key());
        }
        *pos = pos.play(m);
    };
    // A random opening of 2 to 4 plies.
    *seed = splitmix(*seed);
    for _ in 0..2 + *seed % 3 {
        pos.generate(&mut list);
        if list.is_empty() || pos.outcome().is_some() {
            break;
        }
        *seed = splitmix(*seed);
        let m = list[(*seed % list.len() as u64) as usize];
        moves.push(pos.format_move(&m, MoveStyle::Hub));
        play(&mut pos, &mut keys, &m);
    }
    let mut clock = [0.0f64; 2];
    let mut moves_left = [0u32; 2];
    if let Control::Fischer(t, _) | Control::Period(_, t) = control {
        clock = [t, t];
    }
    if let Control::Period(n, _) = control {
        moves_left = [n, n];
    }
    for who in players.iter_mut() {
        who.engine
            .send(&format!("set-param name=variant value={}", hub_name(v)));
        who.engine.send("new-game");
    }
    let fail = |figures: &mut Figures, what: String| {
        let what = format!("{v} game {}: {what}", figures.games + 1);
        eprintln!("soak: {what}");
        figures.failures.push(what);
    };
    let result = loop {
        pos.generate(&mut list);
        if let Some(o) = pos.outcome() {
            break Some(o);
        }
        if list.is_empty() {
            fail(
                figures,
                format!("no legal move but no outcome in {}", pos.to_fen()),
            );
            break None;
        }
        let occurrences = keys.iter().filter(|&&k| k == pos.key()).count() + 1;
        match pos.repetition() {
            Repetition::Draw(n) if occurrences >= usize::from(n) => break Some(Outcome::Draw),
            Repetition::LossForMover(n) if occurrences >= usize::from(n) => {
                break Some(Outcome::Win(pos.side_to_move()));
            }
            _ => {}
        }
        if moves.len() >= max_plies {
            figures.adjudicated += 1;
            break Some(Outcome::Draw);
        }
        let side = pos.side_to_move().index();
        let level = match control {
            Control::Fischer(_, inc) => format!("level time={:.3} inc={inc}", clock[side].max(0.0)),
            Control::Period(_, _) => {
                format!(
                    "level moves={} time={:.3}",
                    moves_left[side],
                    clock[side].max(0.0)
                )
            }
            Control::MoveTime(t) => format!("level move-time={t}"),
        };
        let player = &mut players[side ^ usize::from(swap)];
        // The Hub dialect numbers some boards as pydraughts does (protocol.md 4.6).
        let notation = v.hub_notation();
        let sent: Vec<String> = moves.iter().map(|m| notation.move_from_tempo(m)).collect();
        let (text, took) = match player.think(&sent, &level) {
            Ok(r) => r,
            Err(e) => {
                figures.crashes += 1;
                fail(figures, format!("engine failed at ply {}: {e}", moves.len() + 1));
                // Start a fresh engine for the next games.
                *player = Player::start();
                break None;
            }
        };
        let secs = took.as_secs_f64();
        if std::env::var_os("TEMPO_SOAK_TRACE").is_some() {
            eprintln!("soak: {v} ply {}: {level}: {took:?}", moves.len() + 1);
        }
        let margin = margin();
        let late = match control {
            Control::Fischer(_, inc) => {
                clock[side] += inc - secs;
                figures.min_clock_left = figures.min_clock_left.min(clock[side]);
                clock[side]
            }
            Control::Period(n, t) => {
                clock[side] -= secs;
                figures.min_clock_left = figures.min_clock_left.min(clock[side]);
                let lost = clock[side];
                moves_left[side] -= 1;
                if moves_left[side] == 0 {
                    moves_left[side] = n;
                    clock[side] += t;
                }
                lost
            }
            Control::MoveTime(t) => {
                let over = took.saturating_sub(Duration::from_secs_f64(t));
                figures.max_overrun = figures.max_overrun.max(over);
                -over.as_secs_f64()
            }
        };
        if late < 0.0 && !matches!(control, Control::MoveTime(_)) {
            figures.late_moves += 1;
        }
        let lost_on_time = late < -margin.as_secs_f64();
        if lost_on_time {
            figures.time_losses += 1;
            fail(
                figures,
                format!(
                    "time loss at ply {} ({control:?}, {level}, move took {took:?})",
                    moves.len() + 1
                ),
            );
        }
        let raw = text;
        let text = notation.move_to_tempo(&raw);
        let m = match pos.parse_move(&text) {
            Ok(m) => m,
            Err(e) => {
                figures.illegal += 1;
                fail(figures, format!("illegal move {text} in {}: {e}", pos.to_fen()));
                break None;
            }
        };
        // The exact Hub form, in the client's numbering (captured squares in ascending order).
        let hub = notation.move_from_tempo(&pos.format_move(&m, MoveStyle::Hub));
        if hub != raw {
            figures.illegal += 1;
            fail(figures, format!("move {raw} is not in the Hub form {hub}"));
        }
        moves.push(text);
        play(&mut pos, &mut keys, &m);
        figures.plies += 1;
        if lost_on_time {
            break Some(Outcome::Win(pos.side_to_move()));
        }
    };
    match result {
        Some(Outcome::Win(tempo::game::Side::White)) => figures.results[0] += 1,
        Some(Outcome::Draw) => figures.results[1] += 1,
        Some(Outcome::Win(tempo::game::Side::Black)) => figures.results[2] += 1,
        None => {}
    }
    moves
}

fn soak(games: usize, max_plies: usize, seed: u64, first_control: usize) -> Figures {
    let started = Instant::now();
    let mut figures = Figures {
        min_clock_left: f64::INFINITY,
        ..Figures::default()
    };
    let mut players = [Player::start(), Player::start()];
    let mut seed = seed;
    let mut referee = String::new();
    for g in 0..games {
        let v = Variant::ALL[g % Variant::ALL.len()];
        let control = CONTROLS[(first_control + g / Variant::ALL.len()) % CONTROLS.len()];
        let swap = g % 2 == 1;
        let moves = with_variant!(v, G => game::<G>(v, &mut players, swap, control, max_plies, &mut seed, &mut figures));
        figures.games += 1;
        match figures.per_variant.iter_mut().find(|(x, _)| *x == v) {
            Some((_, n)) => *n += 1,
            None => figures.per_variant.push((v, 1)),
        }
        if let Some(name) = pydraughts_name(v) {
            let _ = writeln!(referee, "{name}\t{}", moves.join(" "));
        }
        for p in &players {
            if let Some(rss) = p.rss_mib() {
                figures.max_rss_mib = figures.max_rss_mib.max(rss);
            }
        }
        if (g + 1) % 50 == 0 {
            eprintln!(
                "soak: {} games, {} plies, {:.0} s, max RSS {} MiB, failures {}",
                g + 1,
                figures.plies,
                started.elapsed().as_secs_f64(),
                figures.max_rss_mib,
                figures.failures.len()
            );
        }
    }
    // Both engines still answer and quit cleanly, with nothing on stderr.
    for p in players {
        let mut e = p.engine;
        e.send("ping");
        e.until_at(PROMPT, |l| l == "pong");
        e.send("quit");
        assert_eq!(e.wait_exit(PROMPT).0, Some(0));
        let stderr = e.stderr();
        if !stderr.is_empty() {
            figures.crashes += 1;
            figures.failures.push(format!("stderr: {stderr}"));
        }
    }
    let file = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("soak-games.tsv");
    std::fs::write(&file, &referee).unwrap();
    let refereed = pydraughts_referee(&file);
    eprintln!(
        "soak: {} games in {} variants, {} plies, {:.0} s; illegal {}, crashes {}, time losses {} \
         (margin {:?}; {} late moves within it); White/draw/Black {:?} ({} adjudicated at {max_plies} plies); max RSS {} MiB (table {TT_MIB} MiB); \
         least clock left {:.3} s; worst move-time overrun {:?}; pydraughts: {refereed}",
        figures.games,
        figures.per_variant.len(),
        figures.plies,
        started.elapsed().as_secs_f64(),
        figures.illegal,
        figures.crashes,
        figures.time_losses,
        margin(),
        figures.late_moves,
        figures.results,
        figures.adjudicated,
        figures.max_rss_mib,
        figures.min_clock_left,
        figures.max_overrun,
    );
    figures
}

/// Replays the recorded games with pydraughts when `TEMPO_PYDRAUGHTS_PYTHON` is set; panics on
/// a move pydraughts does not find legal.
fn pydraughts_referee(file: &std::path::Path) -> String {
    let Ok(python) = std::env::var("TEMPO_PYDRAUGHTS_PYTHON") else {
        return "skipped (TEMPO_PYDRAUGHTS_PYTHON not set)".to_string();
    };
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/compat/replay_games.py");
    let out = std::process::Command::new(&python)
        .arg(script)
        .arg(file)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {python}: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "pydraughts rejects a game: {stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout.trim().to_string()
}

fn check(f: &Figures) {
    assert!(f.failures.is_empty(), "{:#?}", f.failures);
    assert_eq!((f.illegal, f.crashes, f.time_losses), (0, 0, 0));
    assert!(
        f.max_rss_mib <= TT_MIB + RSS_SLACK_MIB,
        "resident memory {} MiB beyond the table's {TT_MIB} MiB plus {RSS_SLACK_MIB}",
        f.max_rss_mib
    );
}

#[test]
fn short_self_play_in_every_variant() {
    // One game per variant, cut at 60 plies, at the fastest move time.
    let f = soak(Variant::ALL.len(), 60, 7, 2);
    assert_eq!(f.per_variant.len(), Variant::ALL.len());
    check(&f);
}

#[test]
#[ignore = "long form: 1,000 games (TEMPO_SOAK_GAMES)"]
fn long_self_play_soak() {
    let games = std::env::var("TEMPO_SOAK_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000);
    let f = soak(games, MAX_PLIES, 11, 0);
    check(&f);
}
