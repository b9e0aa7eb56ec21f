//! Pruning and reductions: the late-move reduction rule and the reduced-depth pruning (a
//! ProbCut-like test) at non-PV nodes; the mate-distance window and the table cutoffs stay in the
//! node search, where they are one line each.

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

/// The shallowest node where the reduced-depth pruning is tried.
pub(super) const PRUNE_MIN_DEPTH: i32 = 3;

/// The reduced-depth pruning of a non-PV node at `depth` (at least [`PRUNE_MIN_DEPTH`]): a
/// null-window search at this depth against beta plus [`prune_margin`] that fails high ends the
/// node. About two fifths of the depth, and at least one ply.
#[inline(always)]
pub(super) fn prune_depth(depth: i32) -> i32 {
    (depth * 2 / 5).max(1)
}

/// How far above beta the reduced search must score, in hundredths of a man: 5 a ply of depth.
#[inline(always)]
pub(super) fn prune_margin(depth: i32) -> i32 {
    5 * depth
}
