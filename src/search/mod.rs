//! The search: iterative deepening over a principal variation search with aspiration windows,
//! capture quiescence, a shared transposition table, killer and history move ordering and late-move
//! reductions, written once over [`Game`] + [`Evaluate`] and compiled per variant.
//!
//! Scores are in hundredths of a man for the side to move. A won game is `WIN - plies` (a loss its
//! negation), so the search prefers the shortest win and the longest loss. Repetitions are found
//! on a key stack holding the game's history since its last irreversible move and the search path;
//! [`Game::repetition`] says what a repetition means. The search polls the clock and the stop flag
//! every [`POLL_NODES`] nodes, so a stop takes effect within a millisecond or so.

mod strength;
mod time;

pub use strength::{ELO_DEFAULT, ELO_MAX, ELO_MIN, Handicap, Strength, choose};
pub use time::{Clock, budgets};

use crate::eval::{Evaluate, HISTORY_SLOTS};
use crate::game::{Game, MoveList, Outcome, Repetition};
use crate::tt::{Bound, Tt, WIN_BOUND};
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

    fn poll(&mut self) {
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
        self.nodes += 1;
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        if self.nodes >= self.next_poll {
            self.poll();
        }
    }

    /// The score of the position on top of the key stack if it repeats, by the game's rule.
    fn repetition(&self, rule: Repetition, ply: usize) -> Option<i32> {
        let top = self.keys.len() - 1;
        let key = self.keys[top];
        let floor = self.floors[top];
        let mut count = 0;
        let mut in_path = false;
        let mut i = top;
        while i >= floor + 2 {
            i -= 2;
            if self.keys[i] == key {
                count += 1;
                in_path |= i >= self.root_index;
            }
        }
        if count == 0 {
            return None;
        }
        match rule {
            // A repetition inside the search is scored as the draw it can be forced into.
            Repetition::Draw(n) => (in_path || count + 1 >= usize::from(n)).then_some(0),
            Repetition::Ignored => in_path.then_some(0),
            // The player who made the n-th occurrence, who is not the side to move, loses.
            Repetition::LossForMover(n) => (count + 1 >= usize::from(n)).then_some(WIN - ply as i32),
        }
    }

    #[inline(always)]
    fn push_key(&mut self, parent: &G, mv: &G::Move, child: &G) {
        let top = self.keys.len() - 1;
        let floor = if parent.is_irreversible(mv) {
            top + 1
        } else {
            self.floors[top]
        };
        self.keys.push(child.key());
        self.floors.push(floor);
    }

    #[inline(always)]
    fn pop_key(&mut self) {
        self.keys.pop();
        self.floors.pop();
    }

    /// Orders moves: TT move, captures by gain, killers, then history.
    fn score_moves(
        &self,
        pos: &G,
        moves: &MoveList<G::Move>,
        tt_move: Option<u16>,
        ply: usize,
    ) -> MoveList<i32> {
        let mut scores = MoveList::new();
        let side = pos.side_to_move().index();
        let killers = self.killers[ply];
        for (i, mv) in moves.iter().enumerate() {
            let s = if tt_move == Some(i as u16) {
                1 << 30
            } else if pos.is_capture(mv) {
                (1 << 24) + pos.move_gain(mv)
            } else if killers[0] == Some(*mv) {
                1 << 22
            } else if killers[1] == Some(*mv) {
                (1 << 22) - 1
            } else {
                self.history[side * HISTORY_SLOTS + G::move_slot(mv)]
            };
            scores.push(s);
        }
        scores
    }

    /// Moves the best-scored remaining move to `i` and returns its original index.
    #[inline(always)]
    fn pick(moves: &mut MoveList<G::Move>, scores: &mut MoveList<i32>, index: &mut MoveList<u16>, i: usize) {
        let mut best = i;
        for j in i + 1..moves.len() {
            if scores[j] > scores[best] {
                best = j;
            }
        }
        moves.swap(i, best);
        scores.swap(i, best);
        index.swap(i, best);
    }

    fn update_pv(&mut self, ply: usize, mv: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        for m in tail[0].iter() {
            line.push(*m);
        }
    }

    fn quiesce(&mut self, pos: &G, mut alpha: i32, beta: i32, ply: usize, qply: u32) -> i32 {
        self.pv[ply].clear();
        self.count_node(ply);
        if self.stopped {
            return 0;
        }
        if let Some(o) = pos.quick_outcome() {
            return outcome_score(o, pos.side_to_move(), ply);
        }
        let mut moves = MoveList::new();
        pos.generate(&mut moves);
        if moves.is_empty() {
            return pos
                .outcome()
                .map_or(0, |o| outcome_score(o, pos.side_to_move(), ply));
        }
        // Draughts captures remove pieces, so capture chains end; MuchADo's flip them and could
        // go on for ever.
        if ply >= MAX_PLY || qply >= QUIESCENCE_LIMIT {
            return pos.evaluate();
        }
        // In draughts a capture is compulsory: a side that must capture has no quiet option to
        // stand on, so every move is searched.
        let forced = moves.iter().all(|m| pos.is_capture(m));
        let mut best = -INFINITY;
        if !forced {
            best = pos.evaluate();
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
        }
        for mv in moves.iter() {
            if !forced && !pos.is_capture(mv) {
                continue;
            }
            let child = pos.play(mv);
            let score = -self.quiesce(&child, -beta, -alpha, ply + 1, qply + 1);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, *mv);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    fn pvs(&mut self, pos: &G, depth: i32, mut alpha: i32, mut beta: i32, ply: usize) -> i32 {
        if depth <= 0 {
            // The quiescence search does not look for repetitions (captures are irreversible in
            // draughts), so a quiet move that repeats is judged here: otherwise the root's
            // children at depth 1 would score a repetition draw as the position's evaluation.
            if let Some(s) = self.repetition(pos.repetition(), ply) {
                self.pv[ply].clear();
                return s;
            }
            return self.quiesce(pos, alpha, beta, ply, 0);
        }
        self.pv[ply].clear();
        self.count_node(ply);
        if self.stopped {
            return 0;
        }
        if let Some(s) = self.repetition(pos.repetition(), ply) {
            return s;
        }
        if let Some(o) = pos.quick_outcome() {
            return outcome_score(o, pos.side_to_move(), ply);
        }
        if ply >= MAX_PLY {
            return pos.evaluate();
        }
        // No line from here can beat a win already proved closer to the root.
        alpha = alpha.max(-WIN + ply as i32);
        beta = beta.min(WIN - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        let pv_node = beta - alpha > 1;
        let key = pos.key();
        let entry = self.tt.probe(key, ply);
        if let Some(e) = entry
            && !pv_node
            && i32::from(e.depth) >= depth
        {
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => e.score >= beta,
                Bound::Upper => e.score <= alpha,
            };
            if cut {
                return e.score;
            }
        }

        let mut moves = MoveList::new();
        pos.generate(&mut moves);
        if moves.is_empty() {
            return pos
                .outcome()
                .map_or(0, |o| outcome_score(o, pos.side_to_move(), ply));
        }
        let tt_move = entry.and_then(|e| e.mv).filter(|&i| usize::from(i) < moves.len());
        let mut scores = self.score_moves(pos, &moves, tt_move, ply);
        let mut index: MoveList<u16> = MoveList::new();
        for i in 0..moves.len() {
            index.push(i as u16);
        }
        // A forced reply costs little to look one ply further into; the ply cap keeps chains of
        // forced moves (MuchADo can cycle through them) from running away.
        let extension = i32::from(moves.len() == 1 && ply < 2 * self.root_depth);
        let side = pos.side_to_move().index();
        let alpha_orig = alpha;
        let mut best = -INFINITY;
        let mut best_index = None;
        for i in 0..moves.len() {
            Self::pick(&mut moves, &mut scores, &mut index, i);
            let mv = moves[i];
            let child = pos.play(&mv);
            self.push_key(pos, &mv, &child);
            let new_depth = depth - 1 + extension;
            let quiet = !pos.is_capture(&mv);
            let mut score;
            if i == 0 {
                score = -self.pvs(&child, new_depth, -beta, -alpha, ply + 1);
            } else {
                // Late quiet moves are searched shallower first; a move that then beats alpha is
                // searched again at full depth.
                let reduction = if depth >= 3 && i >= 3 && quiet && scores[i] < (1 << 22) - 1 {
                    1 + i32::from(depth >= 6 && i >= 8)
                } else {
                    0
                };
                score = -self.pvs(&child, new_depth - reduction, -alpha - 1, -alpha, ply + 1);
                if score > alpha && reduction > 0 {
                    score = -self.pvs(&child, new_depth, -alpha - 1, -alpha, ply + 1);
                }
                if score > alpha && score < beta {
                    score = -self.pvs(&child, new_depth, -beta, -alpha, ply + 1);
                }
            }
            self.pop_key();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_index = Some(index[i]);
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, mv);
                    if score >= beta {
                        if quiet {
                            let k = &mut self.killers[ply];
                            if k[0] != Some(mv) {
                                k[1] = k[0];
                                k[0] = Some(mv);
                            }
                            let h = &mut self.history[side * HISTORY_SLOTS + G::move_slot(&mv)];
                            *h += depth * depth;
                            if *h > 1 << 20 {
                                for x in self.history.iter_mut() {
                                    *x /= 2;
                                }
                            }
                        }
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha_orig {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let stored_move = if bound == Bound::Upper { None } else { best_index };
        self.tt
            .store(key, ply, stored_move, best, depth.clamp(0, 255) as u8, bound);
        best
    }

    /// Searches the root moves at `depth` within `(alpha, beta)`; sorts the best move first.
    fn root(
        &mut self,
        root: &G,
        moves: &mut MoveList<G::Move>,
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.pv[0].clear();
        self.count_node(0);
        let mut best = -INFINITY;
        let mut best_at = None;
        let mut searched = 0;
        for i in 0..moves.len() {
            let mv = moves[i];
            if self.excluded.contains(&mv) {
                continue;
            }
            let child = root.play(&mv);
            self.push_key(root, &mv, &child);
            let mut score;
            if searched == 0 {
                score = -self.pvs(&child, depth - 1, -beta, -alpha, 1);
            } else {
                score = -self.pvs(&child, depth - 1, -alpha - 1, -alpha, 1);
                if score > alpha && score < beta {
                    score = -self.pvs(&child, depth - 1, -beta, -alpha, 1);
                }
            }
            self.pop_key();
            searched += 1;
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                best_at = Some(i);
                if score > alpha {
                    alpha = score;
                    self.update_pv(0, mv);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if let Some(i) = best_at {
            // The best move leads the next iteration; the others keep their relative order.
            moves[..=i].rotate_right(1);
        }
        best
    }

    /// Runs iterative deepening on `root`, calling `report` after each completed iteration (and
    /// for each line of MultiPV), and returns the best move found. A result is produced even when
    /// the search is stopped before its first iteration ends.
    pub fn run(&mut self, root: &G, mut report: impl FnMut(Info<G::Move>)) -> SearchResult<G::Move> {
        self.tt.new_search();
        let mut moves = MoveList::new();
        root.generate(&mut moves);
        if !self.only.is_empty() && moves.iter().any(|m| self.only.contains(m)) {
            let mut kept = MoveList::new();
            for m in moves.iter().filter(|m| self.only.contains(m)) {
                kept.push(*m);
            }
            moves = kept;
        }
        let mut result = SearchResult {
            best: moves.first().copied(),
            ponder: None,
            score: 0,
            depth: 0,
            nodes: 0,
        };
        if moves.is_empty() {
            result.score = root
                .outcome()
                .map_or(0, |o| outcome_score(o, root.side_to_move(), 0));
            return result;
        }
        // In a game a forced move is played at once; analysis still searches it.
        if moves.len() == 1 && (self.limits.clock.is_some() || self.limits.play) && !self.pondering {
            return result;
        }
        // Start from the table's move, when it has one.
        if let Some(i) = self.tt.probe(root.key(), 0).and_then(|e| e.mv) {
            let i = usize::from(i);
            if i < moves.len() {
                moves[..=i].rotate_right(1);
            }
        }
        let max_depth = self.limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let lines = self.limits.multipv.clamp(1, moves.len());
        let mut prev = 0;
        for depth in 1..=max_depth as i32 {
            self.seldepth = 0;
            self.root_depth = depth as usize;
            self.excluded.clear();
            let mut first_score = None;
            for line in 1..=lines {
                let score =
                    self.aspiration(root, &mut moves, depth, if line == 1 { prev } else { -INFINITY });
                if self.stopped && (line > 1 || self.pv[0].is_empty()) {
                    break;
                }
                let pv: Vec<G::Move> = self.pv[0].iter().copied().collect();
                let Some(&best) = pv.first() else { break };
                if line == 1 {
                    first_score = Some(score);
                    result.best = Some(best);
                    result.ponder = pv.get(1).copied();
                    result.score = score;
                }
                report(Info {
                    depth: depth as u32,
                    seldepth: self.seldepth as u32,
                    score,
                    nodes: self.nodes,
                    time: self.start.elapsed(),
                    pv,
                    multipv: line,
                });
                self.excluded.push(best);
                if self.stopped {
                    break;
                }
            }
            if self.stopped {
                break;
            }
            result.depth = depth as u32;
            if let Some(s) = first_score {
                prev = s;
            }
            // Bring the MultiPV lines back in front, best first, for the next iteration.
            for k in (0..self.excluded.len()).rev() {
                let m = self.excluded[k];
                if let Some(p) = moves.iter().position(|x| *x == m) {
                    moves[..=p].rotate_right(1);
                }
            }
            if !self.limits.infinite {
                if self
                    .soft
                    .is_some_and(|s| !self.pondering && self.clock_start.elapsed() >= s)
                {
                    break;
                }
                // A proved result needs no deeper search.
                if let Some(d) = win_distance(prev)
                    && depth >= 2 * d.abs() + 2
                    && lines == 1
                {
                    break;
                }
            }
        }
        // Pondering and infinite searches report only when told to stop.
        if self.limits.infinite || self.pondering {
            while !self.shared.stop.load(Ordering::Relaxed)
                && (self.limits.infinite || self.shared.ponder.load(Ordering::Relaxed))
            {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        result.nodes = self.nodes;
        result
    }

    fn aspiration(&mut self, root: &G, moves: &mut MoveList<G::Move>, depth: i32, prev: i32) -> i32 {
        if depth < 4 || prev.abs() >= WIN_BOUND || prev == -INFINITY {
            return self.root(root, moves, depth, -INFINITY, INFINITY);
        }
        let mut delta = 30;
        let (mut alpha, mut beta) = (prev - delta, prev + delta);
        loop {
            let score = self.root(root, moves, depth, alpha, beta);
            if self.stopped {
                return score;
            }
            if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
            } else if score >= beta {
                beta = (score + delta).min(INFINITY);
            } else {
                return score;
            }
            delta *= 2;
            if delta > 1000 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }
}

#[cfg(test)]
mod tests;
