//! The features of the learned evaluation of the square-board family, computed from a position:
//! men's patterns in overlapping 4x4 regions (and optionally edge patterns, big windows and king
//! squares), each pattern's configuration as a number, plus a few linear terms and the phase
//! (the number of pieces on the board). The table evaluator ([`super::table`]) weighs them; the
//! trainer (`src/train/`) reads them to fit the weights.
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
//! - **King squares** (optional, [`super::table::Net::kings`]; weight-file version 4). A weight
//!   for each square a king of the side to move stands on and one for each square a king of the
//!   other side stands on, both seen from the owner's side (the board turned for Black): 2 x 50 on 10x10. The
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
//! ternary value: no per-square loop in the hot path. For the table evaluator's `pext` reading
//! ([`super::table`]) each pattern's squares are also kept as masks of the unturned board
//! (`SlotMasks`), with the ternary tables for bits in reverse order.

use super::squares::{as_u64, as_u128, masks};
use crate::bits::Bits;
use crate::draughts::geom::Geometry;
use crate::draughts::rules::{Goal, Movement, Rules};
use crate::draughts::{BitsOf, Draughts};
use crate::game::{Game, Side};

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
pub(super) const TERNARY: [u16; 256] = ternary::<256>();
/// The ternary value of 9 bits (an edge pattern's squares of one colour).
pub(super) const TERNARY9: [u16; 512] = ternary::<512>();

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
pub(super) const TERNARY12: [u32; 4096] = ternary_wide::<4096>();

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
pub(super) const TERNARY_REVERSED: [u16; 256] = ternary_reversed::<256>();
/// [`TERNARY9`] for the bits in reverse order.
#[cfg(target_arch = "x86_64")]
pub(super) const TERNARY9_REVERSED: [u16; 512] = ternary_reversed::<512>();

/// [`TERNARY12`] for the bits in reverse order.
#[cfg(target_arch = "x86_64")]
pub(super) const TERNARY12_REVERSED: [u32; 4096] = {
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
    let masks = masks::<R>();
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
pub(super) fn linear_terms<R: Rules>(pos: &Draughts<R>) -> [i32; LINEAR] {
    let mut t = [0; LINEAR];
    let me = pos.side_to_move();
    side_terms(pos, me, &mut t, 1);
    side_terms(pos, me.opponent(), &mut t, -1);
    t[BIAS] = 1;
    t
}

/// Each pattern slot's squares as a bit set of the unturned board, for each side to move (index
/// [`Side::index`]): when Black is to move, the turned board's squares turned back. With these an
/// instruction that gathers the bits under a mask (BMI2's `pext`) reads a slot's men of one colour
/// at once, in the order of the slot's squares (reversed when Black is to move).
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug)]
pub(super) struct SlotMasks {
    /// The regions' and edge patterns' masks, by side to move.
    pub(super) masks: [[u64; MAX_SLOTS]; 2],
    /// The big windows' masks, the same way.
    pub(super) windows: [[u64; MAX_WINDOWS]; 2],
}

#[cfg(target_arch = "x86_64")]
impl SlotMasks {
    /// The masks of geometry `G`; all zero on boards of more than 64 bits, which do not use them.
    pub(super) const fn of<G: Geometry>() -> SlotMasks {
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

#[cfg(test)]
mod tests {
    use super::super::reference::*;
    use super::*;
    use crate::draughts::rules::{
        BrazilianRules, CanadianRules, InternationalRules, ItalianRules, RussianRules,
    };

    /// Checks the features and the linear terms against the references on random positions;
    /// returns how many had kings and how many attacked king squares.
    fn check_features_equal_reference<R: Rules>(seed: u64) -> (usize, usize) {
        let (mut with_kings, mut attacked) = (0, 0);
        for pos in random_positions::<R>(400, seed) {
            with_kings += usize::from(!pos.kings().is_empty());
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
    fn the_features_equal_a_per_square_loop() {
        let counts = [
            check_features_equal_reference::<InternationalRules>(1),
            check_features_equal_reference::<RussianRules>(8),
            check_features_equal_reference::<BrazilianRules>(2),
            check_features_equal_reference::<ItalianRules>(3),
            check_features_equal_reference::<CanadianRules>(4),
        ];
        // The king terms were put to the test, with flying kings (Russian) and without (Italian).
        assert!(counts[1].0 > 10 && counts[1].1 > 3, "{counts:?}");
        assert!(counts[3].0 > 10 && counts[3].1 > 3, "{counts:?}");
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

    fn check_oriented<R: Rules>(seed: u64) {
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
        }
    }

    #[test]
    fn the_features_are_the_same_from_either_colour() {
        check_oriented::<InternationalRules>(5);
        check_oriented::<BrazilianRules>(6);
        check_oriented::<CanadianRules>(7);
    }
}
