//! `tempo book build`: the opening tree grown best-first from the initial position.
//!
//! The tree (a graph: transpositions share a node) starts as the root, searched. Each step
//! expands one leaf: every legal move's position that is new is searched with the given limits,
//! and the scores are backed up by minimax to the root. The leaf expanded is the one of smallest
//! priority, the "drop-out" rule of Lincke's opening books: a path costs one ply per move plus
//! `dropout` plies per man its moves lose against the best move of their position, and a leaf's
//! priority is its cheapest path. So the principal variations grow deepest, and a side line grows
//! only as far as its loss allows. The build stops before the book would hold more than the
//! positions asked for.
//!
//! Every search starts from an emptied transposition table and sees no game history, so a
//! position's score depends only on the position and the limits: the same settings give the same
//! book whatever the threads. The book is written (whole, through a temporary) every minute and at
//! the end; an existing output file is read back and its tree grown further.

use super::format::{self, Book, EXPANDED, Entry, TERMINAL};
use super::{outcome_score, parent_score};
use crate::eval::Evaluate;
use crate::game::{Game, MoveList};
use crate::search::{Limits, Search, Shared};
use crate::tt::Tt;
use crossbeam_channel::unbounded;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, VecDeque};
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::time::{Duration, Instant};

/// How a book is grown.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Limits of the search of every new position.
    pub limits: Limits,
    /// The most positions the book may hold.
    pub positions: usize,
    /// Search threads, each searching whole positions.
    pub threads: usize,
    /// Transposition table of each thread, in MiB.
    pub tt_mib: usize,
    /// Plies of priority one man of loss costs (see the module's documentation).
    pub dropout: u64,
    /// Time between two writes of the book while it grows.
    pub save_every: Duration,
    /// No progress on standard error.
    pub quiet: bool,
}

/// A position of the tree.
struct Node<G> {
    pos: G,
    score: i32,
    depth: u32,
    children: Vec<u32>,
    parents: Vec<u32>,
    expanded: bool,
    terminal: bool,
}

/// The opening tree while it grows; node 0 is the root.
pub struct Tree<G> {
    nodes: Vec<Node<G>>,
    index: HashMap<u64, u32>,
}

/// A search's verdict on a position: score for its side to move, depth, game over.
type Verdict = (i32, u32, bool);

/// Searches a batch of (node, position) jobs and returns each node's verdict.
type Searcher<'a, G> = dyn FnMut(Vec<(u32, G)>) -> Result<Vec<(u32, Verdict)>, String> + 'a;

/// Searches `pos` from an empty table and no history.
pub fn evaluate<G: Evaluate>(pos: &G, tt: &Tt, limits: Limits) -> (i32, u32, bool) {
    if let Some(o) = pos.outcome() {
        return (outcome_score(pos, o), 0, true);
    }
    tt.clear();
    let shared = Shared::default();
    let result = Search::new(tt, &shared, limits, &[], pos).run(pos, |_| {});
    (result.score, result.depth, false)
}

impl<G: Game> Tree<G> {
    /// A tree of the root alone, scored by `verdict`.
    fn new(root: G, verdict: Verdict) -> Tree<G> {
        let mut tree = Tree {
            nodes: Vec::new(),
            index: HashMap::new(),
        };
        tree.add(root, verdict);
        tree
    }

    fn add(&mut self, pos: G, (score, depth, terminal): Verdict) -> u32 {
        let i = self.nodes.len() as u32;
        self.index.insert(pos.key(), i);
        self.nodes.push(Node {
            pos,
            score,
            depth,
            children: Vec::new(),
            parents: Vec::new(),
            expanded: false,
            terminal,
        });
        i
    }

    fn link(&mut self, parent: u32, child: u32) {
        if !self.nodes[parent as usize].children.contains(&child) {
            self.nodes[parent as usize].children.push(child);
            self.nodes[child as usize].parents.push(parent);
        }
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the tree is empty (it never is: the root is made with it).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The root's score and depth.
    pub fn root(&self) -> (i32, u32) {
        (self.nodes[0].score, self.nodes[0].depth)
    }

    /// The tree read back from a book: the positions reached from the root through expanded
    /// positions (a book's other entries, if any, are dropped).
    ///
    /// # Errors
    /// A book of another variant or root, or an expanded position with a move leading outside
    /// the book.
    pub fn from_book(book: &Book) -> Result<Tree<G>, String> {
        book.check_variant::<G>()?;
        let root = G::start();
        if book.root() != root.key() {
            return Err("the book's root is not the initial position".into());
        }
        let verdict = |e: Entry| (e.score, e.depth, e.terminal());
        let first = book.find(root.key()).ok_or("the book does not hold its root")?;
        let mut tree = Tree::new(root, verdict(first));
        let mut expanded = vec![first.expanded()];
        let mut queue = VecDeque::from([0u32]);
        let mut list = MoveList::new();
        while let Some(i) = queue.pop_front() {
            if !expanded[i as usize] {
                continue;
            }
            let pos = tree.nodes[i as usize].pos;
            pos.generate(&mut list);
            for mv in list.iter() {
                let child = pos.play(mv);
                let c = match tree.index.get(&child.key()) {
                    Some(&c) => c,
                    None => {
                        let e = book.find(child.key()).ok_or_else(|| {
                            format!(
                                "the expanded position {} has a move leading outside the book",
                                pos.to_fen()
                            )
                        })?;
                        expanded.push(e.expanded());
                        let c = tree.add(child, verdict(e));
                        queue.push_back(c);
                        c
                    }
                };
                tree.link(i, c);
            }
            tree.nodes[i as usize].expanded = true;
        }
        Ok(tree)
    }

    /// The leaf to expand next and its priority (hundredths of a ply): Dijkstra's shortest paths
    /// from the root, stopped at the first leaf that is not over. `None` when every leaf is over.
    fn select(&self, dropout: u64) -> Option<(u32, u64)> {
        let mut dist = vec![u64::MAX; self.nodes.len()];
        let mut heap = BinaryHeap::new();
        dist[0] = 0;
        heap.push(Reverse((0u64, 0u32)));
        while let Some(Reverse((d, u))) = heap.pop() {
            if d > dist[u as usize] {
                continue;
            }
            let node = &self.nodes[u as usize];
            if !node.expanded {
                if node.terminal {
                    continue;
                }
                return Some((u, d));
            }
            for &c in &node.children {
                let loss = (node.score - parent_score(self.nodes[c as usize].score)).max(0) as u64;
                let cost = d.saturating_add(100).saturating_add(dropout.saturating_mul(loss));
                if cost < dist[c as usize] {
                    dist[c as usize] = cost;
                    heap.push(Reverse((cost, c)));
                }
            }
        }
        None
    }

    /// Recomputes the minimax scores above `from`, as far as they change. A game whose opening
    /// moves can repeat a position makes cycles; the work is bounded then.
    fn backup(&mut self, from: u32) {
        let mut work = vec![from];
        let mut budget = 16 * self.nodes.len() + 16;
        while let Some(n) = work.pop() {
            if budget == 0 {
                break;
            }
            budget -= 1;
            let node = &self.nodes[n as usize];
            let Some((score, depth)) = node
                .children
                .iter()
                .map(|&c| {
                    let child = &self.nodes[c as usize];
                    (parent_score(child.score), child.depth + 1)
                })
                .max_by_key(|&(s, d)| (s, Reverse(d)))
            else {
                continue;
            };
            if n == from || score != node.score || depth != node.depth {
                let node = &mut self.nodes[n as usize];
                node.score = score;
                node.depth = depth;
                work.extend_from_slice(&node.parents);
            }
        }
    }

    /// The entries of the book, with each position's fewest plies from the root.
    pub fn entries(&self) -> Vec<Entry> {
        let mut ply = vec![u32::MAX; self.nodes.len()];
        ply[0] = 0;
        let mut queue = VecDeque::from([0u32]);
        while let Some(i) = queue.pop_front() {
            for &c in &self.nodes[i as usize].children {
                if ply[c as usize] == u32::MAX {
                    ply[c as usize] = ply[i as usize] + 1;
                    queue.push_back(c);
                }
            }
        }
        self.nodes
            .iter()
            .zip(ply)
            .map(|(n, p)| Entry {
                key: n.pos.key(),
                score: n.score,
                depth: n.depth,
                ply: p.min(u32::from(u16::MAX)),
                flags: if n.expanded { EXPANDED } else { 0 } | if n.terminal { TERMINAL } else { 0 },
            })
            .collect()
    }

    /// Writes the book to `path`, whole or not at all.
    ///
    /// # Errors
    /// From [`format::encode`] or [`crate::fsutil::write_atomic`].
    pub fn save(&self, path: &Path) -> Result<usize, String> {
        let bytes = format::encode(G::NAME, self.nodes[0].pos.key(), &mut self.entries())?;
        crate::fsutil::write_atomic(path, &bytes)?;
        Ok(bytes.len())
    }
}

/// What a build did.
#[derive(Clone, Copy, Debug)]
pub struct Summary {
    /// Positions in the book.
    pub positions: usize,
    /// Positions read from the existing file.
    pub resumed: usize,
    /// Searches made.
    pub searches: u64,
    /// Bytes of the file.
    pub bytes: usize,
    /// The root's score and depth.
    pub root: (i32, u32),
    /// Wall time.
    pub elapsed: Duration,
}

/// Grows the book of `out` (read back when it exists) to at most `settings.positions` positions.
///
/// # Errors
/// A file that cannot be read, written, or is no book of this variant; a table or thread that
/// cannot be had.
pub fn build<G: Evaluate>(out: &Path, settings: &Settings) -> Result<Summary, String> {
    let start = Instant::now();
    crate::fsutil::check_writable(out).map_err(|e| format!("--out: {e}"))?;
    let existing = match std::fs::metadata(out) {
        Ok(_) => {
            Some(Tree::<G>::from_book(&Book::load(out)?).map_err(|e| format!("{}: {e}", out.display()))?)
        }
        Err(_) => None,
    };
    let resumed = existing.as_ref().map_or(0, Tree::len);
    let threads = settings.threads.max(1);
    let mut tables = Vec::with_capacity(threads);
    for _ in 0..threads {
        tables.push(Tt::try_new(settings.tt_mib).map_err(|e| format!("--tt {}: {e}", settings.tt_mib))?);
    }
    let (job_tx, job_rx) = unbounded::<(u32, G)>();
    let (done_tx, done_rx) = unbounded::<(u32, Verdict)>();
    let limits = settings.limits;
    let mut searches = 0u64;
    let mut outcome: Result<Tree<G>, String> = Err(String::new());
    std::thread::scope(|scope| {
        for (w, tt) in tables.into_iter().enumerate() {
            let (job_rx, done_tx) = (job_rx.clone(), done_tx.clone());
            let spawned = std::thread::Builder::new()
                .name(format!("book-{w}"))
                // The search recurses deeply; the engine's search thread has the same stack.
                .stack_size(crate::engine::SEARCH_STACK)
                .spawn_scoped(scope, move || {
                    for (i, pos) in job_rx.iter() {
                        if done_tx.send((i, evaluate(&pos, &tt, limits))).is_err() {
                            break;
                        }
                    }
                });
            if let Err(e) = spawned {
                outcome = Err(format!("cannot start a book thread: {e}"));
                return;
            }
        }
        drop(done_tx);
        // Searches `jobs` on the workers and returns their verdicts by node.
        let mut search_all = |jobs: Vec<(u32, G)>| -> Result<Vec<(u32, Verdict)>, String> {
            let n = jobs.len();
            for job in jobs {
                job_tx
                    .send(job)
                    .map_err(|_| "the book threads stopped".to_string())?;
            }
            searches += n as u64;
            (0..n)
                .map(|_| done_rx.recv().map_err(|_| "the book threads stopped".to_string()))
                .collect()
        };
        outcome = grow(out, settings, existing, start, &mut search_all);
        drop(job_tx);
    });
    let tree = outcome?;
    let bytes = tree.save(out)?;
    Ok(Summary {
        positions: tree.len(),
        resumed,
        searches,
        bytes,
        root: tree.root(),
        elapsed: start.elapsed(),
    })
}

/// The growing loop of [`build`], with the searches behind `search_all`.
fn grow<G: Game>(
    out: &Path,
    settings: &Settings,
    existing: Option<Tree<G>>,
    start: Instant,
    search_all: &mut Searcher<'_, G>,
) -> Result<Tree<G>, String> {
    let mut tree = match existing {
        Some(t) => t,
        None => {
            let root = G::start();
            let verdict = search_all(vec![(0, root)])?[0].1;
            Tree::new(root, verdict)
        }
    };
    let show = !settings.quiet;
    let (mut last_note, mut last_save) = (Instant::now(), Instant::now());
    let mut list = MoveList::new();
    let mut expansions = 0u64;
    while tree.len() < settings.positions {
        let Some((leaf, priority)) = tree.select(settings.dropout) else {
            break;
        };
        let pos = tree.nodes[leaf as usize].pos;
        pos.generate(&mut list);
        let mut fresh: Vec<G> = Vec::new();
        for mv in list.iter() {
            let child = pos.play(mv);
            if !tree.index.contains_key(&child.key()) && !fresh.iter().any(|f| f.key() == child.key()) {
                fresh.push(child);
            }
        }
        if tree.len() + fresh.len() > settings.positions {
            break;
        }
        // Placeholders now, so the workers' verdicts land by node number.
        let first = tree.len() as u32;
        let jobs: Vec<(u32, G)> = fresh
            .iter()
            .enumerate()
            .map(|(k, &p)| (first + k as u32, p))
            .collect();
        for &p in &fresh {
            tree.add(p, (0, 0, false));
        }
        for (i, (score, depth, terminal)) in search_all(jobs)? {
            let node = &mut tree.nodes[i as usize];
            (node.score, node.depth, node.terminal) = (score, depth, terminal);
        }
        for mv in list.iter() {
            let c = tree.index[&pos.play(mv).key()];
            tree.link(leaf, c);
        }
        tree.nodes[leaf as usize].expanded = true;
        tree.backup(leaf);
        expansions += 1;
        if show && last_note.elapsed() >= Duration::from_secs(1) {
            last_note = Instant::now();
            let (score, depth) = tree.root();
            let line = format!(
                "book: {} positions, {expansions} expansions, root score {score} depth {depth}, \
                 leaf priority {:.2} plies, {:.0} s",
                tree.len(),
                priority as f64 / 100.0,
                start.elapsed().as_secs_f64()
            );
            if std::io::stderr().is_terminal() {
                let _ = write!(std::io::stderr(), "\r{line}");
            } else {
                crate::stderr_line!("{line}");
            }
        }
        if last_save.elapsed() >= settings.save_every {
            tree.save(out)?;
            last_save = Instant::now();
        }
    }
    if show && expansions > 0 && std::io::stderr().is_terminal() {
        crate::stderr_line!();
    }
    Ok(tree)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::International;

    #[test]
    fn the_leaf_on_the_principal_variation_goes_first() {
        let root = International::start();
        let mut tree = Tree::new(root, (0, 1, false));
        let mut list = MoveList::new();
        root.generate(&mut list);
        // Every child scores 0 for its mover but one, which is best for the root's mover.
        let kids: Vec<u32> = list
            .iter()
            .enumerate()
            .map(|(k, mv)| tree.add(root.play(mv), (if k == 3 { -50 } else { 0 }, 1, false)))
            .collect();
        for &c in &kids {
            tree.link(0, c);
        }
        tree.nodes[0].expanded = true;
        tree.backup(0);
        assert_eq!(tree.root(), (50, 2));
        assert_eq!(tree.select(20), Some((kids[3], 100)));
        // A big drop-out weight still prefers the best line; without one, ties go by ply alone.
        assert_eq!(tree.select(1000).unwrap().0, kids[3]);
        let entries = tree.entries();
        assert_eq!(entries.iter().filter(|e| e.ply == 1).count(), kids.len());
        assert!(entries[0].flags & EXPANDED != 0);
    }
}
