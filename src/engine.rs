//! The non-blocking facade a protocol front-end drives: [`Engine`] owns the transposition table,
//! runs each search on a thread of its own and reports through a channel. With
//! [`Engine::set_threads`] above one, that thread is the main thread of a Lazy SMP team whose
//! helpers it starts and joins itself ([`crate::search::search`]).
//!
//! No call blocks on the search except [`Engine::wait`] and the calls that must end a running
//! search first ([`Engine::go`], [`Engine::new_game`], [`Engine::resize`]), which stop it and join
//! (a few milliseconds). Every search sends its [`Event::Info`] lines and then exactly one
//! [`Event::Done`], also when stopped before its first iteration ends.

use crate::eval::Evaluate;
use crate::search::{Handicap, Info, Limits, MAX_THREADS, Shared, choose, search};
use crate::tt::Tt;
use crossbeam_channel::{Receiver, Sender, unbounded};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::thread::JoinHandle;

/// Stack of the search thread: the search recurses up to `MAX_PLY` frames that hold move lists.
pub const SEARCH_STACK: usize = 64 << 20;

/// The environment variable that sets the search thread's stack in MiB instead of
/// [`SEARCH_STACK`]. It exists so that the tests can make the thread fail to start (a stack
/// larger than the address space, or one smaller than [`SEARCH_STACK`], which is not tried) and
/// check that the engine says so.
pub const STACK_VARIABLE: &str = "TEMPO_SEARCH_STACK_MIB";

/// What a search reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event<M> {
    /// One completed iteration (one per line with MultiPV).
    Info(Info<M>),
    /// The search is over: the move to play (`None` only when there is no legal move) and the
    /// expected reply.
    Done {
        /// The move to play.
        best: Option<M>,
        /// The reply to ponder on.
        ponder: Option<M>,
    },
}

/// A search engine for one game type.
pub struct Engine<G: Evaluate> {
    tt: Arc<Tt>,
    shared: Arc<Shared>,
    handle: Option<JoinHandle<()>>,
    sender: Sender<Event<G::Move>>,
    receiver: Receiver<Event<G::Move>>,
    stack: usize,
    failure: Option<String>,
    /// Playing below full strength (`None`: full strength).
    handicap: Option<Handicap>,
    /// Draws the seed of each handicapped choice.
    rng: ChaCha8Rng,
    /// Search threads (1 to [`MAX_THREADS`]).
    threads: usize,
}

impl<G: Evaluate> std::fmt::Debug for Engine<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Engine<{}>({:?}, searching: {})",
            G::NAME,
            self.tt,
            self.is_searching()
        )
    }
}

impl<G: Evaluate> Engine<G> {
    /// An engine with a transposition table of `tt_mib` MiB.
    pub fn new(tt_mib: usize) -> Self {
        let (sender, receiver) = unbounded();
        Engine {
            tt: Arc::new(Tt::new(tt_mib)),
            shared: Arc::new(Shared::default()),
            handle: None,
            sender,
            receiver,
            stack: std::env::var(STACK_VARIABLE)
                .ok()
                .and_then(|v| v.parse::<usize>().ok())
                .map_or(SEARCH_STACK, |mib| mib.saturating_mul(1 << 20)),
            failure: None,
            handicap: None,
            rng: ChaCha8Rng::from_os_rng(),
            threads: 1,
        }
    }

    /// Sets the stack of later search threads, in bytes ([`SEARCH_STACK`] by default; also set by
    /// the [`STACK_VARIABLE`] environment variable).
    pub fn set_stack_size(&mut self, bytes: usize) {
        self.stack = bytes;
    }

    /// Why the last search could not run on a thread of its own, once: the search thread could
    /// not be started, and its `Done` (the first legal move, unsearched) was sent at once.
    pub fn take_failure(&mut self) -> Option<String> {
        self.failure.take()
    }

    /// Searches on `threads` threads (clamped to 1..=[`MAX_THREADS`]) from the next search on.
    /// Searches with a node budget, limited strength among them, stay on one thread (see
    /// [`crate::search::search`]).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.clamp(1, MAX_THREADS);
    }

    /// The threads of later searches.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Plays below full strength with `handicap` from the next search on (`None`: full strength).
    /// It applies to every search but infinite analysis, which stays at full strength.
    pub fn set_handicap(&mut self, handicap: Option<Handicap>) {
        self.handicap = handicap;
    }

    /// The handicap in force.
    pub fn handicap(&self) -> Option<Handicap> {
        self.handicap
    }

    /// Seeds the handicapped choices, so that a run can be repeated (tests).
    pub fn seed(&mut self, seed: u64) {
        self.rng = ChaCha8Rng::seed_from_u64(seed);
    }

    /// The channel that search events arrive on.
    pub fn events(&self) -> &Receiver<Event<G::Move>> {
        &self.receiver
    }

    /// Whether a search thread is still running.
    pub fn is_searching(&self) -> bool {
        self.handle.as_ref().is_some_and(|h| !h.is_finished())
    }

    /// Starts searching `root`, whose game history (keys of the positions since the last
    /// irreversible move, oldest first; see [`crate::search::replay`]) is `history`. A running
    /// search is stopped first; its `Done` event still arrives before any event of this one.
    /// With `ponder`, time limits wait for [`Engine::ponder_hit`]. Events go to [`Engine::events`].
    pub fn go(&mut self, root: G, history: Vec<u64>, limits: Limits, ponder: bool) {
        let sender = self.sender.clone();
        self.go_with(root, history, limits, ponder, Vec::new(), move |event| {
            let _ = sender.send(event);
        });
    }

    /// As [`Engine::go`], searching only the root moves in `only` (all when it is empty), with
    /// every event handed to `sink` on the search thread instead of the engine's channel (a
    /// protocol front-end formats them there, while it still knows the root position).
    pub fn go_with(
        &mut self,
        root: G,
        history: Vec<u64>,
        mut limits: Limits,
        ponder: bool,
        only: Vec<G::Move>,
        sink: impl FnMut(Event<G::Move>) + Send + 'static,
    ) {
        self.stop();
        self.wait();
        let mut sink = match self.handicap.filter(|_| !limits.infinite) {
            None => Box::new(sink) as Box<dyn FnMut(Event<G::Move>) + Send>,
            Some(h) => {
                let shown = limits.multipv.max(1);
                limits.multipv = shown.max(h.width);
                limits.nodes = Some(limits.nodes.map_or(h.nodes, |n| n.min(h.nodes)));
                let chooser = Chooser::new(h, ChaCha8Rng::seed_from_u64(self.rng.next_u64()));
                Box::new(chooser.wrap(shown, sink))
            }
        };
        let shared = Arc::new(Shared::default());
        shared.ponder.store(ponder, Ordering::Relaxed);
        self.shared = Arc::clone(&shared);
        let tt = Arc::clone(&self.tt);
        let (threads, stack) = (self.threads, self.stack);
        // The sink moves into the thread; if the thread cannot start, it comes back here.
        let (sink_tx, sink_rx) = crossbeam_channel::bounded(1);
        // A stack below the search's own is not tried: the thread would start and the search
        // overflow it, which aborts the whole process (`TEMPO_SEARCH_STACK_MIB=0` did).
        let spawned = if self.stack < SEARCH_STACK {
            Err(std::io::Error::other(format!(
                "a stack of {} MiB is below the {} MiB the search is built for",
                self.stack >> 20,
                SEARCH_STACK >> 20
            )))
        } else {
            std::thread::Builder::new()
                .name("search".into())
                .stack_size(self.stack)
                .spawn(move || {
                    let Ok(mut sink) = sink_rx.recv() else { return };
                    let sink: &mut dyn FnMut(Event<G::Move>) = &mut sink;
                    // A bug in the search must not leave the protocol waiting for `done`: the
                    // first legal move is played instead.
                    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        search(
                            &tt,
                            &shared,
                            limits,
                            &history,
                            &root,
                            &only,
                            threads,
                            stack,
                            |info| sink(Event::Info(info)),
                        )
                    }));
                    let (best, ponder) = match run {
                        Ok(result) => (result.best, result.ponder),
                        Err(_) => {
                            let mut moves = crate::game::MoveList::new();
                            root.generate(&mut moves);
                            (moves.first().copied(), None)
                        }
                    };
                    sink(Event::Done { best, ponder });
                })
        };
        match spawned {
            Ok(h) => {
                let _ = sink_tx.send(sink);
                self.handle = Some(h);
            }
            // No thread: still answer, with the first legal move, and keep the reason for
            // [`Engine::take_failure`].
            Err(e) => {
                self.failure = Some(format!(
                    "the search thread could not be started ({e}); the first legal move is played"
                ));
                let mut moves = crate::game::MoveList::new();
                root.generate(&mut moves);
                sink(Event::Done {
                    best: moves.first().copied(),
                    ponder: None,
                });
            }
        }
    }

    /// Asks the running search to stop; its `Done` event follows within milliseconds.
    pub fn stop(&self) {
        self.shared.stop.store(true, Ordering::Relaxed);
    }

    /// The opponent played the expected move: the pondering search now runs on the clock.
    pub fn ponder_hit(&self) {
        self.shared.ponder.store(false, Ordering::Relaxed);
    }

    /// Waits for the running search, if any, to end.
    pub fn wait(&mut self) {
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }

    /// A new game: stops any search and clears the table.
    pub fn new_game(&mut self) {
        self.stop();
        self.wait();
        self.tt.clear();
    }

    /// Replaces the table with one of `mib` MiB (stops any search first). When that much memory
    /// cannot be had, the old table stays and the error says why.
    ///
    /// # Errors
    /// From [`Tt::try_new`].
    pub fn resize(&mut self, mib: usize) -> Result<(), String> {
        self.stop();
        self.wait();
        // Free the old table first, so that a large resize does not need both at once.
        let old = self.tt.size_mib();
        self.tt = Arc::new(Tt::new(1));
        match Tt::try_new(mib) {
            Ok(tt) => {
                self.tt = Arc::new(tt);
                Ok(())
            }
            Err(e) => {
                self.tt = Arc::new(Tt::try_new(old).unwrap_or_else(|_| Tt::new(1)));
                Err(e)
            }
        }
    }

    /// The size of the table in MiB.
    pub fn tt_mib(&self) -> usize {
        self.tt.size_mib()
    }

    /// How full the table is, in permille (a sample).
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }
}

/// Makes a handicapped search's choice: it keeps the MultiPV lines of the last complete iteration
/// and, when the search is done, picks one of their first moves by [`choose`].
struct Chooser<M> {
    handicap: Handicap,
    rng: ChaCha8Rng,
    /// The lines of the last iteration known to be complete: (first move, score, reply).
    complete: Vec<(M, i32, Option<M>)>,
    /// The lines of the iteration under way.
    current: Vec<(M, i32, Option<M>)>,
}

impl<M: Copy + PartialEq + Send + 'static> Chooser<M> {
    fn new(handicap: Handicap, rng: ChaCha8Rng) -> Self {
        Chooser {
            handicap,
            rng,
            complete: Vec::new(),
            current: Vec::new(),
        }
    }

    fn note(&mut self, info: &Info<M>) {
        let Some(&first) = info.pv.first() else { return };
        if info.multipv <= 1 && !self.current.is_empty() {
            // A new iteration began, so the one before it ended with all its lines.
            self.complete = std::mem::take(&mut self.current);
        }
        self.current.push((first, info.score, info.pv.get(1).copied()));
    }

    fn decide(&mut self, best: Option<M>, ponder: Option<M>) -> (Option<M>, Option<M>) {
        // The iteration under way counts when it got as far as the one before it.
        let lines = if self.current.len() >= self.complete.len() {
            &self.current
        } else {
            &self.complete
        };
        let scored: Vec<(M, i32)> = lines.iter().map(|l| (l.0, l.1)).collect();
        match choose(&scored, self.handicap.temperature, &mut self.rng) {
            Some(m) if Some(m) != best => {
                let reply = lines.iter().find(|l| l.0 == m).and_then(|l| l.2);
                (Some(m), reply)
            }
            _ => (best, ponder),
        }
    }

    /// A sink that notes every line, passes on those of the first `shown` MultiPV ranks (the lines
    /// the client asked for) and replaces the move of `Done` with the chosen one.
    fn wrap(
        mut self,
        shown: usize,
        mut sink: impl FnMut(Event<M>) + Send + 'static,
    ) -> impl FnMut(Event<M>) + Send + 'static {
        move |event| match event {
            Event::Info(info) => {
                self.note(&info);
                if info.multipv <= shown {
                    sink(Event::Info(info));
                }
            }
            Event::Done { best, ponder } => {
                let (best, ponder) = self.decide(best, ponder);
                sink(Event::Done { best, ponder });
            }
        }
    }
}

impl<G: Evaluate> Drop for Engine<G> {
    fn drop(&mut self) {
        self.stop();
        self.wait();
    }
}
