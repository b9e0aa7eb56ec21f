//! Indexing of the positions of one material slice.
//!
//! A slice is a material signature: White men, White kings, Black men, Black kings ([`Material`]).
//! Each of the four groups is ranked on its own as a combination (colex order) of the squares it
//! may stand on: men never stand on their own promotion row (FMJD 3.5: a man that stops there is
//! crowned), kings anywhere. The four ranks are mixed into one number, and the side to move
//! doubles the range: `index = side * per_side + ((r_wm * C_wk + r_wk) * C_bm + r_bm) * C_bk + r_bk`.
//! Groups ranked independently may overlap: such indices name no position and are skipped (they
//! cost a few percent of the range, and keep the ranking a handful of table look-ups).
//!
//! Frisian (Art. 17, rules.md 2.6, D-F3): a side that has both kings and men carries a king-move
//! run, part of the position: none, or (which of its kings, count 1..3). Such a side's run is one
//! more digit of the index, `0` for no run and `1 + 3 j + (count - 1)` for a run of its `j`-th king
//! in square order: `1 + 3 k` states for `k` kings. The run digits come last (White's, then
//! Black's); a side without kings or without men has one state (no run can exist).

use crate::bits::Bits;
use crate::draughts::geom::Geometry;
use crate::draughts::rules::Rules;
use crate::draughts::{BitsOf, Draughts, KingRun};
use crate::game::Side;
use std::fmt;

/// The most pieces of one group a slice may hold.
pub const MAX_GROUP: usize = 8;
/// Largest board handled (squares), for the binomial table.
const MAX_SQUARES: usize = 72;

/// Binomial coefficients `C(n, k)` for `n <= MAX_SQUARES`, `k <= MAX_GROUP`.
const BINOMIAL: [[u64; MAX_GROUP + 1]; MAX_SQUARES + 1] = {
    let mut t = [[0u64; MAX_GROUP + 1]; MAX_SQUARES + 1];
    let mut n = 0;
    while n <= MAX_SQUARES {
        t[n][0] = 1;
        let mut k = 1;
        while k <= MAX_GROUP {
            t[n][k] = if n == 0 { 0 } else { t[n - 1][k - 1] + t[n - 1][k] };
            k += 1;
        }
        n += 1;
    }
    t
};

/// `C(n, k)`.
pub fn binomial(n: usize, k: usize) -> u64 {
    BINOMIAL[n][k]
}

/// The material of a slice: numbers of White men, White kings, Black men, Black kings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    /// White men.
    pub wm: u8,
    /// White kings.
    pub wk: u8,
    /// Black men.
    pub bm: u8,
    /// Black kings.
    pub bk: u8,
}

impl Material {
    /// Distinct keys of [`Material::key`].
    pub const KEYS: usize = (MAX_GROUP + 1).pow(4);

    /// A dense number for the material (each group counted in base `MAX_GROUP + 1`), below
    /// [`Material::KEYS`]: an array index where a hash map would hash.
    #[inline]
    pub fn key(&self) -> usize {
        let base = MAX_GROUP + 1;
        ((usize::from(self.wm) * base + usize::from(self.wk)) * base + usize::from(self.bm)) * base
            + usize::from(self.bk)
    }

    /// The material of a position.
    pub fn of<R: Rules>(pos: &Draughts<R>) -> Material {
        let k = pos.kings();
        let (w, b) = (pos.pieces(Side::White), pos.pieces(Side::Black));
        Material {
            wm: (w & !k).count() as u8,
            wk: (w & k).count() as u8,
            bm: (b & !k).count() as u8,
            bk: (b & k).count() as u8,
        }
    }
    /// Pieces on the board.
    pub fn total(self) -> u32 {
        u32::from(self.wm) + u32::from(self.wk) + u32::from(self.bm) + u32::from(self.bk)
    }
    /// Men on the board.
    pub fn men(self) -> u32 {
        u32::from(self.wm) + u32::from(self.bm)
    }
    /// Every slice with both sides present and at most `pieces` pieces, in an order where each
    /// slice comes after every slice it converts into (fewer pieces first, then fewer men: a
    /// capture removes a piece, a promotion turns a man into a king).
    pub fn all_up_to(pieces: u32) -> Vec<Material> {
        let mut v = Vec::new();
        let n = pieces.min(MAX_GROUP as u32) as u8;
        for wm in 0..=n {
            for wk in 0..=n {
                for bm in 0..=n {
                    for bk in 0..=n {
                        let m = Material { wm, wk, bm, bk };
                        if m.total() <= pieces && wm + wk > 0 && bm + bk > 0 {
                            v.push(m);
                        }
                    }
                }
            }
        }
        v.sort_by_key(|m| (m.total(), m.men(), *m));
        v
    }
    /// The slice's name: four digits, White men, White kings, Black men, Black kings (`0201`:
    /// two White kings against one Black king).
    pub fn name(self) -> String {
        format!("{}{}{}{}", self.wm, self.wk, self.bm, self.bk)
    }
    /// Reads a name written by [`Material::name`].
    ///
    /// # Errors
    /// Anything but four digits, or a side without pieces.
    pub fn parse(s: &str) -> Result<Material, String> {
        let d: Vec<u8> = s.bytes().map(|c| c.wrapping_sub(b'0')).collect();
        if d.len() != 4 || d.iter().any(|&x| x > 9) {
            return Err(format!("bad slice {s:?}: four digits wm wk bm bk, like 0201"));
        }
        let m = Material {
            wm: d[0],
            wk: d[1],
            bm: d[2],
            bk: d[3],
        };
        if m.wm + m.wk == 0
            || m.bm + m.bk == 0
            || usize::from(d.iter().copied().max().unwrap_or(0)) > MAX_GROUP
        {
            return Err(format!("bad slice {s:?}: each side needs a piece"));
        }
        Ok(m)
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// Where a group may stand: domain index of every bit, and the bit of every domain index.
#[derive(Clone, Copy)]
struct Domain {
    of_bit: [u8; 128],
    bits: [u8; 128],
    len: usize,
}

impl Domain {
    fn new<R: Rules>(excluded: BitsOf<R>) -> Domain {
        let mut d = Domain {
            of_bit: [u8::MAX; 128],
            bits: [0; 128],
            len: 0,
        };
        for n in 1..=R::Board::SQUARES {
            let Some(b) = R::Board::bit_of(n) else { continue };
            if !excluded.has(b) {
                d.of_bit[b as usize] = d.len as u8;
                d.bits[d.len] = b as u8;
                d.len += 1;
            }
        }
        d
    }
}

/// The indexing of one slice of a variant. It is made for one variant ([`SliceIndex::new`]) and
/// must be used with that variant's bit sets only.
#[derive(Clone)]
pub struct SliceIndex {
    /// The slice's material.
    pub material: Material,
    /// Positions per side to move (overlapping indices included).
    pub per_side: u64,
    counts: [u64; 4],
    sizes: [u8; 4],
    domains: [Domain; 3],
    /// Run states of White and Black (1 where no run can exist).
    states: [u64; 2],
    /// The king-move limit of the variant (0: no runs).
    limit: u8,
}

/// Group order: White men, White kings, Black men, Black kings; domains: White men, Black men,
/// kings.
const GROUP_DOMAIN: [usize; 4] = [0, 2, 1, 2];

impl SliceIndex {
    /// The index of a slice of variant `R`.
    ///
    /// # Panics
    /// If a group holds more than [`MAX_GROUP`] pieces or the board more than 72 squares.
    pub fn new<R: Rules>(material: Material) -> Self {
        assert!(R::Board::SQUARES <= MAX_SQUARES);
        let domains = [
            // FMJD 3.5: no man stands on its own promotion row.
            Domain::new::<R>(R::Board::TOP_ROW),
            Domain::new::<R>(R::Board::BOTTOM_ROW),
            Domain::new::<R>(BitsOf::<R>::EMPTY),
        ];
        let sizes = [material.wm, material.wk, material.bm, material.bk];
        let mut counts = [0; 4];
        for g in 0..4 {
            assert!(usize::from(sizes[g]) <= MAX_GROUP);
            counts[g] = binomial(domains[GROUP_DOMAIN[g]].len, usize::from(sizes[g]));
        }
        let limit = R::KING_MOVE_LIMIT;
        let states = |men: u8, kings: u8| {
            if limit > 0 && men > 0 && kings > 0 {
                1 + u64::from(limit) * u64::from(kings)
            } else {
                1
            }
        };
        let states = [states(material.wm, material.wk), states(material.bm, material.bk)];
        SliceIndex {
            material,
            per_side: counts.iter().product::<u64>() * states[0] * states[1],
            counts,
            sizes,
            domains,
            states,
            limit,
        }
    }

    /// The run digit of one side (its kings `kings`, its run `run`).
    #[inline]
    fn run_digit<B: Bits>(&self, s: usize, kings: B, run: KingRun) -> u64 {
        if self.states[s] == 1 || run.count == 0 {
            return 0;
        }
        let j = kings.iter().take_while(|&b| b != u32::from(run.square)).count() as u64;
        1 + u64::from(self.limit) * j + u64::from(run.count - 1)
    }

    /// The run of a side from its digit.
    fn run_of<B: Bits>(&self, kings: B, digit: u64) -> KingRun {
        if digit == 0 {
            return KingRun::default();
        }
        let limit = u64::from(self.limit);
        let j = (digit - 1) / limit;
        let square = kings.iter().nth(j as usize).unwrap_or(0) as u8;
        KingRun {
            count: ((digit - 1) % limit + 1) as u8,
            square,
        }
    }

    /// Indices of the slice, both sides to move.
    pub fn len(&self) -> u64 {
        2 * self.per_side
    }

    /// Whether the slice has no index at all.
    pub fn is_empty(&self) -> bool {
        self.per_side == 0
    }

    #[inline]
    fn rank_group<B: Bits>(&self, g: usize, set: B) -> u64 {
        let dom = &self.domains[GROUP_DOMAIN[g]];
        let mut idx = [0u8; MAX_GROUP];
        let mut n = 0;
        for b in set.iter() {
            idx[n] = dom.of_bit[b as usize];
            n += 1;
        }
        let idx = &mut idx[..n];
        idx.sort_unstable();
        idx.iter()
            .enumerate()
            .map(|(i, &d)| binomial(usize::from(d), i + 1))
            .sum()
    }

    /// The domain indices of group `g`'s combination of rank `rank`, one bit each.
    fn unrank_mask(&self, g: usize, mut rank: u64) -> u128 {
        let dom = &self.domains[GROUP_DOMAIN[g]];
        let mut mask = 0u128;
        let mut top = dom.len;
        for i in (1..=usize::from(self.sizes[g])).rev() {
            // The largest d with C(d, i) <= rank.
            let mut d = top - 1;
            while binomial(d, i) > rank {
                d -= 1;
            }
            rank -= binomial(d, i);
            mask |= 1 << d;
            top = d;
        }
        mask
    }

    /// The board squares of group `g`'s domain indices `mask`.
    #[inline]
    fn mask_set<B: Bits>(&self, g: usize, mut mask: u128) -> B {
        let dom = &self.domains[GROUP_DOMAIN[g]];
        let mut set = B::EMPTY;
        while mask != 0 {
            set |= B::bit(u32::from(dom.bits[mask.trailing_zeros() as usize]));
            mask &= mask - 1;
        }
        set
    }

    /// The index of a position from its piece sets and its Frisian runs (White's, Black's; default
    /// elsewhere); the sets must match the slice's material.
    #[inline]
    pub fn index_of<B: Bits>(&self, white: B, black: B, kings: B, side: Side, runs: [KingRun; 2]) -> u64 {
        let groups = [white & !kings, white & kings, black & !kings, black & kings];
        let mut r = 0;
        for (g, &set) in groups.iter().enumerate() {
            r = r * self.counts[g] + self.rank_group(g, set);
        }
        r = r * self.states[0] + self.run_digit(0, groups[1], runs[0]);
        r = r * self.states[1] + self.run_digit(1, groups[3], runs[1]);
        side.index() as u64 * self.per_side + r
    }

    /// The index of a position of this slice.
    pub fn index<R: Rules>(&self, pos: &Draughts<R>) -> u64 {
        use crate::game::Game;
        self.index_of(
            pos.pieces(Side::White),
            pos.pieces(Side::Black),
            pos.kings(),
            pos.side_to_move(),
            [pos.king_run(Side::White), pos.king_run(Side::Black)],
        )
    }

    /// The piece sets (White, Black, kings), side to move and runs of an index, or `None` when the
    /// groups overlap.
    #[allow(clippy::type_complexity)]
    pub fn sets<B: Bits>(&self, index: u64) -> Option<(B, B, B, Side, [KingRun; 2])> {
        self.sets_in(&mut Walk::new(), index)
    }

    /// [`SliceIndex::sets`] along a walk: the groups whose rank is the walk's last are not unranked
    /// again, and a rank one above the last is the next combination (colex order is the order of
    /// the domain masks as numbers), so walking the indices in order mostly costs the divisions.
    #[allow(clippy::type_complexity)]
    #[inline]
    pub fn sets_in<B: Bits>(&self, walk: &mut Walk<B>, index: u64) -> Option<(B, B, B, Side, [KingRun; 2])> {
        let side = if index >= self.per_side {
            Side::Black
        } else {
            Side::White
        };
        let mut r = index % self.per_side;
        let black_run = r % self.states[1];
        r /= self.states[1];
        let white_run = r % self.states[0];
        r /= self.states[0];
        for g in (0..4).rev() {
            let rank = r % self.counts[g];
            r /= self.counts[g];
            if walk.started && walk.ranks[g] == rank {
                continue;
            }
            let mask = if walk.started && rank == walk.ranks[g] + 1 {
                next_combination(walk.masks[g])
            } else {
                self.unrank_mask(g, rank)
            };
            walk.ranks[g] = rank;
            walk.masks[g] = mask;
            walk.sets[g] = self.mask_set(g, mask);
        }
        walk.started = true;
        let groups = walk.sets;
        let mut all = B::EMPTY;
        let mut n = 0;
        for s in groups {
            all |= s;
            n += s.count();
        }
        if all.count() != n {
            return None;
        }
        Some((
            groups[0] | groups[1],
            groups[2] | groups[3],
            groups[1] | groups[3],
            side,
            [
                self.run_of(groups[1], white_run),
                self.run_of(groups[3], black_run),
            ],
        ))
    }

    /// The position of an index, or `None` when it names none.
    pub fn position<R: Rules>(&self, index: u64) -> Option<Draughts<R>> {
        self.position_in(&mut Walk::new(), index)
    }

    /// [`SliceIndex::position`] along a walk (see [`SliceIndex::sets_in`]): for loops over a run of
    /// indices in increasing order.
    #[inline]
    pub fn position_in<R: Rules>(&self, walk: &mut Walk<BitsOf<R>>, index: u64) -> Option<Draughts<R>> {
        let (w, b, k, side, runs) = self.sets_in(walk, index)?;
        Draughts::from_parts(w, b, k, side, runs).ok()
    }
}

/// The groups last unranked by [`SliceIndex::sets_in`]: one per thread and slice, for a loop that
/// visits indices in increasing order (any order is correct; in order is fast).
#[derive(Clone, Copy, Debug)]
pub struct Walk<B> {
    started: bool,
    ranks: [u64; 4],
    masks: [u128; 4],
    sets: [B; 4],
}

impl<B: Bits> Walk<B> {
    /// A walk that has unranked nothing yet.
    pub fn new() -> Self {
        Walk {
            started: false,
            ranks: [0; 4],
            masks: [0; 4],
            sets: [B::EMPTY; 4],
        }
    }
}

impl<B: Bits> Default for Walk<B> {
    fn default() -> Self {
        Self::new()
    }
}

/// The next combination in colex order of the set bits of `x` (Gosper's rule: the same number of
/// bits, the next larger number). Only called with a rank below the group's count, so a next one
/// exists; an empty group's rank is always 0 and never gets here.
#[inline]
fn next_combination(x: u128) -> u128 {
    let low = x & x.wrapping_neg();
    let ripple = x + low;
    ripple | (((ripple ^ x) >> 2) >> low.trailing_zeros())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::rules::{EnglishRules, FrisianRules, InternationalRules};

    fn round_trip<R: Rules>(m: Material) {
        let ix = SliceIndex::new::<R>(m);
        let mut seen = 0;
        for i in 0..ix.len() {
            if let Some(p) = ix.position::<R>(i) {
                assert_eq!(ix.index(&p), i, "{m} {i}");
                assert_eq!(Material::of(&p), m);
                seen += 1;
            }
        }
        assert!(seen > 0);
    }

    #[test]
    fn ranks_round_trip() {
        round_trip::<InternationalRules>(Material {
            wm: 1,
            wk: 1,
            bm: 0,
            bk: 1,
        });
        round_trip::<EnglishRules>(Material {
            wm: 1,
            wk: 0,
            bm: 2,
            bk: 1,
        });
        round_trip::<EnglishRules>(Material {
            wm: 0,
            wk: 3,
            bm: 0,
            bk: 1,
        });
        // Frisian: a side with a man and a king carries a run (4 states, 7 with two kings).
        round_trip::<FrisianRules>(Material {
            wm: 1,
            wk: 1,
            bm: 0,
            bk: 1,
        });
        let m = Material {
            wm: 1,
            wk: 1,
            bm: 1,
            bk: 1,
        };
        let plain = SliceIndex::new::<InternationalRules>(m);
        assert_eq!(SliceIndex::new::<FrisianRules>(m).per_side, 16 * plain.per_side);
    }

    /// A walk over the indices (in order, then every seventh, then backwards) names the same
    /// positions as unranking each index alone.
    fn walk_agrees<R: Rules>(m: Material) {
        let ix = SliceIndex::new::<R>(m);
        let fresh = |i| ix.sets::<BitsOf<R>>(i);
        let mut walk = Walk::new();
        let mut named = 0;
        for i in 0..ix.len() {
            let s = ix.sets_in(&mut walk, i);
            assert_eq!(s, fresh(i), "{m} {i}");
            named += u64::from(s.is_some());
        }
        assert!(named > ix.len() / 2, "{m}: {named} of {}", ix.len());
        let mut walk = Walk::new();
        for i in (0..ix.len()).step_by(7) {
            assert_eq!(ix.sets_in(&mut walk, i), fresh(i), "{m} {i}");
        }
        for i in (0..ix.len()).rev().step_by(5) {
            assert_eq!(ix.sets_in(&mut walk, i), fresh(i), "{m} {i}");
        }
    }

    #[test]
    fn walks_name_the_positions_of_their_indices() {
        let m = |name| Material::parse(name).unwrap();
        walk_agrees::<InternationalRules>(m("2110"));
        walk_agrees::<EnglishRules>(m("1022"));
        walk_agrees::<FrisianRules>(m("1101"));
    }

    #[test]
    fn slices_come_after_what_they_convert_into() {
        let all = Material::all_up_to(4);
        let pos = |m: &Material| all.iter().position(|x| x == m).unwrap();
        for m in &all {
            if m.wm > 0 {
                let promoted = Material {
                    wm: m.wm - 1,
                    wk: m.wk + 1,
                    ..*m
                };
                assert!(pos(&promoted) < pos(m));
            }
        }
        assert_eq!(
            Material::parse("0201").unwrap(),
            Material {
                wm: 0,
                wk: 2,
                bm: 0,
                bk: 1
            }
        );
        assert!(Material::parse("0200").is_err());
    }
}
