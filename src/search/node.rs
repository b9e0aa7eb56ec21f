//! The node search: principal variation search with the transposition table, one-reply
//! extensions, late-move reductions and the reduced-depth pruning, and the capture quiescence
//! below it.

use super::reductions::{PRUNE_MIN_DEPTH, keeps_depth, late_move_reduction, prune_depth, prune_margin};
use super::{INFINITY, MAX_PLY, QUIESCENCE_LIMIT, Search, WIN, outcome_score};
use crate::eval::Evaluate;
use crate::game::MoveList;
use crate::tt::Bound;
use crate::tt::WIN_BOUND;

impl<G: Evaluate> Search<'_, G> {
    pub(super) fn update_pv(&mut self, ply: usize, mv: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        for m in tail[0].iter() {
            line.push(*m);
        }
    }

    pub(super) fn quiesce(&mut self, pos: &G, mut alpha: i32, beta: i32, ply: usize, qply: u32) -> i32 {
        // A leaf is most likely evaluated: its cache entry is fetched during the tests before.
        pos.prefetch_evaluation();
        self.pv[ply].clear();
        self.count_node(ply);
        if self.stopped {
            return 0;
        }
        if let Some(o) = pos.quick_outcome() {
            return outcome_score(o, pos.side_to_move(), ply);
        }
        // Without a capture the side to move stands pat (its quiet moves are not searched here):
        // known from the piece sets, the quiet moves need not be generated.
        match pos.capture_free() {
            Some(true) => return pos.evaluate_within(alpha, beta),
            Some(false) => {
                return pos
                    .outcome()
                    .map_or(0, |o| outcome_score(o, pos.side_to_move(), ply));
            }
            None => {}
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
            best = pos.evaluate_within(alpha, beta);
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

    pub(super) fn pvs(&mut self, pos: &G, depth: i32, mut alpha: i32, mut beta: i32, ply: usize) -> i32 {
        if depth <= 0 {
            pos.prefetch_evaluation();
            // The quiescence search does not look for repetitions (captures are irreversible in
            // draughts), so a quiet move that repeats is judged here: otherwise the root's
            // children at depth 1 would score a repetition draw as the position's evaluation.
            if let Some(s) = self.repetition(pos.repetition(), ply) {
                self.pv[ply].clear();
                return s;
            }
            if let Some(s) = self.egdb_score(pos, ply) {
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
        if let Some(s) = self.egdb_score(pos, ply) {
            return s;
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
        // Reduced-depth pruning (ProbCut-like): at a non-PV node, a search at about two fifths of
        // the depth that beats beta by a margin growing with depth is taken as proof enough. The
        // reduced search and everything below it do not try this again.
        let mut entry = entry;
        if !pv_node && self.prune && depth >= PRUNE_MIN_DEPTH && beta.abs() < WIN_BOUND {
            let margin = prune_margin(depth);
            let raised = beta + margin;
            self.prune = false;
            let score = self.pvs(pos, prune_depth(depth), raised - 1, raised, ply);
            self.prune = true;
            if self.stopped {
                return 0;
            }
            if score >= raised {
                return score - margin;
            }
            // The reduced search may have left a move to try first.
            if entry.is_none_or(|e| e.mv.is_none()) {
                entry = self.tt.probe(key, ply);
            }
        }
        let tt_move = entry.and_then(|e| e.mv).filter(|&i| usize::from(i) < moves.len());
        // The table move is searched first: its child's cluster is fetched while the moves are
        // ordered.
        let mut next: Option<G> = None;
        if let Some(t) = tt_move
            && depth >= 2
        {
            let c = pos.play(&moves[usize::from(t)]);
            self.tt.prefetch(c.key());
            next = Some(c);
        }
        let mut scores = MoveList::new();
        self.score_moves(pos, &moves, tt_move, ply, &mut scores);
        let mut index: MoveList<u16> = MoveList::new();
        index.extend(0..moves.len() as u16);
        // A forced reply costs little to look one ply further into; the ply cap keeps chains of
        // forced moves (MuchADo can cycle through them) from running away.
        let extension = i32::from(moves.len() == 1 && ply < 2 * self.root_depth);
        let side = pos.side_to_move().index();
        let alpha_orig = alpha;
        let mut best = -INFINITY;
        let mut best_index = None;
        for i in 0..moves.len() {
            let child = match next.take() {
                Some(c) => {
                    if i == 0 {
                        Self::pick(&mut moves, &mut scores, &mut index, 0);
                    }
                    c
                }
                None => {
                    Self::pick(&mut moves, &mut scores, &mut index, i);
                    pos.play(&moves[i])
                }
            };
            let mv = moves[i];
            // Once the first move has failed to refute the node, every move is likely to be
            // searched: the next one is made now and its table entry fetched while this one's
            // subtree is searched.
            if i >= 1 && depth >= 2 && i + 1 < moves.len() {
                Self::pick(&mut moves, &mut scores, &mut index, i + 1);
                let c = pos.play(&moves[i + 1]);
                self.tt.prefetch(c.key());
                next = Some(c);
            }
            self.push_key(pos, &mv, &child);
            let new_depth = depth - 1 + extension;
            let quiet = !pos.is_capture(&mv);
            let mut score;
            if i == 0 {
                if new_depth > 0 {
                    self.tt.prefetch(child.key());
                }
                score = -self.pvs(&child, new_depth, -beta, -alpha, ply + 1);
            } else {
                // A move that beats alpha after a reduced search is searched again at full depth.
                let mut reduction = late_move_reduction(depth, i, pv_node);
                if reduction > 0 && keeps_depth(depth, !quiet, pos.is_promotion(&mv), || child.must_capture())
                {
                    reduction = 0;
                }
                if new_depth - reduction > 0 {
                    self.tt.prefetch(child.key());
                }
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
                            self.note_cutoff(side, mv, ply, depth);
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
}
