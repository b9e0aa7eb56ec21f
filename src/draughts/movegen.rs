//! The move generator of the square-board family.
//!
//! One generator serves every variant: the rules constants of `R` and the side to move (a const
//! parameter) are fixed at compile time, so each variant gets its own straight-line code.
//!
//! Captures come first. Men that can capture are found for all men at once with shifts; each
//! capturing piece then walks its sequences depth first on a board where captured pieces stay put
//! until the move is complete (FMJD 4.11, the Turkish strike). Complete sequences go straight into
//! the move list against a running best precedence rank: a better sequence truncates the list, a
//! worse one is dropped, so no throwaway list is built. Duplicate paths (D-A1) are merged on entry.
//! Without a capture, quiet moves are generated, or for bulk counting only counted with popcounts.

use super::geom::Geometry;
use super::rules::{CapturePromotion, Movement, Precedence, Rules};
use super::{BitsOf, Draughts, Move};
use crate::bits::Bits;
use crate::game::{Duplicates, MoveList, Side};
use std::marker::PhantomData;

/// Up to eight directions and how many of them are used.
pub(super) type Dirs = ([i32; 8], usize);

const fn dirs(list: &[i32]) -> Dirs {
    let mut d = [0; 8];
    let mut i = 0;
    while i < list.len() {
        d[i] = list[i];
        i += 1;
    }
    (d, list.len())
}

/// The direction lists of a variant and side as constants: loops over them unroll, and each shift
/// compiles to one instruction instead of a branch on the sign of a runtime distance.
struct Directions<R, const WHITE: bool>(PhantomData<R>);

impl<R: Rules, const WHITE: bool> Directions<R, WHITE> {
    const MAN_STEP: Dirs = man_step_list::<R, WHITE>();
    const MAN_CAPTURE: Dirs = man_capture_list::<R, WHITE>();
    const KING_STEP: Dirs = king_step_list::<R>();
    const KING_CAPTURE: Dirs = king_capture_list::<R>();
}

/// Straight forward for this side: White moves up the board (towards square 1).
const fn ahead<R: Rules, const WHITE: bool>() -> i32 {
    if WHITE { R::Board::UP } else { R::Board::DOWN }
}

/// The two forward diagonals of this side.
const fn forward<R: Rules, const WHITE: bool>() -> [i32; 2] {
    if WHITE {
        [R::Board::UP_LEFT, R::Board::UP_RIGHT]
    } else {
        [R::Board::DOWN_LEFT, R::Board::DOWN_RIGHT]
    }
}

/// Directions in which men of this side step.
const fn man_step_list<R: Rules, const WHITE: bool>() -> Dirs {
    let [fl, fr] = forward::<R, WHITE>();
    let (f, l, r) = (ahead::<R, WHITE>(), R::Board::LEFT, R::Board::RIGHT);
    match R::MOVEMENT {
        Movement::Diagonal => dirs(&[fl, fr]),
        Movement::Orthogonal => dirs(&[f, l, r]),
        Movement::Tama => dirs(&[f, fl, fr, l, r]),
    }
}

/// The constant of `man_step_list`.
#[inline(always)]
pub(super) fn man_step_dirs<R: Rules, const WHITE: bool>() -> Dirs {
    Directions::<R, WHITE>::MAN_STEP
}

/// Directions in which men of this side capture: the four diagonals, or only the two forward ones
/// (FMJD 4.2; English men capture forward only), plus the orthogonals in Frisian (Art. 7); straight
/// forward and sideways in Turkish and Armenian.
const fn man_capture_list<R: Rules, const WHITE: bool>() -> Dirs {
    let [fl, fr] = forward::<R, WHITE>();
    let (f, l, r) = (ahead::<R, WHITE>(), R::Board::LEFT, R::Board::RIGHT);
    match R::MOVEMENT {
        Movement::Orthogonal | Movement::Tama => dirs(&[f, l, r]),
        Movement::Diagonal => match (R::MEN_CAPTURE_BACKWARD, R::ORTHOGONAL_CAPTURES) {
            (true, false) => dirs(&R::Board::DIAGONALS),
            (false, false) => dirs(&[fl, fr]),
            (true, true) => {
                let (o, d) = (R::Board::ORTHOGONALS, R::Board::DIAGONALS);
                dirs(&[d[0], d[1], d[2], d[3], o[0], o[1], o[2], o[3]])
            }
            (false, true) => {
                let o = R::Board::ORTHOGONALS;
                dirs(&[fl, fr, o[0], o[1], o[2], o[3]])
            }
        },
    }
}

/// The constant of `man_capture_list`.
#[inline(always)]
pub(super) fn man_capture_dirs<R: Rules, const WHITE: bool>() -> Dirs {
    Directions::<R, WHITE>::MAN_CAPTURE
}

/// Directions in which kings move without capturing.
const fn king_step_list<R: Rules>() -> Dirs {
    let (d, o) = (R::Board::DIAGONALS, R::Board::ORTHOGONALS);
    match R::MOVEMENT {
        Movement::Diagonal => dirs(&d),
        Movement::Orthogonal => dirs(&o),
        Movement::Tama => dirs(&[d[0], d[1], d[2], d[3], o[0], o[1], o[2], o[3]]),
    }
}

/// The constant of `king_step_list`.
#[inline(always)]
pub(super) fn king_step_dirs<R: Rules>() -> Dirs {
    Directions::<R, true>::KING_STEP
}

/// Directions in which kings capture.
const fn king_capture_list<R: Rules>() -> Dirs {
    let (d, o) = (R::Board::DIAGONALS, R::Board::ORTHOGONALS);
    match R::MOVEMENT {
        Movement::Orthogonal | Movement::Tama => dirs(&o),
        Movement::Diagonal if R::ORTHOGONAL_CAPTURES => {
            dirs(&[d[0], d[1], d[2], d[3], o[0], o[1], o[2], o[3]])
        }
        Movement::Diagonal => dirs(&d),
    }
}

/// The constant of `king_capture_list`.
#[inline(always)]
pub(super) fn king_capture_dirs<R: Rules>() -> Dirs {
    Directions::<R, true>::KING_CAPTURE
}

/// The row where this side's men are crowned.
#[inline(always)]
fn promotion_row<R: Rules, const WHITE: bool>() -> BitsOf<R> {
    if WHITE {
        R::Board::TOP_ROW
    } else {
        R::Board::BOTTOM_ROW
    }
}

/// Squares reached by sliding from `from` in direction `d` over `empty` (not including `from`);
/// one step only for short-range kings.
#[inline(always)]
fn slide<R: Rules>(from: BitsOf<R>, d: i32, empty: BitsOf<R>) -> BitsOf<R> {
    if !R::FLYING_KINGS {
        return R::Board::step(from, d) & empty;
    }
    let mut all = BitsOf::<R>::EMPTY;
    for sq in from.iter() {
        // The line up to its first blocked square: the line from that square on is cut away.
        let ray = R::Board::ray(sq, d);
        let blocked = ray & !empty;
        all |= if blocked.is_empty() {
            ray
        } else {
            let b = nearest::<R>(blocked, d);
            ray & !(R::Board::ray(b, d) | BitsOf::<R>::bit(b))
        };
    }
    all
}

/// The member of `set`, a subset of a line running in direction `d`, that comes first along it:
/// the lowest bit when the line runs towards higher bits, the highest otherwise.
#[inline(always)]
fn nearest<R: Rules>(set: BitsOf<R>, d: i32) -> u32 {
    if d > 0 { set.lowest() } else { set.highest() }
}

/// Men of this side that have a capture, all found at once.
#[inline(always)]
fn capturing_men<R: Rules, const WHITE: bool>(men: BitsOf<R>, opp: BitsOf<R>, empty: BitsOf<R>) -> BitsOf<R> {
    let (dirs, n) = man_capture_dirs::<R, WHITE>();
    let mut found = BitsOf::<R>::EMPTY;
    for &d in &dirs[..n] {
        found |= men & R::Board::step(opp, -d) & R::Board::step(R::Board::step(empty, -d), -d);
    }
    found
}

/// Whether any of `kings` has a capture.
#[inline(always)]
fn kings_can_capture<R: Rules>(kings: BitsOf<R>, opp: BitsOf<R>, empty: BitsOf<R>) -> bool {
    if kings.is_empty() {
        return false;
    }
    let (dirs, n) = king_capture_dirs::<R>();
    dirs[..n].iter().any(|&d| {
        // Short-range kings capture only an adjacent piece.
        let reach = if R::FLYING_KINGS {
            slide::<R>(kings, d, empty) | kings
        } else {
            kings
        };
        let hit = R::Board::step(reach, d) & opp;
        !(R::Board::step(hit, d) & empty).is_empty()
    })
}

/// Bits of the Italian king-jump mask (`Captures::kings_met`): one per jump a sequence can make.
/// A piece on the edge cannot be jumped, so on the 8x8 board no capture takes more than the 18
/// pieces off the edge, whatever position a FEN sets up.
const KING_JUMP_BITS: u32 = 18;

/// State of the depth-first walk over the capture sequences of one side.
struct Captures<'a, R: Rules> {
    list: &'a mut MoveList<Move<BitsOf<R>>>,
    /// Opponent pieces; captured ones stay here (and keep blocking) until the move is played.
    opp: BitsOf<R>,
    opp_kings: BitsOf<R>,
    /// Empty squares, the capturing piece's start square included.
    empty: BitsOf<R>,
    from: u8,
    by_king: bool,
    best: u32,
    keep: bool,
    /// A king's straight run counts once per square it could stop on ([`Duplicates::Landings`]).
    landings: bool,
    /// The jumps of the current sequence that took a king, jump `j` (from 1) as bit
    /// `KING_JUMP_BITS - j`, so that a larger value met its kings earlier (Italian).
    kings_met: u32,
}

impl<'a, R: Rules> Captures<'a, R> {
    /// A walk over a side's captures against `opp` (kings `opp_kings`) with `empty` squares,
    /// recording into `list` under the duplicate policy `dup`; `from`, `by_king` and `empty` are
    /// set per capturing piece.
    #[inline(always)]
    fn new(
        list: &'a mut MoveList<Move<BitsOf<R>>>,
        opp: BitsOf<R>,
        opp_kings: BitsOf<R>,
        empty: BitsOf<R>,
        dup: Duplicates,
    ) -> Self {
        Captures {
            list,
            opp,
            opp_kings,
            empty,
            from: 0,
            by_king: false,
            best: 0,
            keep: dup.keeps_paths(),
            landings: dup == Duplicates::Landings,
            kings_met: 0,
        }
    }
}

impl<R: Rules> Captures<'_, R> {
    /// Precedence rank of a complete sequence: the list keeps only the highest.
    #[inline(always)]
    fn rank(&self, captured: BitsOf<R>) -> u32 {
        match R::PRECEDENCE {
            Precedence::Free => 0,
            // FMJD 4.13: the most pieces, a king counting as a man.
            Precedence::Quantity => captured.count(),
            // Frisian Art. 11-12 in dctl's integer form: (men + 2 kings) * 50 - kings, so a king
            // is worth more than a man and less than two; the low bit prefers a capturing king.
            Precedence::FrisianValue => {
                let kings = (captured & self.opp_kings).count();
                let men = captured.count() - kings;
                (((men + 2 * kings) * 50 - kings) << 1) | u32::from(self.by_king)
            }
            Precedence::QuantityThenKings => (captured.count() << 8) | (captured & self.opp_kings).count(),
            // FID art. 6.9: pieces, then capturing with a king, then kings captured, then where
            // the kings were met, every one compared earliest first. With equal king counts the
            // jump masks' highest differing bit is the first jump where one sequence took a king
            // and the other did not, so comparing the masks as integers decides it.
            Precedence::Italian => {
                (captured.count() << 24)
                    | (u32::from(self.by_king) << 23)
                    | ((captured & self.opp_kings).count() << KING_JUMP_BITS)
                    | self.kings_met
            }
            Precedence::KingFirst => u32::from(self.by_king),
        }
    }

    /// Squares a capturing piece may pass and land on: with immediate removal (Thai) the pieces
    /// already captured have left the board.
    #[inline(always)]
    fn free(&self, captured: BitsOf<R>) -> BitsOf<R> {
        if R::IMMEDIATE_REMOVAL {
            self.empty | captured
        } else {
            self.empty
        }
    }

    /// Notes whether this jump (the `taken.count()`-th) took a king (Italian precedence); returns
    /// the value to restore when the walk backs up.
    #[inline(always)]
    fn note_king(&mut self, taken: BitsOf<R>, victim: BitsOf<R>) -> u32 {
        let saved = self.kings_met;
        if R::PRECEDENCE == Precedence::Italian {
            debug_assert!(taken.count() <= KING_JUMP_BITS);
            let king = u32::from(!(victim & self.opp_kings).is_empty());
            self.kings_met |= king << (KING_JUMP_BITS - taken.count());
        }
        saved
    }

    /// Records a complete sequence ending on `to`.
    #[inline]
    fn record(&mut self, to: BitsOf<R>, captured: BitsOf<R>, promotes: bool) {
        let rank = self.rank(captured);
        if rank < self.best {
            return;
        }
        if rank > self.best {
            self.list.clear();
            self.best = rank;
        }
        let mv = Move {
            captured,
            from: self.from,
            to: to.lowest() as u8,
            promotes,
        };
        // One capture has one path; duplicates need at least two captured pieces (D-A1).
        if !self.keep && captured.count() >= 2 && self.list.contains(&mv) {
            return;
        }
        self.list.push(mv);
    }

    /// Continues a man's sequence from `sq` (a single-square set) with `captured` taken so far.
    fn man<const WHITE: bool>(&mut self, sq: BitsOf<R>, captured: BitsOf<R>, came: i32) {
        let (dirs, n) = man_capture_dirs::<R, WHITE>();
        let mut victims = self.opp & !captured;
        if !R::MEN_CAPTURE_KINGS {
            victims &= !self.opp_kings;
        }
        let free = self.free(captured);
        let mut found = false;
        for &d in &dirs[..n] {
            // With pieces removed as they are jumped, turning back would cross the square just
            // emptied: a capture never turns 180 degrees (Turkish, Thai).
            if R::IMMEDIATE_REMOVAL && d == -came {
                continue;
            }
            // The layout turns every step off the board into a padding bit or nothing at all.
            let mid = R::Board::step(sq, d) & victims;
            let land = R::Board::step(mid, d) & free;
            if land.is_empty() {
                continue;
            }
            found = true;
            let taken = captured | mid;
            let saved = self.note_king(taken, mid);
            if !(land & promotion_row::<R, WHITE>()).is_empty() {
                match R::CAPTURE_PROMOTION {
                    CapturePromotion::ContinuesAsKing => {
                        self.king(land, taken, true, d);
                        self.kings_met = saved;
                        continue;
                    }
                    CapturePromotion::EndsMove => {
                        self.record(land, taken, true);
                        self.kings_met = saved;
                        continue;
                    }
                    CapturePromotion::Stays => {}
                }
            }
            self.man::<WHITE>(land, taken, d);
            self.kings_met = saved;
        }
        if !found && !captured.is_empty() {
            // FMJD 4.15: a man is crowned only when its move ends on the promotion row.
            self.record(sq, captured, !(sq & promotion_row::<R, WHITE>()).is_empty());
        }
    }

    /// The piece a king on `sq` would capture in direction `d`, if any: the first piece along
    /// the line (the next square only, for short-range kings) when it is an uncaptured enemy with
    /// an empty square behind it.
    #[inline(always)]
    fn victim(&self, sq: BitsOf<R>, d: i32, captured: BitsOf<R>) -> BitsOf<R> {
        let free = self.free(captured);
        let t = if R::FLYING_KINGS {
            // The first square of the line that is not free.
            let blocked = R::Board::ray(sq.lowest(), d) & !free;
            if blocked.is_empty() {
                return BitsOf::<R>::EMPTY;
            }
            BitsOf::<R>::bit(nearest::<R>(blocked, d))
        } else {
            R::Board::step(sq, d)
        };
        let t = t & self.opp & !captured;
        if (R::Board::step(t, d) & free).is_empty() {
            BitsOf::<R>::EMPTY
        } else {
            t
        }
    }

    /// Continues a king's sequence from `sq`, in every direction. `promotes` marks a man crowned
    /// during this capture (Russian).
    fn king(&mut self, sq: BitsOf<R>, captured: BitsOf<R>, promotes: bool, came: i32) {
        let (dirs, n) = king_capture_dirs::<R>();
        let mut found = false;
        for &d in &dirs[..n] {
            if R::IMMEDIATE_REMOVAL && d == -came {
                continue;
            }
            let t = self.victim(sq, d, captured);
            if !t.is_empty() {
                found = true;
                let saved = self.note_king(captured | t, t);
                self.king_jumped(t, d, captured | t, promotes);
                self.kings_met = saved;
            }
        }
        if !found && !captured.is_empty() {
            self.record(sq, captured, promotes);
        }
    }

    /// A king has jumped the piece on `t` in direction `d`. It may stop on any empty square behind
    /// it (FMJD 4.3), but if the capture can go on it must (FMJD 4.13, rules.md §3.3): by turning
    /// on one of those squares, or by going straight on to the next piece of the line. Going
    /// straight is one trajectory whichever square it passes, so it is explored once.
    fn king_jumped(&mut self, t: BitsOf<R>, d: i32, captured: BitsOf<R>, promotes: bool) {
        let first = R::Board::step(t, d);
        if !R::FLYING_KINGS {
            self.king(first, captured, promotes, d);
            return;
        }
        let (dirs, n) = king_capture_dirs::<R>();
        let free = self.free(captured);
        let mut found = false;
        let mut l = first;
        let mut last;
        let mut stops = 0;
        loop {
            stops += 1;
            for &d2 in &dirs[..n] {
                // Back along -d lies the piece just captured: it still blocks (FMJD 4.11), or it
                // is gone and turning back is not allowed (Thai, Turkish).
                if d2 == d || d2 == -d {
                    continue;
                }
                let t2 = self.victim(l, d2, captured);
                if !t2.is_empty() {
                    found = true;
                    let saved = self.note_king(captured | t2, t2);
                    self.king_jumped(t2, d2, captured | t2, promotes);
                    self.kings_met = saved;
                }
            }
            last = l;
            l = R::Board::step(l, d);
            if R::KING_LANDS_BEHIND || (l & free).is_empty() {
                break;
            }
        }
        // Straight on, from the furthest landing square; once per square it could have stopped
        // on when counting landing paths.
        let next = self.victim(last, d, captured);
        if !next.is_empty() {
            found = true;
            let saved = self.note_king(captured | next, next);
            for _ in 0..if self.landings { stops } else { 1 } {
                self.king_jumped(next, d, captured | next, promotes);
            }
            self.kings_met = saved;
        }
        if !found {
            // Killer draughts: a king whose last captured piece is a king halts right behind it.
            if R::HALT_BEHIND_KING && !(t & self.opp_kings).is_empty() {
                last = first;
            }
            let mut l = first;
            loop {
                self.record(l, captured, promotes);
                if l == last {
                    break;
                }
                l = R::Board::step(l, d);
            }
        }
    }
}

/// The piece sets move generation starts from, seen from the side to move.
struct Sides<B> {
    opp: B,
    opp_kings: B,
    empty: B,
    men: B,
    kings: B,
    /// Men that have a capture.
    capturing_men: B,
    /// Whether some king has a capture.
    king_captures: bool,
}

impl<B: Bits> Sides<B> {
    #[inline(always)]
    fn any_capture(&self) -> bool {
        !self.capturing_men.is_empty() || self.king_captures
    }
}

#[inline(always)]
fn sides<R: Rules, const WHITE: bool>(pos: &Draughts<R>) -> Sides<BitsOf<R>> {
    let me = if WHITE { 0 } else { 1 };
    sides_of::<R, WHITE>(pos.pieces[me], pos.pieces[1 - me], pos.kings)
}

/// [`sides`] from the pieces of the side to move, those of the opponent and the kings of both.
#[inline(always)]
fn sides_of<R: Rules, const WHITE: bool>(
    own: BitsOf<R>,
    opp: BitsOf<R>,
    all_kings: BitsOf<R>,
) -> Sides<BitsOf<R>> {
    let empty = R::Board::VALID & !(own | opp);
    let men = own & !all_kings;
    let kings = own & all_kings;
    let opp_kings = opp & all_kings;
    let man_victims = if R::MEN_CAPTURE_KINGS {
        opp
    } else {
        opp & !all_kings
    };
    Sides {
        opp,
        opp_kings,
        empty,
        men,
        kings,
        capturing_men: capturing_men::<R, WHITE>(men, man_victims, empty),
        king_captures: kings_can_capture::<R>(kings, opp, empty),
    }
}

/// Fills `list` with the captures of the side to move (precedence applied); `list` must be empty.
#[inline]
fn captures<R: Rules, const WHITE: bool>(
    s: &Sides<BitsOf<R>>,
    dup: Duplicates,
    list: &mut MoveList<Move<BitsOf<R>>>,
) {
    if !s.any_capture() {
        return;
    }
    let mut walk = Captures::<R>::new(list, s.opp, s.opp_kings, s.empty, dup);
    for sq in s.capturing_men.iter() {
        walk.from = sq as u8;
        walk.by_king = false;
        walk.empty = s.empty | BitsOf::<R>::bit(sq);
        walk.man::<WHITE>(BitsOf::<R>::bit(sq), BitsOf::<R>::EMPTY, 0);
    }
    if s.king_captures {
        for sq in s.kings.iter() {
            walk.from = sq as u8;
            walk.by_king = true;
            // FMJD 4.8: the king's start square is empty during its own capture.
            walk.empty = s.empty | BitsOf::<R>::bit(sq);
            walk.king(BitsOf::<R>::bit(sq), BitsOf::<R>::EMPTY, false, 0);
        }
    }
}

fn generate_side<R: Rules, const WHITE: bool>(
    pos: &Draughts<R>,
    dup: Duplicates,
    list: &mut MoveList<Move<BitsOf<R>>>,
) {
    list.clear();
    let s = sides::<R, WHITE>(pos);
    captures::<R, WHITE>(&s, dup, list);
    if !list.is_empty() {
        return;
    }
    let (empty, men) = (s.empty, s.men);
    let promo = promotion_row::<R, WHITE>();
    let (steps, n) = man_step_dirs::<R, WHITE>();
    for &d in &steps[..n] {
        for to in (R::Board::step(men, d) & empty).iter() {
            let from = (to as i32 - d) as u8;
            list.push(Move {
                captured: BitsOf::<R>::EMPTY,
                from,
                to: to as u8,
                promotes: promo.has(to),
            });
        }
    }
    let kings = s.kings & !pos.restricted_king();
    let (steps, n) = king_step_dirs::<R>();
    for k in kings.iter() {
        for &d in &steps[..n] {
            for to in slide::<R>(BitsOf::<R>::bit(k), d, empty).iter() {
                list.push(Move {
                    captured: BitsOf::<R>::EMPTY,
                    from: k as u8,
                    to: to as u8,
                    promotes: false,
                });
            }
        }
    }
}

/// The complete capture sequences of men, found for all men at once with shifts, when no king can
/// capture: `visit(jumps, dirs, landings)` receives, for each list of jump directions (indexed as
/// `man_capture_dirs`, the first `jumps` entries used), the squares where such sequences end, one
/// sequence per square (possibly none). Returns `false`, having visited only part, when some
/// sequence may take more than `MAX` jumps (1 or 2) or a man would be crowned and go on as a king
/// (then the sequences are walked).
///
/// Why sets suffice: a man on `l` jumps in direction `e` over `l + e` to `l + 2e`. After a jump in
/// direction `d`, the jump back (`-d`) crosses the piece just taken, which cannot be jumped twice
/// (FMJD 4.11) or, with immediate removal, is empty: it is never possible. Every other next jump
/// sees the board as it stood before the move, since the squares the move changed (its start, the
/// piece taken) lie on the line `-d` only. So whether a sequence of one or two jumps goes on is
/// decided for all men at once, each sequence is one square of one direction list, and none is met
/// twice: no duplicates (D-A1) either. Two jumps are counted this way only on the diagonal boards;
/// orthogonal captures (Frisian, Turkish, Armenian) keep to one.
#[inline(always)]
fn man_sequences<R: Rules, const WHITE: bool, const MAX: usize>(
    s: &Sides<BitsOf<R>>,
    mut visit: impl FnMut(usize, [usize; 2], BitsOf<R>),
) -> bool {
    let two = MAX >= 2 && R::MOVEMENT == Movement::Diagonal && !R::ORTHOGONAL_CAPTURES;
    let victims = if R::MEN_CAPTURE_KINGS {
        s.opp
    } else {
        s.opp & !s.opp_kings
    };
    let promo = promotion_row::<R, WHITE>();
    let (dirs, n) = man_capture_dirs::<R, WHITE>();
    let step2 = |x: BitsOf<R>, d: i32| R::Board::step(R::Board::step(x, d), d);
    // Squares from which a man jumps in each direction, on the board as it stands. The loops run
    // over all eight slots with a constant bound so that they unroll.
    let mut from = [BitsOf::<R>::EMPTY; 8];
    for i in 0..8 {
        if i < n {
            from[i] = R::Board::step(victims, -dirs[i]) & step2(s.empty, -dirs[i]);
        }
    }
    // Squares from which some jump is possible. After a first jump in direction `i` this is where
    // the capture goes on: the jump back (`-i`) would land on the capturing man's own square,
    // occupied on the board as it stands, so `from[-i]` never holds a first landing square and
    // needs no excluding (a union of all, not eight unions of seven).
    let mut any_from = BitsOf::<R>::EMPTY;
    for f in &from {
        any_from |= *f;
    }
    // Landing squares after a jump in direction `i` from which the capture goes on; after a second
    // jump, whose start square is empty, the jump back must be left out.
    let mut on = [BitsOf::<R>::EMPTY; 8];
    for i in 0..8 {
        for j in 0..8 {
            if i < n && j < n && dirs[j] != -dirs[i] {
                on[i] |= from[j];
            }
        }
    }
    // Splits landings after a jump in direction `i` into (sequences ending there, going on);
    // `split` gives `None` instead when a man is crowned and goes on as a king.
    let split_all = |land: BitsOf<R>, i: usize| match R::CAPTURE_PROMOTION {
        // Reaching the last row ends the move (English 1.20).
        CapturePromotion::EndsMove => {
            let going = land & !promo & on[i];
            (land & !going, going)
        }
        _ => (land & !on[i], land & on[i]),
    };
    // Crowned during the capture, the piece goes on as a king (Russian 4.13): walk it.
    let crowning = R::CAPTURE_PROMOTION == CapturePromotion::ContinuesAsKing;
    let split =
        |land: BitsOf<R>, i: usize| (!crowning || (land & promo).is_empty()).then(|| split_all(land, i));
    // The same after a first jump.
    let split_first = |land: BitsOf<R>| {
        (!crowning || (land & promo).is_empty()).then(|| match R::CAPTURE_PROMOTION {
            CapturePromotion::EndsMove => {
                let going = land & !promo & any_from;
                (land & !going, going)
            }
            _ => (land & !any_from, land & any_from),
        })
    };
    if n <= 2 {
        // Men capturing forward only: both directions are visited, empty or not, without a branch
        // on which hold a capture. That branch was the most mispredicted in perft (cachegrind
        // branch simulation: 0.27-0.29 mispredictions per leaf down to 0.22-0.23, for 0.1-0.5
        // more instructions per leaf). With four directions the work skipped is worth the branch:
        // done this way, International took 15 % more instructions per leaf and Canadian d9 fell
        // from 227 to 151 M leaves/s. Written apart from the loop below because one loop with a
        // constant flag choosing the branch measured 50.8 instructions per leaf in International
        // against 24.6 (cachegrind, d7).
        let mut crowned = BitsOf::<R>::EMPTY;
        let mut on1 = [BitsOf::<R>::EMPTY; 2];
        for i in 0..2 {
            if i < n {
                let land = step2(s.capturing_men & from[i], dirs[i]);
                if crowning {
                    crowned |= land & promo;
                }
                let (end1, going) = split_all(land, i);
                visit(1, [i, 0], end1);
                on1[i] = going;
            }
        }
        if (on1[0] | on1[1]).is_empty() {
            return crowned.is_empty();
        }
        if !two {
            return false;
        }
        let mut further = BitsOf::<R>::EMPTY;
        for i in 0..2 {
            for j in 0..2 {
                if i < n && j < n && dirs[j] != -dirs[i] {
                    let land = step2(on1[i] & from[j], dirs[j]);
                    if crowning {
                        crowned |= land & promo;
                    }
                    let (end2, going) = split_all(land, j);
                    visit(2, [i, j], end2);
                    further |= going;
                }
            }
        }
        return crowned.is_empty() && further.is_empty();
    }
    for i in 0..8 {
        if i >= n {
            continue;
        }
        let land = step2(s.capturing_men & from[i], dirs[i]);
        if land.is_empty() {
            continue;
        }
        // With two levels the unions `on` are built anyway, and the extra union measured 0.6 more
        // instructions per leaf in International (callgrind d7): only one-level boards use it.
        let first = if two { split(land, i) } else { split_first(land) };
        let Some((end1, on1)) = first else {
            return false;
        };
        visit(1, [i, 0], end1);
        if on1.is_empty() {
            continue;
        }
        if !two {
            return false;
        }
        for j in 0..8 {
            if j >= n || dirs[j] == -dirs[i] {
                continue;
            }
            let land = step2(on1 & from[j], dirs[j]);
            if land.is_empty() {
                continue;
            }
            match split(land, j) {
                Some((end2, on2)) if on2.is_empty() => visit(2, [i, j], end2),
                _ => return false,
            }
        }
    }
    true
}

/// Jumps counted with [`man_sequences`] at the last ply (measured: a third level costs more than
/// it saves).
const COUNT_JUMPS: usize = 2;
/// Jumps made on the piece sets one ply above the leaves (measured: two cost more than they save).
const MAKE_JUMPS: usize = 1;

/// The fewest jumps a man capture sequence must make to be kept, given `ends[j]` sequences of `j`
/// jumps: the rules that rank by the number of pieces keep only the longest; those that also
/// weigh captured kings are left to the walk (`None`) when a king may be taken.
#[inline(always)]
fn fewest_kept<R: Rules>(s: &Sides<BitsOf<R>>, ends: &[u32; 3]) -> Option<usize> {
    let longest = if ends[2] > 0 { 2 } else { 1 };
    match R::PRECEDENCE {
        Precedence::Free | Precedence::KingFirst => Some(1),
        Precedence::Quantity => Some(longest),
        Precedence::FrisianValue | Precedence::QuantityThenKings | Precedence::Italian => {
            if R::MEN_CAPTURE_KINGS && !s.opp_kings.is_empty() {
                None
            } else {
                Some(longest)
            }
        }
    }
}

/// The number of men's capture sequences, counted with shifts ([`man_sequences`]); `None` when
/// they must be walked.
#[inline(always)]
fn count_man_sequences<R: Rules, const WHITE: bool>(s: &Sides<BitsOf<R>>) -> Option<u64> {
    let mut ends = [0u32; 3];
    if !man_sequences::<R, WHITE, COUNT_JUMPS>(s, |j, _, land| ends[j] += land.count()) {
        return None;
    }
    // Summed by hand: a slice sum here became a loop over memory.
    let kept = match fewest_kept::<R>(s, &ends)? {
        1 => ends[1] + ends[2],
        _ => ends[2],
    };
    Some(u64::from(kept))
}

/// The number of legal moves of the side to move in `s`; `restricted` is a king that may not make
/// a non-capturing move (Frisian Art. 17).
#[inline(always)]
fn count_sides<R: Rules, const WHITE: bool>(
    s: &Sides<BitsOf<R>>,
    dup: Duplicates,
    restricted: BitsOf<R>,
) -> u64 {
    if s.any_capture() {
        if frisian_men::<R>() && !s.king_captures {
            return count_frisian_man_captures::<R, WHITE>(s.men, s.opp, s.kings | s.opp_kings, dup);
        }
        if !s.king_captures
            && let Some(n) = count_man_sequences::<R, WHITE>(s)
            && n > 0
        {
            return n;
        }
        // The sets go by value, rebuilt on the far side: passing `s` by reference made every
        // caller store it to memory, on the common quiet path too.
        let n = count_walked_captures::<R, WHITE>(s.men | s.kings, s.opp, s.kings | s.opp_kings, dup);
        if n > 0 {
            return n;
        }
    }
    let (empty, men, kings) = (s.empty, s.men, s.kings);
    let mut n = 0;
    let (steps, count) = man_step_dirs::<R, WHITE>();
    for &d in &steps[..count] {
        n += (R::Board::step(men, d) & empty).count();
    }
    let kings = kings & !restricted;
    if !kings.is_empty() {
        let (steps, count) = king_step_dirs::<R>();
        for &d in &steps[..count] {
            n += slide::<R>(kings, d, empty).count();
        }
    }
    u64::from(n)
}

/// Whether [`count_frisian_man_captures`] serves the variant: Frisian value precedence, men
/// crowned only where their capture ends, captured pieces removed after the move.
const fn frisian_men<R: Rules>() -> bool {
    matches!(R::PRECEDENCE, Precedence::FrisianValue)
        && matches!(R::CAPTURE_PROMOTION, CapturePromotion::Stays)
        && !R::IMMEDIATE_REMOVAL
}

/// The number of captures when only men capture (`men`, the side to move's men; no king has a
/// capture), under Frisian value precedence (Art. 11-12), without walking from the men: any
/// sequence of two jumps (worth at least two men) beats every single jump (a king at most). The
/// first jumps are found with shifts for all men at once. If none goes on, the single jumps are
/// counted: those taking a king if any, else all. Otherwise the walk starts from the landing
/// squares of the first jumps that go on, and the other first jumps, which lose, are never
/// walked. A first jump goes on exactly when its landing square has a jump on the board as it
/// stands: the squares the jump changed lie on its own line, and the jump back along it would
/// cross the piece just taken (see [`man_sequences`]).
#[inline(never)]
fn count_frisian_man_captures<R: Rules, const WHITE: bool>(
    men: BitsOf<R>,
    opp: BitsOf<R>,
    all_kings: BitsOf<R>,
    dup: Duplicates,
) -> u64 {
    let empty = R::Board::VALID & !(men | opp | all_kings);
    let opp_kings = opp & all_kings;
    let victims = if R::MEN_CAPTURE_KINGS {
        opp
    } else {
        opp & !opp_kings
    };
    let (dirs, n) = man_capture_dirs::<R, WHITE>();
    let step2 = |x: BitsOf<R>, d: i32| R::Board::step(R::Board::step(x, d), d);
    // Squares from which a man jumps in each direction, on the board as it stands; loops over all
    // eight slots with a constant bound so that they unroll.
    let mut from = [BitsOf::<R>::EMPTY; 8];
    let mut jump_squares = BitsOf::<R>::EMPTY;
    for i in 0..8 {
        if i < n {
            from[i] = R::Board::step(victims, -dirs[i]) & step2(empty, -dirs[i]);
            jump_squares |= from[i];
        }
    }
    let mut going = [BitsOf::<R>::EMPTY; 8];
    let mut any_going = BitsOf::<R>::EMPTY;
    for i in 0..8 {
        if i < n {
            going[i] = step2(men & from[i], dirs[i]) & jump_squares;
            any_going |= going[i];
        }
    }
    if any_going.is_empty() {
        let mut singles = 0;
        let mut king_singles = 0;
        for i in 0..8 {
            if i < n {
                let land = step2(men & from[i], dirs[i]);
                singles += land.count();
                king_singles += (R::Board::step(land, -dirs[i]) & opp_kings).count();
            }
        }
        return u64::from(if king_singles > 0 { king_singles } else { singles });
    }
    count_frisian_long_captures::<R, WHITE>(&from, &going, jump_squares, empty, opp, opp_kings, dup)
}

/// The number of captures of [`count_frisian_man_captures`] when some first jump goes on, so that
/// every kept sequence takes at least two pieces. The second jumps are found with shifts for all
/// men at once like the first; the sequences of two jumps that end there are counted on the sets,
/// and only those that may go on are walked, from their second landing square. `from[i]` are the
/// squares from which a man jumps in direction `i` on the board as it stands, `going[i]` the
/// landing squares of first jumps in direction `i` that go on, `jump_squares` the union of `from`.
///
/// A second jump in direction `j` from the landing square of a first jump in direction `i` sees the
/// board as it stands (the squares the first jump changed lie on its own line, see
/// [`man_sequences`]). After it, the board differs from the one standing in three squares: the
/// start square, now empty; the first piece taken, still on the board but not to be jumped again;
/// the first landing square, empty as before. Whether the sequence goes on is tested on the board
/// as it stands, less the jump back over the second piece taken (direction `-j`, landing on the
/// first landing square); that test may also see a jump over the first piece taken, which only
/// sends the sequence to the walk (where it ends). It misses only a landing on the start square,
/// possible when `-(i + j)` is a direction (a third jump closing a triangle), tested apart. Two
/// different paths of two jumps from one square never take the same two pieces, so the sequences
/// counted on the sets have no duplicates (D-A1) among themselves or with the walked ones, which
/// take more pieces. Among sequences of two jumps the most kings taken wins (Art. 11); the walked
/// ones are ranked against them by value.
#[inline(always)]
fn count_frisian_long_captures<R: Rules, const WHITE: bool>(
    from: &[BitsOf<R>; 8],
    going: &[BitsOf<R>; 8],
    jump_squares: BitsOf<R>,
    empty: BitsOf<R>,
    opp: BitsOf<R>,
    opp_kings: BitsOf<R>,
    dup: Duplicates,
) -> u64 {
    let victims = if R::MEN_CAPTURE_KINGS {
        opp
    } else {
        opp & !opp_kings
    };
    let mut pairs = SecondJumps::<R> {
        from: *from,
        going: *going,
        jump_squares,
        victims,
        opp_kings,
        by_kings: [0; 3],
        pending: [(BitsOf::<R>::EMPTY, 0, 0); 8],
        pending_count: 0,
    };
    // Every pair of directions written out with constant indices: as a loop over runtime indices
    // the shifts were not constant and the loop was not unrolled.
    macro_rules! pairs {
        ($($i:literal)*) => { $( pairs!(@row $i; 0 1 2 3 4 5 6 7); )* };
        (@row $i:literal; $($j:literal)*) => {
            // Tested once per row: most rows have no first jump that goes on.
            if !pairs.going[$i].is_empty() {
                $( pairs.pair::<WHITE, $i, $j>(); )*
            }
        };
    }
    pairs!(0 1 2 3 4 5 6 7);
    let mut list = MoveList::new();
    let mut walk = Captures::<R>::new(&mut list, opp, opp_kings, empty, dup);
    let (dirs, n) = man_capture_dirs::<R, WHITE>();
    if pairs.pending_count as usize > pairs.pending.len() {
        // More pairs to walk than were kept: walk every sequence from its first landing square.
        pairs.by_kings = [0; 3];
        for i in 0..n {
            let d = dirs[i];
            for l in going[i].iter() {
                let land = BitsOf::<R>::bit(l);
                let taken = R::Board::step(land, -d);
                let start = R::Board::step(taken, -d);
                walk.from = start.lowest() as u8;
                walk.empty = empty | start;
                walk.man::<WHITE>(land, taken, d);
            }
        }
    } else {
        for &(on, i, j) in &pairs.pending[..pairs.pending_count as usize] {
            let (di, dj) = (dirs[i as usize], dirs[j as usize]);
            for l in on.iter() {
                let land = BitsOf::<R>::bit(l);
                let second = R::Board::step(land, -dj);
                let first_taken = R::Board::step(R::Board::step(second, -dj), -di);
                let start = R::Board::step(first_taken, -di);
                walk.from = start.lowest() as u8;
                walk.empty = empty | start;
                walk.man::<WHITE>(land, first_taken | second, dj);
            }
        }
    }
    let by_kings = pairs.by_kings;
    let (kings, set_count) = if by_kings[2] > 0 {
        (2, by_kings[2])
    } else if by_kings[1] > 0 {
        (1, by_kings[1])
    } else {
        (0, by_kings[0])
    };
    // The rank `Captures::rank` gives a man's two jumps taking `kings` kings.
    let set_rank = (((2 - kings) + 2 * kings) * 50 - kings) << 1;
    let (walked, best) = (walk.list.len() as u32, walk.best);
    let kept = if walked == 0 || (set_count > 0 && set_rank > best) {
        set_count
    } else if set_count > 0 && set_rank == best {
        set_count + walked
    } else {
        walked
    };
    u64::from(kept)
}

/// The state of [`count_frisian_long_captures`] over the pairs of jump directions.
struct SecondJumps<R: Rules> {
    from: [BitsOf<R>; 8],
    going: [BitsOf<R>; 8],
    jump_squares: BitsOf<R>,
    victims: BitsOf<R>,
    opp_kings: BitsOf<R>,
    /// Sequences of two jumps that end, by the number of kings they take.
    by_kings: [u32; 3],
    /// Second landing squares from which the sequence may go on, with the two directions.
    pending: [(BitsOf<R>, u8, u8); 8],
    /// How many entries of `pending` were found (more than it holds: all must be walked).
    pending_count: u32,
}

impl<R: Rules> SecondJumps<R> {
    /// The sequences whose first jump goes in direction `I` and second in direction `J`.
    // The loops over `0..8` with a constant bound unroll into constant shifts, as measured.
    #[allow(clippy::needless_range_loop)]
    #[inline(always)]
    fn pair<const WHITE: bool, const I: usize, const J: usize>(&mut self) {
        let (dirs, n) = man_capture_dirs::<R, WHITE>();
        if I >= n || J >= n || dirs[J] == -dirs[I] {
            return;
        }
        let (di, dj) = (dirs[I], dirs[J]);
        let step2 = |x: BitsOf<R>, d: i32| R::Board::step(R::Board::step(x, d), d);
        let land = step2(self.going[I] & self.from[J], dj);
        if land.is_empty() {
            return;
        }
        let mut on = BitsOf::<R>::EMPTY;
        if !(land & self.jump_squares).is_empty() {
            for k in 0..8 {
                if k < n && dirs[k] != -dj {
                    on |= self.from[k];
                }
            }
            on &= land;
        }
        // The triangle: from the second landing square over the piece on `-(di + dj)` back to
        // the start square, which is empty during the capture.
        let back = -(di + dj);
        let mut closes = false;
        for k in 0..8 {
            closes |= k < n && dirs[k] == back;
        }
        if closes {
            on |= land & R::Board::step(self.victims, -back);
        }
        let ends = land & !on;
        if self.opp_kings.is_empty() {
            self.by_kings[0] += ends.count();
        } else {
            // The first piece taken is `di + 2 dj` back from the landing square, the second `dj`.
            let king1 = ends & R::Board::step(step2(self.opp_kings, dj), di);
            let king2 = ends & R::Board::step(self.opp_kings, dj);
            let two = (king1 & king2).count();
            let one = (king1 ^ king2).count();
            self.by_kings[2] += two;
            self.by_kings[1] += one;
            self.by_kings[0] += ends.count() - one - two;
        }
        if !on.is_empty() {
            self.pending[self.pending_count as usize & 7] = (on, I as u8, J as u8);
            self.pending_count += 1;
        }
    }
}

/// The number of captures of the side with pieces `own` against `opp` (`all_kings` the kings of
/// both), found by walking the sequences (kept out of line: the rarer, longer path).
#[inline(never)]
fn count_walked_captures<R: Rules, const WHITE: bool>(
    own: BitsOf<R>,
    opp: BitsOf<R>,
    all_kings: BitsOf<R>,
    dup: Duplicates,
) -> u64 {
    let mut list = MoveList::new();
    captures::<R, WHITE>(&sides_of::<R, WHITE>(own, opp, all_kings), dup, &mut list);
    list.len() as u64
}

fn count_side<R: Rules, const WHITE: bool>(pos: &Draughts<R>, dup: Duplicates) -> u64 {
    count_sides::<R, WHITE>(&sides::<R, WHITE>(pos), dup, pos.restricted_king())
}

/// The number of legal moves of the opponent of `WHITE` when the pieces are `own` (the mover's,
/// after its move), `opp` and `kings`.
#[inline(always)]
fn count_reply<R: Rules, const WHITE: bool>(
    own: BitsOf<R>,
    opp: BitsOf<R>,
    kings: BitsOf<R>,
    dup: Duplicates,
) -> u64 {
    // `!WHITE` as a const argument needs an unstable feature; the branch folds at compile time.
    if WHITE {
        count_sides::<R, false>(&sides_of::<R, false>(opp, own, kings), dup, BitsOf::<R>::EMPTY)
    } else {
        count_sides::<R, true>(&sides_of::<R, true>(opp, own, kings), dup, BitsOf::<R>::EMPTY)
    }
}

/// Makes the captures of the side to move on the piece sets alone, as [`quiet_moves_on_sets`]
/// does the quiet moves, when every legal capture is a man's single jump found with shifts
/// ([`man_sequences`]); sums `count(own, opp, kings)` over them, given the pieces of both sides
/// and the kings after each capture. `None` when the captures must be walked (a king captures,
/// some sequence goes on, a precedence rule needs the walk) or there are none.
#[inline(always)]
fn single_jumps_on_sets<R: Rules, const WHITE: bool>(
    s: &Sides<BitsOf<R>>,
    own: BitsOf<R>,
    opp: BitsOf<R>,
    all_kings: BitsOf<R>,
    count: impl Fn(BitsOf<R>, BitsOf<R>, BitsOf<R>) -> u64,
) -> Option<u64> {
    if s.king_captures {
        return None;
    }
    // With single jumps there is at most one visit per direction: one pass collects them all.
    const { assert!(MAKE_JUMPS == 1) };
    let mut found = [(0usize, BitsOf::<R>::EMPTY); 8];
    let mut k = 0;
    let mut ends = [0u32; 3];
    let complete = man_sequences::<R, WHITE, MAKE_JUMPS>(s, |j, path, land| {
        ends[j] += land.count();
        found[k & 7] = (path[0], land);
        k += 1;
    });
    if !complete || k == 0 || fewest_kept::<R>(s, &ends)? != 1 {
        return None;
    }
    let promo = promotion_row::<R, WHITE>();
    let (dirs, _) = man_capture_dirs::<R, WHITE>();
    let mut total = 0;
    for &(i, landings) in &found[..k] {
        let d = dirs[i];
        for l in landings.iter() {
            let land = BitsOf::<R>::bit(l);
            // Back from the landing square to the start over the piece taken.
            let taken = R::Board::step(land, -d);
            let sq = R::Board::step(taken, -d);
            // FMJD 4.15: crowned when the capture ends on the promotion row.
            let kings = (all_kings & !taken) | (land & promo);
            total += count(own ^ sq ^ land, opp ^ taken, kings);
        }
    }
    Some(total)
}

/// Perft at depth 2 without a move list for quiet moves: each quiet move is made on the piece sets
/// alone, and the replies are counted in line. The same walk as [`count_on_sets_side`], written
/// apart: one function for both (the child counted by a closure over the sets) measured 1-2 % more
/// instructions per leaf in International, Italian and Pool (callgrind).
fn count_two_plies_side<R: Rules, const WHITE: bool>(pos: &Draughts<R>, dup: Duplicates) -> u64 {
    let me = if WHITE { 0 } else { 1 };
    let s = sides::<R, WHITE>(pos);
    let own = pos.pieces[me];
    let opp = pos.pieces[1 - me];
    let all_kings = pos.kings;
    // Frisian's moves depend on the king runs, which the piece sets do not carry.
    let on_sets = pos.runs_stay_empty();
    if on_sets
        && s.any_capture()
        && let Some(n) = single_jumps_on_sets::<R, WHITE>(
            &s,
            own,
            opp,
            all_kings,
            #[inline(always)]
            |own, opp, kings| count_reply::<R, WHITE>(own, opp, kings, dup),
        )
    {
        return n;
    }
    if s.any_capture() || !on_sets {
        // Longer captures (and Frisian king runs) use the list.
        let mut list = MoveList::new();
        generate_side::<R, WHITE>(pos, dup, &mut list);
        return list
            .iter()
            .map(|mv| count(&pos.play_move::<false>(mv), dup))
            .sum();
    }
    quiet_moves_on_sets::<R, WHITE>(
        &s,
        own,
        all_kings,
        #[inline(always)]
        |own, kings| count_reply::<R, WHITE>(own, opp, kings, dup),
    )
}

/// Makes every quiet move of the side to move on the piece sets alone and sums `count(own,
/// kings)` over them, given the mover's pieces and the kings of both sides after each move (perft;
/// no key, no clocks). Callers mark `count` `#[inline(always)]`: left to itself the compiler kept
/// the closure out of line, and perft took 7 % more instructions per leaf (callgrind).
#[inline(always)]
fn quiet_moves_on_sets<R: Rules, const WHITE: bool>(
    s: &Sides<BitsOf<R>>,
    own: BitsOf<R>,
    all_kings: BitsOf<R>,
    count: impl Fn(BitsOf<R>, BitsOf<R>) -> u64,
) -> u64 {
    let mut total = 0;
    let promo = promotion_row::<R, WHITE>();
    let (steps, n) = man_step_dirs::<R, WHITE>();
    for &d in &steps[..n] {
        for to in (R::Board::step(s.men, d) & s.empty).iter() {
            let to_bit = BitsOf::<R>::bit(to);
            let moved = to_bit | BitsOf::<R>::bit((to as i32 - d) as u32);
            let kings = if promo.has(to) {
                all_kings | to_bit
            } else {
                all_kings
            };
            total += count(own ^ moved, kings);
        }
    }
    let (steps, n) = king_step_dirs::<R>();
    for k in s.kings.iter() {
        let from_bit = BitsOf::<R>::bit(k);
        for &d in &steps[..n] {
            for to in slide::<R>(from_bit, d, s.empty).iter() {
                let moved = from_bit | BitsOf::<R>::bit(to);
                total += count(own ^ moved, all_kings ^ moved);
            }
        }
    }
    total
}

/// Perft three or more plies deep without a move list for quiet moves and men's single jumps:
/// each is made on the piece sets alone and `below` counts the position after it.
#[inline(always)]
fn count_on_sets_side<R: Rules, const WHITE: bool>(
    pos: &Draughts<R>,
    dup: Duplicates,
    below: impl Fn(&Draughts<R>) -> u64,
) -> u64 {
    let s = sides::<R, WHITE>(pos);
    let me = if WHITE { 0 } else { 1 };
    let (own, opp, all_kings) = (pos.pieces[me], pos.pieces[1 - me], pos.kings);
    let on_sets = pos.runs_stay_empty();
    if on_sets
        && s.any_capture()
        && let Some(n) = single_jumps_on_sets::<R, WHITE>(
            &s,
            own,
            opp,
            all_kings,
            #[inline(always)]
            |own, opp, kings| below(&pos.bare_child(own, opp, kings)),
        )
    {
        return n;
    }
    if s.any_capture() || !on_sets {
        // Longer captures (and Frisian king runs) use the list.
        let mut list = MoveList::new();
        generate_side::<R, WHITE>(pos, dup, &mut list);
        return list.iter().map(|mv| below(&pos.play_move::<false>(mv))).sum();
    }
    quiet_moves_on_sets::<R, WHITE>(
        &s,
        own,
        all_kings,
        #[inline(always)]
        |own, kings| below(&pos.bare_child(own, opp, kings)),
    )
}

/// Perft at depth 3 from `pos`.
pub(super) fn count_three_plies<R: Rules>(pos: &Draughts<R>, dup: Duplicates) -> u64 {
    let below = |child: &Draughts<R>| count_two_plies(child, dup);
    match pos.side {
        Side::White => count_on_sets_side::<R, true>(pos, dup, below),
        Side::Black => count_on_sets_side::<R, false>(pos, dup, below),
    }
}

/// Perft at `depth` from `pos`, the positions above the last three plies made as at depth 3.
pub(super) fn count_plies<R: Rules>(pos: &Draughts<R>, depth: u32, dup: Duplicates) -> u64 {
    if depth <= 3 {
        return match depth {
            0 => 1,
            1 => count(pos, dup),
            2 => count_two_plies(pos, dup),
            _ => count_three_plies(pos, dup),
        };
    }
    let below = |child: &Draughts<R>| count_plies(child, depth - 1, dup);
    match pos.side {
        Side::White => count_on_sets_side::<R, true>(pos, dup, below),
        Side::Black => count_on_sets_side::<R, false>(pos, dup, below),
    }
}

/// Perft at depth 2 from `pos`.
pub(super) fn count_two_plies<R: Rules>(pos: &Draughts<R>, dup: Duplicates) -> u64 {
    match pos.side {
        Side::White => count_two_plies_side::<R, true>(pos, dup),
        Side::Black => count_two_plies_side::<R, false>(pos, dup),
    }
}

/// Fills `list` with the legal moves of `pos`.
pub(super) fn generate<R: Rules>(pos: &Draughts<R>, dup: Duplicates, list: &mut MoveList<Move<BitsOf<R>>>) {
    match pos.side {
        Side::White => generate_side::<R, true>(pos, dup, list),
        Side::Black => generate_side::<R, false>(pos, dup, list),
    }
}

/// `Some(has_move)` when the side to move certainly has no capture (and then whether it has a move
/// at all), `None` when it may have one. Found with shifts on the piece sets, without generating a
/// move: the quiescence search stands pat on most of its leaves this way. The capture test is
/// the first jump of every sequence (a man's, a king's after its slide), as [`generate`] looks
/// for captures before it walks them.
pub(super) fn capture_free<R: Rules>(pos: &Draughts<R>) -> Option<bool> {
    match pos.side {
        Side::White => capture_free_side::<R, true>(pos),
        Side::Black => capture_free_side::<R, false>(pos),
    }
}

#[inline(always)]
fn capture_free_side<R: Rules, const WHITE: bool>(pos: &Draughts<R>) -> Option<bool> {
    let s = sides::<R, WHITE>(pos);
    if s.any_capture() {
        return None;
    }
    let (steps, n) = man_step_dirs::<R, WHITE>();
    let mut to = BitsOf::<R>::EMPTY;
    for &d in &steps[..n] {
        to |= R::Board::step(s.men, d);
    }
    // A king that may move steps at least one square.
    let kings = s.kings & !pos.restricted_king();
    let (steps, n) = king_step_dirs::<R>();
    for &d in &steps[..n] {
        to |= R::Board::step(kings, d);
    }
    Some(!(to & s.empty).is_empty())
}

/// The number of legal moves of `pos`, counted without generating quiet moves.
pub(super) fn count<R: Rules>(pos: &Draughts<R>, dup: Duplicates) -> u64 {
    match pos.side {
        Side::White => count_side::<R, true>(pos, dup),
        Side::Black => count_side::<R, false>(pos, dup),
    }
}
