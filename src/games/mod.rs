//! Games on boards that are not squares: **Sixteen Soldiers** ([`sixteen`]) on the 37-point alquerque
//! board with two triangles, and **MuchADo** ([`muchado`]) on the hexagonal board of side 4.
//!
//! Each game is its own position type implementing [`crate::game::Game`], so perft, search,
//! transposition table and protocols serve it unchanged. Boards are [`graph::Graph`]s built at
//! compile time from a short source list (the drawn lines, or the hex cells) with integer
//! arithmetic; a set of points is a `u64` (bit `i` = point `i`).
//!
//! Notation and position strings of both games are documented in `docs/odd-boards.md`; rules facts
//! cite `../shared/rules.md` (sections 1 and 4, decisions D-M1..D-M10 and D-S1..D-S5).
//!
//! This module tree depends only on [`crate::game`], [`crate::bits`] and [`crate::zobrist`]: rules
//! never import search or protocol code.

pub mod graph;
pub mod muchado;
pub mod sixteen;

pub use muchado::MuchAdo;
pub use sixteen::Sixteen;

use crate::game::{MoveError, PositionError, Side};
use graph::{Graph, NONE};

/// Splits a FEN into its side to move and its remaining fields (quotes and a final `.` tolerated).
pub(crate) fn fen_fields(text: &str) -> Result<(Side, Vec<&str>), PositionError> {
    let mut t = text.trim();
    if let Some(inner) = t.strip_prefix('"').and_then(|x| x.strip_suffix('"')) {
        t = inner.trim();
    }
    let t = t.strip_suffix('.').unwrap_or(t);
    let mut fields = t.split(':').map(str::trim);
    let side = match fields.next().unwrap_or("") {
        "W" | "w" => Side::White,
        "B" | "b" => Side::Black,
        s => {
            return Err(PositionError::Syntax(format!(
                "side to move must be W or B, not {s:?}"
            )));
        }
    };
    Ok((side, fields.collect()))
}

/// Reads a point/cell list `a1,b2,Kc3` (empty allowed) with the game's point reader; returns the
/// set and the subset marked `K`.
pub(crate) fn parse_point_list(
    list: &str,
    point: impl Fn(&str) -> Option<u32>,
    kings_allowed: bool,
) -> Result<(u64, u64), PositionError> {
    let (mut all, mut kings) = (0u64, 0u64);
    for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (king, name) = match item.strip_prefix(['K', 'k']) {
            Some(rest) if kings_allowed => (true, rest),
            _ => (false, item),
        };
        let p = point(name).ok_or_else(|| PositionError::BadSquare(item.to_string()))?;
        if all & (1 << p) != 0 {
            return Err(PositionError::Occupied(item.to_string()));
        }
        all |= 1 << p;
        if king {
            kings |= 1 << p;
        }
    }
    Ok((all, kings))
}

/// A capture written as points: `from x to [x more]...`, already split and read.
///
/// The text after `from x to` is either the captured points in any order (the Hub form) or, read
/// as a path, the further landing points: `interpretations` returns both readings as
/// `(from, to, captured set)`, the path one only when every leg is a straight line.
pub(crate) fn capture_readings(g: &Graph, points: &[u32]) -> [Option<(u32, u32, u64)>; 2] {
    let mut out = [None, None];
    if points.len() < 2 {
        return out;
    }
    let captured = points[2..].iter().fold(0u64, |s, &p| s | 1 << p);
    out[0] = Some((points[0], points[1], captured));
    if points.len() > 2 {
        let mut set = 0u64;
        let mut ok = true;
        for w in points.windows(2) {
            match jumped_between(g, w[0], w[1]) {
                Some(j) => set |= 1 << j,
                None => ok = false,
            }
        }
        if ok {
            out[1] = Some((points[0], points[points.len() - 1], set));
        }
    }
    out
}

/// The point just before `q` on a straight walk from `p` of at least two steps: the piece jumped by
/// a leap (or a long king jump) from `p` landing on `q`.
fn jumped_between(g: &Graph, p: u32, q: u32) -> Option<u32> {
    for d in 0..g.dirs {
        let mut prev = p;
        let mut cur = g.step(p, d);
        let mut steps = 1;
        while cur != NONE {
            if u32::from(cur) == q {
                return (steps >= 2).then_some(prev);
            }
            prev = u32::from(cur);
            cur = g.step(prev, d);
            steps += 1;
        }
    }
    None
}

/// Chooses the one move among `candidates` (already matched against the text), or reports the text
/// as illegal or ambiguous.
pub(crate) fn pick<M: Copy + PartialEq>(
    text: &str,
    candidates: &[M],
    write: impl Fn(&M) -> String,
) -> Result<M, MoveError> {
    let mut distinct: Vec<M> = Vec::new();
    for m in candidates {
        if !distinct.contains(m) {
            distinct.push(*m);
        }
    }
    match distinct.len() {
        0 => Err(MoveError::Illegal(text.to_string())),
        1 => Ok(distinct[0]),
        _ => Err(MoveError::Ambiguous(
            text.to_string(),
            distinct.iter().map(write).collect(),
        )),
    }
}

/// Splits a Hub position string of `len` ASCII characters into the side to move and the rest,
/// with the errors both odd boards report.
pub(crate) fn split_hub(
    text: &str,
    len: usize,
) -> Result<(crate::game::Side, &str), crate::game::PositionError> {
    use crate::game::{PositionError, Side};
    let t = text.trim();
    if !t.is_ascii() {
        return Err(PositionError::Syntax("the position string must be ASCII".into()));
    }
    if t.len() != len {
        return Err(PositionError::Length {
            expected: len,
            found: t.len(),
        });
    }
    let side = Side::from_letter(&t[..1])
        .ok_or_else(|| PositionError::Syntax(format!("side to move must be W or B, not {:?}", &t[..1])))?;
    Ok((side, &t[1..]))
}
