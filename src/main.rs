//! The `tempo` command line.

use clap::{Parser, Subcommand, ValueEnum};
use std::process::ExitCode;
use std::time::Instant;
use tempo::game::{Duplicates, Game};
use tempo::variant::Variant;
use tempo::{perft, with_variant};

/// Tempo, a draughts engine for the whole checkers family.
#[derive(Parser)]
#[command(version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaf nodes of the legal-move tree (verifies the move generator).
    ///
    /// Prints one line per depth: `depth <d> nodes <n> time <seconds> nps <n>`.
    Perft(PerftArgs),
}

#[derive(clap::Args)]
struct PerftArgs {
    /// Variant: international (normal), russian (shashki), brazilian, english (checkers,
    /// american), frisian, frysk.
    #[arg(long, short, value_parser = parse_variant, default_value = "international")]
    variant: Variant,
    /// Start position as PDN FEN (default: the variant's initial position).
    #[arg(long)]
    fen: Option<String>,
    /// Count capture paths with the same start, end and captured set once (merge) or each (keep).
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
}

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
    };
    for d in 1..=args.depth {
        let t = Instant::now();
        let n = perft::perft(&pos, d, dup);
        let secs = t.elapsed().as_secs_f64();
        let nps = if secs > 0.0 { (n as f64 / secs) as u64 } else { 0 };
        println!("depth {d} nodes {n} time {secs:.3} nps {nps}");
    }
    if args.divide && args.depth > 0 {
        for (mv, n) in perft::divide(&pos, args.depth, dup) {
            println!("{mv} {n}");
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Perft(args) => with_variant!(args.variant, G => run_perft::<G>(args)),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tempo: {e}");
            ExitCode::FAILURE
        }
    }
}
