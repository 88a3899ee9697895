//! The `ordered` parallel scheme: the same nets and curve on any number of threads,
//! exact continuation after a stop or a checkpoint, and lag 0 = plain online learning.

mod common;

use std::path::Path;
use std::time::Instant;

use common::{bytes, no_dbs, scratch};
use trainer::train::{Parallel, Run, RunSettings};

/// A tiny run with seed 5, benchmarks seeded 3, and checkpoints and benchmarks every
/// two blocks.
fn settings(parallel: Parallel, batch: u64, lag: u64) -> RunSettings {
    RunSettings {
        seed: 5,
        lag,
        bench_seed: 3,
        ..common::tiny_settings(parallel, batch, 2 * batch, 2 * batch)
    }
}

/// curve.csv without its timing columns (elapsed_s, games_per_s).
fn curve_statistics(dir: &Path) -> Vec<String> {
    let text = String::from_utf8(bytes(&dir.join("curve.csv"))).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let keep: Vec<usize> = (0..header.len())
        .filter(|&i| header[i] != "elapsed_s" && header[i] != "games_per_s")
        .collect();
    assert_eq!(keep.len(), header.len() - 2, "{header:?}");
    lines
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            keep.iter().map(|&i| f[i]).collect::<Vec<_>>().join(",")
        })
        .collect()
}

#[test]
fn ordered_gives_the_same_nets_and_curve_on_any_number_of_threads() {
    let dir = scratch("ordered-threads");
    let mut results = Vec::new();
    for threads in [1, 2, 3] {
        let out = dir.join(format!("t{threads}"));
        let mut run = Run::create(&out, settings(Parallel::Ordered, 8, 2), no_dbs(), threads).unwrap();
        run.train(32, None, &|_| {}).unwrap();
        assert_eq!(run.state().curve.len(), 3, "benchmarks at 0, 16 and 32 games");
        results.push((
            bytes(&out.join("net.wd")),
            bytes(&out.join("net.weights")),
            curve_statistics(&out),
            run.state().positions,
        ));
    }
    assert!(results.iter().all(|r| r == &results[0]));
    // The lag matters: lag 0 (plain online learning) gives other nets.
    let out = dir.join("lag0");
    let mut run = Run::create(&out, settings(Parallel::Ordered, 8, 0), no_dbs(), 2).unwrap();
    run.train(32, None, &|_| {}).unwrap();
    assert_ne!(bytes(&out.join("net.wd")), results[0].0);
}

#[test]
fn ordered_lag_0_is_async_on_one_thread_bit_for_bit() {
    let dir = scratch("ordered-lag0");
    let a = dir.join("async");
    let mut run = Run::create(&a, settings(Parallel::Async, 8, 0), no_dbs(), 1).unwrap();
    run.train(24, None, &|_| {}).unwrap();
    let o = dir.join("ordered");
    let mut run = Run::create(&o, settings(Parallel::Ordered, 8, 0), no_dbs(), 3).unwrap();
    run.train(24, None, &|_| {}).unwrap();
    for f in ["net.wd", "net.weights", "state-24.wd"] {
        assert_eq!(bytes(&a.join(f)), bytes(&o.join(f)), "{f}");
    }
    assert_eq!(curve_statistics(&a), curve_statistics(&o));
}

#[test]
fn an_interrupted_ordered_run_continues_exactly() {
    let dir = scratch("ordered-resume");
    let whole = dir.join("whole");
    let mut run = Run::create(&whole, settings(Parallel::Ordered, 4, 3), no_dbs(), 2).unwrap();
    run.train(24, None, &|_| {}).unwrap();
    // Stopped by the deadline (already passed: stops at the first block end after
    // the start), then resumed on another thread count, in several sessions.
    let parts = dir.join("parts");
    let mut run = Run::create(&parts, settings(Parallel::Ordered, 4, 3), no_dbs(), 3).unwrap();
    run.train(24, Some(Instant::now()), &|_| {}).unwrap();
    assert_eq!(
        run.state().games,
        0,
        "a passed deadline stops before the first block"
    );
    drop(run);
    // A checkpoint at a block end (--games 8), then sessions stopped by a deadline
    // (after the block in progress) on 1, 2 or 3 threads.
    let mut run = Run::resume(&parts, no_dbs(), 2).unwrap();
    run.train(8, None, &|_| {}).unwrap();
    drop(run);
    let mut sessions = 0u32;
    loop {
        let mut run = Run::resume(&parts, no_dbs(), 1 + sessions as usize % 3).unwrap();
        let g = run.state().games;
        assert_eq!(g % 4, 0, "sessions stop at block ends");
        if g == 24 {
            break;
        }
        let deadline = Instant::now() + std::time::Duration::from_millis(5 * u64::from(sessions + 1));
        run.train(24, Some(deadline), &|_| {}).unwrap();
        sessions += 1;
        assert!(sessions < 100);
    }
    for f in ["net.wd", "net.weights", "state-24.wd"] {
        assert_eq!(bytes(&whole.join(f)), bytes(&parts.join(f)), "{f}");
    }
    // The benchmarks' statistics too: rows written before a stop come back from
    // state.json bit for bit (tests/json_floats.rs). A session stopped by its deadline
    // benchmarks where it stops, so the parted run may hold more rows: each row of the
    // whole run is in it, the same.
    let parted = curve_statistics(&parts);
    for row in curve_statistics(&whole) {
        assert!(parted.contains(&row), "{row} not in {parted:?}");
    }
}

/// Threads that wait help the others score their move lists (gnubg's inputs, exact
/// scoring; gnubg's bearoff databases where installed, so games also stop at them):
/// the nets are still those of one thread, bit for bit. (Whether help is given depends
/// on timing, and it is off with more threads than CPUs; `help::tests` checks shared
/// decisions one by one.)
#[test]
fn idle_threads_help_without_changing_a_bit() {
    use trainer::model::{Model, ModelConfig};
    use trainer::ordered::Block;
    let config = ModelConfig::gnubg(16, true);
    let td = td0();
    let dbs = if test_support::have(&[test_support::OS, test_support::TS]) {
        let open = |p: &str| Some(std::path::PathBuf::from(p));
        let (os, ts) = (open(test_support::OS), open(test_support::TS));
        std::sync::Arc::new(evaluator::bearoff::BearoffDbs::open(os.as_deref(), ts.as_deref()).unwrap())
    } else {
        no_dbs()
    };
    let dice = |g: u64| 77 + g as u32;
    let run = |threads| {
        let mut model = Model::new(config.clone(), 9).unwrap();
        let block = Block {
            b: 0,
            e: 120,
            lag: 1,
            threads,
            dbs: &dbs,
            td,
            dice: &dice,
        };
        let totals = block.run(&mut model, &|_| {}).unwrap();
        (model, totals)
    };
    let (one, alone) = run(1);
    assert_eq!(alone.shared_decisions, 0);
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    for threads in [2, 3] {
        let (many, totals) = run(threads);
        eprintln!("{threads} threads: {} decisions shared", totals.shared_decisions);
        if threads > cpus {
            assert_eq!(totals.shared_decisions, 0, "help with more threads than CPUs");
        }
        assert_eq!(totals.positions, alone.positions);
        assert!(one == many, "{threads} threads changed the nets");
    }
}

/// A game that panics ends the block with that panic, on any number of threads,
/// instead of leaving the other threads waiting for its merge.
#[test]
fn a_panicking_game_ends_the_block() {
    use trainer::encoding::Encoding;
    use trainer::model::{Init, Layout, Model, ModelConfig};
    use trainer::ordered::Block;
    let config = ModelConfig {
        encoding: Encoding::Tesauro,
        layout: Layout::Split,
        hidden: 8,
        init: Init::Xavier,
        weights_version: "1.00".into(),
        bearoff: false,
    };
    let td = td0();
    for threads in [1, 2, 3] {
        let config = config.clone();
        let (tx, rx) = std::sync::mpsc::channel();
        // On a thread of its own, so that a hang fails the test instead of stalling it.
        std::thread::spawn(move || {
            let dbs = no_dbs();
            let dice = |g: u64| {
                assert_ne!(g, 5, "game 5 panics");
                g as u32
            };
            let block = Block {
                b: 0,
                e: 12,
                lag: 1,
                threads,
                dbs: &dbs,
                td,
                dice: &dice,
            };
            let mut model = Model::new(config, 1).unwrap();
            let run = std::panic::AssertUnwindSafe(|| block.run(&mut model, &|_| {}));
            let _ = tx.send(std::panic::catch_unwind(run).is_err());
        });
        let ended = rx.recv_timeout(std::time::Duration::from_secs(60));
        assert_eq!(
            ended,
            Ok(true),
            "{threads} threads: the block did not end with the panic"
        );
    }
}

/// TD(0) at α 0.1, exact scoring, no pruning.
fn td0() -> trainer::td::TdParams {
    trainer::td::TdParams {
        lambda: 0.0,
        alpha: 0.1,
        anneal: 0.0,
        prune_moves: false,
        eval: trainer::td::EvalMode::Exact,
    }
}

/// The ordered scheme as its definition reads, one game after another with whole
/// copies and whole merges: game g learns on a copy of `W_s`, `s = max(b, g − lag)`,
/// and `W_{g+1} = W_g + (copy − W_s)` (the copy itself when `s == g`). The scheme's
/// copies and merges of only the rows that can differ (`trainer::rows`) give these
/// bits on any number of threads, with traces and with the pruning nets learning too.
#[test]
fn row_copies_and_merges_give_the_definitions_nets() {
    use trainer::model::{Model, ModelConfig};
    use trainer::ordered::Block;
    use trainer::td::Learner;
    let config = ModelConfig::gnubg(16, true);
    let dbs = no_dbs();
    let dice = |g: u64| 300 + g as u32;
    let (b, e) = (5u64, 65u64);
    for (lag, lambda) in [(1, 0.0), (2, 0.0), (1, 0.7)] {
        let td = trainer::td::TdParams { lambda, ..td0() };
        let start = Model::new(config.clone(), 4).unwrap();
        // The definition: W[k - b] is W_k.
        let mut w = vec![start.clone()];
        let mut learner = Learner::default();
        for g in b..e {
            let s = b.max(g.saturating_sub(lag));
            let mut copy = w[(s - b) as usize].clone();
            learner
                .train_game(&mut copy, &dbs, dice(g), &td, td.rate(g))
                .unwrap();
            if s != g {
                copy.merge_onto(&w[(g - b) as usize], &w[(s - b) as usize]);
            }
            w.push(copy);
        }
        let want = w.last().unwrap();
        for threads in [1, 2, 3] {
            let mut model = start.clone();
            let block = Block {
                b,
                e,
                lag,
                threads,
                dbs: &dbs,
                td,
                dice: &dice,
            };
            block.run(&mut model, &|_| {}).unwrap();
            assert_eq!(
                model.weight_bits(),
                want.weight_bits(),
                "lag {lag}, λ {lambda}, {threads} threads"
            );
        }
    }
}
