//! `tempo bench`: a fixed set of positions from several variants, each searched to a fixed depth
//! on one thread with a fresh table. The total node count is a signature of the search: identical
//! from run to run and machine to machine, it changes only when search behaviour does.

use crate::eval::Evaluate;
use crate::search::{Limits, Search, Shared};
use crate::tt::Tt;
use crate::variant::Variant;
use crate::with_variant;
use std::time::{Duration, Instant};

/// The default depth of `tempo bench`.
pub const DEFAULT_DEPTH: u32 = 9;

/// Table size of each bench search, MiB.
const BENCH_TT_MIB: usize = 16;

/// The bench positions: variant and FEN (`None` for the variant's initial position).
pub const POSITIONS: &[(Variant, Option<&str>)] = &[
    (Variant::International, None),
    (
        Variant::International,
        Some(
            "W:W27,28,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48:B3,4,6,7,8,9,11,12,13,14,15,16,17,18,19,20,21,22,23,24",
        ),
    ),
    (
        Variant::International,
        Some("B:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26"),
    ),
    (Variant::International, Some("W:WK3,29,38:B24,K46")),
    (Variant::Russian, None),
    (Variant::Russian, Some("W:Wa1,c3,e3,f2,g1,h4:Bb6,d6,f6,g7,h8,a7")),
    (Variant::Brazilian, None),
    (Variant::English, None),
    (Variant::Frisian, None),
    (Variant::Italian, None),
    (Variant::Canadian, None),
    (Variant::SixteenSoldiers, None),
    (Variant::MuchAdo, None),
];

/// One bench line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchLine {
    /// The variant.
    pub variant: Variant,
    /// The position as FEN.
    pub fen: String,
    /// Nodes searched.
    pub nodes: u64,
    /// The best move found, in standard notation.
    pub best: String,
    /// Its score.
    pub score: i32,
}

fn bench_one<G: Evaluate>(
    fen: Option<&str>,
    depth: u32,
    tt: &Tt,
) -> Result<(String, u64, String, i32), String> {
    let root = match fen {
        Some(f) => G::from_fen(f).map_err(|e| format!("bench position {f:?}: {e}"))?,
        None => G::start(),
    };
    tt.clear();
    let shared = Shared::default();
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut search = Search::new(tt, &shared, limits, &[], &root);
    let result = search.run(&root, |_| {});
    let best = result.best.map_or_else(
        || "none".to_string(),
        |m| root.format_move(&m, crate::game::MoveStyle::Standard),
    );
    Ok((root.to_fen(), result.nodes, best, result.score))
}

/// Searches every bench position to `depth`; returns the lines and the time taken.
///
/// # Errors
/// A bench position that does not parse (a bug in this table).
pub fn run(depth: u32) -> Result<(Vec<BenchLine>, Duration), String> {
    let tt = Tt::new(BENCH_TT_MIB);
    let start = Instant::now();
    let mut lines = Vec::new();
    for &(variant, fen) in POSITIONS {
        let (fen, nodes, best, score) = with_variant!(variant, G => bench_one::<G>(fen, depth, &tt))?;
        lines.push(BenchLine {
            variant,
            fen,
            nodes,
            best,
            score,
        });
    }
    Ok((lines, start.elapsed()))
}
