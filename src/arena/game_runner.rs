//! One game between two engines, refereed by Tempo's own rules: the clocks, illegal moves, the
//! variant's game end and draw rules (repetition included), adjudication, and engines that crash
//! or stall.

use crate::egdb::{Probe, Value};
use crate::engine_client::client::{Client, ClockView, MoveLimits, Request};
use crate::engine_client::limits::TimeControl;
use crate::engine_client::process::Failure;
use crate::game::{Game, MoveStyle, Outcome, Side};
use crate::openings::Opening;
use crate::verdict::rules_verdict;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// When the manager ends a game that the rules have not ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Adjudication {
    /// A draw once the game has this many plies (opening included).
    pub draw_after: Option<usize>,
    /// A win when, for this many consecutive plies (`.1`), every score reported (each from the
    /// mover's side, so both engines take part) says the same side is ahead by `.0` hundredths of
    /// a man or more.
    pub win: Option<(i32, usize)>,
    /// An engine resigns when its own last `.1` scores are all `-.0` or worse.
    pub resign: Option<(i32, usize)>,
    /// A draw when, once the game has at least `from` plies, the last `plies` scores reported
    /// (both engines' alike) all lie within `men` hundredths of a man of zero.
    pub draw: Option<DrawAdjudication>,
    /// Whether a position the loaded endgame tables cover ends the game with the tables' result
    /// (a win only where the counted draw rules leave time for it: [`Probe::egdb_code`]).
    pub egdb: bool,
    /// A draw at this many plies whatever else is set: a safety net for endless games.
    pub max_plies: usize,
}

/// The score-based draw adjudication (cutechess's `-draw`): both engines have called the game
/// level for a while, late enough that the opening's level scores do not count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawAdjudication {
    /// The largest score, either way, in hundredths of a man.
    pub men: i32,
    /// How many consecutive scores (plies) must be that small.
    pub plies: usize,
    /// The game's length in plies (opening included) before which no draw is adjudicated.
    pub from: usize,
}

/// The score-based adjudications (`win` and `draw`) after `plies` plies, given the `scores`
/// (White's view, one per ply the engines played; `None` where the engine gave none): the outcome
/// and its reason, or `None` when the game goes on. A ply without a score breaks a run.
pub fn adjudicate_by_scores(
    adj: &Adjudication,
    plies: usize,
    scores: &[Option<i32>],
) -> Option<(Outcome, String)> {
    let last = |k: usize| (scores.len() >= k).then(|| &scores[scores.len() - k..]);
    if let Some((threshold, k)) = adj.win
        && let Some(tail) = last(k)
    {
        for side in [Side::White, Side::Black] {
            let sign = if side == Side::White { 1 } else { -1 };
            if tail.iter().all(|s| s.is_some_and(|s| s * sign >= threshold)) {
                let why = format!("{} wins by adjudication: both engines agree", side_name(side));
                return Some((Outcome::Win(side), why));
            }
        }
    }
    if let Some(d) = adj.draw
        && plies >= d.from
        && let Some(tail) = last(d.plies)
        && tail.iter().all(|s| s.is_some_and(|s| s.abs() <= d.men))
    {
        let why = format!(
            "Draw by adjudication: {} plies within {:.2} men of level",
            d.plies,
            f64::from(d.men) / 100.0
        );
        return Some((Outcome::Draw, why));
    }
    None
}

/// The endgame tables' verdict on `pos` (tables loaded in this process), when they cover it.
fn egdb_verdict<G: Game + Probe>(pos: &G) -> Option<(Outcome, String)> {
    let mover = pos.side_to_move();
    Some(match Value::of(pos.egdb_code()?) {
        Value::Draw => (Outcome::Draw, "Draw by adjudication: endgame tables".to_string()),
        Value::Win(_) => (
            Outcome::Win(mover),
            format!("{} wins by adjudication: endgame tables", side_name(mover)),
        ),
        Value::Loss(_) => (
            Outcome::Win(mover.opponent()),
            format!(
                "{} wins by adjudication: endgame tables",
                side_name(mover.opponent())
            ),
        ),
    })
}

/// Everything a game needs besides its engines and opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameConfig {
    /// Time control of White's and of Black's engine (they differ in an odds match).
    pub tc: [TimeControl; 2],
    /// Time White's and Black's engine may overrun its clock before it loses on time.
    pub margin: [Duration; 2],
    /// Without a clock or move time, how long a move may take before the engine counts as hung.
    pub stall: Duration,
    /// Adjudication rules.
    pub adjudication: Adjudication,
}

impl GameConfig {
    /// How long one move may take at most in move-time mode: twice the move time plus a second
    /// (engines stop at about the move time; only a hung one goes that far beyond it).
    pub fn movetime_limit(t: Duration) -> Duration {
        t * 2 + Duration::from_secs(1)
    }
}

/// A finished (or aborted) game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The result; `None` when the game was aborted (the match is stopping).
    pub outcome: Option<Outcome>,
    /// Why the game ended, as cutechess writes it in braces.
    pub reason: String,
    /// The start position (before the opening moves) as FEN.
    pub start_fen: String,
    /// Whether that is the variant's initial position.
    pub initial: bool,
    /// Every move in the variant's standard notation, opening included.
    pub moves: Vec<String>,
    /// Whether White's and Black's engine failed (crash, hang, protocol, illegal move) and must be
    /// restarted before they play again.
    pub failed: [bool; 2],
    /// How long White's and Black's engine thought over their moves of this game.
    pub thought: [Thinking; 2],
    /// What the engine said of each move, one entry per move of `moves` (`None` for the opening's
    /// moves).
    pub notes: Vec<Option<MoveNote>>,
}

/// What an engine said of the move it played: the score and depth of its last `info` line, and
/// the time the manager measured from the request to the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveNote {
    /// Score in hundredths of a man for the mover.
    pub score: Option<i32>,
    /// Depth of the search that gave the score.
    pub depth: Option<u32>,
    /// Time from the request to the move.
    pub time: Duration,
}

impl MoveNote {
    /// The PDN comment of the move, as cutechess writes it: `+0.12/9 0.104s` (score in men for
    /// the mover, depth, time in seconds); only the time when the engine gave no score.
    pub fn comment(&self) -> String {
        let time = format!("{:.3}s", self.time.as_secs_f64());
        match (self.score, self.depth) {
            (Some(s), Some(d)) => format!("{}/{d} {time}", men(s)),
            (Some(s), None) => format!("{} {time}", men(s)),
            (None, _) => time,
        }
    }
}

/// A score in hundredths of a man as signed men: `+0.12`, `-1.00`, `0.00`.
fn men(hundredths: i32) -> String {
    let sign = match hundredths {
        0 => "",
        h if h > 0 => "+",
        _ => "-",
    };
    let a = hundredths.unsigned_abs();
    format!("{sign}{}.{:02}", a / 100, a % 100)
}

/// The time an engine took over its moves, from the request to the answer as the manager saw it
/// (the pipe round trip included). Moves answered in under [`Thinking::AT_ONCE`] (forced moves,
/// book moves) are only counted: over a match they would pull the mean below what a search took.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Thinking {
    /// Moves answered at once.
    pub at_once: u32,
    /// Moves searched (answered in [`Thinking::AT_ONCE`] or more).
    pub searched: u32,
    /// Their time, summed.
    pub total: Duration,
    /// The longest of them.
    pub longest: Duration,
}

impl Thinking {
    /// The least time of a move counted as searched.
    pub const AT_ONCE: Duration = Duration::from_millis(10);

    /// Counts one move that took `t`.
    pub fn add(&mut self, t: Duration) {
        if t < Thinking::AT_ONCE {
            self.at_once += 1;
        } else {
            self.searched += 1;
            self.total += t;
            self.longest = self.longest.max(t);
        }
    }

    /// Adds another record's moves to this one.
    pub fn merge(&mut self, other: &Thinking) {
        self.at_once += other.at_once;
        self.searched += other.searched;
        self.total += other.total;
        self.longest = self.longest.max(other.longest);
    }

    /// The mean time of a searched move, if any was searched.
    pub fn mean(&self) -> Option<Duration> {
        (self.searched > 0).then(|| self.total / self.searched)
    }
}

/// The match's closing lines on thinking time: each engine's mean and longest searched move, and
/// with a fixed time a move, a warning for each engine whose mean overran it by more than a tenth:
/// such a match was not played at equal time (Scan 2.0, for one, never stops before it has
/// finished depth 12, whatever the time limit).
pub fn thinking_report(names: &[String], thinking: &[Thinking], movetime: &[Option<Duration>]) -> String {
    if thinking.iter().all(|t| t.searched + t.at_once == 0) {
        return String::new();
    }
    let parts: Vec<String> = names
        .iter()
        .zip(thinking)
        .map(|(name, t)| match t.mean() {
            Some(mean) => format!(
                "{name} {:.3} s (longest {:.3} s; {} searched, {} at once)",
                mean.as_secs_f64(),
                t.longest.as_secs_f64(),
                t.searched,
                t.at_once
            ),
            None => format!("{name} - ({} at once)", t.at_once),
        })
        .collect();
    let mut out = String::new();
    out.push_str(&format!("Thinking time a searched move: {}\n", parts.join(", ")));
    for ((name, t), limit) in names.iter().zip(thinking).zip(movetime) {
        if let Some(limit) = limit
            && let Some(mean) = t.mean()
            && mean.as_secs_f64() > 1.1 * limit.as_secs_f64()
        {
            out.push_str(&format!(
                "Warning: {name} thought {:.0} % longer than --movetime {:.3} s on average: the \
                 games were not played at equal time\n",
                100.0 * (mean.as_secs_f64() / limit.as_secs_f64() - 1.0),
                limit.as_secs_f64()
            ));
        }
    }
    out
}

fn side_name(s: Side) -> &'static str {
    match s {
        Side::White => "White",
        Side::Black => "Black",
    }
}

/// Plays one game from `opening` between `engines[0]` (White) and `engines[1]` (Black). Checks
/// `stop` before every move and aborts the game when it is set.
pub fn play_game<G: Game + Probe>(
    engines: [&mut Client; 2],
    opening: &Opening<G>,
    cfg: &GameConfig,
    stop: &AtomicBool,
) -> GameRecord {
    let [white, black] = engines;
    let mut engines = [white, black];
    let start = opening.start;
    let mut record = GameRecord {
        outcome: None,
        reason: String::new(),
        start_fen: start.to_fen(),
        initial: start == G::start(),
        moves: Vec::new(),
        failed: [false; 2],
        thought: [Thinking::default(); 2],
        notes: Vec::new(),
    };
    let start_hub = start.to_hub();
    let hub_exact = G::from_hub(&start_hub).is_ok_and(|p| p.to_fen() == record.start_fen);
    let start_fen = record.start_fen.clone();
    let mut moves_hub = Vec::new();
    let mut pos = start;
    let mut keys: Vec<u64> = Vec::new();
    let play =
        |pos: &mut G, keys: &mut Vec<u64>, mv: &G::Move, hub: &mut Vec<String>, std: &mut Vec<String>| {
            hub.push(pos.format_move(mv, MoveStyle::Hub));
            std.push(pos.format_move(mv, MoveStyle::Standard));
            if pos.is_irreversible(mv) {
                keys.clear();
            } else {
                keys.push(pos.key());
            }
            *pos = pos.play(mv);
        };
    for mv in &opening.moves {
        play(&mut pos, &mut keys, mv, &mut moves_hub, &mut record.moves);
        record.notes.push(None);
    }
    for (side, e) in engines.iter_mut().enumerate() {
        if let Err(f) = e.new_game() {
            let loser = if side == 0 { Side::White } else { Side::Black };
            record.failed[side] = true;
            record.outcome = Some(Outcome::Win(loser.opponent()));
            record.reason = format!("{} disconnects: {f}", side_name(loser));
            return record;
        }
    }
    let adj = cfg.adjudication;
    // Each side's clock in nanoseconds, signed: an overrun is carried to the next move rather than
    // forgiven, so `--margin` is granted once per game, not once per move.
    let mut balance = cfg.tc.map(|tc| tc.clock.map_or(0, |c| nanos(c.base)));
    let mut made = [0u32; 2];
    // Scores from White's point of view, one per ply the engines played (None: not reported).
    let mut scores: Vec<Option<i32>> = Vec::new();
    loop {
        if let Some((o, why)) = rules_verdict(&pos, &keys) {
            record.outcome = Some(o);
            record.reason = why;
            return record;
        }
        if adj.egdb
            && let Some((o, why)) = egdb_verdict(&pos)
        {
            record.outcome = Some(o);
            record.reason = why;
            return record;
        }
        let plies = record.moves.len();
        if adj.draw_after.is_some_and(|n| plies >= n) {
            record.outcome = Some(Outcome::Draw);
            record.reason = format!("Draw by adjudication after {plies} plies");
            return record;
        }
        if plies >= adj.max_plies {
            record.outcome = Some(Outcome::Draw);
            record.reason = format!("Draw by adjudication: the game limit of {plies} plies");
            return record;
        }
        if let Some((o, why)) = adjudicate_by_scores(&adj, plies, &scores) {
            record.outcome = Some(o);
            record.reason = why;
            return record;
        }
        if stop.load(Ordering::Relaxed) {
            record.reason = "Game aborted: the match is over".into();
            return record;
        }
        let side = pos.side_to_move();
        let s = side.index();
        let tc = cfg.tc[s];
        let margin = cfg.margin[s];
        let limits = MoveLimits {
            depth: tc.depth,
            nodes: tc.nodes,
            movetime: tc.movetime,
            clock: tc.clock.map(|c| ClockView {
                left: balance.map(shown),
                inc: c.inc,
                moves_to_go: c.moves.map(|m| m - made[s] % m),
            }),
        };
        let mut allowed: Option<Duration> = None;
        let on_clock = shown(balance[s].saturating_add(nanos(margin)));
        if tc.clock.is_some() {
            allowed = Some(on_clock);
        }
        if let Some(t) = tc.movetime {
            let l = GameConfig::movetime_limit(t);
            allowed = Some(allowed.map_or(l, |a| a.min(l)));
        }
        let limit = allowed.unwrap_or(cfg.stall);
        let position_hub = pos.to_hub();
        let req = Request {
            position_hub: &position_hub,
            start_hub: &start_hub,
            start_fen: &start_fen,
            initial: record.initial,
            hub_exact,
            moves_hub: &moves_hub,
            moves_std: &record.moves,
            side,
            limits,
        };
        let began = Instant::now();
        let reply = engines[s].think(&req, began + limit);
        let elapsed = began.elapsed();
        if reply.is_ok() {
            record.thought[s].add(elapsed);
        }
        let lose = |record: &mut GameRecord, why: String| {
            record.failed[s] = true;
            record.outcome = Some(Outcome::Win(side.opponent()));
            record.reason = why;
        };
        let reply = match reply {
            Ok(r) => r,
            Err(Failure::Timeout) => {
                let why = if tc.clock.is_some() && allowed == Some(on_clock) {
                    format!("{} loses on time", side_name(side))
                } else if let Some(t) = tc.movetime {
                    format!(
                        "{} loses: no move in {:.1} s at {:.3} s per move",
                        side_name(side),
                        GameConfig::movetime_limit(t).as_secs_f64(),
                        t.as_secs_f64()
                    )
                } else {
                    format!(
                        "{} loses: stalls (no move in {:.1} s)",
                        side_name(side),
                        limit.as_secs_f64()
                    )
                };
                lose(&mut record, why);
                return record;
            }
            Err(Failure::Crashed(e)) => {
                lose(&mut record, format!("{} disconnects: {e}", side_name(side)));
                return record;
            }
            Err(Failure::Ended(code)) => {
                // A DXP engine ended the game in place of a move: its word is taken for a loss or
                // a draw (Scan 2.0 ends with an unknown result when its move count is reached,
                // and scores that as a draw); a claimed win the rules did not see is not taken.
                let (outcome, why) = match code {
                    '1' => (
                        Some(Outcome::Win(side.opponent())),
                        format!("{} resigns", side_name(side)),
                    ),
                    '2' => (
                        Some(Outcome::Draw),
                        format!("Draw: {} ends the game as drawn", side_name(side)),
                    ),
                    '0' => (
                        Some(Outcome::Draw),
                        format!("Draw: {} ends the game with an unknown result", side_name(side)),
                    ),
                    _ => (None, format!("{} ends the game claiming a win", side_name(side))),
                };
                record.outcome = outcome;
                record.reason = why;
                return record;
            }
            Err(Failure::Protocol(e)) => {
                lose(&mut record, format!("{} loses: {e}", side_name(side)));
                return record;
            }
        };
        let mv = match pos.parse_move(&reply.mv) {
            Ok(m) => m,
            Err(e) => {
                lose(
                    &mut record,
                    format!(
                        "{} makes an illegal move: {} in {} ({e})",
                        side_name(side),
                        reply.mv,
                        pos.to_fen()
                    ),
                );
                return record;
            }
        };
        if let Some(c) = tc.clock {
            balance[s] = balance[s].saturating_sub(nanos(elapsed));
            if balance[s] < -nanos(margin) {
                lose(&mut record, format!("{} loses on time", side_name(side)));
                record.failed[s] = false;
                return record;
            }
            balance[s] = balance[s].saturating_add(nanos(c.inc));
            made[s] += 1;
            if let Some(m) = c.moves
                && made[s] % m == 0
            {
                balance[s] = balance[s].saturating_add(nanos(c.base));
            }
        }
        let white_view = reply.score.map(|v| if side == Side::White { v } else { -v });
        scores.push(white_view);
        play(&mut pos, &mut keys, &mv, &mut moves_hub, &mut record.moves);
        record.notes.push(Some(MoveNote {
            score: reply.score,
            depth: reply.depth,
            time: elapsed,
        }));
        if let Some((threshold, k)) = adj.resign {
            // The mover's own scores are every other entry, ending with this one.
            let own: Vec<Option<i32>> = scores.iter().rev().step_by(2).take(k).copied().collect();
            if own.len() == k
                && own
                    .iter()
                    .all(|v| v.is_some_and(|v| v * if side == Side::White { 1 } else { -1 } <= -threshold))
            {
                record.outcome = Some(Outcome::Win(side.opponent()));
                record.reason = format!("{} resigns", side_name(side));
                return record;
            }
        }
    }
}

/// A duration in nanoseconds, saturated at what an `i64` holds (292 years).
fn nanos(d: Duration) -> i64 {
    i64::try_from(d.as_nanos()).unwrap_or(i64::MAX)
}

/// The time a signed clock shows an engine: what is left, or zero once it is overdrawn.
fn shown(balance: i64) -> Duration {
    Duration::from_nanos(u64::try_from(balance).unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn move_comments_give_score_depth_and_time() {
        let note = |score, depth, t| MoveNote {
            score,
            depth,
            time: ms(t),
        };
        assert_eq!(note(Some(12), Some(9), 104).comment(), "+0.12/9 0.104s");
        assert_eq!(note(Some(-150), Some(3), 50).comment(), "-1.50/3 0.050s");
        assert_eq!(note(Some(-5), None, 50).comment(), "-0.05 0.050s");
        assert_eq!(note(Some(0), Some(1), 0).comment(), "0.00/1 0.000s");
        assert_eq!(note(None, Some(4), 2).comment(), "0.002s");
    }

    #[test]
    fn thinking_counts_moves_at_once_apart_and_keeps_the_longest() {
        let mut a = Thinking::default();
        for t in [0, 9, 100, 140] {
            a.add(ms(t));
        }
        assert_eq!((a.at_once, a.searched, a.longest), (2, 2, ms(140)));
        assert_eq!(a.mean(), Some(ms(120)));
        let mut b = Thinking::default();
        b.add(ms(300));
        a.merge(&b);
        assert_eq!(
            (a.at_once, a.searched, a.total, a.longest),
            (2, 3, ms(540), ms(300))
        );
        assert_eq!(Thinking::default().mean(), None);
    }

    #[test]
    fn the_report_warns_only_of_an_engine_over_the_move_time() {
        let names = ["fast".to_string(), "slow".to_string()];
        let mut t = [Thinking::default(); 2];
        for _ in 0..4 {
            t[0].add(ms(104));
            t[1].add(ms(138));
        }
        t[1].add(ms(2));
        let r = thinking_report(&names, &t, &[Some(ms(100)); 2]);
        let lines: Vec<&str> = r.lines().collect();
        assert_eq!(lines.len(), 2, "{r}");
        assert_eq!(
            lines[0],
            "Thinking time a searched move: fast 0.104 s (longest 0.104 s; 4 searched, 0 at once), \
             slow 0.138 s (longest 0.138 s; 4 searched, 1 at once)"
        );
        assert!(
            lines[1].starts_with("Warning: slow thought 38 % longer than --movetime 0.100 s"),
            "{r}"
        );
        // Under a clock, or a depth, nothing to warn of; and no games, no lines.
        assert_eq!(thinking_report(&names, &t, &[None; 2]).lines().count(), 1);
        assert_eq!(
            thinking_report(&names, &[Thinking::default(); 2], &[Some(ms(100)); 2]),
            ""
        );
        // Per engine: only the engine held to a move time is measured against it.
        assert_eq!(
            thinking_report(&names, &t, &[Some(ms(100)), None])
                .lines()
                .count(),
            1
        );
    }
}
