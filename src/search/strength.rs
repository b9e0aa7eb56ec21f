//! Playing strength below full: what a `UCI_Elo` / Hub `elo` setting does to the search.
//!
//! A weaker Tempo should still look like a player, not like a broken engine: it searches a smaller
//! tree (a node budget, so a level plays the same on a fast and a slow machine), it looks at its few
//! best moves instead of one (MultiPV), and it chooses among them at random with a probability that
//! falls with how much worse each move scored (a softmax with a temperature in hundredths of a man).
//! A move much worse than the best is then rare but possible, as a human's oversight is; a move the
//! search did not rank among its best few is never played, and the move is always legal and quick.
//!
//! The scale is anchored and calibrated by games; docs/strength-levels.md gives the measured
//! table and the method.

use rand::Rng;

/// Measured levels: `(elo, skill)` pairs, where `skill` is the knob of [`Handicap::from_skill`] and
/// `elo` the rating its games measured, anchored at full strength = 2000 ([`ELO_MAX`]). Each point
/// is the one above it minus the Elo difference measured between the two skills in 40 games at
/// 0.05 s a move (`tempo match`, International, random openings; docs/strength-levels.md). Skill 0
/// scored 49 % against skill 0.2 over 60 games, so the scale starts at 0.2. Levels between two
/// points interpolate the skill linearly.
const CALIBRATION: &[(u32, f64)] = &[
    (160, 0.2),
    (480, 0.3),
    (750, 0.4),
    (1020, 0.5),
    (1250, 0.6),
    (1520, 0.7),
    (1770, 0.8),
    (1920, 0.9),
    (2000, 1.0),
];

/// The weakest level.
pub const ELO_MIN: u32 = CALIBRATION[0].0;
/// The strongest level: full strength (no handicap at all).
pub const ELO_MAX: u32 = CALIBRATION[CALIBRATION.len() - 1].0;
/// The level a GUI shows before the user picks one.
pub const ELO_DEFAULT: u32 = 1200;

/// The search budget and choice of move of one level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Handicap {
    /// Nodes per move, at most.
    pub nodes: u64,
    /// How many of the best moves are searched and may be chosen.
    pub width: usize,
    /// Softmax temperature in hundredths of a man: a move `t` worse than the best is chosen
    /// `e` times less often than the best.
    pub temperature: i32,
}

impl Handicap {
    /// The handicap of level `elo` (clamped to [`ELO_MIN`]..=[`ELO_MAX`]); `None` at full strength.
    pub fn from_elo(elo: u32) -> Option<Handicap> {
        let elo = elo.clamp(ELO_MIN, ELO_MAX);
        if elo >= ELO_MAX {
            return None;
        }
        let i = CALIBRATION.iter().rposition(|p| p.0 <= elo).unwrap_or(0);
        let (e0, s0) = CALIBRATION[i];
        let (e1, s1) = CALIBRATION[(i + 1).min(CALIBRATION.len() - 1)];
        let skill = if e1 > e0 {
            s0 + (s1 - s0) * f64::from(elo - e0) / f64::from(e1 - e0)
        } else {
            s0
        };
        Some(Handicap::from_skill(skill))
    }

    /// The handicap at `skill`, from 0 (the weakest) to 1 (about full strength): the node budget
    /// doubles fourteen times, from 32 nodes (a search of two or three plies) to half a million (more
    /// than a tenth of a second), while the temperature falls from 160 hundredths of a man to 0 and
    /// the choice narrows from the best five moves to the best three.
    pub fn from_skill(skill: f64) -> Handicap {
        let s = skill.clamp(0.0, 1.0);
        Handicap {
            nodes: 2f64.powf(5.0 + 14.0 * s) as u64,
            width: 5 - (2.0 * s).round() as usize,
            temperature: (160.0 * (1.0 - s).powf(1.5)).round() as i32,
        }
    }
}

/// A client's strength setting, as both protocols hold it: whether strength is limited
/// (`UCI_LimitStrength`, Hub `limit-strength`) and the level (`UCI_Elo`, Hub `elo`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    /// Play at `elo` instead of full strength.
    pub limited: bool,
    /// The level used when `limited`.
    pub elo: u32,
}

impl Default for Strength {
    fn default() -> Self {
        Strength {
            limited: false,
            elo: ELO_DEFAULT,
        }
    }
}

impl Strength {
    /// The handicap this setting plays with (`None`: full strength).
    pub fn handicap(self) -> Option<Handicap> {
        if self.limited {
            Handicap::from_elo(self.elo)
        } else {
            None
        }
    }
}

/// Picks one of `lines` (a move and its score, for the side to move; at least one) at random by
/// the softmax of the scores at `temperature`; the first line at temperature 0 or below. Scores far
/// below the best (more than 30 temperatures) are never chosen, which also keeps a proved loss
/// from being picked next to a playable move.
pub fn choose<M: Copy>(lines: &[(M, i32)], temperature: i32, rng: &mut impl Rng) -> Option<M> {
    let best = lines.iter().map(|l| l.1).max()?;
    if temperature <= 0 {
        return lines.iter().find(|l| l.1 == best).map(|l| l.0);
    }
    let t = f64::from(temperature);
    let weights: Vec<f64> = lines
        .iter()
        .map(|&(_, s)| {
            let x = f64::from(s - best) / t;
            if x < -30.0 { 0.0 } else { x.exp() }
        })
        .collect();
    let total: f64 = weights.iter().sum();
    let mut pick = rng.random::<f64>() * total;
    for (line, w) in lines.iter().zip(&weights) {
        if pick < *w {
            return Some(line.0);
        }
        pick -= w;
    }
    // Rounding left the pick at the very end: the last line with weight.
    lines
        .iter()
        .zip(&weights)
        .rev()
        .find(|(_, w)| **w > 0.0)
        .map(|(l, _)| l.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng as StdRng;

    #[test]
    fn full_strength_has_no_handicap() {
        assert_eq!(Handicap::from_elo(ELO_MAX), None);
        assert_eq!(Handicap::from_elo(u32::MAX), None);
        assert!(Handicap::from_elo(ELO_MAX - 1).is_some());
    }

    #[test]
    fn levels_grow_monotonically() {
        let mut last = Handicap::from_elo(0).unwrap();
        assert_eq!(last, Handicap::from_elo(ELO_MIN).unwrap());
        for elo in (ELO_MIN + 1)..ELO_MAX {
            let h = Handicap::from_elo(elo).unwrap();
            assert!(h.nodes >= last.nodes, "nodes fall at {elo}");
            assert!(h.temperature <= last.temperature, "temperature rises at {elo}");
            assert!(h.width <= last.width, "width rises at {elo}");
            last = h;
        }
        assert_eq!(Handicap::from_elo(ELO_MIN).unwrap(), Handicap::from_skill(0.2));
        assert_eq!(Handicap::from_elo(1135).unwrap(), Handicap::from_skill(0.55));
        assert_eq!(Handicap::from_skill(0.0).nodes, 32);
        assert_eq!(Handicap::from_skill(1.0).temperature, 0);
    }

    #[test]
    fn cold_choice_is_the_best() {
        let mut rng = StdRng::seed_from_u64(1);
        let lines = [(1, 10), (2, 50), (3, -20)];
        for _ in 0..100 {
            assert_eq!(choose(&lines, 0, &mut rng), Some(2));
        }
        assert_eq!(choose::<u8>(&[], 50, &mut rng), None);
    }

    #[test]
    fn warm_choice_follows_the_softmax() {
        let mut rng = StdRng::seed_from_u64(7);
        // Two moves 50 apart at temperature 50: the better one e times as often (73 %).
        let lines = [(1, 0), (2, -50), (3, -5000)];
        let mut counts = [0u32; 4];
        for _ in 0..20_000 {
            counts[choose(&lines, 50, &mut rng).unwrap()] += 1;
        }
        let share = f64::from(counts[1]) / 20_000.0;
        assert!((share - 0.731).abs() < 0.02, "{counts:?}");
        // A move 100 temperatures worse is never chosen.
        assert_eq!(counts[3], 0, "{counts:?}");
    }
}
