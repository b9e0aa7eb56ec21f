//! The network evaluation of International: four piece-square inputs a square (the side to
//! move's men and kings, then the other side's, each square seen from the side to move, the board
//! turned for Black), two layers of clipped ReLU and one output, the logit of the winning
//! expectation; the score is the logit times the file's `k`.
//!
//! The network ships as `weights/international.nn` (fitted on self-play positions,
//! docs/records/evaluation.md); the `eval-file` option `<network>` chooses it
//! ([`crate::eval::choice::set_eval_file`]). International's default stays its pattern weights:
//! the network beat them by SPRT at 0.1 s a move but scored less than they did against Scan 2.0.
//! For experiments, the environment variable `TEMPO_NET` names a network file read instead of the
//! shipped one.
//!
//! The first layer is kept per thread for the last position evaluated by each side to move and
//! updated by the squares that differ. This has the effect of an accumulator updated on make and
//! unmake without a hook in the search, which copies positions and evaluates only at its leaves:
//! the leaves evaluated one after another are mostly siblings, a few squares apart, and the
//! interior nodes between them are never evaluated, so updating on every move would cost more.
//! Scores, the network's and the tables' of the stand-pat rule ([`Network::evaluate_within`]),
//! are kept by position key in a small per-thread cache. On AVX2 the layers after the first run
//! in [`super::network_simd`]; elsewhere the portable code here computes the same integers and
//! the same score.
//!
//! The file: magic `TEMPONN1`, then little-endian u32 inputs, h1, h2, f32 k, and f32 arrays:
//! w1 (inputs rows of h1), b1 (h1), w2 (h2 rows of h1), b2 (h2), w3 (h2), b3 (1).

#[cfg(target_arch = "x86_64")]
use super::network_simd::layer2_avx2;
use crate::draughts::geom::Geometry;
use crate::draughts::rules::Rules;
use crate::draughts::{BitsOf, Draughts};
use crate::game::{Game, Side};
use std::cell::RefCell;
use std::sync::LazyLock;

/// Fixed-point one of the first layer.
const ONE: i32 = 256;

/// Fixed-point one of the first layer's outputs.
const H1_ONE: i32 = 128;
/// Fixed-point one of the second layer's weights.
const W2_ONE: i32 = 64;

/// The widest first layer read.
pub const MAX_H1: usize = 512;
/// The widest second layer read.
pub const MAX_H2: usize = 64;
/// The inputs of the one network shape the engine evaluates with (International: four a square).
pub const INPUTS: usize = 200;

/// The bytes of a network file of `inputs` inputs and layers `h1` and `h2` wide (format in the
/// module's head).
pub const fn file_bytes(inputs: usize, h1: usize, h2: usize) -> u64 {
    (24 + 4 * (inputs * h1 + h1 + h2 * h1 + h2 + h2 + 1)) as u64
}

/// The largest network file read: that of the largest shape the engine loads
/// ([`INPUTS`]x[`MAX_H1`]x[`MAX_H2`], about 540 KB). A longer file cannot be a network Tempo
/// evaluates with, so it is refused before it is read whole.
pub const MAX_FILE_BYTES: u64 = file_bytes(INPUTS, MAX_H1, MAX_H2);

/// Sixteen i16, aligned for one AVX2 load: the layers' rows are whole lanes (widths are
/// multiples of 16), so that no load straddles a cache line.
#[derive(Clone, Copy)]
#[repr(C, align(32))]
struct Lane([i16; 16]);

const ZERO: Lane = Lane([0; 16]);

/// Thirty-two bytes, aligned for one AVX2 load: the second layer's weights (i8) and its inputs
/// (u8), whole lanes a row (the first layer's width is a multiple of 32).
#[derive(Clone, Copy)]
#[repr(C, align(32))]
struct Bytes32([u8; 32]);

const ZERO8: Bytes32 = Bytes32([0; 32]);

/// i16 lanes as one slice.
#[inline(always)]
fn flat16(l: &[Lane]) -> &[i16] {
    // SAFETY: `Lane` is `repr(C)` around `[i16; 16]`, 32 bytes with no padding.
    #[allow(unsafe_code)]
    unsafe {
        std::slice::from_raw_parts(l.as_ptr().cast(), l.len() * 16)
    }
}

/// Byte lanes as one slice.
#[inline(always)]
fn flat8(l: &[Bytes32]) -> &[u8] {
    // SAFETY: `Bytes32` is `repr(C)` around `[u8; 32]`, 32 bytes with no padding.
    #[allow(unsafe_code)]
    unsafe {
        std::slice::from_raw_parts(l.as_ptr().cast(), l.len() * 32)
    }
}

/// i16 values (a multiple of 16) as lanes.
fn lanes(v: &[i16]) -> Vec<Lane> {
    v.chunks_exact(16).map(|c| Lane(c.try_into().unwrap())).collect()
}

/// How far outside the quiescence window (hundredths of a man) the tables' score of a stand-pat
/// position must lie to stand instead of the network's: far from the window only the side of it
/// matters, and the tables answer that more cheaply (measured at depth 13: 16 % fewer nodes and
/// 9 % more nodes/s, and at depth 8 29-21-50 in games against the network alone;
/// docs/records/evaluation.md).
pub const WINDOW: i32 = 100;

/// Entries of the per-thread score cache (4,096 measured as fast as 65,536).
const HASH: usize = 1 << 12;

/// A network's layers in f32, as a file holds them and training fits them.
#[derive(Clone, Debug, PartialEq)]
pub struct Layers {
    /// Inputs: four times the board's dark squares.
    pub inputs: usize,
    /// First layer width.
    pub h1: usize,
    /// Second layer width.
    pub h2: usize,
    /// Score scale: hundredths of a man per unit of logit.
    pub k: f32,
    /// First layer: `inputs` rows of `h1`.
    pub w1: Vec<f32>,
    /// First layer biases (`h1`).
    pub b1: Vec<f32>,
    /// Second layer: `h2` rows of `h1`.
    pub w2: Vec<f32>,
    /// Second layer biases (`h2`).
    pub b2: Vec<f32>,
    /// Output weights (`h2`).
    pub w3: Vec<f32>,
    /// Output bias (one).
    pub b3: Vec<f32>,
}

impl Layers {
    /// Zero layers of a shape.
    pub fn zeros(inputs: usize, h1: usize, h2: usize, k: f32) -> Layers {
        Layers {
            inputs,
            h1,
            h2,
            k,
            w1: vec![0.0; inputs * h1],
            b1: vec![0.0; h1],
            w2: vec![0.0; h2 * h1],
            b2: vec![0.0; h2],
            w3: vec![0.0; h2],
            b3: vec![0.0; 1],
        }
    }

    /// The arrays in the file's order.
    pub fn arrays(&self) -> [&[f32]; 6] {
        [&self.w1, &self.b1, &self.w2, &self.b2, &self.w3, &self.b3]
    }

    /// The arrays in the file's order, to change.
    pub fn arrays_mut(&mut self) -> [&mut Vec<f32>; 6] {
        [
            &mut self.w1,
            &mut self.b1,
            &mut self.w2,
            &mut self.b2,
            &mut self.w3,
            &mut self.b3,
        ]
    }

    /// The file's bytes (format in the module's head).
    pub fn encode(&self) -> Vec<u8> {
        let mut b = b"TEMPONN1".to_vec();
        for x in [self.inputs, self.h1, self.h2] {
            b.extend_from_slice(&(x as u32).to_le_bytes());
        }
        b.extend_from_slice(&self.k.to_le_bytes());
        for x in self.arrays().into_iter().flatten() {
            b.extend_from_slice(&x.to_le_bytes());
        }
        b
    }

    /// Reads a network file's bytes.
    pub fn decode(b: &[u8]) -> Result<Layers, String> {
        if b.len() < 24 || &b[..8] != b"TEMPONN1" {
            return Err("not a Tempo network file".into());
        }
        let u = |at: usize| u32::from_le_bytes(b[at..at + 4].try_into().unwrap()) as usize;
        let (inputs, h1, h2) = (u(8), u(12), u(16));
        let k = f32::from_le_bytes(b[20..24].try_into().unwrap());
        if inputs == 0
            || inputs > 1024
            || h1 == 0
            || h1 > MAX_H1
            || h2 == 0
            || h2 > MAX_H2
            || !(k > 0.0 && k.is_finite())
        {
            return Err(format!("unsupported shape {inputs}x{h1}x{h2} or scale {k}"));
        }
        let expected = file_bytes(inputs, h1, h2);
        if b.len() as u64 != expected {
            return Err(format!("{} bytes, expected {expected}", b.len()));
        }
        let mut l = Layers::zeros(inputs, h1, h2, k);
        let mut at = 24;
        for a in l.arrays_mut() {
            for x in a.iter_mut() {
                *x = f32::from_le_bytes(b[at..at + 4].try_into().unwrap());
                at += 4;
            }
        }
        if l.arrays().iter().any(|a| a.iter().any(|x| !x.is_finite())) {
            return Err("a weight is not a finite number".into());
        }
        Ok(l)
    }
}

/// A network's weights.
pub struct Network {
    /// Inputs: four times the board's dark squares.
    pub inputs: usize,
    /// First layer width.
    pub h1: usize,
    /// Second layer width.
    pub h2: usize,
    /// Score scale: hundredths of a man per unit of logit.
    pub k: f32,
    /// First layer in fixed point (`ONE` is 1.0), so that adding and removing rows is exact and
    /// the score does not depend on the positions evaluated before.
    w1: Vec<Lane>,
    b1: Vec<Lane>,
    /// Second layer in fixed point, i8 stored as bytes: `W2_ONE` is 1.0 (so weights within
    /// ±127/64); its inputs are the first layer's outputs
    /// at `H1_ONE` for 1.0, so that its sums are exact integers.
    w2: Vec<Bytes32>,
    /// The same weights grouped by four inputs for the AVX2 layer
    /// ([`super::network_simd::transpose`]).
    w2t: Vec<super::network_simd::Block>,
    b2: Vec<i32>,
    w3: Vec<f32>,
    b3: f32,
}

#[cfg(target_arch = "x86_64")]
static AVX2: LazyLock<bool> = LazyLock::new(|| std::arch::is_x86_feature_detected!("avx2"));

/// The shipped International network.
pub const INTERNATIONAL: &[u8] = include_bytes!("../../weights/international.nn");

static NETWORK: LazyLock<Result<Network, String>> = LazyLock::new(|| {
    let Some(path) = std::env::var_os("TEMPO_NET") else {
        return Ok(Network::decode(INTERNATIONAL).expect("the shipped network decodes (a test checks it)"));
    };
    // Through `fsutil`, as every file a user names: a FIFO or a device is refused from its
    // metadata (a plain read blocked the protocol thread for good on a FIFO and read /dev/zero
    // until the memory ran out), and a file longer than any loadable network is not read whole.
    crate::fsutil::read_capped(std::path::Path::new(&path), MAX_FILE_BYTES)
        .and_then(|b| Network::decode(&b))
        .map_err(|e| format!("TEMPO_NET {}: {e}", path.to_string_lossy()))
});

/// International's network: the shipped one, or the file the environment variable `TEMPO_NET`
/// names (read once, on the first call).
///
/// # Errors
/// The `TEMPO_NET` file cannot be read or is no sound network file.
pub fn shipped() -> Result<&'static Network, String> {
    NETWORK.as_ref().map_err(Clone::clone)
}

impl Network {
    /// Reads a network file's bytes.
    pub fn decode(b: &[u8]) -> Result<Network, String> {
        Network::from_layers(&Layers::decode(b)?)
    }

    /// The engine's fixed-point network of f32 layers.
    pub fn from_layers(l: &Layers) -> Result<Network, String> {
        let (inputs, h1, h2) = (l.inputs, l.h1, l.h2);
        if inputs != INPUTS || h1 % 32 != 0 || h1 > MAX_H1 || h2 > MAX_H2 {
            return Err(format!("unsupported shape {inputs}x{h1}x{h2}"));
        }
        let fix = |v: &[f32]| {
            v.iter()
                .map(|&x| (x * ONE as f32).round().clamp(-32767.0, 32767.0) as i16)
                .collect::<Vec<i16>>()
        };
        // i8 weights, so that AVX2 multiplies 32 of them an instruction (`vpmaddubsw`); the
        // fitted networks' second layers stay within ±1, far inside the ±1.98 that i8 holds.
        let w2_bytes =
            l.w2.iter()
                .map(|&x| (x * W2_ONE as f32).round().clamp(-127.0, 127.0) as i8 as u8)
                .collect::<Vec<u8>>();
        let w2t = super::network_simd::transpose(&w2_bytes, h1, h2);
        let w2 = w2_bytes
            .chunks_exact(32)
            .map(|c| Bytes32(c.try_into().unwrap()))
            .collect();
        // Both padded with zeros to a multiple of 8 outputs, whole lanes for the AVX2 layer: a
        // zero output adds zero.
        let pad = h2.next_multiple_of(8);
        let mut b2: Vec<i32> =
            l.b2.iter()
                .map(|&x| (x * (W2_ONE * H1_ONE) as f32).round() as i32)
                .collect();
        b2.resize(pad, 0);
        let mut w3 = l.w3.clone();
        w3.resize(pad, 0.0);
        Ok(Network {
            inputs,
            h1,
            h2,
            k: l.k,
            w1: lanes(&fix(&l.w1)),
            b1: lanes(&fix(&l.b1)),
            w2,
            w2t,
            b2,
            w3,
            b3: l.b3[0],
        })
    }

    /// The score of `pos` for the side to move, in hundredths of a man.
    #[inline(always)]
    pub fn evaluate<R: Rules>(&self, pos: &Draughts<R>) -> i32 {
        let c = self.cache();
        let slot = c.slot(pos.key());
        if c.hash[slot].net == UNKNOWN {
            c.hash[slot].net = self.score(pos, c);
        }
        c.hash[slot].net
    }

    /// The stand-pat score of `pos` where only its side of the window `alpha..beta` matters:
    /// `tables()` (the tables' score of `pos`) when it lies [`WINDOW`] or more outside the
    /// window, else the network's. Both scores are kept in the score cache, so a position seen
    /// again costs neither.
    #[inline(always)]
    pub fn evaluate_within<R: Rules>(
        &self,
        pos: &Draughts<R>,
        alpha: i32,
        beta: i32,
        tables: impl FnOnce() -> i32,
    ) -> i32 {
        let c = self.cache();
        let slot = c.slot(pos.key());
        if c.hash[slot].tables == UNKNOWN {
            c.hash[slot].tables = tables();
        }
        let t = c.hash[slot].tables;
        if t >= beta.saturating_add(WINDOW) || t <= alpha.saturating_sub(WINDOW) {
            return t;
        }
        if c.hash[slot].net == UNKNOWN {
            c.hash[slot].net = self.score(pos, c);
        }
        c.hash[slot].net
    }

    /// Starts fetching this thread's score cache entry of the position with key `key`, so that
    /// the memory is on its way while the search does other work before it evaluates. It
    /// changes nothing else.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        let cell: *const Cache = CACHE.with(RefCell::as_ptr);
        // SAFETY: a thread's cache is used by that thread alone; this reads its table's address.
        #[allow(unsafe_code)]
        let c = unsafe { &*cell };
        if let Some(e) = c.hash.get((key as usize) & (HASH - 1)) {
            prefetch_line(std::ptr::from_ref(e).cast());
        }
    }

    /// This thread's accumulators and score cache, made ready for this network.
    #[inline(always)]
    #[allow(clippy::mut_from_ref)]
    fn cache(&self) -> &mut Cache {
        // The cache is taken out of its cell for the caller alone: an evaluation does not
        // re-enter the network, and no closure keeps the arithmetic from being compiled for AVX2.
        let cell: *mut Cache = CACHE.with(RefCell::as_ptr);
        // SAFETY: a thread's cache is used by that thread alone, and by one evaluation at a time.
        #[allow(unsafe_code)]
        let c = unsafe { &mut *cell };
        if c.h1 != self.h1 {
            c.h1 = self.h1;
            c.acc = [[ZERO; MAX_H1 / 16]; 2];
            let n = self.h1 / 16;
            for view in 0..2 {
                c.acc[view][..n].copy_from_slice(&self.b1);
            }
            c.planes = [Planes::default(); 2];
            c.hash = vec![EMPTY; HASH];
        }
        c
    }

    /// The network's score of `pos`, from the accumulators of `c`, in AVX2 where the processor
    /// has it.
    #[inline(always)]
    fn score<R: Rules>(&self, pos: &Draughts<R>, c: &mut Cache) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if *AVX2 {
            // SAFETY: the processor has AVX2, the one requirement of the function.
            #[allow(unsafe_code)]
            return unsafe { self.compute_avx2(pos, c) };
        }
        self.compute::<R, false>(pos, c)
    }

    /// [`Network::compute`] compiled for AVX2: the same integer arithmetic in wider lanes.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    #[allow(unsafe_code)]
    unsafe fn compute_avx2<R: Rules>(&self, pos: &Draughts<R>, c: &mut Cache) -> i32 {
        self.compute::<R, true>(pos, c)
    }

    #[inline(always)]
    fn compute<R: Rules, const AVX: bool>(&self, pos: &Draughts<R>, c: &mut Cache) -> i32 {
        let now = Planes::of(pos);
        let n = self.h1 / 16;
        // Only the side to move's view is brought up to date: the positions evaluated one after
        // another are mostly siblings, with the same side to move, so each view follows its own.
        let view = usize::from(pos.side_to_move() == Side::Black);
        let old = c.planes[view];
        for (p, (&o, &nw)) in old.bits.iter().zip(&now.bits).enumerate() {
            let gone = o & !nw;
            let came = nw & !o;
            for (bits, add) in [(gone, false), (came, true)] {
                let mut m = bits;
                while m != 0 {
                    let b = m.trailing_zeros() as usize;
                    m &= m - 1;
                    let sq = square::<R>(b);
                    // p: 0 white men, 1 white kings, 2 black men, 3 black kings. White's view
                    // (index 0): own = white; Black's view (1): own = black, board turned.
                    let (colour, king) = (p / 2, p % 2);
                    let own = colour == view;
                    let s = if view == 0 { sq } else { 49 - sq };
                    let input = (if own { 0 } else { 2 } + king) * 50 + s;
                    let row = &self.w1[input * n..(input + 1) * n];
                    // Wrapping: the sum of the rows present never leaves i16, whatever order
                    // the rows come and go in.
                    if add {
                        update(&mut c.acc[view][..n], row, i16::wrapping_add);
                    } else {
                        update(&mut c.acc[view][..n], row, i16::wrapping_sub);
                    }
                }
            }
        }
        c.planes[view] = now;
        let acc = &c.acc[view][..n];
        #[cfg(target_arch = "x86_64")]
        if AVX {
            // SAFETY: `AVX` is true only in `evaluate_avx2`, on a processor with AVX2; the
            // accumulator holds h1 values (a multiple of 32, at most MAX_H1) in aligned lanes,
            // `w2t` h1 / 4 blocks for each eight outputs, `b2` and `w3` h2 values rounded up to
            // a multiple of 8.
            #[allow(unsafe_code)]
            let part = unsafe {
                let a = flat16(acc);
                let scale = 1.0 / (W2_ONE * H1_ONE) as f32;
                let (w2t, b2, w3) = (&self.w2t[..], &self.b2[..], &self.w3[..]);
                match self.h2.div_ceil(8) {
                    1 => layer2_avx2::<1>(a, w2t, b2, w3, scale),
                    2 => layer2_avx2::<2>(a, w2t, b2, w3, scale),
                    3 => layer2_avx2::<3>(a, w2t, b2, w3, scale),
                    4 => layer2_avx2::<4>(a, w2t, b2, w3, scale),
                    5 => layer2_avx2::<5>(a, w2t, b2, w3, scale),
                    6 => layer2_avx2::<6>(a, w2t, b2, w3, scale),
                    7 => layer2_avx2::<7>(a, w2t, b2, w3, scale),
                    _ => layer2_avx2::<8>(a, w2t, b2, w3, scale),
                }
            };
            return self.finish(&part);
        }
        let part = self.layer2(acc);
        self.finish(&part)
    }

    /// The score from the output layer's eight partial sums.
    #[inline(always)]
    fn finish(&self, part: &[f32; 8]) -> i32 {
        let out = self.b3 + part.iter().sum::<f32>();
        ((out * self.k) as i32).clamp(-15_000, 15_000)
    }

    /// The layers after the first from its accumulator, in portable arithmetic: the eight
    /// partial sums of the output layer ([`super::network_simd::layer2_avx2`] computes the same
    /// in AVX2).
    #[inline(always)]
    fn layer2(&self, acc: &[Lane]) -> [f32; 8] {
        let n8 = self.h1 / 32;
        // The first layer's outputs, clipped to 0..=H1_ONE, as bytes: two accumulator lanes a
        // byte lane.
        let mut h = [ZERO8; MAX_H1 / 32];
        for (x, a) in h[..n8].iter_mut().zip(acc.chunks_exact(2)) {
            let mut t = [0u8; 32];
            for k in 0..32 {
                let v = a[k / 16].0[k % 16];
                t[k] = (v / (ONE as i16 / H1_ONE as i16)).clamp(0, H1_ONE as i16) as u8;
            }
            x.0 = t;
        }
        let h = &h[..n8];
        let mut z = [0i32; MAX_H2];
        for (j, z) in z[..self.h2].iter_mut().enumerate() {
            let row = &self.w2[j * n8..(j + 1) * n8];
            *z = self.b2[j] + dot(flat8(h), flat8(row));
        }
        let mut y = [0f32; MAX_H2];
        for (y, z) in y.iter_mut().zip(&z) {
            *y = (*z as f32 * (1.0 / (W2_ONE * H1_ONE) as f32)).clamp(0.0, 1.0);
        }
        // Eight partial sums in a fixed order: vectorisable and the same everywhere.
        let mut part = [0f32; 8];
        for (j, (y, w)) in y[..self.h2].iter().zip(&self.w3).enumerate() {
            part[j % 8] += y * w;
        }
        part
    }
}

/// `acc = op(acc, row)` lane by lane, each lane copied in and out whole so that the compiler
/// sees no aliasing and does each in one vector operation.
#[inline(always)]
fn update(acc: &mut [Lane], row: &[Lane], op: impl Fn(i16, i16) -> i16) {
    for (a, w) in acc.iter_mut().zip(row) {
        let (mut t, w) = (a.0, w.0);
        for k in 0..16 {
            t[k] = op(t[k], w[k]);
        }
        a.0 = t;
    }
}

/// The integer dot product of unsigned inputs and signed (i8) weights stored as bytes; exact,
/// so the score is the same on every processor.
#[inline(always)]
fn dot(a: &[u8], w: &[u8]) -> i32 {
    let mut s = [0i32; 16];
    for (x, y) in a.chunks_exact(16).zip(w.chunks_exact(16)) {
        for i in 0..16 {
            s[i] += i32::from(x[i]) * i32::from(y[i] as i8);
        }
    }
    s.iter().sum()
}

/// Asks the processor to bring the cache line at `p` close.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn prefetch_line(p: *const i8) {
    use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
    // SAFETY: `prefetch` needs SSE, which every x86_64 processor has; the instruction is a hint
    // that reads nothing into the program and cannot fault.
    #[allow(unsafe_code)]
    unsafe {
        _mm_prefetch::<_MM_HINT_T0>(p)
    };
}

/// Elsewhere the hint is left out.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn prefetch_line(_p: *const i8) {}

/// The board square (0-49, as the board numbers them, less one) of bit `b`.
#[inline(always)]
fn square<R: Rules>(b: usize) -> usize {
    usize::from(<R::Board as Geometry>::BIT_TO_SQUARE[b])
}

/// The four piece sets of a position as 64-bit masks.
#[derive(Clone, Copy, Default, PartialEq)]
struct Planes {
    bits: [u64; 4],
}

impl Planes {
    fn of<R: Rules>(pos: &Draughts<R>) -> Planes {
        let k = pos.kings();
        let w = pos.pieces(Side::White);
        let bl = pos.pieces(Side::Black);
        let m = |x: BitsOf<R>| -> u64 { super::squares::as_u64(x) };
        Planes {
            bits: [m(w & !k), m(w & k), m(bl & !k), m(bl & k)],
        }
    }
}

/// A score not computed yet.
const UNKNOWN: i32 = i32::MIN;

/// A score cache entry: a position's key and its scores, the tables' and the network's, each
/// [`UNKNOWN`] until asked for.
#[derive(Clone, Copy)]
struct Entry {
    key: u64,
    tables: i32,
    net: i32,
}

const EMPTY: Entry = Entry {
    key: u64::MAX,
    tables: UNKNOWN,
    net: UNKNOWN,
};

struct Cache {
    h1: usize,
    /// The position each view's accumulator holds (empty boards at first, with the biases).
    planes: [Planes; 2],
    acc: [[Lane; MAX_H1 / 16]; 2],
    /// Scores by position key (direct-mapped; allocated at a thread's first evaluation).
    hash: Vec<Entry>,
}

impl Cache {
    /// The entry of `key`, emptied first if it held another position. Leaves recur within a
    /// search (transpositions, re-searches, the next iteration); the key decides the pieces and
    /// the side to move, and so both scores.
    #[inline(always)]
    fn slot(&mut self, key: u64) -> usize {
        let slot = (key as usize) & (HASH - 1);
        if self.hash[slot].key != key {
            self.hash[slot] = Entry { key, ..EMPTY };
        }
        slot
    }
}

thread_local! {
    static CACHE: RefCell<Cache> = const {
        RefCell::new(Cache { h1: 0, planes: [Planes { bits: [0; 4] }; 2], acc: [[ZERO; MAX_H1 / 16]; 2], hash: Vec::new() })
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bits::Bits;
    use crate::draughts::International;
    use crate::eval::reference::{along_random_games, along_random_games_from};

    /// A pseudo-random number in `-scale..scale`.
    fn noise(seed: &mut u64, scale: f32) -> f32 {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((*seed >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * scale
    }

    /// The layers of a network of the given widths with pseudo-random weights, as f32 arrays in
    /// the file's order: w1, b1, w2, b2, w3, b3.
    fn random_layers(h1: usize, h2: usize, seed: u64) -> Vec<Vec<f32>> {
        let mut s = seed;
        let mut v = |n: usize, scale: f32, bias: f32| -> Vec<f32> {
            (0..n).map(|_| bias + noise(&mut s, scale)).collect()
        };
        vec![
            v(200 * h1, 0.25, 0.0),
            v(h1, 0.3, 0.2),
            v(h2 * h1, 0.25, 0.0),
            v(h2, 0.3, 0.1),
            v(h2, 5.0, 0.0),
            v(1, 0.5, 0.0),
        ]
    }

    /// A network file of those layers (the format of the module's head).
    fn file(h1: usize, h2: usize, k: f32, layers: &[Vec<f32>]) -> Vec<u8> {
        let mut l = Layers::zeros(200, h1, h2, k);
        for (a, v) in l.arrays_mut().into_iter().zip(layers) {
            a.clone_from(v);
        }
        let b = l.encode();
        assert_eq!(Layers::decode(&b).unwrap(), l);
        b
    }

    /// The inputs that are on, read from the position's FEN as the training scripts read it
    /// (scripts/network/prep.py): the side to move's men and kings, then the other side's, each
    /// square numbered from the side to move (51 - s for Black).
    fn inputs_from_fen(fen: &str) -> Vec<usize> {
        let mut parts = fen.split(':');
        let stm = parts.next().unwrap();
        let mut on = Vec::new();
        for p in parts {
            let Some(colour) = p.chars().next().filter(|c| *c == 'W' || *c == 'B') else {
                continue;
            };
            for item in p[1..].split(',').filter(|x| !x.is_empty()) {
                let king = item.starts_with('K');
                let item = item.trim_start_matches('K');
                let (a, b) = match item.split_once('-') {
                    Some((a, b)) => (a.parse::<usize>().unwrap(), b.parse::<usize>().unwrap()),
                    None => (item.parse().unwrap(), item.parse().unwrap()),
                };
                for s in a..=b {
                    let own = colour.to_string() == stm;
                    let sq = if stm == "W" { s } else { 51 - s };
                    on.push((if own { 0 } else { 2 } + usize::from(king)) * 50 + sq - 1);
                }
            }
        }
        on
    }

    /// The network in f32, per input square, as the training scripts compute it.
    fn float_score(l: &[Vec<f32>], h1: usize, h2: usize, k: f32, on: &[usize]) -> f32 {
        let mut z1 = l[1].clone();
        for &i in on {
            for (z, w) in z1.iter_mut().zip(&l[0][i * h1..(i + 1) * h1]) {
                *z += w;
            }
        }
        let a1: Vec<f32> = z1.iter().map(|z| z.clamp(0.0, 1.0)).collect();
        let mut out = l[5][0];
        for j in 0..h2 {
            let z: f32 = l[3][j]
                + a1.iter()
                    .zip(&l[2][j * h1..(j + 1) * h1])
                    .map(|(a, w)| a * w)
                    .sum::<f32>();
            out += z.clamp(0.0, 1.0) * l[4][j];
        }
        out * k
    }

    /// The network's fixed-point arithmetic done from scratch for one position: every input's
    /// row summed anew, no accumulator, no cache, no SIMD.
    fn fixed_score(n: &Network, on: &[usize]) -> i32 {
        let w1 = flat16(&n.w1);
        let mut acc: Vec<i16> = flat16(&n.b1).to_vec();
        for &i in on {
            for (a, w) in acc.iter_mut().zip(&w1[i * n.h1..(i + 1) * n.h1]) {
                *a = a.wrapping_add(*w);
            }
        }
        let a1: Vec<i32> = acc
            .iter()
            .map(|&a| (i32::from(a) / (ONE / H1_ONE)).clamp(0, H1_ONE))
            .collect();
        let w2: Vec<i32> = flat8(&n.w2).iter().map(|&w| i32::from(w as i8)).collect();
        let mut part = [0f32; 8];
        for j in 0..n.h2 {
            let z: i32 = n.b2[j]
                + a1.iter()
                    .zip(&w2[j * n.h1..(j + 1) * n.h1])
                    .map(|(a, w)| a * w)
                    .sum::<i32>();
            let y = (z as f32 * (1.0 / (W2_ONE * H1_ONE) as f32)).clamp(0.0, 1.0);
            part[j % 8] += y * n.w3[j];
        }
        let out = n.b3 + part.iter().sum::<f32>();
        ((out * n.k) as i32).clamp(-15_000, 15_000)
    }

    /// Positions along pseudo-random International games, in the order they were played.
    fn walk(seed: u64, games: usize, plies: usize) -> Vec<International> {
        let mut out = Vec::new();
        along_random_games(seed, games, plies, |pos, _| out.push(*pos));
        out
    }

    #[test]
    fn the_incremental_score_is_the_from_scratch_score_and_the_float_network_within_quantisation() {
        let (h1, h2, k) = (32, 8, 70.0);
        let layers = random_layers(h1, h2, 99);
        let net = Network::decode(&file(h1, h2, k, &layers)).unwrap();
        let mut positions = walk(4242, 30, 160);
        // In game order (neighbours), then shuffled (every accumulator far from the last).
        let n = positions.len();
        let mut s = 7u64;
        let mut shuffled = positions.clone();
        for i in (1..n).rev() {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            shuffled.swap(i, (s >> 33) as usize % (i + 1));
        }
        positions.extend(shuffled);
        // The portable arithmetic, with an accumulator of its own and no cache.
        let mut portable = portable_cache(&net);
        let (mut worst, mut spread) = (0f32, 0f32);
        for pos in &positions {
            let fen = pos.to_fen();
            let on = inputs_from_fen(&fen);
            let fast = net.evaluate(pos);
            assert_eq!(fast, fixed_score(&net, &on), "{fen}");
            assert_eq!(net.compute::<_, false>(pos, &mut portable), fast, "{fen}");
            // The cache answers a second time with the same score.
            assert_eq!(net.evaluate(pos), fast, "{fen}");
            let f = float_score(&layers, h1, h2, k, &on);
            worst = worst.max((fast as f32 - f).abs());
            spread = spread.max(f.abs());
        }
        // Fixed point keeps the scores close to the f32 network's (off by 12 at most here, where
        // they reach 284): a wrong square, side or row would be off by as much as they vary.
        assert!(
            spread >= 200.0,
            "the random network scores too flat ({spread}) to test anything"
        );
        assert!(
            worst <= spread / 15.0,
            "fixed point off by {worst}, scores up to {spread}"
        );
    }

    /// A fresh portable accumulator for `net`, with no cache.
    fn portable_cache(net: &Network) -> Cache {
        let mut c = Cache {
            h1: net.h1,
            planes: [Planes::default(); 2],
            acc: [[ZERO; MAX_H1 / 16]; 2],
            hash: Vec::new(),
        };
        for view in 0..2 {
            c.acc[view][..net.h1 / 16].copy_from_slice(&net.b1);
        }
        c
    }

    #[test]
    fn every_shape_and_the_shipped_network_score_as_the_from_scratch_reference() {
        // The shipped shape (the AVX2 layer with four lanes of outputs), other multiples of 8
        // and a width the AVX2 layer leaves to the portable one (12); each first layer of another
        // width, since a thread keeps one accumulator and score cache for the width it last saw.
        let mut nets: Vec<Network> = vec![Network::decode(INTERNATIONAL).unwrap()];
        for (i, (h1, h2)) in [(64, 16), (32, 24), (96, 64), (160, 12)].into_iter().enumerate() {
            let layers = random_layers(h1, h2, 17 + i as u64);
            nets.push(Network::decode(&file(h1, h2, 60.0, &layers)).unwrap());
        }
        let mut positions = walk(777, 40, 200);
        // And king endings, played on at random from two positions with kings on both sides.
        let starts = [
            "W:WK3,K10,29,38,40:B12,19,24,K46",
            "B:WK5,28,33,K42:B7,K17,21,K45",
        ]
        .map(|fen| International::from_fen(fen).unwrap());
        along_random_games_from(&starts, 31, 60, |pos, _| positions.push(*pos));
        // The walk reaches what changes many inputs at once: captures of several pieces,
        // promotions and kings on both sides.
        let pairs = || positions.windows(2);
        let pieces = |p: &International| p.pieces(Side::White).count() + p.pieces(Side::Black).count();
        assert!(pairs().any(|w| pieces(&w[0]) >= pieces(&w[1]) + 2));
        assert!(pairs().any(|w| w[1].kings().count() > w[0].kings().count()));
        assert!(
            positions
                .iter()
                .any(|p| (p.pieces(Side::White) & p.kings()).count() >= 1
                    && (p.pieces(Side::Black) & p.kings()).count() >= 1)
        );
        for net in &nets {
            let mut portable = portable_cache(net);
            let mut spread = 0;
            for pos in &positions {
                let fen = pos.to_fen();
                let reference = fixed_score(net, &inputs_from_fen(&fen));
                let fast = net.evaluate(pos);
                assert_eq!(fast, reference, "{}x{}: {fen}", net.h1, net.h2);
                assert_eq!(net.compute::<_, false>(pos, &mut portable), reference, "{fen}");
                spread = spread.max(reference.abs());
            }
            assert!(spread >= 100, "{}x{} scores too flat: {spread}", net.h1, net.h2);
        }
    }

    #[test]
    fn the_shipped_network_decodes_and_scores_the_start_as_level() {
        let net = Network::decode(INTERNATIONAL).expect("weights/international.nn");
        assert_eq!((net.inputs, net.h1, net.h2), (200, 128, 32));
        // The start is level: a small score either way. A man up is a clear lead.
        let start = net.evaluate(&International::start());
        assert!(start.abs() <= 30, "{start}");
        let up = International::from_fen("W:W31-50:B1-19").unwrap();
        assert!(net.evaluate(&up) >= 50, "{}", net.evaluate(&up));
    }

    #[test]
    fn damaged_files_are_refused() {
        let layers = random_layers(32, 4, 1);
        let good = file(32, 4, 70.0, &layers);
        assert!(Network::decode(&good).is_ok());
        assert!(Network::decode(&good[..good.len() - 1]).is_err());
        assert!(Network::decode(b"TEMPONN2").is_err());
        let mut odd = good.clone();
        odd[12..16].copy_from_slice(&16u32.to_le_bytes());
        assert!(Network::decode(&odd).is_err());
    }
}
