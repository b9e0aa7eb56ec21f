//! `tempo book build | probe | info | verify`.

use super::build::{Settings, build};
use super::format::Book;
use super::{BookMove, outcome_score, parent_score};
use crate::eval::Evaluate;
use crate::game::{Game, MoveList, MoveStyle};
use crate::search::Limits;
use crate::variant::Variant;
use rand::SeedableRng;
use std::cmp::Reverse;
use std::collections::{HashSet, VecDeque};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Depth of each search when neither `--depth` nor `--nodes` is given.
pub const DEFAULT_DEPTH: u32 = 8;

/// Arguments of `tempo book`.
#[derive(clap::Args)]
pub struct BookArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: BookCommand,
}

/// The `tempo book` subcommands.
#[derive(clap::Subcommand)]
pub enum BookCommand {
    /// Grow an opening book best-first from the initial position with Tempo's search (an
    /// existing --out file is read back and grown further).
    Build(BuildArgs),
    /// Print the book moves of a position with their scores.
    Probe(ProbeArgs),
    /// Print the size, the positions and the greatest depth of a book.
    Info(InfoArgs),
    /// Check a book: its checksum, every position reachable from the root, every expanded
    /// position's score and depth the minimax of its moves', every position's ply and terminal
    /// flag.
    Verify(VerifyArgs),
}

/// Arguments of `tempo book build`.
#[derive(clap::Args)]
pub struct BuildArgs {
    /// Variant.
    #[arg(long, short, default_value = "international")]
    pub variant: Variant,
    /// The book file (written every minute and at the end; an existing one is grown further).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Depth of each search [default: 8 unless --nodes is given].
    #[arg(long, short, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub depth: Option<u32>,
    /// Node budget of each search (with --depth too, the first limit reached ends the search).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// The most positions the book may hold.
    #[arg(long, default_value_t = 1000,
          value_parser = clap::value_parser!(u64).range(1..=super::format::MAX_ENTRIES as u64))]
    pub positions: u64,
    /// Drop-out weight: plies of priority that one man of loss against the best move costs. The
    /// leaf expanded next is the one whose path from the root has the fewest plies plus this
    /// weight times its loss in men.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(0..=100_000))]
    pub dropout: u64,
    /// Search threads, each searching whole positions [default: the cores available].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub threads: Option<u64>,
    /// Transposition table of each thread, in MiB (emptied before every search).
    #[arg(long, default_value_t = 8, value_name = "MIB",
          value_parser = clap::value_parser!(u64).range(1..=65_536))]
    pub tt: u64,
    /// No progress on standard error.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Arguments of `tempo book probe`.
#[derive(clap::Args)]
pub struct ProbeArgs {
    /// Variant.
    #[arg(long, short, default_value = "international")]
    pub variant: Variant,
    /// The book file [default: the book that ships with Tempo for the variant].
    #[arg(long, value_name = "FILE")]
    pub book: Option<PathBuf>,
    /// The position, as PDN FEN [default: the initial position].
    pub fen: Option<String>,
    /// Also draw a move as play would, among those within this many hundredths of a man of the
    /// best.
    #[arg(long, value_parser = clap::value_parser!(i32).range(0..=100_000))]
    pub margin: Option<i32>,
    /// Seed of the draw of --margin.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Arguments of `tempo book info`.
#[derive(clap::Args)]
pub struct InfoArgs {
    /// The book file.
    #[arg(long, value_name = "FILE")]
    pub book: PathBuf,
}

/// Arguments of `tempo book verify`.
#[derive(clap::Args)]
pub struct VerifyArgs {
    /// The book file.
    #[arg(long, value_name = "FILE")]
    pub book: PathBuf,
    /// The largest difference allowed between an expanded position's score and the minimax of
    /// its moves', in hundredths of a man.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(i32).range(0..=100_000))]
    pub tolerance: i32,
}

/// Runs `tempo book`.
///
/// # Errors
/// The subcommand's error.
pub fn run(args: &BookArgs) -> Result<(), String> {
    match &args.command {
        BookCommand::Build(a) => crate::with_variant!(a.variant, G => run_build::<G>(a)),
        BookCommand::Probe(a) => crate::with_variant!(a.variant, G => run_probe::<G>(a)),
        BookCommand::Info(a) => run_info(a),
        BookCommand::Verify(a) => {
            let book = Book::load(&a.book)?;
            let variant: Variant = book
                .variant()
                .parse()
                .map_err(|e| format!("{}: {e}", a.book.display()))?;
            crate::with_variant!(variant, G => run_verify::<G>(&book, &a.book, a.tolerance))
        }
    }
}

fn run_build<G: Evaluate>(args: &BuildArgs) -> Result<(), String> {
    let settings = Settings {
        limits: Limits {
            depth: match (args.depth, args.nodes) {
                (None, None) => Some(DEFAULT_DEPTH),
                (d, _) => d,
            },
            nodes: args.nodes,
            ..Default::default()
        },
        positions: args.positions as usize,
        threads: args.threads.map_or_else(
            || std::thread::available_parallelism().map_or(1, |n| n.get()),
            |t| t as usize,
        ),
        tt_mib: args.tt as usize,
        dropout: args.dropout,
        save_every: Duration::from_secs(60),
        quiet: args.quiet,
    };
    let s = build::<G>(&args.out, &settings)?;
    if !args.quiet {
        crate::stderr_line!(
            "book: {} positions ({} read from the file), {} searches, {} bytes, root score {} depth {}, {:.1} s",
            s.positions,
            s.resumed,
            s.searches,
            s.bytes,
            s.root.0,
            s.root.1,
            s.elapsed.as_secs_f64()
        );
    }
    Ok(())
}

/// The book moves of `pos` as lines: move, score, depth.
pub fn move_lines<G: Game>(pos: &G, moves: &[BookMove<G::Move>]) -> Vec<String> {
    moves
        .iter()
        .map(|m| {
            format!(
                "{:<8} score {:>6} depth {}",
                pos.format_move(&m.mv, MoveStyle::Standard),
                m.score,
                m.depth
            )
        })
        .collect()
}

fn run_probe<G: Game>(args: &ProbeArgs) -> Result<(), String> {
    // Without --book, the book play uses (as `analyze` does): the variant's shipped one.
    let book = match &args.book {
        Some(path) => Book::load_for::<G>(path)?,
        None if super::shipped::bytes(G::NAME).is_none() => {
            return Err(format!(
                "no book ships for {}; name one with --book FILE",
                G::NAME
            ));
        }
        None => super::shipped::load(G::NAME)?,
    };
    let pos = match &args.fen {
        Some(f) => G::from_fen(f).map_err(|e| format!("bad FEN {f:?}: {e}"))?,
        None => G::start(),
    };
    let moves = book.moves(&pos);
    match book.find(pos.key()) {
        Some(e) => crate::say!(
            "position score {} depth {} ply {}{}",
            e.score,
            e.depth,
            e.ply,
            if e.expanded() { " expanded" } else { " leaf" }
        )?,
        None => crate::say!("position not in the book")?,
    }
    for line in move_lines(&pos, &moves) {
        crate::say!("{line}")?;
    }
    if let Some(margin) = args.margin {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(args.seed);
        match book.choose(&pos, margin, &mut rng) {
            Some(m) => crate::say!("choice {}", pos.format_move(&m.mv, MoveStyle::Standard))?,
            None => crate::say!("choice none")?,
        }
    }
    Ok(())
}

fn run_info(args: &InfoArgs) -> Result<(), String> {
    let book = Book::load(&args.book)?;
    let (mut expanded, mut terminal, mut deepest) = (0usize, 0usize, 0u32);
    for e in book.entries() {
        expanded += usize::from(e.expanded());
        terminal += usize::from(e.terminal());
        deepest = deepest.max(e.ply);
    }
    crate::say!("variant {}", book.variant())?;
    crate::say!("bytes {}", book.bytes())?;
    crate::say!("positions {}", book.len())?;
    crate::say!("expanded {expanded}")?;
    crate::say!("terminal {terminal}")?;
    crate::say!("deepest {deepest}")?;
    if let Some(root) = book.find(book.root()) {
        crate::say!("root score {} depth {}", root.score, root.depth)?;
    }
    Ok(())
}

/// What [`verify`] found wrong, one line a fault (empty: the book is sound).
///
/// Checks that the root is the initial position and in the book, that every position is reached
/// from the root by legal moves through expanded positions, that every move of an expanded
/// position leads into the book, and that an expanded position's score is the minimax of its
/// moves' within `tolerance` (and, where it is that minimax, its depth one more than its best
/// move's), that each position's ply is its fewest plies from the root, and that a position is
/// marked terminal exactly when the game is over there, with the result's score.
pub fn verify<G: Game>(book: &Book, tolerance: i32) -> Vec<String> {
    let mut faults = Vec::new();
    if let Err(e) = book.check_variant::<G>() {
        return vec![e];
    }
    let root = G::start();
    if book.root() != root.key() {
        return vec!["the root is not the initial position".into()];
    }
    if book.find(root.key()).is_none() {
        return vec!["the root is not in the book".into()];
    }
    let mut seen = HashSet::from([root.key()]);
    // Breadth first, so that each position is first reached by its fewest plies from the root:
    // the ply the book must hold for it.
    let mut queue = VecDeque::from([(root, 0u32)]);
    let mut list = MoveList::new();
    let fault = |faults: &mut Vec<String>, text: String| {
        if faults.len() < 20 {
            faults.push(text);
        }
    };
    while let Some((pos, ply)) = queue.pop_front() {
        let Some(entry) = book.find(pos.key()) else {
            continue;
        };
        if entry.ply != ply.min(u32::from(u16::MAX)) {
            fault(
                &mut faults,
                format!(
                    "{}: ply {} but {ply} plies from the root",
                    pos.to_fen(),
                    entry.ply
                ),
            );
        }
        match pos.outcome() {
            Some(o) => {
                if !entry.terminal() {
                    fault(
                        &mut faults,
                        format!(
                            "{}: the game is over here but the position is not marked terminal",
                            pos.to_fen()
                        ),
                    );
                } else if entry.score != outcome_score(&pos, o) || entry.depth != 0 {
                    fault(
                        &mut faults,
                        format!(
                            "{}: terminal with score {} depth {}, not the result's {} depth 0",
                            pos.to_fen(),
                            entry.score,
                            entry.depth,
                            outcome_score(&pos, o)
                        ),
                    );
                }
            }
            None if entry.terminal() => {
                fault(
                    &mut faults,
                    format!("{}: marked terminal but the game goes on here", pos.to_fen()),
                );
            }
            None => {}
        }
        if !entry.expanded() {
            continue;
        }
        if entry.terminal() {
            fault(
                &mut faults,
                format!("{}: both terminal and expanded", pos.to_fen()),
            );
            continue;
        }
        pos.generate(&mut list);
        if list.is_empty() {
            fault(
                &mut faults,
                format!("{}: expanded but without a legal move", pos.to_fen()),
            );
            continue;
        }
        // The best score of the moves that stay in the book, and the fewest plies of search
        // behind it (what the build backs up).
        let mut best: Option<(i32, u32)> = None;
        for mv in list.iter() {
            let child = pos.play(mv);
            match book.find(child.key()) {
                Some(c) => {
                    let s = (parent_score(c.score), c.depth + 1);
                    best = Some(best.map_or(s, |b| {
                        if (s.0, Reverse(s.1)) > (b.0, Reverse(b.1)) {
                            s
                        } else {
                            b
                        }
                    }));
                    if seen.insert(child.key()) {
                        queue.push_back((child, ply + 1));
                    }
                }
                None => fault(
                    &mut faults,
                    format!(
                        "{}: the move {} leads outside the book",
                        pos.to_fen(),
                        pos.format_move(mv, MoveStyle::Standard)
                    ),
                ),
            }
        }
        // Every move leading outside is reported above.
        let Some((b, depth)) = best else { continue };
        if (b - entry.score).abs() > tolerance {
            fault(
                &mut faults,
                format!(
                    "{}: score {} but its moves' best is {b}",
                    pos.to_fen(),
                    entry.score
                ),
            );
        } else if b == entry.score && entry.depth != depth {
            fault(
                &mut faults,
                format!(
                    "{}: depth {} but its best move's is {depth} plies",
                    pos.to_fen(),
                    entry.depth
                ),
            );
        }
    }
    let unreached = book.len() - seen.len().min(book.len());
    if unreached > 0 {
        faults.push(format!(
            "{unreached} positions are not reached from the root through expanded positions"
        ));
    }
    faults
}

fn run_verify<G: Game>(book: &Book, path: &Path, tolerance: i32) -> Result<(), String> {
    let faults = verify::<G>(book, tolerance);
    if faults.is_empty() {
        crate::say!(
            "{}: checksum good; {} positions of {} reached from the root; scores consistent",
            path.display(),
            book.len(),
            book.variant()
        )
    } else {
        Err(format!("{}: {}", path.display(), faults.join("\n")))
    }
}
