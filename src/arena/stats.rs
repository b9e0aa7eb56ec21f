//! Match statistics: Elo difference with its 95 % error margin, likelihood of superiority, draw
//! ratio, and the sequential probability ratio test (SPRT) that stops a match once it has decided.
//!
//! Elo here is *logistic* Elo: a mean score `s` is `-400 log10(1/s - 1)` Elo, as cutechess prints
//! it and as fishtest's "logistic" bounds mean it.

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
        -400.0 * (1.0 / s - 1.0).log10()
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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtModel {
    /// Each game an outcome: loss, draw or win.
    Trinomial,
    /// Each game pair an outcome: 0, 1/2, 1, 3/2 or 2 points (fishtest's default; it takes the
    /// correlation of the two games of an opening into account).
    Pentanomial,
}

/// A sequential probability ratio test: H0 "the Elo difference is `elo0`" against H1 "it is
/// `elo1`", with error rates `alpha` (accepting H1 when H0 holds) and `beta`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo of the null hypothesis (logistic Elo).
    pub elo0: f64,
    /// Elo of the alternative hypothesis.
    pub elo1: f64,
    /// Type I error rate.
    pub alpha: f64,
    /// Type II error rate.
    pub beta: f64,
    /// Outcome model.
    pub model: SprtModel,
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
    /// Reads `elo0=0 elo1=5 alpha=0.05 beta=0.05 [model=pentanomial|trinomial]` (any order,
    /// separated by spaces or commas; alpha and beta default to 0.05).
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
                "model" => {
                    s.model = match value {
                        "pentanomial" => SprtModel::Pentanomial,
                        "trinomial" => SprtModel::Trinomial,
                        _ => {
                            return Err(format!(
                                "--sprt: model is pentanomial or trinomial, not {value:?}"
                            ));
                        }
                    }
                }
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
                let values = [0.0, 0.5, 1.0];
                llr_counts(&counts, &values, self.elo0, self.elo1)
            }
            SprtModel::Pentanomial => {
                let values = [0.0, 0.25, 0.5, 0.75, 1.0];
                llr_counts(&pairs.counts, &values, self.elo0, self.elo1)
            }
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
}

/// The LLR of outcome counts with these values. An outcome never seen counts as half an outcome:
/// otherwise a run of identical results (all wins against a broken engine) has no variance and the
/// test could never decide. (Fishtest's 0.001 of an outcome suits its batches of many games; here
/// the test is read after every game, and with so small a weight one or two drawn pairs had a
/// variance near zero and accepted H0, one won pair H1.)
pub fn llr_counts(counts: &[u64], values: &[f64], elo0: f64, elo1: f64) -> f64 {
    if counts.iter().all(|&c| c == 0) {
        return 0.0;
    }
    let weights: Vec<f64> = counts
        .iter()
        .map(|&c| if c == 0 { 0.5 } else { c as f64 })
        .collect();
    let n: f64 = weights.iter().sum();
    let outcomes: Vec<(f64, f64)> = values.iter().zip(&weights).map(|(&x, &w)| (x, w / n)).collect();
    llr_normal(n, &outcomes, elo0, elo1)
}

/// The generalized SPRT's log-likelihood ratio in its normal approximation (M. Van den Bergh, "A
/// practical introduction to the GSPRT", the computation fishtest's `LLR_logistic` and
/// cutechess's SPRT make): for `n` independent outcomes `x` with empirical distribution
/// `outcomes` (value, frequency), mean `mu` and variance `var`, and the expected scores
/// `s0 = score(elo0)`, `s1 = score(elo1)`,
///
/// `LLR ≈ n (s1 - s0) (2 mu - s0 - s1) / (2 var)`,
///
/// which is `n [(mu - s0)^2 - (mu - s1)^2] / (2 var)`: how much better a normal law centred on
/// `s1` explains the mean than one centred on `s0`. For game pairs, `x` is the pair's score over
/// 2 (0, 1/4, ..., 1). With no variance yet (no games, or every outcome equal) it is 0: nothing is
/// decided.
pub fn llr_normal(n: f64, outcomes: &[(f64, f64)], elo0: f64, elo1: f64) -> f64 {
    if n.is_nan() || n <= 0.0 {
        return 0.0;
    }
    let mu: f64 = outcomes.iter().map(|(x, p)| x * p).sum();
    let var: f64 = outcomes.iter().map(|(x, p)| p * (x - mu).powi(2)).sum();
    if var <= 1e-12 {
        return 0.0;
    }
    let (s0, s1) = (score_from_elo(elo0), score_from_elo(elo1));
    n * (s1 - s0) * (2.0 * mu - s0 - s1) / (2.0 * var)
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

    #[test]
    fn sprt_parse_errors() {
        assert!(Sprt::parse("elo0=0").is_err());
        assert!(Sprt::parse("elo0=5 elo1=0").is_err());
        assert!(Sprt::parse("elo0=0 elo1=5 alpha=0.7").is_err());
        assert!(Sprt::parse("elo0=0 elo1=5 gamma=1").is_err());
        assert!(Sprt::parse("elo0=0 elo1=x").is_err());
        assert!(Sprt::parse("elo0=0 elo1=5 model=binomial").is_err());
    }
}
