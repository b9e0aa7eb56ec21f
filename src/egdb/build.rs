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
//! exact for the variants [`super::supports`] accepts. Passes A and B run on several threads; the
//! backward sweep is sequential and cheap.

use super::index::{Material, SliceIndex};
use super::{Code, LOST_NOW, Source, parent_code, preference, solve};
use crate::bits::Bits;
use crate::draughts::geom::Geometry;
use crate::draughts::rules::Rules;
use crate::draughts::{BitsOf, Draughts, KingRun};
use crate::game::{Game, MoveList, Side};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// Class of an index: names no position.
const INVALID: u8 = 0;
/// Class of an index: value known from pass A (no move, or a capture pending).
const FIXED: u8 = 1;
/// Class of an index: quiet, decided by the backward sweep.
const QUIET: u8 = 2;
/// A value not yet known.
const UNSET: Code = Code::MAX;
/// `loss` mark of a position that cannot lose (an exit draws or wins).
const CANNOT_LOSE: u16 = u16::MAX;
/// Indices handed to a thread at a time.
const CHUNK: usize = 1 << 14;

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

/// Runs `f` on every chunk of the zipped arrays on `threads` threads.
fn par_chunks<A: Send, B: Send, F>(a: &mut [A], b: &mut [B], threads: usize, f: F)
where
    F: Fn(usize, &mut [A], &mut [B]) + Sync,
{
    let work: Vec<(usize, &mut [A], &mut [B])> = a
        .chunks_mut(CHUNK)
        .zip(b.chunks_mut(CHUNK))
        .enumerate()
        .map(|(i, (x, y))| (i * CHUNK, x, y))
        .collect();
    let queue = Mutex::new(work);
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| {
                loop {
                    let item = queue.lock().map(|mut q| q.pop()).ok().flatten();
                    let Some((start, x, y)) = item else { break };
                    f(start, x, y);
                }
            });
        }
    });
}

/// Builds one slice. `lower` must answer for every slice this one converts into (captures and
/// promotions). `progress` receives lines for the user.
///
/// # Panics
/// If the slice has more than 2^32 indices.
pub fn build_slice<R: Rules, S: Source<R> + Sync + ?Sized>(
    lower: &S,
    material: Material,
    threads: usize,
    progress: &mut dyn FnMut(&str),
) -> (SliceTable, BuildStats) {
    let index = SliceIndex::new::<R>(material);
    let len = index.len() as usize;
    assert!(
        len < u32::MAX as usize,
        "slice {material} too large to index with u32"
    );
    let started = Instant::now();
    let mut class = vec![INVALID; len];
    let mut codes = vec![UNSET; len];
    let done = AtomicU64::new(0);

    // Pass A: classes, and the values of positions with no move or a capture pending.
    par_chunks(&mut class, &mut codes, threads, |start, cls, val| {
        let mut moves = MoveList::new();
        for j in 0..cls.len() {
            let Some(pos) = index.position::<R>((start + j) as u64) else {
                continue;
            };
            moves.clear();
            pos.generate(&mut moves);
            if moves.is_empty() {
                cls[j] = FIXED;
                val[j] = LOST_NOW;
            } else if pos.is_capture(&moves[0]) {
                cls[j] = FIXED;
                let mut best: Option<Code> = None;
                for mv in moves.iter() {
                    let c = solve(lower, &pos.play_bare(mv)).map(parent_code);
                    let c =
                        c.unwrap_or_else(|| panic!("slice {material}: a capture leads to a missing slice"));
                    if best.is_none_or(|b| preference(c) > preference(b)) {
                        best = Some(c);
                    }
                }
                val[j] = best.unwrap_or(LOST_NOW);
            } else {
                cls[j] = QUIET;
            }
        }
        done.fetch_add(cls.len() as u64, Ordering::Relaxed);
    });
    progress(&format!(
        "slice {material}: {len} indices, classes and captures in {:.1} s",
        started.elapsed().as_secs_f64()
    ));

    // Pass B: count the moves inside the slice, fold the exits.
    let mut count = vec![0u8; len];
    let mut loss = vec![0u16; len];
    let pushes: Mutex<Vec<(u16, u32)>> = Mutex::new(Vec::new());
    {
        let class = &class;
        let codes = &codes;
        let pushes = &pushes;
        par_chunks(&mut count, &mut loss, threads, |start, cnt, lss| {
            let mut moves = MoveList::new();
            let mut local = Vec::new();
            for j in 0..cnt.len() {
                let i = start + j;
                if class[i] != QUIET {
                    continue;
                }
                let Some(pos) = index.position::<R>(i as u64) else {
                    continue;
                };
                moves.clear();
                pos.generate(&mut moves);
                let mut n = 0u32;
                let mut win: Option<u16> = None;
                let mut cannot_lose = false;
                let mut longest_loss = 0u16;
                for mv in moves.iter() {
                    let child = pos.play_bare(mv);
                    let inside = !mv.promotes && Material::of(&child) == material;
                    let c = if inside {
                        let k = index.index(&child) as usize;
                        if class[k] == QUIET {
                            n += 1;
                            continue;
                        }
                        codes[k]
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
                assert!(n < 256, "more than 255 moves inside a slice");
                cnt[j] = n as u8;
                lss[j] = if cannot_lose { CANNOT_LOSE } else { longest_loss };
                if let Some(w) = win {
                    local.push((w, i as u32));
                } else if n == 0 && !cannot_lose {
                    local.push((longest_loss, i as u32));
                }
            }
            if let Ok(mut p) = pushes.lock() {
                p.extend(local);
            }
        });
    }
    progress(&format!(
        "slice {material}: moves counted in {:.1} s",
        started.elapsed().as_secs_f64()
    ));

    // The backward sweep, by distance.
    let mut buckets: Vec<Vec<u32>> = Vec::new();
    for (d, i) in pushes.into_inner().unwrap_or_default() {
        let d = usize::from(d);
        if buckets.len() <= d {
            buckets.resize_with(d + 1, Vec::new);
        }
        buckets[d].push(i);
    }
    let mut stats = BuildStats::default();
    let mut n = 0;
    while n < buckets.len() {
        let bucket = std::mem::take(&mut buckets[n]);
        for &i in &bucket {
            let i = i as usize;
            if codes[i] != UNSET {
                continue;
            }
            codes[i] = (n + 1) as Code;
            stats.longest = stats.longest.max(n as u32);
            let Some((w, b, k, side, runs)) = index.sets::<BitsOf<R>>(i as u64) else {
                continue;
            };
            let lost = n % 2 == 0;
            predecessors::<R>(w, b, k, side, runs, |pw, pb, pk, pruns| {
                let q = index.index_of(pw, pb, pk, side.opponent(), pruns) as usize;
                if class[q] != QUIET || codes[q] != UNSET {
                    return;
                }
                let target = if lost {
                    n + 1
                } else {
                    count[q] = count[q]
                        .checked_sub(1)
                        .unwrap_or_else(|| panic!("slice {material}: more predecessors than moves"));
                    if loss[q] != CANNOT_LOSE {
                        loss[q] = loss[q].max((n + 1) as u16);
                    }
                    if count[q] > 0 || loss[q] == CANNOT_LOSE {
                        return;
                    }
                    usize::from(loss[q])
                };
                if buckets.len() <= target {
                    buckets.resize_with(target + 1, Vec::new);
                }
                buckets[target].push(q as u32);
            });
        }
        n += 1;
    }
    // Indices the tables do not decide hold the code before them (longer runs in the file).
    let mut prev = super::DRAW;
    for i in 0..len {
        match class[i] {
            INVALID => codes[i] = prev,
            FIXED => {
                stats.positions += 1;
                if codes[i] != LOST_NOW {
                    stats.captures += 1;
                } else {
                    stats.losses += 1;
                }
                codes[i] = prev;
            }
            _ => {
                stats.positions += 1;
                if codes[i] == UNSET {
                    codes[i] = super::DRAW;
                }
                match codes[i] {
                    0 => stats.draws += 1,
                    c if c % 2 == 0 => stats.wins += 1,
                    _ => stats.losses += 1,
                }
                prev = codes[i];
            }
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
    (SliceTable { index, codes }, stats)
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

/// The slices built so far, kept in memory: the source the next slices read. A slice is found by
/// its material's dense key (an array read: the builder and `verify` look one up for every
/// successor of every position, where hashing the material took about 15 % of `verify`'s time:
/// `perf record` on International 5).
pub struct Built<R: Rules> {
    tables: Vec<SliceTable>,
    /// For each material key, the slice's place in `tables` plus one (0: not built).
    slot: Vec<u32>,
    rules: std::marker::PhantomData<R>,
}

impl<R: Rules> Default for Built<R> {
    fn default() -> Self {
        Built {
            tables: Vec::new(),
            slot: vec![0; Material::KEYS],
            rules: std::marker::PhantomData,
        }
    }
}

impl<R: Rules> Built<R> {
    /// Adds a slice (replacing one of the same material).
    pub fn insert(&mut self, t: SliceTable) {
        let k = t.index.material.key();
        match self.slot[k] {
            0 => {
                self.tables.push(t);
                self.slot[k] = self.tables.len() as u32;
            }
            s => self.tables[s as usize - 1] = t,
        }
    }
    /// A slice, if built.
    #[inline]
    pub fn get(&self, m: Material) -> Option<&SliceTable> {
        let s = *self.slot.get(m.key())?;
        s.checked_sub(1).map(|s| &self.tables[s as usize])
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
        for t in &mut self.tables {
            let m = t.index.material;
            if m.total() == top && m.men() + 1 < next.men() && !t.codes.is_empty() {
                freed += t.codes.len() * 2;
                t.codes = Vec::new();
                self.slot[m.key()] = 0;
            }
        }
        freed
    }
    /// Bytes held (two a position).
    pub fn bytes(&self) -> usize {
        self.tables.iter().map(|t| t.codes.len() * 2).sum()
    }
}

impl<R: Rules> Source<R> for Built<R> {
    #[inline]
    fn lookup(&self, pos: &Draughts<R>) -> Option<Code> {
        let t = self.get(Material::of(pos))?;
        t.codes.get(t.index.index(pos) as usize).copied()
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

/// A slice made from its colour-swapped twin: the rules of the supported variants are the same
/// for both colours once the board is turned (men step toward the far row, FMJD 3.4), so a
/// position and its turned, colour-swapped copy with the other side to move have one value.
/// Indices the tables do not decide (no position, a capture pending, no move) hold the code
/// before them, as in a solved slice: copying the twin's filler there, in the twin's order, made
/// the mirrored files twice the size of their twins' (session 15: 117.1 MB against 59.0 MB for
/// Russian's 5-piece slices, 966.5 MB against 528.9 MB for International's).
pub fn mirror_slice<R: Rules>(twin: &SliceTable, m: Material) -> SliceTable {
    debug_assert_eq!(swapped(twin.index.material), m);
    let index = SliceIndex::new::<R>(m);
    let mut prev = super::DRAW;
    let codes = (0..index.len())
        .map(|i| {
            if let Some(pos) = index.position::<R>(i)
                && decided(&pos)
                && let Some((w, b, k, side, runs)) = index.sets::<BitsOf<R>>(i)
            {
                let j = twin.index.index_of(
                    turn::<R>(b),
                    turn::<R>(w),
                    turn::<R>(k),
                    side.opponent(),
                    [turn_run::<R>(runs[1]), turn_run::<R>(runs[0])],
                );
                prev = twin.codes[j as usize];
            }
            prev
        })
        .collect();
    SliceTable { index, codes }
}

/// Whether the tables decide a position by its own stored value: its side to move has a move and
/// no capture (the build's other positions, lost at once or with a capture pending, hold filler).
fn decided<R: Rules>(pos: &Draughts<R>) -> bool {
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
