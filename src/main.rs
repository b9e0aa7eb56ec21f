//! The `tempo` command line.

use clap::{Parser, Subcommand, ValueEnum};
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;
use tempo::game::{Duplicates, Game};
use tempo::variant::Variant;
use tempo::{perft, with_variant};

/// Tempo, a draughts engine for the whole checkers family.
#[derive(Parser)]
#[command(
    version,
    about,
    long_about = None,
    after_help = "Without a command, Tempo runs as an engine on stdin/stdout and takes the protocol \
                  from the first line it reads: `hub` or `uci`. Variants: international (normal), \
                  russian, brazilian, english, frisian, frysk, italian, spanish, portuguese, czech, \
                  pool, thai, canadian, killer, breakthrough (bt), antidraughts (losing), turkish, \
                  armenian, sixteen-soldiers, muchado. Protocols: see protocol.md."
)]
struct Cli {
    /// Without a command, Tempo runs as an engine on stdin/stdout and takes the protocol from the
    /// first line it reads: `hub` or `uci`.
    #[command(subcommand)]
    command: Option<Command>,
}

/// The commands of `tempo hub` (protocol.md section 2).
const HUB_HELP: &str = "\
Commands (one per line; arguments are name=value, quoted when they hold spaces):
  hub                      -> id, param lines, wait
  set-param name=N value=V parameters: variant, tt-size, threads, ponder, multipv, eval-file,
                           rule options
  init                     -> ready
  new-game                 clears the table
  pos [pos=P] [start] [moves=\"M ...\"]  P: a Hub position string or a PDN FEN
  level depth=D | nodes=N | move-time=S | time=S inc=S moves=N | infinite  (they add up;
                           cleared by pos and by go)
  go think | go ponder | go analyze  -> info lines, then done move=M [ponder=P]
  ponder-hit, stop, ping (-> pong, also while searching), quit
During a search every line except ping and ponder-hit ends it with done, then is carried out.
Info lines: info depth= mean-depth= score= nodes= time= nps= pv= (score in men, a win in n plies
is 100 - n/100). A bad line gets error message=\"...\". End of input ends the process.
Endgame tables: while egdb-dir is empty, the 4-piece tables are built once, at the first init or go, into $TEMPO_EGDB_CACHE or ~/.cache/tempo/egdb (TEMPO_EGDB_CACHE=off: none).";

/// The commands of `tempo uci` (protocol.md section 3).
const UCI_HELP: &str = "\
Commands:
  uci                      -> id name, id author, option lines, uciok
  isready                  -> readyok (also while searching)
  setoption name <name> [value <value>]  UCI_Variant, Hash, Threads, MultiPV, Ponder, Clear Hash,
                           EvalFile,
                           and the rule options
  ucinewgame               clears the table
  position startpos|fen <FEN> [moves <move>...]  moves in the variant's notation
  go [depth D] [nodes N] [movetime MS] [wtime MS] [btime MS] [winc MS] [binc MS]
     [movestogo N] [infinite] [ponder] [searchmoves <move>...]  -> info lines, bestmove
  stop, ponderhit, quit
Info lines: info depth seldepth multipv score cp <hundredths of a man> | score win <moves>
nodes nps time hashfull pv. A go with no limit searches until stop. A bad line gets
info string error: ... . End of input ends the process.
Endgame tables: while EGDB_Path is empty, the 4-piece tables are built once, at the first isready or go, into $TEMPO_EGDB_CACHE or ~/.cache/tempo/egdb (TEMPO_EGDB_CACHE=off: none).";

#[derive(Subcommand)]
enum Command {
    /// Run as a Hub engine on stdin/stdout (the protocol of Scan 3.1; what pydraughts,
    /// lidraughts-bot, draughtsnet and GWDGUI speak). See protocol.md.
    #[command(after_help = HUB_HELP)]
    Hub,
    /// Run as a UCI-style engine on stdin/stdout (UCI commands, draughts positions and moves; the
    /// variant is the UCI_Variant option). See protocol.md.
    #[command(after_help = UCI_HELP)]
    Uci,
    /// Count the leaf nodes of the legal-move tree (verifies the move generator).
    ///
    /// Prints one line per depth: `depth <d> nodes <n> time <seconds> nps <n>`.
    Perft(PerftArgs),
    /// Search a fixed set of positions to a fixed depth; prints the total node count (the search's
    /// signature) and nodes per second.
    Bench(BenchArgs),
    /// Search one position, printing each iteration.
    ///
    /// Prints one line per completed iteration, `depth <d> seldepth <s> [multipv <i>] score <c>
    /// nodes <n> time <seconds> nps <n> pv <moves>`, then `bestmove <move> [ponder <move>]`. The
    /// score is in hundredths of a man for the side to move, or `win N` / `win -N` (a proved win or
    /// loss in N moves). Moves are in the variant's notation. Without --depth or --movetime the
    /// search runs to depth 100.
    Search(SearchArgs),
    /// Draw a position in the terminal (Unicode, with square numbers) and optionally as SVG.
    ///
    /// White is at the bottom. Square boards show each empty dark square's number and, right of
    /// each row, the numbers of its squares; Turkish and Armenian show coordinates only. Sixteen
    /// Soldiers and MuchADo are drawn as their graphs of points, named as in their notation.
    Show(tempo::show::ShowArgs),
    /// Analyse a position (its best lines) or every move of the games of a PDN file (errors
    /// marked ? and ??).
    ///
    /// With --fen (or neither --fen nor --pdn: the initial position), prints each completed
    /// iteration (depth, score, line in the variant's notation) and the best move. With --pdn,
    /// evaluates every move of every game (or of those --game selects): the played move's score
    /// against the best move's, both for the player who moves, and marks errors by the loss;
    /// --annotate writes the games back with the analysis, --chart draws their evaluation. --json
    /// prints one JSON object per line instead.
    Analyze(tempo::analyze::AnalyzeArgs),
    /// Play engines against each other (Hub or UCI-style child processes): a match of two, a
    /// round robin or gauntlet of more, with openings, clocks, adjudication, Elo, SPRT and PDN
    /// output.
    ///
    /// Every game is refereed by Tempo's rules for the variant. Each opening is played with both
    /// colours. Results go to standard output as cutechess-cli prints them.
    Match(Box<tempo::arena::MatchArgs>),
    /// Play Tempo against itself and write quiet positions with the search score and the game's
    /// result: training data for a learned evaluation.
    ///
    /// Each game starts from a random opening (--random-plies, drawn from --seed and the game's
    /// number), then every move is a search to --depth (default 6) or --nodes, with a table
    /// emptied before the game, so a game depends only on the settings and its number. Threads
    /// play whole games. Every position where the side to move has no capture gets a line
    /// `FEN<TAB>score<TAB>result`: the score in hundredths of a man for the side to move, the
    /// result for White (1, 0.5 or 0). Each game ends with a line `# game K ...` and is written
    /// whole; the file starts with a `# tempo selfplay ...` line of the settings. Running again
    /// with the same settings resumes: finished games are kept, only the missing ones are
    /// played. --shard I/N plays the games K with K mod N = I; the shards of one run concatenate
    /// to the whole run (in another order). With --opponent, one side of every game is another
    /// Tempo evaluation or an external engine, and only the positions with Tempo to move are
    /// written.
    #[command(
        after_help = "Example: tempo selfplay -v russian --games 10000 --depth 6 --out russian.txt\n\
                      Opponent: tempo selfplay --games 1000 --depth 6 --opponent 'eval:<network>' --out vs-net.txt\n\
                      Shards:  tempo selfplay --games 100000 --seed 1 --shard $SLURM_ARRAY_TASK_ID/64 \\\n\
                      \x20        --out shard-$SLURM_ARRAY_TASK_ID.txt   then   cat shard-*.txt > all.txt"
    )]
    Selfplay(tempo::selfplay::SelfplayArgs),
    /// Play International draughts over DXP (the DamExchange Protocol, TCP): as the follower
    /// (--listen) or the initiator (--connect). See protocol.md and docs/dxp.md.
    Dxp(tempo::protocol::dxp_player::DxpArgs),
    /// Fit the learned evaluation (men's patterns in 4x4 regions and linear terms) to self-play
    /// data and write a weight file.
    ///
    /// Reads the positions of --data (files of `tempo selfplay`; a game still being written at
    /// the end of a file is left out), reduces each once to its features in compact arrays, and
    /// fits the weights by minimising the logistic loss of sigmoid(eval/K) against the target
    /// lambda*result + (1-lambda)*sigmoid(score/K), where result is the game's result and score
    /// the search score, both for the side to move. K is fitted to the data unless given (--k).
    /// The default fit is full-batch L-BFGS with a ridge (--optimizer lbfgs, --ridge,
    /// --iterations); --optimizer adam takes steps over shuffled minibatches with an L2 penalty
    /// instead. --holdout games (chosen by --seed, whole games) are kept out and their loss is
    /// printed as the fit goes, with the training loss, on standard error. The weights are written in hundredths of a man (a man
    /// near 100) to --out, in the format of src/eval/weights.rs; load them with the eval-file
    /// option or ship them as weights/<variant>.bin (docs/selfplay-and-training.md).
    #[command(
        after_help = "Example: tempo selfplay --games 20000 --depth 6 --out intl.txt\n\
                      \x20        tempo train --data intl.txt --out weights/international.bin"
    )]
    Train(tempo::train::TrainArgs),
    /// Endgame databases: build them by retrograde analysis, probe a position, verify the files.
    /// See docs/egdb.md.
    #[command(
        after_help = "Example: tempo egdb build --variant russian --pieces 4 --dir egdb\n\
                      \x20        tempo egdb probe --variant russian --dir egdb 'W:WK1,K2:BK32'\n\
                      \x20        tempo egdb verify --variant russian --dir egdb"
    )]
    Egdb(tempo::egdb::cli::EgdbArgs),
    /// Opening books: grow one best-first with Tempo's search, probe a position, print a book's
    /// figures, verify a file. See docs/book.md.
    #[command(
        after_help = "Example: tempo book build --variant international --depth 8 --positions 5000 --out intl.book\n\
                      \x20        tempo book probe --variant international --book intl.book\n\
                      \x20        tempo book verify --book intl.book"
    )]
    Book(tempo::book::cli::BookArgs),
}

#[derive(clap::Args)]
struct PerftArgs {
    /// Variant: international (normal), russian (shashki), brazilian, english (checkers), frisian,
    /// frysk, italian, spanish, portuguese, czech, pool, thai, canadian, killer, breakthrough (bt),
    /// antidraughts (losing), turkish (dama), armenian (tama), sixteen-soldiers, muchado.
    #[arg(long, short, value_parser = parse_variant, default_value = "international")]
    variant: Variant,
    /// Start position as PDN FEN (default: the variant's initial position).
    #[arg(long)]
    fen: Option<String>,
    /// Count capture paths with the same start, end and captured set once (merge, D-A1) or each
    /// (keep, the published kept counts); landings also counts a flying king's straight run once
    /// per square it could stop on between two captured pieces (kish's Turkish counts).
    #[arg(long, value_enum, default_value_t = DupArg::Merge)]
    duplicates: DupArg,
    /// Deepest depth; every depth from 1 up is reported.
    #[arg(long, short, value_parser = clap::value_parser!(u32).range(0..=64))]
    depth: u32,
    /// Also list each root move with its count at the deepest depth.
    #[arg(long)]
    divide: bool,
}

#[derive(Clone, Copy, ValueEnum)]
enum DupArg {
    Merge,
    Keep,
    Landings,
}

// `say!` writes one line to standard output; a closed output (`| head`) becomes
// [`tempo::output::OUTPUT_CLOSED`], which ends the command quietly, where `println!` would panic.
use tempo::say;

fn parse_variant(s: &str) -> Result<Variant, String> {
    s.parse()
        .map_err(|e: tempo::variant::UnknownVariant| e.to_string())
}

fn run_perft<G: Game>(args: &PerftArgs) -> Result<(), String> {
    let pos = match &args.fen {
        Some(f) => G::from_fen(f).map_err(|e| format!("bad FEN {f:?}: {e}"))?,
        None => G::start(),
    };
    let dup = match args.duplicates {
        DupArg::Merge => Duplicates::Merge,
        DupArg::Keep => Duplicates::Keep,
        DupArg::Landings => Duplicates::Landings,
    };
    for d in 1..=args.depth {
        let t = Instant::now();
        let n = perft::perft(&pos, d, dup);
        let secs = t.elapsed().as_secs_f64();
        let nps = if secs > 0.0 { (n as f64 / secs) as u64 } else { 0 };
        say!("depth {d} nodes {n} time {secs:.3} nps {nps}")?;
    }
    if args.divide && args.depth > 0 {
        for (mv, n) in perft::divide(&pos, args.depth, dup) {
            say!("{mv} {n}")?;
        }
    }
    Ok(())
}

#[derive(clap::Args)]
struct BenchArgs {
    /// Depth of every search.
    #[arg(long, short, default_value_t = tempo::bench::DEFAULT_DEPTH,
          value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: u32,
}

fn run_bench(args: &BenchArgs) -> Result<(), String> {
    let (lines, elapsed) = tempo::bench::run(args.depth)?;
    let mut total = 0;
    for l in &lines {
        say!(
            "{:<16} {:>10} nodes  best {:<10} score {:>6}  {}",
            l.variant.name(),
            l.nodes,
            l.best,
            l.score,
            l.fen
        )?;
        total += l.nodes;
    }
    let secs = elapsed.as_secs_f64();
    say!("nodes {total}")?;
    say!("time {secs:.3}")?;
    say!(
        "nps {}",
        if secs > 0.0 {
            (total as f64 / secs) as u64
        } else {
            0
        }
    )
}

#[derive(clap::Args)]
struct SearchArgs {
    /// Variant (as for perft).
    #[arg(long, short, value_parser = parse_variant, default_value = "international")]
    variant: Variant,
    /// Position as PDN FEN (default: the variant's initial position).
    #[arg(long)]
    fen: Option<String>,
    /// Deepest iteration.
    #[arg(long, short, value_parser = clap::value_parser!(u32).range(1..=100))]
    depth: Option<u32>,
    /// Seconds to search (fractions allowed).
    #[arg(long)]
    movetime: Option<f64>,
    /// Number of best lines to show (1-64).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=tempo::search::MULTIPV_MAX as i64))]
    multipv: u32,
    /// Transposition table size in MiB (at most half the memory available).
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=1_048_576))]
    tt: u32,
    /// Search threads (Lazy SMP, 1-64; the node counts then vary from run to run).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    threads: u32,
    /// Weights of the learned evaluation to search with, as the eval-file option takes them: a
    /// weight file (any version, big windows included), `<network>` (International's network),
    /// `<learned>` (the built-in pattern weights), `<hand>` or `<default>`.
    #[arg(long)]
    eval_file: Option<String>,
    #[command(flatten)]
    tables: tempo::egdb::cli::TableArgs,
}

fn run_search<G: tempo::eval::Evaluate>(args: &SearchArgs) -> Result<(), String> {
    use tempo::engine::{Engine, Event};
    use tempo::game::MoveStyle;
    let root = match &args.fen {
        Some(f) => G::from_fen(f).map_err(|e| format!("bad FEN {f:?}: {e}"))?,
        None => G::start(),
    };
    let movetime = match args.movetime {
        Some(s) if s.is_finite() && s >= 0.0 => Some(std::time::Duration::from_secs_f64(s.min(1e6))),
        Some(s) => return Err(format!("bad movetime {s}")),
        None => None,
    };
    let limits = tempo::search::Limits {
        depth: args.depth,
        movetime,
        multipv: args.multipv as usize,
        // Neither a depth nor a time: search to the deepest depth.
        ..Default::default()
    };
    // `resize` refuses a table the machine cannot give with an error; `Engine::new` would panic.
    let mut engine = Engine::<G>::new(1);
    engine
        .resize(args.tt as usize)
        .map_err(|e| format!("--tt {}: {e}", args.tt))?;
    engine.set_threads(args.threads as usize);
    args.tables.load(args.variant)?;
    if let Some(file) = &args.eval_file {
        tempo::eval::choice::set_eval_file(args.variant.name(), file)?;
    }
    engine.go(root, Vec::new(), limits, false);
    let mut result = Ok(());
    for event in engine.events().iter() {
        if result.is_err() {
            // Nobody reads the rest: the search was told to stop; wait for its end.
            if matches!(event, Event::Done { .. }) {
                break;
            }
            continue;
        }
        match event {
            Event::Info(i) => {
                // Each move of the line is written in the position it is played from.
                let mut pos = root;
                let mut pv = Vec::new();
                for m in &i.pv {
                    pv.push(pos.format_move(m, MoveStyle::Standard));
                    pos = pos.play(m);
                }
                let secs = i.time.as_secs_f64();
                let nps = if secs > 0.0 {
                    (i.nodes as f64 / secs) as u64
                } else {
                    0
                };
                let score = match tempo::search::win_distance(i.score) {
                    Some(d) => format!("win {d}"),
                    None => format!("{}", i.score),
                };
                let multi = if args.multipv > 1 {
                    format!("multipv {} ", i.multipv)
                } else {
                    String::new()
                };
                result = say!(
                    "depth {} seldepth {} {multi}score {score} nodes {} time {secs:.3} nps {nps} pv {}",
                    i.depth,
                    i.seldepth,
                    i.nodes,
                    pv.join(" ")
                );
                if result.is_err() {
                    engine.stop();
                }
            }
            Event::Done { best, ponder } => {
                result = match (best, ponder) {
                    (Some(b), Some(p)) => say!(
                        "bestmove {} ponder {}",
                        root.format_move(&b, MoveStyle::Standard),
                        root.play(&b).format_move(&p, MoveStyle::Standard)
                    ),
                    (Some(b), None) => say!("bestmove {}", root.format_move(&b, MoveStyle::Standard)),
                    (None, _) => say!("bestmove none"),
                };
                break;
            }
        }
    }
    engine.wait();
    result
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        None => {
            if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
                tempo::stderr_line!(
                    "tempo: engine mode; type `hub` or `uci` to start (`tempo --help` for commands)"
                );
            }
            tempo::protocol::run(None);
            Ok(())
        }
        Some(Command::Hub) => {
            tempo::protocol::run(Some(tempo::protocol::Dialect::Hub));
            Ok(())
        }
        Some(Command::Uci) => {
            tempo::protocol::run(Some(tempo::protocol::Dialect::Uci));
            Ok(())
        }
        Some(Command::Perft(args)) => with_variant!(args.variant, G => run_perft::<G>(args)),
        Some(Command::Bench(args)) => run_bench(args),
        Some(Command::Search(args)) => with_variant!(args.variant, G => run_search::<G>(args)),
        Some(Command::Show(args)) => with_variant!(args.variant, G => tempo::show::run::<G>(args)),
        Some(Command::Analyze(args)) => tempo::analyze::variant_of(args)
            .and_then(|(v, _)| with_variant!(v, G => tempo::analyze::run::<G>(args))),
        Some(Command::Match(args)) => tempo::arena::main(args),
        Some(Command::Dxp(args)) => tempo::protocol::dxp_player::run(args),
        Some(Command::Selfplay(args)) => {
            with_variant!(args.variant, G => tempo::selfplay::run::<G>(args))
        }
        Some(Command::Train(args)) => tempo::train::run(args),
        Some(Command::Egdb(args)) => tempo::egdb::cli::run(args),
        Some(Command::Book(args)) => tempo::book::cli::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // The reader has gone (`| head`): what it wanted was written; nothing to report.
        Err(e) if e == tempo::output::OUTPUT_CLOSED => ExitCode::SUCCESS,
        Err(e) => {
            // Errors quote what they refuse; a token of a megabyte (a broken openings file) or a
            // number of 309 digits is cut as the protocols cut it, line by line.
            for line in e.lines() {
                tempo::stderr_line!("tempo: {}", tempo::protocol::clip_message(line));
            }
            ExitCode::FAILURE
        }
    }
}
