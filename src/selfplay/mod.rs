//! `tempo selfplay`: Tempo plays itself at a fixed depth or node budget from random openings and
//! writes the quiet positions of each game, with the search score and the game's result, as
//! training data for a learned evaluation ([`format`](mod@format) describes the file).
//!
//! With `--opponent`, one side of every game is another engine ([`opponent`]): game `k`'s
//! opponent plays Black when `k` is even and White when `k` is odd, and only the positions with
//! Tempo to move are written.
//!
//! Games are numbered 0 to `games - 1`. Game `k` belongs to shard `k mod N` and its opening is
//! drawn from a generator seeded by the run's seed and `k` alone; every game starts with an empty
//! transposition table of its own. So a game's record depends on nothing but the settings and
//! `k`: shards, threads and resumed runs produce the same games as one uninterrupted run, only in
//! another order.

pub mod format;
pub mod opponent;

use crate::engine_client::client::Client;
use crate::eval::Evaluate;
use crate::game::{MoveList, Outcome, Side};
use crate::openings::{self, Balance};
use crate::search::{Limits, Search, Shared, replay};
use crate::tt::Tt;
use crate::variant::Variant;
use crate::verdict::rules_verdict;
use crossbeam_channel::unbounded;
use format::Sample;
use opponent::Opponent;
use rand::{Rng, RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::io::{IsTerminal, Seek, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Depth of each search when neither `--depth` nor `--nodes` is given.
pub const DEFAULT_DEPTH: u32 = 6;

/// A part of a run: game `k` belongs to shard `index` when `k mod count == index`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This shard, from 0.
    pub index: u64,
    /// The number of shards.
    pub count: u64,
}

impl std::str::FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Shard, String> {
        let (i, n) = s
            .split_once('/')
            .ok_or_else(|| format!("{s:?} is not I/N (such as 0/8)"))?;
        let index: u64 = i
            .trim()
            .parse()
            .map_err(|_| format!("{s:?}: the index {i:?} is not a number"))?;
        let count: u64 = n
            .trim()
            .parse()
            .map_err(|_| format!("{s:?}: the count {n:?} is not a number"))?;
        if count == 0 {
            return Err(format!("{s:?}: the count of shards must be at least 1"));
        }
        if index >= count {
            return Err(format!(
                "{s:?}: the index must be below the count (0 to {})",
                count - 1
            ));
        }
        Ok(Shard { index, count })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// The arguments of `tempo selfplay`.
#[derive(clap::Args, Debug)]
pub struct SelfplayArgs {
    /// Variant (see `tempo perft --help` for the names).
    #[arg(long, short, default_value = "international")]
    pub variant: Variant,
    /// Games of the whole run (all shards together), numbered from 0.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=format::MAX_GAMES))]
    pub games: u64,
    /// The file the positions are appended to. An existing file is resumed: its finished games
    /// are kept and only the missing ones are played (it must have been written with the same
    /// settings; --games and --threads may differ). While a run works on the file, a second one
    /// on it is refused (the run holds a lock on the file).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Depth of each search [default: 6 unless --nodes is given].
    #[arg(long, short, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub depth: Option<u32>,
    /// Node budget of each search (with --depth too, the first limit reached ends the search).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Plies of the random opening, each uniformly among the legal moves, before Tempo plays;
    /// they are not recorded.
    #[arg(long, default_value_t = 8, value_name = "PLIES",
          value_parser = clap::value_parser!(u64).range(0..=200))]
    pub random_plies: u64,
    /// Balance filter of the random openings: an opening that Tempo's search (at --depth, or 6
    /// with --nodes alone) scores beyond this many men for either side is drawn again (0: no
    /// filter; random openings are then often a man or more apart).
    #[arg(long, default_value_t = 0.0, value_name = "MEN")]
    pub balance: f64,
    /// A game still going after this many plies (opening included) ends as a draw.
    #[arg(long, default_value_t = 400, value_name = "PLIES",
          value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub max_plies: u64,
    /// Seed of the openings: game k's opening depends on the seed and k only.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Play only shard I of N: the games k with k mod N = I. Shards of one run (same seed and
    /// settings) can run anywhere, be resumed on their own, and concatenate to the whole run.
    #[arg(long, default_value = "0/1", value_name = "I/N")]
    pub shard: Shard,
    /// Worker threads, each playing whole games [default: the cores available].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub threads: Option<u64>,
    /// Transposition table of each thread, in MiB (emptied before every game).
    #[arg(long, default_value_t = 16, value_name = "MIB",
          value_parser = clap::value_parser!(u64).range(1..=65_536))]
    pub tt: u64,
    /// No progress on standard error.
    #[arg(long, short)]
    pub quiet: bool,
    /// Share of the plies (from the end of the opening to --vary-until) at which the move is
    /// drawn uniformly among the best lines instead of being the best: a MultiPV search of
    /// --vary-lines lines, and every line within --vary-margin of the best may be played. 0 plays
    /// the best move always. The draws come from the run's seed: a file stays reproducible.
    #[arg(long, default_value_t = 0.0, value_name = "P")]
    pub vary_rate: f64,
    /// Lines searched at a varied ply.
    #[arg(long, default_value_t = 4, value_name = "K",
          value_parser = clap::value_parser!(u64).range(2..=16))]
    pub vary_lines: u64,
    /// How far below the best line (in men) a line may score and still be played at a varied ply.
    #[arg(long, default_value_t = 0.2, value_name = "MEN")]
    pub vary_margin: f64,
    /// The last ply (opening included) at which a move may be varied.
    #[arg(long, default_value_t = 400, value_name = "PLY")]
    pub vary_until: u64,
    /// Starting positions instead of the initial one: a file in the --openings format of `tempo
    /// match` (PDN games, or one FEN and/or move list per line). Game k starts from entry k mod N
    /// of the file (cut by --start-plies), then plays --random-plies random plies.
    #[arg(long, value_name = "FILE")]
    pub starts: Option<PathBuf>,
    /// With --starts: each game of the file is cut after a ply drawn uniformly from A to B
    /// (clamped to the game's length), so that one played game gives many starts
    /// [default: the whole entry].
    #[arg(long, value_name = "A-B", requires = "starts")]
    pub start_plies: Option<PlyRange>,
    /// The evaluation to play with, as the eval-file option takes it: a weight file, `<network>`
    /// (International's network), `<learned>`, `<hand>` or `<default>` (the variant's default).
    /// It is not part of the file's settings line: a resumed run must be given the same.
    #[arg(long, value_name = "EVAL")]
    pub eval_file: Option<String>,
    /// Play every game against an opponent instead of Tempo itself: `eval:EVAL` is Tempo with
    /// another evaluation (EVAL as --eval-file takes it: a weight file, `<network>`, `<learned>`,
    /// `<hand>`, `<default>`), run as `tempo hub` in a process of its own at the same --depth and
    /// --nodes; `engine:ENGINE` is an external engine, ENGINE written as a `tempo match --engine`
    /// value (the command, then name=, proto=, dir=, option.NAME=VALUE, and its own limits
    /// depth=, nodes= or movetime=, or else --depth and --nodes). The opponent plays Black in the
    /// even games and White in the odd ones, and only the positions with Tempo to move are
    /// written. The opponent is part of the file's settings line.
    #[arg(long, value_name = "SPEC")]
    pub opponent: Option<String>,
}

/// A range of plies `A-B` (or one ply `A`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlyRange {
    /// The first ply.
    pub from: u64,
    /// The last ply (included).
    pub to: u64,
}

impl std::str::FromStr for PlyRange {
    type Err = String;

    fn from_str(s: &str) -> Result<PlyRange, String> {
        let (a, b) = s.split_once('-').unwrap_or((s, s));
        let ply = |t: &str| {
            t.trim()
                .parse::<u64>()
                .map_err(|_| format!("{s:?}: {t:?} is not a ply number (write A-B, such as 10-60)"))
        };
        let (from, to) = (ply(a)?, ply(b)?);
        if from > to {
            return Err(format!("{s:?}: the first ply is after the last"));
        }
        Ok(PlyRange { from, to })
    }
}

/// The starting positions of `--starts`, and what the header says of them.
struct Starts<G: crate::game::Game> {
    entries: Vec<crate::openings::Opening<G>>,
    /// `starts=<crc32 of the file>/<entries>` and the cut, for the header.
    label: String,
}

/// How the moves of a game are varied (`--vary-*`), checked.
#[derive(Clone, Copy, Debug)]
struct Vary {
    rate: f64,
    lines: usize,
    margin: i32,
    until: u64,
}

impl SelfplayArgs {
    /// The checked variation settings, or none when --vary-rate is 0.
    ///
    /// # Errors
    /// A rate outside 0 to 1 or a margin that is negative or not a number.
    fn vary(&self) -> Result<Option<Vary>, String> {
        if !(0.0..=1.0).contains(&self.vary_rate) {
            return Err(format!("--vary-rate {}: must be from 0 to 1", self.vary_rate));
        }
        if !(self.vary_margin.is_finite() && self.vary_margin >= 0.0) {
            return Err(format!(
                "--vary-margin {}: must be 0 or more men",
                self.vary_margin
            ));
        }
        Ok((self.vary_rate > 0.0).then(|| Vary {
            rate: self.vary_rate,
            lines: self.vary_lines as usize,
            margin: (self.vary_margin * 100.0).round() as i32,
            until: self.vary_until,
        }))
    }

    /// Reads --starts, if given.
    ///
    /// # Errors
    /// The file cannot be read or holds an illegal position or move.
    fn starts<G: crate::game::Game>(&self) -> Result<Option<Starts<G>>, String> {
        let Some(path) = &self.starts else {
            return Ok(None);
        };
        let text = crate::pdn::read_file(path).map_err(|e| format!("--starts: {e}"))?;
        let entries = crate::openings::load_games::<G>(path).map_err(|e| format!("--starts: {e}"))?;
        let mut label = format!(
            "starts={:08x}/{}",
            crc32fast::hash(text.as_bytes()),
            entries.len()
        );
        if let Some(r) = self.start_plies {
            label.push_str(&format!(" start-plies={}-{}", r.from, r.to));
        }
        Ok(Some(Starts { entries, label }))
    }

    /// The search limits of every move.
    fn limits(&self) -> Limits {
        Limits {
            depth: match (self.depth, self.nodes) {
                (None, None) => Some(DEFAULT_DEPTH),
                (d, _) => d,
            },
            nodes: self.nodes,
            ..Default::default()
        }
    }

    /// The balance filter of the openings, if any.
    ///
    /// # Errors
    /// A negative or non-finite --balance.
    fn balance(&self) -> Result<Option<Balance>, String> {
        Balance::from_men(self.balance, 0.0, self.depth.unwrap_or(DEFAULT_DEPTH))
    }

    /// The file's first line: every setting that decides the games, so that a resumed run plays
    /// the same games (--games and --threads do not change a game and are left out; the table
    /// size does, as what the table keeps changes the search).
    ///
    /// The settings added since the first version (variation, starts, opponent) appear only when
    /// used, so that files of earlier runs still resume.
    pub fn header(&self, starts: Option<&str>, opponent: Option<&str>) -> String {
        let l = self.limits();
        let opt = |v: Option<String>| v.unwrap_or_else(|| "none".into());
        let mut extra = String::new();
        if let Ok(Some(v)) = self.vary() {
            extra.push_str(&format!(" vary={}:{}:{}:{}", v.rate, v.lines, v.margin, v.until));
        }
        if let Some(s) = starts {
            extra.push(' ');
            extra.push_str(s);
        }
        if let Some(o) = opponent {
            extra.push_str(" opponent=");
            extra.push_str(o);
        }
        let base = format!(
            "# tempo selfplay variant={} depth={} nodes={} random-plies={} balance={} max-plies={} tt={} seed={} shard={}",
            self.variant.name(),
            opt(l.depth.map(|d| d.to_string())),
            opt(l.nodes.map(|n| n.to_string())),
            self.random_plies,
            opt(self
                .balance()
                .ok()
                .flatten()
                .map(|b| format!("{}@{}", b.max_score, b.depth))),
            self.max_plies,
            self.tt,
            self.seed,
            self.shard
        );
        base + &extra
    }
}

/// The seed of `openings::random` for game `k`: the first output of ChaCha8 seeded with the run's
/// seed, on stream `k` (independent streams, so games do not share openings by accident).
pub fn opening_seed(seed: u64, k: u64) -> u64 {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(k);
    rng.next_u64()
}

/// Whether the side to move has no capture: the positions a static evaluation is trained on.
pub fn is_quiet<G: Evaluate>(pos: &G) -> bool {
    let mut list = MoveList::new();
    pos.generate(&mut list);
    !list.iter().any(|m| pos.is_capture(m))
}

/// A finished game, ready to write.
struct Played {
    text: String,
    positions: u64,
}

/// Plays game `k` with `tt` (emptied first) and returns its block.
///
/// Every random choice of the game (its opening, its start's cut, its varied moves) comes from
/// ChaCha8 seeded with the run's seed on stream `k`: the opening's seed is the stream's first
/// output ([`opening_seed`]), the rest follow it.
fn play_game<G: Evaluate>(
    args: &SelfplayArgs,
    setup: &Setup<G>,
    k: u64,
    tt: &Tt,
    mut opponent: Option<&mut Client>,
) -> Result<Played, String> {
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    rng.set_stream(k);
    let seed = rng.next_u64();
    let start = match &setup.starts {
        None => G::start(),
        Some(starts) => {
            let entry = &starts.entries[(k % starts.entries.len() as u64) as usize];
            let len = entry.moves.len() as u64;
            let cut = match args.start_plies {
                None => len,
                Some(r) if r.from >= len => len,
                Some(r) => rng.random_range(r.from..=r.to.min(len)),
            };
            let pos = replay(&entry.start, &entry.moves[..cut as usize]).0;
            match pos.outcome() {
                // A finished game's last position: start one ply earlier.
                Some(_) if cut > 0 => replay(&entry.start, &entry.moves[..cut as usize - 1]).0,
                _ => pos,
            }
        }
    };
    let opening =
        openings::RandomOpenings::from_position(start, args.random_plies as usize, seed, setup.balance)
            .next_opening()
            .map_err(|e| format!("game {k}: {e}"))?;
    let (mut pos, mut keys) = replay(&opening.start, &opening.moves);
    let mut plies = opening.moves.len();
    // The side the opponent plays, and the game so far as an engine is told it.
    let (against, mut game) = match (&setup.opponent, opponent.as_deref_mut()) {
        (Some(o), Some(client)) => {
            client
                .new_game()
                .map_err(|e| format!("game {k}: opponent {}: {e}", o.label))?;
            let side = if k % 2 == 0 { Side::Black } else { Side::White };
            (
                Some((o, side)),
                Some(opponent::GameText::new(&opening.start, &opening.moves)),
            )
        }
        _ => (None, None),
    };
    tt.clear();
    let limits = args.limits();
    let mut samples = Vec::new();
    let mut lines: Vec<(u32, i32, G::Move)> = Vec::new();
    let (outcome, why) = loop {
        if let Some(verdict) = rules_verdict(&pos, &keys) {
            break verdict;
        }
        if plies as u64 >= args.max_plies {
            break (Outcome::Draw, format!("Draw at the limit of {plies} plies"));
        }
        if let (Some((o, side)), Some(client), Some(game)) = (against, opponent.as_deref_mut(), game.as_mut())
            && pos.side_to_move() == side
        {
            let mv = o.play(client, game, &pos).map_err(|e| format!("game {k}: {e}"))?;
            if pos.is_irreversible(&mv) {
                keys.clear();
            } else {
                keys.push(pos.key());
            }
            game.push(&pos, &mv);
            pos = pos.play(&mv);
            plies += 1;
            continue;
        }
        let vary = setup
            .vary
            .filter(|v| plies as u64 <= v.until && rng.random_bool(v.rate));
        let shared = Shared::default();
        let search_limits = match vary {
            Some(v) => Limits {
                multipv: v.lines,
                ..limits
            },
            None => limits,
        };
        lines.clear();
        let result = Search::new(tt, &shared, search_limits, &keys, &pos).run(&pos, |info| {
            if let (Some(_), Some(&mv)) = (vary, info.pv.first()) {
                lines.push((info.depth, info.score, mv));
            }
        });
        let Some(mut mv) = result.best else {
            // The rules said the game goes on, so there is a legal move.
            return Err(format!("game {k}: no move found in {}", pos.to_fen()));
        };
        if let Some(v) = vary {
            mv = pick_near_best(&lines, v.margin, &mut rng).unwrap_or(mv);
        }
        if is_quiet(&pos) {
            // With an opponent, only Tempo's side is recorded (this loop searches for it alone).
            samples.push(Sample {
                fen: pos.to_fen(),
                score: result.score,
            });
        }
        if pos.is_irreversible(&mv) {
            keys.clear();
        } else {
            keys.push(pos.key());
        }
        if let Some(game) = game.as_mut() {
            game.push(&pos, &mv);
        }
        pos = pos.play(&mv);
        plies += 1;
    };
    let why = match against {
        Some((_, side)) => {
            if let Some(client) = opponent {
                client.end_game(Some(outcome));
            }
            let side = if side == Side::White { "White" } else { "Black" };
            format!("{why} [the opponent played {side}]")
        }
        None => why,
    };
    Ok(Played {
        positions: samples.len() as u64,
        text: format::block(k, &samples, outcome, plies, &why),
    })
}

/// A move drawn uniformly among the lines of the deepest reported depth that score within
/// `margin` of that depth's best (MultiPV reports `(depth, score, first move)`); none when no
/// line was reported.
fn pick_near_best<M: Copy>(lines: &[(u32, i32, M)], margin: i32, rng: &mut ChaCha8Rng) -> Option<M> {
    let depth = lines.iter().map(|l| l.0).max()?;
    let last = || lines.iter().filter(move |l| l.0 == depth);
    let best = last().map(|l| l.1).max()?;
    let near: Vec<M> = last()
        .filter(|l| l.1 >= best.saturating_sub(margin))
        .map(|l| l.2)
        .collect();
    Some(near[rng.random_range(0..near.len())])
}

/// What every game of a run shares, checked once.
struct Setup<G: crate::game::Game> {
    balance: Option<Balance>,
    vary: Option<Vary>,
    starts: Option<Starts<G>>,
    opponent: Option<Opponent>,
}

/// Runs `tempo selfplay` for game type `G`.
///
/// # Errors
/// Bad settings, a file that cannot be read or written or holds other data, a table that cannot
/// be had, a thread that cannot start. Games finished before an error stay in the file.
pub fn run<G: Evaluate>(args: &SelfplayArgs) -> Result<(), String> {
    let setup = Setup::<G> {
        balance: args.balance()?,
        vary: args.vary()?,
        starts: args.starts()?,
        opponent: args
            .opponent
            .as_deref()
            .map(|spec| Opponent::parse(spec, args))
            .transpose()?,
    };
    if let Some(eval) = &args.eval_file {
        crate::eval::choice::set_eval_file(args.variant.name(), eval)
            .map_err(|e| format!("--eval-file: {e}"))?;
    }
    let name = args.out.display();
    let header = args.header(
        setup.starts.as_ref().map(|s| s.label.as_str()),
        setup.opponent.as_ref().map(|o| o.header.as_str()),
    );
    // A device or FIFO is no file to resume: /dev/zero would be read without end, and opening a
    // FIFO waits for a writer.
    crate::fsutil::check_writable(&args.out).map_err(|e| format!("--out: {e}"))?;
    // A second run on the same file would cut the first's unfinished game and interleave blocks:
    // it is refused while this one runs (the lock goes with the process, a crash included).
    let _lock = crate::fsutil::lock_in_place("--out", &args.out)?;
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&args.out)
        .map_err(|e| format!("{name}: {e}"))?;
    let existing = format::scan(
        std::io::BufReader::new(&file),
        &header,
        (args.shard.index, args.shard.count),
    )
    .map_err(|e| format!("{name}: {e}"))?;
    let length = file.metadata().map_err(|e| format!("{name}: {e}"))?.len();
    if length > existing.keep {
        // A block cut off by a stopped run: drop it, its game is played again.
        file.set_len(existing.keep).map_err(|e| format!("{name}: {e}"))?;
        if !args.quiet {
            crate::stderr_line!(
                "selfplay: dropped an unfinished game block at the end of {name} ({} bytes)",
                length - existing.keep
            );
        }
    }
    file.seek(std::io::SeekFrom::End(0))
        .map_err(|e| format!("{name}: {e}"))?;
    if !existing.has_header {
        file.write_all(format!("{header}\n").as_bytes())
            .map_err(|e| format!("{name}: {e}"))?;
    }

    let shard = args.shard;
    let todo: Vec<u64> = (shard.index..args.games)
        .step_by(shard.count.min(usize::MAX as u64) as usize)
        .filter(|k| !existing.done.contains(k))
        .collect();
    let total = existing.done.len() as u64 + todo.len() as u64;
    let threads = args
        .threads
        .map_or_else(
            || std::thread::available_parallelism().map_or(1, |n| n.get()),
            |t| t as usize,
        )
        .min(todo.len())
        .max(1);
    let mut tables = Vec::new();
    if !todo.is_empty() {
        for _ in 0..threads {
            tables.push(Tt::try_new(args.tt as usize).map_err(|e| format!("--tt {}: {e}", args.tt))?);
        }
    }

    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (sender, receiver) = unbounded::<Result<Played, String>>();
    let start = Instant::now();
    let (mut played, mut positions) = (0u64, 0u64);
    let mut outcome = Ok(());
    std::thread::scope(|scope| {
        for (w, tt) in tables.into_iter().enumerate() {
            let (todo, next, stop, sender, setup) = (&todo, &next, &stop, sender.clone(), &setup);
            let spawned = std::thread::Builder::new()
                .name(format!("selfplay-{w}"))
                // The search recurses deeply; the engine's search thread has the same stack.
                .stack_size(crate::engine::SEARCH_STACK)
                .spawn_scoped(scope, move || {
                    // This thread's opponent process, started at its first game.
                    let mut client: Option<Client> = None;
                    let mut failed = false;
                    while !stop.load(Ordering::Relaxed) {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&k) = todo.get(i) else { break };
                        if let (Some(o), None) = (&setup.opponent, &client) {
                            match o.start(args.variant) {
                                Ok(c) => client = Some(c),
                                Err(e) => {
                                    let _ = sender.send(Err(e));
                                    break;
                                }
                            }
                        }
                        let game = play_game::<G>(args, setup, k, &tt, client.as_mut());
                        failed = game.is_err();
                        if sender.send(game).is_err() || failed {
                            break;
                        }
                    }
                    match client {
                        Some(c) if failed => c.kill(),
                        Some(c) => c.quit(),
                        None => {}
                    }
                });
            if let Err(e) = spawned {
                stop.store(true, Ordering::Relaxed);
                outcome = Err(format!("cannot start a self-play thread: {e}"));
                break;
            }
        }
        drop(sender);
        let show = !args.quiet;
        let mut last = Instant::now();
        for message in receiver.iter() {
            let game = match message {
                Ok(g) => g,
                Err(e) => {
                    stop.store(true, Ordering::Relaxed);
                    outcome = Err(e);
                    continue;
                }
            };
            // One write per block, so a block is in the file whole or cut off at its end.
            if let Err(e) = file.write_all(game.text.as_bytes()).and_then(|()| file.flush()) {
                stop.store(true, Ordering::Relaxed);
                outcome = Err(format!("{name}: {e}"));
                continue;
            }
            played += 1;
            positions += game.positions;
            if show && (last.elapsed() >= Duration::from_secs(1) || played == todo.len() as u64) {
                last = Instant::now();
                let secs = start.elapsed().as_secs_f64();
                let line = format!(
                    "selfplay: {}/{total} games, {} positions, {:.2} games/s",
                    existing.done.len() as u64 + played,
                    existing.positions + positions,
                    if secs > 0.0 { played as f64 / secs } else { 0.0 }
                );
                if std::io::stderr().is_terminal() {
                    let _ = write!(std::io::stderr(), "\r{line}");
                } else {
                    crate::stderr_line!("{line}");
                }
            }
        }
    });
    if !args.quiet {
        if std::io::stderr().is_terminal() && played > 0 {
            crate::stderr_line!();
        }
        crate::stderr_line!(
            "selfplay: shard {shard}: {played} games played ({positions} positions) in {:.1} s; \
             {} games were already in {name}; {} of the shard's {total} games are done",
            start.elapsed().as_secs_f64(),
            existing.done.len(),
            existing.done.len() as u64 + played
        );
    }
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::English;
    use crate::game::Game;

    #[test]
    fn shards_parse_and_refuse_bad_ones() {
        assert_eq!("3/8".parse::<Shard>(), Ok(Shard { index: 3, count: 8 }));
        assert!("3/2".parse::<Shard>().unwrap_err().contains("below the count"));
        assert!("0/0".parse::<Shard>().unwrap_err().contains("at least 1"));
        assert!("x/2".parse::<Shard>().is_err());
        assert!("2".parse::<Shard>().is_err());
    }

    #[test]
    fn opening_seeds_differ_by_game_and_repeat() {
        assert_eq!(opening_seed(1, 5), opening_seed(1, 5));
        assert_ne!(opening_seed(1, 5), opening_seed(1, 6));
        assert_ne!(opening_seed(1, 5), opening_seed(2, 5));
    }

    #[test]
    fn quiet_means_no_capture() {
        // White's man on 18 can take 14 (landing on 9, which is empty).
        let capture = English::from_fen("W:W18:B14").unwrap();
        assert!(!is_quiet(&capture));
        assert!(is_quiet(&English::start()));
    }
}
