//! Cost of the learned evaluation (International): the shipped net, and the same net with the edge
//! patterns or the big windows added (their weights random: the cost does not depend on them),
//! over positions of random games. Run with `cargo bench --bench eval`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;
use tempo::draughts::Draughts;
use tempo::draughts::rules::InternationalRules;
use tempo::eval::choice;
use tempo::eval::features::{EDGE_ENTRIES, EDGES};
use tempo::eval::table::Net;
use tempo::game::{Game, MoveList};

type Pos = Draughts<InternationalRules>;

/// Positions along random games from the start, up to 80 plies each.
fn positions(n: usize) -> Vec<Pos> {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut out = Vec::new();
    while out.len() < n {
        let mut pos = Pos::start();
        for _ in 0..rng.random_range(0..80) {
            let mut list = MoveList::new();
            pos.generate(&mut list);
            if list.is_empty() {
                break;
            }
            pos = pos.play(&list[rng.random_range(0..list.len())]);
            out.push(pos);
        }
    }
    out
}

fn bench_eval(c: &mut Criterion) {
    let shipped = choice::current::<InternationalRules>()
        .expect("International ships weights")
        .clone();
    let mut edged = shipped.clone();
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    edged.edges = EDGES;
    edged.patterns.extend(
        (0..EDGES * EDGE_ENTRIES).map(|_| [rng.random_range(-200..200), rng.random_range(-200..200)]),
    );
    let mut windowed = shipped.clone().with_windows(true);
    let first = windowed.window_base(0);
    for w in &mut windowed.patterns[first..] {
        *w = [rng.random_range(-200..200), rng.random_range(-200..200)];
    }
    let set = positions(4096);
    let mut group = c.benchmark_group("evaluate");
    group.throughput(Throughput::Elements(set.len() as u64));
    for (name, net) in [
        ("international/shipped", &shipped),
        ("international/edges", &edged),
        ("international/windows", &windowed),
    ] {
        let net: &Net = net;
        group.bench_function(name, |b| {
            b.iter(|| set.iter().map(|p| net.evaluate(black_box(p))).sum::<i32>())
        });
    }
    group.finish();
}

criterion_group!(benches, bench_eval);
criterion_main!(benches);
