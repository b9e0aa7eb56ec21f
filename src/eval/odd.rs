//! Evaluation of the two odd boards, Sixteen Soldiers and MuchADo: the games' own material hooks
//! plus a small term for space.

use super::Evaluate;
use crate::game::{Game, Outcome};
use crate::games::sixteen::NO_CAPTURE_PLIES;
use crate::games::{MuchAdo, Sixteen};

/// Weights of the odd-board evaluations.
#[derive(Clone, Copy, Debug)]
pub struct Weights {
    /// Sixteen Soldiers: bonus per piece that stands on the opponent's half of the board.
    pub sixteen_forward: i32,
    /// MuchADo: multiplier on the game's material hook (soldier 100, king 200, reserve 50).
    pub muchado_material: i32,
}

/// The weights in use.
pub const WEIGHTS: Weights = Weights {
    sixteen_forward: 4,
    muchado_material: 1,
};

impl Evaluate for Sixteen {
    fn evaluate(&self) -> i32 {
        let me = self.side_to_move();
        // South (White) starts on the low points 0..15 and North on 21..36, so a piece beyond the
        // middle point 18 stands on the opponent's half.
        let forward = |side: crate::game::Side, pieces: u64| -> i32 {
            let half = if side == crate::game::Side::White {
                !((1u64 << 19) - 1)
            } else {
                (1u64 << 18) - 1
            };
            (pieces & half).count_ones() as i32
        };
        let space = forward(me, self.pieces(me)) - forward(me.opponent(), self.pieces(me.opponent()));
        self.material() + WEIGHTS.sixteen_forward * space
    }
    fn quick_outcome(&self) -> Option<Outcome> {
        // D-S5: the no-capture draw; `outcome` also decides a loss that comes first.
        if self.rules().no_capture_draw && self.quiet_plies() >= NO_CAPTURE_PLIES {
            return self.outcome();
        }
        None
    }
    fn move_slot(mv: &Self::Move) -> usize {
        (usize::from(mv.from) << 7 | usize::from(mv.to)) & (super::HISTORY_SLOTS - 1)
    }
    fn move_gain(&self, mv: &Self::Move) -> i32 {
        mv.captured.count_ones() as i32
    }
}

impl Evaluate for MuchAdo {
    fn evaluate(&self) -> i32 {
        WEIGHTS.muchado_material * self.material()
    }
    fn move_slot(mv: &Self::Move) -> usize {
        (usize::from(mv.from) << 7 | usize::from(mv.to)) & (super::HISTORY_SLOTS - 1)
    }
    fn move_gain(&self, mv: &Self::Move) -> i32 {
        mv.jumped.count_ones() as i32
    }
}
