//! Static evaluation, one implementation per position family, behind the [`Evaluate`] trait that
//! the search is written against.
//!
//! Scores are in hundredths of a man (a man is worth 100), from the point of view of the side to
//! move. Each hand-set evaluation keeps every weight in one struct of named constants
//! ([`hand::Weights`], [`odd::Weights`]) so that a tuning run can fit them from games without
//! touching the code.
//!
//! The square-board variants with dark squares only and a normal goal also have a learned
//! evaluation: the [`features`] of a position (men's patterns in 4x4 regions and wider windows,
//! linear terms) weighed by the [`table`] evaluator, whose weights (fitted by `tempo train`) are
//! stored in [`weights`] files. [`choice`] says which evaluation a variant uses: the weights
//! compiled in for the variants that ship a `weights/<variant>.bin`, a file loaded with the
//! `eval-file` option, International's [`network`], or the hand evaluation. [`draughts`] puts them
//! behind [`Evaluate`] for the family.
//!
//! Each module depends only on those below it in this list (and on [`Evaluate`]):
//! [`draughts`], [`choice`], [`weights`], [`table`], [`features`], [`network`], [`hand`],
//! `squares` (the square sets); [`odd`] stands apart.

pub mod choice;
pub mod draughts;
pub mod features;
pub mod hand;
pub mod network;
pub mod network_simd;
pub mod odd;
#[cfg(test)]
mod reference;
mod squares;
pub mod table;
pub mod weights;

use crate::game::{Game, Outcome};

/// Number of history slots a position family maps its moves to ([`Evaluate::move_slot`]).
pub const HISTORY_SLOTS: usize = 1 << 14;

/// What the search needs from a position type beyond the rules: a static score and a few cheap
/// facts about moves.
pub trait Evaluate: Game + crate::egdb::Probe {
    /// The static score for the side to move, in hundredths of a man; it must stay well inside
    /// `±20_000`, the range below the win scores.
    fn evaluate(&self) -> i32;
    /// The static score where only its side of the window `alpha..beta` matters (the
    /// quiescence search's stand-pat): a game may answer a score far outside the window more
    /// cheaply. By default [`Evaluate::evaluate`].
    fn evaluate_within(&self, _alpha: i32, _beta: i32) -> i32 {
        self.evaluate()
    }
    /// Starts fetching what the evaluation of this position will read (a cache entry), so that
    /// it is on its way while the search does other work first. By default nothing.
    fn prefetch_evaluation(&self) {}
    /// A game end that the position alone decides and that [`Game::outcome`] would report even
    /// though the side to move still has moves (Breakthrough's first king, a counted draw rule).
    /// It must be cheap: it is asked at every node, before move generation. The search asks
    /// [`Game::outcome`] itself when the move list is empty.
    fn quick_outcome(&self) -> Option<Outcome> {
        None
    }
    /// `Some(has_move)` when the side to move certainly has no capture (and then whether it has
    /// any legal move), `None` when it may have one or the game cannot tell cheaply. The
    /// quiescence search stands pat on such a position without generating its quiet moves.
    fn capture_free(&self) -> Option<bool> {
        None
    }
    /// Whether the move crowns a piece; the search does not reduce it. Games without promotion
    /// keep the default.
    fn is_promotion(&self, _mv: &Self::Move) -> bool {
        false
    }
    /// Whether the side to move certainly has a capture to make, known cheaply; the search keeps
    /// the depth of a move near the horizon that leaves the opponent such a position. `false`
    /// when the game cannot tell cheaply.
    fn must_capture(&self) -> bool {
        false
    }
    /// A slot below [`HISTORY_SLOTS`] identifying the move for the history heuristic (from and to).
    fn move_slot(mv: &Self::Move) -> usize;
    /// A rough gain of the move, used to order captures (the number of pieces taken).
    fn move_gain(&self, mv: &Self::Move) -> i32;
}
