//! Retrograde analysis of one slice.
//!
//! Every position of the slice is classed once with the move generator (pass A): no legal move (a
//! loss now), a capture pending (its value is found at once by searching the captures, which all
//! lead into smaller, already built slices), or quiet. Pass B looks at the moves of each quiet
//! position: a move into another slice (a promotion) or into a capture position of this slice is
//! an *exit* whose value is known; the others are counted. Then the values spread backwards from
//! the known ones in order of distance: a position with a lost successor at distance `n` wins in
//! `n + 1`; a position whose successors are all won for the opponent loses in one more than the
//! longest of them, found when the last of them is reached (the counts). What is never reached is
//! a draw. Predecessors inside a slice are found by un-making quiet moves (a king slides back
//! along a diagonal, a man steps back, and a Frisian king-move run goes back one step), which is
//! exact for the variants [`super::supports`] accepts.
//!
//! **Two bytes an index.** The whole state of the solve lives in one `u16` per index (the
//! solve-time tags below), so the largest slice this machine builds (Frisian 1112, 6.9 G indices)
//! takes 13.9 GB rather than the 41.7 GB of separate class, value, count and loss arrays. The
//! backward sweep has no queue of indices either (a queue of 64-bit indices could outgrow the
//! slice): level `n` scans the slice for the positions decided at distance `n`, on every thread,
//! and updates their predecessors with atomic operations. Within a level every update has the
//! same kind (all wins when the level's positions are lost, all count decrements when they are
//! won), so the result does not depend on the threads' order.

use super::file::{Encoder, SliceFile};
use super::index::{Material, SliceIndex, Walk};
use super::{Code, DRAW, LOST_NOW, Source, parent_code, preference, solve};
use crate::bits::Bits;
use crate::draughts::geom::Geometry;
use crate::draughts::rules::Rules;
use crate::draughts::{BitsOf, Draughts, KingRun};
use crate::game::{Game, MoveList, Side};
use std::sync::atomic::{AtomicU16, AtomicU32, AtomicUsize, Ordering};
use std::time::Instant;

/// Solve-time tag: a quiet position not yet decided. Below it, [`PENDING`] or a count of the
/// moves inside the slice whose values are not yet known.
const UNDECIDED: u16 = 0x8000;
/// With [`UNDECIDED`]: the position cannot lose, or has no move inside the slice; the low bits
/// are the distance at which it is decided unless a shorter win comes first ([`NEVER`]: none, it
/// draws unless one comes). Without [`UNDECIDED`]: a position with a capture pending or no move,
/// its value in the low bits (an exit for the positions that move into it).
const PENDING: u16 = 0x4000;
/// The low bits of the tags.
const LOW: u16 = 0x3FFF;
/// Pending distance of a position that cannot lose and has no winning exit.
const NEVER: u16 = LOW;
/// Solve-time code of an index that names no position.
const INVALID: u16 = PENDING | LOW;
/// Indices handed to a thread at a time.
const CHUNK: usize = 1 << 14;
/// Codes a mirrored slice computes between two encodings (a whole number of blocks).
const MIRROR_GROUP: usize = 1 << 22;

/// A built slice: its index and the code of every index (capture positions hold their resolved
/// value, indices that name no position hold a draw).
pub struct SliceTable {
    /// The slice's indexing.
    pub index: SliceIndex,
    /// Codes, one per index.
    pub codes: Vec<Code>,
}

/// Figures of one slice build.
#[derive(Clone, Copy, Debug, Default)]
pub struct BuildStats {
    /// Indices that name a position.
    pub positions: u64,
    /// Of them, positions with a capture pending.
    pub captures: u64,
    /// Wins and losses for the side to move, and draws, among positions without a capture.
    pub wins: u64,
    /// Losses for the side to move.
    pub losses: u64,
    /// Draws.
    pub draws: u64,
    /// Longest distance (plies).
    pub longest: u32,
}

/// Runs `f(start, end)` on consecutive ranges of `0..len` of [`CHUNK`] indices, on `threads`
/// threads (no more than there are ranges: a thread without a range would only cost its start,
/// which with hundreds of threads was most of a small build).
fn par_ranges<F>(len: usize, threads: usize, f: F)
where
    F: Fn(usize, usize) + Sync,
{
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..threads.min(len.div_ceil(CHUNK)).max(1) {
            s.spawn(|| {
                loop {
                    let start = next.fetch_add(CHUNK, Ordering::Relaxed);
                    if start >= len {
                        break;
                    }
                    f(start, (start + CHUNK).min(len));
                }
            });
        }
    });
}

/// `len` codes to share between threads, each `INVALID`.
fn shared_codes(len: usize, fill: u16) -> Vec<AtomicU16> {
    (0..len).map(|_| AtomicU16::new(fill)).collect()
}

/// The best code among a position's successors: `lookup` answers for a successor inside the slice
/// (by its index), the lower slices for the others (promotions and captures).
fn best_of<R: Rules, S: Source<R> + Sync + ?Sized>(
    lower: &S,
    index: &SliceIndex,
    pos: &Draughts<R>,
    moves: &MoveList<<Draughts<R> as Game>::Move>,
    inside: impl Fn(u64) -> Code,
) -> Code {
    let material = index.material;
    let mut best: Option<Code> = None;
    for mv in moves.iter() {
        let child = pos.play_bare(mv);
        let c = if !mv.promotes && Material::of(&child) == material {
            inside(index.index(&child))
        } else {
            solve(lower, &child)
                .unwrap_or_else(|| panic!("slice {material}: a move leads to a missing slice"))
        };
        let c = parent_code(c);
        if best.is_none_or(|b| preference(c) > preference(b)) {
            best = Some(c);
        }
    }
    best.unwrap_or(LOST_NOW)
}

/// Builds one slice. `lower` must answer for every slice this one converts into (captures and
/// promotions). `progress` receives lines for the user. Holds two bytes an index.
///
/// # Panics
/// If a distance or a count of moves passes 16,382 (the tags' low bits).
pub fn build_slice<R: Rules, S: Source<R> + Sync + ?Sized>(
    lower: &S,
    material: Material,
    threads: usize,
    progress: &mut dyn FnMut(&str),
) -> (SliceTable, BuildStats) {
    let index = SliceIndex::new::<R>(material);
    let len = usize::try_from(index.len()).expect("a slice's indices fit the address space");
    let started = Instant::now();
    let codes = shared_codes(len, INVALID);
    let index = &index;

    // Pass A: classes, and the values of positions with no move or a capture pending.
    {
        let atomic = &codes[..];
        par_ranges(len, threads, |start, end| {
            let mut moves = MoveList::new();
            let mut walk = Walk::new();
            for (i, cell) in (start..end).zip(&atomic[start..end]) {
                let Some(pos) = index.position_in::<R>(&mut walk, i as u64) else {
                    continue;
                };
                // Most positions have no capture, and the piece sets tell it (and whether a move
                // exists) without generating a move.
                let v = match pos.capture_free() {
                    Some(true) => UNDECIDED,
                    Some(false) => PENDING | LOST_NOW,
                    None => {
                        moves.clear();
                        pos.generate(&mut moves);
                        if moves.is_empty() {
                            PENDING | LOST_NOW
                        } else if pos.is_capture(&moves[0]) {
                            // Captures lead into smaller slices only.
                            PENDING
                                | best_of(lower, index, &pos, &moves, |_| {
                                    unreachable!("a capture stays in its slice")
                                })
                        } else {
                            UNDECIDED
                        }
                    }
                };
                cell.store(v, Ordering::Relaxed);
            }
        });
    }
    progress(&format!(
        "slice {material}: {len} indices, classes and captures in {:.1} s",
        started.elapsed().as_secs_f64()
    ));

    // Pass B: count the moves inside the slice, fold the exits. A thread writes only the quiet
    // indices of its own range and leaves their tag bit, the only thing other threads read of
    // them here.
    let furthest = AtomicU32::new(0);
    {
        let atomic = &codes[..];
        par_ranges(len, threads, |start, end| {
            let mut moves = MoveList::new();
            let mut walk = Walk::new();
            for i in start..end {
                if atomic[i].load(Ordering::Relaxed) & UNDECIDED == 0 {
                    continue;
                }
                let Some(pos) = index.position_in::<R>(&mut walk, i as u64) else {
                    continue;
                };
                moves.clear();
                pos.generate(&mut moves);
                let mut n = 0u16;
                let mut win: Option<u16> = None;
                let mut cannot_lose = false;
                let mut longest_loss = 0u16;
                for mv in moves.iter() {
                    let child = pos.play_bare(mv);
                    let inside = !mv.promotes && Material::of(&child) == material;
                    let c = if inside {
                        let c = atomic[index.index(&child) as usize].load(Ordering::Relaxed);
                        if c & UNDECIDED != 0 {
                            n += 1;
                            continue;
                        }
                        c & LOW
                    } else {
                        solve(lower, &child).unwrap_or_else(|| {
                            panic!("slice {material}: a promotion leads to a missing slice")
                        })
                    };
                    let c = parent_code(c);
                    match c {
                        0 => cannot_lose = true,
                        _ if c % 2 == 0 => {
                            cannot_lose = true;
                            let d = c - 1;
                            win = Some(win.map_or(d, |w| w.min(d)));
                        }
                        _ => longest_loss = longest_loss.max(c - 1),
                    }
                }
                assert!(
                    n < NEVER && longest_loss < NEVER && win.is_none_or(|d| d < NEVER),
                    "slice {material}: a distance or move count past the tags"
                );
                let v = match win {
                    Some(d) => PENDING | d,
                    None if cannot_lose => PENDING | NEVER,
                    None if n == 0 => PENDING | longest_loss,
                    None => n,
                };
                if v & PENDING != 0 && v & LOW != NEVER {
                    furthest.fetch_max(u32::from(v & LOW), Ordering::Relaxed);
                }
                atomic[i].store(UNDECIDED | v, Ordering::Relaxed);
            }
        });
    }
    progress(&format!(
        "slice {material}: moves counted in {:.1} s",
        started.elapsed().as_secs_f64()
    ));

    // The backward sweep, level by level of distance.
    {
        let atomic = &codes[..];
        let mut n: u16 = 0;
        while u32::from(n) <= furthest.load(Ordering::Relaxed) {
            assert!(n + 2 < NEVER, "slice {material}: a distance past the tags");
            let lost = n % 2 == 0;
            par_ranges(len, threads, |start, end| {
                for i in start..end {
                    let v = atomic[i].load(Ordering::Relaxed);
                    if v == UNDECIDED | PENDING | n {
                        atomic[i].store(n + 1, Ordering::Relaxed);
                    } else if v != n + 1 {
                        continue;
                    }
                    let Some((w, b, k, side, runs)) = index.sets::<BitsOf<R>>(i as u64) else {
                        continue;
                    };
                    predecessors::<R>(w, b, k, side, runs, |pw, pb, pk, pruns| {
                        let q = index.index_of(pw, pb, pk, side.opponent(), pruns) as usize;
                        let cell = &atomic[q];
                        let mut c = cell.load(Ordering::Relaxed);
                        loop {
                            if c & UNDECIDED == 0 {
                                return;
                            }
                            let next = if lost {
                                // A move to a lost position wins; a shorter win than any pending.
                                n + 2
                            } else if c & PENDING != 0 {
                                // It cannot lose (or has no move inside, and is no predecessor).
                                return;
                            } else if c & LOW > 1 {
                                c - 1
                            } else {
                                // The last move inside is won for the opponent: every successor
                                // is decided, and the longest of them sets the loss.
                                let pos = index.position::<R>(q as u64).unwrap_or_else(|| {
                                    panic!("slice {material}: a predecessor names no position")
                                });
                                let mut moves = MoveList::new();
                                pos.generate(&mut moves);
                                best_of(lower, index, &pos, &moves, |k| {
                                    let c = atomic[k as usize].load(Ordering::Relaxed);
                                    assert!(c & UNDECIDED == 0, "slice {material}: counted moves left");
                                    c & LOW
                                })
                            };
                            match cell.compare_exchange_weak(c, next, Ordering::Relaxed, Ordering::Relaxed) {
                                Ok(_) => {
                                    if next & UNDECIDED == 0 {
                                        furthest.fetch_max(u32::from(next - 1), Ordering::Relaxed);
                                    }
                                    return;
                                }
                                Err(now) => c = now,
                            }
                        }
                    });
                }
            });
            n += 1;
            if n % 32 == 0 {
                progress(&format!(
                    "slice {material}: distance {n} of at least {} in {:.1} s",
                    furthest.load(Ordering::Relaxed),
                    started.elapsed().as_secs_f64()
                ));
            }
        }
    }

    // Indices the tables do not decide hold the code before them (longer runs in the file).
    let mut stats = BuildStats::default();
    let mut prev = DRAW;
    // Same size and alignment: collected in place.
    let mut codes: Vec<Code> = codes.into_iter().map(AtomicU16::into_inner).collect();
    for c in &mut codes {
        let v = *c;
        if v == INVALID {
            *c = prev;
        } else if v & UNDECIDED == 0 && v & PENDING != 0 {
            stats.positions += 1;
            if v & LOW != LOST_NOW {
                stats.captures += 1;
            } else {
                stats.losses += 1;
            }
            *c = prev;
        } else {
            stats.positions += 1;
            if v & UNDECIDED != 0 {
                *c = DRAW;
            }
            match *c {
                0 => stats.draws += 1,
                d if d % 2 == 0 => stats.wins += 1,
                _ => stats.losses += 1,
            }
            stats.longest = stats.longest.max(u32::from(c.saturating_sub(1)));
            prev = *c;
        }
    }
    progress(&format!(
        "slice {material}: solved in {:.1} s: {} positions, {} with a capture, {} wins, {} losses, {} draws, longest {} plies",
        started.elapsed().as_secs_f64(),
        stats.positions,
        stats.captures,
        stats.wins,
        stats.losses,
        stats.draws,
        stats.longest
    ));
    (
        SliceTable {
            index: index.clone(),
            codes,
        },
        stats,
    )
}

/// Calls `f` with the piece sets (White, Black, kings) and Frisian runs of every position from
/// which the side that did not move in `(w, b, k, side, runs)` reaches it by a quiet move that
/// neither captures nor promotes.
///
/// Frisian runs (Art. 17, as `Draughts::update_runs` keeps them): a quiet move leaves the other
/// side's run as it is. For the mover, when it has both kings and men: a man's step leaves no run,
/// and before it the run was anything (none, or any of its kings at any count); a king's move to
/// `x` leaves the run `(x, c)`: with `c > 1` the run before was `(from, c - 1)`, with `c = 1` it was
/// none or a run of another king (a run of the moving king would have grown). A king at the limit
/// has no quiet move, so `(from, limit)` never comes before. A mover with only kings, or only men,
/// has no run before or after.
fn predecessors<R: Rules>(
    w: BitsOf<R>,
    b: BitsOf<R>,
    k: BitsOf<R>,
    side: Side,
    runs: [KingRun; 2],
    mut f: impl FnMut(BitsOf<R>, BitsOf<R>, BitsOf<R>, [KingRun; 2]),
) {
    let mover = side.opponent();
    let m = mover.index();
    let empty = R::Board::VALID & !(w | b);
    let own = if mover == Side::White { w } else { b };
    let limit = R::KING_MOVE_LIMIT;
    let tracked = limit > 0 && !(own & !k).is_empty() && !(own & k).is_empty();
    let run = runs[m];
    // The mover's men step forward (FMJD 3.4): White's up the board, Black's down; one step back
    // undoes it.
    let back = if mover == Side::White {
        [R::Board::DOWN_LEFT, R::Board::DOWN_RIGHT]
    } else {
        [R::Board::UP_LEFT, R::Board::UP_RIGHT]
    };
    // Every run the mover may have had before a move, given the kings that did not move.
    let any_run = |kings: BitsOf<R>, f: &mut dyn FnMut(KingRun)| {
        f(KingRun::default());
        for y in kings.iter() {
            for count in 1..=limit {
                f(KingRun {
                    count,
                    square: y as u8,
                });
            }
        }
    };
    let mut emit = |from: u32, to: BitsOf<R>, king: bool, before: KingRun| {
        let from_bit = BitsOf::<R>::bit(from);
        let moved = from_bit | to;
        let (pw, pb) = if mover == Side::White {
            (w ^ moved, b)
        } else {
            (w, b ^ moved)
        };
        let pk = if king { k ^ moved } else { k };
        let mut pruns = runs;
        pruns[m] = before;
        f(pw, pb, pk, pruns);
    };
    for x in own.iter() {
        let at = BitsOf::<R>::bit(x);
        if k.has(x) {
            // A tracked king's move leaves a run on its square.
            if tracked && (run.count == 0 || u32::from(run.square) != x) {
                continue;
            }
            // A king moves along the diagonals, any distance over empty squares (FMJD 3.9) or one
            // step (English 1.19).
            for d in R::Board::DIAGONALS {
                let mut s = at;
                loop {
                    s = R::Board::step(s, d) & empty;
                    if s.is_empty() {
                        break;
                    }
                    if !tracked {
                        emit(x, s, true, KingRun::default());
                    } else if run.count > 1 {
                        let from = s.iter().next().unwrap_or(0) as u8;
                        emit(
                            x,
                            s,
                            true,
                            KingRun {
                                count: run.count - 1,
                                square: from,
                            },
                        );
                    } else {
                        any_run(own & k & !at, &mut |before| emit(x, s, true, before));
                    }
                    if !R::FLYING_KINGS {
                        break;
                    }
                }
            }
        } else {
            // A tracked man's step leaves no run.
            if tracked && run.count != 0 {
                continue;
            }
            for d in back {
                let s = R::Board::step(at, d) & empty;
                if s.is_empty() {
                    continue;
                }
                if tracked {
                    any_run(own & k, &mut |before| emit(x, s, false, before));
                } else {
                    emit(x, s, false, KingRun::default());
                }
            }
        }
    }
}

/// A slice held by [`Built`]: decoded (two bytes an index, an array read a look-up) or as its
/// file (a block decoded a look-up), for slices too large to hold decoded beside the one being
/// built.
pub enum Held {
    /// Every code, in index order.
    Decoded(SliceTable),
    /// The compressed file.
    Packed(SliceFile),
}

impl Held {
    /// Bytes in memory.
    pub fn bytes(&self) -> usize {
        match self {
            Held::Decoded(t) => t.codes.len() * 2,
            Held::Packed(f) => f.bytes(),
        }
    }
}

/// The slices built so far, kept in memory: the source the next slices read. A slice is found by
/// its material's dense key (an array read: the builder and `verify` look one up for every
/// successor of every position, where hashing the material took about 15 % of `verify`'s time:
/// `perf record` on International 5).
pub struct Built<R: Rules> {
    /// For each material key, the slice if held.
    held: Vec<Option<Held>>,
    rules: std::marker::PhantomData<R>,
}

impl<R: Rules> Default for Built<R> {
    fn default() -> Self {
        Built {
            held: (0..Material::KEYS).map(|_| None).collect(),
            rules: std::marker::PhantomData,
        }
    }
}

impl<R: Rules> Built<R> {
    /// Adds a decoded slice (replacing one of the same material).
    pub fn insert(&mut self, t: SliceTable) {
        let k = t.index.material.key();
        self.held[k] = Some(Held::Decoded(t));
    }
    /// Adds a slice as its file (replacing one of the same material).
    pub fn insert_packed(&mut self, f: SliceFile) {
        let k = f.index.material.key();
        self.held[k] = Some(Held::Packed(f));
    }
    /// A slice, if held decoded.
    #[inline]
    pub fn get(&self, m: Material) -> Option<&SliceTable> {
        match self.held.get(m.key())? {
            Some(Held::Decoded(t)) => Some(t),
            _ => None,
        }
    }
    /// Whether a slice is held, decoded or not.
    pub fn has(&self, m: Material) -> bool {
        self.held.get(m.key()).is_some_and(Option::is_some)
    }
    /// Bytes held for a slice (0 if not held).
    pub fn bytes_of(&self, m: Material) -> usize {
        self.held[m.key()].as_ref().map_or(0, Held::bytes)
    }
    /// Drops a slice; returns the bytes freed.
    pub fn remove(&mut self, m: Material) -> usize {
        self.held[m.key()].take().map_or(0, |h| h.bytes())
    }
    /// The materials held, with `top` pieces.
    pub fn held_at(&self, top: u32) -> Vec<Material> {
        self.held
            .iter()
            .flatten()
            .map(|h| match h {
                Held::Decoded(t) => t.index.material,
                Held::Packed(f) => f.index.material,
            })
            .filter(|m| m.total() == top)
            .collect()
    }
    /// Frees the slices of `top` pieces (the most being built) that neither `next` nor any slice
    /// after it in build order ([`Material::all_up_to`]) can read: those with fewer men than
    /// `next`'s men minus one, once `next` has `top` pieces. A slice reads only slices with fewer
    /// pieces (a capture removes at least one: so every slice below `top` stays) and, with as many
    /// pieces, the slices with one man fewer (a promotion turns one man into a king); its
    /// colour-swapped twin has as many men. This bounds the builder's memory by the slices below
    /// `top` plus two levels of men at `top`, instead of every slice built. Returns the bytes freed.
    pub fn release_before(&mut self, next: Material, top: u32) -> usize {
        if next.total() != top {
            return 0;
        }
        let mut freed = 0;
        for m in self.held_at(top) {
            if m.men() + 1 < next.men() {
                freed += self.remove(m);
            }
        }
        freed
    }
    /// Bytes held (two a position for decoded slices, the file's for the others).
    pub fn bytes(&self) -> usize {
        self.held.iter().flatten().map(Held::bytes).sum()
    }
}

impl<R: Rules> Source<R> for Built<R> {
    #[inline]
    fn lookup(&self, pos: &Draughts<R>) -> Option<Code> {
        match self.held.get(Material::of(pos).key())?.as_ref()? {
            Held::Decoded(t) => t.codes.get(t.index.index(pos) as usize).copied(),
            Held::Packed(f) => f.get(f.index.index(pos)),
        }
    }
}

/// The 180-degree turn of a set of squares: the board seen from the other side.
fn turn<R: Rules>(s: BitsOf<R>) -> BitsOf<R> {
    let (w, h) = (R::Board::WIDTH, R::Board::HEIGHT);
    s.iter().fold(BitsOf::<R>::EMPTY, |acc, b| {
        let (c, r) = R::Board::coords(b);
        let t = R::Board::at(w - 1 - c, h - 1 - r).expect("the turned board has the same playing squares");
        acc | BitsOf::<R>::bit(t)
    })
}

/// A Frisian run on the turned board.
fn turn_run<R: Rules>(run: KingRun) -> KingRun {
    if run.count == 0 {
        return run;
    }
    let square = turn::<R>(BitsOf::<R>::bit(u32::from(run.square)))
        .iter()
        .next()
        .unwrap_or(0) as u8;
    KingRun { square, ..run }
}

/// The colours swapped: White men and kings become Black's, and the other way round.
pub fn swapped(m: Material) -> Material {
    Material {
        wm: m.bm,
        wk: m.bk,
        bm: m.wm,
        bk: m.wk,
    }
}

/// The file of a slice made from its colour-swapped twin: the rules of the supported variants
/// are the same for both colours once the board is turned (men step toward the far row, FMJD
/// 3.4), so a position and its turned, colour-swapped copy with the other side to move have one
/// value. Indices the tables do not decide (no position, a capture pending, no move) hold the
/// code before them, as in a solved slice: copying the twin's filler there, in the twin's order,
/// made the mirrored files twice the size of their twins' (measured 2026-11-26: 117.1 MB against 59.0 MB
/// for Russian's 5-piece slices, 966.5 MB against 528.9 MB for International's).
///
/// The codes are computed a group at a time on `threads` threads and encoded as they come, so
/// only the twin is held decoded (Frisian 1211 is 6.9 G indices, 13.9 GB decoded).
pub fn mirror_file<R: Rules>(twin: &SliceTable, m: Material, threads: usize) -> Vec<u8> {
    debug_assert_eq!(swapped(twin.index.material), m);
    let index = SliceIndex::new::<R>(m);
    let len = usize::try_from(index.len()).expect("a slice's indices fit the address space");
    // Every decided position of the twin is the image of one of this slice's, and the filler
    // copies decided codes: the largest code is the twin's.
    let max_code = twin.codes.iter().copied().max().unwrap_or(DRAW);
    let mut enc = Encoder::new(max_code);
    let group = shared_codes(MIRROR_GROUP.min(len), DRAW);
    let mut part = Vec::with_capacity(group.len());
    let mut prev = DRAW;
    let mut base = 0;
    while base < len {
        let size = MIRROR_GROUP.min(len - base);
        {
            let atomic = &group[..size];
            par_ranges(size, threads, |start, end| {
                let mut walk = Walk::new();
                for (j, cell) in (start..end).zip(&atomic[start..end]) {
                    let i = (base + j) as u64;
                    let mut v = UNDECIDED;
                    if let Some((w, b, k, side, runs)) = index.sets_in::<BitsOf<R>>(&mut walk, i)
                        && let Ok(pos) = Draughts::<R>::from_parts(w, b, k, side, runs)
                        && decided(&pos)
                    {
                        let t = twin.index.index_of(
                            turn::<R>(b),
                            turn::<R>(w),
                            turn::<R>(k),
                            side.opponent(),
                            [turn_run::<R>(runs[1]), turn_run::<R>(runs[0])],
                        );
                        v = twin.codes[t as usize];
                    }
                    cell.store(v, Ordering::Relaxed);
                }
            });
        }
        part.clear();
        part.extend(group[..size].iter().map(|a| a.load(Ordering::Relaxed)));
        for c in part.iter_mut() {
            if *c == UNDECIDED {
                *c = prev;
            } else {
                prev = *c;
            }
        }
        enc.push(&part);
        base += size;
    }
    enc.finish(R::ENDGAME, &index)
}

/// A slice made from its colour-swapped twin, decoded (see [`mirror_file`]).
pub fn mirror_slice<R: Rules>(twin: &SliceTable, m: Material) -> SliceTable {
    let index = SliceIndex::new::<R>(m);
    let f = SliceFile::decode(R::ENDGAME, index.clone(), mirror_file::<R>(twin, m, 1))
        .expect("a file just encoded decodes");
    SliceTable {
        index,
        codes: f.decode_all().expect("a file just encoded decodes"),
    }
}

/// Whether the tables decide a position by its own stored value: its side to move has a move and
/// no capture (the build's other positions, lost at once or with a capture pending, hold filler).
/// The piece sets tell most positions' class without a move generated.
pub(super) fn decided<R: Rules>(pos: &Draughts<R>) -> bool {
    match pos.capture_free() {
        Some(has_move) => has_move,
        None => {
            let mut moves = MoveList::new();
            pos.generate(&mut moves);
            moves.first().is_some_and(|mv| !pos.is_capture(mv))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::rules::RussianRules;

    /// The memory bound of `build` and `verify`: walking the build order to 5 pieces, a slice
    /// that a later slice may read (fewer pieces, or as many with one man fewer) is never freed,
    /// and the 5-piece slices are freed two levels of men behind, so less than all is held.
    #[test]
    fn release_keeps_what_later_slices_read_and_frees_the_rest() {
        let top = 5;
        let order = Material::all_up_to(top);
        let mut built = Built::<RussianRules>::default();
        let (mut held, mut peak, mut all) = (0usize, 0usize, 0usize);
        for (i, &m) in order.iter().enumerate() {
            held -= built.release_before(m, top);
            for later in &order[i..] {
                for &earlier in &order[..i] {
                    let read = earlier.total() < later.total() || earlier.men() + 1 >= later.men();
                    if read {
                        assert!(built.get(earlier).is_some(), "{earlier} freed before {later}");
                    }
                }
            }
            let len = SliceIndex::new::<RussianRules>(m).len() as usize;
            built.insert(SliceTable {
                index: SliceIndex::new::<RussianRules>(m),
                codes: vec![0; len],
            });
            held += len * 2;
            all += len * 2;
            peak = peak.max(held);
            assert_eq!(held, built.bytes());
        }
        assert!(built.get(Material::parse("0401").unwrap()).is_none());
        assert!(peak < all * 3 / 4, "peak {peak} of {all} bytes");
    }
}
