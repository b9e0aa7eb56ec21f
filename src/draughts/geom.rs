//! Board geometry of the square-board family: where each playing square lives in a bit set.
//!
//! The dark squares of a `W`x`H` board are laid out row by row from the top (Black's side), `W/2`
//! squares a row, with one padding bit after every row and one more after every second row
//! (Scan's layout, generalised). With `h = W/2` this makes every direction a constant shift:
//!
//! | direction | shift |
//! |---|---|
//! | down-left, down-right | `+(h+1)`, `+(h+2)` |
//! | up-left, up-right | `-(h+2)`, `-(h+1)` |
//! | left, right (next dark square in the row, Frisian) | `-1`, `+1` |
//! | up, down (same column, two rows away, Frisian) | `-(2h+3)`, `+(2h+3)` |
//!
//! A step off the board lands on a padding bit or outside the used range, so masking with
//! [`Geometry::VALID`] (or with the set of empty squares, which lies inside it) is the only edge test
//! the generator needs.

use crate::bits::Bits;

/// A board layout: sizes, the valid-square mask and the square numbering.
///
/// Squares are numbered 1..=N in the standard order (FMJD 2.6, PDN): row by row from the top, left to
/// right as White sees the board. Internally the generator works on bit indices; the `*_TO_*` tables
/// convert between the two.
pub trait Geometry: 'static + Send + Sync {
    /// Bit set wide enough for the layout.
    type B: Bits;
    /// Columns of the board.
    const WIDTH: u32;
    /// Rows of the board.
    const HEIGHT: u32;
    /// Number of playing squares.
    const SQUARES: usize;
    /// Bits that are playing squares.
    const VALID: Self::B;
    /// Top row: White's promotion row.
    const TOP_ROW: Self::B;
    /// Bottom row: Black's promotion row.
    const BOTTOM_ROW: Self::B;
    /// Bit index of each square, indexed by square number - 1.
    const SQUARE_TO_BIT: &'static [u8];
    /// Square number - 1 of each bit index, `u8::MAX` for padding.
    const BIT_TO_SQUARE: &'static [u8];
    /// The board is shown mirrored: a light square in each player's lower left corner (Italian,
    /// Spanish). The layout is then the mirror image of the standard one; rules are symmetric, so
    /// only coordinates and numbering change.
    const MIRRORED: bool = false;
    /// Every square of the board is a playing square (Turkish, Armenian), numbered 1 = a8 .. 64 = h1.
    const FULL: bool = false;

    /// The squares one step from `x` in direction `d`. The padded layouts need no edge test here
    /// (a step off the board lands on padding, which callers mask away); the full board masks the
    /// file a step would wrap round to.
    #[inline(always)]
    fn step(x: Self::B, d: i32) -> Self::B {
        x.shift(d)
    }

    /// The squares from bit `bit` in direction `d` up to the board's edge, `bit` itself excluded.
    /// The padded layouts read it from a table (a flying king's line is then one lookup, not a
    /// walk whose end the processor cannot predict); this walk is the definition.
    #[inline(always)]
    fn ray(bit: u32, d: i32) -> Self::B {
        let mut x = Self::step(Self::B::bit(bit), d) & Self::VALID;
        let mut all = x;
        while !x.is_empty() {
            x = Self::step(x, d) & Self::VALID;
            all |= x;
        }
        all
    }

    /// Squares a row.
    const HALF: i32 = (Self::WIDTH / 2) as i32;
    /// Shift one step down-left.
    const DOWN_LEFT: i32 = Self::HALF + 1;
    /// Shift one step down-right.
    const DOWN_RIGHT: i32 = Self::HALF + 2;
    /// Shift one step up-left.
    const UP_LEFT: i32 = -(Self::HALF + 2);
    /// Shift one step up-right.
    const UP_RIGHT: i32 = -(Self::HALF + 1);
    /// Shift one orthogonal step down (two rows).
    const DOWN: i32 = 2 * Self::HALF + 3;
    /// Shift one orthogonal step up (two rows).
    const UP: i32 = -(2 * Self::HALF + 3);
    /// Shift one orthogonal step right (next dark square of the row).
    const RIGHT: i32 = 1;
    /// Shift one orthogonal step left.
    const LEFT: i32 = -1;
    /// The four diagonal directions.
    const DIAGONALS: [i32; 4] = [Self::UP_LEFT, Self::UP_RIGHT, Self::DOWN_LEFT, Self::DOWN_RIGHT];
    /// The four orthogonal directions (Frisian captures).
    const ORTHOGONALS: [i32; 4] = [Self::UP, Self::LEFT, Self::RIGHT, Self::DOWN];

    /// Bit index of square number `n` (1-based), if it exists.
    fn bit_of(n: usize) -> Option<u32> {
        Self::SQUARE_TO_BIT.get(n.wrapping_sub(1)).map(|&b| u32::from(b))
    }

    /// Square number (1-based) of a bit index, if it is a playing square.
    fn number_of(bit: u32) -> Option<usize> {
        match Self::BIT_TO_SQUARE.get(bit as usize) {
            Some(&s) if s != u8::MAX => Some(usize::from(s) + 1),
            _ => None,
        }
    }

    /// `(column, row)` of a bit index: column 0 = file a (White's left), row 0 = the top row.
    fn coords(bit: u32) -> (u32, u32) {
        let n = Self::BIT_TO_SQUARE[bit as usize] as u32;
        if Self::FULL {
            return (n % Self::WIDTH, n / Self::WIDTH);
        }
        let half = Self::WIDTH / 2;
        let row = n / half;
        let k = n % half;
        // a1 is dark (FMJD 2.4): the bottom row starts at column 0, the row above it at column 1;
        // on a mirrored board the other way round.
        let odd = ((row + Self::HEIGHT) % 2 == 0) != Self::MIRRORED;
        let col = if odd { 2 * k + 1 } else { 2 * k };
        (col, row)
    }

    /// Bit index of the dark square at `(column, row)`, if that square is a playing square.
    fn at(col: u32, row: u32) -> Option<u32> {
        if col >= Self::WIDTH || row >= Self::HEIGHT {
            return None;
        }
        if Self::FULL {
            return Self::bit_of((row * Self::WIDTH + col) as usize + 1);
        }
        let odd = ((row + Self::HEIGHT) % 2 == 0) != Self::MIRRORED;
        let dark_col_parity = if odd { 1 } else { 0 };
        if col % 2 != dark_col_parity {
            return None;
        }
        Self::bit_of((row * (Self::WIDTH / 2) + col / 2) as usize + 1)
    }
}

/// Bit index of the `k`-th square (0-based) of row `r` (0 = top) for rows of `half` squares.
const fn layout_bit(half: u32, r: u32, k: u32) -> u32 {
    (r / 2) * (2 * half + 3) + (r % 2) * (half + 1) + k
}

macro_rules! diagonal_board {
    ($(#[$doc:meta])* $name:ident, $w:expr, $h:expr, $bits:ty, $mirrored:expr) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name;

        impl $name {
            const N: usize = ($w * $h / 2) as usize;
            const SPAN: usize = layout_bit($w / 2, $h - 1, $w / 2 - 1) as usize + 1;
            const SQ_TABLE: [u8; Self::N] = {
                let mut t = [0u8; Self::N];
                let mut i = 0;
                while i < Self::N {
                    let r = i as u32 / ($w / 2);
                    let k = i as u32 % ($w / 2);
                    // Mirrored boards number each row from the other end of the layout.
                    let k = if $mirrored { $w / 2 - 1 - k } else { k };
                    t[i] = layout_bit($w / 2, r, k) as u8;
                    i += 1;
                }
                t
            };
            const BIT_TABLE: [u8; Self::SPAN] = {
                let mut t = [u8::MAX; Self::SPAN];
                let mut i = 0;
                while i < Self::N {
                    t[Self::SQ_TABLE[i] as usize] = i as u8;
                    i += 1;
                }
                t
            };
            /// The largest shift of one step (orthogonally up or down): ray tables are indexed
            /// by the shift plus this.
            const REACH: i32 = 2 * ($w / 2) as i32 + 3;
            /// [`Geometry::ray`] of every bit and shift, `(d + REACH) * SPAN + bit`; shifts that
            /// are no direction, and padding bits, keep empty rays.
            const RAYS: [$bits; (2 * Self::REACH as usize + 1) * Self::SPAN] = {
                let valid = Self::mask_rows(0, $h);
                let mut t = [0 as $bits; (2 * Self::REACH as usize + 1) * Self::SPAN];
                let half = ($w / 2) as i32;
                let dirs = [-(half + 2), -(half + 1), half + 1, half + 2, -Self::REACH, -1, 1, Self::REACH];
                let mut k = 0;
                while k < dirs.len() {
                    let d = dirs[k];
                    let mut bit = 0;
                    while bit < Self::SPAN {
                        let mut all: $bits = 0;
                        if valid & (1 << bit) != 0 {
                            let mut x: $bits = 1 << bit;
                            loop {
                                x = if d > 0 { x << d } else { x >> -d } & valid;
                                if x == 0 {
                                    break;
                                }
                                all |= x;
                            }
                        }
                        t[(d + Self::REACH) as usize * Self::SPAN + bit] = all;
                        bit += 1;
                    }
                    k += 1;
                }
                t
            };
            const fn mask_rows(from: u32, to: u32) -> $bits {
                let mut m: $bits = 0;
                let mut i = (from * ($w / 2)) as usize;
                while i < (to * ($w / 2)) as usize {
                    m |= 1 << Self::SQ_TABLE[i];
                    i += 1;
                }
                m
            }
        }

        impl Geometry for $name {
            type B = $bits;
            const WIDTH: u32 = $w;
            const HEIGHT: u32 = $h;
            const SQUARES: usize = Self::N;
            const VALID: $bits = Self::mask_rows(0, $h);
            const TOP_ROW: $bits = Self::mask_rows(0, 1);
            const BOTTOM_ROW: $bits = Self::mask_rows($h - 1, $h);
            const SQUARE_TO_BIT: &'static [u8] = &Self::SQ_TABLE;
            const BIT_TO_SQUARE: &'static [u8] = &Self::BIT_TABLE;
            const MIRRORED: bool = $mirrored;

            #[inline(always)]
            fn ray(bit: u32, d: i32) -> $bits {
                Self::RAYS[(d + Self::REACH) as usize * Self::SPAN + bit as usize]
            }
        }
    };
}

diagonal_board!(
    /// The 8x8 board: 32 squares in 42 bits.
    Board8,
    8,
    8,
    u64,
    false
);
diagonal_board!(
    /// The 8x8 board shown mirrored (Italian, Spanish, Portuguese): 1 = a8 .. 32 = h1.
    Board8Mirrored,
    8,
    8,
    u64,
    true
);
diagonal_board!(
    /// The 10x10 board: 50 squares in 63 bits.
    Board10,
    10,
    10,
    u64,
    false
);
diagonal_board!(
    /// The 12x12 board: 72 squares in 88 bits, so a 128-bit set; 8x8 and 10x10 keep 64 bits.
    Board12,
    12,
    12,
    u128,
    false
);

/// The full 8x8 board (Turkish, Armenian): all 64 squares, bit = 8 * row + column, row 0 at the top.
/// Orthogonal steps are one square; steps that would wrap round an edge are masked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Board8Full;

impl Board8Full {
    const FILE_A: u64 = 0x0101_0101_0101_0101;
    const FILE_H: u64 = Self::FILE_A << 7;
    const IDENTITY: [u8; 64] = {
        let mut t = [0u8; 64];
        let mut i = 0;
        while i < 64 {
            t[i] = i as u8;
            i += 1;
        }
        t
    };
}

impl Geometry for Board8Full {
    type B = u64;
    const WIDTH: u32 = 8;
    const HEIGHT: u32 = 8;
    const SQUARES: usize = 64;
    const VALID: u64 = !0;
    const TOP_ROW: u64 = 0xFF;
    const BOTTOM_ROW: u64 = 0xFF << 56;
    const SQUARE_TO_BIT: &'static [u8] = &Self::IDENTITY;
    const BIT_TO_SQUARE: &'static [u8] = &Self::IDENTITY;
    const FULL: bool = true;
    const UP_LEFT: i32 = -9;
    const UP_RIGHT: i32 = -7;
    const DOWN_LEFT: i32 = 7;
    const DOWN_RIGHT: i32 = 9;
    const UP: i32 = -8;
    const DOWN: i32 = 8;
    const LEFT: i32 = -1;
    const RIGHT: i32 = 1;

    #[inline(always)]
    fn step(x: u64, d: i32) -> u64 {
        // A step with a rightward component may not land on file a, nor a leftward one on file h.
        let mask = match d {
            1 | 9 | -7 => !Self::FILE_A,
            -1 | -9 | 7 => !Self::FILE_H,
            _ => !0,
        };
        x.shift(d) & mask
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step<G: Geometry>(bit: u32, d: i32) -> Option<u32> {
        let t = G::B::bit(bit).shift(d) & G::VALID;
        (!t.is_empty()).then(|| t.lowest())
    }

    /// Every diagonal step goes to the square one row up or down and one column left or right, and
    /// every orthogonal step two columns or two rows away; no step wraps around an edge.
    fn check_steps<G: Geometry>() {
        assert_eq!(G::VALID.count() as usize, G::SQUARES);
        let dirs: [(i32, i32, i32); 8] = [
            (G::UP_LEFT, -1, -1),
            (G::UP_RIGHT, 1, -1),
            (G::DOWN_LEFT, -1, 1),
            (G::DOWN_RIGHT, 1, 1),
            (G::UP, 0, -2),
            (G::DOWN, 0, 2),
            (G::LEFT, -2, 0),
            (G::RIGHT, 2, 0),
        ];
        // On a mirrored board the layout's left is the board's right.
        let flip = if G::MIRRORED { -1 } else { 1 };
        for n in 1..=G::SQUARES {
            let b = G::bit_of(n).unwrap();
            assert_eq!(G::number_of(b), Some(n));
            let (c, r) = G::coords(b);
            assert_eq!(G::at(c, r), Some(b));
            for &(d, dc, dr) in &dirs {
                let (tc, tr) = (c as i32 + flip * dc, r as i32 + dr);
                let inside = (0..G::WIDTH as i32).contains(&tc) && (0..G::HEIGHT as i32).contains(&tr);
                match step::<G>(b, d) {
                    Some(t) => {
                        assert!(
                            inside,
                            "square {n} dir {d} leaves the board but lands on a square"
                        );
                        assert_eq!(G::coords(t), (tc as u32, tr as u32));
                    }
                    None => assert!(!inside, "square {n} dir {d} lost a neighbour"),
                }
            }
        }
    }

    /// The ray tables hold what walking step by step finds, for every square and direction.
    fn check_rays<G: Geometry>() {
        let dirs = [G::DIAGONALS, G::ORTHOGONALS].concat();
        for n in 1..=G::SQUARES {
            let b = G::bit_of(n).unwrap();
            for &d in &dirs {
                let mut walked = G::B::EMPTY;
                let mut x = G::B::bit(b);
                loop {
                    x = G::step(x, d) & G::VALID;
                    if x.is_empty() {
                        break;
                    }
                    walked |= x;
                }
                assert_eq!(G::ray(b, d), walked, "square {n} direction {d}");
            }
        }
    }

    #[test]
    fn ray_tables_match_the_walk() {
        check_rays::<Board8>();
        check_rays::<Board8Mirrored>();
        check_rays::<Board10>();
        check_rays::<Board12>();
        check_rays::<Board8Full>();
        // The long diagonal of the 10x10 board: from 46 (a1) up-right through 41, 37, ... to 5.
        let from = Board10::bit_of(46).unwrap();
        let squares: Vec<usize> = Board10::ray(from, Board10::UP_RIGHT)
            .iter()
            .map(|b| Board10::number_of(b).unwrap())
            .collect();
        assert_eq!(squares, vec![5, 10, 14, 19, 23, 28, 32, 37, 41]);
    }

    #[test]
    fn board10_steps_are_constant_shifts() {
        check_steps::<Board10>();
        // FMJD 2.6: 1 = b10, 5 = j10, 6 = a9, 46 = a1, 50 = i1.
        assert_eq!(Board10::coords(Board10::bit_of(1).unwrap()), (1, 0));
        assert_eq!(Board10::coords(Board10::bit_of(6).unwrap()), (0, 1));
        assert_eq!(Board10::coords(Board10::bit_of(46).unwrap()), (0, 9));
        assert_eq!(Board10::coords(Board10::bit_of(50).unwrap()), (8, 9));
    }

    #[test]
    fn board8_mirrored_and_board12_steps_are_constant_shifts() {
        check_steps::<Board8Mirrored>();
        // rules.md §7.1, FID: 1 = a8, 4 = g8, 5 = b7, 29 = b1, 32 = h1.
        let c = |n| Board8Mirrored::coords(Board8Mirrored::bit_of(n).unwrap());
        assert_eq!(
            (c(1), c(4), c(5), c(29), c(32)),
            ((0, 0), (6, 0), (1, 1), (1, 7), (7, 7))
        );
        check_steps::<Board12>();
        assert_eq!(Board12::VALID.count(), 72);
    }

    #[test]
    fn board8_full_steps_never_wrap() {
        type G = Board8Full;
        let dirs = [
            (G::UP_LEFT, -1, -1),
            (G::UP_RIGHT, 1, -1),
            (G::DOWN_LEFT, -1, 1),
            (G::DOWN_RIGHT, 1, 1),
            (G::UP, 0, -1),
            (G::DOWN, 0, 1),
            (G::LEFT, -1, 0),
            (G::RIGHT, 1, 0),
        ];
        for n in 1..=64 {
            let b = G::bit_of(n).unwrap();
            let (c, r) = G::coords(b);
            assert_eq!(G::at(c, r), Some(b));
            for &(d, dc, dr) in &dirs {
                let (tc, tr) = (c as i32 + dc, r as i32 + dr);
                let inside = (0..8).contains(&tc) && (0..8).contains(&tr);
                let t = G::step(1u64 << b, d);
                if inside {
                    assert_eq!(
                        t,
                        1u64 << G::at(tc as u32, tr as u32).unwrap(),
                        "square {n} dir {d}"
                    );
                } else {
                    assert_eq!(t, 0, "square {n} dir {d} wraps");
                }
            }
        }
        // 1 = a8, 64 = h1.
        assert_eq!(G::coords(G::bit_of(1).unwrap()), (0, 0));
        assert_eq!(G::coords(G::bit_of(64).unwrap()), (7, 7));
    }

    #[test]
    fn board8_steps_are_constant_shifts() {
        check_steps::<Board8>();
        // Rules §7.1: 1 = b8, 4 = h8, 5 = a7, 29 = a1, 32 = g1.
        assert_eq!(Board8::coords(Board8::bit_of(1).unwrap()), (1, 0));
        assert_eq!(Board8::coords(Board8::bit_of(4).unwrap()), (7, 0));
        assert_eq!(Board8::coords(Board8::bit_of(29).unwrap()), (0, 7));
        assert_eq!(Board8::coords(Board8::bit_of(32).unwrap()), (6, 7));
    }
}
