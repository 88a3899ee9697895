//! Move generation throughput on the built-in corpus (200 seeded random games).
//! Asserts the known result count before timing anything.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use evaluator::{bench::movegen_signature, corpus};

fn movegen(c: &mut Criterion) {
    let corpus = corpus::movegen_corpus();
    let (count, _) = movegen_signature(&corpus);
    // Distinct resulting positions over the corpus; changes only if results change.
    assert_eq!(count, 351_984, "movegen results changed");
    let mut gen = board::MoveGen::new();
    let mut group = c.benchmark_group("movegen");
    group.throughput(Throughput::Elements(count));
    group.bench_function("random_game_corpus", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for (pos, dice) in &corpus {
                n += gen.positions(pos, *dice).len();
            }
            std::hint::black_box(n)
        })
    });
    let start = board::Variant::Backgammon.start();
    let roll = board::Dice::new(3, 1).unwrap();
    group.throughput(Throughput::Elements(16));
    group.bench_function("start_31_with_moves", |b| {
        b.iter(|| std::hint::black_box(gen.moves(&start, roll).len()))
    });
    group.finish();
}

criterion_group!(benches, movegen);
criterion_main!(benches);
