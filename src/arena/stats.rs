//! Match statistics: the pentanomial counts of game pairs, the Elo difference with its 95 %
//! interval, normalized Elo, likelihood of superiority, draw ratio, and the sequential probability
//! ratio test (SPRT) that stops a match once it has decided; [`MatchStats`] gathers them and
//! [`report`] writes them as the match prints them.
//!
//! Elo here is *logistic* Elo: a mean score `s` is `-400 log10(1/s - 1)` Elo, as cutechess prints
//! it and as fishtest's "logistic" bounds mean it. *Normalized* Elo (nElo) measures the mean
//! score in standard deviations of one game's score: `(s - 1/2) / sigma * 800 / ln 10`, which is
//! logistic Elo near 0 when no game is drawn, and which does not shrink as draws become common
//! (fishtest's and fastchess's definition).

use std::fmt::Write as _;

/// The 97.5 % quantile of the standard normal distribution: a two-sided 95 % interval is
/// `mean ± 1.959964 standard errors`.
const Z_975: f64 = 1.959_963_984_540_054;

/// Wins, losses and draws of one player (or of the first player of a pairing).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wld {
    /// Games won.
    pub wins: u64,
    /// Games lost.
    pub losses: u64,
    /// Games drawn.
    pub draws: u64,
}

impl Wld {
    /// Games played.
    pub fn games(&self) -> u64 {
        self.wins + self.losses + self.draws
    }

    /// Points per game: a win 1, a draw 1/2 (`NaN` before the first game).
    pub fn score(&self) -> f64 {
        (self.wins as f64 + self.draws as f64 / 2.0) / self.games() as f64
    }

    /// The same results seen from the opponent.
    pub fn flipped(&self) -> Wld {
        Wld {
            wins: self.losses,
            losses: self.wins,
            draws: self.draws,
        }
    }
}

/// The logistic Elo difference that a mean score `s` (0..1) stands for; infinite at 0 and 1.
pub fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        // Adding 0 turns -0.0 (an even score) into 0.0, in the JSON summary as in the report.
        -400.0 * (1.0 / s - 1.0).log10() + 0.0
    }
}

/// The mean score that a logistic Elo difference predicts: `1 / (1 + 10^(-elo/400))`.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function, by Abramowitz and Stegun's formula 7.1.26 (absolute error below 1.5e-7,
/// plenty for a percentage printed with one decimal).
pub fn erf(x: f64) -> f64 {
    let sign = if x < 0.0 { -1.0 } else { 1.0 };
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736 + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    sign * (1.0 - poly * (-x * x).exp())
}

/// What the end of a match reports for one pairing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    /// Logistic Elo difference from the mean score.
    pub elo: f64,
    /// Half the width of the 95 % confidence interval of the Elo difference.
    pub margin: f64,
    /// Likelihood of superiority, 0..1.
    pub los: f64,
    /// Draws per game, 0..1.
    pub draw_ratio: f64,
}

/// Elo, error margin, LOS and draw ratio of `r`, as cutechess computes them:
///
/// - with `w`, `l`, `d` the fractions of wins, losses and draws over `n` games, the mean score is
///   `mu = w + d/2` and the variance of one game's score is
///   `var = w (1 - mu)^2 + l (0 - mu)^2 + d (1/2 - mu)^2`;
/// - the standard error of the mean is `sqrt(var / n)`; the 95 % interval of the score is
///   `mu ± 1.959964 · sqrt(var / n)`, and the margin is half the Elo width of that interval
///   (the Elo scale is not linear, so the interval is not symmetric around `elo`);
/// - LOS, the probability that the first player is the stronger one given only wins and losses
///   (draws carry no information about it), is `1/2 (1 + erf((W - L) / sqrt(2 (W + L))))`;
/// - the draw ratio is `D / n`.
///
/// `None` before the first game.
pub fn summary(r: &Wld) -> Option<Summary> {
    let n = r.games();
    if n == 0 {
        return None;
    }
    let nf = n as f64;
    let (w, l, d) = (r.wins as f64 / nf, r.losses as f64 / nf, r.draws as f64 / nf);
    let mu = w + d / 2.0;
    let var = w * (1.0 - mu).powi(2) + l * mu.powi(2) + d * (0.5 - mu).powi(2);
    let stderr = (var / nf).sqrt();
    let lo = elo_from_score(mu - Z_975 * stderr);
    let hi = elo_from_score(mu + Z_975 * stderr);
    let decisive = (r.wins + r.losses) as f64;
    let los = if decisive > 0.0 {
        0.5 * (1.0 + erf((r.wins as f64 - r.losses as f64) / (2.0 * decisive).sqrt()))
    } else {
        0.5
    };
    Some(Summary {
        elo: elo_from_score(mu),
        margin: (hi - lo) / 2.0,
        los,
        draw_ratio: d,
    })
}

/// A number for a report: one decimal, or `inf`/`-inf`/`nan` spelled out.
pub fn fmt1(x: f64) -> String {
    if x.is_finite() {
        // Adding 0 turns -0.0 into 0.0, so an even match is not reported as "-0.0".
        format!("{:.1}", x + 0.0)
    } else if x.is_nan() {
        "nan".into()
    } else if x > 0.0 {
        "inf".into()
    } else {
        "-inf".into()
    }
}

/// Game pairs (the same opening played with both colours) by their total for the first player:
/// `counts[k]` is the number of pairs that scored `k/2` points out of 2 (0, 1/2, 1, 3/2, 2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    /// Pairs per total, in half points 0..=4.
    pub counts: [u64; 5],
}

impl Pentanomial {
    /// Adds a finished pair whose two games scored `half_points` half points (0..=4) in all.
    pub fn add(&mut self, half_points: usize) {
        self.counts[half_points.min(4)] += 1;
    }

    /// Pairs counted.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }
}

/// Which statistical model the SPRT uses for the outcomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SprtModel {
    /// Each game an outcome: loss, draw or win.
    Trinomial,
    /// Each game pair an outcome: 0, 1/2, 1, 3/2 or 2 points (fishtest's default; it takes the
    /// correlation of the two games of an opening into account).
    Pentanomial,
}

/// The Elo scale of the SPRT's bounds `elo0` and `elo1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum EloModel {
    /// Logistic Elo (the default, as every SPRT record of Tempo so far): a bound `e` stands for
    /// the mean score `1 / (1 + 10^(-e/400))`.
    Logistic,
    /// Normalized Elo (fishtest's and fastchess's `normalized`): a bound `e` stands for the mean
    /// score `1/2 + e / (800 / ln 10) * sigma`, `sigma` being the standard deviation of one game's
    /// score as the results so far estimate it. The same bounds then ask for about the same
    /// number of games whatever the draw rate.
    Normalized,
}

/// `800 / ln 10`: normalized Elo per standard deviation of a game's score.
pub const NELO_PER_SIGMA: f64 = 800.0 / std::f64::consts::LN_10;

/// A sequential probability ratio test: H0 "the Elo difference is `elo0`" against H1 "it is
/// `elo1`", with error rates `alpha` (accepting H1 when H0 holds) and `beta`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo of the null hypothesis (on the scale of `elo_model`).
    pub elo0: f64,
    /// Elo of the alternative hypothesis.
    pub elo1: f64,
    /// Type I error rate.
    pub alpha: f64,
    /// Type II error rate.
    pub beta: f64,
    /// Outcome model.
    pub model: SprtModel,
    /// The scale of `elo0` and `elo1`.
    pub elo_model: EloModel,
}

/// What the SPRT says after the games so far.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtState {
    /// The log-likelihood ratio.
    pub llr: f64,
    /// Accept H0 at or below this: `ln(beta / (1 - alpha))`.
    pub lower: f64,
    /// Accept H1 at or above this: `ln((1 - beta) / alpha)`.
    pub upper: f64,
    /// `Some(true)`: H1 accepted; `Some(false)`: H0 accepted; `None`: keep playing.
    pub decision: Option<bool>,
}

impl Sprt {
    /// Reads `elo0=0 elo1=5 alpha=0.05 beta=0.05 [model=pentanomial|trinomial]
    /// [model=logistic|normalized]` (any order, separated by spaces or commas; alpha and beta
    /// default to 0.05, the model to pentanomial and logistic: `model=` names the outcome model or
    /// the Elo scale of the bounds, and may be given twice, once for each).
    ///
    /// # Errors
    /// A missing elo0/elo1, a value that is not a number, an unknown key, or bounds out of range.
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let mut s = Sprt {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
            model: SprtModel::Pentanomial,
            elo_model: EloModel::Logistic,
        };
        for item in text.split([' ', ',']).filter(|w| !w.is_empty()) {
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| format!("--sprt: {item:?} is not key=value"))?;
            let number = || {
                value
                    .parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite())
                    .ok_or_else(|| format!("--sprt: {key}={value} is not a number"))
            };
            match key {
                "elo0" => s.elo0 = number()?,
                "elo1" => s.elo1 = number()?,
                "alpha" => s.alpha = number()?,
                "beta" => s.beta = number()?,
                "model" => match value {
                    "pentanomial" => s.model = SprtModel::Pentanomial,
                    "trinomial" => s.model = SprtModel::Trinomial,
                    "logistic" => s.elo_model = EloModel::Logistic,
                    "normalized" => s.elo_model = EloModel::Normalized,
                    _ => {
                        return Err(format!(
                            "--sprt: model is pentanomial, trinomial, logistic or normalized, not {value:?}"
                        ));
                    }
                },
                _ => {
                    return Err(format!(
                        "--sprt: unknown key {key:?} (elo0, elo1, alpha, beta, model)"
                    ));
                }
            }
        }
        if s.elo0.is_nan() || s.elo1.is_nan() {
            return Err("--sprt needs elo0=<Elo> and elo1=<Elo>".into());
        }
        if s.elo0 >= s.elo1 {
            return Err(format!(
                "--sprt: elo0 ({}) must be below elo1 ({})",
                s.elo0, s.elo1
            ));
        }
        for (name, v) in [("alpha", s.alpha), ("beta", s.beta)] {
            if !(v > 0.0 && v < 0.5) {
                return Err(format!("--sprt: {name}={v} must be between 0 and 0.5"));
            }
        }
        Ok(s)
    }

    /// The bounds `(ln(beta/(1-alpha)), ln((1-beta)/alpha))` (Wald).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The test's state after the results so far: `games` (trinomial) or `pairs` (pentanomial).
    pub fn state(&self, games: &Wld, pairs: &Pentanomial) -> SprtState {
        let llr = match self.model {
            SprtModel::Trinomial => {
                let counts = [games.losses, games.draws, games.wins];
                llr_counts(&counts, self.elo0, self.elo1, self.elo_model)
            }
            SprtModel::Pentanomial => llr_counts(&pairs.counts, self.elo0, self.elo1, self.elo_model),
        };
        let (lower, upper) = self.bounds();
        let decision = if llr >= upper {
            Some(true)
        } else if llr <= lower {
            Some(false)
        } else {
            None
        };
        SprtState {
            llr,
            lower,
            upper,
            decision,
        }
    }

    /// How the test is named in a report: `logistic, pentanomial, elo0=0 elo1=5 alpha=0.05
    /// beta=0.05`.
    pub fn describe(&self) -> String {
        format!(
            "{}, {}, elo0={} elo1={} alpha={} beta={}",
            match self.elo_model {
                EloModel::Logistic => "logistic",
                EloModel::Normalized => "normalized",
            },
            match self.model {
                SprtModel::Pentanomial => "pentanomial",
                SprtModel::Trinomial => "trinomial",
            },
            self.elo0,
            self.elo1,
            self.alpha,
            self.beta
        )
    }
}

/// The LLR of outcome counts: `counts[k]` outcomes scored `k / (len - 1)` (a game's loss, draw,
/// win for three counts; a pair's 0, 1/4, ..., 1 of its two points for five). An outcome never
/// seen counts as half an outcome: otherwise a run of identical results (all wins against a broken
/// engine) has no variance and the test could never decide. (Fishtest's 0.001 of an outcome suits
/// its batches of many games; here the test is read after every game, and with so small a weight
/// one or two drawn pairs had a variance near zero and accepted H0, one won pair H1.)
pub fn llr_counts(counts: &[u64], elo0: f64, elo1: f64, model: EloModel) -> f64 {
    if counts.len() < 2 || counts.iter().all(|&c| c == 0) {
        return 0.0;
    }
    let weights: Vec<f64> = counts
        .iter()
        .map(|&c| if c == 0 { 0.5 } else { c as f64 })
        .collect();
    let n: f64 = weights.iter().sum();
    let top = (counts.len() - 1) as f64;
    let outcomes: Vec<(f64, f64)> = weights
        .iter()
        .enumerate()
        .map(|(k, &w)| (k as f64 / top, w / n))
        .collect();
    // Games per outcome: 1 for a game's result, 2 for a pair's.
    llr_normal(n, &outcomes, elo0, elo1, model, top / 2.0)
}

/// The generalized SPRT's log-likelihood ratio in its normal approximation (M. Van den Bergh, "A
/// practical introduction to the GSPRT", the computation fishtest's `LLR_logistic` and
/// cutechess's SPRT make): for `n` independent outcomes `x` with empirical distribution
/// `outcomes` (value, frequency), mean `mu` and variance `var`, and the mean scores `s0`, `s1`
/// the hypotheses stand for,
///
/// `LLR ≈ n (s1 - s0) (2 mu - s0 - s1) / (2 var)`,
///
/// which is `n [(mu - s0)^2 - (mu - s1)^2] / (2 var)`: how much better a normal law centred on
/// `s1` explains the mean than one centred on `s0`. With logistic bounds `s = 1 / (1 +
/// 10^(-elo/400))`; with normalized bounds `s = 1/2 + elo / (800 / ln 10) * sigma`, where
/// `sigma = sqrt(games_per_outcome * var)` is the standard deviation of one game's score (an
/// outcome that is the mean of a pair's two games has half a game's variance). For game pairs,
/// `x` is the pair's score over 2 (0, 1/4, ..., 1). With no variance yet (no games, or every
/// outcome equal) it is 0: nothing is decided.
pub fn llr_normal(
    n: f64,
    outcomes: &[(f64, f64)],
    elo0: f64,
    elo1: f64,
    model: EloModel,
    games_per_outcome: f64,
) -> f64 {
    if n.is_nan() || n <= 0.0 {
        return 0.0;
    }
    let mu: f64 = outcomes.iter().map(|(x, p)| x * p).sum();
    let var: f64 = outcomes.iter().map(|(x, p)| p * (x - mu).powi(2)).sum();
    if var <= 1e-12 {
        return 0.0;
    }
    let (s0, s1) = match model {
        EloModel::Logistic => (score_from_elo(elo0), score_from_elo(elo1)),
        EloModel::Normalized => {
            let sigma = (games_per_outcome * var).sqrt();
            (
                0.5 + elo0 / NELO_PER_SIGMA * sigma,
                0.5 + elo1 / NELO_PER_SIGMA * sigma,
            )
        }
    };
    n * (s1 - s0) * (2.0 * mu - s0 - s1) / (2.0 * var)
}

/// The standard normal distribution function `Phi(x) = 1/2 (1 + erf(x / sqrt 2))`.
pub fn phi(x: f64) -> f64 {
    0.5 * (1.0 + erf(x / std::f64::consts::SQRT_2))
}

/// What the statistics of a pairing rest on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Basis {
    /// The finished game pairs (the pentanomial counts): a game whose partner is not finished
    /// is left out. Used as soon as one pair is finished.
    Pairs,
    /// Every game, as independent games (before the first pair is finished).
    Games,
}

/// The SPRT of a pairing, as reported.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct SprtStats {
    /// The Elo scale of the bounds.
    pub elo_model: EloModel,
    /// The outcome model.
    pub model: SprtModel,
    /// Bound of H0.
    pub elo0: f64,
    /// Bound of H1.
    pub elo1: f64,
    /// Type I error rate.
    pub alpha: f64,
    /// Type II error rate.
    pub beta: f64,
    /// The log-likelihood ratio now.
    pub llr: f64,
    /// H0 is accepted at or below this LLR.
    pub lower: f64,
    /// H1 is accepted at or above this LLR.
    pub upper: f64,
    /// The hypothesis accepted when the match stopped on it (`"H0"`, `"H1"`), `None` while
    /// undecided.
    pub accepted: Option<String>,
}

/// The statistics of one pairing, from the first engine's point of view. Figures that do not exist
/// (no game yet, or an infinite Elo) are `None`.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct PairingStats {
    /// The first engine's name.
    pub first: String,
    /// The second engine's name.
    pub second: String,
    /// Games finished.
    pub games: u64,
    /// Games the first engine won.
    pub wins: u64,
    /// Games it lost.
    pub losses: u64,
    /// Games drawn.
    pub draws: u64,
    /// The first engine's points (a win 1, a draw 1/2).
    pub points: f64,
    /// Finished pairs by the first engine's total, `[LL, LD, DD+WL, WD, WW]` (0, 1/2, 1, 3/2 and
    /// 2 points), as fishtest counts them.
    pub pentanomial: [u64; 5],
    /// Finished pairs.
    pub pairs: u64,
    /// What the Elo, nElo and LOS rest on.
    pub basis: Basis,
    /// The mean score they rest on (0..1).
    pub score: Option<f64>,
    /// Logistic Elo difference (`None` when every game was won or every game lost).
    pub elo: Option<f64>,
    /// Half the width of its 95 % interval.
    pub elo_error: Option<f64>,
    /// The lower end of the 95 % interval (`None`: unbounded, as when every game was lost or the
    /// interval of the score reaches 0).
    pub elo_lower: Option<f64>,
    /// The upper end of the 95 % interval (`None`: unbounded, as when every game was won or the
    /// interval of the score reaches 1).
    pub elo_upper: Option<f64>,
    /// Normalized Elo (`None` when the score has no variance).
    pub nelo: Option<f64>,
    /// Half the width of its 95 % interval.
    pub nelo_error: Option<f64>,
    /// Likelihood of superiority of the first engine, 0..1.
    pub los: Option<f64>,
    /// Draws per game, 0..1.
    pub draw_ratio: Option<f64>,
    /// The SPRT, when the match runs one.
    pub sprt: Option<SprtStats>,
}

impl PairingStats {
    /// The statistics of a pairing's game results `games` and finished pairs `pairs`:
    ///
    /// - on pairs (as soon as one is finished): the outcomes are the pairs' scores over 2, `x =
    ///   k/4` for `k` half points; with `p_k` their frequencies over `N` pairs, the mean score is
    ///   `mu = sum p_k x_k` and the variance of one pair's score `var = sum p_k (x_k - mu)^2`;
    ///   on games (before that): `x` is 0, 1/2 or 1 and `N` the games;
    /// - Elo is `-400 log10(1/mu - 1)`; its 95 % interval is the Elo of `mu ± 1.959964 sqrt(var /
    ///   N)`, and the error half its width (the interval is not symmetric around the Elo);
    /// - nElo is `(mu - 1/2) / sigma * 800 / ln 10` with `sigma = sqrt(2 var)` on pairs (a game's
    ///   standard deviation) or `sqrt(var)` on games, and its error `1.959964 sqrt(var / N) /
    ///   sigma * 800 / ln 10`;
    /// - LOS is `Phi((mu - 1/2) / sqrt(var / N))`; with no variance (every outcome alike), the
    ///   wins-and-losses formula of [`summary`] instead;
    /// - when every game was won (lost), the Elo is infinite and only a bound is known: by the
    ///   exact binomial bound, `n` games all won make a mean score below `0.025^(1/n)` unlikely
    ///   (at most 2.5 %, the one tail of a 95 % interval), so the lower end of the interval is the
    ///   Elo of that score;
    /// - the draw ratio is over all games.
    pub fn new(first: &str, second: &str, games: &Wld, pairs: &Pentanomial) -> PairingStats {
        let n_pairs = pairs.pairs();
        let (basis, counts): (Basis, Vec<u64>) = if n_pairs > 0 {
            (Basis::Pairs, pairs.counts.to_vec())
        } else {
            (Basis::Games, vec![games.losses, games.draws, games.wins])
        };
        let mut s = PairingStats {
            first: first.to_string(),
            second: second.to_string(),
            games: games.games(),
            wins: games.wins,
            losses: games.losses,
            draws: games.draws,
            points: games.wins as f64 + games.draws as f64 / 2.0,
            pentanomial: pairs.counts,
            pairs: n_pairs,
            basis,
            score: None,
            elo: None,
            elo_error: None,
            elo_lower: None,
            elo_upper: None,
            nelo: None,
            nelo_error: None,
            los: None,
            draw_ratio: None,
            sprt: None,
        };
        let n: u64 = counts.iter().sum();
        if n == 0 {
            return s;
        }
        s.draw_ratio = Some(games.draws as f64 / games.games() as f64);
        let nf = n as f64;
        let top = (counts.len() - 1) as f64;
        let mu: f64 = counts
            .iter()
            .enumerate()
            .map(|(k, &c)| c as f64 * k as f64 / top)
            .sum::<f64>()
            / nf;
        let var: f64 = counts
            .iter()
            .enumerate()
            .map(|(k, &c)| c as f64 * (k as f64 / top - mu).powi(2))
            .sum::<f64>()
            / nf;
        s.score = Some(mu);
        let stderr = (var / nf).sqrt();
        // Games the outcomes hold (for the one-sided bound): two a pair.
        let n_games = nf * top / 2.0;
        if mu >= 1.0 {
            s.elo_lower = Some(elo_from_score(0.025f64.powf(1.0 / n_games)));
        } else if mu <= 0.0 {
            s.elo_upper = Some(elo_from_score(1.0 - 0.025f64.powf(1.0 / n_games)));
        } else {
            let lo = elo_from_score((mu - Z_975 * stderr).max(0.0));
            let hi = elo_from_score((mu + Z_975 * stderr).min(1.0));
            s.elo = Some(elo_from_score(mu));
            s.elo_lower = lo.is_finite().then_some(lo);
            s.elo_upper = hi.is_finite().then_some(hi);
            s.elo_error = (lo.is_finite() && hi.is_finite()).then_some((hi - lo) / 2.0);
        }
        if var > 1e-12 {
            let sigma = (var * top / 2.0).sqrt();
            s.nelo = Some((mu - 0.5) / sigma * NELO_PER_SIGMA);
            s.nelo_error = Some(Z_975 * stderr / sigma * NELO_PER_SIGMA);
            s.los = Some(phi((mu - 0.5) / stderr));
        } else {
            s.los = summary(games).map(|x| x.los);
        }
        s
    }

    /// Adds the SPRT's state (`stopped`: the decision the match stopped on, if any).
    pub fn with_sprt(
        mut self,
        test: &Sprt,
        games: &Wld,
        pairs: &Pentanomial,
        stopped: Option<bool>,
    ) -> PairingStats {
        let st = test.state(games, pairs);
        self.sprt = Some(SprtStats {
            elo_model: test.elo_model,
            model: test.model,
            elo0: test.elo0,
            elo1: test.elo1,
            alpha: test.alpha,
            beta: test.beta,
            llr: st.llr,
            lower: st.lower,
            upper: st.upper,
            accepted: stopped.map(|h1| if h1 { "H1" } else { "H0" }.to_string()),
        });
        self
    }
}

/// One engine's results over all its games (a round robin's table).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct EngineStats {
    /// The engine's name.
    pub name: String,
    /// Games played.
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// Games lost.
    pub losses: u64,
    /// Games drawn.
    pub draws: u64,
    /// Points per game, 0..1 (`None` before its first game).
    pub score: Option<f64>,
    /// Logistic Elo from the mean score, against the field (`None`: no game, or infinite).
    pub elo: Option<f64>,
    /// Half the width of its 95 % interval, from the per-game variance.
    pub elo_error: Option<f64>,
    /// Draws per game.
    pub draw_ratio: Option<f64>,
}

/// Everything a match reports: each pairing, and each engine over all its games.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct MatchStats {
    /// Games finished.
    pub games: u64,
    /// The pairings, in schedule order.
    pub pairings: Vec<PairingStats>,
    /// The engines, in the order they were given.
    pub engines: Vec<EngineStats>,
}

impl MatchStats {
    /// The statistics of a match: `names` of the engines, `pairings` as engine indices (first,
    /// second), each pairing's games and finished pairs from its first engine's view, each
    /// engine's own results, and the SPRT of the first pairing with the decision the match
    /// stopped on.
    pub fn new(
        names: &[String],
        pairings: &[[usize; 2]],
        pair_games: &[Wld],
        pair_pairs: &[Pentanomial],
        engine_games: &[Wld],
        sprt: Option<(&Sprt, Option<bool>)>,
    ) -> MatchStats {
        let pairings: Vec<PairingStats> = pairings
            .iter()
            .enumerate()
            .map(|(i, &[a, b])| {
                let games = pair_games.get(i).copied().unwrap_or_default();
                let pairs = pair_pairs.get(i).copied().unwrap_or_default();
                let p = PairingStats::new(&names[a], &names[b], &games, &pairs);
                match sprt {
                    Some((test, stopped)) if i == 0 => p.with_sprt(test, &games, &pairs, stopped),
                    _ => p,
                }
            })
            .collect();
        let engines = names
            .iter()
            .zip(engine_games)
            .map(|(name, r)| {
                let s = summary(r);
                let finite = |x: f64| x.is_finite().then_some(x);
                EngineStats {
                    name: name.clone(),
                    games: r.games(),
                    wins: r.wins,
                    losses: r.losses,
                    draws: r.draws,
                    score: s.map(|_| r.score()),
                    elo: s.and_then(|s| finite(s.elo)),
                    elo_error: s.and_then(|s| finite(s.margin)),
                    draw_ratio: s.map(|s| s.draw_ratio),
                }
            })
            .collect();
        MatchStats {
            games: pairings.iter().map(|p| p.games).sum(),
            pairings,
            engines,
        }
    }
}

/// A percentage with one decimal, or `-` for a figure that does not exist.
fn pct(x: Option<f64>) -> String {
    x.map_or_else(|| "-".into(), |x| format!("{:.1} %", 100.0 * x))
}

/// The report of one pairing: its games and pairs, Elo, nElo, LOS, draw ratio and SPRT.
fn pairing_report(p: &PairingStats, out: &mut String) {
    let _ = writeln!(
        out,
        "Results of {} vs {}: {} games, {} - {} - {}, {} points ({})",
        p.first,
        p.second,
        p.games,
        p.wins,
        p.losses,
        p.draws,
        fmt1(p.points),
        pct((p.games > 0).then(|| p.points / p.games as f64))
    );
    let [ll, ld, dd, wd, ww] = p.pentanomial;
    let _ = writeln!(
        out,
        "Pairs (LL, LD, DD+WL, WD, WW): {ll}, {ld}, {dd}, {wd}, {ww} ({} pair{})",
        p.pairs,
        if p.pairs == 1 { "" } else { "s" }
    );
    let elo = match (p.elo, p.elo_lower, p.elo_upper) {
        (Some(e), lo, hi) => match p.elo_error {
            Some(err) => format!("{} +/- {}", fmt1(e), fmt1(err)),
            // One end of the interval is beyond every finite Elo (a score near 0 or 1).
            None => format!(
                "{} (95 % interval {} to {})",
                fmt1(e),
                fmt1(lo.unwrap_or(f64::NEG_INFINITY)),
                fmt1(hi.unwrap_or(f64::INFINITY))
            ),
        },
        (None, Some(lo), None) if p.score == Some(1.0) => {
            format!(
                "> {} (every game won; the lower end of the 95 % interval)",
                fmt1(lo)
            )
        }
        (None, None, Some(hi)) if p.score == Some(0.0) => {
            format!(
                "< {} (every game lost; the upper end of the 95 % interval)",
                fmt1(hi)
            )
        }
        _ => "-".into(),
    };
    let _ = writeln!(
        out,
        "Elo difference: {elo}, LOS: {}, DrawRatio: {}",
        pct(p.los),
        pct(p.draw_ratio)
    );
    let basis = match p.basis {
        Basis::Pairs => "pairs",
        Basis::Games => "games",
    };
    let _ = match (p.nelo, p.nelo_error) {
        (Some(n), Some(e)) => writeln!(out, "nElo: {} +/- {} (from the {basis})", fmt1(n), fmt1(e)),
        _ => writeln!(out, "nElo: - (the {basis} do not vary yet)"),
    };
    if let Some(t) = &p.sprt {
        let test = Sprt {
            elo0: t.elo0,
            elo1: t.elo1,
            alpha: t.alpha,
            beta: t.beta,
            model: t.model,
            elo_model: t.elo_model,
        };
        let _ = writeln!(
            out,
            "SPRT ({}): llr {:.2} ({:.1} %), lbound {:.2}, ubound {:.2}: {}",
            test.describe(),
            t.llr,
            100.0 * t.llr / t.upper,
            t.lower,
            t.upper,
            match t.accepted.as_deref() {
                Some("H1") => "H1 accepted; the match stopped",
                Some(_) => "H0 accepted; the match stopped",
                None => "no decision yet",
            }
        );
    }
}

/// The statistics as the match prints them (during the match with `--report-every` and on Ctrl-C,
/// and at its end): a block per pairing, then for more than two engines the table of the engines
/// by score (an engine that won or lost every game shows the known end of its Elo's interval).
pub fn report(stats: &MatchStats) -> String {
    let mut out = String::new();
    for p in &stats.pairings {
        pairing_report(p, &mut out);
    }
    if stats.pairings.len() > 1 {
        let _ = writeln!(
            out,
            "Rank Name                          Elo     +/-   Games   Score    Draw"
        );
        let mut order: Vec<&EngineStats> = stats.engines.iter().filter(|e| e.games > 0).collect();
        order.sort_by(|a, b| b.score.unwrap_or(0.0).total_cmp(&a.score.unwrap_or(0.0)));
        for (rank, e) in order.iter().enumerate() {
            // Every game won (or lost): the known end of the 95 % interval, as for a pairing.
            let elo = e.elo.map_or_else(
                || {
                    let edge = 0.025f64.powf(1.0 / e.games as f64);
                    if e.score >= Some(0.5) {
                        format!("> {}", fmt1(elo_from_score(edge)))
                    } else {
                        format!("< {}", fmt1(elo_from_score(1.0 - edge)))
                    }
                },
                fmt1,
            );
            let _ = writeln!(
                out,
                "{:>4} {:<24} {:>8} {:>7} {:>7} {:>6.1}% {:>6.1}%",
                rank + 1,
                e.name,
                elo,
                e.elo_error.map_or_else(|| "-".into(), fmt1),
                e.games,
                100.0 * e.score.unwrap_or(0.0),
                100.0 * e.draw_ratio.unwrap_or(0.0)
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() <= eps
    }

    #[test]
    fn elo_and_margin_by_hand() {
        // 10 wins, 5 losses, 5 draws in 20 games:
        //   w = 0.5, l = 0.25, d = 0.25, mu = 0.5 + 0.125 = 0.625
        //   Elo = -400 log10(1/0.625 - 1) = -400 log10(0.6) = 88.739
        //   var = 0.5 * 0.375^2 + 0.25 * 0.625^2 + 0.25 * 0.125^2
        //       = 0.0703125 + 0.09765625 + 0.00390625 = 0.171875
        //   stderr = sqrt(0.171875 / 20) = 0.0927025
        //   95 %: mu ± 1.959964 * 0.0927025 = 0.625 ± 0.181694 -> [0.443306, 0.806694]
        //   Elo(0.443306) = -400 log10(1/0.443306 - 1) = -400 log10(1.255776) = -39.565
        //   Elo(0.806694) = -400 log10(1/0.806694 - 1) = -400 log10(0.239628) = 248.185
        //   margin = (248.185 + 39.565) / 2 = 143.875
        //   LOS = 1/2 (1 + erf(5 / sqrt(30))) = 1/2 (1 + erf(0.912871)) = 1/2 (1 + 0.803294) = 0.901647
        //   draw ratio = 5 / 20 = 0.25
        let s = summary(&Wld {
            wins: 10,
            losses: 5,
            draws: 5,
        })
        .unwrap();
        assert!(close(s.elo, 88.739, 0.001), "{s:?}");
        assert!(close(s.margin, 143.875, 0.01), "{s:?}");
        assert!(close(s.los, 0.901647, 1e-5), "{s:?}");
        assert!(close(s.draw_ratio, 0.25, 1e-12));
    }

    #[test]
    fn even_match_and_edges() {
        // 3 - 3 - 4: mu = 0.5, Elo 0, LOS exactly 1/2.
        let s = summary(&Wld {
            wins: 3,
            losses: 3,
            draws: 4,
        })
        .unwrap();
        assert!(close(s.elo, 0.0, 1e-9));
        assert!(close(s.los, 0.5, 1e-9));
        assert!(close(s.draw_ratio, 0.4, 1e-12));
        // All draws: Elo 0, no variance, margin 0, LOS 1/2.
        let s = summary(&Wld {
            wins: 0,
            losses: 0,
            draws: 6,
        })
        .unwrap();
        assert_eq!((s.elo, s.margin, s.los), (0.0, 0.0, 0.5));
        // All wins: infinite Elo.
        let s = summary(&Wld {
            wins: 4,
            losses: 0,
            draws: 0,
        })
        .unwrap();
        assert_eq!(fmt1(s.elo), "inf");
        assert!(summary(&Wld::default()).is_none());
    }

    #[test]
    fn erf_matches_tabulated_values() {
        // Tabulated: erf(0.5) = 0.5204999, erf(1) = 0.8427008, erf(2) = 0.9953223.
        assert!(close(erf(0.5), 0.520_499_9, 2e-7));
        assert!(close(erf(1.0), 0.842_700_8, 2e-7));
        assert!(close(erf(-2.0), -0.995_322_3, 2e-7));
        assert!(erf(0.0).abs() < 1e-8);
    }

    #[test]
    fn sprt_trinomial_by_hand() {
        // elo0 = 0, elo1 = 10: s0 = 0.5, s1 = 1/(1 + 10^(-1/40)) = 0.514387.
        // 60 wins, 40 losses, 100 draws (n = 200): mu = (60 + 50) / 200 = 0.55,
        // var = 0.3 * 0.45^2 + 0.2 * 0.55^2 + 0.5 * 0.05^2 = 0.06075 + 0.0605 + 0.00125 = 0.1225.
        // LLR = 200 * 0.014387 * (1.1 - 1.014387) / (2 * 0.1225) = 200 * 0.014387 * 0.085613 / 0.245
        //     = 1.00548.
        let sprt = Sprt::parse("elo0=0 elo1=10 alpha=0.05 beta=0.05 model=trinomial").unwrap();
        let st = sprt.state(
            &Wld {
                wins: 60,
                losses: 40,
                draws: 100,
            },
            &Pentanomial::default(),
        );
        assert!(close(st.llr, 1.00548, 1e-4), "{st:?}");
        // Bounds: ln(0.05 / 0.95) = -2.944439, ln(0.95 / 0.05) = 2.944439.
        assert!(close(st.lower, -2.944439, 1e-6) && close(st.upper, 2.944439, 1e-6));
        assert_eq!(st.decision, None);
    }

    #[test]
    fn sprt_pentanomial_by_hand_and_decisions() {
        // Pairs (half points 0..4): [0, 10, 30, 50, 10], 100 pairs; values x = k/4. (The empty
        // class counts as half a pair: n = 100.5, mu = 0.64677, var = 0.04205, LLR = 2.4712.)
        // mu = (10 * 0.25 + 30 * 0.5 + 50 * 0.75 + 10 * 1) / 100 = (2.5 + 15 + 37.5 + 10) / 100 = 0.65
        // var = (10 * 0.4^2 + 30 * 0.15^2 + 50 * 0.1^2 + 10 * 0.35^2) / 100
        //     = (1.6 + 0.675 + 0.5 + 1.225) / 100 = 0.04
        // elo0 = 0, elo1 = 5: s1 = 1/(1 + 10^(-1/80)) = 0.507195; s1 - s0 = 0.007195.
        // LLR = 100 * 0.007195 * (1.3 - 1.007195) / 0.08 = 100 * 0.007195 * 0.292805 / 0.08 = 2.6334.
        let sprt = Sprt::parse("elo0=0,elo1=5").unwrap();
        let pairs = Pentanomial {
            counts: [0, 10, 30, 50, 10],
        };
        let st = sprt.state(&Wld::default(), &pairs);
        assert!(close(st.llr, 2.4712, 2e-3), "{st:?}");
        assert_eq!(st.decision, None);
        // Twice as many such pairs: LLR doubles, beyond 2.944: H1.
        let pairs = Pentanomial {
            counts: [0, 20, 60, 100, 20],
        };
        assert_eq!(sprt.state(&Wld::default(), &pairs).decision, Some(true));
        // The mirror image: H0.
        let pairs = Pentanomial {
            counts: [20, 100, 60, 20, 0],
        };
        assert_eq!(sprt.state(&Wld::default(), &pairs).decision, Some(false));
        // Only draws: regularized, the tiny variance makes them evidence for H0 (mean 1/2 < s1).
        let pairs = Pentanomial {
            counts: [0, 0, 7, 0, 0],
        };
        let llr = sprt.state(&Wld::default(), &pairs).llr;
        assert!(llr.is_finite() && llr < 0.0, "{llr}");
        // Only wins (a broken opponent): H1, but not on the first pairs.
        let pairs = Pentanomial {
            counts: [0, 0, 0, 0, 2],
        };
        assert_eq!(sprt.state(&Wld::default(), &pairs).decision, None);
        let pairs = Pentanomial {
            counts: [0, 0, 0, 0, 100],
        };
        assert_eq!(sprt.state(&Wld::default(), &pairs).decision, Some(true));
        // One won pair, or two drawn pairs, decide nothing.
        for counts in [[0, 0, 0, 1, 0], [0, 0, 2, 0, 0], [0, 0, 0, 0, 1]] {
            let st = sprt.state(&Wld::default(), &Pentanomial { counts });
            assert_eq!(st.decision, None, "{counts:?} {st:?}");
        }
        // Nothing yet: 0.
        assert_eq!(sprt.state(&Wld::default(), &Pentanomial::default()).llr, 0.0);
    }

    /// A worked example against an independent computation: fishtest's published formulas
    /// (pentanomial mean and variance, logistic Elo and its interval, normalized Elo, LOS, the
    /// GSPRT's normal approximation) evaluated by a short Python script written apart from this
    /// code (Python 3.11, `statistics.NormalDist` for the normal quantile and distribution):
    ///
    /// ```text
    /// pairs (first engine's two games): (1,1) (1,.5) (.5,.5) (1,0) (.5,.5) (0,.5) (1,.5) (.5,.5)
    ///                                   (1,1) (0,0) (.5,1) (.5,.5)
    /// counts LL LD DD+WL WD WW = 1 1 5 3 2; 24 games, 8 - 4 - 12
    /// mu = 0.583333333, var = 0.076388889 (a pair's score over 2), N = 12 pairs
    /// Elo = 58.451214, interval [-51.121623, 181.441802], error 116.281712
    /// nElo = 74.073516 +/- 139.000630; LOS = Phi((mu - 1/2) / sqrt(var / N)) = 0.851865
    /// LLR, elo0=0 elo1=10: logistic 0.172083, normalized 0.137333 (pairs),
    ///                      normalized on the 24 games as trinomial 0.157597
    /// ```
    #[test]
    fn pair_statistics_match_an_independent_computation() {
        let games: [(f64, f64); 12] = [
            (1.0, 1.0),
            (1.0, 0.5),
            (0.5, 0.5),
            (1.0, 0.0),
            (0.5, 0.5),
            (0.0, 0.5),
            (1.0, 0.5),
            (0.5, 0.5),
            (1.0, 1.0),
            (0.0, 0.0),
            (0.5, 1.0),
            (0.5, 0.5),
        ];
        let mut wld = Wld::default();
        let mut pairs = Pentanomial::default();
        for (a, b) in games {
            for g in [a, b] {
                match g {
                    1.0 => wld.wins += 1,
                    0.0 => wld.losses += 1,
                    _ => wld.draws += 1,
                }
            }
            pairs.add((2.0 * (a + b)) as usize);
        }
        assert_eq!(pairs.counts, [1, 1, 5, 3, 2]);
        assert_eq!((wld.wins, wld.losses, wld.draws), (8, 4, 12));
        let p = PairingStats::new("a", "b", &wld, &pairs);
        assert_eq!(p.basis, Basis::Pairs);
        let near = |x: Option<f64>, want: f64| x.is_some_and(|x| close(x, want, 1e-5));
        assert!(near(p.score, 0.583_333_333), "{p:?}");
        assert!(near(p.elo, 58.451_214), "{p:?}");
        assert!(near(p.elo_lower, -51.121_623), "{p:?}");
        assert!(near(p.elo_upper, 181.441_802), "{p:?}");
        assert!(near(p.elo_error, 116.281_712), "{p:?}");
        assert!(near(p.nelo, 74.073_516), "{p:?}");
        assert!(near(p.nelo_error, 139.000_630), "{p:?}");
        // erf by Abramowitz and Stegun: 1.5e-7.
        assert!(near(p.los, 0.851_865), "{p:?}");
        assert!(near(p.draw_ratio, 0.5), "{p:?}");
        // The regularization of empty classes does not apply: every class is seen.
        let llr = |spec: &str| Sprt::parse(spec).unwrap().state(&wld, &pairs).llr;
        assert!(close(llr("elo0=0 elo1=10"), 0.172_083, 1e-5));
        assert!(close(llr("elo0=0 elo1=10 model=normalized"), 0.137_333, 1e-5));
        assert!(close(
            llr("elo0=0 elo1=10 model=trinomial model=normalized"),
            0.157_597,
            1e-5
        ));
        let test = Sprt::parse("elo0=0 elo1=10").unwrap();
        let text = report(&MatchStats::new(
            &["a".to_string(), "b".to_string()],
            &[[0, 1]],
            &[wld],
            &[pairs],
            &[wld, wld.flipped()],
            Some((&test, None)),
        ));
        assert!(
            text.contains(
                "SPRT (logistic, pentanomial, elo0=0 elo1=10 alpha=0.05 beta=0.05): llr 0.17 (5.8 %), \
                 lbound -2.94, ubound 2.94: no decision yet"
            ),
            "{text}"
        );
        assert!(
            text.contains("Results of a vs b: 24 games, 8 - 4 - 12, 14.0 points (58.3 %)"),
            "{text}"
        );
        assert!(
            text.contains("Pairs (LL, LD, DD+WL, WD, WW): 1, 1, 5, 3, 2 (12 pairs)"),
            "{text}"
        );
        assert!(
            text.contains("Elo difference: 58.5 +/- 116.3, LOS: 85.2 %, DrawRatio: 50.0 %"),
            "{text}"
        );
        assert!(text.contains("nElo: 74.1 +/- 139.0 (from the pairs)"), "{text}");
    }

    /// Every game won or lost: a bound, never `inf +/- nan`. With n games all won, a mean score
    /// below 0.025^(1/n) would make that happen less than 2.5 % of the time (by hand: 4 games,
    /// 0.025^(1/4) = 0.397635, Elo -400 log10(1/0.397635 - 1) = -72.150).
    #[test]
    fn a_one_sided_result_gives_a_bound() {
        let wld = Wld {
            wins: 4,
            losses: 0,
            draws: 0,
        };
        let pairs = Pentanomial {
            counts: [0, 0, 0, 0, 2],
        };
        let p = PairingStats::new("a", "b", &wld, &pairs);
        assert_eq!(
            (p.elo, p.elo_error, p.elo_upper, p.nelo),
            (None, None, None, None)
        );
        assert!(p.elo_lower.is_some_and(|x| close(x, -72.150, 1e-3)), "{p:?}");
        let text = report(&MatchStats::new(
            &["a".to_string(), "b".to_string()],
            &[[0, 1]],
            &[wld],
            &[pairs],
            &[wld, wld.flipped()],
            None,
        ));
        assert!(text.contains("Elo difference: > -72.1 (every game won"), "{text}");
        assert!(!text.contains("inf") && !text.contains("nan"), "{text}");
        let lost = PairingStats::new(
            "b",
            "a",
            &wld.flipped(),
            &Pentanomial {
                counts: [2, 0, 0, 0, 0],
            },
        );
        assert!(lost.elo_upper.is_some_and(|x| close(x, 72.150, 1e-3)), "{lost:?}");
        // One game, not yet a pair: the games are the basis.
        let one = PairingStats::new(
            "a",
            "b",
            &Wld {
                wins: 1,
                losses: 0,
                draws: 0,
            },
            &Pentanomial::default(),
        );
        assert_eq!(one.basis, Basis::Games);
        assert!(one.elo.is_none() && one.elo_lower.is_some());
        // Serialized (for machine-readable output), an Elo that does not exist is null.
        let json = serde_json::to_value(&p).unwrap();
        assert_eq!(json["elo"], serde_json::Value::Null);
        assert_eq!(json["pentanomial"], serde_json::json!([0, 0, 0, 0, 2]));
        assert_eq!(json["basis"], "pairs");
        // Nothing yet: nothing to say, and no panic.
        let none = PairingStats::new("a", "b", &Wld::default(), &Pentanomial::default());
        assert_eq!((none.score, none.los, none.draw_ratio), (None, None, None));
    }

    #[test]
    fn sprt_parse_errors() {
        assert!(Sprt::parse("elo0=0").is_err());
        assert!(Sprt::parse("elo0=5 elo1=0").is_err());
        assert!(Sprt::parse("elo0=0 elo1=5 alpha=0.7").is_err());
        assert!(Sprt::parse("elo0=0 elo1=5 gamma=1").is_err());
        assert!(Sprt::parse("elo0=0 elo1=x").is_err());
        assert!(Sprt::parse("elo0=0 elo1=5 model=binomial").is_err());
        let s = Sprt::parse("elo0=0 elo1=5 model=normalized model=trinomial").unwrap();
        assert_eq!(
            (s.elo_model, s.model),
            (EloModel::Normalized, SprtModel::Trinomial)
        );
        let s = Sprt::parse("elo0=0 elo1=5").unwrap();
        assert_eq!(
            (s.elo_model, s.model),
            (EloModel::Logistic, SprtModel::Pentanomial)
        );
    }
}
