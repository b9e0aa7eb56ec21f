//! MuchADo (M. El M. Messaoudi, 2002), rules.md section 1 and decisions D-M1..D-M10.
//!
//! The board is the hex-hex board of side 4: 37 cells named as in the author's ZRF, files `a`..`g`
//! and ranks `1`..`7`, a cell existing when `|file - (rank - 1)| <= 3` (§1.2). Six directions in
//! axial coordinates `(df, dr)`: `(0,1)` and `(1,1)` are White's forward, `(±1,0)` sideways, `(0,-1)`
//! and `(-1,-1)` backward (Black's forward). White (South) starts on ranks 1-2 and moves first (D-M4).
//!
//! Soldiers step forward, push a friendly soldier, swap with an enemy soldier, or make a threesome
//! push, forward or sideways (D-M1, D-M9); kings slide along the four forward and backward lines.
//! Captures are compulsory and maximal (D-M5) and remove nothing: a jumped soldier changes colour, a
//! jumped king is demoted and its stone goes to the capturer's reserve (§1.6, D-M3, D-M10). A
//! promotion costs a reserve stone. The player who makes a position occur a third time loses (D-M6);
//! a player who cannot move loses (§1.7).

use super::graph::{Graph, NONE};
use super::{capture_readings, fen_fields, parse_point_list, pick};
use crate::game::{
    Duplicates, Game, MoveError, MoveList, MoveStyle, Outcome, PositionError, Repetition, Side,
};
use crate::zobrist;
use std::fmt;

/// Number of cells (§1.2).
pub const CELLS: usize = 37;

const fn cells() -> [(i8, i8); CELLS] {
    let mut out = [(0, 0); CELLS];
    let mut n = 0;
    let mut r = 1;
    while r <= 7 {
        let mut f = 0;
        while f <= 6 {
            let d: i8 = f - (r - 1);
            if d >= -3 && d <= 3 {
                out[n] = (f, r);
                n += 1;
            }
            f += 1;
        }
        r += 1;
    }
    assert!(n == CELLS);
    out
}

/// The six directions, `(df, dr)`, each opposite the one three places on (§1.2): ZRF `nw`, `ne`,
/// `e`, `se`, `sw`, `w`.
const HEX: [(i8, i8); 6] = [(0, 1), (1, 1), (1, 0), (0, -1), (-1, -1), (-1, 0)];

/// The MuchADo board graph.
pub static BOARD: Graph = Graph::from_cells(&cells(), &HEX);

/// Forward and sideways directions of each side (§1.2, D-M9): where soldiers step (the first two),
/// push, swap, make threesome pushes and capture.
const SOLDIER_DIRS: [[usize; 4]; 2] = [[0, 1, 2, 5], [3, 4, 2, 5]];
/// The sideways directions (§1.4).
const SIDEWAYS: [usize; 2] = [2, 5];
/// D-M9: kings slide only along the four forward/backward directions.
const KING_SLIDES: [usize; 4] = [0, 1, 3, 4];

/// Promotion row of each side: rank 7 for White, rank 1 for Black (§1.3).
const PROMOTION: [u64; 2] = [BOARD.row(7), BOARD.row(1)];
/// Start: White soldiers on ranks 1-2, Black on ranks 6-7 (§1.3).
const START: [u64; 2] = [BOARD.row(1) | BOARD.row(2), BOARD.row(6) | BOARD.row(7)];
/// Reserve stones of each player at the start (§1.3).
pub const START_RESERVE: u8 = 4;
/// D-M3: the reserve holds at most 8 stones.
pub const MAX_RESERVE: u8 = 8;
/// D-M6: the occurrence of a position that loses for the player who produced it.
pub const REPETITION_LOSS: u8 = 3;

/// Zobrist tag of the reserves.
const RESERVE_TAG: u64 = 0x3AD0;

/// What a move does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A soldier steps to an empty cell (forward, or sideways on its promotion row).
    Step,
    /// A king slides over empty cells.
    Slide,
    /// A soldier pushes the friendly piece on `to` one cell on and takes its place.
    Push,
    /// A soldier swaps with the enemy soldier on `to`.
    Swap,
    /// A soldier pushes the enemy soldier on `to` and the friendly soldier behind it one cell on.
    Threesome,
    /// A capture sequence.
    Capture,
}

/// A MuchADo move.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct MuchMove {
    /// Cells jumped (their pieces change colour; kings are demoted).
    pub jumped: u64,
    /// What the move does.
    pub kind: Kind,
    /// The moving piece's start cell.
    pub from: u8,
    /// The moving piece's end cell.
    pub to: u8,
    /// Direction of a push, swap or threesome push (an index into the board's directions).
    pub dir: u8,
    /// The moving soldier becomes a king.
    pub promotes: bool,
    /// Change of the mover's reserve.
    pub reserve: i8,
}

impl fmt::Debug for MuchMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?}({}->{} x{:#x}{} r{:+})",
            self.kind,
            cell_name(u32::from(self.from)),
            cell_name(u32::from(self.to)),
            self.jumped,
            if self.promotes { " =K" } else { "" },
            self.reserve
        )
    }
}

/// A MuchADo position.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct MuchAdo {
    pieces: [u64; 2],
    kings: u64,
    reserves: [u8; 2],
    side: Side,
    key: u64,
}

impl fmt::Debug for MuchAdo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "muchado[{}]", self.to_fen())
    }
}

/// The name of a cell: file `a`..`g`, rank `1`..`7` (the ZRF names).
pub fn cell_name(p: u32) -> String {
    let (f, r) = BOARD.coords[p as usize % CELLS];
    format!("{}{}", (b'a' + f as u8) as char, r)
}

/// Reads a cell name (`d4`).
pub fn parse_cell(s: &str) -> Option<u32> {
    let b = s.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let f = b[0].to_ascii_lowercase().wrapping_sub(b'a');
    let r = b[1].wrapping_sub(b'0');
    if f > 6 || !(1..=7).contains(&r) {
        return None;
    }
    let p = BOARD.find(f as i8, r as i8);
    (p != NONE).then_some(u32::from(p))
}

#[inline(always)]
fn piece_key(side: usize, king: bool, p: u32) -> u64 {
    zobrist::PIECES[(side + 2 * usize::from(king)) & 3][p as usize % zobrist::POSITIONS]
}

#[inline(always)]
fn reserve_key(side: usize, n: u8) -> u64 {
    zobrist::state(RESERVE_TAG + side as u64, u64::from(n))
}

#[inline(always)]
fn set_key(s: u64, side: usize, king: bool) -> u64 {
    let mut k = 0;
    let mut s = s;
    while s != 0 {
        k ^= piece_key(side, king, s.trailing_zeros());
        s &= s - 1;
    }
    k
}

#[inline(always)]
fn bit(p: u8) -> u64 {
    1u64 << (p & 63)
}

/// Walks the capture sequences of one side (§1.6, D-M5, D-M8, D-M10), keeping only the longest.
struct Captures<'a> {
    me: usize,
    from: u8,
    dup: Duplicates,
    list: &'a mut MoveList<MuchMove>,
    /// Jumps of the sequences in `list` (0 while none was found).
    best: u32,
}

/// The state of a sequence in progress: the boards without the moving piece.
#[derive(Clone, Copy)]
struct Seq {
    own: u64,
    opp: u64,
    opp_kings: u64,
    reserve: u8,
    jumped: u64,
    delta: i8,
    jumps: u32,
}

impl Captures<'_> {
    fn record(&mut self, to: u32, s: &Seq, promotes: bool, delta: i8, jumps: u32) {
        if jumps < self.best {
            return;
        }
        let mv = MuchMove {
            jumped: s.jumped,
            kind: Kind::Capture,
            from: self.from,
            to: to as u8,
            dir: 0,
            promotes,
            reserve: delta,
        };
        if jumps > self.best {
            // D-M5: only the sequences with the most jumps over all pieces are legal.
            self.best = jumps;
            self.list.clear();
        } else if !self.dup.keeps_paths() && self.list.contains(&mv) {
            return; // D-M7: same start, end and jumped cells (and so the same effect): one move.
        }
        self.list.push(mv);
    }

    fn walk(&mut self, at: u32, king: bool, s: Seq) {
        let mut ended = true;
        let dirs: &[usize] = if king {
            &[0, 1, 2, 3, 4, 5]
        } else {
            &SOLDIER_DIRS[self.me]
        };
        for &d in dirs {
            let occupied = s.own | s.opp;
            let mut a = BOARD.next[at as usize][d];
            if king {
                // §1.6: a king travels over empty cells to the first occupied one.
                while a != NONE && occupied & bit(a) == 0 {
                    a = BOARD.next[a as usize][d];
                }
            }
            if a == NONE || s.opp & bit(a) == 0 {
                continue;
            }
            let land = BOARD.next[a as usize][d];
            if land == NONE || occupied & bit(land) != 0 {
                continue;
            }
            let a_king = s.opp_kings & bit(a) != 0;
            let mut n = Seq {
                own: s.own | bit(a), // D-M8: flipped pieces belong to the capturer at once.
                opp: s.opp & !bit(a),
                opp_kings: s.opp_kings & !bit(a),
                reserve: s.reserve,
                jumped: s.jumped | bit(a),
                delta: s.delta,
                jumps: s.jumps + 1,
            };
            if !king && PROMOTION[self.me] & bit(land) != 0 {
                if a_king {
                    // D-M10: the captured king's stone crowns the soldier; no reserve change.
                    ended = false;
                    self.record(u32::from(land), &n, true, n.delta, n.jumps);
                    continue;
                }
                if n.reserve > 0 {
                    // D-M5: promotion with a reserve stone ends the sequence.
                    ended = false;
                    self.record(u32::from(land), &n, true, n.delta - 1, n.jumps);
                    continue;
                }
            }
            if a_king {
                if n.reserve >= MAX_RESERVE {
                    continue; // D-M3, D-M10: no king capture with a full reserve.
                }
                n.reserve += 1;
                n.delta += 1;
            }
            ended = false;
            self.walk(u32::from(land), king, n);
        }
        if ended && s.jumps > 0 {
            self.record(at, &s, false, s.delta, s.jumps);
        }
    }
}

impl MuchAdo {
    /// A position from its parts; the key is computed here.
    ///
    /// # Errors
    /// Overlapping or off-board pieces, kings without a colour, or a reserve above 8 (D-M3).
    pub fn from_parts(
        white: u64,
        black: u64,
        kings: u64,
        reserves: [u8; 2],
        side: Side,
    ) -> Result<Self, PositionError> {
        if (white | black) & !BOARD.all() != 0 {
            return Err(PositionError::BadSquare("outside the board".into()));
        }
        if white & black != 0 {
            return Err(PositionError::Occupied(cell_name(
                (white & black).trailing_zeros(),
            )));
        }
        if kings & !(white | black) != 0 {
            return Err(PositionError::State("a king with no colour".into()));
        }
        if reserves.iter().any(|&r| r > MAX_RESERVE) {
            return Err(PositionError::State(format!(
                "a reserve holds at most {MAX_RESERVE} stones"
            )));
        }
        let mut pos = MuchAdo {
            pieces: [white, black],
            kings,
            reserves,
            side,
            key: 0,
        };
        pos.key = pos.compute_key();
        Ok(pos)
    }

    /// Pieces of a side (soldiers and kings).
    pub fn pieces(&self, side: Side) -> u64 {
        self.pieces[side.index()]
    }
    /// Kings of both sides.
    pub fn kings(&self) -> u64 {
        self.kings
    }
    /// Reserve stones of a side.
    pub fn reserve(&self, side: Side) -> u8 {
        self.reserves[side.index()]
    }
    /// Material balance for the side to move: soldier 100, king 200, reserve stone 50 (the
    /// evaluation hook of search).
    pub fn material(&self) -> i32 {
        let score = |i: usize| {
            let p = self.pieces[i];
            100 * p.count_ones() as i32
                + 100 * (p & self.kings).count_ones() as i32
                + 50 * i32::from(self.reserves[i])
        };
        let me = self.side.index();
        score(me) - score(1 - me)
    }

    fn compute_key(&self) -> u64 {
        let mut key = 0;
        for i in 0..2 {
            key ^= set_key(self.pieces[i] & !self.kings, i, false)
                ^ set_key(self.pieces[i] & self.kings, i, true);
            key ^= reserve_key(i, self.reserves[i]);
        }
        if self.side == Side::Black {
            key ^= zobrist::BLACK_TO_MOVE;
        }
        key
    }

    fn quiet_moves(&self, list: &mut MoveList<MuchMove>) {
        let me = self.side.index();
        let (own, opp) = (self.pieces[me], self.pieces[1 - me]);
        let empty = BOARD.all() & !(own | opp);
        let promo = PROMOTION[me];
        let mv = |kind, from: u32, to: u8, dir: usize| MuchMove {
            jumped: 0,
            kind,
            from: from as u8,
            to,
            dir: dir as u8,
            promotes: false,
            reserve: 0,
        };
        let mut o = own;
        while o != 0 {
            let p = o.trailing_zeros();
            o &= o - 1;
            let next = &BOARD.next[p as usize];
            if self.kings & (1 << p) != 0 {
                for d in KING_SLIDES {
                    let mut q = next[d];
                    while q != NONE && empty & bit(q) != 0 {
                        list.push(mv(Kind::Slide, p, q, d));
                        q = BOARD.next[q as usize][d];
                    }
                }
                continue;
            }
            let on_promo = promo & (1 << p) != 0;
            for &d in &SOLDIER_DIRS[me] {
                let a = next[d];
                if a == NONE {
                    continue;
                }
                let sideways = SIDEWAYS.contains(&d);
                let a_bit = bit(a);
                if empty & a_bit != 0 {
                    if !sideways {
                        // §1.4.1: a forward step onto the promotion row promotes if a stone is left.
                        let mut m = mv(Kind::Step, p, a, d);
                        if promo & a_bit != 0 && self.reserves[me] > 0 {
                            m.promotes = true;
                            m.reserve = -1;
                        }
                        list.push(m);
                    } else if on_promo {
                        list.push(mv(Kind::Step, p, a, d)); // §1.4.2, D-M2: never promotes.
                    }
                    continue;
                }
                let b = BOARD.next[a as usize][d];
                if own & a_bit != 0 {
                    // D-M1, D-M9: soldiers push soldiers; kings only sideways, from the promotion row.
                    let pushable = self.kings & a_bit == 0 || (sideways && on_promo);
                    if pushable && b != NONE && empty & bit(b) != 0 {
                        list.push(mv(Kind::Push, p, a, d));
                    }
                } else if self.kings & a_bit == 0 {
                    // An enemy soldier. D-M1: no swap with one standing on the mover's promotion row.
                    if promo & a_bit == 0 {
                        list.push(mv(Kind::Swap, p, a, d));
                    }
                    // D-M1: the threesome push needs a friendly soldier beyond the enemy soldier.
                    if b != NONE && own & !self.kings & bit(b) != 0 {
                        let c = BOARD.next[b as usize][d];
                        if c != NONE && empty & bit(c) != 0 {
                            list.push(mv(Kind::Threesome, p, a, d));
                        }
                    }
                }
            }
        }
    }
}

impl Game for MuchAdo {
    type Move = MuchMove;
    const NAME: &'static str = "muchado";

    fn start() -> Self {
        let mut pos = MuchAdo {
            pieces: START,
            kings: 0,
            reserves: [START_RESERVE; 2],
            side: Side::White, // D-M4
            key: 0,
        };
        pos.key = pos.compute_key();
        pos
    }
    fn side_to_move(&self) -> Side {
        self.side
    }
    fn generate_with(&self, dup: Duplicates, list: &mut MoveList<MuchMove>) {
        list.clear();
        let me = self.side.index();
        let (own, opp) = (self.pieces[me], self.pieces[1 - me]);
        let mut o = own;
        let mut best = 0;
        while o != 0 {
            let p = o.trailing_zeros();
            o &= o - 1;
            let mut walk = Captures {
                me,
                from: p as u8,
                dup,
                list,
                best,
            };
            let s = Seq {
                own: own & !(1 << p), // D-M8: the start cell is empty during the sequence.
                opp,
                opp_kings: opp & self.kings,
                reserve: self.reserves[me],
                jumped: 0,
                delta: 0,
                jumps: 0,
            };
            walk.walk(p, self.kings & (1 << p) != 0, s);
            best = walk.best;
        }
        // §1.6: captures take precedence over every other move.
        if list.is_empty() {
            self.quiet_moves(list);
        }
    }
    fn play(&self, mv: &MuchMove) -> Self {
        let me = self.side.index();
        let them = 1 - me;
        let mut n = *self;
        let (from, to) = (bit(mv.from), bit(mv.to));
        let d = usize::from(mv.dir) % BOARD.dirs;
        match mv.kind {
            Kind::Step | Kind::Slide => {
                n.pieces[me] ^= from | to;
                if self.kings & from != 0 {
                    n.kings ^= from | to;
                }
            }
            Kind::Push => {
                let b = bit(BOARD.next[mv.to as usize][d]);
                n.pieces[me] ^= from | b;
                if self.kings & to != 0 {
                    n.kings ^= to | b;
                }
            }
            Kind::Swap => {
                n.pieces[me] ^= from | to;
                n.pieces[them] ^= from | to;
            }
            Kind::Threesome => {
                let bc = BOARD.next[mv.to as usize][d];
                let (b, c) = (bit(bc), bit(BOARD.next[bc as usize][d]));
                n.pieces[me] ^= from | to | b | c;
                n.pieces[them] ^= to | b;
            }
            Kind::Capture => {
                n.pieces[me] = (n.pieces[me] & !from) | mv.jumped | to;
                n.pieces[them] &= !mv.jumped;
                let was_king = self.kings & from != 0;
                n.kings &= !(mv.jumped | from);
                if was_king {
                    n.kings |= to;
                }
            }
        }
        if mv.promotes {
            n.kings |= to;
        }
        n.reserves[me] = (i16::from(self.reserves[me]) + i16::from(mv.reserve)).clamp(0, 255) as u8;
        n.side = self.side.opponent();
        let mut key = self.key ^ zobrist::BLACK_TO_MOVE;
        for i in 0..2 {
            key ^= set_key(
                (self.pieces[i] & !self.kings) ^ (n.pieces[i] & !n.kings),
                i,
                false,
            );
            key ^= set_key((self.pieces[i] & self.kings) ^ (n.pieces[i] & n.kings), i, true);
        }
        key ^= reserve_key(me, self.reserves[me]) ^ reserve_key(me, n.reserves[me]);
        n.key = key;
        debug_assert_eq!(n.key, n.compute_key());
        n
    }
    fn key(&self) -> u64 {
        self.key
    }
    fn key_from_scratch(&self) -> u64 {
        self.compute_key()
    }
    fn is_capture(&self, mv: &MuchMove) -> bool {
        mv.kind == Kind::Capture
    }
    fn is_irreversible(&self, _mv: &MuchMove) -> bool {
        // Nothing leaves the board and captured pieces can be flipped back, reserves can be refilled
        // by king captures: no move rules out the return of an earlier position (D-M6 scans all).
        false
    }

    /// `W:W<cells>:B<cells>:R<white reserve>,<black reserve>`, kings prefixed `K`; see
    /// `docs/odd-boards.md`.
    fn from_fen(text: &str) -> Result<Self, PositionError> {
        let (side, fields) = fen_fields(text)?;
        let mut pieces = [None, None];
        let mut kings = 0;
        let mut reserves = None;
        for field in fields {
            let mut chars = field.chars();
            let tag = chars
                .next()
                .ok_or_else(|| PositionError::Syntax("empty field".into()))?;
            let rest = chars.as_str();
            match tag {
                'W' | 'B' => {
                    let i = usize::from(tag == 'B');
                    if pieces[i].is_some() {
                        return Err(PositionError::Syntax(format!("two {tag} fields")));
                    }
                    let (all, k) = parse_point_list(rest, parse_cell, true)?;
                    pieces[i] = Some(all);
                    kings |= k;
                }
                'R' => {
                    let bad = || {
                        PositionError::Syntax(format!("reserves must read R<white>,<black>, not {field:?}"))
                    };
                    let (w, b) = rest.split_once(',').ok_or_else(bad)?;
                    let w = w.trim().parse::<u8>().map_err(|_| bad())?;
                    let b = b.trim().parse::<u8>().map_err(|_| bad())?;
                    reserves = Some([w, b]);
                }
                _ => return Err(PositionError::Syntax(format!("unknown field {field:?}"))),
            }
        }
        let [Some(white), Some(black)] = pieces else {
            return Err(PositionError::Syntax("a FEN needs a W and a B field".into()));
        };
        let reserves = reserves.ok_or_else(|| PositionError::Syntax("a FEN needs an R field".into()))?;
        MuchAdo::from_parts(white, black, kings, reserves, side)
    }
    fn to_fen(&self) -> String {
        let list = |s: u64| {
            (0..CELLS as u32)
                .filter(|&p| s & (1 << p) != 0)
                .map(|p| {
                    let k = if self.kings & (1 << p) != 0 { "K" } else { "" };
                    format!("{k}{}", cell_name(p))
                })
                .collect::<Vec<_>>()
                .join(",")
        };
        format!(
            "{}:W{}:B{}:R{},{}",
            self.side.letter(),
            list(self.pieces[0]),
            list(self.pieces[1]),
            self.reserves[0],
            self.reserves[1]
        )
    }
    /// The side letter, one character per cell in cell order (`w`/`b` soldier, `W`/`B` king, `e`
    /// empty), then White's and Black's reserve as one digit each: 40 characters.
    fn from_hub(text: &str) -> Result<Self, PositionError> {
        let (side, rest) = super::split_hub(text, CELLS + 3)?;
        let (mut pieces, mut kings) = ([0u64; 2], 0u64);
        for (p, c) in rest[..CELLS].chars().enumerate() {
            match c {
                'w' => pieces[0] |= 1 << p,
                'b' => pieces[1] |= 1 << p,
                'W' => (pieces[0], kings) = (pieces[0] | 1 << p, kings | 1 << p),
                'B' => (pieces[1], kings) = (pieces[1] | 1 << p, kings | 1 << p),
                'e' | '.' => {}
                _ => return Err(PositionError::Syntax(format!("bad cell character {c:?}"))),
            }
        }
        let digit = |c: u8| {
            c.is_ascii_digit()
                .then(|| c - b'0')
                .ok_or_else(|| PositionError::Syntax("reserves must be digits".into()))
        };
        let b = rest.as_bytes();
        let reserves = [digit(b[CELLS])?, digit(b[CELLS + 1])?];
        MuchAdo::from_parts(pieces[0], pieces[1], kings, reserves, side)
    }
    fn to_hub(&self) -> String {
        let mut s = String::with_capacity(CELLS + 3);
        s.push(self.side.letter());
        for p in 0..CELLS {
            let king = self.kings & (1 << p) != 0;
            s.push(
                match (
                    self.pieces[0] & (1 << p) != 0,
                    self.pieces[1] & (1 << p) != 0,
                    king,
                ) {
                    (true, _, false) => 'w',
                    (true, _, true) => 'W',
                    (_, true, false) => 'b',
                    (_, true, true) => 'B',
                    _ => 'e',
                },
            );
        }
        for r in self.reserves {
            s.push(char::from(b'0' + r.min(9)));
        }
        s
    }

    fn parse_move(&self, text: &str) -> Result<MuchMove, MoveError> {
        let t = text.trim();
        let syntax = || MoveError::Syntax(t.to_string());
        let mut list = MoveList::new();
        self.generate(&mut list);
        let mut found: Vec<MuchMove> = Vec::new();
        let simple = [
            ("<>", &[Kind::Swap][..]),
            (">>", &[Kind::Threesome]),
            (">", &[Kind::Push]),
            ("-", &[Kind::Step, Kind::Slide]),
        ];
        if let Some((sep, kinds)) = simple.iter().find(|(sep, _)| t.contains(sep)) {
            let (a, b) = t.split_once(sep).ok_or_else(syntax)?;
            let from = parse_cell(a.trim()).ok_or_else(syntax)?;
            let to = parse_cell(b.trim()).ok_or_else(syntax)?;
            found.extend(
                list.iter().filter(|m| {
                    kinds.contains(&m.kind) && u32::from(m.from) == from && u32::from(m.to) == to
                }),
            );
        } else {
            let cells = t
                .split(['x', 'X', ':'])
                .map(|s| parse_cell(s.trim()))
                .collect::<Option<Vec<u32>>>()
                .filter(|v| v.len() >= 2)
                .ok_or_else(syntax)?;
            let readings = capture_readings(&BOARD, &cells);
            let short = cells.len() == 2;
            found.extend(list.iter().filter(|m| {
                m.kind == Kind::Capture
                    && readings.iter().flatten().any(|&(f, to, c)| {
                        u32::from(m.from) == f && u32::from(m.to) == to && (short || m.jumped == c)
                    })
            }));
        }
        pick(t, &found, |m| self.format_move(m, MoveStyle::Hub))
    }

    /// `c2-c3` step or slide, `c2>c3` push, `c2>>c3` threesome push, `c2<>c3` swap, `c2xc4` capture
    /// (followed by the jumped cells, `c2xe4xc3xd4`, in the Hub style or when start and end alone
    /// are ambiguous).
    fn format_move(&self, mv: &MuchMove, style: MoveStyle) -> String {
        let (from, to) = (cell_name(u32::from(mv.from)), cell_name(u32::from(mv.to)));
        let sep = match mv.kind {
            Kind::Step | Kind::Slide => "-",
            Kind::Push => ">",
            Kind::Threesome => ">>",
            Kind::Swap => "<>",
            Kind::Capture => "x",
        };
        let mut s = format!("{from}{sep}{to}");
        if mv.kind == Kind::Capture {
            let full = style == MoveStyle::Hub || {
                let mut list = MoveList::new();
                self.generate(&mut list);
                list.iter()
                    .any(|m| m.from == mv.from && m.to == mv.to && m.jumped != mv.jumped)
            };
            if full {
                let mut c = mv.jumped;
                while c != 0 {
                    s.push('x');
                    s += &cell_name(c.trailing_zeros());
                    c &= c - 1;
                }
            }
        }
        s
    }

    fn outcome(&self) -> Option<Outcome> {
        // §1.7: a player who cannot move loses; there are no draws (D-M6).
        (self.count_moves(Duplicates::Merge) == 0).then_some(Outcome::Win(self.side.opponent()))
    }
    fn repetition(&self) -> Repetition {
        Repetition::LossForMover(REPETITION_LOSS) // D-M6
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directions_and_rows() {
        assert_eq!(BOARD.len, CELLS);
        assert_eq!(PROMOTION[0].count_ones(), 4);
        assert_eq!(START[0].count_ones(), 9);
        assert_eq!(SIDEWAYS.map(|d| HEX[d].1), [0, 0]);
    }
}
