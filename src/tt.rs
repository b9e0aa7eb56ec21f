//! The transposition table: one table shared by every search, sized in MiB.
//!
//! **Race policy.** The table is read and written without locks, by any number of threads, with
//! relaxed atomics. An entry is two `AtomicU64` words, `check = key ^ data` and `data`; a reader
//! loads both and accepts the entry only when `check ^ data` gives back its own key. A write that
//! races with another write or with a read can leave the two words from different stores (a torn
//! entry); the check then fails and the entry reads as a miss, so a reader never sees a move or
//! score that belongs to another position, except through a genuine 64-bit key collision, which the
//! search tolerates: a stored move is an index into the move list and is checked against its length
//! before use. Lost writes and stale entries only cost search effort, never correctness, which is
//! why no stronger ordering is needed (Stockfish `tt.h`, Hyatt's lockless hashing).
//!
//! Entries live in clusters of four (64 bytes, one cache line). Each search starts a new generation
//! ([`Tt::new_search`]); replacement prefers, in order, the entry of the same position, an empty
//! entry, then the one with the least `depth - 8 * age`, so deep entries of old searches give way.
//!
//! Scores are stored relative to the node: a win or loss counted in plies from the root is
//! converted to plies from the node on store ([`score_to_tt`]) and back on probe
//! ([`score_from_tt`]), so an entry found at another ply still gives the right distance.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

/// Scores at or above this magnitude are wins or losses counted in plies.
pub const WIN_BOUND: i32 = 30_000 - 1_000;

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at most the score (a fail-low).
    Upper = 1,
    /// The true value is at least the score (a fail-high).
    Lower = 2,
    /// The score is exact.
    Exact = 3,
}

/// A copy of one entry, as a probe returns it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Index of the best move in the position's generated move list, if any.
    pub mv: Option<u16>,
    /// The score, already adjusted to the probing ply.
    pub score: i32,
    /// Depth of the search that produced the entry.
    pub depth: u8,
    /// What the score bounds.
    pub bound: Bound,
}

const NO_MOVE: u64 = 0xFFFF;
const CLUSTER: usize = 4;

/// Packs an entry into its data word: move 16 bits, score 16, depth 8, bound 2, generation 6.
fn pack(mv: Option<u16>, score: i32, depth: u8, bound: Bound, generation: u8) -> u64 {
    let mv = mv.map_or(NO_MOVE, u64::from);
    let score = u64::from(score.clamp(i16::MIN.into(), i16::MAX.into()) as i16 as u16);
    mv | score << 16 | u64::from(depth) << 32 | (bound as u64) << 40 | u64::from(generation & 63) << 42
}

fn unpack_bound(data: u64) -> Option<Bound> {
    match (data >> 40) & 3 {
        1 => Some(Bound::Upper),
        2 => Some(Bound::Lower),
        3 => Some(Bound::Exact),
        _ => None,
    }
}

fn generation_of(data: u64) -> u8 {
    ((data >> 42) & 63) as u8
}

fn depth_of(data: u64) -> u8 {
    (data >> 32) as u8
}

/// A win or loss score `score` found at `ply` from the root, as stored: relative to the node.
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    if score >= WIN_BOUND {
        score + ply
    } else if score <= -WIN_BOUND {
        score - ply
    } else {
        score
    }
}

/// A stored score read at `ply` from the root.
pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    if score >= WIN_BOUND {
        score - ply
    } else if score <= -WIN_BOUND {
        score + ply
    } else {
        score
    }
}

/// One cluster: `CLUSTER` entries as (check, data) word pairs, aligned on a 64-byte cache line.
/// A plain vector of words would start 16 bytes past a page boundary (the allocator's header of a
/// large block), so every cluster would straddle two cache lines and a probe that reads all four
/// entries would miss twice.
#[repr(align(64))]
struct Cluster([AtomicU64; 2 * CLUSTER]);

/// The shared transposition table.
pub struct Tt {
    /// The clusters; an entry is a (check, data) pair of words.
    table: Box<[Cluster]>,
    clusters: usize,
    generation: AtomicU8,
}

impl std::fmt::Debug for Tt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Tt({} clusters)", self.clusters)
    }
}

impl Tt {
    /// A table of about `mib` MiB (at least one cluster).
    ///
    /// # Panics
    /// When the memory cannot be had; front-ends use [`Tt::try_new`].
    pub fn new(mib: usize) -> Tt {
        Tt::try_new(mib).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A table of about `mib` MiB, or an error (never an abort) when the machine cannot give that
    /// much: more than [`Tt::max_mib`], or an allocation that fails.
    ///
    /// # Errors
    /// A message naming the size asked for and the limit.
    pub fn try_new(mib: usize) -> Result<Tt, String> {
        let limit = Tt::max_mib();
        if mib > limit {
            return Err(format!(
                "a {mib} MiB table does not fit: at most {limit} MiB (half the memory available)"
            ));
        }
        let bytes = mib.saturating_mul(1 << 20);
        let clusters = (bytes / (CLUSTER * 16)).max(1);
        let mut table: Vec<Cluster> = Vec::new();
        table
            .try_reserve_exact(clusters)
            .map_err(|_| format!("cannot allocate a {mib} MiB table"))?;
        // Before the first write, so that the pages are faulted in large.
        advise_huge_pages(table.as_ptr().cast(), clusters * size_of::<Cluster>());
        table.extend((0..clusters).map(|_| Cluster(std::array::from_fn(|_| AtomicU64::new(0)))));
        Ok(Tt {
            table: table.into_boxed_slice(),
            clusters,
            generation: AtomicU8::new(0),
        })
    }

    /// The largest table [`Tt::try_new`] builds: half the memory the system reports available
    /// (`MemAvailable` of `/proc/meminfo`), so that a table never pushes the machine into swap or
    /// the out-of-memory killer; 1 TiB where the system does not say.
    pub fn max_mib() -> usize {
        crate::meminfo::kib("MemAvailable")
            .map_or(1 << 20, |kib| {
                usize::try_from(kib / 1024 / 2).unwrap_or(usize::MAX)
            })
            .max(1)
    }

    /// The size in MiB the table was built with (rounded down).
    pub fn size_mib(&self) -> usize {
        (self.clusters * CLUSTER * 16) >> 20
    }

    /// Empties the table (a new game).
    pub fn clear(&self) {
        for w in self.table.iter().flat_map(|c| c.0.iter()) {
            w.store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: entries of earlier searches age and become easier to replace.
    pub fn new_search(&self) {
        let g = self.generation.load(Ordering::Relaxed);
        self.generation.store(g.wrapping_add(1) & 63, Ordering::Relaxed);
    }

    #[inline(always)]
    fn cluster(&self, key: u64) -> &[AtomicU64; 2 * CLUSTER] {
        // Multiply-shift maps the key onto any cluster count without a modulo.
        &self.table[((u128::from(key) * self.clusters as u128) >> 64) as usize].0
    }

    /// Starts loading the cluster of `key` into the cache, so that a [`Tt::probe`] of it soon
    /// after finds it there. A probe's load is otherwise the search's costliest instruction (a
    /// cache miss on a table many times larger than the cache).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        prefetch_line(self.cluster(key).as_ptr().cast());
    }

    /// The entry of the position with key `key`, its score adjusted to `ply`.
    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<Entry> {
        let words = self.cluster(key);
        for i in 0..CLUSTER {
            let check = words[2 * i].load(Ordering::Relaxed);
            let data = words[2 * i + 1].load(Ordering::Relaxed);
            if check ^ data != key || data == 0 {
                continue;
            }
            let bound = unpack_bound(data)?;
            let mv = (data & NO_MOVE != NO_MOVE).then_some((data & NO_MOVE) as u16);
            let score = score_from_tt(i32::from((data >> 16) as u16 as i16), ply);
            return Some(Entry {
                mv,
                score,
                depth: depth_of(data),
                bound,
            });
        }
        None
    }

    /// Stores a search result for the position with key `key` found at `ply`.
    ///
    /// An entry of the same position is overwritten unless it is deeper and the new result is not
    /// exact; its move is kept when the new result has none.
    #[inline]
    pub fn store(&self, key: u64, ply: usize, mv: Option<u16>, score: i32, depth: u8, bound: Bound) {
        let words = self.cluster(key);
        let generation = self.generation.load(Ordering::Relaxed) & 63;
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for i in 0..CLUSTER {
            let check = words[2 * i].load(Ordering::Relaxed);
            let data = words[2 * i + 1].load(Ordering::Relaxed);
            if data != 0 && check ^ data == key {
                let old_depth = depth_of(data);
                if bound != Bound::Exact
                    && old_depth > depth.saturating_add(2)
                    && generation_of(data) == generation
                {
                    return;
                }
                let old_mv = (data & NO_MOVE != NO_MOVE).then_some((data & NO_MOVE) as u16);
                write(
                    &words[2 * i..2 * i + 2],
                    key,
                    mv.or(old_mv),
                    score,
                    depth,
                    bound,
                    ply,
                    generation,
                );
                return;
            }
            let worth = if data == 0 {
                i32::MIN
            } else {
                let age = i32::from(generation.wrapping_sub(generation_of(data)) & 63);
                i32::from(depth_of(data)) - 8 * age
            };
            if worth < victim_worth {
                victim_worth = worth;
                victim = i;
            }
        }
        write(
            &words[2 * victim..2 * victim + 2],
            key,
            mv,
            score,
            depth,
            bound,
            ply,
            generation,
        );
    }

    /// Roughly how full the table is, in permille of a sample of entries of the current search.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed) & 63;
        let sample = (self.clusters * CLUSTER).min(1000);
        let used = (0..sample)
            .filter(|&i| {
                let data = self.table[i / CLUSTER].0[2 * (i % CLUSTER) + 1].load(Ordering::Relaxed);
                data != 0 && generation_of(data) == generation
            })
            .count();
        (used * 1000 / sample.max(1)) as u32
    }

    #[cfg(test)]
    fn raw(&self, key: u64) -> &[AtomicU64] {
        self.cluster(key)
    }
}

/// Asks Linux to back the `bytes` bytes at `start` with transparent huge pages (2 MiB instead of
/// 4 KiB) where the system leaves that to the program (`transparent_hugepage` in `madvise` mode, a
/// common default). A probe lands on a random cluster: with 4 KiB pages nearly every probe also
/// misses the TLB and walks the page tables; a 64 MiB table then needs 32 TLB entries instead of
/// 16,384. Measured: 9 to 12 % less CPU time for the same search (International, depth 17 from the
/// start and from a middle game, `perf stat`). Where the advice is refused or not understood, the
/// table simply keeps small pages; so does the part of a small table (below glibc's mmap threshold,
/// at most 32 MiB) that the allocator hands out from heap memory already in use.
#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
#[allow(unsafe_code)]
fn advise_huge_pages(start: *const u8, bytes: usize) {
    // x86_64 Linux pages are 4 KiB; madvise wants a page-aligned start. The pages the rounding
    // adds belong to the same allocation's mapping (or to other memory of this process, which the
    // advice cannot harm either); an unmapped page makes the call fail with ENOMEM, ignored.
    const PAGE: usize = 4096;
    let first = start as usize & !(PAGE - 1);
    let end = (start as usize).saturating_add(bytes);
    // SAFETY: MADV_HUGEPAGE is only advice on how to back a range of this process's address
    // space: it neither reads nor writes the memory, changes no contents, mapping or permission,
    // and takes no reference that could outlive the allocation. The pointer is not dereferenced.
    // This, the prefetch hint below, the map of a table file (`egdb::registry`) and the call of
    // the evaluation's BMI2 code (`eval::table`) are the crate's only `unsafe` (it denies unsafe
    // code elsewhere): the standard library has no
    // madvise, and the table cannot be an mmap of a safe crate without an unsafe view of its
    // bytes as atomics.
    unsafe {
        libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
    }
}

/// Asks the processor to bring the cache line at `p` closer (a hint: it never faults, reads
/// nothing into the program, and is dropped when the line is not mapped).
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
#[inline(always)]
fn prefetch_line(p: *const i8) {
    use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
    // SAFETY: `prefetch` needs SSE, which every x86_64 processor has; the instruction is a hint
    // that neither reads the memory into the program nor writes it, and cannot fault, whatever
    // the address (here always inside the table).
    unsafe { _mm_prefetch::<_MM_HINT_T0>(p) };
}

/// Elsewhere the hint is left out.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn prefetch_line(_p: *const i8) {}

/// Huge pages are only asked for on x86_64 Linux.
#[cfg(not(all(target_os = "linux", target_arch = "x86_64")))]
fn advise_huge_pages(_start: *const u8, _bytes: usize) {}

/// Writes one entry into its (check, data) pair.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn write(
    pair: &[AtomicU64],
    key: u64,
    mv: Option<u16>,
    score: i32,
    depth: u8,
    bound: Bound,
    ply: usize,
    generation: u8,
) {
    let data = pack(mv, score_to_tt(score, ply), depth, bound, generation);
    pair[0].store(key ^ data, Ordering::Relaxed);
    pair[1].store(data, Ordering::Relaxed);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe() {
        let tt = Tt::new(1);
        assert_eq!(tt.probe(0x1234_5678, 0), None);
        tt.store(0x1234_5678, 0, Some(7), -123, 5, Bound::Lower);
        let e = tt.probe(0x1234_5678, 0).unwrap();
        assert_eq!(
            e,
            Entry {
                mv: Some(7),
                score: -123,
                depth: 5,
                bound: Bound::Lower
            }
        );
        tt.store(99, 0, None, 0, 0, Bound::Exact);
        assert_eq!(tt.probe(99, 0).unwrap().mv, None);
        tt.clear();
        assert_eq!(tt.probe(0x1234_5678, 0), None);
    }

    #[test]
    fn win_scores_are_relative_to_the_node() {
        let tt = Tt::new(1);
        // A win 10 plies from the root found at ply 4 is a win in 6 from that node.
        tt.store(42, 4, None, 30_000 - 10, 3, Bound::Exact);
        assert_eq!(tt.probe(42, 4).unwrap().score, 30_000 - 10);
        assert_eq!(tt.probe(42, 2).unwrap().score, 30_000 - 8);
        tt.store(43, 4, None, -(30_000 - 10), 3, Bound::Exact);
        assert_eq!(tt.probe(43, 6).unwrap().score, -(30_000 - 12));
    }

    #[test]
    fn torn_or_foreign_entries_are_rejected() {
        let tt = Tt::new(1);
        let key = 0xDEAD_BEEF_0000_0001;
        tt.store(key, 0, Some(3), 50, 4, Bound::Exact);
        let words = tt.raw(key);
        let slot = (0..CLUSTER)
            .find(|&i| words[2 * i + 1].load(Ordering::Relaxed) != 0)
            .unwrap();
        // A torn write: the data word of another store next to this check word.
        let data = words[2 * slot + 1].load(Ordering::Relaxed);
        words[2 * slot + 1].store(data ^ (1 << 20), Ordering::Relaxed);
        assert_eq!(tt.probe(key, 0), None);
        words[2 * slot + 1].store(data, Ordering::Relaxed);
        assert!(tt.probe(key, 0).is_some());
        // Another key mapping to the same cluster does not read this entry.
        assert_eq!(tt.probe(key ^ 1, 0), None);
    }

    /// Where Linux gives huge pages on request (`transparent_hugepage` in `madvise` mode), the
    /// table's memory has some: the mapping that holds it counts `AnonHugePages` in smaps.
    #[test]
    #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
    fn the_table_gets_huge_pages_where_linux_gives_them_on_request() {
        let mode = std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled");
        if !mode.is_ok_and(|m| m.contains("[madvise]")) {
            return;
        }
        // 64 MiB: above glibc's largest mmap threshold (32 MiB), so the table is a mapping of its
        // own, never heap memory that other tests touched first (already on small pages).
        let tt = Tt::new(64);
        let at = tt.table.as_ptr() as usize;
        let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap();
        let mut inside = false;
        let mut huge_kib = None;
        for line in smaps.lines() {
            let head = line.split_whitespace().next().unwrap_or("");
            if let Some((lo, hi)) = head.split_once('-')
                && let (Ok(lo), Ok(hi)) = (usize::from_str_radix(lo, 16), usize::from_str_radix(hi, 16))
            {
                inside = lo <= at && at < hi;
            } else if inside && let Some(kib) = line.strip_prefix("AnonHugePages:") {
                huge_kib = kib.trim().trim_end_matches("kB").trim().parse::<usize>().ok();
            }
        }
        assert!(huge_kib.unwrap() >= 2048, "{huge_kib:?} KiB of huge pages");
    }

    #[test]
    fn every_cluster_fills_one_cache_line() {
        let tt = Tt::new(2);
        for key in [0u64, 1 << 40, u64::MAX / 3, u64::MAX] {
            let words = tt.raw(key);
            assert_eq!(words.as_ptr() as usize % 64, 0, "cluster of key {key:#x}");
            assert_eq!(std::mem::size_of_val(words), 64);
        }
    }

    #[test]
    fn replacement_prefers_shallow_and_old_entries() {
        let tt = Tt::new(1);
        // Keys that share a cluster: same high bits.
        let keys: Vec<u64> = (0..6u64).map(|i| 0x4000_0000_0000_0000 | i).collect();
        for (i, &k) in keys[..4].iter().enumerate() {
            tt.store(k, 0, None, 0, 10 + i as u8, Bound::Exact);
        }
        // The cluster is full: the shallowest (depth 10) gives way.
        tt.store(keys[4], 0, None, 0, 1, Bound::Exact);
        assert!(tt.probe(keys[0], 0).is_none());
        assert!(tt.probe(keys[4], 0).is_some());
        // After several searches the old deep entries age out before the fresh shallow one.
        for _ in 0..3 {
            tt.new_search();
        }
        tt.store(keys[5], 0, None, 0, 1, Bound::Exact);
        assert!(tt.probe(keys[4], 0).is_none());
        tt.store(keys[0], 0, None, 0, 1, Bound::Exact);
        assert!(tt.probe(keys[1], 0).is_none(), "an old depth-11 entry gives way");
        assert!(tt.probe(keys[5], 0).is_some(), "a fresh depth-1 entry stays");
        // A deeper bound of the current search is not overwritten by a shallower bound...
        tt.store(keys[5], 0, Some(1), 5, 9, Bound::Lower);
        tt.store(keys[5], 0, Some(2), 6, 2, Bound::Upper);
        assert_eq!(tt.probe(keys[5], 0).unwrap().depth, 9);
        // ...but an exact score is always written, keeping the move when it has none.
        tt.store(keys[5], 0, None, 7, 2, Bound::Exact);
        let e = tt.probe(keys[5], 0).unwrap();
        assert_eq!((e.depth, e.mv, e.score), (2, Some(1), 7));
    }
}
