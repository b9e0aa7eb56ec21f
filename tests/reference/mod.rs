//! A deliberately simple, independent reference move generator for fifteen draughts variants
//! (International, Canadian on 12x12, Killer, Russian, Brazilian, English checkers, American pool
//! checkers, Czech, Italian and Spanish (= Portuguese) on the mirrored 8x8 board, Frisian, Frysk!,
//! Thai, and the orthogonal all-squares games Turkish Dama and Armenian Tama).
//!
//! It exists only to cross-check the engine's fast bitboard generator, so it shares no code with
//! the `tempo` crate and is written straight from `rules.md` (sections 2, 3, 5, 6, 7 and the
//! Decisions). Clarity beats speed everywhere: the board is a 2D array, directions are
//! `(drow, dcol)` vectors, capture sequences are found by plain recursion, and everything is a
//! `Vec`.
//!
//! Orientation (rules.md §7.1): row 0 is the top of the board (Black's side), column 0 is the
//! left as White sees it. White men move up (towards row 0), Black men move down. Italian and
//! Spanish use the mirrored board (rules.md §6 Notes, §7.1): the playing squares are the other
//! colour, 1 = a8 ... 32 = h1 (see [`mirrored_square_to_rc`]).
//!
//! Turkish and Armenian (rules.md §6) use every square of the 8x8 board and capture
//! orthogonally with captured pieces removed at once; they have their own capture search and
//! move generator further down (section "Turkish and Armenian"), so the code of the six diagonal
//! variants is not touched by them.
//!
//! Thai (Mak-hot, rules.md §6 Thai row) has its own capture search too (section "Thai"): pieces
//! leave the board as they are jumped, so it also changes the board as it goes. Its rule details
//! that the sources read differently are switches ([`ThaiRules`]), so that tests can compare them.
//!
//! Use from another integration test with
//! `#[path = "reference/mod.rs"] mod reference;`.

// Not every test that includes this module uses every helper.
#![allow(dead_code)]

/// The variants this reference generator knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefVariant {
    International,
    Russian,
    Brazilian,
    English,
    Frisian,
    Frysk,
    /// Turkish draughts (Dama), rules.md §6 and Wikipedia "Turkish draughts".
    Turkish,
    /// Armenian draughts (Tama), rules.md §6 (Ludii `Tama.lud`).
    Armenian,
    /// Thai draughts (Mak-hot), rules.md §6 Thai row; its open details are [`ThaiRules`].
    Thai,
    /// Canadian draughts: the International rules on a 12x12 board, 30 men a side (rules.md §6).
    Canadian,
    /// Killer draughts: International rules, and a king whose last captured piece is a king must
    /// stop on the square right behind it (rules.md §6, mindsports).
    Killer,
    /// Italian draughts (FID, rules.md §6 Italian row): mirrored board, short kings, men capture
    /// forward only and never a king; the four-step precedence.
    Italian,
    /// Spanish draughts (rules.md §6 Spanish row), also the rules of Portuguese (Damas clássicas):
    /// mirrored board, flying kings, men capture forward only; most pieces, then most kings.
    Spanish,
    /// Czech draughts (rules.md §6 Czech row): flying kings, men capture forward only; a king
    /// capture comes before a man's, otherwise free choice.
    Czech,
    /// American pool checkers (rules.md §6 Pool row): Black first, men capture backward too,
    /// flying kings, free choice, promotion only when the move ends on the last row.
    Pool,
}

impl RefVariant {
    /// Board width and height in cells.
    pub fn size(self) -> usize {
        match self {
            RefVariant::International | RefVariant::Frisian | RefVariant::Frysk | RefVariant::Killer => 10,
            RefVariant::Canadian => 12,
            RefVariant::Russian | RefVariant::Brazilian | RefVariant::English | RefVariant::Thai => 8,
            RefVariant::Italian | RefVariant::Spanish | RefVariant::Czech | RefVariant::Pool => 8,
            RefVariant::Turkish | RefVariant::Armenian => 8,
        }
    }

    /// Turkish and Armenian play on all 64 squares (rules.md §6); the others on the dark ones.
    pub fn uses_every_square(self) -> bool {
        matches!(self, RefVariant::Turkish | RefVariant::Armenian)
    }

    /// Number of playable squares: the dark ones, or every square for Turkish / Armenian.
    pub fn squares(self) -> u8 {
        if self.uses_every_square() {
            (self.size() * self.size()) as u8
        } else {
            (self.size() * self.size() / 2) as u8
        }
    }

    /// Italian and Spanish play on the mirrored 8x8 board, a1 not playable (rules.md §6 Notes).
    pub fn is_mirrored(self) -> bool {
        matches!(self, RefVariant::Italian | RefVariant::Spanish)
    }

    /// `(row, col)` of square `n` in this variant's numbering.
    pub fn square_to_rc(self, n: u8) -> (i32, i32) {
        if self.uses_every_square() {
            full_square_to_rc(self.size(), n)
        } else if self.is_mirrored() {
            mirrored_square_to_rc(self.size(), n)
        } else {
            square_to_rc(self.size(), n)
        }
    }

    /// Square number of `(row, col)` in this variant's numbering, `None` if not playable.
    pub fn rc_to_square(self, row: i32, col: i32) -> Option<u8> {
        if self.uses_every_square() {
            full_rc_to_square(self.size(), row, col)
        } else if self.is_mirrored() {
            mirrored_rc_to_square(self.size(), row, col)
        } else {
            rc_to_square(self.size(), row, col)
        }
    }

    /// Kings that move and capture one step only: English checkers and Italian (rules.md §6).
    fn short_kings(self) -> bool {
        matches!(self, RefVariant::English | RefVariant::Italian)
    }

    /// Men capture forward only (rules.md §6, "men capture back?" = no): English, Italian,
    /// Spanish / Portuguese, Czech.
    fn men_capture_forward_only(self) -> bool {
        matches!(
            self,
            RefVariant::English | RefVariant::Italian | RefVariant::Spanish | RefVariant::Czech
        )
    }

    /// Frisian and Frysk! share every rule except the setup (rules.md §2.9).
    fn is_frisian(self) -> bool {
        matches!(self, RefVariant::Frisian | RefVariant::Frysk)
    }

    /// The PDN FEN of the initial position.
    pub fn start_fen(self) -> &'static str {
        match self {
            // FMJD 2.8, 3.3; Frisian Art. 1-6.
            RefVariant::International | RefVariant::Frisian | RefVariant::Killer => "W:W31-50:B1-20",
            // rules.md §6: five rows of men on 12x12.
            RefVariant::Canadian => "W:W43-72:B1-30",
            // rules.md §3.2 and §6; Italian (PDN 22,W), Spanish (24,W), Czech: White first.
            RefVariant::Russian
            | RefVariant::Brazilian
            | RefVariant::Italian
            | RefVariant::Spanish
            | RefVariant::Czech => "W:W21-32:B1-12",
            // rules.md §6 and §7.1: in English checkers and pool checkers (PDN 21,B and 23,B)
            // Black (on 1-12) moves first.
            RefVariant::English | RefVariant::Pool => "B:W21-32:B1-12",
            // rules.md §6 Thai row: 8 men a side on the two rows nearest each player, Black
            // first (PDN GameType 31,B).
            RefVariant::Thai => "B:W25-32:B1-8",
            // rules.md §2.9 (lidraughts Frysk.scala).
            RefVariant::Frysk => "W:W46,47,48,49,50:B1,2,3,4,5",
            // rules.md §6: 16 men each on rows 2-3 (a2..h3 = 41-56) and 6-7 (a7..h6 = 9-24),
            // White first (PDN GameType 30,W).
            RefVariant::Turkish | RefVariant::Armenian => "W:W41-56:B9-24",
        }
    }
}

/// A player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    White,
    Black,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    fn index(self) -> usize {
        match self {
            Side::White => 0,
            Side::Black => 1,
        }
    }

    /// Row direction of this side's men: White moves up (row - 1), Black down (row + 1).
    fn forward(self) -> i32 {
        match self {
            Side::White => -1,
            Side::Black => 1,
        }
    }
}

/// A piece on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    pub side: Side,
    pub king: bool,
}

/// One legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefMove {
    pub from: u8,
    pub to: u8,
    /// Captured squares, ascending.
    pub captured: Vec<u8>,
    /// Every square the moving piece stands on, from the first to the last.
    pub path: Vec<u8>,
    pub promotes: bool,
}

impl RefMove {
    /// Short notation, `32-28` or `28x19` (FMJD 8.2), for messages.
    pub fn notation(&self) -> String {
        if self.captured.is_empty() {
            format!("{}-{}", self.from, self.to)
        } else {
            format!("{}x{}", self.from, self.to)
        }
    }

    /// Full path notation, `47x38x24x13x36`, for messages.
    pub fn path_notation(&self) -> String {
        let sep = if self.captured.is_empty() { "-" } else { "x" };
        let parts: Vec<String> = self.path.iter().map(|s| s.to_string()).collect();
        parts.join(sep)
    }
}

/// Frisian king-move counter of one player (Art. 17, rules.md §2.6, D-F3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct KingCounter {
    /// Consecutive non-capturing moves made with the same king (0 = cleared).
    pub count: u8,
    /// Square of the king those moves were made with (meaningless when `count == 0`).
    pub square: u8,
}

/// A position: board, side to move and (Frisian only) the king-move counters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefPos {
    pub variant: RefVariant,
    /// `board[row][col]`, only the first `variant.size()` rows and columns are used.
    pub board: [[Option<Piece>; 12]; 12],
    pub to_move: Side,
    /// Indexed by side: `[White, Black]`. Always cleared outside Frisian / Frysk!.
    pub king_counters: [KingCounter; 2],
    /// Turkish only: what a man reaching the last row in the middle of a capture does. Starts as
    /// [`TURKISH_MID_CAPTURE_PROMOTION`]; tests may flip it with `with_turkish_promotion`.
    pub turkish_promotion: MidCapturePromotion,
    /// Thai only: the switches of [`ThaiRules`]. Starts as [`ThaiRules::RULES_MD`].
    pub thai: ThaiRules,
}

// ---------------------------------------------------------------------------------------------
// Square numbering (rules.md §7.1, FMJD 2.6)
// ---------------------------------------------------------------------------------------------

/// `(row, col)` of square `n` on a `size` x `size` board. Row `i = (n-1) / (size/2)` from the top,
/// `k = (n-1) % (size/2)`, column `2k+1` on even rows and `2k` on odd rows.
pub fn square_to_rc(size: usize, n: u8) -> (i32, i32) {
    let per_row = (size / 2) as i32;
    let i = (n as i32 - 1) / per_row;
    let k = (n as i32 - 1) % per_row;
    let col = if i % 2 == 0 { 2 * k + 1 } else { 2 * k };
    (i, col)
}

/// Square number of `(row, col)`, or `None` off the board or on a light square.
pub fn rc_to_square(size: usize, row: i32, col: i32) -> Option<u8> {
    let s = size as i32;
    if row < 0 || col < 0 || row >= s || col >= s || (row + col) % 2 == 0 {
        return None;
    }
    Some((row * (s / 2) + col / 2 + 1) as u8)
}

/// `(row, col)` of square `n` on the mirrored board (Italian FID numbering, Spanish; rules.md
/// §7.1): as [`square_to_rc`] but column `2k` on even rows and `2k+1` on odd rows, so 1 = a8,
/// 4 = g8, 5 = b7, 29 = b1, 32 = h1.
pub fn mirrored_square_to_rc(size: usize, n: u8) -> (i32, i32) {
    let per_row = (size / 2) as i32;
    let i = (n as i32 - 1) / per_row;
    let k = (n as i32 - 1) % per_row;
    let col = if i % 2 == 0 { 2 * k } else { 2 * k + 1 };
    (i, col)
}

/// Square number of `(row, col)` on the mirrored board, or `None` off the board or on a square
/// that is not playable there (a1 is not: rules.md §6 Notes).
pub fn mirrored_rc_to_square(size: usize, row: i32, col: i32) -> Option<u8> {
    let s = size as i32;
    if row < 0 || col < 0 || row >= s || col >= s || (row + col) % 2 == 1 {
        return None;
    }
    Some((row * (s / 2) + col / 2 + 1) as u8)
}

/// `(row, col)` of square `n` on a board where every square is playable (Turkish, Armenian):
/// 1..64 row by row from the top, left to right as White sees it (1 = a8, 8 = h8, 57 = a1,
/// 64 = h1).
pub fn full_square_to_rc(size: usize, n: u8) -> (i32, i32) {
    let s = size as i32;
    ((n as i32 - 1) / s, (n as i32 - 1) % s)
}

/// Square number of `(row, col)` when every square is playable, or `None` off the board.
pub fn full_rc_to_square(size: usize, row: i32, col: i32) -> Option<u8> {
    let s = size as i32;
    if row < 0 || col < 0 || row >= s || col >= s {
        return None;
    }
    Some((row * s + col + 1) as u8)
}

/// The four diagonal directions.
const DIAGONALS: [(i32, i32); 4] = [(-1, -1), (-1, 1), (1, -1), (1, 1)];

/// The four orthogonal lines of dark squares (Frisian Art. 7, rules.md §2.4): the next dark
/// square in the same row is two columns away, in the same column two rows away.
const ORTHOGONALS: [(i32, i32); 4] = [(0, -2), (0, 2), (-2, 0), (2, 0)];

type Rc = (i32, i32);

// ---------------------------------------------------------------------------------------------
// Position set-up, FEN
// ---------------------------------------------------------------------------------------------

impl RefPos {
    /// An empty board with White to move.
    pub fn empty(v: RefVariant) -> RefPos {
        RefPos {
            variant: v,
            board: [[None; 12]; 12],
            to_move: Side::White,
            king_counters: [KingCounter::default(); 2],
            turkish_promotion: TURKISH_MID_CAPTURE_PROMOTION,
            thai: ThaiRules::RULES_MD,
        }
    }

    /// The variant's initial position.
    pub fn start(v: RefVariant) -> RefPos {
        RefPos::from_fen(v, v.start_fen()).expect("start FEN is valid")
    }

    fn size(&self) -> usize {
        self.variant.size()
    }

    /// The piece on `(row, col)`; `None` for an empty square. Must be on the board.
    fn at(&self, rc: Rc) -> Option<Piece> {
        self.board[rc.0 as usize][rc.1 as usize]
    }

    fn set(&mut self, rc: Rc, p: Option<Piece>) {
        self.board[rc.0 as usize][rc.1 as usize] = p;
    }

    fn on_board(&self, rc: Rc) -> bool {
        self.variant.rc_to_square(rc.0, rc.1).is_some()
    }

    fn sq(&self, rc: Rc) -> u8 {
        self.variant.rc_to_square(rc.0, rc.1).expect("a playable square")
    }

    fn rc(&self, n: u8) -> Rc {
        self.variant.square_to_rc(n)
    }

    /// The piece on square `n` (1-based).
    pub fn piece(&self, n: u8) -> Option<Piece> {
        self.at(self.rc(n))
    }

    /// Puts (or removes) a piece on square `n`.
    pub fn put(&mut self, n: u8, p: Option<Piece>) {
        let rc = self.rc(n);
        self.set(rc, p);
    }

    /// Sets one player's Frisian king-move counter (for tests; FEN does not carry it).
    pub fn with_king_counter(mut self, side: Side, count: u8, square: u8) -> RefPos {
        self.king_counters[side.index()] = KingCounter { count, square };
        self
    }

    /// Sets the Turkish mid-capture promotion switch (for tests; see [`MidCapturePromotion`]).
    pub fn with_turkish_promotion(mut self, rule: MidCapturePromotion) -> RefPos {
        self.turkish_promotion = rule;
        self
    }

    /// Sets the Thai rule switches (see [`ThaiRules`]).
    pub fn with_thai_rules(mut self, rules: ThaiRules) -> RefPos {
        self.thai = rules;
        self
    }

    /// The king-move counter of `side`.
    pub fn king_counter(&self, side: Side) -> KingCounter {
        self.king_counters[side.index()]
    }

    /// Parses a PDN FEN with numeric squares (rules.md §7.2): `W:W31-50:B1-20`,
    /// `B:W18,24,K10:B12,K22`. Ranges and a trailing `.` are accepted; lidraughts' `H`/`F`
    /// clock fields are ignored.
    pub fn from_fen(v: RefVariant, fen: &str) -> Result<RefPos, String> {
        let text = fen.trim();
        let text = text.strip_suffix('.').unwrap_or(text);
        let mut fields = text.split(':');
        let mut pos = RefPos::empty(v);
        pos.to_move = match fields.next().map(str::trim) {
            Some("W") | Some("w") => Side::White,
            Some("B") | Some("b") => Side::Black,
            other => return Err(format!("bad side to move {other:?} in FEN {fen:?}")),
        };
        for field in fields {
            let field = field.trim();
            let mut chars = field.chars();
            let side = match chars.next() {
                Some('W') | Some('w') => Side::White,
                Some('B') | Some('b') => Side::Black,
                Some('H') | Some('F') => continue,
                _ => return Err(format!("bad field {field:?} in FEN {fen:?}")),
            };
            for item in chars.as_str().split(',') {
                let item = item.trim();
                if item.is_empty() {
                    continue;
                }
                let (king, body) = match item.strip_prefix(['K', 'k']) {
                    Some(rest) => (true, rest),
                    None => (false, item),
                };
                let (lo, hi) = match body.split_once('-') {
                    Some((a, b)) => (parse_square(v, a, fen)?, parse_square(v, b, fen)?),
                    None => {
                        let s = parse_square(v, body, fen)?;
                        (s, s)
                    }
                };
                if lo > hi {
                    return Err(format!("empty range {item:?} in FEN {fen:?}"));
                }
                for n in lo..=hi {
                    if pos.piece(n).is_some() {
                        return Err(format!("square {n} given twice in FEN {fen:?}"));
                    }
                    pos.put(n, Some(Piece { side, king }));
                }
            }
        }
        Ok(pos)
    }

    /// Writes the position as a numeric FEN, squares ascending, kings prefixed `K`, no ranges:
    /// `W:W31,32,...:B1,2,...`. The Frisian king counters are not written.
    pub fn to_fen(&self) -> String {
        let list = |side: Side| -> String {
            let items: Vec<String> = self
                .squares_of(side)
                .into_iter()
                .map(|(n, p)| if p.king { format!("K{n}") } else { n.to_string() })
                .collect();
            items.join(",")
        };
        let turn = match self.to_move {
            Side::White => "W",
            Side::Black => "B",
        };
        format!("{turn}:W{}:B{}", list(Side::White), list(Side::Black))
    }

    /// Number of men and kings of `side`.
    pub fn count(&self, side: Side) -> (usize, usize) {
        let pieces = self.squares_of(side);
        let kings = pieces.iter().filter(|(_, p)| p.king).count();
        (pieces.len() - kings, kings)
    }

    /// Every square holding a piece of `side`, ascending, with the piece.
    pub fn squares_of(&self, side: Side) -> Vec<(u8, Piece)> {
        let mut result = Vec::new();
        for n in 1..=self.variant.squares() {
            if let Some(p) = self.piece(n)
                && p.side == side
            {
                result.push((n, p));
            }
        }
        result
    }
}

fn parse_square(v: RefVariant, s: &str, fen: &str) -> Result<u8, String> {
    let n: u8 = s
        .trim()
        .parse()
        .map_err(|_| format!("bad square {s:?} in FEN {fen:?}"))?;
    if n == 0 || n > v.squares() {
        return Err(format!("square {n} out of range in FEN {fen:?}"));
    }
    Ok(n)
}

// ---------------------------------------------------------------------------------------------
// Capture search
// ---------------------------------------------------------------------------------------------

/// One possible jump from a square: the enemy piece jumped and the squares the piece may land on.
struct Jump {
    /// Direction of the jump, `(drow, dcol)`.
    dir: (i32, i32),
    victim: Rc,
    landings: Vec<Rc>,
}

/// A complete capture sequence found by the search, before precedence is applied.
struct Sequence {
    mv: RefMove,
    /// The capturing piece was a king when the move started (Frisian Art. 12, Italian, Czech).
    by_king: bool,
    /// How many of the captured pieces are kings (Spanish, Italian precedence).
    kings_captured: usize,
    /// 0-based jump numbers at which kings were captured, in order (Italian, FID art. 6.9: the
    /// sequence that meets the kings earliest, every king compared, not only the first).
    king_jumps: Vec<usize>,
}

/// Everything the recursive search needs. `board` is the position with the moving piece lifted
/// off its start square: the start square counts as empty during the capture (FMJD 4.8), while
/// captured pieces stay on the board until the move is over (FMJD 4.11, Turkish strike) and so
/// block the lines; they are listed in `captured` and may not be jumped again (FMJD 4.8).
struct CaptureSearch<'a> {
    board: &'a RefPos,
    side: Side,
    from: Rc,
    started_as_king: bool,
    found: Vec<Sequence>,
}

impl CaptureSearch<'_> {
    fn variant(&self) -> RefVariant {
        self.board.variant
    }

    fn promotion_row(&self) -> i32 {
        match self.side {
            Side::White => 0,
            Side::Black => self.board.size() as i32 - 1,
        }
    }

    /// Directions in which a piece of this kind captures.
    fn capture_directions(&self, king: bool) -> Vec<(i32, i32)> {
        let v = self.variant();
        if v.is_frisian() {
            // Frisian Art. 7, 9, 10: men and kings capture along the 4 diagonals and the
            // 4 orthogonal lines, forward and backward.
            let mut dirs = DIAGONALS.to_vec();
            dirs.extend_from_slice(&ORTHOGONALS);
            dirs
        } else if v.men_capture_forward_only() && !king {
            // English checkers, Italian, Spanish / Portuguese, Czech: men capture forward only
            // (rules.md §6).
            let f = self.side.forward();
            vec![(f, -1), (f, 1)]
        } else {
            // FMJD 4.1-4.2 (men capture backward too), Russian §3.3, pool checkers (rules.md §6),
            // and every king.
            DIAGONALS.to_vec()
        }
    }

    /// A piece that is an enemy of the mover and has not been jumped yet in this sequence.
    fn is_capturable(&self, rc: Rc, captured: &[Rc]) -> bool {
        match self.board.at(rc) {
            Some(p) => p.side != self.side && !captured.contains(&rc),
            None => false,
        }
    }

    fn is_empty(&self, rc: Rc) -> bool {
        self.board.on_board(rc) && self.board.at(rc).is_none()
    }

    /// Every jump available to a piece on `at`.
    fn jumps(&self, at: Rc, king: bool, captured: &[Rc]) -> Vec<Jump> {
        let flying = king && !self.variant().short_kings();
        let mut result = Vec::new();
        for (dr, dc) in self.capture_directions(king) {
            if flying {
                // Flying king (FMJD 4.3, 4.6; Russian §3.3; Frisian Art. 9): any number of empty
                // squares, an enemy piece, then one or more empty squares to land on.
                let mut cur = (at.0 + dr, at.1 + dc);
                while self.is_empty(cur) {
                    cur = (cur.0 + dr, cur.1 + dc);
                }
                if !self.board.on_board(cur) || !self.is_capturable(cur, captured) {
                    // Off the board, an own piece, or an already captured piece: blocked.
                    continue;
                }
                let victim = cur;
                let mut landings = Vec::new();
                let mut land = (victim.0 + dr, victim.1 + dc);
                while self.is_empty(land) {
                    landings.push(land);
                    land = (land.0 + dr, land.1 + dc);
                }
                if !landings.is_empty() {
                    result.push(Jump {
                        dir: (dr, dc),
                        victim,
                        landings,
                    });
                }
            } else {
                // Man (and English / Italian short king): piece, enemy, empty on consecutive
                // squares.
                let victim = (at.0 + dr, at.1 + dc);
                let land = (at.0 + 2 * dr, at.1 + 2 * dc);
                if !king
                    && self.variant() == RefVariant::Italian
                    && self.board.on_board(victim)
                    && self.board.at(victim).is_some_and(|p| p.king)
                {
                    // Italian (FID, rules.md §6): men may not capture kings.
                    continue;
                }
                if self.board.on_board(victim) && self.is_capturable(victim, captured) && self.is_empty(land)
                {
                    result.push(Jump {
                        dir: (dr, dc),
                        victim,
                        landings: vec![land],
                    });
                }
            }
        }
        result
    }

    /// Extends the sequence ending on `at`. `path` holds every square visited so far,
    /// `captured` the pieces jumped so far, in order.
    ///
    /// `straight_on`: the direction of the previous jump when the king landed on `at` further
    /// than the square right behind its victim. Going on in that same direction from here is the
    /// same physical movement as going on from the square right behind the victim (the king
    /// simply runs along one line over two pieces), so that path is produced only from there
    /// (rules.md §7.3, PDN 3.0: with no turn, the intermediate square is the one immediately
    /// behind the captured piece). This is what the published `kept` perft counts assume.
    fn extend(
        &mut self,
        at: Rc,
        king: bool,
        straight_on: Option<(i32, i32)>,
        captured: &mut Vec<Rc>,
        path: &mut Vec<Rc>,
    ) {
        let jumps = self.jumps(at, king, captured);
        if jumps.is_empty() {
            // A sequence must be continued as long as possible (FMJD 4.5, Russian §3.3,
            // Frisian Art. 10): it ends only here, where no further jump exists.
            if !captured.is_empty() && self.killer_allows_stop(at, king, captured, path) {
                self.record(king, captured, path);
            }
            return;
        }
        for jump in jumps {
            if straight_on == Some(jump.dir) {
                // Produced from the square right behind the previous victim (see above).
                continue;
            }
            let mut landings = jump.landings;
            let free_choice = matches!(
                self.variant(),
                RefVariant::Russian | RefVariant::Czech | RefVariant::Pool
            );
            if free_choice && king && landings.len() > 1 {
                // Russian (rules.md §3.3, lidraughts walkAfterCapture), and by D-A1's "a capture
                // once begun must be continued" Czech and pool checkers, whose precedence keeps
                // short sequences too: after a king's capture, if a further capture is possible
                // from some landing square on that line, the king must land on such a square.
                // (In the majority variants the precedence rules already discard the shorter
                // sequence, so no special case is needed there.)
                captured.push(jump.victim);
                let continuing: Vec<Rc> = landings
                    .iter()
                    .copied()
                    .filter(|&l| !self.jumps(l, true, captured).is_empty())
                    .collect();
                captured.pop();
                if !continuing.is_empty() {
                    landings = continuing;
                }
            }
            for land in landings {
                let right_behind = (jump.victim.0 + jump.dir.0, jump.victim.1 + jump.dir.1);
                let straight_on = (land != right_behind).then_some(jump.dir);
                captured.push(jump.victim);
                path.push(land);
                let reaches_last_row = !king && land.0 == self.promotion_row();
                match (self.variant(), reaches_last_row) {
                    // Russian FSR 1.5.15 (rules.md §3.3): a man reaching the last row during a
                    // capture becomes a king at once and continues capturing as a king.
                    (RefVariant::Russian, true) => self.extend(land, true, straight_on, captured, path),
                    // English checkers (rules.md §6) and Italian (FID): a man reaching the king
                    // row is crowned and the move ends there.
                    (RefVariant::English | RefVariant::Italian, true) => self.record(true, captured, path),
                    // FMJD 4.15 / Frisian Art. 8 / pool checkers (rules.md §6): passing the last
                    // row the man stays a man (and goes on capturing as a man, backward too in
                    // pool). Spanish and Czech men capture forward only, so one on the last row
                    // has no further jump and is crowned where the move ends (`record`).
                    _ => self.extend(land, king, straight_on, captured, path),
                }
                path.pop();
                captured.pop();
            }
        }
    }

    /// Killer draughts (rules.md §6): when the last piece a king captures is a king, the king
    /// halts on the square right behind it. Every other sequence may stop where it ends.
    fn killer_allows_stop(&self, at: Rc, king: bool, captured: &[Rc], path: &[Rc]) -> bool {
        if self.variant() != RefVariant::Killer || !king {
            return true;
        }
        let victim = *captured.last().expect("a capture");
        if !self
            .board
            .at(victim)
            .expect("captured piece stays until the end")
            .king
        {
            return true;
        }
        // The square before `at` on the path is where the king jumped from; the line runs on.
        let before = path[path.len() - 2];
        let dir = ((at.0 - before.0).signum(), (at.1 - before.1).signum());
        at == (victim.0 + dir.0, victim.1 + dir.1)
    }

    /// Stores a finished sequence. `king_now` tells whether the piece is a king at its end.
    fn record(&mut self, king_now: bool, captured: &[Rc], path: &[Rc]) {
        let last = *path.last().expect("path has the start square");
        let promotes = !self.started_as_king
            && (king_now // Russian promotion on the way, or English ending on the king row
                || last.0 == self.promotion_row()); // FMJD 3.5, 4.15: ends on the last row
        let mut captured_squares: Vec<u8> = captured.iter().map(|&c| self.board.sq(c)).collect();
        captured_squares.sort_unstable();
        // Captured pieces are still on the board (FMJD 4.11), so their kind can be read there.
        let is_king = |c: &Rc| self.board.at(*c).is_some_and(|p| p.king);
        let kings_captured = captured.iter().filter(|c| is_king(c)).count();
        let king_jumps: Vec<usize> = (0..captured.len()).filter(|&j| is_king(&captured[j])).collect();
        self.found.push(Sequence {
            mv: RefMove {
                from: self.board.sq(self.from),
                to: self.board.sq(last),
                captured: captured_squares,
                path: path.iter().map(|&p| self.board.sq(p)).collect(),
                promotes,
            },
            by_king: self.started_as_king,
            kings_captured,
            king_jumps,
        });
    }
}

// ---------------------------------------------------------------------------------------------
// Move generation
// ---------------------------------------------------------------------------------------------

/// The sequences whose `key` is the largest (one step of a precedence rule).
fn keep_best<K: Ord>(seqs: Vec<Sequence>, key: impl Fn(&Sequence) -> K) -> Vec<Sequence> {
    let Some(best) = seqs.iter().map(&key).max() else {
        return seqs;
    };
    seqs.into_iter().filter(|s| key(s) == best).collect()
}

impl RefPos {
    /// Every dark square holding a piece of `side`, as `(row, col)`.
    fn pieces_of(&self, side: Side) -> Vec<Rc> {
        self.squares_of(side)
            .into_iter()
            .map(|(n, _)| self.rc(n))
            .collect()
    }

    /// All complete capture sequences of the side to move, before precedence.
    fn all_captures(&self) -> Vec<Sequence> {
        let side = self.to_move;
        let mut found = Vec::new();
        for from in self.pieces_of(side) {
            let piece = self.at(from).expect("own piece");
            let mut lifted = self.clone();
            lifted.set(from, None);
            let mut search = CaptureSearch {
                board: &lifted,
                side,
                from,
                started_as_king: piece.king,
                found: Vec::new(),
            };
            let mut captured = Vec::new();
            let mut path = vec![from];
            search.extend(from, piece.king, None, &mut captured, &mut path);
            found.append(&mut search.found);
        }
        found
    }

    /// Frisian value of a captured set (Art. 11, rules.md §2.5, dctl key with N = 50):
    /// `(men + 2*kings) * 50 - kings`.
    fn frisian_value(&self, captured: &[u8]) -> i64 {
        let mut men = 0i64;
        let mut kings = 0i64;
        for &n in captured {
            if self.piece(n).expect("captured piece").king {
                kings += 1;
            } else {
                men += 1;
            }
        }
        (men + 2 * kings) * 50 - kings
    }

    /// Keeps only the sequences the precedence rule of the variant allows.
    fn apply_precedence(&self, seqs: Vec<Sequence>) -> Vec<Sequence> {
        match self.variant {
            // FMJD 4.13-4.14 (Brazilian = International on 8x8): the largest number of pieces,
            // a king counting as a man; free choice among equals.
            RefVariant::International | RefVariant::Brazilian | RefVariant::Canadian | RefVariant::Killer => {
                let best = seqs.iter().map(|s| s.mv.captured.len()).max().unwrap_or(0);
                seqs.into_iter().filter(|s| s.mv.captured.len() == best).collect()
            }
            // Russian §3.3, English and pool checkers (rules.md §6): free choice among capture
            // sequences.
            RefVariant::Russian | RefVariant::English | RefVariant::Pool => seqs,
            // Spanish / Portuguese (rules.md §6): the most pieces, then the most kings among
            // them; free choice among equals.
            RefVariant::Spanish => {
                let top = keep_best(seqs, |s| s.mv.captured.len());
                keep_best(top, |s| s.kings_captured)
            }
            // Italian (FID, rules.md §6): the most pieces; then a capture with a king before one
            // with a man; then the most kings captured; then the sequence that meets the kings
            // earliest: the jump numbers of all its kings compared in order, first against first,
            // then second against second (art. 6.9). Free choice among sequences equal on all four.
            RefVariant::Italian => {
                let top = keep_best(seqs, |s| s.mv.captured.len());
                let top = keep_best(top, |s| s.by_king);
                let top = keep_best(top, |s| s.kings_captured);
                // Equal king counts here, so the lists have equal lengths and compare element by
                // element: the smaller list met its kings earlier.
                keep_best(top, |s| std::cmp::Reverse(s.king_jumps.clone()))
            }
            // Czech (rules.md §6): if a king can capture, a king's capture must be made (any of
            // them); otherwise free choice among the men's sequences.
            RefVariant::Czech => keep_best(seqs, |s| s.by_king),
            // Frisian Art. 11: the highest value; Art. 12: on equal value a king must capture.
            RefVariant::Frisian | RefVariant::Frysk => {
                let best = seqs
                    .iter()
                    .map(|s| self.frisian_value(&s.mv.captured))
                    .max()
                    .unwrap_or(0);
                let top: Vec<Sequence> = seqs
                    .into_iter()
                    .filter(|s| self.frisian_value(&s.mv.captured) == best)
                    .collect();
                if top.iter().any(|s| s.by_king) {
                    top.into_iter().filter(|s| s.by_king).collect()
                } else {
                    top
                }
            }
            RefVariant::Turkish | RefVariant::Armenian | RefVariant::Thai => {
                unreachable!("Turkish, Armenian and Thai have their own move generators")
            }
        }
    }

    /// Frisian Art. 17 (rules.md §2.6, D-F3): may the king on `rc` make a non-capturing move?
    fn king_may_step(&self, rc: Rc) -> bool {
        if !self.variant.is_frisian() {
            return true;
        }
        let (men, kings) = self.count(self.to_move);
        // The restriction applies only while the player has at least one king and one man.
        if men == 0 || kings == 0 {
            return true;
        }
        let counter = self.king_counter(self.to_move);
        !(counter.count >= 3 && counter.square == self.sq(rc))
    }

    /// Non-capturing moves of the side to move.
    fn simple_moves(&self) -> Vec<RefMove> {
        let side = self.to_move;
        let promotion_row = match side {
            Side::White => 0,
            Side::Black => self.size() as i32 - 1,
        };
        let mut result = Vec::new();
        for from in self.pieces_of(side) {
            let piece = self.at(from).expect("own piece");
            let from_sq = self.sq(from);
            let mut add = |to: Rc, promotes: bool| {
                let to_sq = self.sq(to);
                result.push(RefMove {
                    from: from_sq,
                    to: to_sq,
                    captured: Vec::new(),
                    path: vec![from_sq, to_sq],
                    promotes,
                });
            };
            if !piece.king {
                // A man steps one square diagonally forward (FMJD 3.4, Frisian Art. 7, §3.3, §6);
                // it promotes when it stops on the last row (FMJD 3.5).
                let f = side.forward();
                for dc in [-1, 1] {
                    let to = (from.0 + f, from.1 + dc);
                    if self.on_board(to) && self.at(to).is_none() {
                        add(to, to.0 == promotion_row);
                    }
                }
            } else if self.king_may_step(from) {
                // Kings move along the 4 diagonals only (Frisian Art. 7: not orthogonally):
                // any distance (flying, FMJD 3.6) or one step in English checkers and Italian.
                let max_steps = if self.variant.short_kings() {
                    1
                } else {
                    self.size() as i32
                };
                for (dr, dc) in DIAGONALS {
                    for k in 1..=max_steps {
                        let to = (from.0 + k * dr, from.1 + k * dc);
                        if !self.on_board(to) || self.at(to).is_some() {
                            break;
                        }
                        add(to, false);
                    }
                }
            }
        }
        result
    }

    /// The legal moves of the side to move, with the variant's precedence applied. Captures are
    /// compulsory. With `keep_duplicates == false`, capture paths with the same start, end,
    /// captured set (and promotion flag) count as one move (D-A1); otherwise every path is kept.
    pub fn moves(&self, keep_duplicates: bool) -> Vec<RefMove> {
        if self.variant.uses_every_square() {
            return self.orthogonal_moves(keep_duplicates, false);
        }
        if self.variant == RefVariant::Thai {
            return self.thai_moves(keep_duplicates);
        }
        let captures = self.all_captures();
        if captures.is_empty() {
            return self.simple_moves();
        }
        let allowed = self.apply_precedence(captures);
        let mut result: Vec<RefMove> = Vec::new();
        for seq in allowed {
            let duplicate = !keep_duplicates
                && result.iter().any(|m| {
                    m.from == seq.mv.from
                        && m.to == seq.mv.to
                        && m.captured == seq.mv.captured
                        && m.promotes == seq.mv.promotes
                });
            if !duplicate {
                result.push(seq.mv);
            }
        }
        result
    }

    /// The position after `m` (which must be legal here).
    pub fn play(&self, m: &RefMove) -> RefPos {
        let side = self.to_move;
        let mut next = self.clone();
        let piece = self.piece(m.from).expect("a piece on the start square");
        // Captured pieces are removed only now, after the whole move (FMJD 4.11).
        next.put(m.from, None);
        for &c in &m.captured {
            next.put(c, None);
        }
        next.put(
            m.to,
            Some(Piece {
                side,
                king: piece.king || m.promotes,
            }),
        );
        next.to_move = side.other();

        if self.variant.is_frisian() {
            // Frisian Art. 17 bookkeeping (rules.md §2.6, lidraughts).
            let own = &mut next.king_counters[side.index()];
            if !piece.king || !m.captured.is_empty() {
                // A man move or any capture lifts the restriction.
                *own = KingCounter::default();
            } else if own.count > 0 && own.square == m.from {
                // Another non-capturing move with the same king.
                *own = KingCounter {
                    count: own.count + 1,
                    square: m.to,
                };
            } else {
                // A non-capturing move with a different king starts a new count.
                *own = KingCounter {
                    count: 1,
                    square: m.to,
                };
            }
            // The opponent's counter is cleared when its tracked king is captured.
            let opp = &mut next.king_counters[side.other().index()];
            if opp.count > 0 && m.captured.contains(&opp.square) {
                *opp = KingCounter::default();
            }
            // A player without men is not restricted: his counter is cleared.
            for s in [Side::White, Side::Black] {
                if next.count(s).0 == 0 {
                    next.king_counters[s.index()] = KingCounter::default();
                }
            }
        }
        next
    }
}

// ---------------------------------------------------------------------------------------------
// Turkish (Dama) and Armenian (Tama): every square, orthogonal captures (rules.md §6)
// ---------------------------------------------------------------------------------------------

/// What a man that reaches the last row in the middle of a capture does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MidCapturePromotion {
    /// (a) It stays a man until the move is over (going on, if it can, as a man, i.e. sideways
    /// along the last row) and is crowned at the end, standing on the last row.
    AtEnd,
    /// (b) It becomes a king at once and goes on capturing as a king.
    AtOnce,
}

/// ===> THE TURKISH MID-CAPTURE PROMOTION SWITCH <===
///
/// rules.md §6 does not say what a Turkish man does when it reaches the last row in the middle
/// of a capture. The published perft counts (kish, d1-d9) do NOT decide it: both settings
/// reproduce every one of them (checked to d9 with each, `tests/reference_selftest.rs`), because
/// from the start position no capture that crosses the last row with more to take arises within
/// 9 plies. `AtOnce` is chosen because it is what kish, the source of those counts, implements
/// (its move generator: "a man that reaches the promotion row during a capture becomes a king
/// immediately and must continue capturing as a king"), and it matches the Russian and Armenian
/// rule (rules.md §6). Hand-made positions (`turkish_mid_capture_promotion_switch`) show the
/// two settings do differ.
pub const TURKISH_MID_CAPTURE_PROMOTION: MidCapturePromotion = MidCapturePromotion::AtOnce;

/// The four orthogonal steps on a board where every square is used.
const ROOK_STEPS: [(i32, i32); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];

/// The eight steps of an Armenian king (orthogonal and diagonal).
const QUEEN_STEPS: [(i32, i32); 8] = [
    (-1, 0),
    (1, 0),
    (0, -1),
    (0, 1),
    (-1, -1),
    (-1, 1),
    (1, -1),
    (1, 1),
];

/// Capture search for Turkish and Armenian. Unlike [`CaptureSearch`], the board is changed as the
/// search goes: a captured piece is taken off the moment it is jumped (rules.md §6 Turkish row
/// "captured pieces removed immediately"; Armenian assumed the same, and rules.md §8), so a later
/// jump may pass over or land on its square, and the moving piece's start square is empty.
struct OrthogonalSearch {
    side: Side,
    from: Rc,
    started_as_king: bool,
    /// Does a man reaching the last row mid-capture become a king at once (and go on as one)?
    crown_at_once: bool,
    /// Count a king's straight run over two pieces once per touch-down square (the kish
    /// convention, see [`RefPos::moves_every_path`]) instead of once (PDN 3.0, `straight_on`).
    every_landing: bool,
    promotion_row: i32,
    found: Vec<RefMove>,
}

impl OrthogonalSearch {
    /// Directions in which a piece captures (rules.md §6): men forward or sideways (never
    /// backward, never diagonally), kings along the four orthogonal lines, in both variants.
    fn capture_directions(&self, king: bool) -> Vec<(i32, i32)> {
        if king {
            ROOK_STEPS.to_vec()
        } else {
            vec![(self.side.forward(), 0), (0, -1), (0, 1)]
        }
    }

    /// Every jump available to a piece on `at` on `board`. `last_dir` is the direction of the
    /// previous jump of this sequence, if any.
    fn jumps(&self, board: &RefPos, at: Rc, king: bool, last_dir: Option<(i32, i32)>) -> Vec<Jump> {
        let mut result = Vec::new();
        for (dr, dc) in self.capture_directions(king) {
            if last_dir == Some((-dr, -dc)) {
                // rules.md §6 (Turkish and Armenian rows): no 180-degree turn within a capture.
                continue;
            }
            let is_enemy = |rc: Rc| board.on_board(rc) && board.at(rc).is_some_and(|p| p.side != self.side);
            let is_empty = |rc: Rc| board.on_board(rc) && board.at(rc).is_none();
            if king {
                // Flying orthogonal king: any number of empty squares, one enemy piece, then one
                // or more empty squares to land on.
                let mut cur = (at.0 + dr, at.1 + dc);
                while is_empty(cur) {
                    cur = (cur.0 + dr, cur.1 + dc);
                }
                if !is_enemy(cur) {
                    continue;
                }
                let victim = cur;
                let mut landings = Vec::new();
                let mut land = (victim.0 + dr, victim.1 + dc);
                while is_empty(land) {
                    landings.push(land);
                    land = (land.0 + dr, land.1 + dc);
                }
                if !landings.is_empty() {
                    result.push(Jump {
                        dir: (dr, dc),
                        victim,
                        landings,
                    });
                }
            } else {
                // Man: short leap over an adjacent enemy onto the empty square right behind it.
                let victim = (at.0 + dr, at.1 + dc);
                let land = (at.0 + 2 * dr, at.1 + 2 * dc);
                if is_enemy(victim) && is_empty(land) {
                    result.push(Jump {
                        dir: (dr, dc),
                        victim,
                        landings: vec![land],
                    });
                }
            }
        }
        result
    }

    /// Extends the sequence ending on `at`; see [`CaptureSearch::extend`] for `straight_on`
    /// (a king running along one line over two pieces makes one path, not one per touch-down
    /// square). `captured` holds the squares jumped so far, in order; they are empty on `board`.
    #[allow(clippy::too_many_arguments)]
    fn extend(
        &mut self,
        board: &mut RefPos,
        at: Rc,
        king: bool,
        last_dir: Option<(i32, i32)>,
        straight_on: Option<(i32, i32)>,
        captured: &mut Vec<Rc>,
        path: &mut Vec<Rc>,
    ) {
        let jumps = self.jumps(board, at, king, last_dir);
        if jumps.is_empty() {
            // The sequence ends only where no further jump exists; the maximum-capture rule
            // would discard a shorter one anyway.
            if !captured.is_empty() {
                self.record(board, king, captured, path);
            }
            return;
        }
        for jump in jumps {
            if straight_on == Some(jump.dir) && !self.every_landing {
                continue;
            }
            // Removed the moment it is jumped (rules.md §6).
            let victim_piece = board.at(jump.victim);
            board.set(jump.victim, None);
            captured.push(jump.victim);
            for &land in &jump.landings {
                let right_behind = (jump.victim.0 + jump.dir.0, jump.victim.1 + jump.dir.1);
                let straight_on = (land != right_behind).then_some(jump.dir);
                path.push(land);
                // Mid-capture promotion: Armenian always crowns at once (rules.md §6 Armenian
                // row); Turkish follows the switch `TURKISH_MID_CAPTURE_PROMOTION`.
                let crowned = !king && land.0 == self.promotion_row && self.crown_at_once;
                self.extend(
                    board,
                    land,
                    king || crowned,
                    Some(jump.dir),
                    straight_on,
                    captured,
                    path,
                );
                path.pop();
            }
            captured.pop();
            board.set(jump.victim, victim_piece);
        }
    }

    /// Stores a finished sequence. A man promotes if it was crowned on the way or ends on the
    /// last row (which a man, never moving backward, cannot leave once there).
    fn record(&mut self, board: &RefPos, king_now: bool, captured: &[Rc], path: &[Rc]) {
        let last = *path.last().expect("path has the start square");
        let promotes = !self.started_as_king && (king_now || last.0 == self.promotion_row);
        let mut captured_squares: Vec<u8> = captured.iter().map(|&c| board.sq(c)).collect();
        captured_squares.sort_unstable();
        self.found.push(RefMove {
            from: board.sq(self.from),
            to: board.sq(last),
            captured: captured_squares,
            path: path.iter().map(|&p| board.sq(p)).collect(),
            promotes,
        });
    }
}

impl RefPos {
    fn promotion_row_of(&self, side: Side) -> i32 {
        match side {
            Side::White => 0,
            Side::Black => self.size() as i32 - 1,
        }
    }

    /// All complete capture sequences (Turkish / Armenian) of the side to move.
    fn orthogonal_captures(&self, every_landing: bool) -> Vec<RefMove> {
        let side = self.to_move;
        let crown_at_once = match self.variant {
            RefVariant::Armenian => true,
            _ => self.turkish_promotion == MidCapturePromotion::AtOnce,
        };
        let mut found = Vec::new();
        for from in self.pieces_of(side) {
            let piece = self.at(from).expect("own piece");
            let mut board = self.clone();
            board.set(from, None);
            let mut search = OrthogonalSearch {
                side,
                from,
                started_as_king: piece.king,
                crown_at_once,
                every_landing,
                promotion_row: self.promotion_row_of(side),
                found: Vec::new(),
            };
            let mut captured = Vec::new();
            let mut path = vec![from];
            search.extend(&mut board, from, piece.king, None, None, &mut captured, &mut path);
            found.append(&mut search.found);
        }
        found
    }

    /// Non-capturing moves (Turkish / Armenian, rules.md §6): a Turkish man steps one square
    /// forward or sideways, an Armenian man also diagonally forward; a Turkish king slides any
    /// distance orthogonally, an Armenian king along all 8 lines. A man stopping on the last row
    /// promotes.
    fn orthogonal_simple_moves(&self) -> Vec<RefMove> {
        let side = self.to_move;
        let promotion_row = self.promotion_row_of(side);
        let f = side.forward();
        let mut result = Vec::new();
        for from in self.pieces_of(side) {
            let piece = self.at(from).expect("own piece");
            let from_sq = self.sq(from);
            let (steps, max_steps): (Vec<(i32, i32)>, i32) = match (self.variant, piece.king) {
                (RefVariant::Turkish, false) => (vec![(f, 0), (0, -1), (0, 1)], 1),
                (_, false) => (vec![(f, 0), (f, -1), (f, 1), (0, -1), (0, 1)], 1),
                (RefVariant::Turkish, true) => (ROOK_STEPS.to_vec(), self.size() as i32),
                (_, true) => (QUEEN_STEPS.to_vec(), self.size() as i32),
            };
            for (dr, dc) in steps {
                for k in 1..=max_steps {
                    let to = (from.0 + k * dr, from.1 + k * dc);
                    if !self.on_board(to) || self.at(to).is_some() {
                        break;
                    }
                    let to_sq = self.sq(to);
                    result.push(RefMove {
                        from: from_sq,
                        to: to_sq,
                        captured: Vec::new(),
                        path: vec![from_sq, to_sq],
                        promotes: !piece.king && to.0 == promotion_row,
                    });
                }
            }
        }
        result
    }

    /// Legal moves for Turkish / Armenian: captures are compulsory and the sequence taking the
    /// most pieces must be chosen, a king counting as a man (rules.md §6); duplicates merged as
    /// in [`RefPos::moves`] (D-A1).
    fn orthogonal_moves(&self, keep_duplicates: bool, every_landing: bool) -> Vec<RefMove> {
        let captures = self.orthogonal_captures(every_landing);
        if captures.is_empty() {
            return self.orthogonal_simple_moves();
        }
        let best = captures.iter().map(|m| m.captured.len()).max().unwrap_or(0);
        let mut result: Vec<RefMove> = Vec::new();
        for m in captures.into_iter().filter(|m| m.captured.len() == best) {
            let duplicate = !keep_duplicates
                && result.iter().any(|r| {
                    r.from == m.from && r.to == m.to && r.captured == m.captured && r.promotes == m.promotes
                });
            if !duplicate {
                result.push(m);
            }
        }
        result
    }
}

impl RefPos {
    /// Turkish / Armenian only: every capture path, with no merging and with a king's straight
    /// run over two pieces counted once per square it may touch down on between them (with 2
    /// empty squares between the pieces: 2 paths where `moves(true)` gives 1). This is how the
    /// kish engine counts, and so what its published Turkish perft numbers are (they are not
    /// merged counts in the D-A1 sense).
    pub fn moves_every_path(&self) -> Vec<RefMove> {
        assert!(
            self.variant.uses_every_square(),
            "moves_every_path is for Turkish / Armenian only"
        );
        self.orthogonal_moves(true, true)
    }
}

/// Perft counting with [`RefPos::moves_every_path`] (the kish convention; Turkish / Armenian).
pub fn perft_every_path(pos: &RefPos, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.moves_every_path();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|m| perft_every_path(&pos.play(m), depth - 1))
        .sum()
}

/// Number of leaf nodes of the legal-move tree at `depth` plies (no draw rules).
pub fn perft(pos: &RefPos, depth: u32, keep_duplicates: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.moves(keep_duplicates);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|m| perft(&pos.play(m), depth - 1, keep_duplicates))
        .sum()
}

/// Perft split by root move, as `(notation, count)` pairs, for debugging differences.
pub fn divide(pos: &RefPos, depth: u32, keep_duplicates: bool) -> Vec<(String, u64)> {
    pos.moves(keep_duplicates)
        .iter()
        .map(|m| {
            let n = if depth == 0 {
                1
            } else {
                perft(&pos.play(m), depth - 1, keep_duplicates)
            };
            (m.path_notation(), n)
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Thai (Mak-hot): flying kings that land right behind, pieces removed as jumped (rules.md §6)
// ---------------------------------------------------------------------------------------------

/// The details of the Thai capture that the sources state differently. rules.md §6 (Thai row):
/// "captured pieces removed as they are jumped (dctl `is_passing_capture`); a sequence continues
/// only in the same or a perpendicular direction (mindsports)"; the flying king "must land
/// immediately behind the captured piece".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThaiRules {
    /// May a capturing king turn back 180 degrees after a jump, over the square just emptied?
    /// rules.md: no (same or perpendicular direction only). dctl: yes, its
    /// `is_reverse_king_jump_v` is true for every long-ranged king with passing capture.
    pub king_turns_back: bool,
    /// Are the squares of pieces already jumped empty for the rest of the sequence (a king may pass
    /// over them)? rules.md: yes, the pieces are removed as they are jumped. `false` keeps them on
    /// the board as blockers until the move is over (FMJD 4.11 style), for comparison.
    pub jumped_squares_free: bool,
    /// Fewest captured pieces at which paths with the same start, end and captured set are merged
    /// when duplicates are merged. D-A1: 2 (every duplicate). dctl merges only from
    /// `large_jump_v` pieces on, which is 4 for its Thai rules.
    pub merge_from: usize,
}

impl ThaiRules {
    /// rules.md §6 and D-A1.
    pub const RULES_MD: ThaiRules = ThaiRules {
        king_turns_back: false,
        jumped_squares_free: true,
        merge_from: 2,
    };
    /// The dctl library's Thai rules (`thai.hpp` with the defaults of `type_traits.hpp`).
    pub const DCTL: ThaiRules = ThaiRules {
        king_turns_back: true,
        jumped_squares_free: true,
        merge_from: 4,
    };
}

/// Capture search for Thai. The board is changed as the search goes: the moving piece is lifted
/// off its start square, and each jumped piece is taken off at once (or, with
/// `jumped_squares_free == false`, left standing as a blocker that cannot be jumped again).
struct ThaiSearch {
    side: Side,
    from: Rc,
    started_as_king: bool,
    rules: ThaiRules,
    promotion_row: i32,
    found: Vec<RefMove>,
}

impl ThaiSearch {
    /// Every jump from `at`: `(direction, victim, landing)`. Men capture diagonally forward only,
    /// kings along the four diagonals from any distance; both land right behind the victim.
    fn jumps(
        &self,
        board: &RefPos,
        at: Rc,
        king: bool,
        last_dir: Option<Rc>,
        captured: &[Rc],
    ) -> Vec<(Rc, Rc, Rc)> {
        let dirs: Vec<Rc> = if king {
            DIAGONALS.to_vec()
        } else {
            let f = self.side.forward();
            vec![(f, -1), (f, 1)]
        };
        let is_empty = |rc: Rc| board.on_board(rc) && board.at(rc).is_none();
        let mut result = Vec::new();
        for (dr, dc) in dirs {
            if king && !self.rules.king_turns_back && last_dir == Some((-dr, -dc)) {
                continue;
            }
            let mut cur = (at.0 + dr, at.1 + dc);
            if king {
                while is_empty(cur) {
                    cur = (cur.0 + dr, cur.1 + dc);
                }
            }
            let enemy = board.on_board(cur)
                && board.at(cur).is_some_and(|p| p.side != self.side)
                && !captured.contains(&cur);
            let land = (cur.0 + dr, cur.1 + dc);
            if enemy && is_empty(land) {
                result.push(((dr, dc), cur, land));
            }
        }
        result
    }

    fn extend(
        &mut self,
        board: &mut RefPos,
        at: Rc,
        king: bool,
        last_dir: Option<Rc>,
        captured: &mut Vec<Rc>,
        path: &mut Vec<Rc>,
    ) {
        let jumps = self.jumps(board, at, king, last_dir, captured);
        if jumps.is_empty() {
            if !captured.is_empty() {
                self.record(board, captured, path);
            }
            return;
        }
        for (dir, victim, land) in jumps {
            let piece = board.at(victim);
            if self.rules.jumped_squares_free {
                board.set(victim, None);
            }
            captured.push(victim);
            path.push(land);
            if !king && land.0 == self.promotion_row {
                // rules.md §6 Thai row: a man reaching the last row during a capture stops there
                // and is crowned.
                self.record(board, captured, path);
            } else {
                self.extend(board, land, king, Some(dir), captured, path);
            }
            path.pop();
            captured.pop();
            board.set(victim, piece);
        }
    }

    fn record(&mut self, board: &RefPos, captured: &[Rc], path: &[Rc]) {
        let last = *path.last().expect("path has the start square");
        let mut squares: Vec<u8> = captured.iter().map(|&c| board.sq(c)).collect();
        squares.sort_unstable();
        self.found.push(RefMove {
            from: board.sq(self.from),
            to: board.sq(last),
            captured: squares,
            path: path.iter().map(|&p| board.sq(p)).collect(),
            promotes: !self.started_as_king && last.0 == self.promotion_row,
        });
    }
}

impl RefPos {
    /// Every complete Thai capture sequence of the side to move (free choice: no precedence).
    fn thai_captures(&self) -> Vec<RefMove> {
        let side = self.to_move;
        let mut found = Vec::new();
        for from in self.pieces_of(side) {
            let king = self.at(from).expect("own piece").king;
            let mut board = self.clone();
            board.set(from, None);
            let mut search = ThaiSearch {
                side,
                from,
                started_as_king: king,
                rules: self.thai,
                promotion_row: self.promotion_row_of(side),
                found: Vec::new(),
            };
            let mut path = vec![from];
            search.extend(&mut board, from, king, None, &mut Vec::new(), &mut path);
            found.append(&mut search.found);
        }
        found
    }

    /// Thai legal moves: a capture is compulsory, any sequence may be chosen (rules.md §6: free);
    /// duplicates merged from `self.thai.merge_from` captured pieces on.
    fn thai_moves(&self, keep_duplicates: bool) -> Vec<RefMove> {
        let captures = self.thai_captures();
        if captures.is_empty() {
            return self.simple_moves();
        }
        let mut result: Vec<RefMove> = Vec::new();
        for m in captures {
            let duplicate = !keep_duplicates
                && m.captured.len() >= self.thai.merge_from
                && result
                    .iter()
                    .any(|r| r.from == m.from && r.to == m.to && r.captured == m.captured);
            if !duplicate {
                result.push(m);
            }
        }
        result
    }
}
