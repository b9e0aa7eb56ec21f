//! Endgame tables in the search: a position the loaded tables cover gets its exact score, and the
//! search stops there (a cutoff at any bound). Scores keep the tables' distance to the end of the
//! game, so among winning moves the search prefers the one that wins soonest, and a won ending is
//! played toward the win rather than only recognised. The root itself is never answered from the
//! tables: its moves are searched, so the best move is the one whose successor wins fastest.
//! A win or loss the counted draw rules may cut short is no table answer (the probe declines it,
//! [`crate::draughts::Draughts::counted_draw_in`]): the search goes on and meets the counters.
//! Without tables [`crate::egdb::Probe::egdb_code`] answers `None` at once and nothing changes.

use super::{Search, WIN};
use crate::egdb::{Code, Value};
use crate::eval::Evaluate;
use crate::tt::WIN_BOUND;

/// The search score at `ply` of a table code: a win in `n` plies scores as a win found `ply + n`
/// plies from the root, kept inside the win band.
pub(super) fn table_score(code: Code, ply: usize) -> i32 {
    let at = |n: u32| (WIN - ply as i32 - n as i32).max(WIN_BOUND);
    match Value::of(code) {
        Value::Win(n) => at(n),
        Value::Loss(n) => -at(n),
        Value::Draw => 0,
    }
}

impl<G: Evaluate> Search<'_, G> {
    /// The exact score of a non-root position from the endgame tables, if they cover it.
    #[inline]
    pub(super) fn egdb_score(&self, pos: &G, ply: usize) -> Option<i32> {
        if ply == 0 {
            return None;
        }
        pos.egdb_code().map(|c| table_score(c, ply))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_scores_prefer_quick_wins_and_slow_losses() {
        // Codes: n + 1 for n plies; odd n wins, even n loses.
        assert!(table_score(4, 1) > table_score(8, 1));
        assert!(table_score(3, 1) < table_score(7, 1));
        assert_eq!(table_score(0, 5), 0);
        assert_eq!(table_score(2, 1), WIN - 2);
    }
}
