//! Endgame databases: Tempo computes, stores and probes its own win/draw/loss tables with the
//! distance to the end of the game.
//!
//! Layering: this floor sits above the rules ([`crate::draughts`]) and below evaluation and search;
//! the search reaches it only through the small [`Probe`] trait, which every position type
//! implements (games without tables answer `None`).
//!
//! - [`index`]: the positions of a material slice ([`Material`]) as dense indices;
//! - [`build`]: retrograde analysis of a slice from the slices it converts into;
//! - [`file`](mod@file): the on-disk format (blocks of run-length codes, a CRC-32 per slice file);
//! - [`registry`]: tables loaded for play, and the probe the search calls;
//! - [`cache`]: the default tables, built once at first use into a per-user cache folder;
//! - [`cli`]: `tempo egdb build | probe | verify`.
//!
//! Values are stored as a [`Code`]: `0` a draw, otherwise `n + 1` where `n` is the number of plies
//! to the end of the game with best play (the winner the fastest, the loser the slowest): `n` odd
//! is a win for the side to move, `n` even a loss (`n = 0`: it has no move). Positions where the
//! side to move must capture are not decided by the tables: a probe resolves them by searching the
//! captures, whose results lie in smaller slices (as Scan and Kingsrow do). The tables are those
//! of the game without counted draw rules (repetition is a draw): the default of issue 21.

pub mod build;
pub mod cache;
pub mod cli;
pub mod file;
pub mod index;
pub mod registry;

pub use index::{Material, SliceIndex};

use crate::bits::Bits;
use crate::draughts::Draughts;
use crate::draughts::rules::{Goal, Movement, Rules};
use crate::game::{Game, MoveList, Side};

/// A stored value: 0 draw, `n + 1` for the end of the game in `n` plies (odd `n`: the side to move
/// wins; even `n`: it loses).
pub type Code = u16;
/// The value of a drawn position.
pub const DRAW: Code = 0;
/// The value of a position whose side to move has no move (FMJD 1.3 / 6.1: it has lost).
pub const LOST_NOW: Code = 1;

/// A value read from its code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// The side to move wins in this many plies.
    Win(u32),
    /// The side to move loses in this many plies.
    Loss(u32),
    /// Neither side can force a win.
    Draw,
}

impl Value {
    /// The value of a code.
    pub fn of(code: Code) -> Value {
        let n = u32::from(code).saturating_sub(1);
        match code {
            DRAW => Value::Draw,
            _ if n % 2 == 1 => Value::Win(n),
            _ => Value::Loss(n),
        }
    }
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Win(n) => write!(f, "win in {n} plies"),
            Value::Loss(n) => write!(f, "loss in {n} plies"),
            Value::Draw => write!(f, "draw"),
        }
    }
}

/// The value for the side to move of a position whose move leads to a position of value `child`
/// (for the other side).
#[inline]
pub fn parent_code(child: Code) -> Code {
    if child == DRAW {
        DRAW
    } else {
        child.saturating_add(1)
    }
}

/// An ordering key of codes for the side to move: larger is better (a quick win, then a draw,
/// then a slow loss).
#[inline]
pub fn preference(code: Code) -> i32 {
    let c = i32::from(code);
    match code {
        DRAW => 0,
        _ if code % 2 == 0 => 100_000 - c,
        _ => c - 100_000,
    }
}

/// Whether the tables can be built for a variant: diagonal movement and the normal goal. The
/// Frisian king-move runs of Art. 17 are part of the index ([`index`]).
pub fn supports<R: Rules>() -> bool {
    R::MOVEMENT == Movement::Diagonal && R::GOAL == Goal::Standard
}

/// Where the values of positions without a pending capture come from.
pub trait Source<R: Rules> {
    /// The stored code of a position without a pending capture, if its slice is available.
    fn lookup(&self, pos: &Draughts<R>) -> Option<Code>;
}

/// The value of any position whose slices are available: a side without pieces or without moves
/// has lost; a pending capture is resolved by searching the captures; otherwise the table.
pub fn solve<R: Rules, S: Source<R> + ?Sized>(src: &S, pos: &Draughts<R>) -> Option<Code> {
    if pos.pieces(pos.side_to_move()).is_empty() {
        return Some(LOST_NOW);
    }
    // Most positions have no capture, and the piece sets tell it without generating a move.
    match pos.capture_free() {
        Some(true) => return src.lookup(pos),
        Some(false) => return Some(LOST_NOW),
        None => {}
    }
    let mut moves = MoveList::new();
    pos.generate(&mut moves);
    let Some(first) = moves.first() else {
        return Some(LOST_NOW);
    };
    // Captures are compulsory: if one move captures, all do.
    if !pos.is_capture(first) {
        return src.lookup(pos);
    }
    let mut best: Option<Code> = None;
    for mv in moves.iter() {
        let c = parent_code(solve(src, &pos.play_bare(mv))?);
        if best.is_none_or(|b| preference(c) > preference(b)) {
            best = Some(c);
        }
    }
    best
}

/// The best move of a position by the tables and its value: the quickest win, else a draw, else
/// the slowest loss. `None` when the side to move has no move or a slice is missing.
pub fn best_move<R: Rules, S: Source<R> + ?Sized>(
    src: &S,
    pos: &Draughts<R>,
) -> Option<(<Draughts<R> as Game>::Move, Code)> {
    let mut moves = MoveList::new();
    pos.generate(&mut moves);
    let mut best = None;
    for mv in moves.iter() {
        let c = parent_code(solve(src, &pos.play_bare(mv))?);
        if best.is_none_or(|(_, b)| preference(c) > preference(b)) {
            best = Some((*mv, c));
        }
    }
    best
}

/// What the search asks of a position type: its table value, when tables for it are loaded.
pub trait Probe {
    /// The code of this position in the loaded tables (pending captures resolved), or `None`.
    fn egdb_code(&self) -> Option<Code> {
        None
    }
}

impl<R: Rules> Probe for Draughts<R> {
    /// The tables' code, except a win or loss longer than the counted draw rules leave this
    /// position ([`Draughts::counted_draw_in`]): the tables know no counters, so such a result may
    /// be a draw in the game, and the search goes on instead (its own positions see the counters,
    /// and a capture or promotion on the way resets them and leads to a table it may believe).
    #[inline]
    fn egdb_code(&self) -> Option<Code> {
        let code = registry::probe(self)?;
        let me = self.side_to_move();
        let (n, winner) = match Value::of(code) {
            Value::Draw => return Some(code),
            Value::Win(n) => (n, me),
            Value::Loss(n) => (n, me.opponent()),
        };
        match self.counted_draw_in(winner) {
            Some(left) if n > u32::from(left) => None,
            _ => Some(code),
        }
    }
}

impl Probe for crate::games::sixteen::Sixteen {}
impl Probe for crate::games::muchado::MuchAdo {}

/// The colour name used in messages.
pub fn side_name(side: Side) -> &'static str {
    match side {
        Side::White => "white",
        Side::Black => "black",
    }
}
