//! Time budgets from a game clock (Scan's two budgets): the search starts no new iteration after
//! the soft budget and aborts at the hard one.

use std::time::Duration;

/// The clock of the side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the clock.
    pub time: Duration,
    /// Time added after each move (Fischer increment).
    pub increment: Duration,
    /// Moves until the next time control; `None` for sudden death.
    pub moves_to_go: Option<u32>,
}

/// Time kept back for the protocol round trip and the process being descheduled.
pub const MOVE_OVERHEAD: Duration = Duration::from_millis(20);

/// Increments kept on the clock in a game with an increment (see [`budgets`]).
pub const RESERVE_INCREMENTS: u32 = 4;

/// Moves the engine plans for when the clock gives no count (sudden death).
const PLANNED_MOVES: u32 = 30;

/// The soft and hard budgets for one move.
///
/// The hard budget never exceeds the time on the clock minus [`MOVE_OVERHEAD`] (and is at most 60 %
/// of what is left), so a move is always made in time even with a 0.1 s increment and almost
/// nothing left: the increment only arrives after the move.
///
/// With an increment, [`RESERVE_INCREMENTS`] increments stay in reserve: a search overshoots its
/// soft budget by up to an iteration, so a long game spends the whole increment on every move and
/// the clock settles where the hard budget stops it. Without the reserve that was at 60 % of the
/// clock, a bank of under two increments plus [`MOVE_OVERHEAD`], where one late answer from a busy
/// machine lost on time (found by the self-play soak, `tests/soak.rs`); with it the bank stays
/// near [`RESERVE_INCREMENTS`] increments (`the_clock_does_not_drain_in_a_long_game`).
pub fn budgets(clock: &Clock) -> (Duration, Duration) {
    let avail = clock.time.saturating_sub(MOVE_OVERHEAD);
    let moves = clock.moves_to_go.unwrap_or(PLANNED_MOVES).clamp(1, PLANNED_MOVES);
    let soft = avail / moves + clock.increment / 2;
    let hard_cap = (avail * 3 / 5).min(avail.saturating_sub(clock.increment * RESERVE_INCREMENTS));
    let soft = soft.min(avail / 2).min(hard_cap);
    let hard = (soft * 4).min(hard_cap).max(soft);
    let floor = Duration::from_millis(1);
    (soft.max(floor), hard.max(floor))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn budgets_stay_inside_the_clock() {
        for time in [0, 5, 30, 100, 500, 2_000, 60_000, 600_000] {
            for inc in [0, 100, 1_000] {
                for mtg in [None, Some(1), Some(5), Some(40)] {
                    let c = Clock {
                        time: ms(time),
                        increment: ms(inc),
                        moves_to_go: mtg,
                    };
                    let (soft, hard) = budgets(&c);
                    assert!(soft <= hard, "{c:?}");
                    assert!(
                        hard <= ms(time).saturating_sub(MOVE_OVERHEAD).max(ms(1)),
                        "hard {hard:?} for {c:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn increment_is_used() {
        let c = Clock {
            time: ms(1_000),
            increment: ms(100),
            moves_to_go: None,
        };
        let (soft, _) = budgets(&c);
        // About 1/30 of the time plus half the increment.
        assert!(soft >= ms(80) && soft <= ms(90), "{soft:?}");
    }

    #[test]
    fn the_clock_does_not_drain_in_a_long_game() {
        // Fischer clocks as Hub gives them (the increment already on the clock), each move taking
        // twice its soft budget (the iteration that overshoots), at most the hard one.
        for (start, inc) in [(1_000, 100), (500, 20), (60_000, 1_000), (300, 10), (50, 100)] {
            let mut left = ms(start);
            let mut least = Duration::MAX;
            for _ in 0..300 {
                let c = Clock {
                    time: left + ms(inc),
                    increment: ms(inc),
                    moves_to_go: None,
                };
                let (soft, hard) = budgets(&c);
                let used = (soft * 2).min(hard);
                left = (left + ms(inc)).checked_sub(used).expect("lost on time");
                least = least.min(left);
            }
            // Once settled, more than three increments stay on the clock between moves.
            assert!(
                least.min(left) >= ms(inc) * 3 || start < inc * 3,
                "{start}+{inc}: down to {least:?}"
            );
            assert!(left >= ms(inc) * 3, "{start}+{inc}: ends at {left:?}");
        }
    }
}
