//! The non-blocking facade a protocol front-end drives: [`Engine`] owns the transposition table,
//! runs each search on a thread of its own and reports through a channel.
//!
//! No call blocks on the search except [`Engine::wait`] and the calls that must end a running
//! search first ([`Engine::go`], [`Engine::new_game`], [`Engine::resize`]), which stop it and join
//! (a few milliseconds). Every search sends its [`Event::Info`] lines and then exactly one
//! [`Event::Done`], also when stopped before its first iteration ends.

use crate::eval::Evaluate;
use crate::search::{Info, Limits, Search, Shared};
use crate::tt::Tt;
use crossbeam_channel::{Receiver, Sender, unbounded};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::thread::JoinHandle;

/// Stack of the search thread: the search recurses up to `MAX_PLY` frames that hold move lists.
const SEARCH_STACK: usize = 64 << 20;

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
        }
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
    /// With `ponder`, time limits wait for [`Engine::ponder_hit`].
    pub fn go(&mut self, root: G, history: Vec<u64>, limits: Limits, ponder: bool) {
        self.stop();
        self.wait();
        let shared = Arc::new(Shared::default());
        shared.ponder.store(ponder, Ordering::Relaxed);
        self.shared = Arc::clone(&shared);
        let tt = Arc::clone(&self.tt);
        let sender = self.sender.clone();
        let spawned = std::thread::Builder::new()
            .name("search".into())
            .stack_size(SEARCH_STACK)
            .spawn({
                let sender = sender.clone();
                move || {
                    let mut search = Search::new(&tt, &shared, limits, &history, &root);
                    let result = search.run(&root, |info| {
                        let _ = sender.send(Event::Info(info));
                    });
                    let _ = sender.send(Event::Done {
                        best: result.best,
                        ponder: result.ponder,
                    });
                }
            });
        match spawned {
            Ok(h) => self.handle = Some(h),
            // No thread: still answer, with the first legal move.
            Err(_) => {
                let mut moves = crate::game::MoveList::new();
                root.generate(&mut moves);
                let _ = sender.send(Event::Done {
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

    /// Replaces the table with one of `mib` MiB (stops any search first).
    pub fn resize(&mut self, mib: usize) {
        self.stop();
        self.wait();
        self.tt = Arc::new(Tt::new(mib));
    }
}

impl<G: Evaluate> Drop for Engine<G> {
    fn drop(&mut self) {
        self.stop();
        self.wait();
    }
}
