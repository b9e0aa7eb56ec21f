//! The hand-set evaluation of the square-board family, written once over [`Rules`] so it serves
//! every variant.
//!
//! Terms, each scored for both sides and subtracted: material (kings valued by whether they fly),
//! advancement (tempo, weighted more as the board empties), centre men, flank balance, back-rank
//! guards, runaway men (no enemy piece in the cone ahead) and king mobility.

use super::squares::{Masks, masks};
use crate::bits::Bits;
use crate::draughts::geom::Geometry;
use crate::draughts::rules::{Goal, Movement, Rules};
use crate::draughts::{BitsOf, Draughts};
use crate::game::{Game, Side};

/// The weights of the square-board evaluation, in hundredths of a man.
#[derive(Clone, Copy, Debug)]
pub struct Weights {
    /// A man.
    pub man: i32,
    /// A flying king (International, Russian, Frisian...).
    pub flying_king: i32,
    /// A king that moves one step (English, Italian).
    pub short_king: i32,
    /// Per row a man has advanced, with a full board.
    pub advance_opening: i32,
    /// Per row a man has advanced, with an empty board.
    pub advance_endgame: i32,
    /// A man on the central columns.
    pub centre: i32,
    /// Per man of difference between the two flanks (a penalty).
    pub flank_imbalance: i32,
    /// A man on its own back row while the opponent has no king.
    pub back_guard: i32,
    /// A man with no enemy piece in the cone before it, by rows left to the promotion row (1, 2, 3).
    pub runaway: [i32; 3],
    /// Per empty square a king can move to.
    pub king_mobility: i32,
    /// Per step forward a man can make (the men's freedom of movement: a side that runs out of
    /// moves must give away pieces).
    pub man_mobility: i32,
    /// Divisor of the score when the side ahead cannot force promotion of enough kings to win
    /// against a defending king (see `drawish`).
    pub drawish_divisor: i32,
}

/// The weights in use.
pub const WEIGHTS: Weights = Weights {
    man: 100,
    flying_king: 300,
    short_king: 150,
    advance_opening: 1,
    advance_endgame: 6,
    centre: 4,
    flank_imbalance: 3,
    back_guard: 6,
    runaway: [120, 70, 30],
    king_mobility: 2,
    man_mobility: 3,
    drawish_divisor: 4,
};

type B<R> = BitsOf<R>;

/// The forward cone of a man on `sq` with `to_go` rows left to its promotion row: the squares it
/// could walk through, one square wider each row (`up_left` and `up_right` are its forward
/// steps). A man whose cone holds no enemy piece is a runaway: nothing can stop it crowning. Both
/// evaluations count such men (this one man by man, the linear features of
/// [`crate::eval::features`] by spreading the enemy pieces backwards).
#[inline(always)]
pub(crate) fn cone_ahead<R: Rules>(sq: u32, to_go: u32, up_left: i32, up_right: i32) -> B<R> {
    let valid = <R::Board as Geometry>::VALID;
    let mut cone = B::<R>::bit(sq);
    let mut ahead = B::<R>::EMPTY;
    for _ in 0..to_go {
        cone = (cone.shift(up_left) | cone.shift(up_right)) & valid;
        ahead |= cone;
    }
    ahead
}

/// The score of one side's pieces (positive = good for `side`).
fn side_score<R: Rules>(pos: &Draughts<R>, side: Side, phase: i32, masks: &Masks<B<R>>) -> i32 {
    let w = &WEIGHTS;
    let g_height = <R::Board as Geometry>::HEIGHT;
    let own = pos.pieces(side);
    let opp = pos.pieces(side.opponent());
    let kings = own & pos.kings();
    let men = own & !pos.kings();
    let empty = pos.empty();
    let opp_has_kings = !(opp & pos.kings()).is_empty();

    let king_value = if R::FLYING_KINGS {
        w.flying_king
    } else {
        w.short_king
    };
    let mut score = w.man * men.count() as i32 + king_value * kings.count() as i32;

    // phase: 256 with a full board, 0 with none; tempo matters more as the board empties.
    let advance = (w.advance_opening * phase + w.advance_endgame * (256 - phase)) / 16;
    let white = side == Side::White;
    let (up_left, up_right) = if white {
        (<R::Board as Geometry>::UP_LEFT, <R::Board as Geometry>::UP_RIGHT)
    } else {
        (
            <R::Board as Geometry>::DOWN_LEFT,
            <R::Board as Geometry>::DOWN_RIGHT,
        )
    };
    // Rows left to the promotion row: White promotes on row 0, Black on the last row. A man on
    // row r has advanced height - 1 - to_go rows; within 1..=3 rows of promotion it may run away.
    let (mut adv_sum, mut near) = (0i32, B::<R>::EMPTY);
    for r in 0..g_height.min(16) {
        let on_row = men & masks.rows[r as usize];
        let to_go = if white { r } else { g_height - 1 - r };
        adv_sum += (g_height - 1 - to_go) as i32 * on_row.count() as i32;
        if (1..=3).contains(&to_go) {
            near |= on_row;
        }
    }
    let back = if white {
        <R::Board as Geometry>::BOTTOM_ROW
    } else {
        <R::Board as Geometry>::TOP_ROW
    };
    let guards = if opp_has_kings {
        0
    } else {
        (men & back).count() as i32
    };
    let left = (men & masks.left).count() as i32;
    let right = men.count() as i32 - left;
    let centre = (men & masks.centre).count() as i32;
    for sq in near.iter() {
        let (_, row) = <R::Board as Geometry>::coords(sq);
        let to_go = if white { row } else { g_height - 1 - row };
        if (cone_ahead::<R>(sq, to_go, up_left, up_right) & opp).is_empty() {
            score += w.runaway[to_go as usize - 1];
        }
    }
    score += advance * adv_sum / 16;
    score += w.centre * centre - w.flank_imbalance * (left - right).abs();
    score += w.back_guard * guards * phase / 256;

    if R::MOVEMENT == Movement::Diagonal {
        let steps = (men.shift(up_left) & empty).count() + (men.shift(up_right) & empty).count();
        score += w.man_mobility * steps as i32;
    }

    if !kings.is_empty() {
        let mut mobility = 0;
        for sq in kings.iter() {
            for d in <R::Board as Geometry>::DIAGONALS {
                let mut x = B::<R>::bit(sq).shift(d) & empty;
                while !x.is_empty() {
                    mobility += 1;
                    if !R::FLYING_KINGS {
                        break;
                    }
                    x = x.shift(d) & empty;
                }
            }
        }
        score += w.king_mobility * mobility;
    }
    score
}

/// Whether `strong`, ahead on the board, likely cannot win because the other side has a flying
/// king and `strong` has at most three pieces: with flying kings, one king holding a main diagonal
/// draws against up to three kings (the classic result behind FMJD 6.4's counted endgames).
pub(crate) fn drawish<R: Rules>(pos: &Draughts<R>, strong: Side) -> bool {
    if !R::FLYING_KINGS {
        return false;
    }
    let weak = strong.opponent();
    !(pos.pieces(weak) & pos.kings()).is_empty() && pos.pieces(strong).count() <= 3
}

/// The hand-set evaluation (the one used when the variant has no learned weights).
pub fn hand_evaluate<R: Rules>(pos: &Draughts<R>) -> i32 {
    let me = pos.side_to_move();
    let total = (pos.pieces(Side::White) | pos.pieces(Side::Black)).count() as i32;
    let full = (<R::Board as Geometry>::SQUARES as i32 * 4 / 5).max(1);
    let phase = (total * 256 / full).min(256);
    let masks = masks::<R>();
    let mut score = side_score(pos, me, phase, masks) - side_score(pos, me.opponent(), phase, masks);
    if drawish(pos, if score >= 0 { me } else { me.opponent() }) {
        score /= WEIGHTS.drawish_divisor;
    }
    match R::GOAL {
        // Losing the pieces is the aim: count material the other way round, keep the rest.
        Goal::NoMoveWins => {
            let count = |s: Side| pos.pieces(s).count() as i32;
            -WEIGHTS.man * (count(me) - count(me.opponent()))
        }
        _ => score,
    }
}
