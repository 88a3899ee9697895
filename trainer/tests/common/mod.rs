//! Helpers shared by the trainer's integration tests.

#![allow(dead_code, unused_imports)]

use std::path::PathBuf;

pub use test_support::{dir_names, have, testdata, GNUBG, OS, TS, WD};

/// A fresh scratch directory for one test.
/// (removed when dropped, also when the test fails).
pub fn scratch(name: &str) -> test_support::Scratch {
    test_support::Scratch::new("trainer", name)
}

/// Runs the `trainer` binary.
pub fn trainer(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_trainer"))
        .args(args)
        .output()
        .unwrap()
}

/// A command's standard error as text.
pub fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A path as `&str` for command-line arguments.
pub fn s(p: &std::path::Path) -> &str {
    p.to_str().unwrap()
}

/// A file's bytes (the path named if it cannot be read).
pub fn bytes(path: &std::path::Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A JSON file, parsed.
pub fn json(path: &std::path::Path) -> serde_json::Value {
    serde_json::from_slice(&bytes(path)).unwrap()
}

/// No bearoff databases (the nets play every position).
pub fn no_dbs() -> std::sync::Arc<evaluator::bearoff::BearoffDbs> {
    std::sync::Arc::new(evaluator::bearoff::BearoffDbs::default())
}

/// The settings of a tiny, fast training run (Tesauro inputs, 8 hidden units, no
/// databases, seed 9; benchmarks of 20 games, seeded 4); a test overrides what it
/// varies.
pub fn tiny_settings(
    parallel: trainer::train::Parallel,
    batch: u64,
    checkpoint_every: u64,
    bench_every: u64,
) -> trainer::train::RunSettings {
    use trainer::model::{Init, Layout, ModelConfig};
    trainer::train::RunSettings {
        model: ModelConfig {
            encoding: trainer::encoding::Encoding::Tesauro,
            layout: Layout::Split,
            hidden: 8,
            init: Init::Xavier,
            weights_version: "1.00".into(),
            bearoff: false,
        },
        td: trainer::td::TdParams {
            lambda: 0.0,
            alpha: 0.1,
            anneal: 0.3,
            prune_moves: false,
            eval: trainer::td::EvalMode::Exact,
        },
        seed: 9,
        parallel,
        batch,
        lag: 0,
        checkpoint_every,
        bench_every,
        bench_games: 20,
        bench_seed: 4,
    }
}

/// `trainer td` on a small run writing to `out`: `games` games, 8 hidden units, no
/// databases, blocks and checkpoints of 10 games, `--quiet --json`, then `extra`.
pub fn small_td(out: &std::path::Path, games: &str, extra: &[&str]) -> std::process::Output {
    small_td_hidden(out, games, "8", extra)
}

/// [`small_td`] with `hidden` hidden units.
pub fn small_td_hidden(
    out: &std::path::Path,
    games: &str,
    hidden: &str,
    extra: &[&str],
) -> std::process::Output {
    let mut args = vec![
        "td",
        "--out",
        s(out),
        "--games",
        games,
        "--hidden",
        hidden,
        "--no-bearoff",
        "--batch",
        "10",
        "--checkpoint-every",
        "10",
        "--quiet",
        "--json",
    ];
    args.extend_from_slice(extra);
    trainer(&args)
}

/// Leaves in `dir` two temporary files as a writer killed mid-write leaves them,
/// unwritten for two minutes: one whose writer is gone (no process has its PID) and
/// one whose writer is alive (this test). Returns (gone, alive).
pub fn killed_writers_temps(dir: &std::path::Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let old = std::time::SystemTime::now() - std::time::Duration::from_secs(120);
    let gone = dir.join("net.weights.tmp999999999-0");
    let alive = dir.join(format!("net.weights.tmp{}-0", std::process::id()));
    for temp in [&gone, &alive] {
        let f = std::fs::File::create(temp).unwrap();
        f.set_modified(old).unwrap();
    }
    (gone, alive)
}

/// Asserts that `o` is a refusal: exit status 2 and one `trainer: ` message that holds
/// every one of `needles` (`what` names the call in a failure).
pub fn assert_refused(o: &std::process::Output, what: &str, needles: &[&str]) {
    let e = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{what}: {e}");
    assert!(e.starts_with("trainer: "), "{what}: {e}");
    for n in needles {
        assert!(e.contains(n), "{what}: {n:?} not in {e}");
    }
    assert_eq!(e.matches("trainer: ").count(), 1, "printed once: {e}");
}

/// Asserts that `o` is a refusal whose message holds `needle`.
pub fn refused(o: &std::process::Output, needle: &str) {
    assert_refused(o, "trainer", &[needle]);
}

/// Runs `trainer args` and asserts a refusal whose message holds `needle`.
pub fn fails_with(args: &[&str], needle: &str) {
    fails_with_all(args, &[needle]);
}

/// Runs `trainer args` and asserts a refusal whose message holds every one of `needles`.
pub fn fails_with_all(args: &[&str], needles: &[&str]) {
    assert_refused(&trainer(args), &format!("{args:?}"), needles);
}

/// Positions met in seeded games of random legal moves, with made-up targets that
/// depend on the pip counts (so there is something to learn).
pub fn samples(seed: u32, n: usize) -> Vec<datasets::format::Sample> {
    let mut out = Vec::new();
    let mut gen = board::MoveGen::new();
    let mut dice = board::DiceStream::new(seed);
    while out.len() < n {
        let mut pos = board::Variant::Backgammon.start();
        for _ in 0..300 {
            if pos.sides().iter().any(|s| s.iter().all(|&c| c == 0)) || out.len() == n {
                break;
            }
            let pips = |s: &[u8; 25]| {
                s.iter()
                    .enumerate()
                    .map(|(i, &c)| (i as f32 + 1.0) * f32::from(c))
                    .sum::<f32>()
            };
            let [opp, me] = pos.sides();
            let w = (0.5 + (pips(opp) - pips(me)) / 200.0).clamp(0.02, 0.98);
            out.push(datasets::format::Sample {
                position: pos,
                probs: [w, w * 0.25, w * 0.01, (1.0 - w) * 0.25, (1.0 - w) * 0.01],
                se: None,
                trials: 0,
            });
            let r = gen.positions(&pos, dice.roll());
            if !r.is_empty() {
                pos = r[dice.below(r.len() as u32) as usize];
            }
            pos = pos.swapped();
        }
    }
    out
}
