//! Perft from each variant's initial position against the published counts in
//! `tests/data/start-positions.tsv` (a copy of the project's reference table; sources are named in
//! its header: dctl's test suite citing the FMJD and shashki forum threads, OEIS A133046).
//!
//! The default run checks every row of every variant Tempo plays up to a node limit that keeps it
//! to seconds; `cargo test --release -- --ignored perft_deep` goes to the deepest published depths
//! (set `TEMPO_PERFT_LIMIT` to change the limit).

use std::thread;
use tempo::game::{Duplicates, Game};
use tempo::perft::perft;
use tempo::variant::Variant;
use tempo::with_variant;

struct Row {
    variant: Variant,
    fen: String,
    depth: u32,
    dup: Duplicates,
    nodes: u64,
}

/// The position a row names. The table's Thai counts ("start") are those of Thai rules from the
/// 12-man position of English checkers, not from Thai's own 8-man start: Tempo's Thai generator
/// reproduces them from there (and they differ from the 8-man start from depth 3 on).
fn row_fen(variant: Variant, fen: &str) -> Option<String> {
    match (variant, fen) {
        (Variant::Thai, "start") => Some("B:W21-32:B1-12".to_string()),
        (_, "start") => None,
        _ => Some(fen.to_string()),
    }
}

/// Deepest row checked per variant, where Tempo and the table part ways: Thai agrees in both columns
/// up to depth 11 and differs by a few leaves from depth 12 (385713687 merged against 385713660).
/// dctl, the table's source, lets a capturing king turn back 180 degrees; rules.md's Thai rule does
/// not, and Tempo follows rules.md (`tests/thai_question.rs` shows both readings).
fn max_depth(variant: Variant) -> u32 {
    match variant {
        Variant::Thai => 11,
        _ => u32::MAX,
    }
}

/// How a column of a file counts duplicate capture paths. The Turkish rows of the table come from
/// kish, whose move list holds a king's straight run over two pieces once per square where it
/// could stop between them, and whose perft counts every copy: that is [`Duplicates::Landings`]
/// (equal to the merged count up to depth 6). Tempo's merged counts (D-A1) are checked against
/// kish's move lists with the copies merged (`tests/data/turkish-kish-merged.tsv`).
fn policy(variant: Variant, file: &str, col: usize) -> Duplicates {
    match (variant, file, col) {
        (Variant::Turkish, "published", _) => Duplicates::Landings,
        (_, _, 3) => Duplicates::Merge,
        _ => Duplicates::Keep,
    }
}

/// Rows of the table for variants Tempo plays (other variants' rows are skipped until they exist).
/// Portuguese has the Spanish rules (rules.md §6), so it is checked against the Spanish rows; the
/// generator of Breakthrough and Antidraughts is the international one, and no king can appear
/// within 8 plies of the start, so their counts equal the international ones up to depth 8.
fn rows() -> Vec<Row> {
    let files = [
        ("published", include_str!("data/start-positions.tsv")),
        ("turkish-merged", include_str!("data/turkish-kish-merged.tsv")),
    ];
    files
        .iter()
        .flat_map(|(file, text)| rows_of(file, text))
        .collect()
}

fn rows_of(file: &str, text: &str) -> Vec<Row> {
    let mut rows = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("variant"))
    {
        let f: Vec<&str> = line.split('\t').collect();
        let Ok(variant) = f[0].parse::<Variant>() else {
            continue;
        };
        let depth: u32 = f[2].parse().unwrap();
        if depth > max_depth(variant) {
            continue;
        }
        let mut variants = vec![variant];
        if variant == Variant::Spanish {
            variants.push(Variant::Portuguese);
        }
        if variant == Variant::International && depth <= 8 {
            variants.extend([Variant::Breakthrough, Variant::Antidraughts]);
        }
        for col in [3, 4] {
            let dup = policy(variant, file, col);
            if let Some(n) = f.get(col).filter(|s| !s.is_empty()) {
                for &variant in &variants {
                    let fen = f[1].to_string();
                    rows.push(Row {
                        variant,
                        fen,
                        depth,
                        dup,
                        nodes: n.parse().unwrap(),
                    });
                }
            }
        }
    }
    rows
}

fn check(row: &Row) -> Result<(), String> {
    let got = with_variant!(row.variant, G => {
        let pos = match row_fen(row.variant, &row.fen) {
            Some(fen) => G::from_fen(&fen).unwrap(),
            None => G::start(),
        };
        if row.fen != "start" {
            assert_eq!(pos, G::start(), "{}: the table's FEN is the start position", row.variant);
        }
        perft(&pos, row.depth, row.dup)
    });
    if got == row.nodes {
        Ok(())
    } else {
        Err(format!(
            "{} {:?} depth {}: expected {}, got {got}",
            row.variant, row.dup, row.depth, row.nodes
        ))
    }
}

/// Checks every row up to `limit` nodes on two threads; returns how many rows ran.
fn run(limit: u64) -> usize {
    let rows: Vec<Row> = rows().into_iter().filter(|r| r.nodes <= limit).collect();
    let (a, b): (Vec<_>, Vec<_>) = rows.iter().enumerate().partition(|(i, _)| i % 2 == 0);
    let failures: Vec<String> = thread::scope(|s| {
        let handles: Vec<_> = [a, b]
            .into_iter()
            .map(|part| {
                s.spawn(move || {
                    part.into_iter()
                        .filter_map(|(_, r)| check(r).err())
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    assert!(failures.is_empty(), "perft mismatches:\n{}", failures.join("\n"));
    rows.len()
}

#[test]
fn perft_matches_published_counts() {
    let ran = run(10_000_000);
    // Every variant with published counts, both columns where published, depths 1 up to at least 6.
    assert!(ran >= 15 * 2 * 6, "only {ran} rows checked");
    // Games without published counts are cross-checked against simple twin generators instead.
    let unpublished = ["frysk", "armenian", "sixteen-soldiers", "muchado"];
    for v in Variant::ALL {
        if !unpublished.contains(&v.name()) {
            assert!(
                rows().iter().any(|r| r.variant == v),
                "no published counts for {v}"
            );
        }
    }
}

#[test]
#[ignore = "deep perft: minutes; run with --release -- --ignored"]
fn perft_deep() {
    let limit = std::env::var("TEMPO_PERFT_LIMIT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3_000_000_000);
    run(limit);
}

/// Ed Gilbert's Italian test position (published on damforum; the counts as dctl's Italian tests
/// reproduce them, every capture path kept). Its depth-7 count turns on the last step of the FID
/// precedence (art. 6.9: every captured king compared, earliest first; tests/rules.rs
/// `italian_precedence_every_king_earliest_first`).
const GILBERT_ITALIAN: &str = "W:WK27,K28,17,20,9,K12,8:B21,24,K19,K13,14,K11,4";
/// Its published perft counts, depths 1 to 9.
const GILBERT_ITALIAN_COUNTS: [u64; 9] = [
    13,
    112,
    828,
    6_756,
    46_241,
    368_908,
    2_468_110,
    19_914_763,
    130_562_037,
];

fn check_gilbert(depths: std::ops::RangeInclusive<u32>) {
    let pos = tempo::draughts::Italian::from_fen(GILBERT_ITALIAN).unwrap();
    for d in depths {
        let want = GILBERT_ITALIAN_COUNTS[d as usize - 1];
        assert_eq!(
            perft(&pos, d, Duplicates::Keep),
            want,
            "Gilbert Italian depth {d}"
        );
    }
}

#[test]
fn perft_gilbert_italian() {
    check_gilbert(1..=6);
}

#[test]
#[ignore = "deep perft: 130 M leaves, about a second; run with -- --ignored"]
fn perft_gilbert_italian_deep() {
    check_gilbert(7..=9);
}
