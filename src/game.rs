//! The game model every engine component is written against.
//!
//! Search, transposition table, perft and the protocols see a game only through [`Game`]: a
//! position type with its move type. Each variant is its own type, so generic code is compiled once
//! per variant and no rule is decided at run time inside the hot loops. Runtime selection happens
//! once, at the top, through [`crate::variant::Variant`].

use smallvec::SmallVec;
use std::fmt::{self, Debug};
use std::hash::Hash;
use std::ops::{Deref, DerefMut};

/// One of the two players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// White (South on the odd boards).
    White = 0,
    /// Black (North on the odd boards).
    Black = 1,
}

impl Side {
    /// The other player.
    #[inline(always)]
    pub fn opponent(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }
    /// 0 for White, 1 for Black.
    #[inline(always)]
    pub fn index(self) -> usize {
        self as usize
    }
    /// The side a FEN or Hub side letter names (`W`/`w` or `B`/`b`).
    pub fn from_letter(s: &str) -> Option<Side> {
        match s {
            "W" | "w" => Some(Side::White),
            "B" | "b" => Some(Side::Black),
            _ => None,
        }
    }
    /// `W` or `B`, as in FEN and the Hub position string.
    pub fn letter(self) -> char {
        match self {
            Side::White => 'W',
            Side::Black => 'B',
        }
    }
}

/// How capture paths with the same start, end and captured set are counted (rules decision D-A1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Duplicates {
    /// One move per start, end and captured set: the FMJD and Hub convention, used in play.
    #[default]
    Merge,
    /// Every capture path is a move of its own (perft's second column). A flying king that goes
    /// straight on from one captured piece to the next makes one path, whichever square it
    /// passes between them (dctl's convention, the published *kept* counts).
    Keep,
    /// As [`Duplicates::Keep`], but a path is the sequence of squares the capturing piece stops
    /// on, so a king that goes straight on makes one path per empty square where it could stop
    /// between the two pieces. This is how the kish engine lists Turkish captures; its published
    /// perft counts are these. Perft only: in play such paths are one move (D-A1).
    Landings,
}

impl Duplicates {
    /// Whether paths with the same start, end and captured set are counted separately.
    pub fn keeps_paths(self) -> bool {
        self != Duplicates::Merge
    }
}

/// How a move is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveStyle {
    /// The variant's standard notation: `32-28`, `28x19`, `c3:e5`; intermediate squares are added
    /// only when start and end alone would name more than one legal move (PDN 3.0).
    Standard,
    /// Hub: `from-to`, or `fromxto` followed by every captured square in ascending order.
    Hub,
}

/// Legal moves of a position, held on the stack unless a freak position overflows it.
#[derive(Clone, Debug, Default)]
pub struct MoveList<M>(SmallVec<[M; 128]>);

impl<M> MoveList<M> {
    /// An empty list.
    #[inline(always)]
    pub fn new() -> Self {
        MoveList(SmallVec::new())
    }
    /// Appends a move.
    #[inline(always)]
    pub fn push(&mut self, m: M) {
        self.0.push(m);
    }
    /// Removes every move.
    #[inline(always)]
    pub fn clear(&mut self) {
        self.0.clear();
    }
}

impl<M> Deref for MoveList<M> {
    type Target = [M];
    #[inline(always)]
    fn deref(&self) -> &[M] {
        &self.0
    }
}

impl<M> DerefMut for MoveList<M> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [M] {
        &mut self.0
    }
}

impl<M> Extend<M> for MoveList<M> {
    /// Appends every item: one capacity check for an iterator of known length, not one a move.
    #[inline(always)]
    fn extend<I: IntoIterator<Item = M>>(&mut self, items: I) {
        self.0.extend(items);
    }
}

impl<'a, M> IntoIterator for &'a MoveList<M> {
    type Item = &'a M;
    type IntoIter = std::slice::Iter<'a, M>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

/// Why a position could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// The text does not have the shape of a position (FEN fields, Hub string characters).
    Syntax(String),
    /// A square number or name that the board does not have.
    BadSquare(String),
    /// A man standing on its own promotion row.
    ManOnPromotionRow(String),
    /// A square given to both colours, or twice.
    Occupied(String),
    /// A Hub position string of the wrong length.
    Length {
        /// Characters expected (side letter included).
        expected: usize,
        /// Characters found.
        found: usize,
    },
    /// A piece of rule state that cannot occur.
    State(String),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Syntax(s) => write!(f, "bad position: {s}"),
            PositionError::BadSquare(s) => write!(f, "bad square {s}"),
            PositionError::ManOnPromotionRow(s) => write!(f, "man on its promotion row at {s}"),
            PositionError::Occupied(s) => write!(f, "square {s} given twice"),
            PositionError::Length { expected, found } => {
                write!(f, "wrong length: expected {expected} characters, found {found}")
            }
            PositionError::State(s) => write!(f, "bad rule state: {s}"),
        }
    }
}

impl std::error::Error for PositionError {}

/// Why a move could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not move notation at all.
    Syntax(String),
    /// Well formed, but no legal move matches it.
    Illegal(String),
    /// Matches several legal moves; each is listed in full notation.
    Ambiguous(String, Vec<String>),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(s) => write!(f, "bad move syntax: {s}"),
            MoveError::Illegal(s) => write!(f, "illegal move: {s}"),
            MoveError::Ambiguous(s, c) => write!(f, "ambiguous move: {s} (could be {})", c.join(", ")),
        }
    }
}

impl std::error::Error for MoveError {}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// This side won.
    Win(Side),
    /// Nobody won.
    Draw,
}

/// What the recurrence of a position (same pieces, same rule state, same side to move) means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Repetition {
    /// The `n`-th occurrence of a position is a draw (FMJD 6.1: 3).
    Draw(u8),
    /// The player whose move produces the `n`-th occurrence loses (MuchADo, D-M6: 3).
    LossForMover(u8),
    /// Repetition ends nothing in a real game (Frisian, D-F1); a search may still score it as a draw
    /// to avoid endless cycles.
    Ignored,
}

/// A rule option a game offers (Sixteen Soldiers' huffing, a switchable house draw rule).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleOption {
    /// Option name, as protocols expose it (`huffing`).
    pub name: &'static str,
    /// The accepted values (`true`, `false`; or an enumeration).
    pub values: &'static [&'static str],
    /// The value a new position has.
    pub default: &'static str,
    /// One line for `--help` and protocol documentation.
    pub help: &'static str,
}

/// A game position with its rules: what search, perft and the protocols are written against.
///
/// Positions are small `Copy` values; [`Game::play`] returns the successor (copy-make), so
/// search never undoes a move and no move allocates.
pub trait Game: Copy + Eq + Hash + Debug + Send + Sync + 'static {
    /// A legal move of this game.
    type Move: Copy + Eq + Debug + Send + Sync + 'static;

    /// The variant's canonical name.
    const NAME: &'static str;

    /// The initial position.
    fn start() -> Self;
    /// The player to move.
    fn side_to_move(&self) -> Side;
    /// Replaces the content of `list` with the legal moves, capture precedence applied and
    /// duplicates merged.
    fn generate(&self, list: &mut MoveList<Self::Move>) {
        self.generate_with(Duplicates::Merge, list);
    }
    /// Replaces the content of `list` with the legal moves under the given duplicate policy.
    fn generate_with(&self, dup: Duplicates, list: &mut MoveList<Self::Move>);
    /// The number of legal moves under the given policy; may count without generating.
    fn count_moves(&self, dup: Duplicates) -> u64 {
        let mut list = MoveList::new();
        self.generate_with(dup, &mut list);
        list.len() as u64
    }
    /// Perft at depth 2: the legal moves summed over the positions after each legal move. A game
    /// may make those positions without what only the search reads (the key, the draw clocks),
    /// and without a move list.
    fn count_two_plies(&self, dup: Duplicates) -> u64 {
        let mut list = MoveList::new();
        self.generate_with(dup, &mut list);
        list.iter().map(|mv| self.play(mv).count_moves(dup)).sum()
    }
    /// Perft at depth 3: [`Game::count_two_plies`] summed over the positions after each legal
    /// move, which a game may make without a move list.
    fn count_three_plies(&self, dup: Duplicates) -> u64 {
        let mut list = MoveList::new();
        self.generate_with(dup, &mut list);
        list.iter()
            .map(|mv| self.play_bare(mv).count_two_plies(dup))
            .sum()
    }
    /// Perft at `depth`: the leaves of the legal-move tree (1 at depth 0). The last three plies
    /// are counted with the methods above; a game may also make the positions above them without
    /// a move list.
    fn count_plies(&self, depth: u32, dup: Duplicates) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_moves(dup),
            2 => self.count_two_plies(dup),
            3 => self.count_three_plies(dup),
            _ => {
                let mut list = MoveList::new();
                self.generate_with(dup, &mut list);
                list.iter()
                    .map(|mv| self.play_bare(mv).count_plies(depth - 1, dup))
                    .sum()
            }
        }
    }
    /// The position after a legal move.
    fn play(&self, mv: &Self::Move) -> Self;
    /// The position after a legal move, for perft: a game may leave out what only the search
    /// reads (the key, the draw clocks).
    fn play_bare(&self, mv: &Self::Move) -> Self {
        self.play(mv)
    }
    /// The Zobrist key, kept up to date by [`Game::play`].
    fn key(&self) -> u64;
    /// The Zobrist key computed from the whole position (tests compare it with [`Game::key`]).
    fn key_from_scratch(&self) -> u64;
    /// Whether the move captures.
    fn is_capture(&self, mv: &Self::Move) -> bool;
    /// Whether no earlier position can recur after this move (a capture, a man move): repetition
    /// scans stop here.
    fn is_irreversible(&self, mv: &Self::Move) -> bool;

    /// Reads a position in the game's FEN.
    ///
    /// # Errors
    /// A [`PositionError`] naming what is wrong.
    fn from_fen(text: &str) -> Result<Self, PositionError>;
    /// Writes the position as FEN.
    fn to_fen(&self) -> String;
    /// Reads a Hub position string.
    ///
    /// # Errors
    /// A [`PositionError`] naming what is wrong.
    fn from_hub(text: &str) -> Result<Self, PositionError>;
    /// Writes the Hub position string.
    fn to_hub(&self) -> String;
    /// Reads a move in any accepted notation and matches it against the legal moves.
    ///
    /// # Errors
    /// [`MoveError::Syntax`], [`MoveError::Illegal`] or [`MoveError::Ambiguous`].
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError>;
    /// Writes a legal move of this position.
    fn format_move(&self, mv: &Self::Move, style: MoveStyle) -> String;

    /// The result when the game is over at this position by a rule the position alone decides: no
    /// legal move, a counted draw rule, a goal reached. Repetition, which needs the history of the
    /// game, is the caller's to detect with [`Game::repetition`] and [`Game::key`].
    fn outcome(&self) -> Option<Outcome>;
    /// The game's repetition rule (it may depend on the rule options of the position).
    fn repetition(&self) -> Repetition;
    /// The rule options this game offers.
    fn options() -> &'static [RuleOption] {
        &[]
    }
    /// Sets a rule option on this position (positions carry their options, so a copy made by
    /// [`Game::play`] keeps them).
    ///
    /// # Errors
    /// An unknown option name or a value the option does not accept.
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        let _ = value;
        Err(format!("unknown rule option {name:?}"))
    }
}
