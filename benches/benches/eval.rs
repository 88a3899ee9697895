//! Static 0-ply evaluation of the built-in contact positions, with gnubg's weights when
//! installed (skipped otherwise). Checks the results' signature before timing.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use evaluator::bearoff::BearoffDbs;
use evaluator::weights::Weights;
use evaluator::{corpus, Evaluator};

fn eval(c: &mut Criterion) {
    let (wd, os, ts) = (
        "/usr/lib/gnubg/gnubg.wd",
        "/usr/share/gnubg/gnubg_os0.bd",
        "/var/lib/gnubg/gnubg_ts0.bd",
    );
    if ![wd, os, ts].iter().all(|p| std::path::Path::new(p).exists()) {
        eprintln!("gnubg's weights and databases are not installed: skipping");
        return;
    }
    let dbs = BearoffDbs::open(Some(os.as_ref()), Some(ts.as_ref())).unwrap();
    let ev = Evaluator::new(Weights::load(wd).unwrap(), dbs);
    let positions = corpus::contact_positions();
    // gnubg 1.07's 0-ply win probability for the opening position (testdata/gnubg; the
    // last digits depend on the CPU's approximate reciprocal, see evaluator/README.md).
    let start = board::Variant::Backgammon.start();
    let p_win = ev.evaluate(&start).unwrap().0[0];
    assert!((p_win - 0.521_513_8).abs() < 2e-3, "evaluation changed: {p_win}");
    let mut group = c.benchmark_group("evaluate");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("contact_0ply", |b| {
        b.iter(|| {
            for p in &positions {
                std::hint::black_box(ev.evaluate(p).unwrap());
            }
        })
    });
    group.finish();
}

criterion_group!(benches, eval);
criterion_main!(benches);
