//! `tempo analyze`: the search of one position, or the evaluation of every move of a PDN game,
//! written for people or, with `--json`, as one JSON object per line for scripts.
//!
//! Every game of a PDN file (or those `--game` selects) is read and checked whole before any search
//! (every move must read as one legal move; a game that does not is skipped with a warning). Each
//! position is searched over every move for the engine's choice; when the move played is another
//! one, a second search over those two moves alone scores both at once, so that the best move never
//! scores below the move played. Both scores are for the player who moves; their difference is
//! the move's loss, which marks it (see [`Marks`]); a move about to be marked is searched again
//! deeper before the mark stands. A move played from a position the opening book has expanded is
//! not searched: it is marked `book` and scored, like the book's best move, from the book.
//! `--annotate` writes the games back as PDN with the analysis ([`annotate`]); `--chart` draws
//! their evaluation ([`chart`]).

pub mod annotate;
pub mod chart;

use crate::book::Book;
use crate::engine::{Engine, Event};
use crate::eval::Evaluate;
use crate::game::{MoveStyle, Side};
use crate::pdn_tags::{Inferred, game_type, infer_variant, setup, variant_of_game_type};
use crate::say;
use crate::search::{Info, Limits, win_distance};
use crate::variant::Variant;
use serde::Serialize;
use std::io::{IsTerminal, Write as _};
use std::path::PathBuf;
use std::time::Duration;

/// Depth of each search when neither `--depth` nor `--movetime` is given.
pub const DEFAULT_DEPTH: u32 = 10;
/// Default loss, in men, from which a move is marked `?` (a mistake).
pub const DEFAULT_MISTAKE: f64 = 0.5;
/// Default loss, in men, from which a move is marked `??` (a blunder).
pub const DEFAULT_BLUNDER: f64 = 1.5;

/// The options of `tempo analyze`.
#[derive(clap::Args, Debug)]
#[command(after_long_help = MARKS_HELP)]
pub struct AnalyzeArgs {
    /// Variant (see `tempo perft --help` for the names). Default: with --pdn, the variant the
    /// games' `GameType` tag names, or without the tag the one variant their FEN and moves read
    /// legally in (the first line of the output says which and why); otherwise International.
    #[arg(long, short)]
    pub variant: Option<Variant>,
    /// Position to search, as PDN FEN (default: the variant's initial position).
    #[arg(long, conflicts_with = "pdn")]
    pub fen: Option<String>,
    /// A PDN file: evaluate every move of every game (or of the games --game selects). Moves are
    /// read in the variant's notation; a game's `FEN` tag, if any, gives its start position.
    #[arg(long, value_name = "FILE")]
    pub pdn: Option<PathBuf>,
    /// Which games of the PDN file, counting from 1: one number, or a range such as 3-7
    /// [default: every game].
    #[arg(long, requires = "pdn", value_name = "N|N-M", value_parser = parse_games_range)]
    pub game: Option<(usize, usize)>,
    /// Write the games back as PDN with the analysis: each move's score and depth as a comment,
    /// `?` and `??` on the marked moves, and the better line as a variation after each of them.
    #[arg(long, value_name = "OUT.pdn", requires = "pdn")]
    pub annotate: Option<PathBuf>,
    /// Draw each game's evaluation over its moves as an SVG picture, mistakes marked (one panel
    /// per game).
    #[arg(long, value_name = "FILE.svg", requires = "pdn")]
    pub chart: Option<PathBuf>,
    /// Depth of each search [default: 10 unless --movetime is given].
    #[arg(long, short, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub depth: Option<u32>,
    /// Seconds for each search (fractions allowed). A game move that is not the best one costs a
    /// second search, over it and the best move, and a marked move is searched again twice as long.
    #[arg(long, conflicts_with = "depth")]
    pub movetime: Option<f64>,
    /// Number of best lines to show for a position (ignored for games).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=crate::search::MULTIPV_MAX as i64))]
    pub multipv: u32,
    /// Print one JSON object per line instead of text.
    #[arg(long)]
    pub json: bool,
    /// Loss, in men, from which a game move is marked `?`.
    #[arg(long, default_value_t = DEFAULT_MISTAKE, value_name = "MEN")]
    pub mistake: f64,
    /// Loss, in men, from which a game move is marked `??`.
    #[arg(long, default_value_t = DEFAULT_BLUNDER, value_name = "MEN")]
    pub blunder: f64,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub tt: u32,
    /// Search threads (Lazy SMP; a depth-limited result may differ from run to run above 1).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub threads: u32,
    /// `--egdb DIR [--egdb-pieces N]`.
    #[command(flatten)]
    pub tables: crate::egdb::cli::TableArgs,
    /// Opening book for game analysis: a move played from a position it has expanded is marked
    /// `book` and scored from it instead of searched [default: the variant's shipped book].
    #[arg(long, value_name = "FILE", requires = "pdn")]
    pub book: Option<PathBuf>,
    /// Search every move of the game, the book's too.
    #[arg(long, requires = "pdn", conflicts_with = "book")]
    pub no_book: bool,
}

/// One line of `--json` output: every machine-readable record `tempo analyze` writes, tagged by
/// `type`. Scores are hundredths of a man for the player who moves; each `win` field is the moves
/// to a proven win (negative: a proven loss), or null.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum JsonLine {
    /// A completed iteration of one line of a position's search.
    Info {
        /// Iteration depth.
        depth: u32,
        /// Deepest ply reached.
        seldepth: u32,
        /// Which line (from 1).
        multipv: usize,
        /// The line's score.
        score: i32,
        /// Moves to a proven result.
        win: Option<i32>,
        /// Nodes searched.
        nodes: u64,
        /// Time spent, in milliseconds.
        time_ms: u64,
        /// The line, in the variant's notation.
        pv: Vec<String>,
    },
    /// A position's best move, after its search.
    Best {
        /// The move, or null without a legal move.
        #[serde(rename = "move")]
        mv: Option<String>,
        /// Its score.
        score: Option<i32>,
        /// Moves to a proven result.
        win: Option<i32>,
        /// Depth of the last completed iteration.
        depth: u32,
        /// `game on`, `draw`, `White wins`, `Black wins`.
        outcome: String,
    },
    /// The game analysed.
    Game {
        /// Its number in the file (from 1).
        game: usize,
        /// Variant name.
        variant: String,
        /// Why this variant: `--variant`, the `GameType` tag, or what was inferred.
        variant_from: String,
        /// White player (`?` when the tag is missing).
        white: String,
        /// Black player.
        black: String,
        /// Start position.
        fen: String,
        /// Plies in the game.
        moves: usize,
    },
    /// One move of the game.
    Move {
        /// Ply number, from 1.
        ply: usize,
        /// Move number as written, `12.` or `12...`.
        number: String,
        /// `white` or `black`.
        side: String,
        /// The move played.
        played: String,
        /// Its score.
        played_score: Option<i32>,
        /// Moves to a proven result after it.
        played_win: Option<i32>,
        /// The engine's choice.
        best: String,
        /// Its score.
        best_score: Option<i32>,
        /// Moves to a proven result after it.
        best_win: Option<i32>,
        /// Best minus played, when both are plain scores.
        loss: Option<i32>,
        /// `??`, `?` or empty.
        mark: String,
        /// The move was played from a position of the opening book: its scores are the book's.
        book: bool,
        /// Search depth behind the scores.
        depth: u32,
        /// The move was about to be marked and was searched again deeper (the scores and depth
        /// are the deeper search's).
        rechecked: bool,
        /// The best line.
        best_line: Vec<String>,
    },
    /// The game ended by a rule (a repetition, a counted draw) before its last move: the moves
    /// after it are not analysed.
    End {
        /// The ply at which the game was over (the number of moves analysed).
        ply: usize,
        /// The rule that ended it.
        reason: String,
        /// `1-0`, `0-1` or `1/2-1/2` as the rules give it.
        result: String,
        /// Moves of the record after the end, not analysed.
        unanalysed: usize,
    },
    /// The totals of a file of several games, after the games.
    File {
        /// Games analysed.
        games: usize,
        /// Games selected but skipped (unreadable or illegal; each has its warning).
        skipped: usize,
        /// Moves analysed.
        moves: usize,
        /// Moves marked `?`.
        mistakes: usize,
        /// Moves marked `??`.
        blunders: usize,
        /// Average loss in men, to three decimals.
        average_loss: f64,
    },
    /// One player's totals.
    Summary {
        /// `white` or `black`.
        side: String,
        /// Moves analysed.
        moves: usize,
        /// Moves marked `?`.
        mistakes: usize,
        /// Moves marked `??`.
        blunders: usize,
        /// Moves played from the opening book.
        book: usize,
        /// Average loss in men, to three decimals.
        average_loss: f64,
    },
}

impl JsonLine {
    /// Writes the record as one line of JSON.
    ///
    /// # Errors
    /// As [`crate::output::output_error`].
    pub fn print(&self) -> Result<(), String> {
        let text = serde_json::to_string(self).map_err(|e| format!("cannot write JSON: {e}"))?;
        say!("{text}")
    }
}

const MARKS_HELP: &str = "\
Scores are in men (a man is 1.00) for the side to move, or `win in N` / `loss in N` moves when the
search proves the result.

Game analysis (--pdn) analyses every game of the file, or those --game selects, and first names
the variant and why (--variant, the GameType tag, or what the games' FEN and moves show). It prints,
for every move, the played move and its score, the best move and its score, both from the view of
the player who moves, and the loss (best minus played). When the move played is not the engine's
choice, one search over the two scores both, so the best move never scores below the move played.
Marks:
  ??  a blunder: the loss is at least --blunder men (default 1.5), or the move gives away a proven
      win, or it walks into a proven loss that the best move avoids;
  ?   a mistake: the loss is at least --mistake men (default 0.5).
A move about to be marked is searched again two plies deeper (twice as long with --movetime), and
the mark and scores are the deeper search's.
A move played from a position that the opening book has expanded (--book FILE, by default the
variant's shipped book; --no-book searches every move) is marked `book` and is not searched: its
score, the best move's and the loss come from the book, and it is marked ?/?? on them.
A summary per player follows each game: moves, book moves, marks, and the average loss in men (a
move between proven results counts as no loss); a file of several games ends with their totals.
A game that cannot be read or has an illegal move is skipped with a warning naming its line and
column; when no game selected reads, the command fails with that error.

JSON lines (--json): a position gives `{\"type\":\"info\",...}` per completed iteration and line, then
`{\"type\":\"best\",...}`; a game gives `{\"type\":\"game\",...}` (with `variant` and `variant_from`),
`{\"type\":\"move\",...}` per move (with `rechecked` when the move was searched again deeper) and
`{\"type\":\"summary\",...}`; a game that a rule ended before its last move (a repetition, a
counted draw) gets `{\"type\":\"end\",\"ply\":N,\"reason\":...,\"result\":...,\"unanalysed\":K}` there,
and the moves after it are not analysed; several games end with `{\"type\":\"file\",...}`. Each score is
two fields: `score` (`played_score`, `best_score`) in hundredths of a man, and `win` (`played_win`,
`best_win`): the moves to a proven win, negative for a proven loss, otherwise null.

Progress for game analysis (the game, the move and the time left) goes to standard error when it
is a terminal, and nowhere otherwise.";

/// The games `--game` selects: `N` or `N-M`, counting from 1.
fn parse_games_range(text: &str) -> Result<(usize, usize), String> {
    let number = |t: &str| match t.trim().parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!(
            "{text:?}: give a game number from 1, or a range such as 3-7"
        )),
    };
    match text.split_once('-') {
        Some((a, b)) => {
            let (a, b) = (number(a)?, number(b)?);
            if a > b {
                return Err(format!("{text:?}: the range's first game is after its last"));
            }
            Ok((a, b))
        }
        None => number(text).map(|n| (n, n)),
    }
}

/// A PDN file as read: its games (or why each could not be read) and a note on its encoding.
struct PdnFile {
    games: Vec<Result<crate::pdn::ReadGame, crate::pdn::PdnError>>,
    note: Option<String>,
}

impl PdnFile {
    fn read(path: &std::path::Path) -> Result<PdnFile, String> {
        let (text, note) = crate::pdn::read_text(path)?;
        let games = crate::pdn::read_games(&text);
        if games.is_empty() {
            return Err(format!("{}: no game in the file", path.display()));
        }
        Ok(PdnFile { games, note })
    }

    /// The numbers (from 1) of the games `--game` selects, or an error naming the file's count.
    fn selected(&self, path: &std::path::Path, range: Option<(usize, usize)>) -> Result<Vec<usize>, String> {
        let n = self.games.len();
        let (a, b) = range.unwrap_or((1, n));
        if b > n {
            let which = if a == b {
                format!("game {a}")
            } else {
                format!("games {a}-{b}")
            };
            return Err(format!(
                "{}: no {which} (the file holds {n} game{})",
                path.display(),
                if n == 1 { "" } else { "s" }
            ));
        }
        Ok((a..=b).collect())
    }
}

/// The variant to analyse in, and why: `--variant`, else the `GameType` tag of the `--pdn` games
/// selected, else the one variant their FEN and moves read legally in ([`infer_variant`]), else
/// International.
///
/// # Errors
/// The PDN file cannot be read; a `GameType` names no variant Tempo plays, or two games name
/// different ones; games without the tag read legally in several variants.
pub fn variant_of(args: &AnalyzeArgs) -> Result<(Variant, String), String> {
    if let Some(v) = args.variant {
        return Ok((v, "given by --variant".to_string()));
    }
    let Some(path) = &args.pdn else {
        return Ok((Variant::International, "the default".to_string()));
    };
    let file = PdnFile::read(path)?;
    let chosen: Vec<&crate::pdn::ReadGame> = file
        .selected(path, args.game)?
        .into_iter()
        .filter_map(|n| file.games[n - 1].as_ref().ok())
        .collect();
    let mut typed: Option<(Variant, &str)> = None;
    for g in &chosen {
        let Some(t) = g.game.tag("GameType") else { continue };
        let v = variant_of_game_type(t).ok_or_else(|| {
            format!(
                "{}: GameType {t:?} (line {}) names no variant Tempo plays; give --variant",
                path.display(),
                g.start.line
            )
        })?;
        match typed {
            Some((w, u)) if w != v => {
                return Err(format!(
                    "{}: the games' GameType tags name two variants ({u:?}: {}, and {t:?}: {} at line {}); \
                     select the games of one with --game, or give --variant",
                    path.display(),
                    w.name(),
                    v.name(),
                    g.start.line
                ));
            }
            None => typed = Some((v, t)),
            _ => {}
        }
    }
    if let Some((v, t)) = typed {
        return Ok((v, format!("from the GameType tag {t:?}")));
    }
    let records: Vec<crate::pdn_tags::Record<'_>> = chosen
        .iter()
        .map(|g| (g.game.tag("FEN"), g.game.moves.as_slice(), g.second_first))
        .collect();
    match infer_variant(&records) {
        Inferred::One(v, why) => Ok((v, why)),
        Inferred::Several(c) => {
            let names: Vec<&str> = c.iter().map(|v| v.name()).collect();
            Err(format!(
                "{}: no GameType tag, and the games read legally in several variants: {}; \
                 give the one they are with --variant (e.g. --variant {})",
                path.display(),
                names.join(", "),
                names[0]
            ))
        }
    }
}

/// One game of the file, read and replayed, ready for analysis.
struct Prepared<G: Evaluate> {
    /// Its number in the file, from 1.
    number: usize,
    read: crate::pdn::ReadGame,
    start: G,
    moves: Vec<G::Move>,
}

/// Reads game `number` of a file in `G`: its start position and every move.
fn prepare<G: Evaluate>(
    number: usize,
    read: crate::pdn::ReadGame,
) -> Result<(Prepared<G>, Option<String>), String> {
    let g = &read.game;
    let (start, note) = setup::<G>(g.tag("FEN"), &g.moves, read.second_first)?;
    let moves = replay(&start, &g.moves).map_err(|(k, e)| {
        let at = read.places.get(k).map(|p| format!(" ({p})")).unwrap_or_default();
        format!("{e}{at}")
    })?;
    Ok((
        Prepared {
            number,
            read,
            start,
            moves,
        },
        note,
    ))
}

/// Runs `tempo analyze` for the game `G`.
///
/// # Errors
/// Bad options, a bad FEN, an unreadable PDN file, no game of it that reads legally, an output
/// file that cannot be written.
pub fn run<G: Evaluate>(args: &AnalyzeArgs) -> Result<(), String> {
    let limits = limits(args)?;
    // The table is sized by `resize`, which refuses a size the machine cannot give with an error
    // (`Engine::new` would panic).
    let mut engine = Engine::<G>::new(1);
    engine
        .resize(args.tt as usize)
        .map_err(|e| format!("--tt {}: {e}", args.tt))?;
    engine.set_threads(args.threads as usize);
    let (variant, why) = variant_of(args)?;
    let Some(path) = &args.pdn else {
        args.tables.load(variant)?;
        let root = match &args.fen {
            Some(f) => G::from_fen(f).map_err(|e| format!("bad FEN {f:?}: {e}"))?,
            None => G::start(),
        };
        return analyze_position(&mut engine, &root, limits, args.json);
    };
    let mut outputs = vec![("--pdn", path.as_path())];
    outputs.extend(args.annotate.as_deref().map(|p| ("--annotate", p)));
    outputs.extend(args.chart.as_deref().map(|p| ("--chart", p)));
    crate::fsutil::check_distinct(&outputs)?;
    for (_, p) in &outputs[1..] {
        crate::fsutil::check_writable(p)?;
    }
    let marks = Marks::new(args.mistake, args.blunder)?;
    let file = PdnFile::read(path)?;
    let selected = file.selected(path, args.game)?;
    let warn = |text: String| crate::stderr_line!("tempo: {}: {text}", path.display());
    if let Some(note) = &file.note {
        crate::stderr_line!("tempo: {note}");
    }
    // Every selected game is read and replayed before any search.
    let mut games = Vec::new();
    let mut skipped = Vec::new();
    let mut games_read = file.games.into_iter().map(Some).collect::<Vec<_>>();
    for &n in &selected {
        let read = match games_read[n - 1].take() {
            Some(Ok(g)) => prepare::<G>(n, g).map_err(|e| format!("game {n}: {e}")),
            Some(Err(e)) => Err(format!("game {n}: {e}")),
            None => continue,
        };
        match read {
            Ok((p, note)) => {
                if let Some(note) = note {
                    warn(format!("game {n}: {note}"));
                }
                games.push(p);
            }
            Err(e) => skipped.push(e),
        }
    }
    if games.is_empty() {
        let read_as = format!("read as {} ({why})", G::NAME);
        return Err(match skipped.as_slice() {
            [one] => format!("{}: {one}; {read_as}", path.display()),
            _ => format!(
                "{}: none of the {} games selected reads ({read_as}); the first: {}",
                path.display(),
                skipped.len(),
                skipped[0]
            ),
        });
    }
    for e in &skipped {
        warn(format!("{e}: skipped"));
    }
    args.tables.load(variant)?;
    let book = game_book::<G>(args)?;
    if !args.json {
        let count = if selected.len() == 1 {
            format!("game {}", selected[0])
        } else {
            format!("{} games", games.len())
        };
        say!("{} ({why}): {count} of {}", G::NAME, path.display())?;
    }
    let mut progress = Progress::new(games.iter().map(|g| g.moves.len()).sum());
    let mut analysed = Vec::new();
    for (k, game) in games.iter().enumerate() {
        if k > 0 && !args.json {
            say!("")?;
        }
        print_header(game, &why, args.json)?;
        let reports = analyze_game(
            &mut engine,
            &game.start,
            &game.moves,
            (limits, book.as_ref()),
            marks,
            args.json,
            |ply| progress.show(k + 1, games.len(), ply, game.moves.len()),
        );
        progress.clear();
        let reports = reports?;
        progress.done(game.moves.len());
        let g = &game.read.game;
        let tally = print_summary(&reports, args.json, g.result.as_deref().or(g.tag("Result")))?;
        analysed.push((tally, reports));
    }
    if selected.len() > 1 {
        print_file_summary(&analysed, skipped.len(), args.json)?;
    }
    if let Some(out) = &args.annotate {
        let text: String = games
            .iter()
            .zip(&analysed)
            .map(|(g, (_, r))| annotate::game_text(&g.read.game, &g.start, r, game_type(variant)))
            .collect();
        crate::fsutil::write_atomic(out, text.as_bytes())?;
    }
    if let Some(out) = &args.chart {
        let charts: Vec<chart::Chart> = games
            .iter()
            .zip(&analysed)
            .map(|(g, (_, r))| chart::Chart::of(g.number, &g.read.game, r))
            .collect();
        crate::fsutil::write_atomic(out, chart::svg(&charts, marks).as_bytes())?;
    }
    Ok(())
}

/// The book whose moves a game analysis marks: `--book`, else the shipped book of the variant if
/// one ships; none with `--no-book`.
fn game_book<G: Evaluate>(args: &AnalyzeArgs) -> Result<Option<Book>, String> {
    if args.no_book {
        return Ok(None);
    }
    match &args.book {
        Some(path) => Book::load_for::<G>(path)
            .map(Some)
            .map_err(|e| format!("--book {e}")),
        None => Ok(crate::book::shipped::load(G::NAME).ok()),
    }
}

/// The search limits the options ask for.
fn limits(args: &AnalyzeArgs) -> Result<Limits, String> {
    let movetime = match args.movetime {
        Some(s) if s.is_finite() && s > 0.0 => Some(Duration::from_secs_f64(s.min(1e6))),
        Some(s) => return Err(format!("bad movetime {s}: give a positive number of seconds")),
        None => None,
    };
    Ok(Limits {
        depth: if movetime.is_some() {
            args.depth
        } else {
            Some(args.depth.unwrap_or(DEFAULT_DEPTH))
        },
        movetime,
        multipv: if args.pdn.is_some() {
            1
        } else {
            args.multipv as usize
        },
        ..Default::default()
    })
}

/// Names a game before its moves: number, players and start position (text), or a `game` object.
fn print_header<G: Evaluate>(game: &Prepared<G>, why: &str, json: bool) -> Result<(), String> {
    let g = &game.read.game;
    // Problem books write `[White ""]`: an empty name is as unknown as a missing one.
    let tag = |t| g.tag(t).map(str::trim).filter(|v| !v.is_empty()).unwrap_or("?");
    if json {
        JsonLine::Game {
            game: game.number,
            variant: G::NAME.to_string(),
            variant_from: why.to_string(),
            white: tag("White").to_string(),
            black: tag("Black").to_string(),
            fen: game.start.to_fen(),
            moves: g.moves.len(),
        }
        .print()?;
    } else {
        say!(
            "{} game {}: {} - {}, from {}",
            G::NAME,
            game.number,
            tag("White"),
            tag("Black"),
            game.start.to_fen()
        )?;
        say!(
            "{:>6} {:<10} {:<2} {:>9}   best move and score, for the player who moves",
            "move",
            "played",
            "",
            "score"
        )?;
    }
    Ok(())
}

/// The progress of a file's analysis on standard error, when it is a terminal: the game, the
/// move, and the time left at the pace so far. Nothing at all when standard error is not a
/// terminal (a pipe, a file).
struct Progress {
    on: bool,
    started: std::time::Instant,
    /// Plies of the whole file, and plies done in the games finished.
    total: usize,
    done: usize,
}

impl Progress {
    fn new(total: usize) -> Progress {
        Progress {
            on: std::io::stderr().is_terminal(),
            started: std::time::Instant::now(),
            total,
            done: 0,
        }
    }

    fn show(&self, game: usize, games: usize, ply: usize, plies: usize) {
        if !self.on {
            return;
        }
        let so_far = self.done + ply;
        let left = if so_far > 0 {
            let each = self.started.elapsed().as_secs_f64() / so_far as f64;
            let secs = (each * (self.total - so_far) as f64).round() as u64;
            format!(
                ", about {}:{:02}:{:02} left",
                secs / 3600,
                secs / 60 % 60,
                secs % 60
            )
        } else {
            String::new()
        };
        let of_games = if games > 1 {
            format!("game {game}/{games}, ")
        } else {
            String::new()
        };
        let mut err = std::io::stderr();
        let _ = write!(err, "\r\x1b[Kanalysing {of_games}move {}/{plies}{left}", ply + 1);
        let _ = err.flush();
    }

    fn done(&mut self, plies: usize) {
        self.done += plies;
    }

    fn clear(&self) {
        if self.on {
            let _ = write!(std::io::stderr(), "\r\x1b[K");
        }
    }
}

/// The completed lines of the deepest iteration of a search that has at least `want` of them
/// (each line: the iteration's report for one root move, best first).
fn deepest<M: Clone>(infos: &[Info<M>], want: usize) -> Vec<Info<M>> {
    let mut depth = 0;
    let mut lines: Vec<Info<M>> = Vec::new();
    let mut best: Vec<Info<M>> = Vec::new();
    for i in infos {
        if i.depth != depth {
            if lines.len() >= want.max(1) {
                best = std::mem::take(&mut lines);
            }
            lines.clear();
            depth = i.depth;
        }
        lines.push(i.clone());
    }
    if lines.len() >= want.max(1) {
        best = lines;
    }
    best.sort_by_key(|i| i.multipv);
    best
}

/// Runs one search to its end, handing every iteration to `on_info`, and returns every report;
/// with `only` not empty, only those root moves are searched.
fn search<G: Evaluate>(
    engine: &mut Engine<G>,
    root: &G,
    history: &[u64],
    limits: Limits,
    only: Vec<G::Move>,
    mut on_info: impl FnMut(&Info<G::Move>) -> Result<(), String>,
) -> Result<Vec<Info<G::Move>>, String> {
    let (tx, rx) = crossbeam_channel::unbounded();
    engine.go_with(*root, history.to_vec(), limits, false, only, move |e| {
        let _ = tx.send(e);
    });
    let mut infos: Vec<Info<G::Move>> = Vec::new();
    let mut failed = None;
    for event in rx.iter() {
        match event {
            Event::Info(i) => {
                if failed.is_none() {
                    if let Err(e) = on_info(&i) {
                        // Nobody reads the rest: end the search; its Done still follows.
                        engine.stop();
                        failed = Some(e);
                    }
                }
                infos.push(i);
            }
            Event::Done { .. } => break,
        }
    }
    engine.wait();
    match failed {
        Some(e) => Err(e),
        None => Ok(infos),
    }
}

/// A score for people: `+0.35` men, or `win in 3` / `loss in 3` moves.
pub fn score_text(score: i32) -> String {
    match win_distance(score) {
        Some(d) if d > 0 => format!("win in {d}"),
        Some(d) => format!("loss in {}", -d),
        None => format!("{:+.2}", f64::from(score) / 100.0),
    }
}

/// The moves of a line in the variant's notation, each written in the position it is played from.
fn line_text<G: Evaluate>(root: &G, pv: &[G::Move]) -> Vec<String> {
    let mut pos = *root;
    pv.iter()
        .map(|m| {
            let s = pos.format_move(m, MoveStyle::Standard);
            pos = pos.play(m);
            s
        })
        .collect()
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::White => "White",
        Side::Black => "Black",
    }
}

/// Searches one position, printing each completed iteration and then the best move.
fn analyze_position<G: Evaluate>(
    engine: &mut Engine<G>,
    root: &G,
    limits: Limits,
    json: bool,
) -> Result<(), String> {
    if !json {
        say!(
            "{} {}, {} to move",
            G::NAME,
            root.to_fen(),
            side_name(root.side_to_move())
        )?;
    }
    let multi = limits.multipv > 1;
    let infos = search(engine, root, &[], limits, Vec::new(), |i| {
        let pv = line_text(root, &i.pv);
        if json {
            JsonLine::Info {
                depth: i.depth,
                seldepth: i.seldepth,
                multipv: i.multipv.max(1),
                score: i.score,
                win: win_distance(i.score),
                nodes: i.nodes,
                time_ms: u64::try_from(i.time.as_millis()).unwrap_or(u64::MAX),
                pv,
            }
            .print()?;
        } else {
            let line = if multi {
                format!("line {} ", i.multipv)
            } else {
                String::new()
            };
            say!(
                "depth {:>2}  {line}score {:>9}  nodes {:>10}  time {:>7.3}  {}",
                i.depth,
                score_text(i.score),
                i.nodes,
                i.time.as_secs_f64(),
                pv.join(" ")
            )?;
        }
        Ok(())
    })?;
    let lines = deepest(&infos, 1);
    let top = lines.first().filter(|i| !i.pv.is_empty());
    let best = top.map(|i| root.format_move(&i.pv[0], MoveStyle::Standard));
    if json {
        JsonLine::Best {
            mv: best,
            score: top.map(|i| i.score),
            win: top.and_then(|i| win_distance(i.score)),
            depth: top.map_or(0, |i| i.depth),
            outcome: outcome_text(root),
        }
        .print()
    } else {
        match (best, top) {
            (Some(b), Some(i)) => say!("best {b}  score {}  depth {}", score_text(i.score), i.depth),
            (Some(b), None) => say!("best {b}  (no iteration completed)"),
            (None, _) => say!("no legal move: {}", outcome_text(root)),
        }
    }
}

/// The game's state at a position: `game on`, `White wins`, `draw`.
fn outcome_text<G: Evaluate>(pos: &G) -> String {
    match pos.outcome() {
        Some(crate::game::Outcome::Win(s)) => format!("{} wins", side_name(s)),
        Some(crate::game::Outcome::Draw) => "draw".to_string(),
        None => "game on".to_string(),
    }
}

/// Reads every move of a game from `start`, in the variant's notation.
///
/// # Errors
/// The first move that is unreadable, illegal or ambiguous (a capture written by its ends that
/// fits several, when the rest of the game does not tell which: [`crate::pdn_tags::read_moves`]):
/// its index, and a message naming it by its move number.
pub fn replay<G: Evaluate>(start: &G, texts: &[String]) -> Result<Vec<G::Move>, (usize, String)> {
    crate::pdn_tags::read_moves(start, texts).map_err(|(ply, e)| {
        // Sides alternate, one move a turn.
        let side = if ply % 2 == 0 {
            start.side_to_move()
        } else {
            start.side_to_move().opponent()
        };
        let text = format!(
            "move {} ({} {:?}): {e}",
            move_number::<G>(start, ply),
            side_name(side),
            texts[ply]
        );
        (ply, text)
    })
}

/// The number a ply is written with: `12.` or `12...`. Move pairs begin with the side that moves
/// first in the variant's initial position (Black in English draughts).
pub fn move_number<G: crate::game::Game>(start: &G, ply: usize) -> String {
    let first = G::start().side_to_move();
    // A game from a position with the other side to move begins in the second half of move 1.
    let half = ply + usize::from(start.side_to_move() != first);
    if half % 2 == 0 {
        format!("{}.", half / 2 + 1)
    } else {
        format!("{}...", half / 2 + 1)
    }
}

/// The loss thresholds, in hundredths of a man.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Marks {
    /// From this loss a move is marked `?`.
    pub mistake: i32,
    /// From this loss a move is marked `??`.
    pub blunder: i32,
}

impl Marks {
    /// Thresholds given in men.
    ///
    /// # Errors
    /// A threshold that is not a positive number, or a blunder threshold below the mistake one.
    pub fn new(mistake: f64, blunder: f64) -> Result<Marks, String> {
        let cents = |men: f64, name: &str| {
            if men.is_finite() && men > 0.0 && men < 100.0 {
                Ok((men * 100.0).round() as i32)
            } else {
                Err(format!(
                    "bad --{name} {men}: give a number of men above 0 and below 100"
                ))
            }
        };
        let m = Marks {
            mistake: cents(mistake, "mistake")?,
            blunder: cents(blunder, "blunder")?,
        };
        if m.blunder < m.mistake {
            return Err(format!(
                "--blunder ({blunder}) must not be below --mistake ({mistake})"
            ));
        }
        Ok(m)
    }

    /// The mark of a move scoring `played` where the best move scores `best` (both for the mover).
    pub fn mark(self, best: i32, played: i32) -> &'static str {
        let (best_win, played_win) = (win_distance(best), win_distance(played));
        let gives_away_win = best_win.is_some_and(|d| d > 0) && played_win.is_none_or(|d| d <= 0);
        let walks_into_loss = played_win.is_some_and(|d| d < 0) && best_win.is_none_or(|d| d >= 0);
        let loss = best - played;
        if gives_away_win || walks_into_loss || loss >= self.blunder {
            "??"
        } else if loss >= self.mistake {
            "?"
        } else {
            ""
        }
    }
}

/// The evaluation of one move of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveReport {
    /// Its number, `12.` or `12...`.
    pub number: String,
    /// Who played it.
    pub side: Side,
    /// The move as written by the engine.
    pub played: String,
    /// Its score for the mover (`None` when no search iteration completed).
    pub played_score: Option<i32>,
    /// The engine's choice.
    pub best: String,
    /// Its score for the mover.
    pub best_score: Option<i32>,
    /// The best line, starting with the best move.
    pub best_line: Vec<String>,
    /// `??`, `?` or empty.
    pub mark: &'static str,
    /// Played from a position of the opening book: the scores and the depth are the book's.
    pub book: bool,
    /// Depth of the search behind the scores.
    pub depth: u32,
    /// The move was about to be marked and was searched again deeper: the scores are the deeper
    /// search's.
    pub rechecked: bool,
}

/// The scores of one position's move: the engine's choice and the move played, from one search.
struct Scored<M> {
    best: M,
    best_score: Option<i32>,
    played_score: Option<i32>,
    best_line: Vec<M>,
    depth: u32,
}

/// Scores the move `mv` played from `pos`: a search over every move finds the engine's choice;
/// when the move played is another one, one search over the two scores both, and the higher is
/// the best (so the best never scores below the move played).
fn score_move<G: Evaluate>(
    engine: &mut Engine<G>,
    pos: &G,
    history: &[u64],
    limits: Limits,
    mv: &G::Move,
) -> Result<Scored<G::Move>, String> {
    let all = search(engine, pos, history, limits, Vec::new(), |_| Ok(()))?;
    let top = deepest(&all, 1);
    let Some(first) = top.first().filter(|i| !i.pv.is_empty()) else {
        // No iteration completed (a tiny --movetime): nothing to compare.
        return Ok(Scored {
            best: *mv,
            best_score: None,
            played_score: None,
            best_line: Vec::new(),
            depth: 0,
        });
    };
    let choice = first.pv[0];
    if choice == *mv {
        return Ok(Scored {
            best: choice,
            best_score: Some(first.score),
            played_score: Some(first.score),
            best_line: first.pv.clone(),
            depth: first.depth,
        });
    }
    let pair_limits = Limits { multipv: 2, ..limits };
    let pair = search(engine, pos, history, pair_limits, vec![choice, *mv], |_| Ok(()))?;
    let lines = deepest(&pair, 2);
    let line_of = |m: &G::Move| lines.iter().find(|i| i.pv.first() == Some(m));
    match (line_of(&choice), line_of(mv)) {
        (Some(b), Some(p)) if b.score > p.score => Ok(Scored {
            best: choice,
            best_score: Some(b.score),
            played_score: Some(p.score),
            best_line: b.pv.clone(),
            depth: b.depth,
        }),
        // The move played scores as well as the engine's choice in the search of both: it is as
        // good a move, and no loss.
        (Some(_), Some(p)) => Ok(Scored {
            best: *mv,
            best_score: Some(p.score),
            played_score: Some(p.score),
            best_line: p.pv.clone(),
            depth: p.depth,
        }),
        // The pair's search did not complete an iteration with both lines: the first search's
        // choice and score, the move played unscored.
        _ => Ok(Scored {
            best: choice,
            best_score: Some(first.score),
            played_score: None,
            best_line: first.pv.clone(),
            depth: first.depth,
        }),
    }
}

/// The limits of the second look at a move about to be marked: two plies deeper, or twice the time.
fn deeper(limits: Limits) -> Limits {
    Limits {
        depth: limits.depth.map(|d| d + 2),
        movetime: limits.movetime.map(|t| t * 2),
        ..limits
    }
}

/// Evaluates every move of a game (already read by [`replay`]) with the search limits and, for
/// the moves played from positions it has expanded, the opening book of `how`; `progress` is
/// told each ply before its search.
///
/// # Errors
/// The output cannot be written.
pub fn analyze_game<G: Evaluate>(
    engine: &mut Engine<G>,
    start: &G,
    moves: &[G::Move],
    how: (Limits, Option<&Book>),
    marks: Marks,
    json: bool,
    mut progress: impl FnMut(usize),
) -> Result<Vec<MoveReport>, String> {
    let mut pos = *start;
    // Keys of the positions since the last irreversible move, as the search takes them.
    let mut history: Vec<u64> = Vec::new();
    let mut reports = Vec::with_capacity(moves.len());
    for (ply, mv) in moves.iter().enumerate() {
        // A game over by the rules (a repetition, a counted draw) is not analysed further: the
        // moves after it are not part of the game.
        if let Some((outcome, reason)) = crate::verdict::rules_verdict(&pos, &history) {
            print_end(ply, &reason, outcome, moves.len() - ply, json)?;
            break;
        }
        progress(ply);
        let book = how.1.and_then(|b| book_report(b, start, &pos, ply, mv, marks));
        let report = if let Some(report) = book {
            report
        } else {
            let mark_of = |s: &Scored<G::Move>| match (s.best_score, s.played_score) {
                (Some(b), Some(p)) if s.best != *mv => marks.mark(b, p),
                _ => "",
            };
            let mut scored = score_move(engine, &pos, &history, how.0, mv)?;
            let mut rechecked = false;
            if !mark_of(&scored).is_empty() {
                // A mark stands only if a deeper look agrees; the deeper scores are reported.
                scored = score_move(engine, &pos, &history, deeper(how.0), mv)?;
                rechecked = true;
            }
            let best_line = if scored.best_line.is_empty() {
                vec![pos.format_move(&scored.best, MoveStyle::Standard)]
            } else {
                line_text(&pos, &scored.best_line)
            };
            MoveReport {
                number: move_number(start, ply),
                side: pos.side_to_move(),
                played: pos.format_move(mv, MoveStyle::Standard),
                played_score: scored.played_score,
                best: pos.format_move(&scored.best, MoveStyle::Standard),
                best_score: scored.best_score,
                best_line,
                mark: mark_of(&scored),
                book: false,
                depth: scored.depth,
                rechecked,
            }
        };
        print_move(&report, ply, json)?;
        reports.push(report);
        if pos.is_irreversible(mv) {
            history.clear();
        } else {
            history.push(pos.key());
        }
        pos = pos.play(mv);
    }
    Ok(reports)
}

/// The report of a move `mv` played at `ply` from `pos`, scored from the book, when the book has
/// expanded `pos` (every legal move's position is then in it).
fn book_report<G: Evaluate>(
    book: &Book,
    start: &G,
    pos: &G,
    ply: usize,
    mv: &G::Move,
    marks: Marks,
) -> Option<MoveReport> {
    if !book.find(pos.key()).is_some_and(|e| e.expanded()) {
        return None;
    }
    let moves = book.moves(pos);
    let best = *moves.first()?;
    let played = *moves.iter().find(|m| m.mv == *mv)?;
    let mark = if played.mv == best.mv {
        ""
    } else {
        marks.mark(best.score, played.score)
    };
    Some(MoveReport {
        number: move_number(start, ply),
        side: pos.side_to_move(),
        played: pos.format_move(mv, MoveStyle::Standard),
        played_score: Some(played.score),
        best: pos.format_move(&best.mv, MoveStyle::Standard),
        best_score: Some(best.score),
        best_line: vec![pos.format_move(&best.mv, MoveStyle::Standard)],
        mark,
        book: true,
        depth: played.depth,
        rechecked: false,
    })
}

/// Says that the game ended by a rule at `ply`, with `left` moves of the record after it.
fn print_end(
    ply: usize,
    reason: &str,
    outcome: crate::game::Outcome,
    left: usize,
    json: bool,
) -> Result<(), String> {
    let result = match outcome {
        crate::game::Outcome::Win(Side::White) => "1-0",
        crate::game::Outcome::Win(Side::Black) => "0-1",
        crate::game::Outcome::Draw => "1/2-1/2",
    };
    if json {
        JsonLine::End {
            ply,
            reason: reason.to_string(),
            result: result.to_string(),
            unanalysed: left,
        }
        .print()
    } else {
        say!(
            "Game over after {ply} plies: {reason} ({result}); the {left} move{} after it are not analysed",
            if left == 1 { "" } else { "s" }
        )
    }
}

/// The loss of a move in hundredths of a man, when both scores are known and neither is a proven
/// result (a won game has no loss in men).
fn numeric_loss(r: &MoveReport) -> Option<i32> {
    match (r.best_score, r.played_score) {
        (Some(b), Some(p)) if win_distance(b).is_none() && win_distance(p).is_none() => Some((b - p).max(0)),
        _ => None,
    }
}

fn opt_score_text(s: Option<i32>) -> String {
    s.map_or("?".to_string(), score_text)
}

/// Prints one move's report as soon as it is known.
fn print_move(r: &MoveReport, ply: usize, json: bool) -> Result<(), String> {
    if json {
        JsonLine::Move {
            ply: ply + 1,
            number: r.number.clone(),
            side: side_name(r.side).to_ascii_lowercase(),
            played: r.played.clone(),
            played_score: r.played_score,
            played_win: r.played_score.and_then(win_distance),
            best: r.best.clone(),
            best_score: r.best_score,
            best_win: r.best_score.and_then(win_distance),
            loss: numeric_loss(r),
            mark: r.mark.to_string(),
            book: r.book,
            depth: r.depth,
            rechecked: r.rechecked,
            best_line: r.best_line.clone(),
        }
        .print()
    } else {
        let loss = match numeric_loss(r) {
            Some(l) if l > 0 => format!("  loss {:.2}", f64::from(l) / 100.0),
            _ => String::new(),
        };
        let best = if r.best == r.played {
            "(best)".to_string()
        } else {
            format!("best {:<10} {:>9}", r.best, opt_score_text(r.best_score))
        };
        let book = if r.book { "  book" } else { "" };
        say!(
            "{:>6} {:<10} {:<2} {:>9}   {best}{loss}{book}",
            r.number,
            r.played,
            r.mark,
            opt_score_text(r.played_score),
        )
    }
}

/// Counts of marked moves and the summed loss of one player.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Moves analysed.
    pub moves: usize,
    /// Moves marked `?`.
    pub mistakes: usize,
    /// Moves marked `??`.
    pub blunders: usize,
    /// Moves scored from the book.
    pub book: usize,
    /// Summed loss, in hundredths of a man.
    pub loss: i64,
}

impl Tally {
    fn add(&mut self, other: &Tally) {
        self.moves += other.moves;
        self.mistakes += other.mistakes;
        self.blunders += other.blunders;
        self.book += other.book;
        self.loss += other.loss;
    }

    /// Average loss per move, in men.
    fn average(&self) -> f64 {
        if self.moves > 0 {
            self.loss as f64 / self.moves as f64 / 100.0
        } else {
            0.0
        }
    }

    /// `12 moves (3 from the book), 1 mistake (?), 0 blunders (??), average loss 0.05`.
    fn text(&self) -> String {
        let book = if self.book > 0 {
            format!(" ({} from the book)", self.book)
        } else {
            String::new()
        };
        let s = |n: usize| if n == 1 { "" } else { "s" };
        format!(
            "{} move{}{book}, {} mistake{} (?), {} blunder{} (??), average loss {:.2}",
            self.moves,
            s(self.moves),
            self.mistakes,
            s(self.mistakes),
            self.blunders,
            s(self.blunders),
            self.average()
        )
    }
}

/// Prints the per-player summary after the moves, and the game's result; returns the tallies
/// (White's, Black's).
fn print_summary(reports: &[MoveReport], json: bool, result: Option<&str>) -> Result<[Tally; 2], String> {
    let mut tally = [Tally::default(); 2];
    for r in reports {
        let t = &mut tally[r.side.index()];
        t.moves += 1;
        t.book += usize::from(r.book);
        match r.mark {
            "??" => t.blunders += 1,
            "?" => t.mistakes += 1,
            _ => {}
        }
        t.loss += i64::from(numeric_loss(r).unwrap_or(0));
    }
    for side in [Side::White, Side::Black] {
        let t = tally[side.index()];
        if json {
            JsonLine::Summary {
                side: side_name(side).to_ascii_lowercase(),
                moves: t.moves,
                mistakes: t.mistakes,
                blunders: t.blunders,
                book: t.book,
                average_loss: (t.average() * 1000.0).round() / 1000.0,
            }
            .print()?;
        } else {
            say!("{}: {}", side_name(side), t.text())?;
        }
    }
    if !json {
        if let Some(res) = result {
            say!("Result: {res}")?;
        }
    }
    Ok(tally)
}

/// Prints the totals of a file's games: games analysed and skipped, then each side's tally.
fn print_file_summary(
    analysed: &[([Tally; 2], Vec<MoveReport>)],
    skipped: usize,
    json: bool,
) -> Result<(), String> {
    let mut total = [Tally::default(); 2];
    for (t, _) in analysed {
        total[0].add(&t[0]);
        total[1].add(&t[1]);
    }
    if json {
        let mut both = total[0];
        both.add(&total[1]);
        return JsonLine::File {
            games: analysed.len(),
            skipped,
            moves: both.moves,
            mistakes: both.mistakes,
            blunders: both.blunders,
            average_loss: (both.average() * 1000.0).round() / 1000.0,
        }
        .print();
    }
    say!("")?;
    let skipped = if skipped > 0 {
        format!(" ({skipped} skipped: see the warnings)")
    } else {
        String::new()
    };
    say!(
        "File: {} game{} analysed{skipped}",
        analysed.len(),
        if analysed.len() == 1 { "" } else { "s" }
    )?;
    say!("  White: {}", total[0].text())?;
    say!("  Black: {}", total[1].text())
}
