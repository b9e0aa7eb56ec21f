//! The arguments of `tempo train`: [`TrainArgs`], the fitting method ([`Optimizer`]), their
//! limits and the parsers that check the options' values.

#[cfg(doc)]
use super::optim::fit_lbfgs_used;
use crate::variant::Variant;
use std::path::PathBuf;

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
    /// Adam: step size at the first epoch (default 2, in hundredths of a man, for pattern
    /// weights; 0.001 with --network); it falls linearly to a tenth.
    #[arg(long, value_parser = parse_positive)]
    pub lr: Option<f64>,
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
    /// Fit a network evaluation instead of pattern weights (International only, the one variant
    /// the engine evaluates with a network): the widths of its two hidden layers, such as `128x32`
    /// (the first a multiple of 32, at most 512; the second at most 64). Adam
    /// (`--epochs`, `--lr`, `--batch`, `--threads`); `--init` then names a network file to start
    /// from, and `--out` gets a network file (an engine started with `TEMPO_NET=<file>` reads it for
    /// `eval-file` `<network>`).
    #[arg(long, value_parser = parse_shape)]
    pub network: Option<(usize, usize)>,
    /// Threads a minibatch of the network's fit is split over.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
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

fn parse_shape(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("{} is not two layer widths such as 128x32", quoted(text));
    let (a, b) = text.split_once(['x', ',']).ok_or_else(bad)?;
    let (a, b): (usize, usize) = (
        a.trim().parse().map_err(|_| bad())?,
        b.trim().parse().map_err(|_| bad())?,
    );
    if a == 0 || a % 32 != 0 || a > crate::eval::network::MAX_H1 {
        return Err(format!(
            "the first layer's width {a} is not a multiple of 32 from 32 to 512"
        ));
    }
    if b == 0 || b > crate::eval::network::MAX_H2 {
        return Err(format!("the second layer's width {b} is not from 1 to 64"));
    }
    Ok((a, b))
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
