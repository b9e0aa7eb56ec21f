//! Evaluation of the square-board family, written once over [`Rules`] so it serves every variant.
//!
//! Terms, each scored for both sides and subtracted: material (kings valued by whether they fly),
//! advancement (tempo, weighted more as the board empties), centre men, flank balance, back-rank
//! guards, runaway men (no enemy piece in the cone ahead) and king mobility.

use super::Evaluate;
use crate::bits::Bits;
use crate::draughts::geom::Geometry;
use crate::draughts::rules::{Goal, Movement, Rules};
use crate::draughts::{BitsOf, Draughts};
use crate::game::{Game, Outcome, Side};

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
/// evaluations (this one and [`crate::eval::pattern`]) count such men.
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

/// The evaluation's square sets of `R`'s board, built at compile time: the terms of
/// [`side_score`] are then a few population counts per side instead of a walk over every man
/// (that walk was a fifth of the search's time). The board is picked by its constants and the
/// table cast to the board's bit-set type, both folded away when compiled.
///
/// # Panics
/// On a board without a table here (a test covers every board of the variants).
#[inline(always)]
pub(crate) fn masks<R: Rules>() -> &'static Masks<B<R>> {
    use std::any::Any;
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
fn drawish<R: Rules>(pos: &Draughts<R>, strong: Side) -> bool {
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

/// The learned evaluation ([`super::pattern`]) with the weights `net`, scaled down like the hand
/// evaluation's when the side ahead likely cannot win against a flying king.
pub fn learned_evaluate<R: Rules>(pos: &Draughts<R>, net: &super::pattern::Net) -> i32 {
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
    if super::weights::network_on::<R>() {
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
        if super::pattern::learnable::<R>() {
            if let Some(net) = super::weights::current::<R>() {
                return learned_evaluate(self, net);
            }
        }
        hand_evaluate(self)
    }
    fn evaluate_within(&self, alpha: i32, beta: i32) -> i32 {
        // With the network, a position the tables put far outside the window keeps the tables'
        // score ([`super::network::WINDOW`]).
        if let Some(nn) = network::<R>() {
            if let Some(net) = super::weights::current::<R>() {
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
    use super::*;
    use crate::draughts::{Canadian, English, International, Italian, Russian, Turkish};
    use crate::game::MoveList;

    /// The terms of [`side_score`] that the square sets replaced, as they were first written: a
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

    /// Visits the positions along `games` pseudo-random games of at most `plies` plies from the
    /// start (a fixed linear congruential sequence from `seed` picks the moves), with each
    /// position's generated moves, so that men stand on every row and column of the board.
    fn along_random_games<R: Rules>(
        mut seed: u64,
        games: usize,
        plies: usize,
        mut visit: impl FnMut(&Draughts<R>, &MoveList<<Draughts<R> as Game>::Move>),
    ) {
        for _game in 0..games {
            let mut pos = Draughts::<R>::start();
            for _ply in 0..plies {
                let mut moves = MoveList::new();
                pos.generate(&mut moves);
                visit(&pos, &moves);
                if moves.is_empty() {
                    break;
                }
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                pos = pos.play(&moves[(seed >> 33) as usize % moves.len()]);
            }
        }
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
        check_board::<<International as HasRules>::R>();
        check_board::<<Russian as HasRules>::R>();
        check_board::<<English as HasRules>::R>();
        check_board::<<Italian as HasRules>::R>();
        check_board::<<Canadian as HasRules>::R>();
        check_board::<<Turkish as HasRules>::R>();
    }

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

    #[test]
    fn every_row_and_both_column_bands_are_squares_of_the_board() {
        let m = masks::<<International as HasRules>::R>();
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
