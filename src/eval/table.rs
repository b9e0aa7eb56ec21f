//! The table evaluator of the square-board family: a variant's learned weights ([`Net`]: a
//! middle-game and an endgame weight for each configuration of each pattern of
//! [`super::features`], and for each linear term) and the score they give a position, the two
//! sums blended by the phase.
//!
//! The search's evaluation sums the weights as it reads the features, without building a
//! [`Features`] first. Where the processor runs BMI2's `pext` fast (and the board fits 64 bits) it
//! goes further: one `pext` a colour reads a pattern's men straight from the unturned board, under
//! a mask turned in advance for Black (`SlotMasks`), and its weights are summed as they are read
//! (a big window's twelve squares go through a table of 4096 ternary values the same way). That
//! took the search from the International start from 10.6 to 12.0 M nodes/s (same tree, depth 19,
//! on this project's 2-core AMD EPYC machine).
//!
//! Weights are stored as integers in 1/2^[`SHIFT`] hundredths of a man; the score is in hundredths
//! of a man like the hand evaluation's, so the search's margins keep their meaning. The weights
//! come from a weight file ([`super::weights`]) chosen by [`super::choice`].

use super::features::*;
use super::squares::as_u64;
use crate::bits::Bits;
use crate::draughts::geom::Geometry;
use crate::draughts::rules::Rules;
use crate::draughts::{BitsOf, Draughts};
use crate::game::{Game, Side};

/// Fraction bits of the stored weights: a weight of `w` is worth `w / 2^SHIFT` hundredths of a man.
pub const SHIFT: u32 = 3;

/// The blend of a middle-game and an endgame sum by `phase`, in hundredths of a man.
#[inline(always)]
fn blend(mg: i32, eg: i32, phase: i32) -> i32 {
    let blended = (i64::from(mg) * i64::from(phase) + i64::from(eg) * i64::from(PHASE_FULL - phase))
        / i64::from(PHASE_FULL);
    (blended / (1 << SHIFT)) as i32
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
    use super::super::reference::*;
    use super::*;
    use crate::draughts::rules::{
        BrazilianRules, CanadianRules, EnglishRules, InternationalRules, ItalianRules, RussianRules,
    };
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

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

    /// Checks the fast evaluation and the score of the features against the reference score on
    /// random positions.
    fn check_fast_equals_reference<R: Rules>(seed: u64) {
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
        for pos in random_positions::<R>(400, seed) {
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
            assert_eq!(net.score(&f), reference_score(&net, &pos), "{}", pos.to_fen());
        }
    }

    #[test]
    fn the_evaluation_equals_a_per_square_loop() {
        check_fast_equals_reference::<InternationalRules>(1);
        check_fast_equals_reference::<RussianRules>(8);
        check_fast_equals_reference::<BrazilianRules>(2);
        check_fast_equals_reference::<ItalianRules>(3);
        check_fast_equals_reference::<CanadianRules>(4);
    }

    fn check_oriented<R: Rules>(seed: u64) {
        let net = random_net::<R>(seed);
        for pos in random_positions::<R>(300, seed) {
            let twin = flip(&pos);
            assert_eq!(net.evaluate(&pos), net.evaluate(&twin), "{}", pos.to_fen());
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
