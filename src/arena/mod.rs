//! `tempo match`: a match manager for draughts engines, in the manner of cutechess-cli.
//!
//! Engines run as child processes speaking Hub or the UCI-style dialect ([`client`], over
//! [`engine_proc`]) or as DXP peers ([`dxp`]), all behind one interface ([`engine_client`]); each
//! game is refereed by Tempo's own rules ([`game_runner`]); openings come from a file or are
//! generated and balanced by Tempo's search ([`openings`]); results give the pair counts, Elo and
//! its interval, nElo, LOS and an SPRT ([`stats`]); games are written as PDN through
//! [`crate::pdn`].
//!
//! The manager is generic over the game type and dispatched once ([`run`] under
//! [`crate::with_variant!`]): no variant is looked at inside the logic.

pub mod game_runner;
pub mod interrupt;
pub mod results;
pub mod stats;

use crate::engine_client::client::Client;
use crate::engine_client::conf as engine_conf;
use crate::engine_client::limits::{TimeControl, parse_seconds, parse_tc};
use crate::engine_client::process::{EngineSpec, Log};
use crate::eval::Evaluate;
use crate::game::{Outcome, Side};
use crate::openings::{self, Balance, Opening};
use crate::pdn::{PdnGame, write_game_with_comments};
use crate::pdn_tags::{game_type, pdn_date};
use crate::variant::Variant;
use crossbeam_channel::unbounded;
use game_runner::{
    Adjudication, DrawAdjudication, GameConfig, GameRecord, MoveNote, play_game, thinking_report,
};
use results::{GameResult, JsonContext, SavedState, Tally, result_text};
use stats::{MatchStats, Sprt};
use std::collections::HashSet;
use std::fmt::Write as _;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicUsize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How the PDN writes results.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PdnResults {
    /// International draughts points: 2-0, 0-2, 1-1.
    Draughts,
    /// Chess results, which rating tools (Ordo, BayesElo) read: 1-0, 0-1, 1/2-1/2.
    Pgn,
}

/// Who plays whom.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tournament {
    /// Every engine against every other.
    RoundRobin,
    /// The first engine against each of the others.
    Gauntlet,
}

/// The options of `tempo match`.
#[derive(clap::Args, Clone, Debug)]
#[command(
    after_help = "ENGINES: each --engine is a command line. Within it, the words name=NAME, \
proto=hub|hub1|uci, dir=PATH and option.NAME=VALUE are settings for the manager (the engine's \
display name, its dialect, its working directory, and parameters sent as Hub set-param, Hub-1 \
set or UCI setoption); cmd=PROGRAM may name the program; every other word is the command. \
Without proto=, a command with a `hub` or `uci` argument speaks that dialect; otherwise the \
manager sends `hub` and, without a `wait` within 3 s, tries `uci`; an engine that gives no \
`uciok` within 3 s either stops the match, both dialects named. Errors name an engine by its \
name= (or engine1, engine2... in the order given). restart=on gives the engine a new process \
for every game (by default a process plays game after game). Example: --engine \
\"target/release/tempo hub name=new option.tt-size=20\" --engine \"dame hub\".

LIMITS PER ENGINE: the words tc=TC, movetime=SECONDS, depth=N and nodes=N in an --engine value \
(or in --each, or for a named engine in the engines file) give that engine its own limits, which \
replace --tc, --movetime, --depth and --nodes for it; margin=MS replaces --margin (st= and \
timemargin=, as fastchess writes them, are read as movetime= and margin=). Example: \
--engine \"tempo hub name=full tc=10+0.1\" --engine \"tempo hub name=half tc=5+0.05\".

ENGINES FILE: --engines-file FILE is a JSON array of engines, each with a name and a command and \
optionally dir, proto, options (an object of NAME: VALUE), tc, movetime, depth, nodes, margin \
and restart (true or false); \
--engine conf=NAME plays the engine of that name, and further words in the --engine value \
(settings only) add to it. Example: [{\"name\": \"new\", \"command\": \"tempo hub\", \
\"options\": {\"tt-size\": 20}}] with --engine conf=new.

HUB-1: proto=hub1 is the first Hub protocol, spoken by Scan 2.0 and engines of its time: the \
manager sends `hub`, `set NAME VALUE` per option, `init`; `new` per game; for every move the \
game as `start` (or `pos` and the start position) and one `move M` line per move played, then \
`depth N`, `time MS` (--movetime) or `level MOVES MS INC_MS` (--tc), and `go`, and reads \
`move M [PONDER]` and the scores of `info` lines (hundredths of a man). Hub-1 plays \
International only and has no node limit. A Hub engine (proto= not given) that answers `hub` \
with `name ...` lines and no `id` line is spoken to in Hub-1 (with proto=hub it is an error). \
Example: --engine \"/path/scan hub dir=/path\" (Scan 2.0 reads scan.ini and data/ from its \
working directory).

TIME: an engine that runs out of clock time loses, with a margin of --margin milliseconds (50 by \
default). With --movetime an engine loses only when a move takes more than twice the move time \
plus one second. With only --depth or --nodes, a move that takes longer than --stall seconds \
(60 by default) loses. An engine that crashes, stalls or makes an illegal move loses the game \
and is restarted for its next game. Whatever an engine writes, the deadlines hold and the memory \
kept of its output is bounded (1024 lines of at most 64 KiB, the last 5 lines of standard error).

FAULTS BEFORE PLAY: an engine that answers one of its settings (the variant or an \
option.NAME=VALUE) with an error (Hub `error`, UCI `info string error` or `No such option`) stops \
the match before any game, its replies quoted; an engine that exits is reported with its exit \
status and last standard error. --openings, --pdn, --log, --state, --json and --engines-file \
must be different files. A --log that cannot be written stops the match (before play, or with \
status 1 at its end).

RECORDS: --pdn appends every game with the tags Event, Site, Date, Round, White, Black, Result, \
GameType, FEN (when not the initial position), TimeControl (WhiteTimeControl and \
BlackTimeControl when the engines' differ), PlyCount and Termination, and after each engine move \
a comment with its score in men for the mover, its depth and its time: {+0.12/9 0.104s}. \
--state FILE saves the match after every game; after a stop or a crash, tempo match --resume FILE \
plays the games left and ends as the whole match would have. --json FILE keeps a summary for \
other programs.

OUTPUT: standard output (where engine output is never mixed in) has `Started game`, `Finished \
game N (A vs B): RESULT {reason}`, `Score of A vs B: W - L - D  [score] N` after every game, and at the end \
each engine's mean thinking time a searched move (`Thinking time a searched move: ...`, from \
the request to the answer; moves answered in under 10 ms counted apart) with a `Warning:` line \
for an engine whose mean overran --movetime by more than 10 %, then the statistics: for each \
pairing its results, its game pairs (LL, LD, DD+WL, WD, WW), `Elo difference: E +/- M, LOS: L %, \
DrawRatio: D %` (from the pairs; a bound when every game was won or lost), nElo and the SPRT; \
for more than two engines a crosstable comes before the pairings and a ranking after them. --report-every N prints the statistics every \
N games too; Ctrl-C stops the match (the games under way abandoned) and prints them once more. \
Results print as 1-0, 0-1 and 1/2-1/2, as cutechess-cli prints them; the PDN writes 2-0, 0-2 and \
1-1 unless --pdn-results pgn."
)]
pub struct MatchArgs {
    /// An engine to play (at least two): a command line with optional settings (see below).
    /// Two engines play a match; more play a round robin or a gauntlet (--tournament).
    #[arg(long = "engine", value_name = "COMMAND", required_unless_present = "resume")]
    pub engines: Vec<String>,
    /// Settings every engine shares, as in an --engine value (proto=, dir=, restart=,
    /// option.NAME=VALUE, tc=, movetime=, depth=, nodes=, margin=); an engine's own words win.
    #[arg(long, value_name = "SETTINGS")]
    pub each: Option<String>,
    /// A JSON file of named engines, which --engine conf=NAME plays (see ENGINES FILE below).
    #[arg(long, value_name = "FILE")]
    pub engines_file: Option<PathBuf>,
    /// The form of a match of three or more engines: every engine against every other
    /// (round-robin), or the first engine against each of the others (gauntlet).
    #[arg(long, value_enum, default_value = "round-robin", value_name = "FORM")]
    pub tournament: Tournament,
    /// Variant played (as for perft).
    #[arg(long, short, value_parser = parse_variant, default_value = "international", value_name = "NAME")]
    pub variant: Variant,
    /// Total number of games (1 to 1000000). Each opening is played twice, colours swapped.
    /// Default: with --sprt, 10000 (a cap for a test that has not decided by then; the match stops
    /// when it decides); otherwise every opening of --openings once per pairing (both colours), or
    /// 20 games per pairing.
    #[arg(long, value_parser = parse_games, value_name = "N")]
    pub games: Option<usize>,
    /// Rounds (1 to 500000): each round plays one opening with both colours in every pairing (an
    /// alternative to --games). The games of all rounds may not exceed 1000000.
    #[arg(long, value_parser = parse_rounds, value_name = "N")]
    pub rounds: Option<usize>,
    /// Games played at the same time (1 to 64).
    #[arg(long, default_value_t = 1, value_parser = parse_concurrency, value_name = "N")]
    pub concurrency: usize,
    /// Opening file: PDN games (each from its FEN tag or the start), or one opening per line: a
    /// FEN, a FEN and moves, or moves from the start (such as the 8x8 three-move ballots). After
    /// the file, order=random shuffles the openings by --seed (order=sequential, the default,
    /// keeps the file's order), start=N begins with the Nth, and plies=N plays at most N plies of
    /// each. Openings are repeated when the games outnumber them.
    #[arg(long, value_name = "FILE [order=random|sequential] [start=N] [plies=N]", num_args = 1..)]
    pub openings: Vec<String>,
    /// Without --openings: random openings of this many plies (0 to 200; 0: every game from the
    /// initial position, where only the engines' books make the games differ).
    #[arg(long, default_value_t = 6, value_name = "PLIES", value_parser = parse_random_plies)]
    pub random_plies: usize,
    /// Seed of the random openings and of --openings order=random (default: from the clock;
    /// printed, so that a run can be repeated).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Balance filter of random openings: the largest score, in men for either side, that
    /// Tempo's search may give an opening (0: no filter).
    #[arg(long, default_value_t = 0.5, value_name = "MEN")]
    pub balance: f64,
    /// Imbalance filter of random openings: the least score, in men for either side, that
    /// Tempo's search must give an opening (0: none; below --balance). Openings with an edge
    /// make fewer draws, and each is played with both colours, so the edge cancels out of the
    /// score. A difference then shows as more Elo: with 0.3 and --balance 0.8, about 1.9 times
    /// as much, so stretch --sprt's bounds by that (elo1=19 for 10); the test then needs about
    /// 0.6 of the games (docs/match.md, measured on one pair of engines).
    #[arg(long, default_value_t = 0.0, value_name = "MEN")]
    pub imbalance: f64,
    /// Depth of the balance filter's search (1-20: each opening drawn costs one search, and
    /// beyond depth 12 or so that is seconds an opening).
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(1..=20), value_name = "DEPTH")]
    pub balance_depth: u32,
    /// Game clock: SECONDS+INC (Fischer), or MOVES/SECONDS+INC (MOVES moves per SECONDS,
    /// repeating); the increment is optional.
    #[arg(long, value_name = "TC")]
    pub tc: Option<String>,
    /// Seconds per move (fractions allowed).
    #[arg(long, value_name = "SECONDS")]
    pub movetime: Option<f64>,
    /// Depth per move.
    #[arg(long, value_name = "N")]
    pub depth: Option<u32>,
    /// Nodes per move.
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
    /// Milliseconds an engine may overrun its clock before it loses on time.
    #[arg(long, default_value_t = 50, value_name = "MS")]
    pub margin: u64,
    /// Seconds a move may take, when neither --tc nor --movetime bounds it, before the engine is
    /// declared hung.
    #[arg(long, default_value_t = 60.0, value_name = "SECONDS")]
    pub stall: f64,
    /// Adjudicate a draw once a game has this many plies (opening included).
    #[arg(long, value_name = "PLIES")]
    pub draw_after: Option<usize>,
    /// Adjudicate a win when for PLIES consecutive plies both engines' scores give the same side
    /// at least MEN men: MEN/PLIES, e.g. 5/6.
    #[arg(long, value_name = "MEN/PLIES")]
    pub adjudicate_win: Option<String>,
    /// Adjudicate a draw when, from the game's ply FROM on (opening included), the last PLIES
    /// scores of both engines all lie within MEN men of level: MEN/PLIES/FROM, e.g. 0.05/20/80.
    /// FROM keeps the opening's level scores from counting.
    #[arg(long, value_name = "MEN/PLIES/FROM")]
    pub adjudicate_draw: Option<String>,
    /// Adjudicate by the endgame tables in DIR (as `tempo egdb build` writes them, up to
    /// --adjudicate-egdb-pieces): a position they cover ends the game with their result, a win
    /// only where the variant's counted draw rules leave time for it.
    #[arg(long, value_name = "DIR")]
    pub adjudicate_egdb: Option<PathBuf>,
    /// The most pieces of the tables --adjudicate-egdb loads.
    #[arg(long, default_value_t = 6, value_name = "N")]
    pub adjudicate_egdb_pieces: u32,
    /// An engine resigns when its own last PLIES scores are all -MEN or worse: MEN/PLIES.
    #[arg(long, value_name = "MEN/PLIES")]
    pub resign: Option<String>,
    /// A game still going at this many plies is drawn (a safety net for endless games).
    #[arg(long, default_value_t = 1000, value_name = "PLIES")]
    pub max_plies: usize,
    /// Sequential probability ratio test, "elo0=E0 elo1=E1 [alpha=0.05] [beta=0.05]
    /// [model=pentanomial|trinomial] [model=logistic|normalized]" (the Elo of the first engine over
    /// the second; logistic Elo unless model=normalized): the match stops as soon as the test
    /// accepts H0 or H1. Two engines only.
    #[arg(long, value_name = "SPEC")]
    pub sprt: Option<String>,
    /// Print the statistics (pairs, Elo, nElo, LOS, draw ratio, SPRT) after every N games, as at
    /// the end of the match.
    #[arg(long, value_name = "N", value_parser = parse_report_every)]
    pub report_every: Option<usize>,
    /// Write every game to this PDN file, with each engine move's score, depth and time as a
    /// comment. An existing file keeps its games: the new ones are appended.
    #[arg(long, value_name = "FILE")]
    pub pdn: Option<PathBuf>,
    /// How the PDN writes results: draughts (2-0, 0-2, 1-1, the International convention) or pgn
    /// (1-0, 0-1, 1/2-1/2, which Ordo and BayesElo read). Standard output always prints 1-0, 0-1
    /// and 1/2-1/2, as cutechess-cli does, for the tools that read its lines.
    #[arg(long, value_enum, default_value = "draughts", value_name = "STYLE")]
    pub pdn_results: PdnResults,
    /// Save the match's state to this file (a new one) after every game, so that --resume can
    /// finish a match that was stopped or crashed.
    #[arg(long, value_name = "FILE")]
    pub state: Option<PathBuf>,
    /// Continue the match saved in this state file, with the options it was started with
    /// (nothing else may be given), to the same games and results as if it had never stopped.
    /// While a manager works on a state, a second one on it is refused (a lock beside it).
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,
    /// Write the statistics, each engine's thinking time and every game's result and termination
    /// as JSON to this file (a new one), rewritten after every game.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write every line sent to and read from the engines, and their standard error, to this file.
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
    /// The PDN Event tag.
    #[arg(long, default_value = "tempo match", value_name = "TEXT")]
    pub event: String,
    /// The PDN Site tag.
    #[arg(long, default_value = "?", value_name = "TEXT")]
    pub site: String,
}

/// The most games one run plays: far beyond any real match, and small enough that the schedule,
/// the openings and the results always fit in memory.
pub const MAX_GAMES: usize = 1_000_000;
/// The games an SPRT match may play when neither --games nor --rounds is given.
pub const SPRT_GAMES: usize = 10_000;
/// The longest random opening, in plies.
pub const MAX_RANDOM_PLIES: usize = 200;
/// The most games played at the same time.
pub const MAX_CONCURRENCY: usize = 64;

/// A count in `lo..=hi`, with a message that gives the range.
fn count_in(text: &str, lo: usize, hi: usize) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(n) if (lo..=hi).contains(&n) => Ok(n),
        _ => Err(format!("{text:?} is not a whole number from {lo} to {hi}")),
    }
}

fn parse_games(s: &str) -> Result<usize, String> {
    count_in(s, 1, MAX_GAMES)
}

fn parse_rounds(s: &str) -> Result<usize, String> {
    count_in(s, 1, MAX_GAMES / 2)
}

fn parse_concurrency(s: &str) -> Result<usize, String> {
    count_in(s, 1, MAX_CONCURRENCY)
}

fn parse_report_every(s: &str) -> Result<usize, String> {
    count_in(s, 1, MAX_GAMES)
}

fn parse_random_plies(s: &str) -> Result<usize, String> {
    count_in(s, 0, MAX_RANDOM_PLIES)
}

/// Refuses an output file (`--pdn`, `--log`) that is an input or another output: the openings
/// would be overwritten before they are read, or two writers would share one file.
fn check_distinct_files(
    args: &MatchArgs,
    openings: Option<&openings::FileOrder>,
    state: Option<&std::path::Path>,
) -> Result<(), String> {
    let files: Vec<(&str, &std::path::Path)> = [
        ("--openings", openings.map(|o| o.path.as_path())),
        ("--pdn", args.pdn.as_deref()),
        ("--log", args.log.as_deref()),
        ("--state", state),
        ("--json", args.json.as_deref()),
        ("--engines-file", args.engines_file.as_deref()),
    ]
    .into_iter()
    .filter_map(|(n, p)| p.map(|p| (n, p)))
    .collect();
    crate::fsutil::check_distinct(&files)
}

/// The game with index `k` (from 0) of the schedule: round by round, in each round every pairing
/// with both colours.
fn job_of(k: usize, pairs: &[[usize; 2]]) -> Job {
    let per_round = 2 * pairs.len();
    let pair = (k % per_round) / 2;
    let [a, b] = pairs[pair];
    Job {
        number: k + 1,
        pair,
        round: k / per_round,
        players: if k % 2 == 0 { [a, b] } else { [b, a] },
    }
}

fn parse_variant(s: &str) -> Result<Variant, String> {
    s.parse()
        .map_err(|e: crate::variant::UnknownVariant| e.to_string())
}

/// Reads `MEN/PLIES` into (hundredths of a man, plies).
fn parse_threshold(what: &str, text: &str) -> Result<(i32, usize), String> {
    let bad = || format!("{what} {text:?}: expected MEN/PLIES, e.g. 5/6");
    let (m, p) = text.split_once('/').ok_or_else(bad)?;
    let men: f64 = m.trim().parse().map_err(|_| bad())?;
    let plies: usize = p.trim().parse().map_err(|_| bad())?;
    if !men.is_finite() || men <= 0.0 || plies == 0 {
        return Err(bad());
    }
    Ok(((men * 100.0).round() as i32, plies))
}

/// Parses `--adjudicate-draw MEN/PLIES/FROM`: MEN at least 0 (0: only scores of exactly 0),
/// PLIES at least 2 (so that both engines take part).
fn parse_draw_adjudication(text: &str) -> Result<DrawAdjudication, String> {
    let bad = || format!("--adjudicate-draw {text:?}: expected MEN/PLIES/FROM, e.g. 0.05/20/80");
    let parts: Vec<&str> = text.split('/').map(str::trim).collect();
    let [m, p, f] = parts[..] else {
        return Err(bad());
    };
    let men: f64 = m.parse().map_err(|_| bad())?;
    let plies: usize = p.parse().map_err(|_| bad())?;
    let from: usize = f.parse().map_err(|_| bad())?;
    if !men.is_finite() || !(0.0..=100.0).contains(&men) {
        return Err(bad());
    }
    if plies < 2 {
        return Err(format!(
            "--adjudicate-draw {text:?}: PLIES must be at least 2, so that both engines agree"
        ));
    }
    Ok(DrawAdjudication {
        men: (men * 100.0).round() as i32,
        plies,
        from,
    })
}

/// One scheduled game.
#[derive(Clone, Copy, Debug)]
struct Job {
    /// 1-based game number.
    number: usize,
    /// Index of the pairing.
    pair: usize,
    /// Round (which opening).
    round: usize,
    /// Engine indices of White and Black.
    players: [usize; 2],
}

enum Msg {
    Started(Job),
    Finished(Job, GameRecord),
    /// A worker cannot go on (its next opening could not be drawn): the match stops and fails.
    Fatal(String),
}

/// The openings of a match: a file's, used in order and repeated, or a random stream drawn as the
/// games need them (in round order, so a seed gives the same openings whatever the concurrency).
enum Book<G: crate::game::Game> {
    Fixed(Vec<Opening<G>>),
    Drawn(Box<std::sync::Mutex<Drawn<G>>>),
}

/// A random stream and the openings drawn from it so far.
struct Drawn<G: crate::game::Game> {
    stream: openings::RandomOpenings<G>,
    openings: Vec<Opening<G>>,
}

impl<G: Evaluate> Book<G> {
    /// The opening of round `round`.
    fn get(&self, round: usize) -> Result<Opening<G>, String> {
        match self {
            Book::Fixed(o) => Ok(o[round % o.len()].clone()),
            Book::Drawn(m) => {
                // A worker that panicked while drawing left a consistent list behind it.
                let mut guard = m.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                let d = &mut *guard;
                while d.openings.len() <= round {
                    let o = d.stream.next_opening()?;
                    d.openings.push(o);
                }
                Ok(d.openings[round].clone())
            }
        }
    }
}

/// Result token in draughts PDN: International points (`--pdn-results draughts`) or the chess
/// results rating tools read (`--pdn-results pgn`).
fn pdn_result(o: Option<Outcome>, style: PdnResults) -> &'static str {
    match style {
        PdnResults::Pgn => result_text(o),
        PdnResults::Draughts => match o {
            Some(Outcome::Win(Side::White)) => "2-0",
            Some(Outcome::Win(Side::Black)) => "0-2",
            Some(Outcome::Draw) => "1-1",
            None => "*",
        },
    }
}

/// Seconds as short as they go: `10`, `0.1`, `0.05`.
fn short_seconds(d: Duration) -> String {
    let s = format!("{:.3}", d.as_secs_f64());
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The PDN `TimeControl` of an engine's limits, as PGN writes it: `40/60+0.1`, `10+0.1`, or for a
/// fixed time a move `0.1/move`; `-` when no time is set (a depth or node limit only).
fn tc_tag(tc: &TimeControl) -> String {
    if let Some(c) = tc.clock {
        let mut t = String::new();
        if let Some(m) = c.moves {
            t += &format!("{m}/");
        }
        t += &short_seconds(c.base);
        if !c.inc.is_zero() {
            t += &format!("+{}", short_seconds(c.inc));
        }
        t
    } else if let Some(m) = tc.movetime {
        format!("{}/move", short_seconds(m))
    } else {
        "-".into()
    }
}

/// What an engine plays under: its limits and clock margin.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Limits {
    tc: TimeControl,
    margin: Duration,
}

/// The command line of this run after `tempo match`, to be saved with the state.
fn own_args() -> Result<Vec<String>, String> {
    let all: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| {
            a.into_string()
                .map_err(|a| format!("--state: the argument {a:?} is not UTF-8"))
        })
        .collect::<Result<_, _>>()?;
    let at = all.iter().position(|a| a == "match").map_or(0, |i| i + 1);
    Ok(all[at..].to_vec())
}

/// The options as clap reads them, for a saved command line.
#[derive(clap::Parser)]
struct SavedCommand {
    #[command(flatten)]
    args: MatchArgs,
}

/// Runs `tempo match`: a new match, or with `--resume` the saved one, for its variant.
///
/// # Errors
/// As [`run`]; a state file that cannot be read or holds options that no longer parse.
pub fn main(args: &MatchArgs) -> Result<(), String> {
    let Some(path) = &args.resume else {
        return crate::with_variant!(args.variant, G => run::<G>(args, None));
    };
    let given = own_args()?;
    if given.len() > 2 || given.iter().filter(|a| a.starts_with("--")).count() != 1 {
        return Err(
            "--resume FILE takes nothing else: the match goes on with the options it was started with".into(),
        );
    }
    let saved = SavedState::load(path)?;
    let argv = std::iter::once("tempo match".to_string()).chain(saved.args.iter().cloned());
    let parsed = <SavedCommand as clap::Parser>::try_parse_from(argv)
        .map_err(|e| format!("--resume {}: its options do not parse: {e}", path.display()))?
        .args;
    if parsed.resume.is_some() {
        return Err(format!(
            "--resume {}: the saved options hold --resume",
            path.display()
        ));
    }
    let resume = Resume {
        path: path.clone(),
        saved,
    };
    crate::with_variant!(parsed.variant, G => run::<G>(&parsed, Some(&resume)))
}

/// A saved match being continued.
pub struct Resume {
    path: PathBuf,
    saved: SavedState,
}

/// The SPRT's line after a game, and its decision.
fn sprt_line(test: &Sprt, t: &Tally) -> (String, stats::SprtState) {
    let st = test.state(&t.pair_scores[0], &t.penta[0]);
    let verdict = match st.decision {
        Some(true) => " - H1 was accepted",
        Some(false) => " - H0 was accepted",
        None => "",
    };
    (
        format!(
            "SPRT: llr {:.2} ({:.1}%), lbound {:.2}, ubound {:.2}{verdict}\n",
            st.llr,
            100.0 * st.llr / st.upper,
            st.lower,
            st.upper
        ),
        st,
    )
}

/// Runs a match, round robin or gauntlet for game type `G`; `resume` continues a saved one.
///
/// # Errors
/// Bad options, an engine that cannot be started or fails its handshake, an unreadable opening
/// file, or a PDN, state or JSON file that cannot be written. Engine failures during games are not
/// errors: the engine loses the game.
pub fn run<G: Evaluate>(args: &MatchArgs, resume: Option<&Resume>) -> Result<(), String> {
    if args.engines.len() < 2 {
        return Err("a match needs at least two --engine".into());
    }
    let conf = args
        .engines_file
        .as_deref()
        .map(engine_conf::load_engines_file)
        .transpose()?
        .unwrap_or_default();
    let each = engine_conf::each_words(args.each.as_deref())?;
    let mut specs = Vec::new();
    let mut own = Vec::new();
    for e in &args.engines {
        let (text, limits) = engine_conf::resolve(e, &each, &conf)?;
        specs.push(EngineSpec::parse(&text)?);
        own.push(limits);
    }
    let mut tc = TimeControl {
        clock: args.tc.as_deref().map(parse_tc).transpose()?,
        movetime: args
            .movetime
            .map(|s| parse_seconds("--movetime", &s.to_string()))
            .transpose()?,
        depth: args.depth,
        nodes: args.nodes,
    };
    if tc.movetime.is_some_and(|t| t.is_zero()) {
        return Err("--movetime must be more than 0".into());
    }
    if args.depth == Some(0) || args.nodes == Some(0) {
        return Err("--depth and --nodes must be at least 1".into());
    }
    if tc == TimeControl::default() {
        // The default: a short game clock, as cutechess users expect some limit.
        tc.clock = Some(parse_tc("10+0.1")?);
    }
    let limits: Vec<Limits> = own
        .iter()
        .map(|o| Limits {
            tc: o.tc.unwrap_or(tc),
            margin: o.margin.unwrap_or(Duration::from_millis(args.margin)),
        })
        .collect();
    if !(args.stall.is_finite() && args.stall > 0.0) {
        return Err("--stall must be a positive number of seconds".into());
    }
    let adjudication = Adjudication {
        draw_after: args.draw_after,
        win: args
            .adjudicate_win
            .as_deref()
            .map(|t| parse_threshold("--adjudicate-win", t))
            .transpose()?,
        resign: args
            .resign
            .as_deref()
            .map(|t| parse_threshold("--resign", t))
            .transpose()?,
        draw: args
            .adjudicate_draw
            .as_deref()
            .map(parse_draw_adjudication)
            .transpose()?,
        egdb: args.adjudicate_egdb.is_some(),
        max_plies: args.max_plies.max(1),
    };
    if adjudication.win.is_some_and(|(_, k)| k < 2) {
        return Err("--adjudicate-win needs at least 2 plies, so that both engines agree".into());
    }
    let cfg = GameConfig {
        tc: [tc; 2],
        margin: [Duration::from_millis(args.margin); 2],
        stall: Duration::from_secs_f64(args.stall.min(1e7)),
        adjudication,
    };
    let sprt = args.sprt.as_deref().map(Sprt::parse).transpose()?;
    if sprt.is_some() && specs.len() != 2 {
        return Err("--sprt needs exactly two engines".into());
    }
    let file_order = if args.openings.is_empty() {
        None
    } else {
        Some(openings::FileOrder::parse(&args.openings)?)
    };
    let state_path = match resume {
        Some(r) => Some(r.path.clone()),
        None => args.state.clone(),
    };
    check_distinct_files(args, file_order.as_ref(), state_path.as_deref())?;
    if resume.is_none() {
        // A state or summary of another match is not replaced by this one.
        for (flag, p) in [("--state", &args.state), ("--json", &args.json)] {
            if let Some(p) = p
                && std::fs::symlink_metadata(p).is_ok()
            {
                return Err(format!(
                    "{flag} {}: the file exists; remove it, or continue its match with --resume",
                    p.display()
                ));
            }
        }
    }
    for p in [&state_path, &args.json].into_iter().flatten() {
        crate::fsutil::check_writable(p)?;
    }
    // Two managers on one state (a resume started twice) would play the same games twice and
    // append both to the PDN: the second is refused while the first runs.
    let _lock = match (&state_path, resume) {
        (Some(p), Some(_)) => crate::fsutil::lock_for_work("--resume", p)?,
        (Some(p), None) => crate::fsutil::lock_for_work("--state", p)?,
        (None, _) => None,
    };
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
            % 1_000_000_007
    });
    // The command line the state keeps: as given, with the seed made explicit.
    let saved_args = match resume {
        Some(r) => r.saved.args.clone(),
        None if state_path.is_some() => {
            let mut a = own_args()?;
            if args.seed.is_none() {
                a.extend(["--seed".to_string(), seed.to_string()]);
            }
            a
        }
        None => Vec::new(),
    };
    if let Some(dir) = &args.adjudicate_egdb {
        // The manager's own copy of the tables (the engines load theirs, or none, as they like).
        let loaded = crate::egdb::registry::load_and_wait(
            args.variant,
            &dir.to_string_lossy(),
            args.adjudicate_egdb_pieces,
        )
        .map_err(|e| format!("--adjudicate-egdb {}: {e}", dir.display()))?;
        crate::stderr_line!("adjudication tables: {loaded}");
    }
    let log = args.log.as_deref().map(Log::create).transpose()?.map(Arc::new);
    let variant = args.variant;

    // Start every engine once: a command that cannot run or speak fails here, before any game,
    // and the engines' own names are learnt.
    let mut names = Vec::new();
    for (i, spec) in specs.iter().enumerate() {
        let c = Client::start(spec, &spec.label(i), variant, log.clone())?;
        let name = spec
            .name
            .clone()
            .or_else(|| c.id_name().map(str::to_string))
            .unwrap_or_else(|| spec.program_name());
        c.quit();
        names.push(name);
    }
    for i in 0..names.len() {
        let mut k = 2;
        while names[..i].contains(&names[i]) {
            names[i] = format!("{}-{k}", names[i].trim_end_matches(&format!("-{}", k - 1)));
            k += 1;
        }
    }

    let n = specs.len();
    let pairs: Vec<[usize; 2]> = match args.tournament {
        Tournament::RoundRobin => (0..n).flat_map(|i| (i + 1..n).map(move |j| [i, j])).collect(),
        Tournament::Gauntlet => (1..n).map(|j| [0, j]).collect(),
    };
    let per_round = 2 * pairs.len();
    if file_order.is_some() && args.imbalance != 0.0 {
        return Err("--imbalance filters random openings: it cannot be given with --openings".into());
    }
    let file_openings = match &file_order {
        Some(f) => Some(f.arrange(openings::load::<G>(&f.path)?, seed)?),
        None => None,
    };
    let total = match (args.games, args.rounds, &file_openings) {
        (Some(g), _, _) => Some(g),
        (None, Some(r), _) => r.checked_mul(per_round),
        // An SPRT runs until it decides: a default of a few games would end it undecided.
        (None, None, _) if sprt.is_some() => Some(SPRT_GAMES),
        (None, None, Some(o)) => o.len().checked_mul(per_round),
        (None, None, None) => Some(10 * per_round),
    };
    let total = match total {
        Some(0) => return Err("no games to play".into()),
        Some(t) if t <= MAX_GAMES => t,
        _ => {
            return Err(format!(
                "more than {MAX_GAMES} games ({} pairings, {per_round} games a round): give fewer \
                 --rounds or --games",
                pairs.len()
            ));
        }
    };
    let rounds = total.div_ceil(per_round);
    let book: Book<G> = match (file_openings, &file_order) {
        (Some(o), Some(f)) => {
            print(&format!(
                "Openings: {} from {}{}\n",
                o.len(),
                f.path.display(),
                match (f.random, f.start) {
                    (true, s) => format!(", in random order (seed {seed}) from the {}", ordinal(s)),
                    (false, 1) => String::new(),
                    (false, s) => format!(", from the {}", ordinal(s)),
                }
            ))?;
            Book::Fixed(o)
        }
        _ => {
            let balance = Balance::from_men(args.balance, args.imbalance, args.balance_depth)?;
            // The first opening is drawn now, so that a filter nothing passes stops the match
            // before any engine starts; the others as the games need them.
            let mut stream = openings::RandomOpenings::<G>::new(args.random_plies, seed, balance);
            let first = stream.next_opening()?;
            print(&match balance {
                _ if args.random_plies == 0 => {
                    format!("Openings: {rounds}, every one the initial position (0 random plies)\n")
                }
                Some(b) => format!(
                    "Openings: {rounds} random of {} plies, seed {seed}, {} at depth {}\n",
                    args.random_plies,
                    b.describe(),
                    b.depth
                ),
                None => format!(
                    "Openings: {rounds} random of {} plies, seed {seed}\n",
                    args.random_plies
                ),
            })?;
            Book::Drawn(Box::new(std::sync::Mutex::new(Drawn {
                stream,
                openings: vec![first],
            })))
        }
    };

    // The games already played (a resumed match), counted as if they had just been played.
    let mut tally = Tally::new(n, pairs.len());
    let mut decided = None;
    let mut done = HashSet::new();
    if let Some(r) = resume {
        for g in &r.saved.games {
            let k = g.number.wrapping_sub(1);
            let job = (k < total)
                .then(|| job_of(k, &pairs))
                .filter(|j| j.players == g.players)
                .ok_or_else(|| {
                    format!(
                        "--resume {}: game {} is not in the schedule",
                        r.path.display(),
                        g.number
                    )
                })?;
            if !done.insert(k) {
                return Err(format!(
                    "--resume {}: game {} is there twice",
                    r.path.display(),
                    g.number
                ));
            }
            tally.add(job.pair, pairs[job.pair], job.round, g.clone());
            if let Some(test) = sprt
                && decided.is_none()
            {
                decided = sprt_line(&test, &tally).1.decision;
            }
        }
        print(&format!(
            "Resumed from {}: {} of {total} games played\n",
            r.path.display(),
            done.len()
        ))?;
    }

    let date = match resume {
        Some(r) => r.saved.date.clone(),
        None => pdn_date(),
    };
    let mut pdn_file = match &args.pdn {
        Some(p) => Some(open_pdn(p, resume.map(|r| r.saved.pdn_bytes))).transpose()?,
        None => None,
    };
    let mut state = state_path.map(|path| {
        (
            path,
            SavedState {
                format: results::STATE_FORMAT.into(),
                args: saved_args,
                date: date.clone(),
                pdn_bytes: pdn_file.as_ref().map(|f| f.1),
                games: tally.games.clone(),
            },
        )
    });
    if let Some((path, s)) = &state {
        // Saved before the first game, so that a match stopped at once can be resumed.
        s.save(path)?;
    }

    // The schedule is a counter, not a list: each worker takes the next game number not played.
    let next_job = Arc::new(AtomicUsize::new(0));
    let pairs = Arc::new(pairs);
    let done = Arc::new(done);
    let stop = Arc::new(AtomicBool::new(decided.is_some()));
    let (msg_tx, msg_rx) = unbounded();
    let book = Arc::new(book);
    let specs = Arc::new(specs);
    let limits = Arc::new(limits);
    let mut workers = Vec::new();
    for w in 0..args.concurrency.min(total) {
        let next_job = Arc::clone(&next_job);
        let pairs = Arc::clone(&pairs);
        let done = Arc::clone(&done);
        let msg_tx = msg_tx.clone();
        let stop = Arc::clone(&stop);
        let book = Arc::clone(&book);
        let specs = Arc::clone(&specs);
        let limits = Arc::clone(&limits);
        let log = log.clone();
        let handle = std::thread::Builder::new()
            .name(format!("match worker {w}"))
            // A worker draws the random openings its games need, with a balance search each.
            .stack_size(crate::engine::SEARCH_STACK)
            .spawn(move || {
                let jobs = Jobs {
                    next: &next_job,
                    total,
                    pairs: &pairs,
                    done: &done,
                };
                let players = Players {
                    specs: &specs,
                    limits: &limits,
                };
                worker::<G>(w, &players, variant, &book, &cfg, &stop, &jobs, &msg_tx, log);
            })
            .map_err(|e| format!("cannot start a worker thread: {e}"))?;
        workers.push(handle);
    }
    drop(msg_tx);

    // The statistics of the games finished so far, as printed and as the JSON summary holds them.
    let stats_of = |t: &Tally, decided: Option<bool>| {
        MatchStats::new(
            &names,
            &pairs,
            &t.pair_scores,
            &t.penta,
            &t.engine_scores,
            sprt.as_ref().map(|test| (test, decided)),
        )
    };
    // Once standard output is closed (`| head`), the match stops: the games under way are
    // aborted, the engines quit, and the command ends quietly.
    let mut closed = false;
    let mut fatal: Option<String> = None;
    let fail = |fatal: &mut Option<String>, e: String| {
        fatal.get_or_insert(e);
        stop.store(true, Ordering::Relaxed);
    };
    // Ctrl-C stops the match: the statistics of the finished games are printed at once (an
    // engine may think a while before the game under way can stop), and the games under way are
    // abandoned.
    interrupt::install();
    let mut interrupted = false;
    loop {
        let received = msg_rx.recv_timeout(Duration::from_millis(100));
        if !interrupted && !closed && interrupt::interrupted() {
            interrupted = true;
            stop.store(true, Ordering::Relaxed);
            let now = stats_of(&tally, decided);
            let _ = print(&format!(
                "Interrupted (Ctrl-C): the games under way are abandoned\n{}",
                stats::report(&now)
            ));
        }
        let msg = match received {
            Ok(m) => m,
            Err(crossbeam_channel::RecvTimeoutError::Timeout) => continue,
            Err(crossbeam_channel::RecvTimeoutError::Disconnected) => break,
        };
        if closed || fatal.is_some() {
            continue;
        }
        let mut o = String::new();
        match msg {
            Msg::Fatal(e) => fail(&mut fatal, e),
            Msg::Started(job) => {
                let _ = writeln!(
                    &mut o,
                    "Started game {} of {total} ({} vs {})",
                    job.number, names[job.players[0]], names[job.players[1]]
                );
            }
            Msg::Finished(job, record) => {
                let Some(outcome) = record.outcome else { continue };
                let [w, b] = job.players;
                let _ = writeln!(
                    &mut o,
                    "Finished game {} ({} vs {}): {} {{{}}}",
                    job.number,
                    names[w],
                    names[b],
                    result_text(Some(outcome)),
                    record.reason
                );
                tally.add(
                    job.pair,
                    pairs[job.pair],
                    job.round,
                    GameResult {
                        number: job.number,
                        players: job.players,
                        result: result_text(Some(outcome)).into(),
                        termination: record.reason.clone(),
                        plies: record.moves.len(),
                        thought: GameResult::thought_of(&record.thought),
                    },
                );
                let [first, second] = pairs[job.pair];
                let ps = tally.pair_scores[job.pair];
                let _ = writeln!(
                    &mut o,
                    "Score of {} vs {}: {} - {} - {}  [{:.3}] {}",
                    names[first],
                    names[second],
                    ps.wins,
                    ps.losses,
                    ps.draws,
                    ps.score(),
                    ps.games()
                );
                if let Some((f, bytes)) = &mut pdn_file {
                    let game = pdn_game(args, variant, &date, &names, &limits, job, &record);
                    let text = write_game_with_comments(&game, &comments(&record));
                    match f.write_all(text.as_bytes()).and_then(|()| f.flush()) {
                        Ok(()) => *bytes += text.len() as u64,
                        // The games would be lost: the match stops (its engines quit) and fails.
                        Err(e) => fail(&mut fatal, format!("cannot write the PDN file: {e}")),
                    }
                }
                if let Some(test) = sprt {
                    let (line, st) = sprt_line(&test, &tally);
                    o += &line;
                    if st.decision.is_some() && decided.is_none() {
                        decided = st.decision;
                        stop.store(true, Ordering::Relaxed);
                    }
                }
                if let Some((path, s)) = &mut state {
                    s.games.push(tally.games[tally.games.len() - 1].clone());
                    s.pdn_bytes = pdn_file.as_ref().map(|f| f.1);
                    if let Err(e) = s.save(path) {
                        fail(&mut fatal, format!("cannot save the match state: {e}"));
                    }
                }
                if let Some(p) = &args.json
                    && let Err(e) = write_json(p, &tally, &names, total, false, &stats_of(&tally, decided))
                {
                    fail(&mut fatal, e);
                }
                let played = tally.games.len() as u64;
                // (The last game's report is the one at the end.)
                if args.report_every.is_some_and(|n| played % n as u64 == 0) && played < total as u64 {
                    let now = stats_of(&tally, decided);
                    o.push_str(&stats::report(&now));
                }
            }
        }
        if let Err(e) = print(&o) {
            if e != crate::output::OUTPUT_CLOSED {
                crate::stderr_line!("tempo match: {e}");
            }
            closed = true;
            stop.store(true, Ordering::Relaxed);
        }
    }
    for h in workers {
        let _ = h.join();
    }
    if let Some(e) = fatal {
        return Err(e);
    }
    if closed {
        return Err(crate::output::OUTPUT_CLOSED.into());
    }
    if interrupted {
        // The statistics were printed when Ctrl-C came.
        return Err("the match was interrupted (Ctrl-C)".into());
    }
    if let Some(p) = &args.json {
        write_json(p, &tally, &names, total, true, &stats_of(&tally, decided))?;
    }
    // The thinking time first, so that the result stays the last thing before `Finished match`.
    let movetimes: Vec<Option<Duration>> = limits.iter().map(|l| l.tc.movetime).collect();
    let mut o = thinking_report(&names, &tally.thinking, &movetimes);
    if pairs.len() > 1 {
        o += &crosstable(&names, &pairs, &tally);
    }
    o.push_str(&stats::report(&stats_of(&tally, decided)));
    let _ = writeln!(o, "Finished match");
    print(&o)?;
    match log.as_ref().and_then(|l| l.error()) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// `1st`, `2nd`, `3rd`, `4th`...
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// The crosstable of a tournament: the points of each engine (a row) against each other (a win
/// 1, a draw 1/2; `-` where two engines did not meet), engines in the order of their score.
/// [`stats::report`] follows it with each pairing's statistics and the ranking.
fn crosstable(names: &[String], pairs: &[[usize; 2]], t: &Tally) -> String {
    let mut o = String::new();
    let mut order: Vec<usize> = (0..names.len()).collect();
    order.sort_by(|&a, &b| t.engine_scores[b].score().total_cmp(&t.engine_scores[a].score()));
    // Rows start with the rank (4 wide) and the name; the header's first cell spans both.
    let width = names.iter().map(String::len).max().unwrap_or(0).max(5);
    let _ = write!(o, "{:<w$}", "Crosstable", w = 5 + width);
    for k in 0..order.len() {
        let _ = write!(o, " {:>9}", k + 1);
    }
    o.push('\n');
    for (rank, &e) in order.iter().enumerate() {
        let _ = write!(o, "{:>4} {:<width$}", rank + 1, names[e]);
        for &f in &order {
            let cell = pairs.iter().position(|&q| q == [e, f] || q == [f, e]).map(|p| {
                let r = t.pair_scores[p];
                let r = if pairs[p][0] == e { r } else { r.flipped() };
                format!("{}/{}", half_points(2 * r.wins + r.draws), r.games())
            });
            let _ = write!(o, " {:>9}", cell.unwrap_or_else(|| "-".into()));
        }
        o.push('\n');
    }
    o
}

/// Half points as points: `3`, `2.5`.
fn half_points(h: u64) -> String {
    if h % 2 == 0 {
        (h / 2).to_string()
    } else {
        format!("{}.5", h / 2)
    }
}

/// Opens the PDN file for appending (an existing file keeps its games). When resuming, the file
/// is cut back to its length when the state was saved: a game written after that is played again.
/// Returns the file and its length.
fn open_pdn(
    path: &std::path::Path,
    saved_bytes: Option<Option<u64>>,
) -> Result<(std::io::BufWriter<std::fs::File>, u64), String> {
    let name = path.display();
    crate::fsutil::check_writable(path)?;
    let f = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .map_err(|e| format!("cannot open {name}: {e}"))?;
    let mut len = f
        .metadata()
        .map_err(|e| format!("cannot read {name}: {e}"))?
        .len();
    match saved_bytes {
        Some(Some(saved)) if len < saved => {
            return Err(format!(
                "--resume: the PDN file {name} is shorter ({len} bytes) than when the match was \
                 saved ({saved} bytes)"
            ));
        }
        Some(Some(saved)) => {
            f.set_len(saved)
                .map_err(|e| format!("cannot cut {name} back to its saved games: {e}"))?;
            len = saved;
        }
        Some(None) => {
            return Err(format!(
                "--resume: the saved match had no PDN file, but --pdn {name} is given"
            ));
        }
        None if len > 0 => {
            crate::stderr_line!("tempo match: {name} exists; its games are kept and the new ones appended")
        }
        None => {}
    }
    Ok((std::io::BufWriter::new(f), len))
}

/// Writes the `--json` summary (a temporary file renamed over the old one).
fn write_json(
    path: &std::path::Path,
    t: &Tally,
    names: &[String],
    total: usize,
    finished: bool,
    stats: &MatchStats,
) -> Result<(), String> {
    let c = JsonContext {
        names,
        total,
        finished,
        stats,
    };
    let mut text =
        serde_json::to_string_pretty(&results::json_summary(t, &c)).map_err(|e| format!("--json: {e}"))?;
    text.push('\n');
    crate::fsutil::write_atomic(path, text.as_bytes())
}

/// Writes text to standard output at once.
///
/// # Errors
/// [`crate::output::OUTPUT_CLOSED`] when the reader has gone, another message otherwise.
fn print(text: &str) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(crate::output::output_error)
}

/// The PDN comments of a game's moves: the engines' scores, depths and times.
fn comments(record: &GameRecord) -> Vec<Option<String>> {
    record
        .notes
        .iter()
        .map(|n| n.as_ref().map(MoveNote::comment))
        .collect()
}

fn pdn_game(
    args: &MatchArgs,
    variant: Variant,
    date: &str,
    names: &[String],
    limits: &[Limits],
    job: Job,
    record: &GameRecord,
) -> PdnGame {
    let mut g = PdnGame::default();
    let result = pdn_result(record.outcome, args.pdn_results);
    g.set_tag("Event", &args.event);
    g.set_tag("Site", &args.site);
    g.set_tag("Date", date);
    g.set_tag("Round", &job.number.to_string());
    g.set_tag("White", &names[job.players[0]]);
    g.set_tag("Black", &names[job.players[1]]);
    g.set_tag("Result", result);
    match game_type(variant) {
        Some(t) => g.set_tag("GameType", t),
        None => g.set_tag("Variant", variant.name()),
    }
    if matches!(
        variant,
        Variant::Killer | Variant::Breakthrough | Variant::Antidraughts | Variant::Frysk
    ) {
        g.set_tag("Variant", variant.name());
    }
    // Frysk! shares Frisian's GameType, so its start position is always given.
    if !record.initial || variant == Variant::Frysk {
        g.set_tag("FEN", &record.start_fen);
    }
    let [white, black] = job.players.map(|e| tc_tag(&limits[e].tc));
    if white == black {
        g.set_tag("TimeControl", &white);
    } else {
        // An odds match: each side's own, as cutechess writes them.
        g.set_tag("WhiteTimeControl", &white);
        g.set_tag("BlackTimeControl", &black);
    }
    g.set_tag("PlyCount", &record.moves.len().to_string());
    g.set_tag("Termination", &record.reason);
    g.moves = record.moves.clone();
    g.result = Some(result.to_string());
    g
}

/// The schedule shared by the workers.
struct Jobs<'a> {
    /// The index of the next game to start.
    next: &'a AtomicUsize,
    /// Games in the match.
    total: usize,
    /// The pairings.
    pairs: &'a [[usize; 2]],
    /// Games already played (a resumed match), skipped.
    done: &'a HashSet<usize>,
}

impl Jobs<'_> {
    /// The next game to play, if any is left.
    fn take(&self) -> Option<Job> {
        loop {
            let k = self.next.fetch_add(1, Ordering::Relaxed);
            if k >= self.total {
                return None;
            }
            if !self.done.contains(&k) {
                return Some(job_of(k, self.pairs));
            }
        }
    }
}

/// The engines of a match: how to start each, and what it plays under.
struct Players<'a> {
    specs: &'a [EngineSpec],
    limits: &'a [Limits],
}

/// A worker thread: takes jobs until none is left or the match stops, keeping its own engine
/// processes alive from game to game and restarting those that failed.
#[allow(clippy::too_many_arguments)]
fn worker<G: Evaluate>(
    w: usize,
    players: &Players<'_>,
    variant: Variant,
    book: &Book<G>,
    cfg: &GameConfig,
    stop: &AtomicBool,
    jobs: &Jobs<'_>,
    results: &crossbeam_channel::Sender<Msg>,
    log: Option<Arc<Log>>,
) {
    let specs = players.specs;
    let mut clients: Vec<Option<Client>> = (0..specs.len()).map(|_| None).collect();
    while !stop.load(Ordering::Relaxed) {
        let Some(job) = jobs.take() else { break };
        let opening = match book.get(job.round) {
            Ok(o) => o,
            Err(e) => {
                let _ = results.send(Msg::Fatal(e));
                break;
            }
        };
        let _ = results.send(Msg::Started(job));
        let mut failed_start = None;
        for (side, &e) in job.players.iter().enumerate() {
            if clients[e].is_none() {
                match Client::start(
                    &specs[e],
                    &format!("{}.w{w}", specs[e].label(e)),
                    variant,
                    log.clone(),
                ) {
                    Ok(c) => clients[e] = Some(c),
                    Err(err) => {
                        failed_start.get_or_insert((side, err));
                    }
                }
            }
        }
        let record = if let Some((side, err)) = failed_start {
            let loser = if side == 0 { Side::White } else { Side::Black };
            GameRecord {
                outcome: Some(Outcome::Win(loser.opponent())),
                reason: format!("{loser:?} cannot start: {err}"),
                start_fen: opening.start.to_fen(),
                initial: opening.start == G::start(),
                moves: Vec::new(),
                failed: [false; 2],
                thought: Default::default(),
                notes: Vec::new(),
            }
        } else {
            let mut white = clients[job.players[0]].take().expect("started above");
            let mut black = clients[job.players[1]].take().expect("started above");
            let mut game_cfg = *cfg;
            game_cfg.tc = job.players.map(|e| players.limits[e].tc);
            game_cfg.margin = job.players.map(|e| players.limits[e].margin);
            let record = play_game([&mut white, &mut black], &opening, &game_cfg, stop);
            white.end_game(record.outcome);
            black.end_game(record.outcome);
            for (side, c) in [white, black].into_iter().enumerate() {
                if record.failed[side] {
                    c.kill();
                } else if specs[job.players[side]].restart {
                    // `restart=on`: the next game gets a new process.
                    c.quit();
                } else {
                    clients[job.players[side]] = Some(c);
                }
            }
            record
        };
        let _ = results.send(Msg::Finished(job, record));
    }
    for c in clients.into_iter().flatten() {
        c.quit();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A match draws its random openings as its games ask for them, in any order and from
    /// several workers: round `r` gets the stream's opening `r`, as if all had been drawn first.
    #[test]
    fn drawn_openings_are_the_streams_whatever_the_order_of_asking() {
        use crate::draughts::International;
        let b = Some(Balance {
            depth: 2,
            max_score: 60,
            min_score: 0,
        });
        let all = openings::random::<International>(8, 4, 11, b).unwrap();
        let book = Book::Drawn(Box::new(std::sync::Mutex::new(Drawn {
            stream: openings::RandomOpenings::<International>::new(4, 11, b),
            openings: Vec::new(),
        })));
        for r in [5, 0, 7, 2, 5, 1, 3, 6, 4] {
            assert_eq!(book.get(r).unwrap(), all[r], "round {r}");
        }
        let fixed = Book::Fixed(all[..3].to_vec());
        assert_eq!(fixed.get(4).unwrap(), all[1]);
    }

    #[test]
    fn time_control_tags_read_as_pgn_writes_them() {
        let tc = |clock: Option<&str>, movetime: Option<f64>, depth: Option<u32>| TimeControl {
            clock: clock.map(|c| parse_tc(c).unwrap()),
            movetime: movetime.map(Duration::from_secs_f64),
            depth,
            nodes: None,
        };
        assert_eq!(tc_tag(&tc(Some("40/60+0.1"), None, None)), "40/60+0.1");
        assert_eq!(tc_tag(&tc(Some("10+0.1"), None, None)), "10+0.1");
        assert_eq!(tc_tag(&tc(Some("300"), None, None)), "300");
        assert_eq!(tc_tag(&tc(None, Some(0.05), None)), "0.05/move");
        assert_eq!(tc_tag(&tc(None, None, Some(6))), "-");
        assert_eq!(ordinal(1), "1st");
        assert_eq!(ordinal(12), "12th");
        assert_eq!(ordinal(23), "23rd");
        assert_eq!(half_points(5), "2.5");
        assert_eq!(pdn_result(Some(Outcome::Draw), PdnResults::Pgn), "1/2-1/2");
        assert_eq!(pdn_result(Some(Outcome::Draw), PdnResults::Draughts), "1-1");
    }

    #[test]
    fn thresholds_parse() {
        assert_eq!(parse_threshold("--resign", "3.5/4").unwrap(), (350, 4));
        assert!(parse_threshold("--resign", "3").is_err());
        assert!(parse_threshold("--resign", "-1/4").is_err());
        assert!(parse_threshold("--resign", "1/0").is_err());
    }

    #[test]
    fn draw_adjudication_parses() {
        assert_eq!(
            parse_draw_adjudication("0.05/20/80").unwrap(),
            DrawAdjudication {
                men: 5,
                plies: 20,
                from: 80
            }
        );
        assert_eq!(parse_draw_adjudication("0/8/0").unwrap().men, 0);
        for bad in [
            "0.05/20",
            "0.05/20/80/1",
            "-0.1/20/80",
            "x/20/80",
            "0.05/1/80",
            "0.05/20/-1",
        ] {
            assert!(parse_draw_adjudication(bad).is_err(), "{bad}");
        }
    }

    /// The score rules of the game runner, on made-up score sequences: a draw needs the window
    /// full of small scores, every ply scored, and the game past FROM; a win needs agreement.
    #[test]
    fn scores_adjudicate_draws_and_wins() {
        let draw = DrawAdjudication {
            men: 5,
            plies: 4,
            from: 10,
        };
        let adj = Adjudication {
            draw_after: None,
            win: Some((300, 2)),
            resign: None,
            draw: Some(draw),
            egdb: false,
            max_plies: 1000,
        };
        let is_draw = |plies: usize, scores: &[Option<i32>]| {
            game_runner::adjudicate_by_scores(&adj, plies, scores).map(|(o, _)| o) == Some(Outcome::Draw)
        };
        let level = [Some(10), Some(3), Some(-5), Some(0), Some(5)];
        assert!(is_draw(10, &level));
        assert!(!is_draw(9, &level), "before FROM");
        assert!(!is_draw(10, &level[..3]), "window not full");
        assert!(
            !is_draw(10, &[Some(0), Some(0), Some(6), Some(0)]),
            "a score beyond MEN"
        );
        assert!(
            !is_draw(10, &[Some(0), None, Some(0), Some(0)]),
            "a ply without a score"
        );
        let (o, why) = game_runner::adjudicate_by_scores(&adj, 40, &[Some(0), Some(300), Some(310)]).unwrap();
        assert_eq!(o, Outcome::Win(Side::White), "{why}");
        assert!(game_runner::adjudicate_by_scores(&adj, 40, &[Some(300), Some(-300)]).is_none());
    }
}
