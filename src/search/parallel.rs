//! The parallel driver: Lazy SMP. `n` threads search the same root with the same shared,
//! lock-free transposition table ([`crate::tt`]) and nothing else in common: each has its own
//! [`Search`] (killers, history, key stack, PV table). They help each other only through the
//! table: a line one thread has searched is a cutoff or a first move for the others.
//!
//! **Divergence.** Threads that searched the same depths in the same order would search the same
//! tree. A helper therefore picks its next depth to avoid the crowd: it skips every depth that at
//! least half of the team (rounded up) is already searching, so with two threads the helper is
//! almost always one ply ahead of the main thread, filling the table for the main thread's next
//! iteration, and with more threads they spread over two or three depths. Timing noise does the
//! rest (threads reach a node at different times, so they find different table entries).
//!
//! **The main thread leads; the deepest completed iteration decides.** Thread 0, the one
//! [`search`] runs on, keeps every limit (time, depth, ponder, MultiPV, `searchmoves`), sends
//! every `info` line while the search runs and ends it. With two threads the helper is usually a
//! ply ahead, so when time runs out it has often completed an iteration the main thread has not
//! reached: its move then comes from more search than the main thread's. The result is therefore
//! the iteration completed deepest by any thread (the main thread's on a tie), and when a
//! helper's is chosen its line is sent as one more `info` line first, so the line reported last
//! and the move played stay one and the same. A search with a depth limit or MultiPV keeps the
//! main thread's result (the helpers have no limit, and only the main thread ranks lines).
//!
//! **Nodes.** Each helper adds its count to the team's every [`super::POLL_NODES`] nodes; the main
//! thread's `info` lines and the result show the sum (the helpers' part lags by at most that).
//!
//! **Stop.** The client's `stop` flag is read by the main thread only; when its iterations end
//! (stopped, out of time or depth), it raises the helpers' own stop flag, which they read every
//! [`super::POLL_NODES`] nodes, and joins them. A stop thus takes two polls, about two
//! milliseconds. A panic in the main thread raises the flag too (on unwinding), so the helpers
//! never outlive it.
//!
//! **Threads live for one search** (scoped threads), each with the search stack the caller gives
//! (the engine's [`crate::engine::SEARCH_STACK`]). Starting a thread costs some 20 µs and its stack
//! is only reserved address space until touched, nothing next to a search of 0.1 s; a pool would
//! need its own parking, wake-up and shutdown protocol for no measurable gain, and fresh threads
//! start, like the single-thread search, with empty killers and history.
//!
//! **Node budgets** (`go nodes`, `level nodes`, and the limited-strength levels, which are node
//! budgets) run on one thread whatever the thread setting: a budget shared by racing threads would
//! no longer be reproducible, and the strength levels are calibrated on one thread.

use super::{Info, Limits, MAX_DEPTH, Search, SearchResult, Shared};
use crate::eval::Evaluate;
use crate::tt::Tt;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};

/// The most threads a search uses (the `threads` / `Threads` option's maximum).
pub const MAX_THREADS: usize = 64;

/// What the threads of one search share besides the table.
pub(super) struct Team {
    /// The helpers' nodes (the main thread counts its own).
    nodes: AtomicU64,
    /// How many threads search each depth now.
    searching: Vec<AtomicU32>,
    /// The threads of the team.
    size: AtomicU32,
}

impl Team {
    fn new() -> Team {
        Team {
            nodes: AtomicU64::new(0),
            searching: (0..=MAX_DEPTH + 1).map(|_| AtomicU32::new(0)).collect(),
            size: AtomicU32::new(0),
        }
    }

    pub(super) fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    pub(super) fn add_nodes(&self, n: u64) {
        self.nodes.fetch_add(n, Ordering::Relaxed);
    }

    fn searching(&self, depth: i32) -> &AtomicU32 {
        &self.searching[depth.clamp(0, MAX_DEPTH as i32 + 1) as usize]
    }
}

impl<G: Evaluate> Search<'_, G> {
    /// The depth of the iteration after `depth`: the next one, but a helper skips the depths at
    /// least half of its team is searching (never past `max`).
    pub(super) fn next_depth(&self, depth: i32, max: i32) -> i32 {
        let mut next = depth + 1;
        if let Some(team) = self.team.filter(|_| self.helper) {
            let crowd = team.size.load(Ordering::Relaxed).div_ceil(2);
            while next < max && team.searching(next).load(Ordering::Relaxed) >= crowd {
                next += 1;
            }
        }
        next
    }

    /// This thread starts an iteration of `depth`.
    pub(super) fn enter_depth(&self, depth: i32) {
        if let Some(team) = self.team {
            team.searching(depth).fetch_add(1, Ordering::Relaxed);
        }
    }

    /// This thread ends an iteration of `depth` (complete or not).
    pub(super) fn leave_depth(&self, depth: i32) {
        if let Some(team) = self.team {
            team.searching(depth).fetch_sub(1, Ordering::Relaxed);
        }
    }
}

/// Raises a stop flag when dropped, also on unwinding.
struct StopOnDrop<'a>(&'a AtomicBool);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Searches `root` (game history `history`, root moves restricted to `only` when it is not empty)
/// on `threads` threads, the calling one included, and returns the main thread's result with the
/// nodes of all. `report` gets the main thread's iterations. `stack` is the stack of each helper
/// thread, in bytes. One thread, or a node budget, is exactly the single-threaded [`Search::run`];
/// a helper that cannot be started is left out (the search goes on with fewer threads).
#[allow(clippy::too_many_arguments)]
pub fn search<G: Evaluate>(
    tt: &Tt,
    shared: &Shared,
    limits: Limits,
    history: &[u64],
    root: &G,
    only: &[G::Move],
    threads: usize,
    stack: usize,
    mut report: impl FnMut(Info<G::Move>),
) -> SearchResult<G::Move> {
    let threads = if limits.nodes.is_some() {
        1
    } else {
        threads.clamp(1, MAX_THREADS)
    };
    let team = Team::new();
    let helpers = Shared::default();
    let mut main = Search::new(tt, shared, limits, history, root);
    main.restrict_root(only);
    if threads == 1 {
        return main.run(root, report);
    }
    tt.new_search();
    std::thread::scope(|scope| {
        let stop_helpers = StopOnDrop(&helpers.stop);
        let mut handles = Vec::new();
        for k in 1..threads {
            team.size.fetch_add(1, Ordering::Relaxed);
            let (team, helpers) = (&team, &helpers);
            let spawned = std::thread::Builder::new()
                .name(format!("search-{k}"))
                .stack_size(stack)
                .spawn_scoped(scope, move || {
                    let mut helper = Search::new(tt, helpers, Limits::default(), history, root);
                    helper.restrict_root(only);
                    helper.team = Some(team);
                    helper.helper = true;
                    let mut lines = Vec::new();
                    let done = helper.iterate(root, |info| {
                        if info.multipv == 1 {
                            lines.push(info);
                        }
                    });
                    // Its deepest completed iteration (the last report may be a stopped one).
                    lines
                        .into_iter()
                        .rev()
                        .find(|i| done.depth > 0 && i.depth == done.depth)
                });
            match spawned {
                Ok(h) => handles.push(h),
                Err(_) => {
                    // Fewer threads than asked: the search goes on with those it has.
                    team.size.fetch_sub(1, Ordering::Relaxed);
                    break;
                }
            }
        }
        team.size.fetch_add(1, Ordering::Relaxed);
        main.team = Some(&team);
        let mut reported = 0;
        let mut result = main.iterate(root, |info| {
            reported = reported.max(info.depth);
            report(info);
        });
        drop(stop_helpers);
        // A helper's panic costs its help, not the search.
        let deepest = handles
            .into_iter()
            .filter_map(|h| h.join().ok().flatten())
            .max_by_key(|i| i.depth);
        main.wait_for_stop();
        result.nodes = main.nodes + team.nodes();
        let helpers_may_decide = limits.depth.is_none() && limits.multipv <= 1 && !main.immediate;
        if let Some(line) =
            deepest.filter(|l| helpers_may_decide && l.depth > result.depth && l.depth >= reported)
        {
            result.best = line.pv.first().copied();
            result.ponder = line.pv.get(1).copied();
            result.score = line.score;
            result.depth = line.depth;
            report(Info {
                nodes: result.nodes,
                time: main.start.elapsed(),
                ..line
            });
        }
        result
    })
}
