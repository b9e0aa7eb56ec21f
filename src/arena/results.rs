//! What a match keeps of its games: the tallies the statistics come from, the state saved after
//! every game (`--state`, read back by `--resume`) and the machine-readable summary (`--json`).
//!
//! A saved state holds the match's command line (with its seed made explicit), the PDN's length
//! and one [`GameResult`] per finished game. Replaying those results through [`Tally::add`] gives
//! back every count, so a resumed match goes on exactly where the stopped one was.

use super::game_runner::Thinking;
use super::stats::{self, Pentanomial, Wld};
use crate::game::{Outcome, Side};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::Path;
use std::time::Duration;

/// The first line of a state file's `format` field: a file of another kind is refused.
pub const STATE_FORMAT: &str = "tempo match state 1";

/// The largest state file read back (a million games of a few hundred bytes each).
const MAX_STATE_BYTES: u64 = 512 << 20;

/// One finished game, as the state file and the JSON summary keep it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameResult {
    /// The game's number in the schedule, from 1.
    pub number: usize,
    /// The engines of White and Black (their index in the match).
    pub players: [usize; 2],
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// Why the game ended.
    pub termination: String,
    /// Plies played, the opening's included.
    pub plies: usize,
    /// White's and Black's thinking time: moves at once, moves searched, total and longest
    /// nanoseconds.
    pub thought: [[u64; 4]; 2],
}

impl GameResult {
    /// The outcome the result text stands for.
    pub fn outcome(&self) -> Option<Outcome> {
        match self.result.as_str() {
            "1-0" => Some(Outcome::Win(Side::White)),
            "0-1" => Some(Outcome::Win(Side::Black)),
            "1/2-1/2" => Some(Outcome::Draw),
            _ => None,
        }
    }

    /// White's and Black's thinking time.
    pub fn thinking(&self) -> [Thinking; 2] {
        self.thought.map(|[at_once, searched, total, longest]| Thinking {
            at_once: at_once.try_into().unwrap_or(u32::MAX),
            searched: searched.try_into().unwrap_or(u32::MAX),
            total: Duration::from_nanos(total),
            longest: Duration::from_nanos(longest),
        })
    }

    /// The thinking time as kept.
    pub fn thought_of(t: &[Thinking; 2]) -> [[u64; 4]; 2] {
        let ns = |d: Duration| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX);
        t.map(|t| {
            [
                u64::from(t.at_once),
                u64::from(t.searched),
                ns(t.total),
                ns(t.longest),
            ]
        })
    }
}

/// The result text as cutechess prints it (and as PGN writes it).
pub fn result_text(o: Option<Outcome>) -> &'static str {
    match o {
        Some(Outcome::Win(Side::White)) => "1-0",
        Some(Outcome::Win(Side::Black)) => "0-1",
        Some(Outcome::Draw) => "1/2-1/2",
        None => "*",
    }
}

/// The running counts of a match.
#[derive(Debug)]
pub struct Tally {
    /// Each pairing's games from its first engine's view.
    pub pair_scores: Vec<Wld>,
    /// Each pairing's game pairs (both colours of one opening).
    pub penta: Vec<Pentanomial>,
    /// Half points of the first game of a pair still waiting for its second, by (pairing, round).
    halves: HashMap<(usize, usize), usize>,
    /// Each engine's games.
    pub engine_scores: Vec<Wld>,
    /// Each engine's thinking time.
    pub thinking: Vec<Thinking>,
    /// Every finished game, in the order it finished.
    pub games: Vec<GameResult>,
}

impl Tally {
    /// Empty counts for `engines` engines in `pairings` pairings.
    pub fn new(engines: usize, pairings: usize) -> Tally {
        Tally {
            pair_scores: vec![Wld::default(); pairings],
            penta: vec![Pentanomial::default(); pairings],
            halves: HashMap::new(),
            engine_scores: vec![Wld::default(); engines],
            thinking: vec![Thinking::default(); engines],
            games: Vec::new(),
        }
    }

    /// Counts a finished game of pairing `pair` (whose engines are `pairing`, first engine first)
    /// in round `round`.
    pub fn add(&mut self, pair: usize, pairing: [usize; 2], round: usize, game: GameResult) {
        let Some(outcome) = game.outcome() else { return };
        let [w, b] = game.players;
        let thought = game.thinking();
        self.thinking[w].merge(&thought[0]);
        self.thinking[b].merge(&thought[1]);
        // Half points of White's engine.
        let white_halves = match outcome {
            Outcome::Win(Side::White) => 2,
            Outcome::Win(Side::Black) => 0,
            Outcome::Draw => 1,
        };
        for (engine, h) in [(w, white_halves), (b, 2 - white_halves)] {
            count(&mut self.engine_scores[engine], h);
        }
        let first_halves = if w == pairing[0] {
            white_halves
        } else {
            2 - white_halves
        };
        count(&mut self.pair_scores[pair], first_halves);
        if let Some(h) = self.halves.remove(&(pair, round)) {
            self.penta[pair].add(h + first_halves);
        } else {
            self.halves.insert((pair, round), first_halves);
        }
        self.games.push(game);
    }
}

fn count(s: &mut Wld, halves: usize) {
    match halves {
        2 => s.wins += 1,
        0 => s.losses += 1,
        _ => s.draws += 1,
    }
}

/// A match's saved state (`--state FILE`), rewritten whole after every game.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SavedState {
    /// [`STATE_FORMAT`].
    pub format: String,
    /// The match's options as given after `tempo match`, with `--seed` made explicit.
    pub args: Vec<String>,
    /// The PDN `Date` of the match's games.
    pub date: String,
    /// The length of the PDN file after the last game saved (`None`: no `--pdn`).
    pub pdn_bytes: Option<u64>,
    /// The finished games, in the order they finished.
    pub games: Vec<GameResult>,
}

impl SavedState {
    /// Writes the state to `path` whole or not at all (a temporary file renamed over it).
    ///
    /// # Errors
    /// The file cannot be written.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let text = serde_json::to_string(self).map_err(|e| format!("match state: {e}"))?;
        crate::fsutil::write_atomic(path, text.as_bytes())
    }

    /// Reads a state file.
    ///
    /// # Errors
    /// The file cannot be read, is not JSON of this form, or is of another format.
    pub fn load(path: &Path) -> Result<SavedState, String> {
        let bytes = crate::fsutil::read_capped(path, MAX_STATE_BYTES)?;
        let s: SavedState = serde_json::from_slice(&bytes)
            .map_err(|e| format!("--resume {}: not a match state ({e})", path.display()))?;
        if s.format != STATE_FORMAT {
            return Err(format!(
                "--resume {}: format {:?}, expected {STATE_FORMAT:?}",
                path.display(),
                s.format
            ));
        }
        Ok(s)
    }
}

/// Everything the JSON summary needs besides the tallies.
pub struct JsonContext<'a> {
    /// The engines' names.
    pub names: &'a [String],
    /// Games scheduled.
    pub total: usize,
    /// Whether the match has finished (false while it is under way).
    pub finished: bool,
    /// The statistics as the match prints them (pairs, Elo, nElo, LOS, SPRT).
    pub stats: &'a stats::MatchStats,
}

/// The `--json` summary: per engine its statistics and thinking time, per pairing its statistics
/// ([`stats::PairingStats`], the SPRT's state included), the SPRT of a two-engine match again at
/// the top, and every game's result and termination. A figure that does not exist (the Elo of a
/// clean sweep) is null.
pub fn json_summary(t: &Tally, c: &JsonContext<'_>) -> serde_json::Value {
    let engines: Vec<serde_json::Value> = c
        .stats
        .engines
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let th = t.thinking[i];
            let mut v = serde_json::json!(e);
            v["thinking"] = serde_json::json!({
                "searched_moves": th.searched,
                "moves_at_once": th.at_once,
                "total_seconds": th.total.as_secs_f64(),
                "mean_seconds": th.mean().map(|d| d.as_secs_f64()),
                "longest_seconds": th.longest.as_secs_f64(),
            });
            v
        })
        .collect();
    let games: Vec<serde_json::Value> = t
        .games
        .iter()
        .map(|g| {
            serde_json::json!({
                "number": g.number,
                "white": c.names[g.players[0]],
                "black": c.names[g.players[1]],
                "result": g.result,
                "termination": g.termination,
                "plies": g.plies,
            })
        })
        .collect();
    serde_json::json!({
        "games_scheduled": c.total,
        "games_played": t.games.len(),
        "finished": c.finished,
        "engines": engines,
        "pairings": c.stats.pairings,
        "sprt": c.stats.pairings.first().and_then(|p| p.sprt.as_ref()),
        "games": games,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(number: usize, players: [usize; 2], result: &str) -> GameResult {
        GameResult {
            number,
            players,
            result: result.into(),
            termination: "t".into(),
            plies: 10,
            thought: [[1, 2, 300, 200], [0, 3, 600, 250]],
        }
    }

    /// Pairs are counted from the first engine's view whatever the order the games end in.
    #[test]
    fn tallies_count_games_pairs_and_thinking() {
        let mut t = Tally::new(2, 1);
        t.add(0, [0, 1], 1, game(4, [1, 0], "0-1"));
        t.add(0, [0, 1], 0, game(1, [0, 1], "1-0"));
        t.add(0, [0, 1], 0, game(2, [1, 0], "1/2-1/2"));
        t.add(0, [0, 1], 1, game(3, [0, 1], "1-0"));
        assert_eq!(
            (
                t.pair_scores[0].wins,
                t.pair_scores[0].draws,
                t.pair_scores[0].losses
            ),
            (3, 1, 0)
        );
        assert_eq!(t.penta[0].counts, [0, 0, 0, 1, 1]);
        assert_eq!(t.engine_scores[1].losses, 3);
        assert_eq!(t.thinking[0].searched, 10);
        assert_eq!(t.thinking[0].total, Duration::from_nanos(1800));
        assert_eq!(t.games.len(), 4);
    }

    #[test]
    fn states_round_trip_and_other_files_are_refused() {
        let dir = std::env::temp_dir().join(format!("tempo-state-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("s.json");
        let s = SavedState {
            format: STATE_FORMAT.into(),
            args: vec!["--engine".into(), "x".into()],
            date: "2026.01.02".into(),
            pdn_bytes: Some(12),
            games: vec![game(1, [0, 1], "1-0")],
        };
        s.save(&path).unwrap();
        let back = SavedState::load(&path).unwrap();
        assert_eq!(
            (back.args, back.games, back.pdn_bytes),
            (s.args, s.games, s.pdn_bytes)
        );
        std::fs::write(
            &path,
            "{\"format\":\"x\",\"args\":[],\"date\":\"\",\"pdn_bytes\":null,\"games\":[]}",
        )
        .unwrap();
        assert!(SavedState::load(&path).unwrap_err().contains("format"));
        std::fs::write(&path, "[1").unwrap();
        assert!(SavedState::load(&path).unwrap_err().contains("not a match state"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
