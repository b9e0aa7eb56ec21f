//! Moves as text.
//!
//! Writing: the variant's standard notation (`32-28`, `28x19`; `c3-d4`, `c3:e5` for Russian and
//! Brazilian), with the squares where the piece lands between captures added only when start and
//! end alone would name more than one legal move (PDN 3.0); or the Hub form, numeric, `from-to` or
//! `fromxto` followed by every captured square in ascending order (Scan: `33x13x18x28`).
//!
//! Reading accepts numbers or algebraic names in any variant, separators `-`, `x` and `:`, the short
//! form when it names one legal move, the Hub form with the captured squares in any order, and a
//! path through landing squares (`11x18x25`). When a text matches several moves but is exactly the
//! full form of one of them (every intermediate square written, as PDN 3.0 writes an ambiguous
//! capture), it names that one: `c1:g5` is the single capture from c1 to g5 even when a longer
//! capture also runs from c1 to g5. The text is matched against the legal moves, so an
//! ambiguous or illegal move is reported as such.

use super::geom::Geometry;
use super::rules::{CapturePromotion, Notation, Rules};
use super::{BitsOf, Draughts, Move, movegen};
use crate::bits::Bits;
use crate::game::{Game, MoveError, MoveList, MoveStyle, Side};

/// Most capture paths enumerated for one move when writing or reading it.
const PATH_LIMIT: usize = 256;

/// The name of a square in the variant's notation: its number, or `c3` on algebraic boards.
pub(super) fn square_name<R: Rules>(bit: u32) -> String {
    match R::NOTATION {
        Notation::Numeric => numeric_name::<R>(bit),
        Notation::Algebraic => algebraic_name::<R>(bit),
    }
}

fn numeric_name<R: Rules>(bit: u32) -> String {
    R::Board::number_of(bit).map_or_else(|| format!("?{bit}"), |n| n.to_string())
}

fn algebraic_name<R: Rules>(bit: u32) -> String {
    let (col, row) = R::Board::coords(bit);
    format!("{}{}", (b'a' + col as u8) as char, R::Board::HEIGHT - row)
}

/// Reads a square given as a number (`28`) or an algebraic name (`c3`).
pub(super) fn parse_square<R: Rules>(s: &str) -> Option<u32> {
    let s = s.trim();
    let first = s.chars().next()?;
    if first.is_ascii_digit() {
        if s.len() > 3 || !s.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        return R::Board::bit_of(s.parse().ok()?);
    }
    let file = first.to_ascii_lowercase();
    if !file.is_ascii_lowercase() {
        return None;
    }
    let rank: u32 = s[1..]
        .parse()
        .ok()
        .filter(|r| (1..=R::Board::HEIGHT).contains(r))?;
    if s[1..].starts_with('0') || s[1..].starts_with('+') {
        return None;
    }
    R::Board::at(u32::from(file as u8 - b'a'), R::Board::HEIGHT - rank)
}

/// Every capture path of `mv`, as the list of squares where the piece lands after each capture.
fn capture_paths<R: Rules>(pos: &Draughts<R>, mv: &Move<BitsOf<R>>) -> Vec<Vec<u32>> {
    let from = BitsOf::<R>::bit(mv.from.into());
    let mut walk = PathWalk::<R> {
        empty: pos.empty() | from,
        captured: mv.captured,
        to: mv.to.into(),
        white: pos.side == Side::White,
        path: Vec::new(),
        out: Vec::new(),
    };
    walk.step(from, !(pos.kings & from).is_empty(), mv.captured, 0);
    walk.out
}

/// A walk over the capture paths of one move, for notation only (not a hot path).
struct PathWalk<R: Rules> {
    empty: BitsOf<R>,
    captured: BitsOf<R>,
    to: u32,
    white: bool,
    path: Vec<u32>,
    out: Vec<Vec<u32>>,
}

impl<R: Rules> PathWalk<R> {
    /// Extends the path from `sq`, jumping only pieces of `left` (captured pieces not yet jumped);
    /// `came` is the direction of the last jump.
    fn step(&mut self, sq: BitsOf<R>, king: bool, left: BitsOf<R>, came: i32) {
        if self.out.len() >= PATH_LIMIT {
            return;
        }
        if left.is_empty() {
            if sq.lowest() == self.to {
                self.out.push(self.path.clone());
            }
            return;
        }
        // The same movement rules as the generator: immediate removal frees the squares of
        // pieces already jumped, and such a capture never turns back.
        let free = if R::IMMEDIATE_REMOVAL {
            self.empty | (self.captured & !left)
        } else {
            self.empty
        };
        let (dirs, n) = match (king, self.white) {
            (true, _) => movegen::king_capture_dirs::<R>(),
            (false, true) => movegen::man_capture_dirs::<R, true>(),
            (false, false) => movegen::man_capture_dirs::<R, false>(),
        };
        let promo = if self.white {
            R::Board::TOP_ROW
        } else {
            R::Board::BOTTOM_ROW
        };
        let flying = king && R::FLYING_KINGS;
        for &d in &dirs[..n] {
            if R::IMMEDIATE_REMOVAL && d == -came {
                continue;
            }
            let mut t = R::Board::step(sq, d);
            if flying {
                while !(t & free).is_empty() {
                    t = R::Board::step(t, d);
                }
            }
            let t = t & left;
            if t.is_empty() {
                continue;
            }
            let mut l = R::Board::step(t, d) & free;
            while !l.is_empty() {
                let crowned = !king
                    && !(l & promo).is_empty()
                    && R::CAPTURE_PROMOTION == CapturePromotion::ContinuesAsKing;
                self.path.push(l.lowest());
                self.step(l, king || crowned, left & !t, d);
                self.path.pop();
                if !flying || R::KING_LANDS_BEHIND {
                    break;
                }
                l = R::Board::step(l, d) & free;
            }
        }
    }
}

/// Writes a move of `pos`.
pub(super) fn format_move<R: Rules>(pos: &Draughts<R>, mv: &Move<BitsOf<R>>, style: MoveStyle) -> String {
    let capture = !mv.captured.is_empty();
    match style {
        MoveStyle::Hub => {
            let mut s = numeric_name::<R>(mv.from.into());
            s.push(if capture { 'x' } else { '-' });
            s.push_str(&numeric_name::<R>(mv.to.into()));
            // Ascending by square number, not by bit: on the mirrored boards (Italian, Spanish)
            // the layout runs each row the other way round.
            let mut taken: Vec<u32> = mv.captured.iter().collect();
            taken.sort_by_key(|&c| R::Board::number_of(c));
            for c in taken {
                s.push('x');
                s.push_str(&numeric_name::<R>(c));
            }
            s
        }
        MoveStyle::Standard => {
            let sep = if capture { R::CAPTURE_SEPARATOR } else { '-' };
            let mut s = square_name::<R>(mv.from.into());
            let mut list = MoveList::new();
            pos.generate(&mut list);
            let twins = list.iter().filter(|m| m.from == mv.from && m.to == mv.to).count();
            if capture && twins > 1 {
                if let Some(path) = capture_paths(pos, mv).into_iter().next() {
                    for &sq in &path[..path.len().saturating_sub(1)] {
                        s.push(sep);
                        s.push_str(&square_name::<R>(sq));
                    }
                }
            }
            s.push(sep);
            s.push_str(&square_name::<R>(mv.to.into()));
            s
        }
    }
}

/// How the landing squares `mid` fit the capture paths of `mv`: `Some(true)` when they are all
/// the intermediate squares of some path (its full PDN form), `Some(false)` when they appear in
/// order in some path, `None` when they fit no path.
fn path_fit<R: Rules>(pos: &Draughts<R>, mv: &Move<BitsOf<R>>, mid: &[u32]) -> Option<bool> {
    let paths = capture_paths(pos, mv);
    if paths
        .iter()
        .any(|p| p.len() == mid.len() + 1 && p[..mid.len()] == *mid)
    {
        return Some(true);
    }
    paths
        .iter()
        .any(|path| {
            let mut it = path.iter();
            mid.iter().all(|sq| it.any(|p| p == sq))
        })
        .then_some(false)
}

/// Reads a move of `pos` in any accepted notation.
pub(super) fn parse_move<R: Rules>(pos: &Draughts<R>, text: &str) -> Result<Move<BitsOf<R>>, MoveError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(MoveError::Syntax("empty move".into()));
    }
    let mut squares = Vec::new();
    for part in t.split(['-', 'x', 'X', ':']) {
        if part.is_empty() {
            return Err(MoveError::Syntax(format!("{t:?}: a separator without a square")));
        }
        let sq = parse_square::<R>(part)
            .ok_or_else(|| MoveError::Syntax(format!("{t:?}: {part:?} is not a square of this board")))?;
        squares.push(sq);
    }
    if squares.len() < 2 {
        return Err(MoveError::Syntax(format!(
            "{t:?}: a move needs at least two squares"
        )));
    }
    let (from, to_short) = (squares[0], squares[1]);
    let last = *squares.last().expect("at least two");
    let mut list = MoveList::new();
    pos.generate(&mut list);
    // Every matching move, and whether the text is its full form (the squares written exactly).
    let mut found: Vec<(Move<BitsOf<R>>, bool)> = Vec::new();
    for mv in list.iter().filter(|m| u32::from(m.from) == from) {
        let fit = if squares.len() == 2 {
            // Short form; for a single capture it is also the full form.
            (u32::from(mv.to) == to_short).then_some(mv.captured.count() <= 1)
        } else {
            // Hub form: from, to, then every captured square in any order.
            let rest = &squares[2..];
            let hub = u32::from(mv.to) == to_short
                && rest
                    .iter()
                    .fold(BitsOf::<R>::EMPTY, |a, &c| a | BitsOf::<R>::bit(c))
                    == mv.captured
                && rest.len() == mv.captured.count() as usize;
            if hub {
                Some(true)
            } else if u32::from(mv.to) == last && !mv.captured.is_empty() {
                // Path form: from, landing squares, to.
                path_fit(pos, mv, &squares[1..squares.len() - 1])
            } else {
                None
            }
        };
        if let Some(exact) = fit {
            found.push((*mv, exact));
        }
    }
    if found.len() > 1 {
        // PDN 3.0 writes an ambiguous capture with all its intermediate squares: a text that is
        // exactly one move's full form names that move.
        let exact: Vec<_> = found.iter().filter(|(_, e)| *e).copied().collect();
        if exact.len() == 1 {
            found = exact;
        }
    }
    let found: Vec<Move<BitsOf<R>>> = found.into_iter().map(|(m, _)| m).collect();
    match found.len() {
        1 => Ok(found[0]),
        0 => Err(MoveError::Illegal(t.to_string())),
        _ => Err(MoveError::Ambiguous(
            t.to_string(),
            found
                .iter()
                .map(|m| format_move(pos, m, MoveStyle::Hub))
                .collect(),
        )),
    }
}
