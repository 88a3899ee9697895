//! Built-in benchmarks (the `evaluator bench` subcommand). Each prints a signature: a
//! checksum of the results, which changes only when results change.

use std::time::{Duration, Instant};

use board::{Dice, MoveGen, Position};
use serde::Serialize;

/// Result of the move-generation benchmark.
#[derive(Clone, Debug, Serialize)]
pub struct MovegenReport {
    /// (position, roll) pairs in the corpus.
    pub corpus_size: usize,
    /// Full passes over the corpus that were timed.
    pub passes: u64,
    /// Distinct resulting positions generated per pass (the signature of the run).
    pub positions_per_pass: u64,
    /// Seconds spent in the timed passes.
    pub seconds: f64,
    /// Distinct resulting positions per second.
    pub positions_per_sec: f64,
    /// Move generations (one position and roll) per second.
    pub calls_per_sec: f64,
    /// Checksum of every resulting position of one pass (FNV-1a over the keys).
    pub signature: String,
}

/// Counts the distinct results of one pass and folds them into a checksum.
pub fn movegen_signature(corpus: &[(Position, Dice)]) -> (u64, u64) {
    let mut gen = MoveGen::new();
    let mut count = 0u64;
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for (pos, dice) in corpus {
        for child in gen.positions(pos, *dice) {
            count += 1;
            for b in child.key() {
                hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
            }
        }
    }
    (count, hash)
}

/// Generates the moves of every corpus entry, over and over for at least `min_time`,
/// single-threaded.
pub fn movegen(corpus: &[(Position, Dice)], min_time: Duration) -> MovegenReport {
    let (per_pass, hash) = movegen_signature(corpus);
    let mut gen = MoveGen::new();
    let mut passes = 0u64;
    let mut total = 0u64;
    let start = Instant::now();
    while passes == 0 || start.elapsed() < min_time {
        for (pos, dice) in corpus {
            total += gen.positions(pos, *dice).len() as u64;
        }
        passes += 1;
    }
    let seconds = start.elapsed().as_secs_f64();
    assert_eq!(total, per_pass * passes, "move generation is not deterministic");
    MovegenReport {
        corpus_size: corpus.len(),
        passes,
        positions_per_pass: per_pass,
        seconds,
        positions_per_sec: total as f64 / seconds,
        calls_per_sec: (corpus.len() as u64 * passes) as f64 / seconds,
        signature: format!("{hash:016x}"),
    }
}
