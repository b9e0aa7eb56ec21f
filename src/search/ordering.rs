//! Move ordering: the transposition-table move first, then captures by gain, the two killers of
//! the ply, then quiet moves by history; the cutoff bookkeeping that feeds killers and history; and
//! the selection of the next move to search.

use super::Search;
use crate::eval::{Evaluate, HISTORY_SLOTS};
use crate::game::MoveList;

/// The ordering score of the first killer; the second scores one less, every quiet move without a
/// killer's place scores its history, which stays below both.
pub(super) const KILLER: i32 = 1 << 22;

impl<G: Evaluate> Search<'_, G> {
    /// Writes the ordering score of each move to `scores`: TT move, captures by gain, killers,
    /// then history. (Written in place: a returned list is a 520-byte copy at every node.)
    pub(super) fn score_moves(
        &self,
        pos: &G,
        moves: &MoveList<G::Move>,
        tt_move: Option<u16>,
        ply: usize,
        scores: &mut MoveList<i32>,
    ) {
        let side = pos.side_to_move().index();
        let killers = self.killers[ply];
        let history = &self.history[side * HISTORY_SLOTS..(side + 1) * HISTORY_SLOTS];
        scores.extend(moves.iter().enumerate().map(|(i, mv)| {
            if tt_move == Some(i as u16) {
                1 << 30
            } else if pos.is_capture(mv) {
                (1 << 24) + pos.move_gain(mv)
            } else if killers[0] == Some(*mv) {
                KILLER
            } else if killers[1] == Some(*mv) {
                KILLER - 1
            } else {
                history[G::move_slot(mv)]
            }
        }));
    }

    /// Moves the best-scored remaining move, with its score and original index, to `i`.
    #[inline(always)]
    pub(super) fn pick(
        moves: &mut MoveList<G::Move>,
        scores: &mut MoveList<i32>,
        index: &mut MoveList<u16>,
        i: usize,
    ) {
        // The first of the best scores, as a scan of the slice (no bounds check per move).
        let mut best = i;
        let mut best_score = scores[i];
        for (j, &s) in scores.iter().enumerate().skip(i + 1) {
            if s > best_score {
                best = j;
                best_score = s;
            }
        }
        moves.swap(i, best);
        scores.swap(i, best);
        index.swap(i, best);
    }

    /// A quiet move refuted the node at `ply`: it becomes the ply's first killer and its history
    /// grows by `depth` squared (all of history is halved when one entry passes 2^20).
    #[inline(always)]
    pub(super) fn note_cutoff(&mut self, side: usize, mv: G::Move, ply: usize, depth: i32) {
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
}
