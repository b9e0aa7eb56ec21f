//! The square-board family's [`Evaluate`]: which evaluation scores a position (International's
//! network, the learned tables of [`super::table`] or the hand-set one of [`super::hand`], as
//! [`super::choice`] says for the variant), and the cheap facts about moves the search asks.

use super::Evaluate;
use super::hand::{WEIGHTS, drawish, hand_evaluate};
use super::table::Net;
use super::{choice, features};
use crate::bits::Bits;
use crate::draughts::rules::{Goal, Rules};
use crate::draughts::{BitsOf, Draughts};
use crate::game::{Game, Outcome};

/// The learned evaluation ([`super::table`]) with the weights `net`, scaled down like the hand
/// evaluation's when the side ahead likely cannot win against a flying king.
pub fn learned_evaluate<R: Rules>(pos: &Draughts<R>, net: &Net) -> i32 {
    let me = pos.side_to_move();
    let mut score = net.evaluate(pos);
    if drawish(pos, if score >= 0 { me } else { me.opponent() }) {
        score /= WEIGHTS.drawish_divisor;
    }
    score
}

/// The network variant `R` evaluates with, if any: International's when the `eval-file` option
/// chose `<network>` (`set_eval_file` made sure it loads).
#[inline(always)]
fn network<R: Rules>() -> Option<&'static super::network::Network> {
    if choice::network_on::<R>() {
        super::network::shipped().ok()
    } else {
        None
    }
}

impl<R: Rules> Evaluate for Draughts<R> {
    fn evaluate(&self) -> i32 {
        if let Some(nn) = network::<R>() {
            return nn.evaluate(self);
        }
        if features::learnable::<R>() {
            if let Some(net) = choice::current::<R>() {
                return learned_evaluate(self, net);
            }
        }
        hand_evaluate(self)
    }
    fn evaluate_within(&self, alpha: i32, beta: i32) -> i32 {
        // With the network, a position the tables put far outside the window keeps the tables'
        // score ([`super::network::WINDOW`]).
        if let Some(nn) = network::<R>() {
            if let Some(net) = choice::current::<R>() {
                return nn.evaluate_within(self, alpha, beta, || learned_evaluate(self, net));
            }
            return nn.evaluate(self);
        }
        self.evaluate()
    }
    fn prefetch_evaluation(&self) {
        if let Some(nn) = network::<R>() {
            nn.prefetch(self.key());
        }
    }
    fn quick_outcome(&self) -> Option<Outcome> {
        if R::GOAL == Goal::FirstKing {
            let mover = self.side_to_move().opponent();
            if !(self.pieces(mover) & self.kings()).is_empty() {
                return Some(Outcome::Win(mover));
            }
        }
        // A counted draw rule that has run out (its clocks are part of the position). `outcome`
        // decides it, so that a player without a move still loses first.
        // Every counted rule counts king moves or a king's ending (a capture or man move resets
        // the clocks), so a position without kings skips the test.
        if !self.kings().is_empty() && self.is_counted_draw() {
            return self.outcome();
        }
        None
    }
    fn capture_free(&self) -> Option<bool> {
        Draughts::capture_free(self)
    }
    fn is_promotion(&self, mv: &Self::Move) -> bool {
        mv.promotes
    }
    fn must_capture(&self) -> bool {
        // `capture_free` answers `None` exactly when the first jump of some capture exists.
        Draughts::capture_free(self).is_none()
    }
    fn move_slot(mv: &Self::Move) -> usize {
        // Squares are bit indices: below 64 on boards up to 10x10, where six bits a square keep
        // the side's history in 4,096 slots (16 KiB, one cache-friendly block); 12x12 needs seven.
        let shift = if <BitsOf<R> as Bits>::WIDTH <= 64 { 6 } else { 7 };
        (usize::from(mv.from) << shift | usize::from(mv.to)) & (super::HISTORY_SLOTS - 1)
    }
    fn move_gain(&self, mv: &Self::Move) -> i32 {
        mv.captured.count() as i32 + 2 * (mv.captured & self.kings()).count() as i32
    }
}

#[cfg(test)]
mod tests {
    use super::super::reference::along_random_games;
    use super::*;
    use crate::draughts::{Canadian, English, International, Italian, Russian, Turkish};

    /// The rules type of a square-board game type.
    trait HasRules {
        type R: Rules;
    }

    impl<R: Rules> HasRules for Draughts<R> {
        type R = R;
    }

    /// `capture_free` and `must_capture` against the generated moves, along pseudo-random games of every kind of
    /// board and rule set (orthogonal men, flying and short kings, Frisian king runs).
    fn check_capture_free<R: Rules>() {
        let mut free = 0;
        along_random_games::<R>(777, 60, 200, |pos, moves| {
            let captures = moves.iter().any(|m| !m.captured.is_empty());
            // The search's exemption of forcing moves reads this one as exact.
            assert_eq!(pos.must_capture(), captures, "{} {}", R::NAME, pos.to_fen());
            // `None` ("may have a capture") is always a safe answer.
            if let Some(has_move) = pos.capture_free() {
                assert!(!captures, "{} {}", R::NAME, pos.to_fen());
                assert_eq!(has_move, !moves.is_empty(), "{} {}", R::NAME, pos.to_fen());
                free += 1;
            }
        });
        assert!(free > 100, "{}: {free} capture-free positions", R::NAME);
    }

    #[test]
    fn capture_free_and_must_capture_agree_with_the_generated_moves() {
        check_capture_free::<<International as HasRules>::R>();
        check_capture_free::<<Russian as HasRules>::R>();
        check_capture_free::<<English as HasRules>::R>();
        check_capture_free::<<Italian as HasRules>::R>();
        check_capture_free::<<Canadian as HasRules>::R>();
        check_capture_free::<<Turkish as HasRules>::R>();
        check_capture_free::<<crate::draughts::Frisian as HasRules>::R>();
        check_capture_free::<<crate::draughts::Thai as HasRules>::R>();
    }
}
