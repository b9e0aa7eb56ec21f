//! Playing strength below full: what a `UCI_Elo` / Hub `elo` setting does to the search.
//!
//! A weaker Tempo should still look like a player, not like a broken engine: it searches a smaller
//! tree (a node budget, so a level plays the same on a fast and a slow machine), it looks at its few
//! best moves instead of one (MultiPV), and it chooses among them at random with a probability that
//! falls with how much worse each move scored (a softmax with a temperature in hundredths of a man).
//! A move much worse than the best is then rare but possible, as a human's oversight is; a move the
//! search did not rank among its best few is never played, and the move is always legal and quick.
//!
//! The scale is anchored and calibrated by games; README ("Strength levels") gives the measured
//! table and the method.

use rand::RngExt;

/// The weakest level.
pub const ELO_MIN: u32 = 600;
/// The strongest level: full strength (no handicap at all).
pub const ELO_MAX: u32 = 2000;
/// The level a GUI shows before the user picks one.
pub const ELO_DEFAULT: u32 = 1400;

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
    ///
    /// The node budget doubles every 100 points, from 64 nodes at [`ELO_MIN`] (a depth-2 or depth-3
    /// search) to about half a million just below [`ELO_MAX`], where the temperature reaches zero.
    /// These shapes were chosen first and the points then calibrated by the ladder of games in
    /// README; the numbers are where the measured scores put them.
    pub fn from_elo(elo: u32) -> Option<Handicap> {
        let elo = elo.clamp(ELO_MIN, ELO_MAX);
        if elo >= ELO_MAX {
            return None;
        }
        let steps = (elo - ELO_MIN) / 100;
        let frac = f64::from((elo - ELO_MIN) % 100) / 100.0;
        let nodes = (64.0 * 2f64.powf(f64::from(steps) + frac)) as u64;
        // 120 hundredths of a man at the bottom, falling linearly to 0 at ELO_MAX.
        let temperature = (120 * (ELO_MAX - elo) / (ELO_MAX - ELO_MIN)) as i32;
        let width = if elo < 1200 {
            5
        } else if elo < 1700 {
            4
        } else {
            3
        };
        Some(Handicap {
            nodes,
            width,
            temperature,
        })
    }
}

/// Picks one of `lines` (a move and its score, for the side to move; at least one) at random by
/// the softmax of the scores at `temperature`; the first line at temperature 0 or below. Scores far
/// below the best (more than 30 temperatures) are never chosen, which also keeps a proved loss
/// from being picked next to a playable move.
pub fn choose<M: Copy>(lines: &[(M, i32)], temperature: i32, rng: &mut impl RngExt) -> Option<M> {
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
    use rand::rngs::StdRng;

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
        assert_eq!(Handicap::from_elo(ELO_MIN).unwrap().nodes, 64);
        assert_eq!(Handicap::from_elo(ELO_MIN + 100).unwrap().nodes, 128);
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
