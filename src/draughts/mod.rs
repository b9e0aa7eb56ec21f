//! The square-board family: one position type and one move generator for every variant, compiled
//! per variant from its [`Rules`].
//!
//! Glossary used in this module tree: `own`/`opp` are the pieces of the side to move and of its
//! opponent, `empty` the free squares, `sq` a bit index, `d` a direction (a shift).

mod fen;
pub mod geom;
pub mod hub_notation;
mod movegen;
mod notation;
pub mod rules;

use crate::bits::Bits;
use crate::game::{
    Duplicates, Game, MoveError, MoveList, MoveStyle, Outcome, PositionError, Repetition, RuleOption, Side,
};
use crate::zobrist;
use geom::Geometry;
use rules::{DrawRules, Rules};
use std::fmt;
use std::marker::PhantomData;

/// Bit set type of a variant's board.
pub type BitsOf<R> = <<R as Rules>::Board as Geometry>::B;

/// A move: start and end square, the captured pieces, and whether the man promotes.
///
/// A move is identified by start, end and captured set (rules decision D-A1), plus the promotion
/// flag, which a Russian capture can set away from the promotion row.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move<B> {
    /// Captured pieces.
    pub captured: B,
    /// Bit index of the start square.
    pub from: u8,
    /// Bit index of the end square (equal to `from` when a king captures round to its start).
    pub to: u8,
    /// The moving man becomes a king.
    pub promotes: bool,
}

impl<B: Bits> fmt::Debug for Move<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({}->{}", self.from, self.to)?;
        for c in self.captured.iter() {
            write!(f, " x{c}")?;
        }
        if self.promotes {
            write!(f, " =K")?;
        }
        write!(f, ")")
    }
}

/// The consecutive non-capturing moves of one king (Frisian Art. 17): how many, and where that
/// king now stands. `count == 0` means no run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct KingRun {
    /// Consecutive non-capturing moves with the same king.
    pub count: u8,
    /// Bit index of that king.
    pub square: u8,
}

/// The furthest [`Draughts::counted_draw_in`] looks: beyond every counted rule's bound (the longest,
/// Russian 7.2.6, is 120 plies).
pub const COUNTED_HORIZON: u16 = 256;

/// The draw-rule clocks of a position, in plies. They are part of the position (a draw depends on
/// them) but not of its Zobrist key: positions that differ only in their clocks share
/// transposition-table entries, as chess engines treat the fifty-move counter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Clocks {
    /// Plies since the last capture or man move.
    pub reversible: u16,
    /// Plies since the last capture or promotion: how long the material balance has stood.
    pub ending: u16,
    /// Russian 7.2.7: plies since the last capture that ended with three pieces (a king among
    /// them) against a lone king standing alone on the main road. rules.md §3.4 counts them from
    /// when that configuration stands, not from when the material arose, and as lidraughts does,
    /// a lone king that leaves the road and comes back goes on with the count. Always zero in the
    /// other variants.
    pub road: u16,
}

/// Rule options of the square-board family, as a position carries them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RuleFlags {
    /// The counted draw rules (official, or the house rule where none is known, D-A3) are off.
    pub no_counted_draws: bool,
    /// Italian only: the repetition count chosen instead of D-A2's four (0 = the default).
    pub repetitions: u8,
}

/// The rule options every square-board variant offers.
pub const DRAUGHTS_OPTIONS: &[RuleOption] = &[
    RuleOption {
        name: "counted-draws",
        values: &["true", "false"],
        default: "true",
        help: "the variant's counted draw rules (its house rule where the official one is unknown, D-A3)",
    },
    RuleOption {
        name: "repetitions",
        values: &["3", "4"],
        default: "4",
        help: "Italian only: occurrences of a position that draw (D-A2: 4, as dctl; fid.it's summary says 3)",
    },
];

/// A position of a square-board variant.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Draughts<R: Rules> {
    /// Pieces of each side, indexed by [`Side::index`].
    pieces: [BitsOf<R>; 2],
    /// Kings of both sides.
    kings: BitsOf<R>,
    side: Side,
    /// Frisian king-move runs of each side (always default in other variants).
    runs: [KingRun; 2],
    clocks: Clocks,
    /// Rule options (see [`DRAUGHTS_OPTIONS`]); constant within a game, so not in the key.
    options: RuleFlags,
    key: u64,
    rules: PhantomData<R>,
}

impl<R: Rules> fmt::Debug for Draughts<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}[{}]", R::NAME, self.to_fen())
    }
}

impl<R: Rules> Draughts<R> {
    /// A position from piece sets; the key is computed here.
    ///
    /// # Errors
    /// Overlapping sets, pieces off the board, or a man on its promotion row.
    pub fn from_parts(
        white: BitsOf<R>,
        black: BitsOf<R>,
        kings: BitsOf<R>,
        side: Side,
        runs: [KingRun; 2],
    ) -> Result<Self, PositionError> {
        let valid = R::Board::VALID;
        if !((white | black | kings) & !valid).is_empty() {
            return Err(PositionError::BadSquare("outside the board".into()));
        }
        if let Some(b) = (white & black).iter().next() {
            return Err(PositionError::Occupied(Self::square_name(b)));
        }
        if !(kings & !(white | black)).is_empty() {
            return Err(PositionError::State("a king with no colour".into()));
        }
        // FMJD 3.5: a man that ends on the promotion row is crowned, so no man can stand there.
        let stuck = (white & !kings & R::Board::TOP_ROW) | (black & !kings & R::Board::BOTTOM_ROW);
        if let Some(b) = stuck.iter().next() {
            return Err(PositionError::ManOnPromotionRow(Self::square_name(b)));
        }
        for (i, run) in runs.iter().enumerate() {
            if run.count == 0 {
                continue;
            }
            let own = if i == 0 { white } else { black };
            if R::KING_MOVE_LIMIT == 0 || run.count > R::KING_MOVE_LIMIT {
                return Err(PositionError::State("king-move count out of range".into()));
            }
            if !(own & kings).has(u32::from(run.square)) || (own & !kings).is_empty() {
                return Err(PositionError::State(
                    "king-move count for a square without a king, or for a player without men".into(),
                ));
            }
        }
        let mut pos = Draughts {
            pieces: [white, black],
            kings,
            side,
            runs,
            clocks: Clocks::default(),
            options: RuleFlags::default(),
            key: 0,
            rules: PhantomData,
        };
        pos.key = pos.compute_key();
        Ok(pos)
    }

    /// Pieces of a side.
    pub fn pieces(&self, side: Side) -> BitsOf<R> {
        self.pieces[side.index()]
    }
    /// Kings of both sides.
    pub fn kings(&self) -> BitsOf<R> {
        self.kings
    }
    /// The draw-rule clocks.
    pub fn clocks(&self) -> Clocks {
        self.clocks
    }
    /// The same position with other draw-rule clocks (FEN's `H`, `E` and `D` fields).
    pub fn with_clocks(mut self, clocks: Clocks) -> Self {
        self.clocks = clocks;
        self
    }

    /// The Frisian king-move run of a side.
    pub fn king_run(&self, side: Side) -> KingRun {
        self.runs[side.index()]
    }
    /// The empty playing squares.
    #[inline(always)]
    pub fn empty(&self) -> BitsOf<R> {
        R::Board::VALID & !(self.pieces[0] | self.pieces[1])
    }

    /// Square name of a bit index in the variant's notation.
    pub(crate) fn square_name(bit: u32) -> String {
        notation::square_name::<R>(bit)
    }

    #[inline(always)]
    fn piece_key(side: usize, king: bool, bit: u32) -> u64 {
        zobrist::PIECES[(side + 2 * usize::from(king)) & 3][bit as usize & (zobrist::POSITIONS - 1)]
    }

    fn run_key(side: usize, run: KingRun) -> u64 {
        if run.count == 0 {
            0
        } else {
            zobrist::state(1 + side as u64, u64::from(run.count) << 8 | u64::from(run.square))
        }
    }

    fn compute_key(&self) -> u64 {
        let mut key = 0;
        for side in 0..2 {
            for b in self.pieces[side].iter() {
                key ^= Self::piece_key(side, self.kings.has(b), b);
            }
            key ^= Self::run_key(side, self.runs[side]);
        }
        if self.side == Side::Black {
            key ^= zobrist::BLACK_TO_MOVE;
        }
        key
    }

    /// The successor position (copy-make). With `KEYED` false only what the move generator reads
    /// is updated (pieces, kings, side, Frisian runs): perft's last two plies need neither the
    /// key nor the draw clocks, and skipping them is most of the cost of a make.
    #[inline(always)]
    fn play_move<const KEYED: bool>(&self, mv: &Move<BitsOf<R>>) -> Self {
        let me = self.side.index();
        let them = 1 - me;
        let from = u32::from(mv.from);
        let to = u32::from(mv.to);
        let from_bit = BitsOf::<R>::bit(from);
        let to_bit = BitsOf::<R>::bit(to);
        let was_king = self.kings.has(from);
        let mut next = *self;
        let mut key = self.key;

        // Captured pieces go first: with immediate removal (Thai, Turkish) the capturer may end on
        // a square it emptied earlier in the same move.
        if !mv.captured.is_empty() {
            if KEYED {
                for c in mv.captured.iter() {
                    key ^= Self::piece_key(them, self.kings.has(c), c);
                }
            }
            next.pieces[them] &= !mv.captured;
            next.kings &= !mv.captured;
        }
        // from == to (a king capturing round to its start) leaves the piece set unchanged.
        next.pieces[me] ^= from_bit ^ to_bit;
        if was_king {
            next.kings ^= from_bit ^ to_bit;
        } else if mv.promotes {
            next.kings |= to_bit;
        }
        if R::KING_MOVE_LIMIT > 0 {
            next.update_runs(self, mv, was_king);
        }
        next.side = self.side.opponent();
        if !KEYED {
            return next;
        }
        key ^= Self::piece_key(me, was_king, from);
        key ^= Self::piece_key(me, was_king || mv.promotes, to);
        if R::KING_MOVE_LIMIT > 0 {
            key ^= Self::run_key(0, self.runs[0]) ^ Self::run_key(1, self.runs[1]);
            key ^= Self::run_key(0, next.runs[0]) ^ Self::run_key(1, next.runs[1]);
        }
        next.clocks = Clocks {
            reversible: if was_king && mv.captured.is_empty() {
                self.clocks.reversible.saturating_add(1)
            } else {
                0
            },
            ending: if mv.captured.is_empty() && !mv.promotes {
                self.clocks.ending.saturating_add(1)
            } else {
                0
            },
            // A promotion keeps the count (2 kings and a man become 3 kings: the same rule).
            road: {
                let kept = if mv.captured.is_empty() {
                    self.clocks.road
                } else {
                    0
                };
                if R::DRAWS == DrawRules::Russian && next.on_main_road_ending() {
                    kept.saturating_add(1)
                } else {
                    kept
                }
            },
        };
        next.key = key ^ zobrist::BLACK_TO_MOVE;
        debug_assert_eq!(next.key, next.compute_key());
        next
    }

    /// The position with the side to move's pieces `own`, the opponent's `opp` and the kings
    /// `kings`, the other side to move: a quiet move made on the piece sets for perft, without key
    /// or draw clocks, the Frisian runs left as they are (callers use it only where they stay
    /// empty, [`Self::runs_stay_empty`]).
    #[inline(always)]
    fn bare_child(&self, own: BitsOf<R>, opp: BitsOf<R>, kings: BitsOf<R>) -> Self {
        let me = self.side.index();
        let mut next = *self;
        next.pieces[me] = own;
        next.pieces[1 - me] = opp;
        next.kings = kings;
        next.side = self.side.opponent();
        next
    }

    /// Frisian Art. 17 bookkeeping (rules.md §2.6, decision D-F3), as lidraughts counts it: a
    /// non-capturing move by the king of the current run extends it, by another king starts a new
    /// run of 1; a man move or any capture ends the mover's run; a run ends when its player has no
    /// men left or when its king is captured.
    fn update_runs(&mut self, before: &Self, mv: &Move<BitsOf<R>>, was_king: bool) {
        let me = before.side.index();
        let them = 1 - me;
        let run = before.runs[me];
        let men_left = !(self.pieces[me] & !self.kings).is_empty();
        self.runs[me] = if was_king && mv.captured.is_empty() && men_left {
            let count = if run.count > 0 && run.square == mv.from {
                run.count + 1
            } else {
                1
            };
            KingRun { count, square: mv.to }
        } else {
            KingRun::default()
        };
        let theirs = before.runs[them];
        let their_men = self.pieces[them] & !self.kings;
        if theirs.count > 0 && (mv.captured.has(u32::from(theirs.square)) || their_men.is_empty()) {
            self.runs[them] = KingRun::default();
        }
    }

    /// `Some(has_move)` when the side to move certainly has no capture (and then whether it has
    /// any move), `None` when it may have one: a test on the piece sets, no move generated.
    pub fn capture_free(&self) -> Option<bool> {
        movegen::capture_free(self)
    }

    /// Plies until a counted draw rule ends the game when `winner` plays for a win and the other
    /// side for the draw: the fewest `k` such that the position `k` plies on is a counted draw.
    /// No capture or promotion is assumed to reset the clocks; the clock of plies without a man's
    /// move runs on only when `winner` has no man (with one it can reset that clock itself, and
    /// the other side would not). Which rule applies can change with a move (Russian 7.2.7: the
    /// lone king steps onto the main road), so when the other side is to move its moves are
    /// looked at too; deeper changes are left to the search, which asks again at every node.
    /// `None` when no counted rule would end the game within [`COUNTED_HORIZON`] plies, or the
    /// rules are off. The endgame tables' distances ignore the counted rules; the search uses
    /// this to tell a table win that the clocks may cut short.
    pub fn counted_draw_in(&self, winner: Side) -> Option<u16> {
        if self.options.no_counted_draws || R::DRAWS == DrawRules::None {
            return None;
        }
        let mut left = self.counted_draw_as_placed(winner);
        if self.side != winner {
            let mut moves = MoveList::new();
            self.generate(&mut moves);
            for mv in moves.iter() {
                if let Some(l) = self.play(mv).counted_draw_as_placed(winner) {
                    left = Some(left.map_or(l + 1, |x| x.min(l + 1)));
                }
            }
        }
        left
    }

    /// [`Self::counted_draw_in`] with the pieces where they stand.
    fn counted_draw_as_placed(&self, winner: Side) -> Option<u16> {
        let Clocks {
            reversible,
            ending,
            road,
        } = self.clocks;
        let runs = (self.pieces[winner.index()] & !self.kings).is_empty();
        let on_road = R::DRAWS == DrawRules::Russian && self.on_main_road_ending();
        let on = |k: u16| {
            self.with_clocks(Clocks {
                reversible: if runs {
                    reversible.saturating_add(k)
                } else {
                    reversible
                },
                ending: ending.saturating_add(k),
                road: if on_road { road.saturating_add(k) } else { road },
            })
            .is_counted_draw()
        };
        if !on(COUNTED_HORIZON) {
            return None;
        }
        // Every rule is a clock reaching a bound the pieces set, so the test is monotone in `k`.
        let (mut lo, mut hi) = (0, COUNTED_HORIZON);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if on(mid) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        Some(lo)
    }

    /// Whether a counted draw rule of the variant has run out (rules.md §2.7, §3.4, §5, §6).
    pub fn is_counted_draw(&self) -> bool {
        if self.options.no_counted_draws {
            return false;
        }
        let Clocks {
            reversible,
            ending,
            road,
        } = self.clocks;
        let count = |set: BitsOf<R>| set.count();
        let (w, b) = (self.pieces[0], self.pieces[1]);
        let kings = self.kings;
        // A side reduced to one king, and the other side's pieces and kings.
        let lone = |weak: BitsOf<R>| count(weak) == 1 && count(weak & kings) == 1;
        let strong = if lone(b) {
            Some(w)
        } else if lone(w) {
            Some(b)
        } else {
            None
        };
        match R::DRAWS {
            DrawRules::None => false,
            DrawRules::Reversible(n) => reversible >= n,
            DrawRules::Fmjd => {
                // FMJD 6.2: 25 moves each with only king moves.
                if reversible >= 50 {
                    return true;
                }
                match strong {
                    // FMJD 6.4: 2 kings, king and man, or king against a lone king: 5 moves each.
                    Some(s) if count(s) <= 2 && count(s & kings) >= 1 => ending >= 10,
                    // FMJD 6.3: three pieces with at least one king against a lone king: 16 moves each.
                    Some(s) if count(s) == 3 && count(s & kings) >= 1 => ending >= 32,
                    _ => false,
                }
            }
            DrawRules::Frisian => {
                let only_kings = count(w | b) == count(kings);
                match (only_kings, count(w), count(b)) {
                    // D-F2: 1 king v 1 king, 2 moves each; 2 kings v 1 king, 7 moves each.
                    (true, 1, 1) => ending >= 4,
                    (true, 2, 1) | (true, 1, 2) => ending >= 14,
                    _ => false,
                }
            }
            DrawRules::Russian => {
                let both_have_kings = !(w & kings).is_empty() && !(b & kings).is_empty();
                if let Some(s) = strong {
                    let (n, k) = (count(s), count(s & kings));
                    // 7.2.8: two kings, king and man, or one king against a lone king: 5 moves.
                    if n <= 2 && k >= 1 {
                        return ending >= 10;
                    }
                    // 7.2.7: three pieces with a king against a lone king on the main road, 5
                    // moves counted from when the lone king stands there (`road`); until
                    // then the other rules run on.
                    if road >= 10 && self.on_main_road_ending() {
                        return true;
                    }
                    // 7.2.4 (D-R2): three or more kings against a lone king: 15 moves.
                    if k >= 3 && ending >= 30 {
                        return true;
                    }
                }
                if both_have_kings {
                    // 7.2.5: 15 moves with only kings moved and no capture.
                    if reversible >= 30 {
                        return true;
                    }
                    // 7.2.6: balance unchanged with kings on both sides: 30 moves in 4- and
                    // 5-piece endings, 60 in 6- and 7-piece endings.
                    match count(w | b) {
                        4 | 5 => return ending >= 60,
                        6 | 7 => return ending >= 120,
                        _ => {}
                    }
                }
                false
            }
        }
    }

    /// Russian 7.2.7's configuration: three pieces, a king among them, against a lone king that
    /// stands alone on the main road. A test on the piece counts first: it runs after every move.
    #[inline]
    fn on_main_road_ending(&self) -> bool {
        let (w, b) = (self.pieces[0], self.pieces[1]);
        if (w | b).count() != 4 {
            return false;
        }
        let lone = |weak: BitsOf<R>| weak.count() == 1 && !(weak & self.kings).is_empty();
        let strong = if lone(b) {
            w
        } else if lone(w) {
            b
        } else {
            return false;
        };
        // The main road a1-h8: the squares whose column and row (from 0) add up to the last.
        let on_road = |b: u32| {
            let (c, r) = R::Board::coords(b);
            c + r + 1 == R::Board::WIDTH
        };
        let weak = (w | b) & !strong;
        !(strong & self.kings).is_empty() && weak.iter().any(on_road) && !strong.iter().any(on_road)
    }

    /// Whether perft may make the moves of the side to move on the piece sets alone
    /// ([`Self::bare_child`], which keeps the runs as they are). The sets carry no Frisian king
    /// runs (Art. 17), so with a move limit this holds only while both runs are empty and the
    /// mover has no king to start one: a man's move or capture then leaves both runs empty.
    #[inline(always)]
    fn runs_stay_empty(&self) -> bool {
        R::KING_MOVE_LIMIT == 0
            || (self.runs[0].count == 0
                && self.runs[1].count == 0
                && (self.pieces[self.side.index()] & self.kings).is_empty())
    }

    /// The king that may not make a non-capturing move now (Frisian Art. 17), as a set.
    #[inline(always)]
    fn restricted_king(&self) -> BitsOf<R> {
        let run = self.runs[self.side.index()];
        if R::KING_MOVE_LIMIT > 0 && run.count >= R::KING_MOVE_LIMIT {
            BitsOf::<R>::bit(u32::from(run.square))
        } else {
            BitsOf::<R>::EMPTY
        }
    }
}

impl<R: Rules> Game for Draughts<R> {
    type Move = Move<BitsOf<R>>;
    const NAME: &'static str = R::NAME;

    fn start() -> Self {
        Self::from_fen(R::START).expect("the start position of every variant is valid")
    }
    fn side_to_move(&self) -> Side {
        self.side
    }
    fn generate_with(&self, dup: Duplicates, list: &mut MoveList<Self::Move>) {
        movegen::generate(self, dup, list);
    }
    fn count_moves(&self, dup: Duplicates) -> u64 {
        movegen::count(self, dup)
    }
    #[inline(always)]
    fn play(&self, mv: &Self::Move) -> Self {
        self.play_move::<true>(mv)
    }
    #[inline(always)]
    fn play_bare(&self, mv: &Self::Move) -> Self {
        self.play_move::<false>(mv)
    }
    fn count_two_plies(&self, dup: Duplicates) -> u64 {
        movegen::count_two_plies(self, dup)
    }
    fn count_three_plies(&self, dup: Duplicates) -> u64 {
        movegen::count_three_plies(self, dup)
    }
    fn count_plies(&self, depth: u32, dup: Duplicates) -> u64 {
        movegen::count_plies(self, depth, dup)
    }
    fn key(&self) -> u64 {
        self.key
    }
    fn key_from_scratch(&self) -> u64 {
        self.compute_key()
    }
    fn is_capture(&self, mv: &Self::Move) -> bool {
        !mv.captured.is_empty()
    }
    fn is_irreversible(&self, mv: &Self::Move) -> bool {
        !mv.captured.is_empty() || !self.kings.has(u32::from(mv.from))
    }
    fn from_fen(text: &str) -> Result<Self, PositionError> {
        fen::from_fen(text)
    }
    fn to_fen(&self) -> String {
        fen::to_fen(self)
    }
    fn from_hub(text: &str) -> Result<Self, PositionError> {
        fen::from_hub(text)
    }
    fn to_hub(&self) -> String {
        fen::to_hub(self)
    }
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError> {
        notation::parse_move(self, text)
    }
    fn format_move(&self, mv: &Self::Move, style: MoveStyle) -> String {
        notation::format_move(self, mv, style)
    }
    fn outcome(&self) -> Option<Outcome> {
        if R::GOAL == rules::Goal::FirstKing {
            // Breakthrough: the first king wins; only the player who just moved can have made one.
            let mover = self.side.opponent();
            if !(self.pieces[mover.index()] & self.kings).is_empty() {
                return Some(Outcome::Win(mover));
            }
        }
        if self.count_moves(Duplicates::Merge) > 0 {
            return self.is_counted_draw().then_some(Outcome::Draw);
        }
        // FMJD 6.1 / Frisian Art. 20: a player who cannot move (no pieces, or all blocked) loses;
        // in Antidraughts he wins.
        Some(if R::GOAL == rules::Goal::NoMoveWins {
            Outcome::Win(self.side)
        } else {
            Outcome::Win(self.side.opponent())
        })
    }
    fn repetition(&self) -> Repetition {
        match (R::REPETITION, self.options.repetitions) {
            (Repetition::Draw(_), n) if n > 0 => Repetition::Draw(n),
            (rule, _) => rule,
        }
    }
    fn options() -> &'static [RuleOption] {
        if R::NAME == "italian" {
            DRAUGHTS_OPTIONS
        } else {
            &DRAUGHTS_OPTIONS[..1]
        }
    }
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        let bad = || format!("option {name} does not take {value:?}");
        match name {
            "counted-draws" => {
                self.options.no_counted_draws = match value {
                    "true" => false,
                    "false" => true,
                    _ => return Err(bad()),
                }
            }
            "repetitions" if R::NAME == "italian" => {
                self.options.repetitions = match value {
                    "3" => 3,
                    "4" => 4,
                    _ => return Err(bad()),
                }
            }
            _ => return Err(format!("unknown rule option {name:?} for {}", R::NAME)),
        }
        Ok(())
    }
}

/// International draughts (FMJD).
pub type International = Draughts<rules::InternationalRules>;
/// Russian draughts (Shashki).
pub type Russian = Draughts<rules::RussianRules>;
/// Brazilian draughts.
pub type Brazilian = Draughts<rules::BrazilianRules>;
/// English draughts / American checkers.
pub type English = Draughts<rules::EnglishRules>;
/// Frisian draughts.
pub type Frisian = Draughts<rules::FrisianRules>;
/// Frysk!
pub type Frysk = Draughts<rules::FryskRules>;
/// Italian draughts.
pub type Italian = Draughts<rules::ItalianRules>;
/// Spanish draughts.
pub type Spanish = Draughts<rules::SpanishRules>;
/// Portuguese draughts.
pub type Portuguese = Draughts<rules::PortugueseRules>;
/// Czech draughts.
pub type Czech = Draughts<rules::CzechRules>;
/// American pool checkers.
pub type Pool = Draughts<rules::PoolRules>;
/// Thai draughts.
pub type Thai = Draughts<rules::ThaiRules>;
/// Canadian draughts.
pub type Canadian = Draughts<rules::CanadianRules>;
/// Killer draughts.
pub type Killer = Draughts<rules::KillerRules>;
/// Breakthrough draughts.
pub type Breakthrough = Draughts<rules::BreakthroughRules>;
/// Antidraughts.
pub type Antidraughts = Draughts<rules::AntidraughtsRules>;
/// Turkish draughts.
pub type Turkish = Draughts<rules::TurkishRules>;
/// Armenian draughts.
pub type Armenian = Draughts<rules::ArmenianRules>;
