//! Helpers shared by the integration tests: gnubg's files, evaluators, test positions.

#![allow(dead_code, unused_imports)]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use board::{Dice, DiceStream, MoveGen, Position, Variant};
use evaluator::bearoff::BearoffDbs;
use evaluator::weights::Weights;
use evaluator::Evaluator;

pub use test_support::{have, OS, TS, WD};

/// An evaluator with Debian's gnubg weights and bearoff databases.
pub fn gnubg_evaluator() -> Option<Evaluator> {
    if !have(&[WD, OS, TS]) {
        return None;
    }
    let dbs = BearoffDbs::open(Some(Path::new(OS)), Some(Path::new(TS))).unwrap();
    Some(Evaluator::new(Weights::load(WD).unwrap(), dbs))
}

/// A fresh scratch directory for one test.
/// (removed when dropped, also when the test fails).
pub fn scratch(name: &str) -> test_support::Scratch {
    test_support::Scratch::new("datasets", name)
}

pub fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// Positions with the side on roll from seeded games of random legal moves (no
/// evaluator needed), every `every`-th half-move.
pub fn random_game_positions(seed: u32, games: usize, every: usize) -> Vec<Position> {
    let mut out = Vec::new();
    let mut gen = MoveGen::new();
    let mut dice = DiceStream::new(seed);
    for _ in 0..games {
        let mut pos = Variant::Backgammon.start();
        for half in 0.. {
            if pos.sides().iter().any(|s| s.iter().all(|&n| n == 0)) {
                break;
            }
            if half % every == 0 {
                out.push(pos);
            }
            let roll: Dice = dice.roll();
            let results = gen.positions(&pos, roll);
            if !results.is_empty() {
                let k = dice.below(results.len() as u32) as usize;
                pos = results[k];
            }
            pos = pos.swapped();
        }
    }
    out
}

/// Runs `datasets` with `args` and kills it (SIGKILL) once its journal `meta` records a
/// first finished chunk; fails if that takes longer than `limit` or if the output `out`
/// appears first (the run was not interrupted).
pub fn kill_after_first_chunk<S: AsRef<std::ffi::OsStr>>(
    args: &[S],
    out: &Path,
    meta: &Path,
    limit: Duration,
) {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_datasets"))
        .args(args)
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    loop {
        let chunks = std::fs::read_to_string(meta)
            .ok()
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
            .and_then(|v| v["chunks"].as_u64())
            .unwrap_or(0);
        if chunks >= 1 {
            break;
        }
        assert!(t0.elapsed() < limit && !out.exists(), "no checkpoint");
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
}

/// Runs the `datasets` binary.
pub fn datasets(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_datasets"))
        .args(args)
        .output()
        .expect("run datasets")
}

/// Runs the `datasets` binary and requires success.
pub fn ok(args: &[&str]) -> std::process::Output {
    let out = datasets(args);
    assert!(
        out.status.success(),
        "datasets {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// A path as a command-line argument.
pub fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}
