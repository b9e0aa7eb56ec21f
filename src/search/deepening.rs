//! The iterative-deepening driver: the root move loop, aspiration windows, MultiPV passes, the
//! time rules between iterations, and the wait of an infinite or pondering search for its stop.

use super::{INFINITY, Info, MAX_DEPTH, Search, SearchResult, outcome_score, win_distance};
use crate::eval::Evaluate;
use crate::game::MoveList;
use crate::tt::WIN_BOUND;
use std::sync::atomic::Ordering;
use std::time::Duration;

impl<G: Evaluate> Search<'_, G> {
    /// Searches the root moves at `depth` within `(alpha, beta)`; sorts the best move first.
    pub(super) fn root(
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
    pub fn run(&mut self, root: &G, report: impl FnMut(Info<G::Move>)) -> SearchResult<G::Move> {
        self.tt.new_search();
        let mut result = self.iterate(root, report);
        self.wait_for_stop();
        result.nodes = self.nodes;
        result
    }

    /// The iterations of [`Search::run`], without the new table generation at the start and the
    /// wait for `stop` at the end (a team's driver does those once for all its threads).
    pub(super) fn iterate(
        &mut self,
        root: &G,
        mut report: impl FnMut(Info<G::Move>),
    ) -> SearchResult<G::Move> {
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
            self.immediate = true;
            return result;
        }
        // In a game a forced move is played at once; analysis still searches it.
        if moves.len() == 1 && (self.limits.clock.is_some() || self.limits.play) && !self.pondering {
            self.immediate = true;
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
        let mut depth = 0;
        loop {
            depth = self.next_depth(depth, max_depth as i32);
            if depth > max_depth as i32 {
                break;
            }
            self.enter_depth(depth);
            self.seldepth = 0;
            self.root_depth = depth as usize;
            self.excluded.clear();
            let mut first_score = None;
            // The lines of this depth, reported best first once all are searched: with pruning a
            // later pass (the earlier lines excluded) can score above an earlier one.
            let mut found: Vec<(i32, Vec<G::Move>, u32)> = Vec::new();
            for line in 1..=lines {
                let score =
                    self.aspiration(root, &mut moves, depth, if line == 1 { prev } else { -INFINITY });
                if self.stopped && (line > 1 || self.pv[0].is_empty()) {
                    break;
                }
                let pv: Vec<G::Move> = self.pv[0].iter().copied().collect();
                let Some(&best) = pv.first() else { break };
                found.push((score, pv, self.seldepth as u32));
                self.excluded.push(best);
                if self.stopped {
                    break;
                }
            }
            found.sort_by_key(|f| std::cmp::Reverse(f.0));
            self.excluded.clear();
            for (k, (score, pv, seldepth)) in found.into_iter().enumerate() {
                if k == 0 {
                    first_score = Some(score);
                    result.best = pv.first().copied();
                    result.ponder = pv.get(1).copied();
                    result.score = score;
                }
                self.excluded.push(pv[0]);
                report(Info {
                    depth: depth as u32,
                    seldepth,
                    score,
                    nodes: self.total_nodes(),
                    time: self.start.elapsed(),
                    pv,
                    multipv: k + 1,
                });
            }
            self.leave_depth(depth);
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
        self.publish();
        result.nodes = self.nodes;
        result
    }

    /// Pondering and infinite searches report only when told to stop: this waits for that (but
    /// not when the root had no choice to search, which is answered at once).
    pub(super) fn wait_for_stop(&self) {
        if !self.immediate && (self.limits.infinite || self.pondering) {
            while !self.shared.stop.load(Ordering::Relaxed)
                && (self.limits.infinite || self.shared.ponder.load(Ordering::Relaxed))
            {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
    }

    pub(super) fn aspiration(
        &mut self,
        root: &G,
        moves: &mut MoveList<G::Move>,
        depth: i32,
        prev: i32,
    ) -> i32 {
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
