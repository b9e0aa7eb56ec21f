//! Sixteen Soldiers (Sholo Guti), rules.md section 4 and decisions D-S1..D-S5.
//!
//! The board is the 5x5 alquerque grid with a triangle on two sides: 37 points, 76 edges, 112
//! directed short leaps (section 4.2). Points are named by file `a`..`e` (x = 0..4) and rank
//! `1`..`9` (y = -2..6): the bottom triangle is `a1 c1 e1 / b2 c2 d2`, the square `a3`..`e7`, the top
//! triangle `b8 c8 d8 / a9 c9 e9`. South (White, `W`) starts on ranks 1-4 and moves first (D-S2).
//!
//! A soldier steps along a line to an adjacent empty point, or captures by a short leap over an
//! adjacent enemy to the empty point beyond on the same line; jumped pieces leave the board at once
//! and the start point is empty during the sequence (D-S1); a sequence must be continued while
//! possible, with free choice among sequences (D-S3). Under the `huffing` option a non-capturing
//! move is legal even when a capture exists, and the opponent then begins his move by removing one
//! of the pieces that could have captured (the huff, written `c5*` before his move). A player with
//! no piece or no legal move loses (D-S4); the house draw rules of D-S5 are rule options.

use super::graph::{Graph, Line, NONE};
use super::{capture_readings, fen_fields, parse_point_list, pick};
use crate::game::{
    Duplicates, Game, MoveError, MoveList, MoveStyle, Outcome, PositionError, Repetition, RuleOption, Side,
};
use crate::zobrist;
use std::fmt;

/// Points by row, as `(y, first x, x step, count)`: the bottom triangle's base and middle row, the
/// five rows of the square, the top triangle (rules.md §4.2).
const ROWS: [(i8, i8, i8, usize); 9] = [
    (-2, 0, 2, 3),
    (-1, 1, 1, 3),
    (0, 0, 1, 5),
    (1, 0, 1, 5),
    (2, 0, 1, 5),
    (3, 0, 1, 5),
    (4, 0, 1, 5),
    (5, 1, 1, 3),
    (6, 0, 2, 3),
];

/// Number of points of the board (§4.2).
pub const POINTS: usize = 37;

const fn points() -> [(i8, i8); POINTS] {
    let mut out = [(0, 0); POINTS];
    let mut n = 0;
    let mut r = 0;
    while r < ROWS.len() {
        let (y, x0, dx, count) = ROWS[r];
        let mut k = 0;
        while k < count {
            out[n] = (x0 + dx * k as i8, y);
            n += 1;
            k += 1;
        }
        r += 1;
    }
    assert!(n == POINTS);
    out
}

const fn line(x: i8, y: i8, dx: i8, dy: i8, len: u8) -> Line {
    Line { x, y, dx, dy, len }
}

/// Every straight line of the drawing (§4.2): the square's rows and columns (the centre column runs
/// on through both triangles' medians), its two long diagonals, the four diagonals of the inner
/// diamond, each continued by a triangle side, and the triangles' two cross rows.
const LINES: [Line; 20] = [
    line(0, 0, 1, 0, 5),
    line(0, 1, 1, 0, 5),
    line(0, 2, 1, 0, 5),
    line(0, 3, 1, 0, 5),
    line(0, 4, 1, 0, 5),
    line(0, 0, 0, 1, 5),
    line(1, 0, 0, 1, 5),
    line(2, -2, 0, 1, 9),
    line(3, 0, 0, 1, 5),
    line(4, 0, 0, 1, 5),
    line(0, 0, 1, 1, 5),
    line(0, 4, 1, -1, 5),
    line(0, -2, 1, 1, 5),
    line(4, -2, -1, 1, 5),
    line(0, 6, 1, -1, 5),
    line(4, 6, -1, -1, 5),
    line(1, -1, 1, 0, 3),
    line(0, -2, 2, 0, 3),
    line(1, 5, 1, 0, 3),
    line(0, 6, 2, 0, 3),
];

/// The eight compass directions as sign patterns, each opposite the one four places on.
const COMPASS: [(i8, i8); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

/// The Sixteen Soldiers board graph.
pub static BOARD: Graph = Graph::from_lines(&points(), &LINES, &COMPASS);

/// Points of the bottom triangle and the square's two lower rows: South's start (§4.3).
const SOUTH_START: u64 = (1 << 16) - 1;
/// Points of the square's two upper rows and the top triangle: North's start (§4.3).
const NORTH_START: u64 = ((1u64 << POINTS) - 1) & !((1 << 21) - 1);
/// D-S5: plies without a capture (or huff) after which the game is drawn (50 moves each).
pub const NO_CAPTURE_PLIES: u16 = 100;
/// D-S5: the occurrence of a position that draws the game.
pub const REPETITION_DRAW: u8 = 3;

/// Zobrist tag of the pending-huff points.
const HUFF_TAG: u64 = 0x5116;

/// The rule options of Sixteen Soldiers (D-S3, D-S5).
const OPTIONS: [RuleOption; 3] = [
    RuleOption {
        name: "huffing",
        values: &["true", "false"],
        default: "false",
        help: "D-S3: a non-capturing move is legal when a capture exists; the opponent then huffs",
    },
    RuleOption {
        name: "repetition-draw",
        values: &["true", "false"],
        default: "true",
        help: "D-S5 house rule: the third occurrence of a position is a draw",
    },
    RuleOption {
        name: "no-capture-draw",
        values: &["true", "false"],
        default: "true",
        help: "D-S5 house rule: 100 plies (50 moves each) without a capture or huff is a draw",
    },
];

/// A move: optionally a huff (removing an enemy piece first), then a step or a capture sequence.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct SixteenMove {
    /// Points jumped (each leaves the board).
    pub captured: u64,
    /// Start point, or [`NONE`] for a move that is only a huff (it removed the last enemy piece).
    pub from: u8,
    /// End point, or [`NONE`] with `from`.
    pub to: u8,
    /// The enemy piece huffed before the move, or [`NONE`].
    pub huff: u8,
}

impl fmt::Debug for SixteenMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = |p: u8| {
            if p == NONE {
                "-".to_string()
            } else {
                point_name(u32::from(p))
            }
        };
        write!(
            f,
            "Sixteen({}*{}->{} x{:#x})",
            name(self.huff),
            name(self.from),
            name(self.to),
            self.captured
        )
    }
}

/// The switchable rules a position carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SixteenRules {
    /// D-S3: the huffing rule set (default off: strict).
    pub huffing: bool,
    /// D-S5: threefold repetition draws.
    pub repetition_draw: bool,
    /// D-S5: 100 plies without capture draws.
    pub no_capture_draw: bool,
}

impl Default for SixteenRules {
    fn default() -> Self {
        SixteenRules {
            huffing: false,
            repetition_draw: true,
            no_capture_draw: true,
        }
    }
}

/// A Sixteen Soldiers position.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Sixteen {
    pieces: [u64; 2],
    side: Side,
    /// Pieces of the player who just moved that the player to move must huff from (D-S3).
    huffable: u64,
    /// Plies since the last capture or huff (D-S5).
    quiet: u16,
    rules: SixteenRules,
    key: u64,
}

impl fmt::Debug for Sixteen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "sixteen-soldiers[{}]", self.to_fen())
    }
}

/// The name of a point: file `a`..`e`, rank `1`..`9`.
pub fn point_name(p: u32) -> String {
    let (x, y) = BOARD.coords[p as usize % POINTS];
    format!("{}{}", (b'a' + x as u8) as char, y + 3)
}

/// Reads a point name (`c5`).
pub fn parse_point(s: &str) -> Option<u32> {
    let b = s.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let x = b[0].to_ascii_lowercase().wrapping_sub(b'a');
    let y = b[1].wrapping_sub(b'1');
    if x > 4 || y > 8 {
        return None;
    }
    let p = BOARD.find(x as i8, y as i8 - 2);
    (p != NONE).then_some(u32::from(p))
}

#[inline(always)]
fn piece_key(side: usize, p: u32) -> u64 {
    zobrist::PIECES[side & 1][p as usize % zobrist::POSITIONS]
}

#[inline(always)]
fn set_key(s: u64, f: impl Fn(u32) -> u64) -> u64 {
    let mut k = 0;
    let mut s = s;
    while s != 0 {
        k ^= f(s.trailing_zeros());
        s &= s - 1;
    }
    k
}

/// Walks capture sequences (D-S1, D-S3): pieces removed as jumped, start point vacated.
struct Captures<'a> {
    from: u32,
    dup: Duplicates,
    huff: u8,
    list: &'a mut MoveList<SixteenMove>,
    /// Index in `list` where this generation's captures begin (for merging).
    first: usize,
}

impl Captures<'_> {
    fn walk(&mut self, at: u32, opp: u64, occupied: u64, captured: u64) {
        let mut ended = true;
        for d in 0..BOARD.dirs {
            let over = BOARD.next[at as usize][d];
            if over == NONE || opp & (1 << over) == 0 {
                continue;
            }
            let land = BOARD.beyond[at as usize][d];
            if land == NONE || occupied & (1 << land) != 0 {
                continue;
            }
            ended = false;
            let o = 1u64 << over;
            self.walk(u32::from(land), opp & !o, occupied & !o, captured | o);
        }
        if ended && captured != 0 {
            let mv = SixteenMove {
                captured,
                from: self.from as u8,
                to: at as u8,
                huff: self.huff,
            };
            // D-A1 / D-M7 analogue: same start, end and captured set is one move when merging.
            if self.dup.keeps_paths() || !self.list[self.first..].contains(&mv) {
                self.list.push(mv);
            }
        }
    }
}

/// Whether the piece on `p` can capture (one leap available).
#[inline(always)]
fn can_capture(p: u32, opp: u64, empty: u64) -> bool {
    let row = &BOARD.next[p as usize];
    let far = &BOARD.beyond[p as usize];
    (0..BOARD.dirs)
        .any(|d| row[d] != NONE && far[d] != NONE && opp & (1 << row[d]) != 0 && empty & (1 << far[d]) != 0)
}

/// The pieces of `own` that can capture.
fn capturers(own: u64, opp: u64) -> u64 {
    let empty = BOARD.all() & !(own | opp);
    let mut s = 0;
    let mut o = own;
    while o != 0 {
        let p = o.trailing_zeros();
        o &= o - 1;
        if can_capture(p, opp, empty) {
            s |= 1 << p;
        }
    }
    s
}

impl Sixteen {
    /// A position from its parts; the key is computed here.
    ///
    /// # Errors
    /// Overlapping or off-board pieces, or pending-huff points that are not pieces of the player who
    /// just moved.
    pub fn from_parts(
        white: u64,
        black: u64,
        side: Side,
        huffable: u64,
        quiet: u16,
    ) -> Result<Self, PositionError> {
        if (white | black) & !BOARD.all() != 0 {
            return Err(PositionError::BadSquare("outside the board".into()));
        }
        if white & black != 0 {
            return Err(PositionError::Occupied(point_name(
                (white & black).trailing_zeros(),
            )));
        }
        let mut pos = Sixteen {
            pieces: [white, black],
            side,
            huffable,
            quiet,
            rules: SixteenRules::default(),
            key: 0,
        };
        if huffable & !pos.pieces[side.opponent().index()] != 0 {
            return Err(PositionError::State(
                "a huff of a point without an enemy piece".into(),
            ));
        }
        pos.key = pos.compute_key();
        Ok(pos)
    }

    /// Pieces of a side.
    pub fn pieces(&self, side: Side) -> u64 {
        self.pieces[side.index()]
    }
    /// Pieces the player to move must huff one of before moving (D-S3); empty in strict play.
    pub fn huffable(&self) -> u64 {
        self.huffable
    }
    /// Plies since the last capture or huff (D-S5).
    pub fn quiet_plies(&self) -> u16 {
        self.quiet
    }
    /// The rule options of this position.
    pub fn rules(&self) -> SixteenRules {
        self.rules
    }
    /// Material balance for the side to move: 100 per soldier (the evaluation hook of search).
    pub fn material(&self) -> i32 {
        let me = self.side.index();
        100 * (self.pieces[me].count_ones() as i32 - self.pieces[1 - me].count_ones() as i32)
    }

    fn compute_key(&self) -> u64 {
        let mut key =
            set_key(self.pieces[0], |p| piece_key(0, p)) ^ set_key(self.pieces[1], |p| piece_key(1, p));
        key ^= set_key(self.huffable, |p| zobrist::state(HUFF_TAG, u64::from(p)));
        if self.side == Side::Black {
            key ^= zobrist::BLACK_TO_MOVE;
        }
        key
    }

    /// Moves of the side to move on a board where `own` and `opp` stand, each carrying `huff`.
    fn base_moves(&self, own: u64, opp: u64, huff: u8, dup: Duplicates, list: &mut MoveList<SixteenMove>) {
        let first = list.len();
        let all = own | opp;
        let mut o = own;
        while o != 0 {
            let p = o.trailing_zeros();
            o &= o - 1;
            let mut walk = Captures {
                from: p,
                dup,
                huff,
                list,
                first,
            };
            walk.walk(p, opp, all & !(1 << p), 0);
        }
        // D-S3: strict play makes captures compulsory; huffing allows the steps as well.
        if list.len() > first && !self.rules.huffing {
            return;
        }
        let empty = BOARD.all() & !all;
        let mut o = own;
        while o != 0 {
            let p = o.trailing_zeros();
            o &= o - 1;
            for d in 0..BOARD.dirs {
                let q = BOARD.next[p as usize][d];
                if q != NONE && empty & (1 << q) != 0 {
                    list.push(SixteenMove {
                        captured: 0,
                        from: p as u8,
                        to: q,
                        huff,
                    });
                }
            }
        }
    }
}

impl Game for Sixteen {
    type Move = SixteenMove;
    const NAME: &'static str = "sixteen-soldiers";

    fn start() -> Self {
        let mut pos = Sixteen {
            pieces: [SOUTH_START, NORTH_START],
            side: Side::White, // D-S2
            huffable: 0,
            quiet: 0,
            rules: SixteenRules::default(),
            key: 0,
        };
        pos.key = pos.compute_key();
        pos
    }
    fn side_to_move(&self) -> Side {
        self.side
    }
    fn generate_with(&self, dup: Duplicates, list: &mut MoveList<SixteenMove>) {
        list.clear();
        let me = self.side.index();
        let (own, opp) = (self.pieces[me], self.pieces[1 - me]);
        if self.huffable == 0 {
            self.base_moves(own, opp, NONE, dup, list);
            return;
        }
        // D-S3: the turn begins with the huff of one piece that could have captured.
        let mut h = self.huffable;
        while h != 0 {
            let p = h.trailing_zeros();
            h &= h - 1;
            let rest = opp & !(1 << p);
            if rest == 0 {
                // The huff took the last enemy piece: the game is won, nothing more to move.
                list.push(SixteenMove {
                    captured: 0,
                    from: NONE,
                    to: NONE,
                    huff: p as u8,
                });
            } else {
                self.base_moves(own, rest, p as u8, dup, list);
            }
        }
    }
    fn play(&self, mv: &SixteenMove) -> Self {
        let me = self.side.index();
        let them = 1 - me;
        let mut next = *self;
        if mv.huff != NONE {
            next.pieces[them] &= !(1u64 << mv.huff);
        }
        next.huffable = 0;
        if mv.from != NONE {
            if self.rules.huffing && mv.captured == 0 {
                // D-S3: pieces that could capture and did not are exposed to the opponent's huff;
                // the piece that moved is exposed where it now stands.
                let mut exposed = capturers(next.pieces[me], next.pieces[them]);
                if exposed & (1 << mv.from) != 0 {
                    exposed = (exposed & !(1 << mv.from)) | 1 << mv.to;
                }
                next.huffable = exposed;
            }
            next.pieces[me] ^= (1u64 << mv.from) ^ (1u64 << mv.to);
            next.pieces[them] &= !mv.captured;
        }
        next.quiet = if mv.captured != 0 || mv.huff != NONE {
            0
        } else {
            self.quiet.saturating_add(1)
        };
        next.side = self.side.opponent();
        let mut key = self.key ^ zobrist::BLACK_TO_MOVE;
        key ^= set_key(self.pieces[me] ^ next.pieces[me], |p| piece_key(me, p));
        key ^= set_key(self.pieces[them] ^ next.pieces[them], |p| piece_key(them, p));
        key ^= set_key(self.huffable ^ next.huffable, |p| {
            zobrist::state(HUFF_TAG, u64::from(p))
        });
        next.key = key;
        debug_assert_eq!(next.key, next.compute_key());
        next
    }
    fn key(&self) -> u64 {
        self.key
    }
    fn key_from_scratch(&self) -> u64 {
        self.compute_key()
    }
    fn is_capture(&self, mv: &SixteenMove) -> bool {
        mv.captured != 0 || mv.huff != NONE
    }
    fn is_irreversible(&self, mv: &SixteenMove) -> bool {
        // Pieces never come back; steps go every way and can be undone.
        self.is_capture(mv)
    }

    /// `W:W<points>:B<points>[:H<plies>][:X<points>]`; see `docs/odd-boards.md`.
    fn from_fen(text: &str) -> Result<Self, PositionError> {
        let (side, fields) = fen_fields(text)?;
        let mut pieces = [None, None];
        let (mut huffable, mut quiet) = (0, 0);
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
                    pieces[i] = Some(parse_point_list(rest, parse_point, false)?.0);
                }
                'H' => {
                    quiet = rest
                        .parse()
                        .map_err(|_| PositionError::Syntax(format!("bad ply counter {rest:?}")))?;
                }
                'X' => huffable = parse_point_list(rest, parse_point, false)?.0,
                _ => return Err(PositionError::Syntax(format!("unknown field {field:?}"))),
            }
        }
        let [Some(white), Some(black)] = pieces else {
            return Err(PositionError::Syntax("a FEN needs a W and a B field".into()));
        };
        Sixteen::from_parts(white, black, side, huffable, quiet)
    }
    fn to_fen(&self) -> String {
        let list = |s: u64| {
            (0..POINTS as u32)
                .filter(|&p| s & (1 << p) != 0)
                .map(point_name)
                .collect::<Vec<_>>()
                .join(",")
        };
        let mut out = format!(
            "{}:W{}:B{}",
            self.side.letter(),
            list(self.pieces[0]),
            list(self.pieces[1])
        );
        if self.quiet != 0 {
            out += &format!(":H{}", self.quiet);
        }
        if self.huffable != 0 {
            out += &format!(":X{}", list(self.huffable));
        }
        out
    }
    /// The side letter and one character per point in point order (`w`, `b`, `e`): 38 characters.
    /// The ply counter and a pending huff are not part of it.
    fn from_hub(text: &str) -> Result<Self, PositionError> {
        let (side, rest) = super::split_hub(text, POINTS + 1)?;
        let mut pieces = [0u64; 2];
        for (p, c) in rest.chars().enumerate() {
            match c {
                'w' | 'W' => pieces[0] |= 1 << p,
                'b' | 'B' => pieces[1] |= 1 << p,
                'e' | 'E' | '.' => {}
                _ => return Err(PositionError::Syntax(format!("bad point character {c:?}"))),
            }
        }
        Sixteen::from_parts(pieces[0], pieces[1], side, 0, 0)
    }
    fn to_hub(&self) -> String {
        let mut s = String::with_capacity(POINTS + 1);
        s.push(self.side.letter());
        for p in 0..POINTS {
            s.push(if self.pieces[0] & (1 << p) != 0 {
                'w'
            } else if self.pieces[1] & (1 << p) != 0 {
                'b'
            } else {
                'e'
            });
        }
        s
    }

    fn parse_move(&self, text: &str) -> Result<SixteenMove, MoveError> {
        let t = text.trim();
        let syntax = || MoveError::Syntax(t.to_string());
        let (huff, body) = match t.split_once('*') {
            Some((h, rest)) => (parse_point(h.trim()).ok_or_else(syntax)? as u8, rest.trim()),
            None => (NONE, t),
        };
        let mut list = MoveList::new();
        self.generate(&mut list);
        let mut found: Vec<SixteenMove> = Vec::new();
        if body.is_empty() {
            if huff == NONE {
                return Err(syntax());
            }
            found.extend(list.iter().filter(|m| m.huff == huff && m.from == NONE));
        } else if let Some((a, b)) = body.split_once('-') {
            let from = parse_point(a.trim()).ok_or_else(syntax)?;
            let to = parse_point(b.trim()).ok_or_else(syntax)?;
            found.extend(list.iter().filter(|m| {
                m.huff == huff && m.captured == 0 && u32::from(m.from) == from && u32::from(m.to) == to
            }));
        } else {
            let points = body
                .split(['x', 'X', ':'])
                .map(|s| parse_point(s.trim()))
                .collect::<Option<Vec<u32>>>()
                .filter(|v| v.len() >= 2)
                .ok_or_else(syntax)?;
            let readings = capture_readings(&BOARD, &points);
            let short = points.len() == 2;
            found.extend(list.iter().filter(|m| {
                m.huff == huff
                    && m.captured != 0
                    && readings.iter().flatten().any(|&(f, to, c)| {
                        u32::from(m.from) == f && u32::from(m.to) == to && (short || m.captured == c)
                    })
            }));
        }
        pick(t, &found, |m| self.format_move(m, MoveStyle::Hub))
    }

    /// Steps `b4-b5`; captures `b4xd4` (with the captured points, `b4xd6xc4xc5`, in the Hub style
    /// or when start and end alone are ambiguous); a huff first: `c6*b4-b5`, or `c6*` alone.
    fn format_move(&self, mv: &SixteenMove, style: MoveStyle) -> String {
        let mut s = String::new();
        if mv.huff != NONE {
            s += &point_name(u32::from(mv.huff));
            s.push('*');
        }
        if mv.from == NONE {
            return s;
        }
        let (from, to) = (point_name(u32::from(mv.from)), point_name(u32::from(mv.to)));
        if mv.captured == 0 {
            return format!("{s}{from}-{to}");
        }
        s += &format!("{from}x{to}");
        let full = style == MoveStyle::Hub || {
            let mut list = MoveList::new();
            self.generate(&mut list);
            list.iter().any(|m| {
                m.huff == mv.huff
                    && m.from == mv.from
                    && m.to == mv.to
                    && m.captured != 0
                    && m.captured != mv.captured
            })
        };
        if full {
            let mut c = mv.captured;
            while c != 0 {
                s.push('x');
                s += &point_name(c.trailing_zeros());
                c &= c - 1;
            }
        }
        s
    }

    fn outcome(&self) -> Option<Outcome> {
        // D-S4: no piece or no legal move on one's turn loses (checked before the draw rule).
        if self.pieces[self.side.index()] == 0 || self.count_moves(Duplicates::Merge) == 0 {
            return Some(Outcome::Win(self.side.opponent()));
        }
        if self.rules.no_capture_draw && self.quiet >= NO_CAPTURE_PLIES {
            return Some(Outcome::Draw); // D-S5
        }
        None
    }
    fn repetition(&self) -> Repetition {
        if self.rules.repetition_draw {
            Repetition::Draw(REPETITION_DRAW)
        } else {
            Repetition::Ignored
        }
    }
    fn options() -> &'static [RuleOption] {
        &OPTIONS
    }
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        let v = match value.trim().to_ascii_lowercase().as_str() {
            "true" | "on" | "yes" | "1" => true,
            "false" | "off" | "no" | "0" => false,
            _ => return Err(format!("option {name:?} takes true or false, not {value:?}")),
        };
        match name.trim().to_ascii_lowercase().as_str() {
            "huffing" => self.rules.huffing = v,
            "repetition-draw" => self.rules.repetition_draw = v,
            "no-capture-draw" => self.rules.no_capture_draw = v,
            _ => return Err(format!("unknown rule option {name:?}")),
        }
        Ok(())
    }
}
