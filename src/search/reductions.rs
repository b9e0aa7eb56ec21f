//! Pruning and reductions. The search has no forward pruning (no null move, no futility), so this
//! room holds the late-move reduction rule alone; the mate-distance window and the table cutoffs
//! stay in the node search, where they are one line each.

use super::ordering::KILLER;

/// How many plies shallower the `i`-th move (from 0, in search order) of a node at `depth` is
/// searched first. Late quiet moves that are neither the table move nor a killer (their ordering
/// `score` is a history, below the second killer's `KILLER - 1`) lose one ply from depth 3 and the
/// fourth move on, two from depth 6 and the ninth move on.
#[inline(always)]
pub(super) fn late_move_reduction(depth: i32, i: usize, quiet: bool, score: i32) -> i32 {
    if depth >= 3 && i >= 3 && quiet && score < KILLER - 1 {
        1 + i32::from(depth >= 6 && i >= 8)
    } else {
        0
    }
}
