//! The evaluation's square sets of each board (its rows, flanks, centre, how far a man has
//! walked, the rows before promotion), built at compile time so that the hand evaluation's terms
//! and the learned evaluation's linear features are a few population counts instead of a walk
//! over every man; and a board's bit set read as the machine word it is.

use crate::bits::Bits;
use crate::draughts::BitsOf;
use crate::draughts::geom::Geometry;
use crate::draughts::rules::Rules;
use std::any::Any;

type B<R> = BitsOf<R>;

/// Square sets the evaluation counts men in: each row (0 = the top, White's promotion row), the
/// columns left of the middle, and the central columns (the middle half of the board).
pub(crate) struct Masks<X> {
    pub(crate) rows: [X; 16],
    pub(crate) left: X,
    pub(crate) centre: X,
    /// By side: the squares where a man's advancement (rows walked from its own back row) has
    /// bit `k` set, so that the sum over the men is four population counts.
    pub(crate) advance: [[X; 4]; 2],
    /// By side: the squares one to three rows before the side's promotion row.
    pub(crate) near: [X; 2],
}

macro_rules! const_masks {
    ($name:ident, $t:ty) => {
        /// The square sets of a board of `width` x `height`, in the layout of `geom`: a full board
        /// is row-major; a diagonal board packs the `width / 2` dark squares of row r from bit
        /// (r / 2)(width + 3) + (r % 2)(width / 2 + 1), reversed when mirrored, and the dark
        /// squares of a row sit on the odd columns when (r + height) is even (a1 is dark).
        const fn $name(width: u32, height: u32, full: bool, mirrored: bool) -> Masks<$t> {
            let half = width / 2;
            let per_row = if full { width } else { half };
            let mut m = Masks {
                rows: [0; 16],
                left: 0,
                centre: 0,
                advance: [[0; 4]; 2],
                near: [0; 2],
            };
            let mut r = 0;
            while r < height {
                let odd = (((r + height) % 2 == 0) != mirrored) as u32;
                let mut k = 0;
                while k < per_row {
                    let (bit, col) = if full {
                        (r * width + k, k)
                    } else {
                        let slot = if mirrored { half - 1 - k } else { k };
                        (
                            (r / 2) * (2 * half + 3) + (r % 2) * (half + 1) + slot,
                            2 * k + odd,
                        )
                    };
                    let b: $t = 1 << bit;
                    m.rows[r as usize] |= b;
                    if col < width / 2 {
                        m.left |= b;
                    }
                    if col >= width / 4 && col < width - width / 4 {
                        m.centre |= b;
                    }
                    // White walks up from the last row to row 0, Black down from row 0.
                    let walked = [height - 1 - r, r];
                    let mut s = 0;
                    while s < 2 {
                        let mut bit = 0;
                        while bit < 4 {
                            if walked[s] >> bit & 1 != 0 {
                                m.advance[s][bit] |= b;
                            }
                            bit += 1;
                        }
                        let to_go = height - 1 - walked[s];
                        if to_go >= 1 && to_go <= 3 {
                            m.near[s] |= b;
                        }
                        s += 1;
                    }
                    k += 1;
                }
                r += 1;
            }
            m
        }
    };
}
const_masks!(masks_u64, u64);
const_masks!(masks_u128, u128);

static MASKS_8: Masks<u64> = masks_u64(8, 8, false, false);
static MASKS_8_MIRRORED: Masks<u64> = masks_u64(8, 8, false, true);
static MASKS_8_FULL: Masks<u64> = masks_u64(8, 8, true, false);
static MASKS_10: Masks<u64> = masks_u64(10, 10, false, false);
static MASKS_12: Masks<u128> = masks_u128(12, 12, false, false);

/// The evaluation's square sets of `R`'s board, built at compile time: the terms of the hand
/// evaluation ([`super::hand`]) and the linear features ([`super::features`]) are then a few
/// population counts per side instead of a walk over every man (that walk was a fifth of the
/// search's time). The board is picked by its constants and the
/// table cast to the board's bit-set type, both folded away when compiled.
///
/// # Panics
/// On a board without a table here (a test covers every board of the variants).
#[inline(always)]
pub(crate) fn masks<R: Rules>() -> &'static Masks<B<R>> {
    let g = (
        <R::Board as Geometry>::WIDTH,
        <R::Board as Geometry>::HEIGHT,
        <R::Board as Geometry>::FULL,
        <R::Board as Geometry>::MIRRORED,
    );
    let table: &'static dyn Any = match g {
        (8, 8, false, false) => &MASKS_8,
        (8, 8, false, true) => &MASKS_8_MIRRORED,
        (8, 8, true, _) => &MASKS_8_FULL,
        (10, 10, false, false) => &MASKS_10,
        (12, 12, false, false) => &MASKS_12,
        _ => panic!("no evaluation square sets for a {}x{} board", g.0, g.1),
    };
    table
        .downcast_ref::<Masks<B<R>>>()
        .expect("a board's table has the board's bit-set type")
}

/// A bit set as a `u64` (only for types of 64 bits; the check folds away at compile time).
#[inline(always)]
pub(crate) fn as_u64<B: Bits>(x: B) -> u64 {
    match (&x as &dyn Any).downcast_ref::<u64>() {
        Some(v) => *v,
        None => unreachable!("a 64-bit board set is a u64"),
    }
}

/// A bit set as a `u128`.
#[inline(always)]
pub(crate) fn as_u128<B: Bits>(x: B) -> u128 {
    let any = &x as &dyn Any;
    if let Some(v) = any.downcast_ref::<u128>() {
        *v
    } else if let Some(v) = any.downcast_ref::<u64>() {
        u128::from(*v)
    } else {
        unreachable!("board sets are u64 or u128")
    }
}

#[cfg(test)]
mod tests {
    use super::super::reference::along_random_games;
    use super::*;
    use crate::draughts::Draughts;
    use crate::draughts::rules::{
        CanadianRules, EnglishRules, InternationalRules, ItalianRules, RussianRules, TurkishRules,
    };
    use crate::game::{Game, Side};

    /// The terms of the hand evaluation that the square sets replaced, as they were first written: a
    /// walk over every man with its coordinates.
    fn walked_terms<R: Rules>(pos: &Draughts<R>, side: Side) -> (i32, i32, i32, i32, i32) {
        let g_width = <R::Board as Geometry>::WIDTH;
        let g_height = <R::Board as Geometry>::HEIGHT;
        let opp_has_kings = !(pos.pieces(side.opponent()) & pos.kings()).is_empty();
        let men = pos.pieces(side) & !pos.kings();
        let (mut adv, mut left, mut right, mut centre, mut guards) = (0, 0, 0, 0, 0);
        for sq in men.iter() {
            let (col, row) = <R::Board as Geometry>::coords(sq);
            let to_go = if side == Side::White {
                row
            } else {
                g_height - 1 - row
            };
            adv += (g_height - 1 - to_go) as i32;
            if to_go == g_height - 1 && !opp_has_kings {
                guards += 1;
            }
            if col < g_width / 2 {
                left += 1;
            } else {
                right += 1;
            }
            if col >= g_width / 4 && col < g_width - g_width / 4 {
                centre += 1;
            }
        }
        (adv, left, right, centre, guards)
    }

    fn masked_terms<R: Rules>(pos: &Draughts<R>, side: Side) -> (i32, i32, i32, i32, i32) {
        let m = masks::<R>();
        let g_height = <R::Board as Geometry>::HEIGHT;
        let men = pos.pieces(side) & !pos.kings();
        let mut adv = 0;
        for r in 0..g_height {
            let to_go = if side == Side::White { r } else { g_height - 1 - r };
            adv += (g_height - 1 - to_go) as i32 * (men & m.rows[r as usize]).count() as i32;
        }
        let back = if side == Side::White {
            <R::Board as Geometry>::BOTTOM_ROW
        } else {
            <R::Board as Geometry>::TOP_ROW
        };
        let opp_has_kings = !(pos.pieces(side.opponent()) & pos.kings()).is_empty();
        let guards = if opp_has_kings {
            0
        } else {
            (men & back).count() as i32
        };
        let left = (men & m.left).count() as i32;
        (
            adv,
            left,
            men.count() as i32 - left,
            (men & m.centre).count() as i32,
            guards,
        )
    }

    /// The square-set terms against the walk over the men, along pseudo-random games.
    fn check_board<R: Rules>() {
        along_random_games::<R>(12345, 40, 120, |pos, _| {
            for side in [Side::White, Side::Black] {
                assert_eq!(
                    walked_terms(pos, side),
                    masked_terms(pos, side),
                    "{} {}",
                    R::NAME,
                    pos.to_fen()
                );
            }
        });
    }

    #[test]
    fn square_sets_count_what_the_walk_over_the_men_counted() {
        check_board::<InternationalRules>();
        check_board::<RussianRules>();
        check_board::<EnglishRules>();
        check_board::<ItalianRules>();
        check_board::<CanadianRules>();
        check_board::<TurkishRules>();
    }

    #[test]
    fn every_row_and_both_column_bands_are_squares_of_the_board() {
        let m = masks::<InternationalRules>();
        let mut all = 0u64;
        for r in 0..10 {
            assert_eq!(m.rows[r].count(), 5, "row {r}");
            all |= m.rows[r];
        }
        assert_eq!(all, <crate::draughts::geom::Board10 as Geometry>::VALID);
        assert_eq!(m.left.count(), 25);
        // Columns 2 to 7 (c to h): the middle half of ten columns, rounded outwards.
        assert_eq!(m.centre.count(), 30);
    }
}
