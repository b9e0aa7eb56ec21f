//! Zobrist keys, generated at compile time from a fixed seed, so a key is the same in every build
//! and on every machine (transposition tables and test vectors may rely on it).

/// SplitMix64 step: a well-mixed 64-bit value from a counter.
pub const fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// Bit positions covered by the piece tables (enough for a 128-bit layout).
pub const POSITIONS: usize = 128;
/// Piece kinds of the piece tables: white man, black man, white king, black king.
pub const KINDS: usize = 4;

const fn piece_table() -> [[u64; POSITIONS]; KINDS] {
    let mut t = [[0u64; POSITIONS]; KINDS];
    let mut k = 0;
    while k < KINDS {
        let mut i = 0;
        while i < POSITIONS {
            t[k][i] = splitmix(0x7E3B_0000_0000_0000 ^ ((k as u64) << 16) ^ i as u64);
            i += 1;
        }
        k += 1;
    }
    t
}

/// Key of each piece kind on each bit position, indexed `[kind][bit]` with kind = side + 2 * king.
pub static PIECES: [[u64; POSITIONS]; KINDS] = piece_table();

/// Toggled when Black is to move.
pub const BLACK_TO_MOVE: u64 = splitmix(0x5EED_0000_0000_0001);

/// Key of a small piece of rule state (a counter, a square), distinct per `tag`.
#[inline]
pub const fn state(tag: u64, value: u64) -> u64 {
    splitmix(0xA11C_E000_0000_0000 ^ (tag << 32) ^ value)
}
