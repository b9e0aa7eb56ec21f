//! The network's layers after the first one in AVX2 ([`crate::eval::network`] keeps the portable
//! arithmetic they must equal): the first layer's outputs clipped to bytes, the second layer
//! computed from the inputs that are not zero only, and the output layer's partial sums.
//!
//! The second layer runs input-major: its weights are stored by groups of four inputs
//! ([`transpose`]), so that one group's four bytes, broadcast, multiply the weights of eight
//! outputs an instruction and every output's sum stays in its own 32-bit lane: no horizontal sum
//! is needed.
//! The sums are integers, so the order in which the groups are added changes nothing; the output
//! layer adds its products in the portable code's order, so the score is the same to the bit.

/// Thirty-two bytes aligned for one AVX2 load (an unaligned 256-bit load is split in two for
/// the processors the build targets).
#[derive(Clone, Copy)]
#[repr(C, align(32))]
pub struct Block(pub [u8; 32]);

/// The second layer's weights (`h2` rows of `h1` bytes, i8 stored as u8) regrouped for
/// [`layer2_avx2`]: for each group `g` of four inputs, for each output `o`, the four bytes
/// `w2[o][4g..4g + 4]`; eight outputs a block, zeros after the last output.
pub fn transpose(w2: &[u8], h1: usize, h2: usize) -> Vec<Block> {
    let mut t = Vec::with_capacity(h1 * h2);
    for g in 0..h1 / 4 {
        for o in 0..h2.next_multiple_of(8) {
            match o < h2 {
                true => t.extend_from_slice(&w2[o * h1 + 4 * g..o * h1 + 4 * g + 4]),
                false => t.extend_from_slice(&[0; 4]),
            }
        }
    }
    t.chunks_exact(32)
        .map(|c| Block(c.try_into().expect("32 bytes")))
        .collect()
}

/// Bytes aligned for AVX2 stores, as many as the widest first layer.
#[repr(C, align(32))]
struct Inputs([u8; super::network::MAX_H1]);

/// The second and output layers from the first layer's accumulator `acc` (`h1` i16, a multiple
/// of 32): the first layer's outputs `(acc / 2).clamp(0, 128)` as bytes, the second layer's
/// integer sums `b2 + w2 · inputs` for `8 * C` outputs (the last ones zero padding), each scaled by `scale` and clipped
/// to 0..=1 in f32, and the eight partial sums of their products with `w3`, output `j` added to
/// sum `j % 8` in the order of `j`. `w2t` is [`transpose`]'s layout.
///
/// # Safety
/// The processor must have AVX2; `acc` is 32-byte aligned, its length a multiple of 32 and at
/// most `MAX_H1`; `w2t.len() >= acc.len() * C / 4`, `b2.len() >= 8 * C` and `w3.len() >= 8 * C`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
pub unsafe fn layer2_avx2<const C: usize>(
    acc: &[i16],
    w2t: &[Block],
    b2: &[i32],
    w3: &[f32],
    scale: f32,
) -> [f32; 8] {
    use std::arch::x86_64::*;
    let h1 = acc.len();
    debug_assert!(h1 % 32 == 0 && h1 <= super::network::MAX_H1 && acc.as_ptr() as usize % 32 == 0);
    debug_assert!(w2t.len() >= h1 / 4 * C && b2.len() >= 8 * C && w3.len() >= 8 * C);
    let mut inputs = Inputs([0; super::network::MAX_H1]);
    let mut sums = [_mm256_setzero_si256(); C];
    for (c, s) in sums.iter_mut().enumerate() {
        // SAFETY: b2 holds 8 * C values.
        *s = unsafe { _mm256_loadu_si256(b2.as_ptr().add(8 * c).cast()) };
    }
    let ones = _mm256_set1_epi16(1);
    let top = _mm256_set1_epi8(128u8 as i8);
    for i in 0..h1 / 32 {
        // Thirty-two outputs: halve (an arithmetic shift: every negative value clips to zero
        // either way), pack to unsigned bytes with saturation, cap at 128. The pack interleaves
        // the two 128-bit halves; the permutation puts the bytes back in order.
        // SAFETY: 32 * i + 32 <= h1, and `acc` is aligned.
        let (a, b) = unsafe {
            (
                _mm256_load_si256(acc.as_ptr().add(32 * i).cast()),
                _mm256_load_si256(acc.as_ptr().add(32 * i + 16).cast()),
            )
        };
        let packed = _mm256_packus_epi16(_mm256_srai_epi16(a, 1), _mm256_srai_epi16(b, 1));
        let x = _mm256_permute4x64_epi64(_mm256_min_epu8(packed, top), 0b11_01_10_00);
        // SAFETY: 32 * i + 32 <= h1 <= MAX_H1.
        unsafe { _mm256_store_si256(inputs.0.as_mut_ptr().add(32 * i).cast(), x) };
        // Every group of four inputs, even where all four are zero: the fitted networks leave
        // almost none so (3 % of the shipped network's groups over random games), and a
        // branch for them costs more than it saves.
        for g in 8 * i..8 * i + 8 {
            // SAFETY: 4 * g + 4 <= h1; the group's weights are the C blocks at g * C.
            let four = unsafe { inputs.0.as_ptr().add(4 * g).cast::<i32>().read_unaligned() };
            let x = _mm256_set1_epi32(four);
            for (c, s) in sums.iter_mut().enumerate() {
                let w = unsafe { _mm256_load_si256(w2t.as_ptr().add(g * C + c).cast()) };
                // Unsigned inputs (0..=128) times signed weights, pairs added into i16 (at most
                // 2 * 128 * 127, no saturation), then pairs of those into i32.
                *s = _mm256_add_epi32(*s, _mm256_madd_epi16(_mm256_maddubs_epi16(x, w), ones));
            }
        }
    }
    let scale = _mm256_set1_ps(scale);
    let (lo, hi) = (_mm256_setzero_ps(), _mm256_set1_ps(1.0));
    let mut part = _mm256_setzero_ps();
    for (c, s) in sums.iter().enumerate() {
        let y = _mm256_min_ps(
            _mm256_max_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(*s), scale), lo),
            hi,
        );
        // SAFETY: w3 holds 8 * C values.
        let w = unsafe { _mm256_loadu_ps(w3.as_ptr().add(8 * c)) };
        // A product then a sum, no fused multiply-add: the portable code's rounding.
        part = _mm256_add_ps(part, _mm256_mul_ps(y, w));
    }
    let mut out = [0f32; 8];
    // SAFETY: `out` holds 8 f32.
    unsafe { _mm256_storeu_ps(out.as_mut_ptr(), part) };
    out
}
