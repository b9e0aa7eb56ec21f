//! The data of `tempo train`: self-play files read into flat feature arrays ([`Samples`]), split
//! into training and held-out positions by game.

use crate::draughts::Draughts;
use crate::draughts::rules::Rules;
use crate::eval::features;
#[cfg(doc)]
use crate::eval::features::{LINEAR, PHASE_FULL};
use crate::eval::table::{slot_base, window_base};
use crate::game::{Game, Side};
use crate::selfplay::format::game_line;
use std::path::PathBuf;

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
    /// Each slot's configuration as its place in a net's table ([`slot_base`] plus the
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
        let mut f = features::features_of(pos, self.edges, self.windows);
        self.slots = f.regions + f.edges + f.windows;
        self.index.extend(
            f.index[..f.regions + f.edges]
                .iter()
                .enumerate()
                .map(|(s, &x)| (slot_base(f.regions, s) + usize::from(x)) as u32),
        );
        self.index.extend(
            f.window[..f.windows]
                .iter()
                .enumerate()
                .map(|(w, &x)| (window_base(f.regions, f.edges, w) + x as usize) as u32),
        );
        if self.kings {
            let base = window_base(f.regions, f.edges, f.windows);
            self.king_index
                .extend(f.king[..f.kings].iter().map(|&x| (base + usize::from(x)) as u32));
        } else {
            f.linear[features::KING_ATTACKED] = 0;
        }
        self.king_end.push(self.king_index.len() as u32);
        self.linear
            .extend(f.linear.iter().map(|&x| x.clamp(-32768, 32767) as i16));
        self.phase.push(f.phase as u16);
        self.score.push(score as f32);
        self.hand.push(crate::eval::hand::hand_evaluate(pos) as f32);
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
    read_games::<R>(paths, holdout, seed, max, |pos, score, result, hold| {
        if hold { &mut held } else { &mut train }.push(pos, score, result);
    })?;
    Ok((train, held))
}

/// Reads the self-play files and hands each position of a finished game to `visit` with its
/// search score, the result for White and whether its game is held out (a hash of the seed,
/// the file and the game number below `holdout`), up to about `max` positions (whole games).
/// Returns the number of positions visited.
///
/// # Errors
/// As [`load_of`].
pub fn read_games<R: Rules>(
    paths: &[PathBuf],
    holdout: f64,
    seed: u64,
    max: Option<usize>,
    mut visit: impl FnMut(&Draughts<R>, i32, f32, bool),
) -> Result<usize, String> {
    let mut pending: Vec<(Draughts<R>, i32, f32)> = Vec::new();
    let max = max.unwrap_or(usize::MAX);
    let mut visited = 0;
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
                for (pos, score, result) in pending.drain(..) {
                    visit(&pos, score, result, hold);
                    visited += 1;
                }
                if visited >= max {
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
    Ok(visited)
}

fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}
