//! The learned evaluation of the square-board family: men's patterns in overlapping 4x4 regions
//! plus a few linear terms, each with a middle-game and an endgame weight blended by the number of
//! pieces on the board.
//!
//! # Features
//!
//! - **Regions.** A 4x4 window of the board at even column and row offsets holds 8 dark squares;
//!   each is empty, a man of the side to move or a man of the other side, so a region's
//!   configuration is a number below 3^8 = 6561 and each region has a table of 6561 weights.
//!   Windows overlap by two columns or rows: 16 regions on 10x10, 9 on 8x8, 25 on 12x12. Kings count
//!   as empty squares here: they enter through the linear terms.
//! - **Edge patterns** (optional, [`EDGES`] of them; a net has all or none). The three columns along
//!   each side edge over six rows, at the top and at the bottom of the board (rows 0-5 and the last
//!   six): nine dark squares, 3^9 = 19683 weights each. They see the structure of a flank over
//!   more rows than a 4x4 region does (Scan 2.0's evaluation has patterns of this shape; read, not
//!   copied). Nets without them (weight-file version 1) skip their cost.
//! - **Big windows** (optional, [`Windows`]; a net has all or none). Four columns by six rows
//!   at even column offsets, in a band of rows at the top of the board and one at the bottom
//!   (rows 0-5 and the last six): twelve dark squares, 3^12 = 531,441 weights each. On 10x10 that
//!   is 8 windows (columns 0, 2, 4, 6 by rows 0-5 and 4-9), overlapping by two columns and two
//!   rows; on 8x8 6 windows (columns 0, 2, 4 by rows 0-5 and 2-7); on 12x12 10 (rows 0-5 and
//!   6-11, not overlapping). They see how men of both sides meet over six rows, where a region
//!   sees four (Scan 3's evaluation has windows of this shape; read about, not copied). Each
//!   window has a table of its own: the only symmetry of the evaluation's view, the half turn
//!   with the colours and the side to move swapped, is already spent on seeing the board from
//!   the side to move, and a left-right mirror of an even-width board maps dark squares to light
//!   ones, so no two windows see the same configurations with the same meaning. Nets with them
//!   are weight-file version 3 (17 MB on 10x10).
//! - **King squares** (optional, [`Net::kings`]; weight-file version 4). A weight for each square
//!   a king of the side to move stands on and one for each square a king of the other side stands
//!   on, both seen from the owner's side (the board turned for Black): 2 x 50 on 10x10. The
//!   regions never see kings; this table lets where a king stands count (Scan 2.0 has such a
//!   table; read, not copied).
//! - **Linear terms** ([`LINEAR`], each a difference side to move minus opponent unless noted):
//!   men, kings, having a king at all, advancement (rows each man has walked), runaway men one, two
//!   and three rows from promotion with no enemy piece in the cone ahead, free forward steps of the
//!   men, squares the kings can reach, flank imbalance, a constant (the value of having the
//!   move), and the squares the kings can reach where an enemy man could take them at once (an
//!   enemy man next to the square with an empty square beyond it): with the term before it, the
//!   king's safe and attacked squares weigh apart. Files before version 4 have eleven terms and
//!   read the last one as zero.
//!
//! # Orientation
//!
//! The board is always seen from the side to move: when Black is to move, the men's bit sets are
//! turned 180 degrees and the colours swapped, so "my men" always walk up the board. One table then
//! serves both colours, and because a position and its turned, colour-swapped twin with the other
//! side to move are the same position for the evaluation, the model is symmetric by construction
//! (no augmentation needed). Unlike an antisymmetric `F(pos) - F(flip(pos))`, it can still learn
//! what having the move is worth in each pattern (the tempo): a region with my men facing the
//! opponent's is not the mirror of the same region when it is the opponent's turn.
//!
//! In the padded layout of [`crate::draughts::geom`] the 180-degree turn of a board is the reversal
//! of its `SPAN` bits (bit `b` goes to `SPAN - 1 - b`), one `reverse_bits` and a shift. The two dark
//! squares of a window's row are consecutive bits, so a region's 8 bits of one colour are gathered
//! with four shift-and-mask steps, and a 256-entry table turns the 8 bits of each colour into their
//! ternary value: no per-square loop in the hot path. The search's evaluation goes further where
//! the processor runs BMI2's `pext` fast (and the board fits 64 bits): one `pext` a colour reads a
//! pattern's men straight from the unturned board, under a mask turned in advance for Black, and
//! its weights are summed as they are read (a big window's twelve squares go through a table of
//! 4096 ternary values the same way). That took the search from the International start
//! from 10.6 to 12.0 M nodes/s (same tree, depth 19, on this project's 2-core AMD EPYC machine).
//!
//! Weights are stored as integers in 1/2^[`SHIFT`] hundredths of a man; the score is in hundredths
//! of a man like the hand evaluation's, so the search's margins keep their meaning.

use crate::bits::Bits;
use crate::draughts::geom::Geometry;
use crate::draughts::rules::{Goal, Movement, Rules};
use crate::draughts::{BitsOf, Draughts};
use crate::game::{Game, Side};
use std::any::Any;

/// Dark squares in a region.
pub const REGION_SQUARES: usize = 8;
/// Configurations of a region: 3^8.
pub const ENTRIES: usize = 6561;
/// Most regions of any board (12x12: 5 x 5).
pub const MAX_REGIONS: usize = 25;
/// Dark squares in an edge pattern.
pub const EDGE_SQUARES: usize = 9;
/// Configurations of an edge pattern: 3^9.
pub const EDGE_ENTRIES: usize = 19683;
/// Edge patterns of a net that has them: both side edges, top and bottom.
pub const EDGES: usize = 4;
/// Rows an edge pattern spans.
const EDGE_ROWS: usize = 6;
/// Pattern slots of a position: its regions, then its edge patterns.
pub const MAX_SLOTS: usize = MAX_REGIONS + EDGES;
/// Dark squares in a big window.
pub const WINDOW_SQUARES: usize = 12;
/// Configurations of a big window: 3^12.
pub const WINDOW_ENTRIES: usize = 531_441;
/// Most big windows of any board (12x12: 5 columns x 2 bands).
pub const MAX_WINDOWS: usize = 10;
/// Rows a big window spans.
const WINDOW_ROWS: usize = 6;
/// Number of linear terms.
pub const LINEAR: usize = 12;
/// Linear terms of weight files before version 4 (without the attacked king squares).
pub const LINEAR_V3: usize = 11;
/// Most king-square entries of a position: one per piece, 30 a side on 12x12.
pub const MAX_KING_ENTRIES: usize = 64;
/// Fraction bits of the stored weights: a weight of `w` is worth `w / 2^SHIFT` hundredths of a man.
pub const SHIFT: u32 = 3;
/// The phase of a full board: the blend is `(mg * phase + eg * (PHASE_FULL - phase)) / PHASE_FULL`.
pub const PHASE_FULL: i32 = 256;

/// Names of the linear terms, in the order of the weight file.
pub const LINEAR_NAMES: [&str; LINEAR] = [
    "man",
    "king",
    "has-king",
    "advance",
    "runaway-1",
    "runaway-2",
    "runaway-3",
    "man-mobility",
    "king-mobility",
    "flank-imbalance",
    "side-to-move",
    "king-mobility-attacked",
];
/// Index of the constant term (side to move) among the linear terms.
pub const BIAS: usize = 10;
/// Index of the attacked king squares among the linear terms.
pub const KING_ATTACKED: usize = 11;

/// Whether variant `R` can use a learned evaluation: square boards with dark squares only, and a
/// goal where pieces are worth having (Antidraughts, Turkish and Armenian keep the hand evaluation).
pub const fn learnable<R: Rules>() -> bool {
    !<R::Board as Geometry>::FULL && !matches!(R::GOAL, Goal::NoMoveWins)
}

/// Bit index of the `k`-th square of row `r` in the padded layout of rows of `half` squares (the
/// formula of [`crate::draughts::geom`]; tests check it against [`Geometry::coords`]).
const fn layout_bit(half: u32, r: u32, k: u32) -> u32 {
    (r / 2) * (2 * half + 3) + (r % 2) * (half + 1) + k
}

/// The region windows of a board, as the lowest bit of each of their four rows.
#[derive(Clone, Copy, Debug)]
pub struct Regions {
    /// Number of regions.
    pub count: usize,
    /// For each region, the bit of its first square in each of its four rows (the second square
    /// is the next bit).
    pub starts: [[u8; 4]; MAX_REGIONS],
    /// Bits in the layout: the 180-degree turn maps bit `b` to `span - 1 - b`.
    pub span: u32,
    /// Dark squares in a row (half the width): a band of four rows holds `row - 1` regions, in
    /// the order of their first column.
    pub row: u32,
}

impl Regions {
    /// The regions of a `width` x `height` board (both even, at least 4).
    pub const fn new(width: u32, height: u32) -> Regions {
        let half = width / 2;
        let mut starts = [[0u8; 4]; MAX_REGIONS];
        let mut count = 0;
        let mut r0 = 0;
        while r0 + 4 <= height {
            // Window at column offset 2j: in every row its dark squares are the j-th and
            // (j+1)-th of the row (on mirrored boards the window 2j from the other edge, and the
            // set of windows is the same).
            let mut j = 0;
            while j + 2 <= half {
                let mut t = 0;
                while t < 4 {
                    starts[count][t] = layout_bit(half, r0 + t as u32, j) as u8;
                    t += 1;
                }
                count += 1;
                j += 1;
            }
            r0 += 2;
        }
        Regions {
            count,
            starts,
            span: layout_bit(half, height - 1, half - 1) + 1,
            row: half,
        }
    }

    /// The regions of geometry `G`.
    pub const fn of<G: Geometry>() -> Regions {
        Regions::new(G::WIDTH, G::HEIGHT)
    }
}

/// The edge patterns of a board, as (first bit, squares) of each of their six rows.
#[derive(Clone, Copy, Debug)]
pub struct Edges {
    /// For each edge pattern, the first bit and the number of squares (1 or 2) of its part of each
    /// of its rows, top row first. Order: left edge at the top, right edge at the top, left at the
    /// bottom, right at the bottom.
    pub rows: [[(u8, u8); EDGE_ROWS]; EDGES],
}

impl Edges {
    /// The edge patterns of a `width` x `height` board (both even, at least 6), whose bottom-left
    /// corner is dark unless `mirrored` (the rule of [`Geometry::coords`]).
    pub const fn new(width: u32, height: u32, mirrored: bool) -> Edges {
        let half = width / 2;
        let mut rows = [[(0u8, 0u8); EDGE_ROWS]; EDGES];
        let mut e = 0;
        while e < EDGES {
            let right = e % 2 == 1;
            let r0 = if e < 2 { 0 } else { height - EDGE_ROWS as u32 };
            let mut t = 0;
            while t < EDGE_ROWS {
                let r = r0 + t as u32;
                // Whether this row's dark squares are at odd columns (`Geometry::coords`): then
                // of the three left columns only column 1 is dark and of the right ones w - 3
                // and w - 1; otherwise columns 0 and 2 on the left and w - 2 on the right.
                let odd = ((r + height) % 2 == 0) != mirrored;
                let (k, len) = match (right, odd) {
                    (false, true) => (0, 1),
                    (false, false) => (0, 2),
                    (true, true) => (half - 2, 2),
                    (true, false) => (half - 1, 1),
                };
                // `k` counts the row's squares from the left; a mirrored board's bits run from
                // the right.
                let k = if mirrored { half - k - len } else { k };
                rows[e][t] = (layout_bit(half, r, k) as u8, len as u8);
                t += 1;
            }
            e += 1;
        }
        Edges { rows }
    }

    /// The edge patterns of geometry `G`.
    pub const fn of<G: Geometry>() -> Edges {
        Edges::new(G::WIDTH, G::HEIGHT, G::MIRRORED)
    }
}

/// The big windows of a board, as the lowest bit of each of their six rows.
#[derive(Clone, Copy, Debug)]
pub struct Windows {
    /// Number of windows: two bands of `row - 1` windows each.
    pub count: usize,
    /// For each window, the bit of its first square in each of its six rows (the second square
    /// is the next bit). Order: the top band (rows 0-5) by first column, then the bottom band
    /// (the last six rows).
    pub starts: [[u8; WINDOW_ROWS]; MAX_WINDOWS],
}

impl Windows {
    /// The big windows of a `width` x `height` board (both even, at least 6).
    pub const fn new(width: u32, height: u32) -> Windows {
        let half = width / 2;
        let mut starts = [[0u8; WINDOW_ROWS]; MAX_WINDOWS];
        let mut count = 0;
        let mut band = 0;
        while band < 2 {
            // Rows 0-5 and the last six: on 10x10 they overlap by two rows, on 8x8 by four, and
            // every row of the board is in a band.
            let r0 = if band == 0 { 0 } else { height - WINDOW_ROWS as u32 };
            // As for the regions: the window at column offset 2j holds the j-th and (j+1)-th
            // dark square of each of its rows, whatever the row's parity.
            let mut j = 0;
            while j + 2 <= half {
                let mut t = 0;
                while t < WINDOW_ROWS {
                    starts[count][t] = layout_bit(half, r0 + t as u32, j) as u8;
                    t += 1;
                }
                count += 1;
                j += 1;
            }
            band += 1;
        }
        Windows { count, starts }
    }

    /// The big windows of geometry `G`.
    pub const fn of<G: Geometry>() -> Windows {
        Windows::new(G::WIDTH, G::HEIGHT)
    }
}

/// The ternary values of all `N`-bit numbers (`N` = 2^bits): bit `i` worth `3^i`.
const fn ternary<const N: usize>() -> [u16; N] {
    let mut t = [0u16; N];
    let mut b = 0;
    while b < N {
        let mut v = 0u16;
        let mut p = 1u16;
        let mut i = 0;
        while (1 << i) < N {
            if b & (1 << i) != 0 {
                v += p;
            }
            p *= 3;
            i += 1;
        }
        t[b] = v;
        b += 1;
    }
    t
}

/// The ternary value of 8 bits (a region's squares of one colour).
const TERNARY: [u16; 256] = ternary::<256>();
/// The ternary value of 9 bits (an edge pattern's squares of one colour).
const TERNARY9: [u16; 512] = ternary::<512>();

/// As [`ternary`], in 32 bits: the values of 12 bits reach 3^12 - 1, beyond a `u16`.
const fn ternary_wide<const N: usize>() -> [u32; N] {
    let mut t = [0u32; N];
    let mut b = 0;
    while b < N {
        let mut v = 0u32;
        let mut p = 1u32;
        let mut i = 0;
        while (1 << i) < N {
            if b & (1 << i) != 0 {
                v += p;
            }
            p *= 3;
            i += 1;
        }
        t[b] = v;
        b += 1;
    }
    t
}

/// The ternary value of 12 bits (a big window's squares of one colour): the base-2-to-base-3
/// table of 4096 entries.
const TERNARY12: [u32; 4096] = ternary_wide::<4096>();

/// The ternary values of all `N`-bit numbers read from their top bit down: bit `i` worth
/// `3^(n - 1 - i)` for `N = 2^n`. A pattern's squares gathered from the unturned board when Black
/// is to move come in the reverse of their order on the turned board.
#[cfg(target_arch = "x86_64")]
const fn ternary_reversed<const N: usize>() -> [u16; N] {
    let forward = ternary::<N>();
    let bits = N.trailing_zeros();
    let mut t = [0u16; N];
    let mut b = 0;
    while b < N {
        t[b] = forward[(b as u32).reverse_bits().wrapping_shr(32 - bits) as usize];
        b += 1;
    }
    t
}

/// [`TERNARY`] for the bits in reverse order.
#[cfg(target_arch = "x86_64")]
const TERNARY_REVERSED: [u16; 256] = ternary_reversed::<256>();
/// [`TERNARY9`] for the bits in reverse order.
#[cfg(target_arch = "x86_64")]
const TERNARY9_REVERSED: [u16; 512] = ternary_reversed::<512>();

/// [`TERNARY12`] for the bits in reverse order.
#[cfg(target_arch = "x86_64")]
const TERNARY12_REVERSED: [u32; 4096] = {
    let forward = TERNARY12;
    let mut t = [0u32; 4096];
    let mut b = 0;
    while b < 4096 {
        t[b] = forward[((b as u32).reverse_bits() >> 20) as usize];
        b += 1;
    }
    t
};

/// The machine word a board's bits are gathered from (u64 for 8x8 and 10x10, u128 for 12x12).
trait Word: Copy {
    fn turn(self, span: u32) -> Self;
    /// The `len` bits from bit `s` (one row of the layout, at most 8 bits).
    fn row(self, s: u8, len: u32) -> u64;
}

impl Word for u64 {
    #[inline(always)]
    fn turn(self, span: u32) -> u64 {
        self.reverse_bits() >> (64 - span)
    }
    #[inline(always)]
    fn row(self, s: u8, len: u32) -> u64 {
        (self >> s) & ((1 << len) - 1)
    }
}

impl Word for u128 {
    #[inline(always)]
    fn turn(self, span: u32) -> u128 {
        self.reverse_bits() >> (128 - span)
    }
    #[inline(always)]
    fn row(self, s: u8, len: u32) -> u64 {
        ((self >> s) as u64) & ((1 << len) - 1)
    }
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
fn as_u128<B: Bits>(x: B) -> u128 {
    let any = &x as &dyn Any;
    if let Some(v) = any.downcast_ref::<u128>() {
        *v
    } else if let Some(v) = any.downcast_ref::<u64>() {
        u128::from(*v)
    } else {
        unreachable!("board sets are u64 or u128")
    }
}

/// The region configurations, band of four rows by band. A band's rows are packed one to a byte,
/// my men in the low half of a word and the other side's in the high half; the region at column
/// offset `j` is then the two bits at `j` of every byte, brought together by three shifts, for
/// both colours at once. (Reading each region's eight squares pair by pair from the board, with
/// shifts by amounts looked up in a table, was about half the evaluation's time.)
#[inline(always)]
fn gather<W: Word>(mine: W, theirs: W, turn: bool, regions: &Regions, out: &mut [u16]) {
    let (mine, theirs) = if turn {
        (mine.turn(regions.span), theirs.turn(regions.span))
    } else {
        (mine, theirs)
    };
    let per_band = regions.row as usize - 1;
    for (band, first) in regions.starts[..regions.count]
        .iter()
        .step_by(per_band)
        .enumerate()
    {
        let mut z = 0u64;
        for (t, &s) in first.iter().enumerate() {
            z |= mine.row(s, regions.row) << (8 * t) | theirs.row(s, regions.row) << (32 + 8 * t);
        }
        for (j, slot) in out[band * per_band..(band + 1) * per_band].iter_mut().enumerate() {
            let w = (z >> j) & 0x0303_0303_0303_0303;
            let c = w | w >> 6 | w >> 12 | w >> 18;
            *slot = TERNARY[(c & 0xFF) as usize] + 2 * TERNARY[((c >> 32) & 0xFF) as usize];
        }
    }
}

/// The edge-pattern configurations: each pattern's squares gathered row by row into nine bits a
/// colour, then turned into their ternary value.
#[inline(always)]
fn gather_edges<W: Word>(mine: W, theirs: W, turn: bool, span: u32, edges: &Edges, out: &mut [u16]) {
    let (mine, theirs) = if turn {
        (mine.turn(span), theirs.turn(span))
    } else {
        (mine, theirs)
    };
    for (rows, slot) in edges.rows.iter().zip(out.iter_mut()) {
        let (mut m, mut t, mut at) = (0u64, 0u64, 0);
        for &(s, len) in rows {
            m |= mine.row(s, u32::from(len)) << at;
            t |= theirs.row(s, u32::from(len)) << at;
            at += len;
        }
        *slot = TERNARY9[m as usize] + 2 * TERNARY9[t as usize];
    }
}

/// The big-window configurations, band of six rows by band: as [`gather`] does for the regions,
/// a band's rows are packed one to a byte (one word a colour, six rows need six bytes), and the
/// window at column offset `j` is the two bits at `j` of every byte, brought together by three
/// shifts; [`TERNARY12`] turns each colour's twelve bits into their ternary value.
#[inline(always)]
fn gather_windows<W: Word>(
    mine: W,
    theirs: W,
    turn: bool,
    span: u32,
    row: u32,
    windows: &Windows,
    out: &mut [u32],
) {
    let (mine, theirs) = if turn {
        (mine.turn(span), theirs.turn(span))
    } else {
        (mine, theirs)
    };
    let per_band = row as usize - 1;
    for (band, first) in windows.starts[..windows.count]
        .iter()
        .step_by(per_band)
        .enumerate()
    {
        let (mut zm, mut zt) = (0u64, 0u64);
        for (t, &s) in first.iter().enumerate() {
            zm |= mine.row(s, row) << (8 * t);
            zt |= theirs.row(s, row) << (8 * t);
        }
        // Six 2-bit fields at a stride of 8 bits to a stride of 2: first pairs of rows into
        // 4-bit groups at a stride of 16, then the groups together. (The four rows of a region
        // can be shifted into place at once; with six, a row would land on another's bits.)
        let pack = |z: u64, j: usize| {
            let w = (z >> j) & 0x0303_0303_0303;
            let x = (w | w >> 6) & 0x000F_000F_000F;
            ((x | x >> 12 | x >> 24) & 0xFFF) as usize
        };
        for (j, slot) in out[band * per_band..(band + 1) * per_band].iter_mut().enumerate() {
            *slot = TERNARY12[pack(zm, j)] + 2 * TERNARY12[pack(zt, j)];
        }
    }
}

/// The features of a position, from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Number of regions in use.
    pub regions: usize,
    /// Number of edge patterns computed: [`EDGES`] or 0.
    pub edges: usize,
    /// Configuration of each region (below [`ENTRIES`]), then of each edge pattern (below
    /// [`EDGE_ENTRIES`]).
    pub index: [u16; MAX_SLOTS],
    /// Number of big windows computed: the board's [`Windows::count`] or 0.
    pub windows: usize,
    /// Configuration of each big window (below [`WINDOW_ENTRIES`]; 0 when not computed).
    pub window: [u32; MAX_WINDOWS],
    /// Number of king-square entries: one per king on the board.
    pub kings: usize,
    /// The entry of each king in a net's king table ([`king_indices`]).
    pub king: [u16; MAX_KING_ENTRIES],
    /// The linear terms.
    pub linear: [i32; LINEAR],
    /// 0 (empty board) to [`PHASE_FULL`] (four fifths of the squares occupied or more).
    pub phase: i32,
}

/// The region configurations of `pos`, written to `out` (one per region of the board).
#[inline(always)]
pub fn region_indices<R: Rules>(pos: &Draughts<R>, out: &mut [u16]) {
    let regions = const { Regions::of::<R::Board>() };
    let me = pos.side_to_move();
    let men = !pos.kings();
    let mine = pos.pieces(me) & men;
    let theirs = pos.pieces(me.opponent()) & men;
    let turn = me == Side::Black;
    if <BitsOf<R> as Bits>::WIDTH <= 64 {
        gather(as_u64(mine), as_u64(theirs), turn, &regions, out);
    } else {
        gather(as_u128(mine), as_u128(theirs), turn, &regions, out);
    }
}

/// The linear terms of one side, before the difference.
#[inline(always)]
fn side_terms<R: Rules>(pos: &Draughts<R>, side: Side, t: &mut [i32; LINEAR], sign: i32) {
    let height = <R::Board as Geometry>::HEIGHT;
    let own = pos.pieces(side);
    let opp = pos.pieces(side.opponent());
    let kings = own & pos.kings();
    let men = own & !pos.kings();
    let empty = pos.empty();
    let (up_left, up_right) = if side == Side::White {
        (<R::Board as Geometry>::UP_LEFT, <R::Board as Geometry>::UP_RIGHT)
    } else {
        (
            <R::Board as Geometry>::DOWN_LEFT,
            <R::Board as Geometry>::DOWN_RIGHT,
        )
    };
    t[0] += sign * men.count() as i32;
    t[1] += sign * kings.count() as i32;
    t[2] += sign * i32::from(!kings.is_empty());
    // Advancement and the flanks from the evaluation's square sets (a few population counts);
    // only the men near promotion, usually none, are visited one by one. The walk over every man
    // with its coordinates that this replaced cost about 15 % of the search's CPU time (International,
    // depth 17 from the start, `perf stat`).
    let masks = crate::eval::draughts::masks::<R>();
    let s = side.index();
    let mut advance = 0i32;
    for (k, m) in masks.advance[s].iter().enumerate() {
        advance += ((men & *m).count() as i32) << k;
    }
    let left = (men & masks.left).count() as i32;
    let right = men.count() as i32 - left;
    // Runaway men: a man `k` rows before its promotion row (k = 1, 2, 3) with no enemy piece in
    // the cone ahead of it. A man's cone of depth `k` holds an enemy piece exactly when the man
    // stands on the enemy pieces spread backwards (towards the man's own side) by at most `k`
    // diagonal steps, so three spreads serve every man at once.
    let near = men & masks.near[s];
    if !near.is_empty() {
        let (back_left, back_right) = (-up_right, -up_left);
        let valid = <R::Board as Geometry>::VALID;
        let (mut front, mut blocked) = (opp, BitsOf::<R>::EMPTY);
        for to_go in 1..=3u32 {
            front = (front.shift(back_left) | front.shift(back_right)) & valid;
            blocked |= front;
            // Rows left to the promotion row: White promotes on row 0, Black on the last row.
            let row = if side == Side::White {
                to_go
            } else {
                height - 1 - to_go
            };
            let free = near & masks.rows[row as usize] & !blocked;
            t[3 + to_go as usize] += sign * free.count() as i32;
        }
    }
    t[3] += sign * advance;
    t[9] += sign * (left - right).abs();
    if R::MOVEMENT == Movement::Diagonal {
        let steps = (men.shift(up_left) & empty).count() + (men.shift(up_right) & empty).count();
        t[7] += sign * steps as i32;
    }
    if !kings.is_empty() {
        // The empty squares where an enemy man could take a king at once: the man next to the
        // square, the square beyond it on the same diagonal empty.
        let enemy_men = opp & !pos.kings();
        let mut danger = BitsOf::<R>::EMPTY;
        for d in <R::Board as Geometry>::DIAGONALS {
            danger |= enemy_men.shift(d) & empty.shift(-d);
        }
        danger &= empty;
        let (mut mobility, mut attacked) = (0, 0);
        for sq in kings.iter() {
            for d in <R::Board as Geometry>::DIAGONALS {
                let mut x = BitsOf::<R>::bit(sq).shift(d) & empty;
                while !x.is_empty() {
                    mobility += 1;
                    attacked += i32::from(!(x & danger).is_empty());
                    if !R::FLYING_KINGS {
                        break;
                    }
                    x = x.shift(d) & empty;
                }
            }
        }
        t[8] += sign * mobility;
        t[KING_ATTACKED] += sign * attacked;
    }
}

/// The phase of a position: [`PHASE_FULL`] with four fifths of the squares occupied or more, 0
/// with an empty board (the hand evaluation's measure).
#[inline(always)]
pub fn phase<R: Rules>(pos: &Draughts<R>) -> i32 {
    let total = (pos.pieces(Side::White) | pos.pieces(Side::Black)).count() as i32;
    let full = (<R::Board as Geometry>::SQUARES as i32 * 4 / 5).max(1);
    (total * PHASE_FULL / full).min(PHASE_FULL)
}

/// The king-table entries of `pos`, written to `out`, and their number: for a king of the side to
/// move its square seen from that side (0 to squares - 1), for a king of the other side its square
/// seen from that side plus the number of squares. Squares are numbered from 0 as the board
/// numbers them ([`Geometry::BIT_TO_SQUARE`]), and a side sees the board turned (bit `b` at
/// `span - 1 - b`) when it is Black.
#[inline(always)]
pub fn king_indices<R: Rules>(pos: &Draughts<R>, out: &mut [u16; MAX_KING_ENTRIES]) -> usize {
    let span = const { Regions::of::<R::Board>().span };
    let squares = <R::Board as Geometry>::SQUARES;
    let table = <R::Board as Geometry>::BIT_TO_SQUARE;
    let me = pos.side_to_move();
    let mut n = 0;
    for (side, offset) in [(me, 0), (me.opponent(), squares)] {
        let turn = side == Side::Black;
        for b in (pos.pieces(side) & pos.kings()).iter() {
            let seen = if turn { span - 1 - b } else { b };
            if n < MAX_KING_ENTRIES {
                out[n] = (offset + usize::from(table[seen as usize])) as u16;
                n += 1;
            }
        }
    }
    n
}

/// The edge-pattern configurations of `pos`, written to `out` ([`EDGES`] of them).
#[inline(always)]
pub fn edge_indices<R: Rules>(pos: &Draughts<R>, out: &mut [u16]) {
    let edges = const { Edges::of::<R::Board>() };
    let span = const { Regions::of::<R::Board>().span };
    let me = pos.side_to_move();
    let men = !pos.kings();
    let mine = pos.pieces(me) & men;
    let theirs = pos.pieces(me.opponent()) & men;
    let turn = me == Side::Black;
    if <BitsOf<R> as Bits>::WIDTH <= 64 {
        gather_edges(as_u64(mine), as_u64(theirs), turn, span, &edges, out);
    } else {
        gather_edges(as_u128(mine), as_u128(theirs), turn, span, &edges, out);
    }
}

/// The big-window configurations of `pos`, written to `out` (one per window of the board).
#[inline(always)]
pub fn window_indices<R: Rules>(pos: &Draughts<R>, out: &mut [u32]) {
    let windows = const { Windows::of::<R::Board>() };
    let regions = const { Regions::of::<R::Board>() };
    let me = pos.side_to_move();
    let men = !pos.kings();
    let mine = pos.pieces(me) & men;
    let theirs = pos.pieces(me.opponent()) & men;
    let turn = me == Side::Black;
    if <BitsOf<R> as Bits>::WIDTH <= 64 {
        gather_windows(
            as_u64(mine),
            as_u64(theirs),
            turn,
            regions.span,
            regions.row,
            &windows,
            out,
        );
    } else {
        gather_windows(
            as_u128(mine),
            as_u128(theirs),
            turn,
            regions.span,
            regions.row,
            &windows,
            out,
        );
    }
}

/// All features of `pos`, the edge patterns and big windows included.
#[inline(always)]
pub fn features<R: Rules>(pos: &Draughts<R>) -> Features {
    features_of(pos, true, true)
}

/// The features of `pos` without big windows; the edge patterns only when `edges` (their slots
/// stay 0 otherwise).
#[inline(always)]
pub fn features_with<R: Rules>(pos: &Draughts<R>, edges: bool) -> Features {
    features_of(pos, edges, false)
}

/// The features of `pos`; the edge patterns only when `edges`, the big windows only when
/// `windows` (slots not computed stay 0).
#[inline(always)]
pub fn features_of<R: Rules>(pos: &Draughts<R>, edges: bool, windows: bool) -> Features {
    let regions = const { Regions::of::<R::Board>() };
    let mut f = Features {
        regions: regions.count,
        edges: if edges { EDGES } else { 0 },
        index: [0; MAX_SLOTS],
        windows: 0,
        window: [0; MAX_WINDOWS],
        kings: 0,
        king: [0; MAX_KING_ENTRIES],
        linear: [0; LINEAR],
        phase: phase(pos),
    };
    f.kings = king_indices(pos, &mut f.king);
    region_indices(pos, &mut f.index);
    if edges {
        edge_indices(pos, &mut f.index[regions.count..regions.count + EDGES]);
    }
    if windows {
        f.windows = const { Windows::of::<R::Board>().count };
        window_indices(pos, &mut f.window);
    }
    f.linear = linear_terms(pos);
    f
}

/// The linear terms of `pos`, side to move minus opponent.
#[inline(always)]
fn linear_terms<R: Rules>(pos: &Draughts<R>) -> [i32; LINEAR] {
    let mut t = [0; LINEAR];
    let me = pos.side_to_move();
    side_terms(pos, me, &mut t, 1);
    side_terms(pos, me.opponent(), &mut t, -1);
    t[BIAS] = 1;
    t
}

/// The blend of a middle-game and an endgame sum by `phase`, in hundredths of a man.
#[inline(always)]
fn blend(mg: i32, eg: i32, phase: i32) -> i32 {
    let blended = (i64::from(mg) * i64::from(phase) + i64::from(eg) * i64::from(PHASE_FULL - phase))
        / i64::from(PHASE_FULL);
    (blended / (1 << SHIFT)) as i32
}

/// Each pattern slot's squares as a bit set of the unturned board, for each side to move (index
/// [`Side::index`]): when Black is to move, the turned board's squares turned back. With these an
/// instruction that gathers the bits under a mask (BMI2's `pext`) reads a slot's men of one colour
/// at once, in the order of the slot's squares (reversed when Black is to move).
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug)]
struct SlotMasks {
    masks: [[u64; MAX_SLOTS]; 2],
    /// The big windows' masks, the same way.
    windows: [[u64; MAX_WINDOWS]; 2],
}

#[cfg(target_arch = "x86_64")]
impl SlotMasks {
    /// The masks of geometry `G`; all zero on boards of more than 64 bits, which do not use them.
    const fn of<G: Geometry>() -> SlotMasks {
        let regions = Regions::of::<G>();
        let edges = Edges::of::<G>();
        let big = Windows::of::<G>();
        let mut masks = [[0u64; MAX_SLOTS]; 2];
        let mut windows = [[0u64; MAX_WINDOWS]; 2];
        if regions.span > 64 {
            return SlotMasks { masks, windows };
        }
        let mut r = 0;
        while r < regions.count {
            let mut t = 0;
            while t < 4 {
                masks[0][r] |= 3 << regions.starts[r][t];
                t += 1;
            }
            r += 1;
        }
        let mut e = 0;
        while e < EDGES {
            let mut t = 0;
            while t < EDGE_ROWS {
                let (s, len) = edges.rows[e][t];
                masks[0][regions.count + e] |= ((1 << len) - 1) << s;
                t += 1;
            }
            e += 1;
        }
        let mut i = 0;
        while i < regions.count + EDGES {
            masks[1][i] = masks[0][i].reverse_bits() >> (64 - regions.span);
            i += 1;
        }
        let mut w = 0;
        while w < big.count {
            let mut t = 0;
            while t < WINDOW_ROWS {
                windows[0][w] |= 3 << big.starts[w][t];
                t += 1;
            }
            windows[1][w] = windows[0][w].reverse_bits() >> (64 - regions.span);
            w += 1;
        }
        SlotMasks { masks, windows }
    }
}

/// Whether this machine has BMI2's `pext` and runs it fast. AMD processors before Zen 3 (family
/// 0x19), and Hygon's (built on Zen 1), have the instruction but run it in microcode, many times
/// slower than the shifts it replaces.
#[cfg(target_arch = "x86_64")]
fn fast_pext() -> bool {
    static FAST: std::sync::LazyLock<bool> = std::sync::LazyLock::new(|| {
        if !std::arch::is_x86_feature_detected!("bmi2") {
            return false;
        }
        let (vendor, signature) = (std::arch::x86_64::__cpuid(0), std::arch::x86_64::__cpuid(1).eax);
        // "AuthenticAMD" in EBX, EDX, ECX.
        let amd = vendor.ebx == 0x6874_7541 && vendor.edx == 0x6974_6e65 && vendor.ecx == 0x444d_4163;
        // "HygonGenuine".
        if vendor.ebx == 0x6f67_7948 && vendor.edx == 0x6e65_476e && vendor.ecx == 0x656e_6975 {
            return false;
        }
        let base = (signature >> 8) & 0xF;
        let family = if base == 0xF {
            base + ((signature >> 20) & 0xFF)
        } else {
            base
        };
        !(amd && family < 0x19)
    });
    *FAST
}

/// Where pattern slot `s` of a board with `regions` regions starts in a net's table: the regions'
/// tables of [`ENTRIES`] weights, then the edge patterns' of [`EDGE_ENTRIES`].
pub const fn slot_base(regions: usize, s: usize) -> usize {
    if s < regions {
        s * ENTRIES
    } else {
        regions * ENTRIES + (s - regions) * EDGE_ENTRIES
    }
}

/// Entries of the king table of a `width` x `height` board: twice its dark squares (the side to
/// move's kings, then the other side's), which are half the board.
pub const fn king_entries(width: u32, height: u32) -> usize {
    (width * height) as usize
}

/// Where big window `w` starts in the table of a net with `regions` regions and `edges` edge
/// patterns: after the regions' and the edge patterns' tables.
pub const fn window_base(regions: usize, edges: usize, w: usize) -> usize {
    regions * ENTRIES + edges * EDGE_ENTRIES + w * WINDOW_ENTRIES
}

/// Learned weights of one variant, as integers (see [`SHIFT`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Net {
    /// The variant's canonical name.
    pub variant: String,
    /// Board columns.
    pub width: u32,
    /// Board rows.
    pub height: u32,
    /// Number of regions.
    pub regions: usize,
    /// Number of edge patterns: [`EDGES`] or 0.
    pub edges: usize,
    /// Number of big windows: the board's [`Windows::count`] or 0.
    pub windows: usize,
    /// Entries of the king table: twice the board's dark squares (the side to move's kings, then the
    /// other side's; [`king_indices`]) or 0.
    pub kings: usize,
    /// Middle-game and endgame weight of each region's configurations, `regions * ENTRIES` pairs
    /// region by region, then of each edge pattern's, `edges * EDGE_ENTRIES` pairs, then of
    /// each big window's, `windows * WINDOW_ENTRIES` pairs, then the king table's `kings` pairs.
    pub patterns: Vec<[i16; 2]>,
    /// Middle-game and endgame weight of each linear term.
    pub linear: [[i32; 2]; LINEAR],
    /// The scale of the logistic curve the weights were fitted with: a score `s` means a winning
    /// expectation of `1 / (1 + exp(-s / k))` (informative; the evaluation does not use it).
    pub k: f32,
}

impl Net {
    /// A net for variant `R` without edge patterns, the pattern weights at zero and the linear
    /// ones at the hand evaluation's material values.
    pub fn initial<R: Rules>() -> Net {
        Net::initial_with::<R>(false)
    }

    /// As [`Net::initial`], with the edge patterns (at zero) when `edges`.
    pub fn initial_with<R: Rules>(edges: bool) -> Net {
        Net::initial_of::<R>(edges, false)
    }

    /// As [`Net::initial`], with the edge patterns when `edges` and the big windows when
    /// `windows` (their weights at zero).
    pub fn initial_of<R: Rules>(edges: bool, windows: bool) -> Net {
        let regions = Regions::of::<R::Board>().count;
        let edges = if edges { EDGES } else { 0 };
        let one = 1 << SHIFT;
        let mut linear = [[0; 2]; LINEAR];
        linear[0] = [100 * one; 2];
        let king = if R::FLYING_KINGS { 300 } else { 150 };
        linear[1] = [king * one; 2];
        Net {
            variant: R::NAME.to_string(),
            width: <R::Board as Geometry>::WIDTH,
            height: <R::Board as Geometry>::HEIGHT,
            regions,
            edges,
            windows: 0,
            kings: 0,
            patterns: vec![[0; 2]; regions * ENTRIES + edges * EDGE_ENTRIES],
            linear,
            k: 0.0,
        }
        .with_windows(windows)
    }

    /// This net with big windows whose weights are zero added when `windows` and it has none:
    /// it scores every position as before, and a fit started from it learns the windows as
    /// corrections of its evaluation.
    pub fn with_windows(mut self, windows: bool) -> Net {
        if windows && self.windows == 0 {
            // The windows go before the king table: move it up.
            let kings = self.patterns.split_off(self.king_base());
            self.windows = Windows::new(self.width, self.height).count;
            self.patterns
                .resize(self.patterns.len() + self.windows * WINDOW_ENTRIES, [0; 2]);
            self.patterns.extend(kings);
        }
        self
    }

    /// This net with a king table whose weights are zero added when `kings` and it has none (it
    /// scores every position as before).
    pub fn with_kings(mut self, kings: bool) -> Net {
        if kings && self.kings == 0 {
            self.kings = king_entries(self.width, self.height);
            self.patterns.resize(self.patterns.len() + self.kings, [0; 2]);
        }
        self
    }

    /// The middle-game and endgame sums of the king-table weights of `entries`
    /// ([`king_indices`]).
    #[inline(always)]
    fn king_sums(&self, entries: &[u16]) -> (i32, i32) {
        let table = &self.patterns[self.king_base()..];
        entries.iter().fold((0, 0), |(mg, eg), &i| {
            let w = table[usize::from(i)];
            (mg + i32::from(w[0]), eg + i32::from(w[1]))
        })
    }

    /// Where the king table starts in [`Net::patterns`]: after every pattern's table.
    #[inline(always)]
    pub fn king_base(&self) -> usize {
        window_base(self.regions, self.edges, self.windows)
    }

    /// Where big window `w`'s weights start in [`Net::patterns`]: after the regions' and the
    /// edge patterns' tables.
    #[inline(always)]
    pub fn window_base(&self, w: usize) -> usize {
        window_base(self.regions, self.edges, w)
    }

    /// Where slot `s`'s weights start in [`Net::patterns`]: the regions' tables, then the edge
    /// patterns'.
    pub fn base(&self, s: usize) -> usize {
        slot_base(self.regions, s)
    }

    /// Pattern slots a position: regions, edge patterns and big windows (the king table, whose
    /// entries vary with the kings on the board, is not a slot).
    pub fn slots(&self) -> usize {
        self.regions + self.edges + self.windows
    }

    /// The score of features `f` (computed with this net's edge patterns and big windows,
    /// [`features_of`]) in
    /// hundredths of a man, for the side to move.
    #[inline(always)]
    pub fn score(&self, f: &Features) -> i32 {
        let (mut mg, mut eg) = (0i32, 0i32);
        for (r, &i) in f.index[..f.regions].iter().enumerate() {
            let w = self.patterns[r * ENTRIES + usize::from(i)];
            mg += i32::from(w[0]);
            eg += i32::from(w[1]);
        }
        if self.edges > 0 {
            let base = f.regions * ENTRIES;
            for (e, &i) in f.index[f.regions..f.regions + EDGES].iter().enumerate() {
                let w = self.patterns[base + e * EDGE_ENTRIES + usize::from(i)];
                mg += i32::from(w[0]);
                eg += i32::from(w[1]);
            }
        }
        if self.windows > 0 {
            for (k, &i) in f.window[..self.windows].iter().enumerate() {
                let w = self.patterns[self.window_base(k) + i as usize];
                mg += i32::from(w[0]);
                eg += i32::from(w[1]);
            }
        }
        if self.kings > 0 {
            let (m, e) = self.king_sums(&f.king[..f.kings]);
            mg += m;
            eg += e;
        }
        for (w, &x) in self.linear.iter().zip(&f.linear) {
            mg += w[0] * x;
            eg += w[1] * x;
        }
        blend(mg, eg, f.phase)
    }

    /// The score of `pos` in hundredths of a man, for the side to move, kept within ±15,000: the
    /// score of its [`features_of`] this net's edge patterns and big windows, the weights summed
    /// as the features are read instead of from a [`Features`] built first.
    #[inline(always)]
    pub fn evaluate<R: Rules>(&self, pos: &Draughts<R>) -> i32 {
        let (mut mg, mut eg) = self.pattern_sums(pos);
        if self.kings > 0 && !pos.kings().is_empty() {
            let mut king = [0u16; MAX_KING_ENTRIES];
            let n = king_indices(pos, &mut king);
            let (m, e) = self.king_sums(&king[..n]);
            mg += m;
            eg += e;
        }
        for (w, x) in self.linear.iter().zip(linear_terms(pos)) {
            mg += w[0] * x;
            eg += w[1] * x;
        }
        blend(mg, eg, phase(pos)).clamp(-15_000, 15_000)
    }

    /// The middle-game and endgame sums of the pattern weights of `pos`: with `pext` where the
    /// machine runs it fast and the board fits 64 bits, by shifts otherwise.
    #[inline(always)]
    fn pattern_sums<R: Rules>(&self, pos: &Draughts<R>) -> (i32, i32) {
        #[cfg(target_arch = "x86_64")]
        if <BitsOf<R> as Bits>::WIDTH <= 64 && fast_pext() {
            // SAFETY: `fast_pext` has checked that the processor has BMI2, the one requirement of
            // a function compiled with it enabled.
            #[allow(unsafe_code)]
            return unsafe { self.pattern_sums_pext(pos) };
        }
        self.pattern_sums_by_shifts(pos)
    }

    /// [`Net::pattern_sums`] from the indices of [`region_indices`], [`edge_indices`] and
    /// [`window_indices`].
    #[inline(always)]
    fn pattern_sums_by_shifts<R: Rules>(&self, pos: &Draughts<R>) -> (i32, i32) {
        let regions = const { Regions::of::<R::Board>().count };
        let mut index = [0u16; MAX_SLOTS];
        region_indices(pos, &mut index);
        let slots = if self.edges > 0 {
            edge_indices(pos, &mut index[regions..regions + EDGES]);
            regions + EDGES
        } else {
            regions
        };
        let (mut mg, mut eg) = (0i32, 0i32);
        for (s, &i) in index[..slots].iter().enumerate() {
            let w = self.patterns[slot_base(regions, s) + usize::from(i)];
            mg += i32::from(w[0]);
            eg += i32::from(w[1]);
        }
        if self.windows > 0 {
            let mut window = [0u32; MAX_WINDOWS];
            window_indices(pos, &mut window);
            for (k, &i) in window[..self.windows].iter().enumerate() {
                let w = self.patterns[self.window_base(k) + i as usize];
                mg += i32::from(w[0]);
                eg += i32::from(w[1]);
            }
        }
        (mg, eg)
    }

    /// [`Net::pattern_sums`] with `pext`: each slot's men of one colour gathered under its mask,
    /// on the unturned board (for a board of at most 64 bits). Only for a processor with BMI2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2")]
    fn pattern_sums_pext<R: Rules>(&self, pos: &Draughts<R>) -> (i32, i32) {
        let me = pos.side_to_move();
        let men = !pos.kings();
        let mine = as_u64(pos.pieces(me) & men);
        let theirs = as_u64(pos.pieces(me.opponent()) & men);
        if me == Side::White {
            self.sums_under::<R, false>(mine, theirs)
        } else {
            self.sums_under::<R, true>(mine, theirs)
        }
    }

    /// The pattern sums of a side to move's men `mine` and the other side's `theirs`, Black to
    /// move when `BLACK`. One function a side to move, so that each is unrolled with its masks as
    /// constants.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2")]
    fn sums_under<R: Rules, const BLACK: bool>(&self, mine: u64, theirs: u64) -> (i32, i32) {
        use std::arch::x86_64::_pext_u64;
        let regions = const { Regions::of::<R::Board>().count };
        let masks = const { SlotMasks::of::<R::Board>().masks[BLACK as usize] };
        let (t8, t9) = if BLACK {
            (&TERNARY_REVERSED, &TERNARY9_REVERSED)
        } else {
            (&TERNARY, &TERNARY9)
        };
        // The masks select 8 or 9 squares: the `&` tells the compiler what `pext` returns, and
        // the table reads need no bounds check.
        let (mut mg, mut eg) = (0i32, 0i32);
        let mut add = |r: usize, m: u64| {
            let i = t8[(_pext_u64(mine, m) & 0xFF) as usize] + 2 * t8[(_pext_u64(theirs, m) & 0xFF) as usize];
            let w = self.patterns[r * ENTRIES + usize::from(i)];
            mg += i32::from(w[0]);
            eg += i32::from(w[1]);
        };
        // By fours: the compiler unrolls a loop of four, not one of sixteen.
        let quads = masks[..regions].chunks_exact(4);
        let rest = quads.remainder();
        for (q, quad) in quads.enumerate() {
            for (k, &m) in quad.iter().enumerate() {
                add(4 * q + k, m);
            }
        }
        for (k, &m) in rest.iter().enumerate() {
            add(regions - rest.len() + k, m);
        }
        if self.edges > 0 {
            for (e, &m) in masks[regions..regions + EDGES].iter().enumerate() {
                let i = t9[(_pext_u64(mine, m) & 0x1FF) as usize]
                    + 2 * t9[(_pext_u64(theirs, m) & 0x1FF) as usize];
                let w = self.patterns[slot_base(regions, regions + e) + usize::from(i)];
                mg += i32::from(w[0]);
                eg += i32::from(w[1]);
            }
        }
        if self.windows > 0 {
            let wmasks = const { SlotMasks::of::<R::Board>().windows[BLACK as usize] };
            let count = const { Windows::of::<R::Board>().count };
            let t12 = if BLACK { &TERNARY12_REVERSED } else { &TERNARY12 };
            let base = self.window_base(0);
            for (k, &m) in wmasks[..count].iter().enumerate() {
                let i = t12[(_pext_u64(mine, m) & 0xFFF) as usize]
                    + 2 * t12[(_pext_u64(theirs, m) & 0xFFF) as usize];
                let w = self.patterns[base + k * WINDOW_ENTRIES + i as usize];
                mg += i32::from(w[0]);
                eg += i32::from(w[1]);
            }
        }
        (mg, eg)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::rules::{
        BrazilianRules, CanadianRules, EnglishRules, InternationalRules, ItalianRules, RussianRules,
    };
    use crate::game::MoveList;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The configuration of the dark squares in columns `c0..c0 + cols` of rows `r0..r0 + rows`,
    /// from coordinates alone and the side to move's view (the board turned when Black moves):
    /// row by row, by bit within a row, each square 0 empty or king, 1 a man of the side to move,
    /// 2 one of the other side's. Also the number of squares read.
    fn reference_window<R: Rules>(pos: &Draughts<R>, c0: u32, cols: u32, r0: u32, rows: u32) -> (u32, usize) {
        type G<R> = <R as Rules>::Board;
        let (w, h) = (G::<R>::WIDTH, G::<R>::HEIGHT);
        let me = pos.side_to_move();
        let mut index = 0u32;
        let mut digit = 1u32;
        let mut count = 0;
        for row in r0..r0 + rows {
            let mut bits: Vec<u32> = (c0..c0 + cols).filter_map(|c| G::<R>::at(c, row)).collect();
            bits.sort_unstable();
            for b in bits {
                let (c, r) = G::<R>::coords(b);
                let seen = if me == Side::Black {
                    G::<R>::at(w - 1 - c, h - 1 - r).unwrap()
                } else {
                    b
                };
                let man = !pos.kings().has(seen);
                let v = if man && pos.pieces(me).has(seen) {
                    1
                } else if man && pos.pieces(me.opponent()).has(seen) {
                    2
                } else {
                    0
                };
                index += v * digit;
                digit *= 3;
                count += 1;
            }
        }
        (index, count)
    }

    /// The region configurations by a loop over squares, from coordinates alone.
    fn reference_indices<R: Rules>(pos: &Draughts<R>) -> Vec<u16> {
        type G<R> = <R as Rules>::Board;
        let (w, h) = (G::<R>::WIDTH, G::<R>::HEIGHT);
        let mut out = Vec::new();
        for r0 in (0..=h - 4).step_by(2) {
            for c0 in (0..=w - 4).step_by(2) {
                let (index, count) = reference_window(pos, c0, 4, r0, 4);
                assert_eq!(count, REGION_SQUARES);
                let first = (c0..c0 + 4).filter_map(|c| G::<R>::at(c, r0)).min().unwrap();
                out.push((r0, first, index as u16));
            }
        }
        // Regions in layout order: by band of rows, then by first bit (on mirrored boards the
        // layout runs from the right).
        out.sort_unstable();
        out.into_iter().map(|(_, _, i)| i).collect()
    }

    /// The big-window configurations by a loop over squares, from coordinates alone: four
    /// columns at every even offset, rows 0-5 and the last six, in layout order.
    fn reference_windows<R: Rules>(pos: &Draughts<R>) -> Vec<u32> {
        type G<R> = <R as Rules>::Board;
        let (w, h) = (G::<R>::WIDTH, G::<R>::HEIGHT);
        let mut out = Vec::new();
        for r0 in [0, h - 6] {
            for c0 in (0..=w - 4).step_by(2) {
                let (index, count) = reference_window(pos, c0, 4, r0, 6);
                assert_eq!(count, WINDOW_SQUARES);
                let first = (c0..c0 + 4).filter_map(|c| G::<R>::at(c, r0)).min().unwrap();
                out.push((r0, first, index));
            }
        }
        out.sort_unstable();
        out.into_iter().map(|(_, _, i)| i).collect()
    }

    /// The edge-pattern configurations by a loop over squares, from coordinates alone: columns 0-2
    /// and the last three, rows 0-5 and the last six.
    fn reference_edges<R: Rules>(pos: &Draughts<R>) -> Vec<u16> {
        type G<R> = <R as Rules>::Board;
        let (w, h) = (G::<R>::WIDTH, G::<R>::HEIGHT);
        let mut out = Vec::new();
        for r0 in [0, h - 6] {
            for c0 in [0, w - 3] {
                let (index, count) = reference_window(pos, c0, 3, r0, 6);
                assert_eq!(count, EDGE_SQUARES);
                out.push(index as u16);
            }
        }
        out
    }

    /// The linear terms by a walk over every piece with its coordinates (no square sets).
    fn reference_linear<R: Rules>(pos: &Draughts<R>) -> [i32; LINEAR] {
        type G<R> = <R as Rules>::Board;
        let (w, h) = (G::<R>::WIDTH, G::<R>::HEIGHT);
        let me = pos.side_to_move();
        let mut t = [0; LINEAR];
        for (side, sign) in [(me, 1), (me.opponent(), -1)] {
            let own = pos.pieces(side);
            let kings = own & pos.kings();
            let men = own & !pos.kings();
            let (mut left, mut right) = (0i32, 0i32);
            for sq in men.iter() {
                let (col, row) = G::<R>::coords(sq);
                let to_go = if side == Side::White { row } else { h - 1 - row };
                t[3] += sign * (h - 1 - to_go) as i32;
                if col < w / 2 {
                    left += 1;
                } else {
                    right += 1;
                }
                if (1..=3).contains(&to_go) {
                    // Runaway: no enemy piece on the squares of the cone ahead, row by row.
                    let forward = |r: u32| if side == Side::White { row - r } else { row + r };
                    let free = (1..=to_go).all(|k| {
                        let r = forward(k);
                        (col.saturating_sub(k)..=(col + k).min(w - 1))
                            .filter_map(|c| G::<R>::at(c, r))
                            .all(|b| !pos.pieces(side.opponent()).has(b))
                    });
                    if free {
                        t[3 + to_go as usize] += sign;
                    }
                }
            }
            t[0] += sign * men.count() as i32;
            t[1] += sign * kings.count() as i32;
            t[2] += sign * i32::from(!kings.is_empty());
            t[9] += sign * (left - right).abs();
            // King mobility, walked square by square; a reached square is attacked when an
            // enemy man stands next to it with an empty square on the other side.
            let empty = |c: i32, r: i32| {
                (0..w as i32).contains(&c)
                    && (0..h as i32).contains(&r)
                    && G::<R>::at(c as u32, r as u32).is_some_and(|b| pos.empty().has(b))
            };
            let enemy_man = |c: i32, r: i32| {
                (0..w as i32).contains(&c)
                    && (0..h as i32).contains(&r)
                    && G::<R>::at(c as u32, r as u32)
                        .is_some_and(|b| (pos.pieces(side.opponent()) & !pos.kings()).has(b))
            };
            let steps = [(-1, -1), (-1, 1), (1, -1), (1, 1)];
            for sq in kings.iter() {
                let (col, row) = G::<R>::coords(sq);
                for (dc, dr) in steps {
                    let (mut c, mut r) = (col as i32 + dc, row as i32 + dr);
                    while empty(c, r) {
                        t[8] += sign;
                        if steps
                            .iter()
                            .any(|&(ec, er)| enemy_man(c + ec, r + er) && empty(c - ec, r - er))
                        {
                            t[KING_ATTACKED] += sign;
                        }
                        if !R::FLYING_KINGS {
                            break;
                        }
                        (c, r) = (c + dc, r + dr);
                    }
                }
            }
        }
        t
    }

    /// The king-table entries by coordinates: a king's square seen from its owner's side (the
    /// board turned for Black), plus the squares for the other side's kings.
    fn reference_kings<R: Rules>(pos: &Draughts<R>) -> Vec<usize> {
        type G<R> = <R as Rules>::Board;
        let (w, h) = (G::<R>::WIDTH, G::<R>::HEIGHT);
        let me = pos.side_to_move();
        let mut out = Vec::new();
        for (side, offset) in [(me, 0), (me.opponent(), G::<R>::SQUARES)] {
            for sq in (pos.pieces(side) & pos.kings()).iter() {
                let (c, r) = G::<R>::coords(sq);
                let (c, r) = if side == Side::Black {
                    (w - 1 - c, h - 1 - r)
                } else {
                    (c, r)
                };
                let seen = G::<R>::at(c, r).expect("a dark square turns to a dark square");
                out.push(offset + usize::from(G::<R>::BIT_TO_SQUARE[seen as usize]));
            }
        }
        out
    }

    fn random_positions<R: Rules>(n: usize, seed: u64) -> Vec<Draughts<R>> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut out = Vec::new();
        while out.len() < n {
            let mut pos = Draughts::<R>::start();
            for _ in 0..rng.random_range(0..120) {
                let mut list = MoveList::new();
                pos.generate(&mut list);
                if list.is_empty() {
                    break;
                }
                let i = rng.random_range(0..list.len());
                pos = pos.play(&list[i]);
                out.push(pos);
            }
        }
        out
    }

    fn random_net<R: Rules>(seed: u64) -> Net {
        random_net_of::<R>(true, true, seed).with_kings(true)
    }

    /// A net of random weights, with or without the edge patterns and the big windows (and with
    /// the king table when it is added before the weights are drawn, [`random_net_with`]).
    fn random_net_of<R: Rules>(edges: bool, windows: bool, seed: u64) -> Net {
        random_net_with::<R>(edges, windows, false, seed)
    }

    /// A net of random weights with the optional tables chosen.
    fn random_net_with<R: Rules>(edges: bool, windows: bool, kings: bool, seed: u64) -> Net {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut net = Net::initial_of::<R>(edges, windows).with_kings(kings);
        for w in &mut net.patterns {
            *w = [rng.random_range(-400..400), rng.random_range(-400..400)];
        }
        for w in &mut net.linear {
            *w = [rng.random_range(-2000..2000), rng.random_range(-2000..2000)];
        }
        net
    }

    /// The score by a slow loop: reference indices, then each term on its own.
    fn reference_score<R: Rules>(net: &Net, pos: &Draughts<R>) -> i32 {
        let f = features(pos);
        let idx = reference_indices(pos);
        let (mut mg, mut eg) = (0i64, 0i64);
        for (r, &i) in idx.iter().enumerate() {
            mg += i64::from(net.patterns[r * ENTRIES + i as usize][0]);
            eg += i64::from(net.patterns[r * ENTRIES + i as usize][1]);
        }
        if net.edges > 0 {
            for (e, &i) in reference_edges(pos).iter().enumerate() {
                let j = idx.len() * ENTRIES + e * EDGE_ENTRIES + i as usize;
                mg += i64::from(net.patterns[j][0]);
                eg += i64::from(net.patterns[j][1]);
            }
        }
        if net.windows > 0 {
            let start = idx.len() * ENTRIES + net.edges * EDGE_ENTRIES;
            for (k, &i) in reference_windows(pos).iter().enumerate() {
                let j = start + k * WINDOW_ENTRIES + i as usize;
                mg += i64::from(net.patterns[j][0]);
                eg += i64::from(net.patterns[j][1]);
            }
        }
        if net.kings > 0 {
            let start = idx.len() * ENTRIES + net.edges * EDGE_ENTRIES + net.windows * WINDOW_ENTRIES;
            for i in reference_kings(pos) {
                mg += i64::from(net.patterns[start + i][0]);
                eg += i64::from(net.patterns[start + i][1]);
            }
        }
        for l in 0..LINEAR {
            mg += i64::from(net.linear[l][0] * f.linear[l]);
            eg += i64::from(net.linear[l][1] * f.linear[l]);
        }
        let p = i64::from(f.phase);
        ((mg * p + eg * (256 - p)) / 256 / 8) as i32
    }

    /// Checks the fast evaluation, the features and the linear terms against the references on
    /// random positions; returns how many had kings and how many attacked king squares.
    fn check_fast_equals_reference<R: Rules>(seed: u64) -> (usize, usize) {
        let net = random_net::<R>(seed);
        // The search's evaluation (`pext` or shifts, whichever this machine uses) against the
        // reference, for every combination of the optional patterns.
        let nets: Vec<Net> = [
            (false, false, false),
            (true, false, false),
            (false, true, false),
            (true, true, false),
            (false, false, true),
            (true, true, true),
        ]
        .into_iter()
        .map(|(e, w, k)| random_net_with::<R>(e, w, k, seed + 100))
        .collect();
        let (mut with_kings, mut attacked) = (0, 0);
        for pos in random_positions::<R>(400, seed) {
            with_kings += usize::from(!pos.kings().is_empty());
            for n in &nets {
                assert_eq!(
                    n.evaluate(&pos),
                    reference_score(n, &pos).clamp(-15_000, 15_000),
                    "{} edges {} windows {} kings {}",
                    pos.to_fen(),
                    n.edges,
                    n.windows,
                    n.kings
                );
            }
            let f = features(&pos);
            assert_eq!(
                f.window[..f.windows],
                reference_windows(&pos)[..],
                "{}",
                pos.to_fen()
            );
            assert_eq!(
                f.index[..f.regions],
                reference_indices(&pos)[..],
                "{}",
                pos.to_fen()
            );
            assert_eq!(
                f.index[f.regions..f.regions + f.edges],
                reference_edges(&pos)[..],
                "{}",
                pos.to_fen()
            );
            assert_eq!(net.score(&f), reference_score(&net, &pos), "{}", pos.to_fen());
            let mut kings: Vec<usize> = f.king[..f.kings].iter().map(|&i| usize::from(i)).collect();
            let mut expected = reference_kings(&pos);
            kings.sort_unstable();
            expected.sort_unstable();
            assert_eq!(kings, expected, "{}", pos.to_fen());
            // The men's mobility (7) and the constant are left out of the reference.
            let mut linear = f.linear;
            linear[7] = 0;
            linear[BIAS] = 0;
            assert_eq!(linear, reference_linear(&pos), "{}", pos.to_fen());
            attacked += usize::from(f.linear[KING_ATTACKED] != 0);
        }
        (with_kings, attacked)
    }

    #[test]
    fn regions_per_board() {
        assert_eq!(Regions::new(10, 10).count, 16);
        assert_eq!(Regions::new(8, 8).count, 9);
        assert_eq!(Regions::new(12, 12).count, 25);
        assert_eq!(Windows::new(10, 10).count, 8);
        assert_eq!(Windows::new(8, 8).count, 6);
        assert_eq!(Windows::new(12, 12).count, MAX_WINDOWS);
    }

    /// The base-2-to-base-3 table: a few values by hand, and every entry below 3^12.
    #[test]
    fn the_ternary_table_of_twelve_bits() {
        assert_eq!(TERNARY12[0], 0);
        assert_eq!(TERNARY12[1], 1);
        assert_eq!(TERNARY12[0b101], 10);
        assert_eq!(TERNARY12[0x800], 177_147);
        // Twelve ones are (3^12 - 1) / 2: a window's index, mine + 2 · theirs, is at most
        // 3^12 - 1 (all twelve squares the other side's) and fits its table.
        assert_eq!(TERNARY12[0xFFF] * 2, WINDOW_ENTRIES as u32 - 1);
        #[cfg(target_arch = "x86_64")]
        for b in 0..4096u32 {
            assert_eq!(
                TERNARY12_REVERSED[b as usize],
                TERNARY12[(b.reverse_bits() >> 20) as usize]
            );
        }
    }

    #[test]
    fn pattern_indices_equal_a_per_square_loop() {
        let counts = [
            check_fast_equals_reference::<InternationalRules>(1),
            check_fast_equals_reference::<RussianRules>(8),
            check_fast_equals_reference::<BrazilianRules>(2),
            check_fast_equals_reference::<ItalianRules>(3),
            check_fast_equals_reference::<CanadianRules>(4),
        ];
        // The king terms were put to the test, with flying kings (Russian) and without (Italian).
        assert!(counts[1].0 > 10 && counts[1].1 > 3, "{counts:?}");
        assert!(counts[3].0 > 10 && counts[3].1 > 3, "{counts:?}");
    }

    fn check_turn<R: Rules>() {
        let regions = Regions::of::<R::Board>();
        for b in 0..regions.span {
            let Some(_) = <R::Board as Geometry>::number_of(b) else {
                continue;
            };
            let (c, r) = <R::Board as Geometry>::coords(b);
            let turned = regions.span - 1 - b;
            assert_eq!(
                <R::Board as Geometry>::coords(turned),
                (
                    <R::Board as Geometry>::WIDTH - 1 - c,
                    <R::Board as Geometry>::HEIGHT - 1 - r
                )
            );
        }
    }

    #[test]
    fn bit_reversal_is_the_half_turn() {
        check_turn::<InternationalRules>();
        check_turn::<BrazilianRules>();
        check_turn::<ItalianRules>();
        check_turn::<CanadianRules>();
    }

    /// The position turned 180 degrees with colours and the side to move swapped.
    fn flip<R: Rules>(pos: &Draughts<R>) -> Draughts<R> {
        let span = Regions::of::<R::Board>().span;
        let turn = |x: BitsOf<R>| {
            let mut y = BitsOf::<R>::EMPTY;
            for b in x.iter() {
                y |= BitsOf::<R>::bit(span - 1 - b);
            }
            y
        };
        Draughts::<R>::from_parts(
            turn(pos.pieces(Side::Black)),
            turn(pos.pieces(Side::White)),
            turn(pos.kings()),
            pos.side_to_move().opponent(),
            Default::default(),
        )
        .unwrap()
    }

    fn check_oriented<R: Rules>(seed: u64) {
        let net = random_net::<R>(seed);
        for pos in random_positions::<R>(300, seed) {
            let twin = flip(&pos);
            // The kings' entries are the same set, read in another order.
            let sorted = |mut f: Features| {
                f.king[..f.kings].sort_unstable();
                f
            };
            assert_eq!(
                sorted(features(&pos)),
                sorted(features(&twin)),
                "{}",
                pos.to_fen()
            );
            assert_eq!(net.evaluate(&pos), net.evaluate(&twin));
        }
    }

    #[test]
    fn evaluation_is_the_same_from_either_colour() {
        check_oriented::<InternationalRules>(5);
        check_oriented::<BrazilianRules>(6);
        check_oriented::<CanadianRules>(7);
    }

    /// The evaluation sums the weights as it reads the features, by `pext` or by shifts: both
    /// must give the score of the features the training reads.
    fn check_sums<R: Rules>(seed: u64) {
        #[cfg(target_arch = "x86_64")]
        let bmi2 = std::arch::is_x86_feature_detected!("bmi2");
        for (edges, windows) in [(false, false), (true, false), (false, true), (true, true)] {
            let net = random_net_of::<R>(edges, windows, seed);
            for pos in random_positions::<R>(500, seed) {
                let fen = pos.to_fen();
                let f = features_of(&pos, edges, windows);
                assert_eq!(net.evaluate(&pos), net.score(&f).clamp(-15_000, 15_000), "{fen}");
                let by_shifts = net.pattern_sums_by_shifts(&pos);
                let mut only_patterns = net.clone();
                only_patterns.linear = [[0; 2]; LINEAR];
                let (mg, eg) = by_shifts;
                assert_eq!(blend(mg, eg, f.phase), only_patterns.score(&f), "{fen}");
                #[cfg(target_arch = "x86_64")]
                if bmi2 && <BitsOf<R> as Bits>::WIDTH <= 64 {
                    // SAFETY: the processor has BMI2.
                    #[allow(unsafe_code)]
                    let by_pext = unsafe { net.pattern_sums_pext(&pos) };
                    assert_eq!(by_pext, by_shifts, "{fen}");
                }
            }
        }
    }

    #[test]
    fn the_evaluation_is_the_score_of_the_features_by_pext_and_by_shifts() {
        check_sums::<InternationalRules>(11);
        check_sums::<RussianRules>(16);
        check_sums::<BrazilianRules>(12);
        check_sums::<EnglishRules>(13);
        // Italian's board is mirrored; Canadian's needs 128 bits (shifts only).
        check_sums::<ItalianRules>(14);
        check_sums::<CanadianRules>(15);
    }
}
