//! `tempo train`: fits the learned evaluation ([`crate::eval::pattern`]) to self-play data
//! ([`crate::selfplay::format`]) and writes a weight file ([`crate::eval::weights`]).
//!
//! Each position is reduced once to its features (region configurations, linear terms, phase)
//! in flat arrays, about 100 bytes a position on 10x10, so millions fit in memory. The model is the
//! evaluation itself in floating point: `e = sum of weights`, blended by phase, in hundredths of a
//! man for the side to move. It is fitted by minimising the logistic loss (cross-entropy) of
//! `sigmoid(e / K)` against the target `λ·result + (1 − λ)·sigmoid(score / K)`, where `result` is the
//! game's result for the side to move and `score` the search score of the recorded position, plus
//! a penalty on the weights: by default with full-batch L-BFGS and a ridge ([`fit_lbfgs`]), or
//! with Adam steps over shuffled minibatches and an L2 penalty ([`fit`]; weights fitted so lost to
//! the hand evaluation in games, so it is no longer the default). `K` is fitted first so that
//! `sigmoid(score / K)` best predicts the results (or given with `--k`); it is stored in the file.
//! Positions are split into training and held-out sets by game (a hash of the seed, the file and the
//! game number), so positions of one game never land on both sides.
//!
//! One thread does it: a pass over two million positions takes about a quarter of a second, and
//! 200 L-BFGS iterations about a minute, so threads would not pay for their complexity.

use crate::draughts::Draughts;
use crate::draughts::geom::Geometry;
use crate::draughts::rules::{self, Rules};
use crate::eval::pattern::{self, LINEAR, Net, PHASE_FULL, Regions, SHIFT};
use crate::eval::weights;
use crate::game::{Game, Side};
use crate::selfplay::format::game_line;
use crate::variant::Variant;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use std::path::PathBuf;
use std::time::Instant;

/// The arguments of `tempo train`.
#[derive(clap::Args, Debug, Clone)]
pub struct TrainArgs {
    /// Variant of the data and the weights (a square-board variant with dark squares only and a
    /// normal goal: not antidraughts, turkish or armenian).
    #[arg(long, short, default_value = "international")]
    pub variant: Variant,
    /// Self-play files (`tempo selfplay --out`). Lines after a file's last `# game` line (a game
    /// still being written) are ignored.
    #[arg(long, required = true, num_args = 1..)]
    pub data: Vec<PathBuf>,
    /// The weight file to write (optional with --compare: without it nothing is fitted).
    #[arg(long, required_unless_present = "compare")]
    pub out: Option<PathBuf>,
    /// Weight files (another fit, the shipped `weights/<variant>.bin`) whose losses on the same
    /// training and held-out positions, with the same K, are printed before the fit: weights
    /// compared on positions of games neither was fitted on. Files with edge patterns need
    /// --edges, files without them need it left out.
    #[arg(long, num_args = 1..)]
    pub compare: Vec<PathBuf>,
    /// Weights to start from (a weight file, such as the shipped `weights/<variant>.bin`)
    /// instead of the hand-set values; with L-BFGS the ridge then pulls every weight towards its
    /// value there instead of towards zero, so the new games correct the old weights and a
    /// configuration they hardly see keeps its old weight.
    #[arg(long)]
    pub init: Option<PathBuf>,
    /// Weight of the game result in the target; the rest goes to the search score.
    #[arg(long, default_value_t = 1.0, value_parser = parse_lambda)]
    pub lambda: f64,
    /// Logistic scale in hundredths of a man (default: fitted so that sigmoid(score / K) best
    /// predicts the results).
    #[arg(long, value_parser = parse_positive)]
    pub k: Option<f64>,
    /// Adam: passes over the training positions.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=MAX_ROUNDS))]
    pub epochs: u32,
    /// Fraction of the games held out to measure the fit on positions not trained on.
    #[arg(long, default_value_t = 0.1, value_parser = parse_holdout)]
    pub holdout: f64,
    /// Adam: L2 penalty on every weight (per position, weights in hundredths of a man). It also keeps
    /// the middle-game weights of terms rare on a full board (runaways, kings) from drifting.
    #[arg(long, default_value_t = 1e-7, value_parser = parse_non_negative)]
    pub l2: f64,
    /// Adam: step size at the first epoch, in hundredths of a man; it falls linearly to a tenth.
    #[arg(long, default_value_t = 2.0, value_parser = parse_positive)]
    pub lr: f64,
    /// Adam: positions a minibatch.
    #[arg(long, default_value_t = 4096, value_parser = parse_batch)]
    pub batch: usize,
    /// Use at most this many positions (the first ones of the files).
    #[arg(long, value_parser = parse_max_positions)]
    pub max_positions: Option<usize>,
    /// Region configurations seen in fewer training positions than this get no weight (zero;
    /// 0: off).
    #[arg(long, default_value_t = 0)]
    pub min_count: u32,
    /// Seed of the held-out split and of the shuffles.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// How the weights are fitted: `lbfgs` (full-batch L-BFGS on the exact regularised loss,
    /// `--iterations`, `--ridge`) or `adam` (minibatch steps, `--epochs`, `--lr`, `--l2`,
    /// `--batch`; its weights lost to the hand evaluation, docs/records/evaluation.md).
    #[arg(long, value_enum, default_value_t = Optimizer::Lbfgs)]
    pub optimizer: Optimizer,
    /// L-BFGS iterations.
    #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u32).range(1..=MAX_ROUNDS))]
    pub iterations: u32,
    /// Also fit the four edge patterns (three columns along each side edge over six rows, top
    /// and bottom; 3^9 configurations each): a version-2 weight file, about 75 % larger (735 KB against 420 KB on 10x10).
    #[arg(long)]
    pub edges: bool,
    /// Also fit the big windows (four columns by six rows, 3^12 configurations each; 8 on
    /// 10x10): a version-3 weight file of 17 MB on 10x10. With --init from a net without them
    /// they start at zero, so they learn corrections of that net's evaluation; L-BFGS then
    /// fits only the weights the data uses ([`fit_lbfgs_used`]).
    #[arg(long)]
    pub windows: bool,
    /// Also fit the king terms: a weight for each square a king stands on (for the side to move
    /// and for the other side, seen from the king's owner; 100 on 10x10) and one for the squares
    /// the kings reach where an enemy man could take them at once. A version-4 weight file. With
    /// --init from a net without them they start at zero.
    #[arg(long)]
    pub kings: bool,
    /// L-BFGS ridge penalty, in positions: every weight is pulled towards zero as strongly as
    /// this many positions of evidence at even odds pull it towards their results, so a
    /// configuration seen in far fewer positions keeps a weight near zero.
    #[arg(long, default_value_t = 20.0, value_parser = parse_non_negative)]
    pub ridge: f64,
}

/// The most epochs or iterations `tempo train` accepts.
pub const MAX_ROUNDS: i64 = 1_000_000;
/// The largest Adam minibatch.
pub const MAX_BATCH: usize = 1 << 24;

/// An option's value quoted for a message, cut to 80 characters.
fn quoted(text: &str) -> String {
    match text.char_indices().nth(80) {
        Some((at, _)) => format!("{:?}...", &text[..at]),
        None => format!("{text:?}"),
    }
}

/// A finite number `x` with `ok(x)`, or a message saying what `what` is.
fn finite(text: &str, ok: impl Fn(f64) -> bool, what: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && ok(x) => Ok(x),
        _ => Err(format!("{} is not {what}", quoted(text))),
    }
}

fn parse_lambda(text: &str) -> Result<f64, String> {
    finite(text, |x| (0.0..=1.0).contains(&x), "a number from 0 to 1")
}

fn parse_holdout(text: &str) -> Result<f64, String> {
    finite(
        text,
        |x| (0.0..1.0).contains(&x),
        "a number from 0 up to (not including) 1",
    )
}

fn parse_positive(text: &str) -> Result<f64, String> {
    finite(text, |x| x > 0.0, "a finite number above 0")
}

fn parse_non_negative(text: &str) -> Result<f64, String> {
    finite(text, |x| x >= 0.0, "a finite number, 0 or more")
}

/// A whole number in `lo..=hi`, or a message giving the range.
fn count_in(text: &str, lo: usize, hi: usize) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(n) if (lo..=hi).contains(&n) => Ok(n),
        _ => Err(format!(
            "{} is not a whole number from {lo} to {hi}",
            quoted(text)
        )),
    }
}

fn parse_batch(text: &str) -> Result<usize, String> {
    count_in(text, 1, MAX_BATCH)
}

fn parse_max_positions(text: &str) -> Result<usize, String> {
    count_in(text, 1, usize::MAX)
}

/// The fitting method of `tempo train`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Optimizer {
    /// Adam over shuffled minibatches.
    Adam,
    /// Full-batch L-BFGS, preconditioned by the diagonal of the Gauss-Newton Hessian.
    Lbfgs,
}

/// Features of many positions in flat arrays.
#[derive(Clone, Debug, Default)]
pub struct Samples {
    /// Whether the edge patterns are read (set before the first [`Samples::push`]).
    pub edges: bool,
    /// Whether the big windows are read (set before the first [`Samples::push`]).
    pub windows: bool,
    /// Whether the king table and the attacked king squares are read (set before the first
    /// [`Samples::push`]); without them the attacked squares' term is 0.
    pub kings: bool,
    /// Pattern slots a position: its regions, then its edge patterns and big windows if any.
    pub slots: usize,
    /// Each slot's configuration as its place in a net's table ([`pattern::slot_base`] plus the
    /// configuration), `slots` a position.
    pub index: Vec<u32>,
    /// King-table entries as places in a net's table, a variable number a position (one per
    /// king): those of position `i` end at `king_end[i]` and start where position `i - 1`'s end.
    pub king_index: Vec<u32>,
    /// Where each position's king-table entries end in `king_index`.
    pub king_end: Vec<u32>,
    /// Linear terms, [`LINEAR`] a position.
    pub linear: Vec<i16>,
    /// Phases (0 to [`PHASE_FULL`]).
    pub phase: Vec<u16>,
    /// Search scores for the side to move, hundredths of a man.
    pub score: Vec<f32>,
    /// Game results for the side to move (1, 0.5, 0).
    pub result: Vec<f32>,
    /// The hand-set evaluation's scores, for comparison.
    pub hand: Vec<f32>,
}

impl Samples {
    /// Number of positions.
    pub fn len(&self) -> usize {
        self.phase.len()
    }
    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.phase.is_empty()
    }
    /// The places in a net's table of position `i`'s features: its pattern slots, then its
    /// king-table entries.
    #[inline(always)]
    pub fn entries(&self, i: usize) -> (&[u32], &[u32]) {
        let start = if i == 0 { 0 } else { self.king_end[i - 1] as usize };
        (
            &self.index[i * self.slots..(i + 1) * self.slots],
            &self.king_index[start..self.king_end[i] as usize],
        )
    }

    /// Adds a position of variant `R`: its search score and the result for White.
    pub fn push<R: Rules>(&mut self, pos: &Draughts<R>, score: i32, white_result: f32) {
        let mut f = pattern::features_of(pos, self.edges, self.windows);
        self.slots = f.regions + f.edges + f.windows;
        self.index.extend(
            f.index[..f.regions + f.edges]
                .iter()
                .enumerate()
                .map(|(s, &x)| (pattern::slot_base(f.regions, s) + usize::from(x)) as u32),
        );
        self.index.extend(
            f.window[..f.windows]
                .iter()
                .enumerate()
                .map(|(w, &x)| (pattern::window_base(f.regions, f.edges, w) + x as usize) as u32),
        );
        if self.kings {
            let base = pattern::window_base(f.regions, f.edges, f.windows);
            self.king_index
                .extend(f.king[..f.kings].iter().map(|&x| (base + usize::from(x)) as u32));
        } else {
            f.linear[pattern::KING_ATTACKED] = 0;
        }
        self.king_end.push(self.king_index.len() as u32);
        self.linear
            .extend(f.linear.iter().map(|&x| x.clamp(-32768, 32767) as i16));
        self.phase.push(f.phase as u16);
        self.score.push(score as f32);
        self.hand.push(crate::eval::draughts::hand_evaluate(pos) as f32);
        self.result.push(if pos.side_to_move() == Side::White {
            white_result
        } else {
            1.0 - white_result
        });
    }
}

/// Reads the self-play files into training and held-out positions, with the edge patterns when
/// `edges` (no big windows).
///
/// # Errors
/// As [`load_of`].
pub fn load<R: Rules>(
    paths: &[PathBuf],
    holdout: f64,
    seed: u64,
    max: Option<usize>,
    edges: bool,
) -> Result<(Samples, Samples), String> {
    load_of::<R>(paths, holdout, seed, max, edges, false)
}

/// Reads the self-play files into training and held-out positions, with the edge patterns when
/// `edges` and the big windows when `windows`.
///
/// # Errors
/// A file that cannot be read, written for another variant, or holding a line that is neither a
/// comment nor a position of the variant.
pub fn load_of<R: Rules>(
    paths: &[PathBuf],
    holdout: f64,
    seed: u64,
    max: Option<usize>,
    edges: bool,
    windows: bool,
) -> Result<(Samples, Samples), String> {
    let read = Samples {
        edges,
        windows,
        ..Samples::default()
    };
    load_into::<R>(paths, holdout, seed, max, &read)
}

/// Reads the self-play files into training and held-out positions with the optional features
/// of `read` (an empty [`Samples`] whose `edges`, `windows` and `kings` say which).
///
/// # Errors
/// As [`load_of`].
pub fn load_into<R: Rules>(
    paths: &[PathBuf],
    holdout: f64,
    seed: u64,
    max: Option<usize>,
    read: &Samples,
) -> Result<(Samples, Samples), String> {
    let empty = || Samples {
        edges: read.edges,
        windows: read.windows,
        kings: read.kings,
        ..Samples::default()
    };
    let (mut train, mut held) = (empty(), empty());
    let mut pending: Vec<(Draughts<R>, i32, f32)> = Vec::new();
    let max = max.unwrap_or(usize::MAX);
    'files: for (f, path) in paths.iter().enumerate() {
        // Read line by line with a bound on each line, not whole: data files may be gigabytes,
        // and a device such as /dev/zero (refused as not a regular file) never ends.
        let file = crate::fsutil::open_regular(path)?;
        let mut reader = std::io::BufReader::with_capacity(1 << 20, file);
        pending.clear();
        let mut bytes = Vec::new();
        for n in 0.. {
            let at = || format!("{} line {}", path.display(), n + 1);
            let got =
                crate::fsutil::read_line_bounded(&mut reader, &mut bytes, crate::selfplay::format::MAX_LINE)
                    .map_err(|e| format!("{}: {e}", at()))?;
            if got == 0 {
                break;
            }
            let line = std::str::from_utf8(&bytes)
                .map_err(|_| format!("{}: not UTF-8 text", at()))?
                .trim_end_matches(['\n', '\r']);
            if let Some(rest) = line.strip_prefix("# tempo selfplay ") {
                let variant = rest
                    .split_whitespace()
                    .find_map(|w| w.strip_prefix("variant="))
                    .unwrap_or("");
                if variant != R::NAME {
                    return Err(format!(
                        "{}: the data is for {variant}, not for {}",
                        at(),
                        R::NAME
                    ));
                }
                continue;
            }
            if let Some(k) = game_line(line)
                .transpose()
                .map_err(|e| format!("{}: {e}", at()))?
            {
                let key = splitmix(seed ^ splitmix((f as u64) << 40 ^ k));
                let hold = ((key >> 11) as f64 / (1u64 << 53) as f64) < holdout;
                let set = if hold { &mut held } else { &mut train };
                for (pos, score, result) in pending.drain(..) {
                    set.push(&pos, score, result);
                }
                if train.len() + held.len() >= max {
                    break 'files;
                }
                continue;
            }
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let mut fields = line.split('\t');
            let (Some(fen), Some(score), Some(result)) = (fields.next(), fields.next(), fields.next()) else {
                return Err(format!("{}: not a position line", at()));
            };
            let pos = Draughts::<R>::from_fen(fen).map_err(|e| format!("{}: {e}", at()))?;
            let score: i32 = score
                .parse()
                .map_err(|_| format!("{}: bad score {score:?}", at()))?;
            let result: f32 = match result.trim() {
                "1" => 1.0,
                "0.5" => 0.5,
                "0" => 0.0,
                r => return Err(format!("{}: bad result {r:?}", at())),
            };
            pending.push((pos, score, result));
        }
    }
    Ok((train, held))
}

fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Cross-entropy of prediction `p` against target `t`.
fn cross_entropy(p: f64, t: f64) -> f64 {
    let p = p.clamp(1e-12, 1.0 - 1e-12);
    -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
}

/// The `K` that makes `sigmoid(score / K)` the best predictor of the results (golden-section
/// search on log K between 20 and 5000).
pub fn fit_k(s: &Samples) -> f64 {
    let loss = |k: f64| -> f64 {
        let n = s.len().max(1) as f64;
        s.score
            .iter()
            .zip(&s.result)
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

/// The weights of file `path`, for samples `s` (read with edge patterns exactly when the file
/// has them).
fn read_net<R: Rules>(path: &std::path::Path, s: &Samples) -> Result<Net, String> {
    let bytes = crate::fsutil::read_capped(path, weights::MAX_FILE_BYTES)?;
    let net = weights::decode_for::<R>(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    // A net without big windows scores as before with windows of zero weight: the start of a
    // fit that learns them, or a comparison on data read with them.
    let net = net.with_windows(s.windows).with_kings(s.kings);
    if net.windows > 0 && !s.windows {
        return Err(format!(
            "{}: weights with big windows, data read without them (add --windows)",
            path.display()
        ));
    }
    if (net.kings > 0 || net.linear[pattern::KING_ATTACKED] != [0, 0]) && !s.kings {
        return Err(format!(
            "{}: weights with king terms, data read without them (add --kings)",
            path.display()
        ));
    }
    if net.slots() != s.slots {
        let with = |edges: bool| if edges { "with" } else { "without" };
        return Err(format!(
            "{}: weights {} edge patterns, data read {} them ({} --edges)",
            path.display(),
            with(net.edges > 0),
            with(s.edges),
            if s.edges { "leave out" } else { "add" }
        ));
    }
    Ok(net)
}

/// The losses of the weight file `path` over `train` and `held`, and over `held` against the
/// results alone: the figures `tempo train` prints for its own fit, for weights made elsewhere.
///
/// # Errors
/// An unreadable file, weights of another variant or board, or edge patterns where the samples
/// have none (or the reverse).
pub fn compare_file<R: Rules>(
    path: &std::path::Path,
    train: &Samples,
    held: &Samples,
    o: &Options,
) -> Result<(f64, f64, f64), String> {
    let net = read_net::<R>(path, train)?;
    let results = Options { lambda: 1.0, ..*o };
    Ok((
        net_loss(&net, train, o),
        net_loss(&net, held, o),
        net_loss(&net, held, &results),
    ))
}

/// Runs `tempo train`.
///
/// # Errors
/// A variant without learned evaluation, bad settings, unreadable data or output.
pub fn run(args: &TrainArgs) -> Result<(), String> {
    use rules::*;
    match args.variant {
        Variant::International => run_for::<InternationalRules>(args),
        Variant::Russian => run_for::<RussianRules>(args),
        Variant::Brazilian => run_for::<BrazilianRules>(args),
        Variant::English => run_for::<EnglishRules>(args),
        Variant::Frisian => run_for::<FrisianRules>(args),
        Variant::Frysk => run_for::<FryskRules>(args),
        Variant::Italian => run_for::<ItalianRules>(args),
        Variant::Spanish => run_for::<SpanishRules>(args),
        Variant::Portuguese => run_for::<PortugueseRules>(args),
        Variant::Czech => run_for::<CzechRules>(args),
        Variant::Pool => run_for::<PoolRules>(args),
        Variant::Thai => run_for::<ThaiRules>(args),
        Variant::Canadian => run_for::<CanadianRules>(args),
        Variant::Killer => run_for::<KillerRules>(args),
        Variant::Breakthrough => run_for::<BreakthroughRules>(args),
        v => Err(format!(
            "{} has no learned evaluation: only square-board variants with dark squares and a \
             normal goal have one",
            v.name()
        )),
    }
}

fn run_for<R: Rules>(args: &TrainArgs) -> Result<(), String> {
    if !(0.0..=1.0).contains(&args.lambda) {
        return Err(format!("--lambda {} is not between 0 and 1", args.lambda));
    }
    if !(0.0..1.0).contains(&args.holdout) {
        return Err(format!("--holdout {} is not in [0, 1)", args.holdout));
    }
    if let Some(out) = &args.out {
        // The output replaces its file only after the fit: one of the inputs under another name
        // would be destroyed, and an output that cannot be written would be found only then.
        // Inputs may share a file among themselves (the start also compared); only the output
        // must be none of them.
        let inputs = (args.data.iter().map(|p| ("--data", p)))
            .chain(args.init.iter().map(|p| ("--init", p)))
            .chain(args.compare.iter().map(|p| ("--compare", p)));
        for (option, input) in inputs {
            crate::fsutil::check_distinct(&[("--out", out), (option, input)])?;
        }
        crate::fsutil::check_writable(out).map_err(|e| format!("--out: {e}"))?;
    }
    let clock = Instant::now();
    let read = Samples {
        edges: args.edges,
        windows: args.windows,
        kings: args.kings,
        ..Samples::default()
    };
    let (train, held) = load_into::<R>(&args.data, args.holdout, args.seed, args.max_positions, &read)?;
    if train.is_empty() {
        return Err("no finished game in the data".into());
    }
    eprintln!(
        "read {} training and {} held-out positions ({} regions{}{}{} each) in {:.1} s",
        train.len(),
        held.len(),
        Regions::of::<R::Board>().count,
        if args.edges { ", 4 edge patterns" } else { "" },
        if args.windows { ", big windows" } else { "" },
        if args.kings { ", king terms" } else { "" },
        clock.elapsed().as_secs_f64()
    );
    let k = match args.k {
        Some(k) if k > 0.0 => k,
        Some(k) => return Err(format!("--k {k} must be positive")),
        None => {
            let k = fit_k(&train);
            eprintln!("fitted K = {k:.1}");
            k
        }
    };
    let o = Options {
        lambda: args.lambda,
        k,
        epochs: args.epochs,
        l2: args.l2,
        lr: args.lr,
        batch: args.batch,
        seed: args.seed,
        min_count: args.min_count,
    };
    let (start, anchored) = match &args.init {
        Some(path) => (read_net::<R>(path, &train)?, true),
        None => (
            Net::initial_of::<R>(args.edges, args.windows).with_kings(args.kings),
            false,
        ),
    };
    eprintln!(
        "hand-set evaluation: train loss {:.5}  held-out loss {:.5}",
        hand_loss(&train, &o),
        hand_loss(&held, &o)
    );
    for path in &args.compare {
        let (t, h, r) = compare_file::<R>(path, &train, &held, &o)?;
        eprintln!(
            "{}: train loss {t:.5}  held-out loss {h:.5}  held-out loss against the results alone {r:.5}",
            path.display()
        );
    }
    let Some(out) = &args.out else {
        return Ok(());
    };
    eprintln!(
        "start: train loss {:.5}  held-out loss {:.5}",
        net_loss(&start, &train, &o),
        net_loss(&start, &held, &o)
    );
    let fit_clock = Instant::now();
    // L-BFGS's progress line, the same with or without big windows.
    let iteration = |e: &Epoch| {
        eprintln!(
            "iteration {:>4}/{}  train loss {:.5}  held-out loss {:.5}  ({:.1} s)",
            e.epoch,
            args.iterations,
            e.train,
            e.held,
            fit_clock.elapsed().as_secs_f64()
        );
    };
    let (net, epochs) = match args.optimizer {
        Optimizer::Adam => fit(start, &train, &held, &o, |e| {
            eprintln!(
                "epoch {:>3}/{}  train loss {:.5}  held-out loss {:.5}  ({:.1} s)",
                e.epoch,
                o.epochs,
                e.train,
                e.held,
                fit_clock.elapsed().as_secs_f64()
            );
        }),
        // With big windows, only the weights the data uses (a fraction of their 4 million).
        Optimizer::Lbfgs if start.windows > 0 => fit_lbfgs_used(
            start,
            &train,
            &held,
            &o,
            args.iterations,
            args.ridge,
            anchored,
            iteration,
        ),
        Optimizer::Lbfgs => fit_lbfgs(
            start,
            &train,
            &held,
            &o,
            args.iterations,
            args.ridge,
            anchored,
            iteration,
        ),
    };
    // A step size or penalty that made the loss NaN leaves weights that round to nothing useful
    // (NaN becomes 0): such a net must not replace a file the engine may load.
    if let Some(e) = epochs
        .iter()
        .find(|e| !e.train.is_finite() || (!held.is_empty() && !e.held.is_finite()))
    {
        return Err(format!(
            "the fit diverged (loss {} at {} {}): nothing written; try other settings",
            if e.train.is_finite() { e.held } else { e.train },
            if args.optimizer == Optimizer::Adam {
                "epoch"
            } else {
                "iteration"
            },
            e.epoch
        ));
    }
    let (train_loss, held_loss) = (net_loss(&net, &train, &o), net_loss(&net, &held, &o));
    if !train_loss.is_finite() || (!held.is_empty() && !held_loss.is_finite()) {
        return Err(format!(
            "the fitted weights give a loss of {train_loss} (held-out {held_loss}): nothing written"
        ));
    }
    eprintln!("integer weights: train loss {train_loss:.5}  held-out loss {held_loss:.5}");
    let results = Options { lambda: 1.0, ..o };
    eprintln!(
        "held-out loss against the results alone: {:.5} (hand-set evaluation {:.5})",
        net_loss(&net, &held, &results),
        hand_loss(&held, &results)
    );
    let one = f64::from(1u32 << SHIFT);
    let terms: Vec<String> = pattern::LINEAR_NAMES
        .iter()
        .zip(&net.linear)
        .map(|(n, w)| format!("{n} {:.1}/{:.1}", f64::from(w[0]) / one, f64::from(w[1]) / one))
        .collect();
    eprintln!("linear terms (middle game/endgame): {}", terms.join(", "));
    crate::fsutil::write_atomic(out, &weights::encode(&net))?;
    eprintln!(
        "wrote {} ({} x {} board, {} regions, {} edge patterns) in {:.1} s total",
        out.display(),
        <R::Board as Geometry>::WIDTH,
        <R::Board as Geometry>::HEIGHT,
        net.regions,
        net.edges,
        clock.elapsed().as_secs_f64()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::rules::BrazilianRules;
    use crate::eval::Evaluate;
    use crate::eval::draughts::hand_evaluate;
    use crate::game::{MoveList, Outcome};
    use rand::Rng;

    /// A few hundred positions of random games, scored by the hand evaluation, with the games'
    /// results (or the hand evaluation's verdict when a game is cut off).
    fn tiny_data(games: u64, seed: u64) -> String {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut text = String::from("# tempo selfplay variant=brazilian test\n");
        for k in 0..games {
            let mut pos = Draughts::<BrazilianRules>::start();
            let mut lines = Vec::new();
            let mut result = None;
            for _ in 0..80 {
                if let Some(o) = pos.outcome() {
                    result = Some(o);
                    break;
                }
                let mut list = MoveList::new();
                pos.generate(&mut list);
                // Mostly greedy on the hand evaluation, sometimes random: games with a winner.
                let mv = if rng.random_bool(0.3) {
                    list[rng.random_range(0..list.len())]
                } else {
                    *list.iter().min_by_key(|m| pos.play(m).evaluate()).unwrap()
                };
                lines.push(format!("{}\t{}", pos.to_fen(), hand_evaluate(&pos)));
                pos = pos.play(&mv);
            }
            let result = match result {
                Some(o) => crate::selfplay::format::result_text(o),
                None => {
                    let white = match pos.side_to_move() {
                        Side::White => hand_evaluate(&pos),
                        Side::Black => -hand_evaluate(&pos),
                    };
                    crate::selfplay::format::result_text(match white {
                        s if s > 50 => Outcome::Win(Side::White),
                        s if s < -50 => Outcome::Win(Side::Black),
                        _ => Outcome::Draw,
                    })
                }
            };
            for l in lines {
                text.push_str(&format!("{l}\t{result}\n"));
            }
            text.push_str(&format!("# game {k} result {result}\n"));
        }
        // A game still being written: ignored.
        text.push_str("W:W21,22:B1,2\t0\t1\n");
        text
    }

    #[test]
    fn training_lowers_the_loss_and_reports_held_out_loss() {
        let dir = std::env::temp_dir().join(format!("tempo-train-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let data = dir.join("data.txt");
        std::fs::write(&data, tiny_data(40, 3)).unwrap();
        let (train, held) =
            load::<BrazilianRules>(std::slice::from_ref(&data), 0.25, 1, None, false).unwrap();
        assert!(train.len() > 300, "{}", train.len());
        assert!(!held.is_empty());
        let o = Options {
            lambda: 0.5,
            k: fit_k(&train),
            epochs: 8,
            l2: 1e-7,
            lr: 1.0,
            batch: 64,
            seed: 1,
            min_count: 0,
        };
        let start = Net::initial::<BrazilianRules>();
        let before = net_loss(&start, &train, &o);
        let mut reported = Vec::new();
        let (net, epochs) = fit(start, &train, &held, &o, |e| reported.push(e.held));
        assert_eq!(epochs.len(), 8);
        assert!(reported.iter().all(|h| h.is_finite()));
        let after = net_loss(&net, &train, &o);
        assert!(after < before, "train loss {before} -> {after}");
        assert!(epochs[7].train < epochs[0].train);
        // The file written is read back as the same weights.
        let bytes = weights::encode(&net);
        assert_eq!(weights::decode_for::<BrazilianRules>(&bytes).unwrap(), net);
        // Data of another variant is refused.
        let err = load::<rules::RussianRules>(&[data], 0.25, 1, None, false).unwrap_err();
        assert!(err.contains("for brazilian, not for russian"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
    /// Settings for an L-BFGS fit of `train` (the Adam fields unused), K fitted to it.
    fn lbfgs_options(lambda: f64, train: &Samples) -> Options {
        Options {
            lambda,
            k: fit_k(train),
            epochs: 0,
            l2: 0.0,
            lr: 0.0,
            batch: 1,
            seed: 1,
            min_count: 0,
        }
    }

    /// `--compare` scores a weight file as the fit scores its own weights, and refuses a file
    /// whose edge patterns the data was not read with.
    #[test]
    fn compared_files_are_scored_as_the_fit_scores_its_weights() {
        let dir = std::env::temp_dir().join(format!("tempo-compare-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let data = dir.join("data.txt");
        std::fs::write(&data, tiny_data(40, 4)).unwrap();
        let (train, held) =
            load::<BrazilianRules>(std::slice::from_ref(&data), 0.25, 1, None, false).unwrap();
        let o = lbfgs_options(0.7, &train);
        let (net, _) = fit_lbfgs(
            Net::initial::<BrazilianRules>(),
            &train,
            &held,
            &o,
            20,
            1.0,
            false,
            |_| {},
        );
        let fitted = dir.join("fitted.bin");
        std::fs::write(&fitted, weights::encode(&net)).unwrap();
        let (t, h, r) = compare_file::<BrazilianRules>(&fitted, &train, &held, &o).unwrap();
        assert_eq!(t, net_loss(&net, &train, &o));
        assert_eq!(h, net_loss(&net, &held, &o));
        assert_eq!(r, net_loss(&net, &held, &Options { lambda: 1.0, ..o }));
        // The untrained start scores worse on the training positions than the fit.
        let start = dir.join("start.bin");
        std::fs::write(&start, weights::encode(&Net::initial::<BrazilianRules>())).unwrap();
        let (t0, _, _) = compare_file::<BrazilianRules>(&start, &train, &held, &o).unwrap();
        assert!(t < t0, "{t} against {t0}");
        // Weights with edge patterns against data read without them, and a missing file.
        let edged = dir.join("edges.bin");
        std::fs::write(
            &edged,
            weights::encode(&Net::initial_with::<BrazilianRules>(true)),
        )
        .unwrap();
        let err = compare_file::<BrazilianRules>(&edged, &train, &held, &o).unwrap_err();
        assert!(
            err.contains("with edge patterns") && err.contains("add --edges"),
            "{err}"
        );
        let err = compare_file::<BrazilianRules>(&dir.join("none.bin"), &train, &held, &o).unwrap_err();
        assert!(err.contains("none.bin"), "{err}");
        // A strong ridge anchored at the fitted weights keeps them; towards zero it undoes them.
        let (kept, _) = fit_lbfgs(net.clone(), &train, &held, &o, 10, 1e7, true, |_| {});
        let (shrunk, _) = fit_lbfgs(net.clone(), &train, &held, &o, 10, 1e7, false, |_| {});
        let (kept, shrunk) = (net_loss(&kept, &train, &o), net_loss(&shrunk, &train, &o));
        assert!((kept - t).abs() < 1e-3, "{kept} against {t}");
        assert!(shrunk > t + 0.01, "{shrunk} against {t}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn lbfgs_lowers_the_loss_and_shrinks_rare_configurations() {
        let dir = std::env::temp_dir().join(format!("tempo-lbfgs-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let data = dir.join("data.txt");
        std::fs::write(&data, tiny_data(40, 5)).unwrap();
        // With the edge patterns, so that their part of the fit is exercised too.
        let (train, held) = load::<BrazilianRules>(std::slice::from_ref(&data), 0.25, 1, None, true).unwrap();
        assert_eq!(train.slots, 9 + pattern::EDGES);
        let o = lbfgs_options(1.0, &train);
        let start = Net::initial_with::<BrazilianRules>(true);
        let before = net_loss(&start, &train, &o);
        let (loose, epochs) = fit_lbfgs(start.clone(), &train, &held, &o, 30, 1.0, false, |_| {});
        assert_eq!(epochs.len(), 3);
        assert!(epochs.iter().all(|e| e.held.is_finite()));
        let after = net_loss(&loose, &train, &o);
        assert!(after < before - 0.01, "train loss {before} -> {after}");
        // A far stronger ridge keeps the pattern weights smaller and fits the training data less.
        let (tight, _) = fit_lbfgs(start, &train, &held, &o, 30, 1e4, false, |_| {});
        let size = |n: &Net| {
            n.patterns
                .iter()
                .map(|w| i64::from(w[0]).abs() + i64::from(w[1]).abs())
                .sum::<i64>()
        };
        assert!(
            size(&tight) < size(&loose) / 2,
            "{} against {}",
            size(&tight),
            size(&loose)
        );
        assert!(net_loss(&tight, &train, &o) > after);
        let edge_weights = &loose.patterns[loose.base(loose.regions)..];
        assert!(
            edge_weights.iter().any(|w| w != &[0, 0]),
            "the edge patterns were fitted"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Big windows fitted on a few hundred positions: from zero they lower the loss, from a net
    /// without them read with `--init` they start at zero (the start scores as that net) and
    /// learn a correction; weights no position uses stay at zero.
    #[test]
    fn big_windows_lower_the_loss_and_start_from_a_net_without_them() {
        let dir = std::env::temp_dir().join(format!("tempo-windows-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let data = dir.join("data.txt");
        std::fs::write(&data, tiny_data(40, 6)).unwrap();
        let path = std::slice::from_ref(&data);
        let (train, held) = load_of::<BrazilianRules>(path, 0.25, 1, None, false, true).unwrap();
        let (plain, plain_held) = load::<BrazilianRules>(path, 0.25, 1, None, false).unwrap();
        assert_eq!(train.slots, 9 + 6);
        assert_eq!(train.len(), plain.len());
        assert!(train.len() > 300, "{}", train.len());
        let o = lbfgs_options(0.7, &train);
        // From the hand-set start, windows and all.
        let start = Net::initial_of::<BrazilianRules>(false, true);
        let before = net_loss(&start, &train, &o);
        let (net, epochs) = fit_lbfgs_used(start, &train, &held, &o, 30, 1.0, false, |_| {});
        assert!(!epochs.is_empty());
        let after = net_loss(&net, &train, &o);
        assert!(after < before - 0.01, "train loss {before} -> {after}");
        let windows = &net.patterns[net.window_base(0)..];
        let nonzero = windows.iter().filter(|w| **w != [0, 0]).count();
        let used: std::collections::HashSet<u32> = train
            .index
            .iter()
            .chain(&held.index)
            .copied()
            .filter(|&x| x as usize >= net.window_base(0))
            .collect();
        assert!(nonzero > 0, "the windows were fitted");
        assert!(
            nonzero <= used.len(),
            "{nonzero} weights set, {} used",
            used.len()
        );
        // From a net without windows: fitted on the same positions read without them.
        let (old, _) = fit_lbfgs(
            Net::initial::<BrazilianRules>(),
            &plain,
            &plain_held,
            &o,
            20,
            1.0,
            false,
            |_| {},
        );
        let file = dir.join("old.bin");
        std::fs::write(&file, weights::encode(&old)).unwrap();
        let init = read_net::<BrazilianRules>(&file, &train).unwrap();
        assert_eq!(init.windows, 6);
        assert!(init.patterns[init.window_base(0)..].iter().all(|w| *w == [0, 0]));
        let old_loss = net_loss(&old, &plain, &o);
        assert_eq!(net_loss(&init, &train, &o), old_loss);
        let (corrected, _) = fit_lbfgs_used(init.clone(), &train, &held, &o, 20, 1.0, true, |_| {});
        assert!(
            net_loss(&corrected, &train, &o) < old_loss - 0.005,
            "{} against {old_loss}",
            net_loss(&corrected, &train, &o)
        );
        // A region configuration no position uses keeps its weight from the start.
        let unused = (0..init.window_base(0))
            .find(|x| !train.index.contains(&(*x as u32)) && !held.index.contains(&(*x as u32)))
            .unwrap();
        assert_eq!(corrected.patterns[unused], init.patterns[unused]);
        // A net with windows against data read without them is refused.
        let with = dir.join("with.bin");
        std::fs::write(&with, weights::encode(&corrected)).unwrap();
        let err = read_net::<BrazilianRules>(&with, &plain).unwrap_err();
        assert!(err.contains("add --windows"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// King terms fitted on a few hundred positions: from zero they lower the loss and write a
    /// version-4 file; data read without them is refused for such weights; without --kings the
    /// attacked squares' term stays out of the fit (its weight stays zero).
    #[test]
    fn king_terms_lower_the_loss_and_need_their_data() {
        let dir = std::env::temp_dir().join(format!("tempo-kings-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let data = dir.join("data.txt");
        std::fs::write(&data, tiny_data(60, 5)).unwrap();
        let path = std::slice::from_ref(&data);
        let read = Samples {
            kings: true,
            ..Samples::default()
        };
        let (train, held) = load_into::<BrazilianRules>(path, 0.25, 1, None, &read).unwrap();
        assert!(
            train.king_index.len() > 50,
            "{} king entries",
            train.king_index.len()
        );
        let o = lbfgs_options(0.5, &train);
        let start = Net::initial::<BrazilianRules>().with_kings(true);
        let before = net_loss(&start, &train, &o);
        let (net, _) = fit_lbfgs(start, &train, &held, &o, 30, 20.0, false, |_| {});
        assert!(net_loss(&net, &train, &o) < before);
        let table = &net.patterns[net.king_base()..];
        assert_eq!(table.len(), 64);
        assert!(table.iter().filter(|w| **w != [0, 0]).count() > 5, "{table:?}");
        assert_ne!(net.linear[pattern::KING_ATTACKED], [0, 0]);
        let file = dir.join("kings.bin");
        std::fs::write(&file, weights::encode(&net)).unwrap();
        let (plain, plain_held) = load_of::<BrazilianRules>(path, 0.25, 1, None, false, false).unwrap();
        assert!(plain.king_index.is_empty());
        assert!(
            plain
                .linear
                .chunks(LINEAR)
                .all(|l| l[pattern::KING_ATTACKED] == 0)
        );
        let err = read_net::<BrazilianRules>(&file, &plain).unwrap_err();
        assert!(err.contains("add --kings"), "{err}");
        assert_eq!(read_net::<BrazilianRules>(&file, &train).unwrap(), net);
        let (plain_fit, _) = fit_lbfgs(
            Net::initial::<BrazilianRules>(),
            &plain,
            &plain_held,
            &o,
            10,
            20.0,
            false,
            |_| {},
        );
        assert_eq!(plain_fit.linear[pattern::KING_ATTACKED], [0, 0]);
        let _ = std::fs::remove_dir_all(&dir);
    }

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
            let engine = f64::from(net.score(&pattern::features(pos)));
            let fitted = model.eval(&s, i);
            assert!(
                (engine - fitted).abs() <= 1.0,
                "{}: {engine} against {fitted}",
                pos.to_fen()
            );
        }
    }
}
