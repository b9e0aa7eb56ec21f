//! Move generation speed per variant: perft from the initial position (bulk counted at the last
//! ply) and single-position generation. Node counts are asserted, so a faster wrong generator
//! cannot pass as an improvement. Run with `cargo bench --bench movegen`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use tempo::game::{Duplicates, Game, MoveList};
use tempo::perft::perft;
use tempo::variant::Variant;
use tempo::with_variant;

/// Perft depth per variant: about 0.02-0.1 s an iteration.
fn depth(v: Variant) -> u32 {
    match v {
        Variant::International | Variant::Frisian | Variant::Killer => 7,
        Variant::Breakthrough | Variant::Antidraughts => 7,
        Variant::Frysk | Variant::Canadian => 6,
        Variant::Thai => 9,
        _ => 8,
    }
}

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(20);
    for v in Variant::ALL {
        let d = depth(v);
        with_variant!(v, G => {
            let start = G::start();
            let nodes = perft(&start, d, Duplicates::Merge);
            group.throughput(Throughput::Elements(nodes));
            group.bench_function(format!("{v}/d{d}"), |b| {
                b.iter(|| assert_eq!(perft(black_box(&start), d, Duplicates::Merge), nodes))
            });
        });
    }
    group.finish();
}

fn bench_generate(c: &mut Criterion) {
    let mut group = c.benchmark_group("generate");
    // A middle-game position with captures available for both kinds of piece.
    let fen = "W:W27,28,32,33,34,37,38,39,K44,45,47,48:B8,12,13,14,16,17,18,19,21,22,23,K24";
    with_variant!(Variant::International, G => {
        let pos = G::from_fen(fen).unwrap();
        let mut list = MoveList::new();
        group.bench_function("international/middlegame", |b| {
            b.iter(|| {
                black_box(&pos).generate(&mut list);
                list.len()
            })
        });
    });
    group.finish();
}

criterion_group!(benches, bench_perft, bench_generate);
criterion_main!(benches);
