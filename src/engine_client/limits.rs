//! How long an engine may think: a game clock, a move time, a depth or a node budget, and the
//! `--tc` text that gives a clock. `tempo match` and `tempo selfplay --opponent` read them alike.

use std::time::Duration;

/// A game clock: `moves` moves in `base` (repeating; `None`: the whole game), plus `inc` after
/// every move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockSpec {
    /// Moves per period (`None`: one period for the whole game).
    pub moves: Option<u32>,
    /// Time per period.
    pub base: Duration,
    /// Increment per move.
    pub inc: Duration,
}

/// How long engines may think.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeControl {
    /// A game clock.
    pub clock: Option<ClockSpec>,
    /// Fixed time per move.
    pub movetime: Option<Duration>,
    /// Depth per move.
    pub depth: Option<u32>,
    /// Nodes per move.
    pub nodes: Option<u64>,
}

/// Reads a number of seconds (0 to 10^7) for `what`.
///
/// # Errors
/// Not a number, or out of range.
pub fn parse_seconds(what: &str, s: &str) -> Result<Duration, String> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("{what}: {s:?} is not a number of seconds"))?;
    if !v.is_finite() || !(0.0..=1e7).contains(&v) {
        return Err(format!("{what}: {s} is out of range"));
    }
    Ok(Duration::from_secs_f64(v))
}

/// Reads `--tc`: `SECONDS[+INC]` or `MOVES/SECONDS[+INC]`.
///
/// # Errors
/// Anything else, with the expected forms named.
pub fn parse_tc(text: &str) -> Result<ClockSpec, String> {
    let bad = || format!("--tc {text:?}: expected SECONDS+INC or MOVES/SECONDS+INC, e.g. 10+0.1 or 40/60");
    let (moves, rest) = match text.split_once('/') {
        Some((m, r)) => {
            let m: u32 = m.trim().parse().map_err(|_| bad())?;
            if m == 0 {
                return Err(bad());
            }
            (Some(m), r)
        }
        None => (None, text),
    };
    let (base, inc) = match rest.split_once('+') {
        Some((b, i)) => (b, Some(i)),
        None => (rest, None),
    };
    let base = parse_seconds("--tc", base).map_err(|_| bad())?;
    let inc = match inc {
        Some(i) => parse_seconds("--tc", i).map_err(|_| bad())?,
        None => Duration::ZERO,
    };
    if base.is_zero() && inc.is_zero() {
        return Err(format!("--tc {text:?}: the clock needs some time"));
    }
    Ok(ClockSpec { moves, base, inc })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_parse() {
        let s = |x: f64| Duration::from_secs_f64(x);
        assert_eq!(
            parse_tc("10+0.1").unwrap(),
            ClockSpec {
                moves: None,
                base: s(10.0),
                inc: s(0.1)
            }
        );
        assert_eq!(
            parse_tc("40/60").unwrap(),
            ClockSpec {
                moves: Some(40),
                base: s(60.0),
                inc: Duration::ZERO
            }
        );
        assert_eq!(parse_tc("40/90+1").unwrap().moves, Some(40));
        for bad in ["", "x", "10+", "0/10", "-5", "0+0", "40/", "1e9"] {
            assert!(parse_tc(bad).is_err(), "{bad}");
        }
    }
}
