//! Fitting a small network evaluation ([`crate::eval::network`]) to self-play data: piece-square
//! inputs seen from the side to move, two layers of clipped ReLU, one logit, Adam over shuffled
//! minibatches on the cross-entropy against `λ·result + (1 − λ)·sigmoid(score / K)`.
//!
//! The inputs of a position are kept as at most [`MAX_ON`] input numbers (one a piece), so a
//! position costs about 50 bytes and tens of millions fit in memory. The first layer is summed
//! over the pieces only; its gradient touches only their rows, and Adam's step is taken over every
//! weight once a minibatch. A minibatch is split over threads, each summing its part's gradient.

use super::optim::cross_entropy;
use crate::bits::Bits;
use crate::draughts::Draughts;
use crate::draughts::geom::Geometry;
use crate::draughts::rules::Rules;
use crate::eval::network::Layers;
use crate::game::{Game, Side};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::PathBuf;
use std::time::Instant;

/// The most pieces a position holds that the data keeps (a board of 50 squares holds 40 at the
/// start of a game; more are cut, which no draughts start reaches).
pub const MAX_ON: usize = 40;

/// Positions as network inputs.
#[derive(Clone, Debug, Default)]
pub struct NetSamples {
    /// Inputs a position: four times the board's dark squares.
    pub inputs: usize,
    /// The inputs that are on, [`MAX_ON`] a position, padded with `u16::MAX`.
    pub on: Vec<u16>,
    /// Search scores for the side to move, hundredths of a man.
    pub score: Vec<f32>,
    /// Game results for the side to move (1, 0.5, 0).
    pub result: Vec<f32>,
}

impl NetSamples {
    /// Number of positions.
    pub fn len(&self) -> usize {
        self.score.len()
    }
    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.score.is_empty()
    }
    /// The inputs that are on in position `i`.
    pub fn on(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        self.on[i * MAX_ON..(i + 1) * MAX_ON]
            .iter()
            .take_while(|&&x| x != u16::MAX)
            .map(|&x| usize::from(x))
    }

    /// Adds a position: its search score and the result for White.
    pub fn push<R: Rules>(&mut self, pos: &Draughts<R>, score: i32, white_result: f32) {
        let start = self.on.len();
        self.on.extend(inputs_of(pos).take(MAX_ON).map(|x| x as u16));
        self.on.resize(start + MAX_ON, u16::MAX);
        self.score.push(score as f32);
        let white = pos.side_to_move() == Side::White;
        self.result
            .push(if white { white_result } else { 1.0 - white_result });
    }
}

/// The network inputs of a position that are on, as the engine numbers them: for each piece,
/// `kind * squares + square`, where kind is 0 for the side to move's men, 1 its kings, 2 and 3
/// the other side's, and the square (from 0) is counted from the side to move's edge (turned for
/// Black).
pub fn inputs_of<R: Rules>(pos: &Draughts<R>) -> impl Iterator<Item = usize> + '_ {
    let n = <R::Board as Geometry>::SQUARES;
    let me = pos.side_to_move();
    let kings = pos.kings();
    [me, me.opponent()]
        .into_iter()
        .enumerate()
        .flat_map(move |(who, side)| {
            [false, true].into_iter().flat_map(move |king| {
                let set = if king {
                    pos.pieces(side) & kings
                } else {
                    pos.pieces(side) & !kings
                };
                set.iter().map(move |b| {
                    let sq = usize::from(<R::Board as Geometry>::BIT_TO_SQUARE[b as usize]);
                    let sq = if me == Side::White { sq } else { n - 1 - sq };
                    (2 * who + usize::from(king)) * n + sq
                })
            })
        })
}

/// Reads the self-play files into training and held-out network samples, split by game as
/// `tempo train` splits them.
///
/// # Errors
/// As [`super::load_of`].
pub fn load<R: Rules>(
    paths: &[PathBuf],
    holdout: f64,
    seed: u64,
    max: Option<usize>,
) -> Result<(NetSamples, NetSamples), String> {
    let inputs = 4 * <R::Board as Geometry>::SQUARES;
    let empty = || NetSamples {
        inputs,
        ..NetSamples::default()
    };
    let (mut train, mut held) = (empty(), empty());
    super::read_games::<R>(paths, holdout, seed, max, |pos, score, result, hold| {
        if hold { &mut held } else { &mut train }.push(pos, score, result);
    })?;
    Ok((train, held))
}

/// How a network is fitted.
#[derive(Clone, Debug)]
pub struct NetOptions {
    /// Weight of the result in the target (the rest goes to the search score).
    pub lambda: f64,
    /// Logistic scale, hundredths of a man.
    pub k: f64,
    /// Passes over the training positions.
    pub epochs: u32,
    /// Adam's step at the first epoch; it falls linearly to a tenth at the last.
    pub lr: f64,
    /// Positions a minibatch.
    pub batch: usize,
    /// Seed of the initial weights and the shuffles.
    pub seed: u64,
    /// Threads a minibatch is split over.
    pub threads: usize,
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x.clamp(-60.0, 60.0)).exp())
}

/// Random starting layers: first-layer weights scaled for the few inputs that are on (about
/// 36 pieces), He-like in the second, small output weights; first-layer biases of 0.1 so that
/// every unit starts active.
pub fn initial(inputs: usize, h1: usize, h2: usize, k: f32, seed: u64) -> Layers {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut normal = move || {
        // Box-Muller.
        let u: f32 = rng.random::<f32>().max(1e-12);
        let v: f32 = rng.random();
        (-2.0 * u.ln()).sqrt() * (std::f32::consts::TAU * v).cos()
    };
    let mut l = Layers::zeros(inputs, h1, h2, k);
    let s1 = (2.0f32 / 36.0).sqrt();
    l.w1.iter_mut().for_each(|w| *w = normal() * s1);
    l.b1.iter_mut().for_each(|b| *b = 0.1);
    let s2 = (1.0 / h1 as f32).sqrt();
    l.w2.iter_mut().for_each(|w| *w = normal() * s2);
    let s3 = 0.1 * (1.0 / h2 as f32).sqrt();
    l.w3.iter_mut().for_each(|w| *w = normal() * s3);
    l
}

/// The logit of position `i` of `s`, leaving in `z1` and `z2` the two layers' sums before
/// clipping (for the backward pass).
fn forward(l: &Layers, s: &NetSamples, i: usize, z1: &mut [f32], z2: &mut [f32]) -> f32 {
    let h1 = l.h1;
    z1.copy_from_slice(&l.b1);
    for x in s.on(i) {
        for (z, w) in z1.iter_mut().zip(&l.w1[x * h1..(x + 1) * h1]) {
            *z += w;
        }
    }
    let mut out = l.b3[0];
    for (j, z) in z2.iter_mut().enumerate() {
        let row = &l.w2[j * h1..(j + 1) * h1];
        let mut t = l.b2[j];
        for (a, w) in z1.iter().zip(row) {
            t += a.clamp(0.0, 1.0) * w;
        }
        *z = t;
        out += t.clamp(0.0, 1.0) * l.w3[j];
    }
    out
}

/// The mean cross-entropy of the network's predictions against the results (and against the
/// blended targets).
pub fn loss(l: &Layers, s: &NetSamples, o: &NetOptions) -> (f64, f64) {
    let (mut z1, mut z2) = (vec![0.0; l.h1], vec![0.0; l.h2]);
    let (mut r, mut t) = (0.0f64, 0.0f64);
    for i in 0..s.len() {
        let p = f64::from(sigmoid(forward(l, s, i, &mut z1, &mut z2)));
        r += cross_entropy(p, f64::from(s.result[i]));
        t += cross_entropy(p, target(s, i, o));
    }
    let n = s.len().max(1) as f64;
    (r / n, t / n)
}

fn target(s: &NetSamples, i: usize, o: &NetOptions) -> f64 {
    o.lambda * f64::from(s.result[i]) + (1.0 - o.lambda) * super::optim::sigmoid(f64::from(s.score[i]) / o.k)
}

/// Adds the gradient of the cross-entropy of positions `rows` of `s` (divided by `scale`) to `g`.
fn gradient(l: &Layers, s: &NetSamples, rows: &[u32], o: &NetOptions, scale: f32, g: &mut Layers) {
    let (h1, h2) = (l.h1, l.h2);
    let (mut z1, mut z2) = (vec![0.0; h1], vec![0.0; h2]);
    let (mut d1, mut d2) = (vec![0.0f32; h1], vec![0.0f32; h2]);
    for &i in rows {
        let i = i as usize;
        let out = forward(l, s, i, &mut z1, &mut z2);
        let d = (sigmoid(out) - target(s, i, o) as f32) / scale;
        g.b3[0] += d;
        for j in 0..h2 {
            let a = z2[j].clamp(0.0, 1.0);
            g.w3[j] += d * a;
            d2[j] = if z2[j] > 0.0 && z2[j] < 1.0 {
                d * l.w3[j]
            } else {
                0.0
            };
        }
        d1.iter_mut().for_each(|x| *x = 0.0);
        for (j, &dj) in d2.iter().enumerate() {
            if dj == 0.0 {
                continue;
            }
            g.b2[j] += dj;
            let row = &l.w2[j * h1..(j + 1) * h1];
            let grow = &mut g.w2[j * h1..(j + 1) * h1];
            for ((gw, (w, z)), d1) in grow.iter_mut().zip(row.iter().zip(&z1)).zip(d1.iter_mut()) {
                *gw += dj * z.clamp(0.0, 1.0);
                *d1 += dj * w;
            }
        }
        for (d1, z) in d1.iter_mut().zip(&z1) {
            if !(*z > 0.0 && *z < 1.0) {
                *d1 = 0.0;
            }
        }
        for (gb, d) in g.b1.iter_mut().zip(&d1) {
            *gb += d;
        }
        for x in s.on(i) {
            for (gw, d) in g.w1[x * h1..(x + 1) * h1].iter_mut().zip(&d1) {
                *gw += d;
            }
        }
    }
}

/// One epoch's figures, for progress lines.
#[derive(Clone, Copy, Debug)]
pub struct NetEpoch {
    /// Epoch number, from 1.
    pub epoch: u32,
    /// Held-out loss against the results.
    pub held_loss: f64,
    /// Seconds since the fit started.
    pub seconds: f64,
}

/// Fits `start` to `train` with Adam and returns the layers; `progress` hears of every epoch
/// with its held-out loss on `held`.
pub fn fit(
    start: Layers,
    train: &NetSamples,
    held: &NetSamples,
    o: &NetOptions,
    mut progress: impl FnMut(NetEpoch),
) -> Layers {
    let clock = Instant::now();
    let mut l = start;
    let zero = Layers::zeros(l.inputs, l.h1, l.h2, l.k);
    let (mut m, mut v) = (zero.clone(), zero.clone());
    let threads = o.threads.max(1);
    let mut grads = vec![zero; threads];
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(o.seed ^ 0x5eed);
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut step = 0i32;
    for epoch in 0..o.epochs {
        let lr = (o.lr * (1.0 - 0.9 * f64::from(epoch) / f64::from((o.epochs - 1).max(1)))) as f32;
        order.shuffle(&mut rng);
        for batch in order.chunks(o.batch.max(1)) {
            let scale = batch.len() as f32;
            let part = batch.len().div_ceil(threads);
            std::thread::scope(|sc| {
                for (g, rows) in grads.iter_mut().zip(batch.chunks(part)) {
                    let l = &l;
                    sc.spawn(move || {
                        for a in g.arrays_mut() {
                            a.iter_mut().for_each(|x| *x = 0.0);
                        }
                        gradient(l, train, rows, o, scale, g);
                    });
                }
            });
            let used = batch.chunks(part).count();
            step += 1;
            let (c1, c2) = (1.0 - b1.powi(step), 1.0 - b2.powi(step));
            let (first, rest) = grads.split_at_mut(1);
            for (t, (((w, m), v), g)) in l
                .arrays_mut()
                .into_iter()
                .zip(m.arrays_mut())
                .zip(v.arrays_mut())
                .zip(first[0].arrays_mut())
                .enumerate()
            {
                for other in rest[..used - 1].iter_mut() {
                    for (x, y) in g.iter_mut().zip(other.arrays_mut()[t].iter()) {
                        *x += y;
                    }
                }
                for (((w, m), v), g) in w.iter_mut().zip(m.iter_mut()).zip(v.iter_mut()).zip(g.iter()) {
                    *m = b1 * *m + (1.0 - b1) * g;
                    *v = b2 * *v + (1.0 - b2) * g * g;
                    *w -= lr * (*m / c1) / ((*v / c2).sqrt() + eps);
                }
            }
        }
        let (held_loss, _) = loss(&l, held, o);
        progress(NetEpoch {
            epoch: epoch + 1,
            held_loss,
            seconds: clock.elapsed().as_secs_f64(),
        });
    }
    l
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::International;
    use crate::eval::network::Network;
    use crate::game::MoveList;

    #[test]
    fn the_inputs_are_the_engines_numbering_of_the_pieces() {
        // White to move: its men on 31-50 are inputs 30-49; Black's men on 1-20 are 100-119.
        let start = International::start();
        let on: Vec<usize> = inputs_of(&start).collect();
        let mut want: Vec<usize> = (30..50).chain(100..120).collect();
        let mut got = on.clone();
        got.sort_unstable();
        want.sort_unstable();
        assert_eq!(got, want);
        // Black to move, one king each: Black's king on 1 is its square 49 seen from its side.
        let pos = International::from_fen("B:WK46,31:BK1,20").unwrap();
        let mut got: Vec<usize> = inputs_of(&pos).collect();
        got.sort_unstable();
        // own men: 20 -> 51 - 20 = 31 -> index 30; own king 1 -> 50 -> 50 + 49;
        // other men: 31 -> 20 -> 100 + 19; other king: 46 -> 5 -> 150 + 4.
        assert_eq!(got, vec![30, 99, 119, 154]);
    }

    /// Positions of the second half of pseudo-random games, each with a result for White from
    /// the material at the game's end: a target the inputs decide.
    fn tiny_games(seed: u64, games: usize) -> Vec<(International, f32)> {
        let mut out = Vec::new();
        let mut x = seed;
        for _ in 0..games {
            let mut pos = International::start();
            let mut line = Vec::new();
            for _ in 0..80 {
                let mut moves = MoveList::new();
                pos.generate(&mut moves);
                if moves.is_empty() {
                    break;
                }
                line.push(pos);
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                pos = pos.play(&moves[(x >> 33) as usize % moves.len()]);
            }
            let count = |side: Side| pos.pieces(side).count() as i32;
            let white = match (count(Side::White) - count(Side::Black)).signum() {
                1 => 1.0,
                -1 => 0.0,
                _ => 0.5,
            };
            out.extend(line[line.len() / 2..].iter().map(|p| (*p, white)));
        }
        out
    }

    fn samples(games: &[(International, f32)]) -> NetSamples {
        let mut s = NetSamples {
            inputs: 200,
            ..NetSamples::default()
        };
        for (p, white) in games {
            s.push(p, 0, *white);
        }
        s
    }

    #[test]
    fn a_fit_on_tiny_data_lowers_the_held_out_loss_and_plays_in_the_engine() {
        let train = samples(&tiny_games(1, 150));
        let held_games = tiny_games(2, 40);
        let held = samples(&held_games);
        let o = NetOptions {
            lambda: 1.0,
            k: 100.0,
            epochs: 6,
            lr: 3e-3,
            batch: 256,
            seed: 3,
            threads: 2,
        };
        let start = initial(200, 32, 8, 100.0, 4);
        let (before, _) = loss(&start, &held, &o);
        let mut losses = Vec::new();
        let fitted = fit(start, &train, &held, &o, |e| losses.push(e.held_loss));
        assert_eq!(losses.len(), 6);
        let after = *losses.last().unwrap();
        assert!(after < before - 0.05, "held-out loss {before:.4} -> {after:.4}");
        // The file round-trips and the engine's fixed-point network agrees with the f32 fit
        // on which side is ahead.
        let net = Network::decode(&fitted.encode()).unwrap();
        let (mut z1, mut z2) = (vec![0.0; 32], vec![0.0; 8]);
        let mut agree = 0;
        let mut i = 0;
        for (n, (pos, _)) in held_games.iter().enumerate() {
            let f = forward(&fitted, &held, n, &mut z1, &mut z2) * fitted.k;
            let e = net.evaluate(pos) as f32;
            agree += i32::from((f - e).abs() <= 5.0 + 0.05 * f.abs());
            i += 1;
        }
        assert!(agree * 10 >= i * 9, "{agree} of {i} scores agree");
    }
}
