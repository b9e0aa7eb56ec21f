//! The loss and the optimisers of `tempo train`: the cross-entropy of the model's prediction,
//! `K`, and the fits by Adam ([`fit`]) and by L-BFGS ([`fit_lbfgs`], [`fit_lbfgs_used`]).

use super::data::Samples;
use crate::eval::features::{LINEAR, PHASE_FULL};
use crate::eval::table::{Net, SHIFT};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

pub(super) fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Cross-entropy of prediction `p` against target `t`.
pub(super) fn cross_entropy(p: f64, t: f64) -> f64 {
    let p = p.clamp(1e-12, 1.0 - 1e-12);
    -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
}

/// The `K` that makes `sigmoid(score / K)` the best predictor of the results (golden-section
/// search on log K between 20 and 5000).
pub fn fit_k(s: &Samples) -> f64 {
    fit_k_of(&s.score, &s.result)
}

/// [`fit_k`] over search scores and results given as arrays.
pub fn fit_k_of(score: &[f32], result: &[f32]) -> f64 {
    let loss = |k: f64| -> f64 {
        let n = score.len().max(1) as f64;
        score
            .iter()
            .zip(result)
            .map(|(&sc, &r)| cross_entropy(sigmoid(f64::from(sc) / k), f64::from(r)))
            .sum::<f64>()
            / n
    };
    let (mut a, mut b) = (20f64.ln(), 5000f64.ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let c = b - g * (b - a);
        let d = a + g * (b - a);
        if loss(c.exp()) < loss(d.exp()) {
            b = d;
        } else {
            a = c;
        }
    }
    ((a + b) / 2.0).exp()
}

/// Fitting settings.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Weight of the result in the target.
    pub lambda: f64,
    /// Logistic scale.
    pub k: f64,
    /// Passes.
    pub epochs: u32,
    /// L2 penalty.
    pub l2: f64,
    /// First step size.
    pub lr: f64,
    /// Minibatch size.
    pub batch: usize,
    /// Shuffle seed.
    pub seed: u64,
    /// Pattern configurations seen in fewer training positions are set to zero.
    pub min_count: u32,
}

/// One epoch's figures.
#[derive(Clone, Copy, Debug)]
pub struct Epoch {
    /// From 1.
    pub epoch: u32,
    /// Mean loss over the training positions during the epoch.
    pub train: f64,
    /// Loss over the held-out positions after the epoch (NaN without held-out positions).
    pub held: f64,
}

/// The model in floating point: pattern weights (middle game, endgame interleaved) and linear
/// weights, in hundredths of a man.
struct Model {
    slots: usize,
    pat: Vec<f32>,
    lin: Vec<f32>,
}

impl Model {
    fn eval(&self, s: &Samples, i: usize) -> f64 {
        let ph = f64::from(s.phase[i]) / f64::from(PHASE_FULL);
        let (mut mg, mut eg) = (0f64, 0f64);
        debug_assert_eq!(self.slots, s.slots);
        let (idx, kings) = s.entries(i);
        for &x in idx.iter().chain(kings) {
            let j = 2 * x as usize;
            mg += f64::from(self.pat[j]);
            eg += f64::from(self.pat[j + 1]);
        }
        for (l, &x) in s.linear[i * LINEAR..(i + 1) * LINEAR].iter().enumerate() {
            mg += f64::from(self.lin[2 * l]) * f64::from(x);
            eg += f64::from(self.lin[2 * l + 1]) * f64::from(x);
        }
        mg * ph + eg * (1.0 - ph)
    }

    fn target(&self, s: &Samples, i: usize, o: &Options) -> f64 {
        o.lambda * f64::from(s.result[i]) + (1.0 - o.lambda) * sigmoid(f64::from(s.score[i]) / o.k)
    }

    fn loss(&self, s: &Samples, o: &Options) -> f64 {
        if s.is_empty() {
            return f64::NAN;
        }
        (0..s.len())
            .map(|i| cross_entropy(sigmoid(self.eval(s, i) / o.k), self.target(s, i, o)))
            .sum::<f64>()
            / s.len() as f64
    }

    fn from_net(net: &Net) -> Model {
        let scale = f32::from(1u16 << SHIFT);
        Model {
            slots: net.slots(),
            pat: net
                .patterns
                .iter()
                .flat_map(|w| [f32::from(w[0]) / scale, f32::from(w[1]) / scale])
                .collect(),
            lin: net
                .linear
                .iter()
                .flat_map(|w| [w[0] as f32 / scale, w[1] as f32 / scale])
                .collect(),
        }
    }

    fn to_net(&self, mut net: Net) -> Net {
        let scale = f32::from(1u16 << SHIFT);
        for (w, p) in net.patterns.iter_mut().zip(self.pat.chunks(2)) {
            *w = [
                (p[0] * scale).round().clamp(-32767.0, 32767.0) as i16,
                (p[1] * scale).round().clamp(-32767.0, 32767.0) as i16,
            ];
        }
        for (w, p) in net.linear.iter_mut().zip(self.lin.chunks(2)) {
            *w = [(p[0] * scale).round() as i32, (p[1] * scale).round() as i32];
        }
        net
    }
}

/// Adam state of one parameter array.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    g: Vec<f32>,
}

impl Adam {
    fn new(n: usize) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
            g: vec![0.0; n],
        }
    }
    /// One step on `w` with the gradient gathered in `g` (summed over `n` positions), then clears it.
    fn step(&mut self, w: &mut [f32], n: f32, lr: f32, l2: f32, t: i32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        let c1 = 1.0 - B1.powi(t);
        let c2 = 1.0 - B2.powi(t);
        let state = self.g.iter_mut().zip(self.m.iter_mut().zip(self.v.iter_mut()));
        for (w, (grad, (m, v))) in w.iter_mut().zip(state) {
            let g = *grad / n + l2 * *w;
            *grad = 0.0;
            *m = B1 * *m + (1.0 - B1) * g;
            *v = B2 * *v + (1.0 - B2) * g * g;
            *w -= lr * (*m / c1) / ((*v / c2).sqrt() + 1e-8);
        }
    }
}

/// Fits `start` (the weights to begin from) to `train`, reporting each epoch to `report`.
pub fn fit(
    start: Net,
    train: &Samples,
    held: &Samples,
    o: &Options,
    mut report: impl FnMut(&Epoch),
) -> (Net, Vec<Epoch>) {
    let mut model = Model::from_net(&start);
    let mut pat = Adam::new(model.pat.len());
    let mut lin = Adam::new(model.lin.len());
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(o.seed);
    let mut epochs = Vec::new();
    let mut t = 0;
    let batch = o.batch.max(1);
    for e in 0..o.epochs {
        order.shuffle(&mut rng);
        let lr = (o.lr * (1.0 - 0.9 * f64::from(e) / f64::from(o.epochs.max(1)))) as f32;
        let mut total = 0f64;
        for chunk in order.chunks(batch) {
            for &i in chunk {
                let i = i as usize;
                let eval = model.eval(train, i);
                let p = sigmoid(eval / o.k);
                let target = model.target(train, i, o);
                total += cross_entropy(p, target);
                // d loss / d eval for the cross-entropy of a sigmoid.
                let g = ((p - target) / o.k) as f32;
                let ph = f32::from(train.phase[i]) / PHASE_FULL as f32;
                let (gm, ge) = (g * ph, g * (1.0 - ph));
                let (idx, kings) = train.entries(i);
                for &x in idx.iter().chain(kings) {
                    let j = 2 * x as usize;
                    pat.g[j] += gm;
                    pat.g[j + 1] += ge;
                }
                for (l, &x) in train.linear[i * LINEAR..(i + 1) * LINEAR].iter().enumerate() {
                    let x = f32::from(x);
                    lin.g[2 * l] += gm * x;
                    lin.g[2 * l + 1] += ge * x;
                }
            }
            t += 1;
            let n = chunk.len() as f32;
            pat.step(&mut model.pat, n, lr, o.l2 as f32, t);
            lin.step(&mut model.lin, n, lr, o.l2 as f32, t);
        }
        let epoch = Epoch {
            epoch: e + 1,
            train: total / train.len().max(1) as f64,
            held: model.loss(held, o),
        };
        report(&epoch);
        epochs.push(epoch);
    }
    // Configurations seen in fewer than `min_count` training positions keep no weight: too few
    // games to tell their value from noise, and a search seeks out what its evaluation overrates.
    if o.min_count > 0 {
        let mut seen = vec![0u32; model.pat.len() / 2];
        for &x in train.index.iter().chain(&train.king_index) {
            seen[x as usize] += 1;
        }
        for (j, &c) in seen.iter().enumerate() {
            if c < o.min_count {
                model.pat[2 * j] = 0.0;
                model.pat[2 * j + 1] = 0.0;
            }
        }
    }
    let mut net = model.to_net(start);
    net.k = o.k as f32;
    (net, epochs)
}

/// The fitting objective over flat weights: pattern weights (middle game, endgame interleaved,
/// region by region) then linear weights, in hundredths of a man.
struct Objective<'a> {
    s: &'a Samples,
    target: Vec<f32>,
    k: f64,
    pats: usize,
}

impl Objective<'_> {
    /// The evaluation of position `i` and its phase (0 to 1).
    #[inline(always)]
    fn eval(&self, w: &[f64], i: usize) -> (f64, f64) {
        let s = self.s;
        let ph = f64::from(s.phase[i]) / f64::from(PHASE_FULL);
        let (mut mg, mut eg) = (0f64, 0f64);
        let (idx, kings) = s.entries(i);
        for &x in idx.iter().chain(kings) {
            let j = 2 * x as usize;
            mg += w[j];
            eg += w[j + 1];
        }
        let lin = &w[self.pats..];
        for (l, &x) in s.linear[i * LINEAR..(i + 1) * LINEAR].iter().enumerate() {
            mg += lin[2 * l] * f64::from(x);
            eg += lin[2 * l + 1] * f64::from(x);
        }
        (mg * ph + eg * (1.0 - ph), ph)
    }

    /// The mean cross-entropy over the positions; with `grad`, its gradient is written there.
    fn loss(&self, w: &[f64], mut grad: Option<&mut [f64]>) -> f64 {
        let s = self.s;
        let n = s.len().max(1) as f64;
        if let Some(g) = grad.as_deref_mut() {
            g.fill(0.0);
        }
        let mut total = 0.0;
        for i in 0..s.len() {
            let (e, ph) = self.eval(w, i);
            let p = sigmoid(e / self.k);
            let t = f64::from(self.target[i]);
            total += cross_entropy(p, t);
            if let Some(g) = grad.as_deref_mut() {
                let d = (p - t) / self.k / n;
                let (dm, de) = (d * ph, d * (1.0 - ph));
                let (idx, kings) = s.entries(i);
                for &x in idx.iter().chain(kings) {
                    let j = 2 * x as usize;
                    g[j] += dm;
                    g[j + 1] += de;
                }
                let lin = &mut g[self.pats..];
                for (l, &x) in s.linear[i * LINEAR..(i + 1) * LINEAR].iter().enumerate() {
                    lin[2 * l] += dm * f64::from(x);
                    lin[2 * l + 1] += de * f64::from(x);
                }
            }
        }
        total / n
    }
}

/// Fits `start` to `train` by full-batch L-BFGS (memory 10, backtracking line search) on the mean
/// cross-entropy plus a ridge penalty of `ridge` positions: `ridge · c / n · Σ w² / 2` with
/// `c = 1 / (4 K²)`, the curvature one position at even odds gives a weight it uses. The weights
/// are scaled by the square root of the diagonal of the Gauss-Newton Hessian (`c` times the sum
/// of the squared feature values, over `n`, plus the ridge), so that a pattern seen in a handful
/// of positions and the men's weight, seen in every one, move on the same footing. Unlike minibatch
/// Adam, whose normalised steps move a configuration seen once as far as the men's weight, the
/// result is the exact regularised optimum, and a rare configuration gets a weight in proportion
/// to its evidence. With `anchored` the ridge pulls every weight towards its value in `start`
/// instead of towards zero (`Σ (w − w₀)² / 2`): the fit is then a correction of earlier weights
/// by new games, and a configuration the new games hardly see keeps its old weight. `report` is
/// called every ten iterations and after the last.
#[allow(clippy::too_many_arguments)]
pub fn fit_lbfgs(
    start: Net,
    train: &Samples,
    held: &Samples,
    o: &Options,
    iterations: u32,
    ridge: f64,
    anchored: bool,
    mut report: impl FnMut(&Epoch),
) -> (Net, Vec<Epoch>) {
    let model = Model::from_net(&start);
    let pats = model.pat.len();
    let mut w: Vec<f64> = model
        .pat
        .iter()
        .chain(&model.lin)
        .map(|&x| f64::from(x))
        .collect();
    let dim = w.len();
    let anchor = if anchored { w.clone() } else { vec![0f64; dim] };
    let target = |s: &Samples| -> Vec<f32> { (0..s.len()).map(|i| model.target(s, i, o) as f32).collect() };
    let obj = Objective {
        s: train,
        target: target(train),
        k: o.k,
        pats,
    };
    let held_obj = Objective {
        s: held,
        target: target(held),
        k: o.k,
        pats,
    };
    let n = train.len().max(1) as f64;
    let c = 0.25 / (o.k * o.k);
    let reg = ridge.max(0.0) * c / n;
    // The diagonal of the Gauss-Newton Hessian, and the scale of each weight.
    let mut diag = vec![0f64; dim];
    for i in 0..train.len() {
        let ph = f64::from(train.phase[i]) / f64::from(PHASE_FULL);
        let (qm, qe) = (c * ph * ph, c * (1.0 - ph) * (1.0 - ph));
        let (idx, kings) = train.entries(i);
        for &x in idx.iter().chain(kings) {
            let j = 2 * x as usize;
            diag[j] += qm;
            diag[j + 1] += qe;
        }
        for (l, &x) in train.linear[i * LINEAR..(i + 1) * LINEAR].iter().enumerate() {
            let x2 = f64::from(x) * f64::from(x);
            diag[pats + 2 * l] += qm * x2;
            diag[pats + 2 * l + 1] += qe * x2;
        }
    }
    let scale: Vec<f64> = diag
        .iter()
        .map(|&d| 1.0 / (d / n + reg).max(1e-30).sqrt())
        .collect();
    // The objective in the scaled weights u = w / scale.
    let mut wbuf = vec![0f64; dim];
    let mut value = |u: &[f64], g: &mut [f64]| -> f64 {
        for ((w, &u), &sc) in wbuf.iter_mut().zip(u).zip(&scale) {
            *w = u * sc;
        }
        let mut f = obj.loss(&wbuf, Some(g));
        for (((g, &w), &sc), &a) in g.iter_mut().zip(&wbuf).zip(&scale).zip(&anchor) {
            f += 0.5 * reg * (w - a) * (w - a);
            *g = (*g + reg * (w - a)) * sc;
        }
        f
    };
    let mut u: Vec<f64> = w.iter().zip(&scale).map(|(&w, &sc)| w / sc).collect();
    let mut g = vec![0f64; dim];
    let mut f = value(&u, &mut g);
    const MEMORY: usize = 10;
    let mut hist: std::collections::VecDeque<(Vec<f64>, Vec<f64>, f64)> = Default::default();
    let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>();
    let mut epochs = Vec::new();
    let (mut u_new, mut g_new) = (vec![0f64; dim], vec![0f64; dim]);
    for it in 1..=iterations {
        // Two-loop recursion: d = -H g.
        let mut d: Vec<f64> = g.iter().map(|x| -x).collect();
        let mut alphas = Vec::with_capacity(hist.len());
        for (s, y, rho) in hist.iter().rev() {
            let a = rho * dot(s, &d);
            for (d, y) in d.iter_mut().zip(y) {
                *d -= a * y;
            }
            alphas.push(a);
        }
        if let Some((s, y, _)) = hist.back() {
            let gamma = dot(s, y) / dot(y, y);
            d.iter_mut().for_each(|x| *x *= gamma);
        }
        for ((s, y, rho), a) in hist.iter().zip(alphas.iter().rev()) {
            let b = rho * dot(y, &d);
            for (d, s) in d.iter_mut().zip(s) {
                *d += (a - b) * s;
            }
        }
        let mut slope = dot(&g, &d);
        if slope >= 0.0 {
            hist.clear();
            d = g.iter().map(|x| -x).collect();
            slope = dot(&g, &d);
        }
        // Backtracking (Armijo) line search from the full step.
        let mut step = 1.0;
        let mut accepted = false;
        for _ in 0..30 {
            for ((un, &u), &d) in u_new.iter_mut().zip(&u).zip(&d) {
                *un = u + step * d;
            }
            let f_new = value(&u_new, &mut g_new);
            if f_new <= f + 1e-4 * step * slope {
                f = f_new;
                accepted = true;
                break;
            }
            step *= 0.5;
        }
        if !accepted {
            break;
        }
        let s: Vec<f64> = u_new.iter().zip(&u).map(|(a, b)| a - b).collect();
        let y: Vec<f64> = g_new.iter().zip(&g).map(|(a, b)| a - b).collect();
        let sy = dot(&s, &y);
        if sy > 1e-12 {
            if hist.len() == MEMORY {
                hist.pop_front();
            }
            hist.push_back((s, y, 1.0 / sy));
        }
        std::mem::swap(&mut u, &mut u_new);
        std::mem::swap(&mut g, &mut g_new);
        if it % 10 == 0 || it == iterations {
            for ((w, &u), &sc) in w.iter_mut().zip(&u).zip(&scale) {
                *w = u * sc;
            }
            let epoch = Epoch {
                epoch: it,
                train: obj.loss(&w, None),
                held: if held.is_empty() {
                    f64::NAN
                } else {
                    held_obj.loss(&w, None)
                },
            };
            report(&epoch);
            epochs.push(epoch);
        }
    }
    for ((w, &u), &sc) in w.iter_mut().zip(&u).zip(&scale) {
        *w = u * sc;
    }
    let mut model = model;
    for (m, &x) in model.pat.iter_mut().zip(&w[..pats]) {
        *m = x as f32;
    }
    for (m, &x) in model.lin.iter_mut().zip(&w[pats..]) {
        *m = x as f32;
    }
    let mut net = model.to_net(start);
    net.k = o.k as f32;
    (net, epochs)
}

/// [`fit_lbfgs`] over the pattern weights that `train` or `held` use, the linear weights, and no
/// others: a net with big windows has 4 million pattern weights on 10x10 of which a few hundred
/// thousand positions use a fraction, and L-BFGS keeps some 30 vectors of its size. A weight no
/// position uses has no gradient but the ridge's, so its optimum is known without the fit: its
/// value in `start` when `anchored` or without a ridge, zero otherwise. The used weights are
/// renumbered, the samples' indices with them, the fit runs on that small net, and its weights
/// are put back in place.
#[allow(clippy::too_many_arguments)]
pub fn fit_lbfgs_used(
    start: Net,
    train: &Samples,
    held: &Samples,
    o: &Options,
    iterations: u32,
    ridge: f64,
    anchored: bool,
    report: impl FnMut(&Epoch),
) -> (Net, Vec<Epoch>) {
    const UNUSED: u32 = u32::MAX;
    let mut renumber = vec![UNUSED; start.patterns.len()];
    let mut used = Vec::new();
    let all = [&train.index, &train.king_index, &held.index, &held.king_index];
    for &x in all.into_iter().flatten() {
        let r = &mut renumber[x as usize];
        if *r == UNUSED {
            *r = used.len() as u32;
            used.push(x);
        }
    }
    let compact = |s: &Samples| Samples {
        index: s.index.iter().map(|&x| renumber[x as usize]).collect(),
        king_index: s.king_index.iter().map(|&x| renumber[x as usize]).collect(),
        ..s.clone()
    };
    let small = Net {
        patterns: used.iter().map(|&x| start.patterns[x as usize]).collect(),
        ..start.clone()
    };
    let (fitted, epochs) = fit_lbfgs(
        small,
        &compact(train),
        &compact(held),
        o,
        iterations,
        ridge,
        anchored,
        report,
    );
    let mut net = start;
    if !anchored && ridge > 0.0 {
        net.patterns.fill([0, 0]);
    }
    for (&x, &w) in used.iter().zip(&fitted.patterns) {
        net.patterns[x as usize] = w;
    }
    net.linear = fitted.linear;
    net.k = fitted.k;
    (net, epochs)
}

/// The loss of integer weights `net` over `s` (what the engine will use, rounding included).
pub fn net_loss(net: &Net, s: &Samples, o: &Options) -> f64 {
    let model = Model::from_net(net);
    model.loss(s, o)
}

/// The loss of the hand-set evaluation over `s`, for comparison.
pub fn hand_loss(s: &Samples, o: &Options) -> f64 {
    let model = Model {
        slots: 0,
        pat: Vec::new(),
        lin: Vec::new(),
    };
    (0..s.len())
        .map(|i| cross_entropy(sigmoid(f64::from(s.hand[i]) / o.k), model.target(s, i, o)))
        .sum::<f64>()
        / s.len().max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::Draughts;
    use crate::draughts::rules::BrazilianRules;
    use crate::eval::features;
    use crate::game::Game;

    /// The model the fit works on scores a position as the engine's [`Net::score`] does (up to
    /// the engine's integer rounding), edge patterns, big windows and king terms included: the
    /// two index the same weights.
    #[test]
    fn the_fitted_model_is_the_engines_evaluation() {
        use rand::{Rng, SeedableRng};
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut net = Net::initial_of::<BrazilianRules>(true, true).with_kings(true);
        for w in &mut net.patterns {
            *w = [rng.random_range(-300..300), rng.random_range(-300..300)];
        }
        for w in &mut net.linear {
            *w = [rng.random_range(-900..900), rng.random_range(-900..900)];
        }
        let mut s = Samples {
            edges: true,
            windows: true,
            kings: true,
            ..Samples::default()
        };
        let mut positions = Vec::new();
        for _ in 0..20 {
            let mut pos = Draughts::<BrazilianRules>::start();
            for _ in 0..100 {
                let mut list = crate::game::MoveList::new();
                pos.generate(&mut list);
                if list.is_empty() {
                    break;
                }
                pos = pos.play(&list[rng.random_range(0..list.len())]);
                s.push(&pos, 0, 0.5);
                positions.push(pos);
            }
        }
        assert!(
            positions.iter().filter(|p| p.kings() != 0).count() > 20,
            "positions with kings"
        );
        let model = Model::from_net(&net);
        for (i, pos) in positions.iter().enumerate() {
            let engine = f64::from(net.score(&features::features(pos)));
            let fitted = model.eval(&s, i);
            assert!(
                (engine - fitted).abs() <= 1.0,
                "{}: {engine} against {fitted}",
                pos.to_fen()
            );
        }
    }
}
