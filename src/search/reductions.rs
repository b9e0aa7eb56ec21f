//! Pruning and reductions: the late-move reduction rule and its exemptions and the reduced-depth pruning (a
//! ProbCut-like test) at non-PV nodes; the mate-distance window and the table cutoffs stay in the
//! node search, where they are one line each.

/// How many plies shallower the `i`-th move (from 0, in search order) of a node at `depth` is
/// searched first, before the exemptions of [`keeps_depth`]: from depth 3, at a non-PV node one
/// ply from the second move on and two from the seventh; at a PV node one ply from the fourth
/// move. Killers are reduced like any other quiet move. (The schedule of Scan 2.0's `reduce`,
/// read, not copied; measured at f673512 (2026-11-28) it reached Scan's depth minus one where main's milder rule
/// did not, and with the exemptions below did not lose games to it.)
#[inline(always)]
pub(super) fn late_move_reduction(depth: i32, i: usize, pv_node: bool) -> i32 {
    if depth < 3 {
        0
    } else if pv_node {
        i32::from(i >= 3)
    } else {
        i32::from(i >= 1) + i32::from(i >= 6)
    }
}

/// The deepest node where a quiet move after which the opponent must capture (a sacrifice or an
/// exchange offer) keeps its depth. Near the horizon a reduction would leave such a move to the
/// capture quiescence, which sees the exchange but not the shot that may follow it; deeper
/// down, keeping them all doubled the tree (f673512, 2026-11-28: 41.3 M nodes to depth 19 from the
/// International start against 24.1 M).
pub(super) const FORCING_KEPT_DEPTH: i32 = 4;

/// Whether a move that [`late_move_reduction`] would reduce keeps its full depth: a capture, a
/// promotion, or near the horizon a move that leaves the opponent a capture to make.
#[inline(always)]
pub(super) fn keeps_depth(
    depth: i32,
    capture: bool,
    promotion: bool,
    forcing: impl FnOnce() -> bool,
) -> bool {
    capture || promotion || (depth <= FORCING_KEPT_DEPTH && forcing())
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
/// (With the network a margin of 2 cuts as often as 5 does with the tables, but at 0.1 s a move
/// it played level with 5: 21-22-78, docs/records/evaluation.md.)
#[inline(always)]
pub(super) fn prune_margin(depth: i32) -> i32 {
    5 * depth
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schedule_reduces_late_moves_from_depth_three() {
        // Nothing below depth 3, and never the first move.
        assert_eq!(late_move_reduction(2, 10, false), 0);
        assert_eq!(late_move_reduction(3, 0, false), 0);
        // Non-PV: one ply from the second move, two from the seventh.
        assert_eq!(late_move_reduction(3, 1, false), 1);
        assert_eq!(late_move_reduction(3, 5, false), 1);
        assert_eq!(late_move_reduction(3, 6, false), 2);
        // PV: one ply from the fourth move, never two.
        assert_eq!(late_move_reduction(9, 2, true), 0);
        assert_eq!(late_move_reduction(9, 3, true), 1);
        assert_eq!(late_move_reduction(9, 20, true), 1);
    }

    #[test]
    fn captures_promotions_and_forcing_moves_near_the_horizon_keep_their_depth() {
        assert!(keeps_depth(8, true, false, || false));
        assert!(keeps_depth(8, false, true, || false));
        assert!(keeps_depth(FORCING_KEPT_DEPTH, false, false, || true));
        assert!(!keeps_depth(FORCING_KEPT_DEPTH + 1, false, false, || true));
        assert!(!keeps_depth(3, false, false, || false));
        // Deeper than the limit the capture test is not even made.
        assert!(!keeps_depth(
            FORCING_KEPT_DEPTH + 1,
            false,
            false,
            || unreachable!()
        ));
    }
}
