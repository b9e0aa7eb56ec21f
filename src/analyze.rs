//! `tempo analyze`: the search of one position, or the evaluation of every move of a PDN game,
//! written for people or, with `--json`, as one JSON object per line for scripts.
//!
//! A game is checked whole before any search (every move must read as one legal move), then each
//! position is searched twice at the same limits: once over every move, for the best move and its
//! score, and, when the played move is another one, once over the played move alone. Both scores
//! are for the player who moves; their difference is the move's loss, which marks it (see
//! [`Marks`]). A move played from a position the opening book has expanded is not searched: it is
//! marked `book` and scored, like the book's best move, from the book.

use crate::book::Book;
use crate::engine::{Engine, Event};
use crate::eval::Evaluate;
use crate::game::{MoveStyle, Side};
use crate::pdn::PdnGame;
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
    /// game's `GameType` tag names (International without the tag); otherwise International.
    #[arg(long, short)]
    pub variant: Option<Variant>,
    /// Position to search, as PDN FEN (default: the variant's initial position).
    #[arg(long, conflicts_with = "pdn")]
    pub fen: Option<String>,
    /// A PDN file: evaluate every move of one of its games. Moves are read in the variant's
    /// notation; the game's `FEN` tag, if any, gives its start position.
    #[arg(long, value_name = "FILE")]
    pub pdn: Option<PathBuf>,
    /// Which game of the PDN file, counting from 1.
    #[arg(long, default_value_t = 1, requires = "pdn",
          value_parser = clap::value_parser!(u32).range(1..))]
    pub game: u32,
    /// Depth of each search [default: 10 unless --movetime is given].
    #[arg(long, short, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub depth: Option<u32>,
    /// Seconds for each search (fractions allowed). A game move that is not the best one costs a
    /// second search of its own.
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
        game: u32,
        /// Variant name.
        variant: String,
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

Game analysis (--pdn) prints, for every move, the played move and its score, the best move and its
score, both from the view of the player who moves, and the loss (best minus played). Marks:
  ??  a blunder: the loss is at least --blunder men (default 1.5), or the move gives away a proven
      win, or it walks into a proven loss that the best move avoids;
  ?   a mistake: the loss is at least --mistake men (default 0.5).
A move played from a position that the opening book has expanded (--book FILE, by default the
variant's shipped book; --no-book searches every move) is marked `book` and is not searched: its
score, the best move's and the loss come from the book, and it is marked ?/?? on them.
A summary per player follows: moves, book moves, marks, and the average loss in men (a move between
proven results counts as no loss). An illegal or unreadable move stops the analysis before any search,
naming the move number.

JSON lines (--json): a position gives `{\"type\":\"info\",...}` per completed iteration and line, then
`{\"type\":\"best\",...}`; a game gives `{\"type\":\"game\",...}`, `{\"type\":\"move\",...}` per move and
`{\"type\":\"summary\",...}`; a game that a rule ended before its last move (a repetition, a
counted draw) gets `{\"type\":\"end\",\"ply\":N,\"reason\":...,\"result\":...,\"unanalysed\":K}` there,
and the moves after it are not analysed. Each score is two fields: `score` (`played_score`, `best_score`) in
hundredths of a man, and `win` (`played_win`, `best_win`): the moves to a proven win, negative for a
proven loss, otherwise null.

Progress for game analysis goes to standard error when it is a terminal.";

/// Runs `tempo analyze` for the game `G`.
///
/// # Errors
/// The variant to analyse in, and where it came from when the user did not name it: `--variant`,
/// else the `GameType` tag of the `--pdn` game (PDN's default, International, without the tag),
/// else International.
///
/// # Errors
/// The PDN game cannot be read, or its `GameType` names no variant Tempo plays.
pub fn variant_of(args: &AnalyzeArgs) -> Result<(Variant, Option<String>), String> {
    if let Some(v) = args.variant {
        return Ok((v, None));
    }
    let Some(path) = &args.pdn else {
        return Ok((Variant::International, None));
    };
    let game = load_game(path, args.game as usize)?;
    match game.tag("GameType") {
        // PDN's default game type.
        None => Ok((Variant::International, None)),
        Some(t) => crate::pdn_tags::variant_of_game_type(t)
            .map(|v| (v, Some(format!("from the GameType tag {t:?}"))))
            .ok_or_else(|| {
                format!(
                    "game {}: GameType {t:?} names no variant Tempo plays; give --variant",
                    args.game
                )
            }),
    }
}

/// Bad options, a bad FEN, an unreadable PDN file or game, an illegal or unreadable move.
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
    args.tables.load(variant)?;
    match &args.pdn {
        Some(path) => {
            let game = load_game(path, args.game as usize)?;
            let n = args.game;
            let start = match game.tag("FEN") {
                Some(f) => G::from_fen(f).map_err(|e| format!("game {n}: bad FEN tag {f:?}: {e}"))?,
                None => G::start(),
            };
            let read_as = |e: String| match &why {
                Some(w) => format!("game {n}, read as {} ({w}): {e}", G::NAME),
                None => format!("game {n}: {e}"),
            };
            let moves = replay(&start, &game.moves).map_err(read_as)?;
            let marks = Marks::new(args.mistake, args.blunder)?;
            let book = game_book::<G>(args)?;
            print_header(&game, n, &start, why.as_deref(), args.json)?;
            let out = analyze_game(
                &mut engine,
                &start,
                &moves,
                (limits, book.as_ref()),
                marks,
                args.json,
                |ply| progress(ply, moves.len()),
            );
            if std::io::stderr().is_terminal() {
                eprint!("\r\x1b[K");
            }
            print_summary(&out?, args.json, game.result.as_deref().or(game.tag("Result")))
        }
        None => {
            let root = match &args.fen {
                Some(f) => G::from_fen(f).map_err(|e| format!("bad FEN {f:?}: {e}"))?,
                None => G::start(),
            };
            analyze_position(&mut engine, &root, limits, args.json)
        }
    }
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

/// Reads game `n` (from 1) of a PDN file.
fn load_game(path: &std::path::Path, n: usize) -> Result<PdnGame, String> {
    let text = crate::pdn::read_file(path)?;
    let mut games = crate::pdn::parse_games(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    if n == 0 || n > games.len() {
        return Err(format!(
            "{}: no game {n} (the file holds {} game{})",
            path.display(),
            games.len(),
            if games.len() == 1 { "" } else { "s" }
        ));
    }
    Ok(games.swap_remove(n - 1))
}

/// Names the game before its moves: players and start position (text), or a `game` object.
fn print_header<G: Evaluate>(
    game: &PdnGame,
    n: u32,
    start: &G,
    why: Option<&str>,
    json: bool,
) -> Result<(), String> {
    let tag = |t| game.tag(t).unwrap_or("?");
    if json {
        JsonLine::Game {
            game: n,
            variant: G::NAME.to_string(),
            white: tag("White").to_string(),
            black: tag("Black").to_string(),
            fen: start.to_fen(),
            moves: game.moves.len(),
        }
        .print()?;
    } else {
        say!(
            "{}{} game {n}: {} - {}, from {}",
            G::NAME,
            why.map(|w| format!(" ({w})")).unwrap_or_default(),
            tag("White"),
            tag("Black"),
            start.to_fen()
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

/// Writes `\rply k/n` to standard error when it is a terminal.
fn progress(ply: usize, total: usize) {
    let mut err = std::io::stderr();
    if err.is_terminal() {
        let _ = write!(err, "\ranalysing move {}/{total}", ply + 1);
        let _ = err.flush();
    }
}

/// The last completed iteration of each line of a search, and the move it chose.
struct Searched<M> {
    lines: Vec<Info<M>>,
    best: Option<M>,
}

/// Runs one search to its end, handing every iteration to `on_info`; with `only` not empty, only
/// those root moves are searched.
fn search<G: Evaluate>(
    engine: &mut Engine<G>,
    root: &G,
    history: &[u64],
    limits: Limits,
    only: Vec<G::Move>,
    mut on_info: impl FnMut(&Info<G::Move>) -> Result<(), String>,
) -> Result<Searched<G::Move>, String> {
    let (tx, rx) = crossbeam_channel::unbounded();
    engine.go_with(*root, history.to_vec(), limits, false, only, move |e| {
        let _ = tx.send(e);
    });
    let mut lines: Vec<Info<G::Move>> = Vec::new();
    let mut best = None;
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
                let slot = i.multipv.max(1) - 1;
                if lines.len() <= slot {
                    lines.resize(slot + 1, i.clone());
                }
                lines[slot] = i;
            }
            Event::Done { best: b, .. } => {
                best = b;
                break;
            }
        }
    }
    engine.wait();
    match failed {
        Some(e) => Err(e),
        None => Ok(Searched { lines, best }),
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
    let done = search(engine, root, &[], limits, Vec::new(), |i| {
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
    let best = done.best.map(|m| root.format_move(&m, MoveStyle::Standard));
    let top = done.lines.first();
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
/// The first move that is unreadable, illegal or ambiguous, named by its move number.
pub fn replay<G: Evaluate>(start: &G, texts: &[String]) -> Result<Vec<G::Move>, String> {
    let mut pos = *start;
    let mut moves = Vec::with_capacity(texts.len());
    for (ply, text) in texts.iter().enumerate() {
        let mv = pos.parse_move(text).map_err(|e| {
            format!(
                "move {} ({} {text:?}): {e}",
                move_number::<G>(start, ply),
                side_name(pos.side_to_move())
            )
        })?;
        moves.push(mv);
        pos = pos.play(&mv);
    }
    Ok(moves)
}

/// The number a ply is written with: `12.` or `12...`. Move pairs begin with the side that moves
/// first in the variant's initial position (Black in English draughts).
pub fn move_number<G: Evaluate>(start: &G, ply: usize) -> String {
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
}

/// Evaluates every move of a game (already read by [`replay`]) with the search limits and, for
/// the moves played from positions it has expanded, the opening book of `how`; `progress` is
/// told each ply before its search.
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
            let limits = how.0;
            let all = search(engine, &pos, &history, limits, Vec::new(), |_| Ok(()))?;
            let top = all.lines.first();
            let best = all.best.unwrap_or(*mv);
            let best_score = top.map(|i| i.score);
            let played_score = if best == *mv {
                best_score
            } else {
                let own = search(engine, &pos, &history, limits, vec![*mv], |_| Ok(()))?;
                own.lines.first().map(|i| i.score)
            };
            let mark = match (best_score, played_score) {
                (Some(b), Some(p)) if best != *mv => marks.mark(b, p),
                _ => "",
            };
            let best_line = match top {
                Some(i) if !i.pv.is_empty() => line_text(&pos, &i.pv),
                _ => vec![pos.format_move(&best, MoveStyle::Standard)],
            };
            MoveReport {
                number: move_number(start, ply),
                side: pos.side_to_move(),
                played: pos.format_move(mv, MoveStyle::Standard),
                played_score,
                best: pos.format_move(&best, MoveStyle::Standard),
                best_score,
                best_line,
                mark,
                book: false,
                depth: top.map_or(0, |i| i.depth),
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
struct Tally {
    moves: usize,
    mistakes: usize,
    blunders: usize,
    book: usize,
    loss: i64,
}

/// Prints the per-player summary after the moves, and the game's result.
fn print_summary(reports: &[MoveReport], json: bool, result: Option<&str>) -> Result<(), String> {
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
        let avg = if t.moves > 0 {
            t.loss as f64 / t.moves as f64 / 100.0
        } else {
            0.0
        };
        if json {
            JsonLine::Summary {
                side: side_name(side).to_ascii_lowercase(),
                moves: t.moves,
                mistakes: t.mistakes,
                blunders: t.blunders,
                book: t.book,
                average_loss: (avg * 1000.0).round() / 1000.0,
            }
            .print()?;
        } else {
            let book = if t.book > 0 {
                format!(" ({} from the book)", t.book)
            } else {
                String::new()
            };
            say!(
                "{}: {} move{}{book}, {} mistake{} (?), {} blunder{} (??), average loss {avg:.2}",
                side_name(side),
                t.moves,
                if t.moves == 1 { "" } else { "s" },
                t.mistakes,
                if t.mistakes == 1 { "" } else { "s" },
                t.blunders,
                if t.blunders == 1 { "" } else { "s" }
            )?;
        }
    }
    if !json {
        if let Some(res) = result {
            say!("Result: {res}")?;
        }
    }
    Ok(())
}
