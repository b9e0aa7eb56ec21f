//! The search: iterative deepening over a principal variation search with aspiration windows,
//! capture quiescence, a shared transposition table, killer and history move ordering, late-move
//! reductions and a reduced-depth (ProbCut-like) pruning at non-PV nodes, written once over
//! [`Game`] + [`Evaluate`] and compiled per variant.
//!
//! Scores are in hundredths of a man for the side to move. A won game is `WIN - plies` (a loss its
//! negation), so the search prefers the shortest win and the longest loss. Repetitions are found
//! on a key stack holding the game's history since its last irreversible move and the search path;
//! [`Game::repetition`] says what a repetition means. The search polls the clock and the stop flag
//! every [`POLL_NODES`] nodes, so a stop takes effect within a millisecond or so.
//!
//! The rooms: this file holds the limits, the results and the [`Search`] state with its node
//! counting and polling; `path` the key stack and the repetition rules; `ordering` move ordering
//! (table move, captures, killers, history) and the cutoff bookkeeping; `reductions` the late-move
//! reduction rule and the reduced-depth pruning; `node` the principal variation search and the
//! quiescence; `deepening` the root, aspiration windows, MultiPV and iterative deepening;
//! `parallel` Lazy SMP over several threads ([`search`]); `time` the clock budgets and `strength`
//! the strength levels.

mod deepening;
mod egdb_probe;
mod node;
mod ordering;
mod parallel;
mod path;
mod reductions;
mod strength;
mod time;

pub use parallel::{MAX_THREADS, search};
pub use strength::{ELO_DEFAULT, ELO_MAX, ELO_MIN, Handicap, Strength, choose};
pub use time::{Clock, MOVE_OVERHEAD, MOVE_OVERHEAD_MAX_MS, budgets};

use crate::eval::{Evaluate, HISTORY_SLOTS};
use crate::game::{Game, MoveList, Outcome};
use crate::tt::{Tt, WIN_BOUND};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The score of a win at the root; a win in `n` plies scores `WIN - n`.
pub const WIN: i32 = 30_000;
/// Above every score.
pub const INFINITY: i32 = 32_000;
/// The deepest ply the search reaches (quiescence included).
pub const MAX_PLY: usize = 128;
/// The deepest nominal depth of an iteration.
pub const MAX_DEPTH: u32 = 100;
/// Deepest quiescence line, in plies.
pub const QUIESCENCE_LIMIT: u32 = 24;
/// The most best lines a search reports (MultiPV), one rule for every command and protocol.
pub const MULTIPV_MAX: usize = 64;
/// Nodes between two looks at the clock and the stop flag.
pub const POLL_NODES: u64 = 1024;

/// What bounds a search. Several limits may be combined; the first reached ends the search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Node budget.
    pub nodes: Option<u64>,
    /// Time for this move.
    pub movetime: Option<Duration>,
    /// The game clock of the side to move; enables the game rules of time use (a single legal
    /// move is played at once).
    pub clock: Option<Clock>,
    /// Search until stopped (analysis); other limits except `depth` and `nodes` are ignored.
    pub infinite: bool,
    /// Number of best moves to report (MultiPV); 0 and 1 mean one.
    pub multipv: usize,
    /// The search chooses a move to play in a game (Hub `go think`, UCI `go` with a clock or a
    /// move time): a forced move is played at once, as with a game clock. Analysis leaves it off.
    pub play: bool,
}

/// Flags the controlling thread sets while a search runs.
#[derive(Debug, Default)]
pub struct Shared {
    /// Stop as soon as possible and report the best move found.
    pub stop: AtomicBool,
    /// The search is pondering: time limits wait until this is cleared (ponder-hit).
    pub ponder: AtomicBool,
}

/// One iteration's report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info<M> {
    /// Nominal depth.
    pub depth: u32,
    /// Deepest ply reached, quiescence included.
    pub seldepth: u32,
    /// Score for the side to move at the root.
    pub score: i32,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// The principal variation.
    pub pv: Vec<M>,
    /// 1 for the best line, 2 for the second best... (MultiPV).
    pub multipv: usize,
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult<M> {
    /// The move to play; `None` only when the root has no legal move.
    pub best: Option<M>,
    /// The expected reply, to ponder on.
    pub ponder: Option<M>,
    /// Score of the best move.
    pub score: i32,
    /// Deepest completed iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
}

/// A score as a win or loss distance in moves, when it is one: `Some(n)` wins in `n` moves,
/// `Some(-n)` loses in `n`.
pub fn win_distance(score: i32) -> Option<i32> {
    if score >= WIN_BOUND {
        Some((WIN - score + 1) / 2)
    } else if score <= -WIN_BOUND {
        Some(-(WIN + score + 1) / 2)
    } else {
        None
    }
}

/// The position after `moves` from `start`, and the keys of the positions before it that it can
/// repeat (those since the last irreversible move, oldest first), as [`Search::new`] takes them.
/// Moves must be legal.
pub fn replay<G: Game>(start: &G, moves: &[G::Move]) -> (G, Vec<u64>) {
    let mut pos = *start;
    let mut keys = Vec::new();
    for mv in moves {
        if pos.is_irreversible(mv) {
            keys.clear();
        } else {
            keys.push(pos.key());
        }
        pos = pos.play(mv);
    }
    (pos, keys)
}

fn outcome_score(o: Outcome, pos_side: crate::game::Side, ply: usize) -> i32 {
    match o {
        Outcome::Draw => 0,
        Outcome::Win(s) if s == pos_side => WIN - ply as i32,
        Outcome::Win(_) => -(WIN - ply as i32),
    }
}

/// One search of one position. Create it, call [`Search::run`], read the result.
pub struct Search<'a, G: Evaluate> {
    tt: &'a Tt,
    shared: &'a Shared,
    limits: Limits,
    start: Instant,
    /// When the clock started counting (later than `start` after a ponder-hit).
    clock_start: Instant,
    pondering: bool,
    soft: Option<Duration>,
    hard: Option<Duration>,
    nodes: u64,
    next_poll: u64,
    seldepth: usize,
    stopped: bool,
    /// Keys of the game history and of the search path; `floors[i]` is the first index that
    /// entry `i` can repeat (everything before it lies behind an irreversible move).
    keys: Vec<u64>,
    floors: Vec<usize>,
    root_index: usize,
    killers: Vec<[Option<G::Move>; 2]>,
    history: Vec<i32>,
    pv: Vec<MoveList<G::Move>>,
    /// Root moves excluded from this pass (the better lines of MultiPV).
    excluded: MoveList<G::Move>,
    /// Nominal depth of the current iteration.
    root_depth: usize,
    /// When not empty, the only root moves searched (UCI `searchmoves`).
    only: MoveList<G::Move>,
    /// The threads searching the same root with this one, if any ([`parallel`]).
    team: Option<&'a parallel::Team>,
    /// A helper thread of a team: it chooses its depths to differ from the others' and adds its
    /// node count to the team's.
    helper: bool,
    /// The part of `nodes` already added to the team's count.
    published: u64,
    /// The root was answered without a search (no legal move, or a forced move in a game).
    immediate: bool,
    /// Reduced-depth pruning is allowed (off inside its own reduced searches).
    prune: bool,
}

impl<'a, G: Evaluate> Search<'a, G> {
    /// A search of `root`, whose game history (positions it may repeat, oldest first) is `history`.
    pub fn new(tt: &'a Tt, shared: &'a Shared, limits: Limits, history: &[u64], root: &G) -> Self {
        let now = Instant::now();
        let (soft, hard) = if limits.infinite {
            (None, None)
        } else {
            let (mut soft, mut hard) = limits.clock.map_or((None, None), |c| {
                let (s, h) = budgets(&c);
                (Some(s), Some(h))
            });
            if let Some(t) = limits.movetime {
                soft = Some(soft.map_or(t, |s| s.min(t)));
                hard = Some(hard.map_or(t, |h| h.min(t)));
            }
            (soft, hard)
        };
        let mut keys = Vec::with_capacity(history.len() + MAX_PLY + 1);
        keys.extend_from_slice(history);
        keys.push(root.key());
        Search {
            tt,
            shared,
            limits,
            start: now,
            clock_start: now,
            pondering: shared.ponder.load(Ordering::Relaxed),
            soft,
            hard,
            nodes: 0,
            next_poll: limits.nodes.map_or(POLL_NODES, |n| n.min(POLL_NODES)),
            seldepth: 0,
            stopped: false,
            floors: vec![0; keys.len()],
            root_index: history.len(),
            keys,
            killers: vec![[None, None]; MAX_PLY + 1],
            history: vec![0; 2 * HISTORY_SLOTS],
            pv: (0..=MAX_PLY).map(|_| MoveList::new()).collect(),
            excluded: MoveList::new(),
            root_depth: 1,
            only: MoveList::new(),
            team: None,
            helper: false,
            published: 0,
            immediate: false,
            prune: true,
        }
    }

    /// Searches only these root moves (those that are legal); an empty list means every move.
    pub fn restrict_root(&mut self, moves: &[G::Move]) {
        self.only.clear();
        for m in moves {
            self.only.push(*m);
        }
    }

    /// Nodes searched so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The nodes of the whole search: this thread's, and the helpers' when this is a team's main
    /// thread (their counts are added every [`POLL_NODES`] nodes, so they lag a little).
    fn total_nodes(&self) -> u64 {
        match self.team {
            Some(t) if !self.helper => self.nodes + t.nodes(),
            _ => self.nodes,
        }
    }

    /// A helper adds its new nodes to its team's count.
    fn publish(&mut self) {
        if let Some(t) = self.team.filter(|_| self.helper) {
            t.add_nodes(self.nodes - self.published);
            self.published = self.nodes;
        }
    }

    fn poll(&mut self) {
        self.publish();
        // A node budget is kept exactly (small ones are the handicap of the weakest levels).
        self.next_poll = self.nodes + POLL_NODES;
        if let Some(n) = self.limits.nodes.filter(|&n| n > self.nodes) {
            self.next_poll = self.next_poll.min(n);
        }
        if self.shared.stop.load(Ordering::Relaxed) {
            self.stopped = true;
            return;
        }
        if self.limits.nodes.is_some_and(|n| self.nodes >= n) {
            self.stopped = true;
            return;
        }
        if self.pondering {
            if self.shared.ponder.load(Ordering::Relaxed) {
                return;
            }
            // Ponder-hit: the clock of this move starts now.
            self.pondering = false;
            self.clock_start = Instant::now();
        }
        if self.hard.is_some_and(|h| self.clock_start.elapsed() >= h) {
            self.stopped = true;
        }
    }

    #[inline(always)]
    fn count_node(&mut self, ply: usize) {
        // A node entered after the search stopped is left at once by its caller, unsearched: not
        // counted, so that a node budget is never exceeded (the weakest levels' handicap).
        if self.stopped {
            return;
        }
        self.nodes += 1;
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        if self.nodes >= self.next_poll {
            self.poll();
        }
    }
}

#[cfg(test)]
mod tests;
