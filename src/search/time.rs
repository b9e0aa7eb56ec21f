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

/// Moves the engine plans for when the clock gives no count (sudden death).
const PLANNED_MOVES: u32 = 30;

/// The soft and hard budgets for one move.
///
/// The hard budget never exceeds the time on the clock minus [`MOVE_OVERHEAD`] (and is at most 60 %
/// of what is left), so a move is always made in time even with a 0.1 s increment and almost
/// nothing left: the increment only arrives after the move.
pub fn budgets(clock: &Clock) -> (Duration, Duration) {
    let avail = clock.time.saturating_sub(MOVE_OVERHEAD);
    let moves = clock.moves_to_go.unwrap_or(PLANNED_MOVES).clamp(1, PLANNED_MOVES);
    let soft = avail / moves + clock.increment * 3 / 4;
    let hard_cap = avail * 3 / 5;
    let soft = soft.min(avail / 2);
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
        // About 1/30 of the time plus most of the increment: the clock does not drain.
        assert!(soft >= ms(100) && soft <= ms(120), "{soft:?}");
    }
}
