//! Training runs: reproducibility across thread counts, exact resumption, files, and
//! that self-play actually learns.

mod common;

use common::{bytes, no_dbs, scratch};
use trainer::duel::{duel, DuelOptions};
use trainer::encoding::Encoding;
use trainer::model;
use trainer::player::{NetPlayer, Pubeval};
use trainer::train::{load_state, Parallel, Run, RunSettings};

fn settings(parallel: Parallel, batch: u64, checkpoint_every: u64, bench_every: u64) -> RunSettings {
    common::tiny_settings(parallel, batch, checkpoint_every, bench_every)
}

#[test]
fn sync_rounds_give_the_same_nets_on_any_number_of_threads() {
    let dir = scratch("sync-threads");
    let mut results = Vec::new();
    for threads in [1, 2, 3] {
        let out = dir.join(format!("t{threads}"));
        let mut run = Run::create(&out, settings(Parallel::Sync, 4, 8, 0), no_dbs(), threads).unwrap();
        run.train(16, None, &|_| {}).unwrap();
        results.push((bytes(&out.join("net.wd")), run.state().positions));
    }
    assert!(results.iter().all(|r| r == &results[0]));
    // Rounds of 4 are not online learning: batch 1 gives other nets.
    let out = dir.join("online");
    let mut run = Run::create(&out, settings(Parallel::Sync, 1, 8, 0), no_dbs(), 1).unwrap();
    run.train(16, None, &|_| {}).unwrap();
    assert_ne!(bytes(&out.join("net.wd")), results[0].0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_resumed_run_continues_exactly() {
    let dir = scratch("resume");
    for parallel in [Parallel::Async, Parallel::Sync, Parallel::Ordered] {
        let whole = dir.join(format!("whole-{parallel}"));
        let mut run = Run::create(&whole, settings(parallel, 2, 6, 6), no_dbs(), 1).unwrap();
        run.train(12, None, &|_| {}).unwrap();
        let parts = dir.join(format!("parts-{parallel}"));
        let mut run = Run::create(&parts, settings(parallel, 2, 6, 6), no_dbs(), 1).unwrap();
        run.train(6, None, &|_| {}).unwrap();
        drop(run);
        let mut run = Run::resume(&parts, no_dbs(), 1).unwrap();
        assert_eq!(run.state().games, 6);
        run.train(12, None, &|_| {}).unwrap();
        for f in ["net.wd", "net.weights", "state-12.wd"] {
            assert_eq!(bytes(&whole.join(f)), bytes(&parts.join(f)), "{parallel}: {f}");
        }
        let (a, _) = load_state(&whole).unwrap();
        let (b, _) = load_state(&parts).unwrap();
        assert_eq!((a.games, a.positions), (b.games, b.positions));
        let strip = |s: &trainer::train::State| -> Vec<(u64, f64, f64)> {
            s.curve.iter().map(|r| (r.games, r.ppg, r.se)).collect()
        };
        assert_eq!(strip(&a), strip(&b));
        assert_eq!(a.curve.len(), 3, "benchmarks at 0, 6 and 12 games");
        // One checkpoint weights file is kept.
        let wd: Vec<_> = std::fs::read_dir(&parts)
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().starts_with("state-"))
            .collect();
        assert_eq!(wd.len(), 1);
        // The sidecar tells how the nets were made, and the files load back.
        let (m, sidecar) = model::load(&parts.join("net.wd")).unwrap();
        assert_eq!(sidecar.training.as_ref().unwrap().games, 12);
        assert_eq!(sidecar.config, settings(parallel, 2, 6, 6).model);
        let (m2, _) = model::load(&parts.join("net.weights")).unwrap();
        assert!(m == m2, "text and binary files hold the same nets");
        assert!(&m == run.model(), "the saved nets are the nets in memory");
    }
    // A directory holding a run is not overwritten.
    let e = Run::create(
        &dir.join("whole-async"),
        settings(Parallel::Async, 1, 6, 0),
        no_dbs(),
        1,
    )
    .err()
    .unwrap();
    assert!(e.to_string().contains("already holds a training run"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_settings_are_refused() {
    let mut s = settings(Parallel::Sync, 4, 6, 0);
    assert!(s
        .validate()
        .unwrap_err()
        .to_string()
        .contains("multiple of --batch"));
    s.checkpoint_every = 8;
    s.bench_every = 8;
    s.bench_games = 3;
    assert!(s.validate().unwrap_err().to_string().contains("even"));
    s.bench_games = 4;
    s.td.lambda = 2.0;
    assert!(s.validate().is_err());
}

/// A thousand games of self-play take a small net with gnubg's inputs (no bearoff
/// databases) from hopeless to clearly better against pubeval.
#[test]
fn self_play_learns() {
    let dir = scratch("learns");
    let mut s = settings(Parallel::Async, 1, 1000, 0);
    s.model.encoding = Encoding::Gnubg;
    s.model.hidden = 16;
    let mut run = Run::create(&dir, s, no_dbs(), 1).unwrap();
    let untrained = run.model().clone();
    run.train(1000, None, &|_| {}).unwrap();
    let opts = DuelOptions {
        games: 400,
        seed: 2,
        record: false,
    };
    let before = NetPlayer::new("untrained", untrained, no_dbs());
    let after = NetPlayer::new("trained", run.model().clone(), no_dbs());
    let (b, _) = duel(&before, &Pubeval, &opts, &|_| {}).unwrap();
    let (a, _) = duel(&after, &Pubeval, &opts, &|_| {}).unwrap();
    eprintln!(
        "vs pubeval: untrained {:+.3} ± {:.3}, trained {:+.3} ± {:.3}",
        b.ppg, b.se, a.ppg, a.se
    );
    assert!(
        a.ppg - b.ppg > 0.4,
        "untrained {:+.3}, trained {:+.3}",
        b.ppg,
        a.ppg
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A new run's benchmark needs two dice pairs (a standard error); a run made before
/// that rule, with one pair, still resumes, and its curve keeps the 0 it always had.
#[test]
fn one_pair_benchmarks_are_refused_for_new_runs_and_resume_for_old_ones() {
    let dir = scratch("one-pair");
    let mut s = settings(Parallel::Sync, 2, 4, 4);
    s.bench_games = 2;
    let e = Run::create(&dir.join("new"), s.clone(), no_dbs(), 1)
        .err()
        .unwrap();
    assert!(e.to_string().contains("at least 4"), "{e}");
    assert!(!dir.join("new").exists());
    // An old run: made with 4, then its state says 2 (as an older build wrote it).
    let old = dir.join("old");
    s.bench_games = 4;
    let mut run = Run::create(&old, s, no_dbs(), 1).unwrap();
    run.train(4, None, &|_| {}).unwrap();
    drop(run);
    let state = old.join("state.json");
    let mut v = common::json(&state);
    assert_eq!(v["settings"]["bench_games"], 4, "{v}");
    v["settings"]["bench_games"] = 2.into();
    std::fs::write(&state, serde_json::to_vec_pretty(&v).unwrap()).unwrap();
    let mut run = Run::resume(&old, no_dbs(), 1).unwrap();
    run.train(8, None, &|_| {}).unwrap();
    let last = run.state().curve.last().unwrap().clone();
    assert_eq!((last.games, last.bench_games, last.se), (8, 2, 0.0));
    let _ = std::fs::remove_dir_all(&dir);
}
