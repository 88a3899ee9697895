//! Built-in benchmarks (the `evaluator bench` subcommand). Each prints a signature: a
//! checksum of the results, which changes only when results change (and is the same
//! for every SIMD kernel and thread count).

use std::time::{Duration, Instant};

use board::{Dice, MoveGen, Position};
use rayon::prelude::*;
use serde::Serialize;

use crate::eval::Evaluator;

/// FNV-1a over a stream of 64-bit words.
#[derive(Clone, Copy)]
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    fn word(&mut self, w: u64) {
        for b in w.to_le_bytes() {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

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
    let mut hash = Fnv::new();
    for (pos, dice) in corpus {
        for child in gen.positions(pos, *dice) {
            count += 1;
            let k = child.key();
            hash.word(u64::from_le_bytes(k[..8].try_into().unwrap()));
            hash.word(u64::from(u16::from_le_bytes([k[8], k[9]])));
        }
    }
    (count, hash.0)
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

/// Result of the evaluation benchmark.
#[derive(Clone, Debug, Serialize)]
pub struct EvalReport {
    /// Worker threads used.
    pub threads: usize,
    /// Contact positions in the static-evaluation set.
    pub static_positions: usize,
    /// Static (0-ply, single position) evaluations per second, one position per call
    /// (as gnubg's `calibrate`).
    pub static_evals_per_sec: f64,
    /// The same evaluations through `Evaluator::evaluate_all`, 64 positions per call
    /// (nets run two positions at a time; same results).
    pub static_evals_per_sec_batched: f64,
    /// (position, roll) pairs in the best-move set.
    pub best_move_positions: usize,
    /// Complete 0-ply best-move decisions (generate, evaluate every move, choose) per
    /// second.
    pub best_moves_per_sec: f64,
    /// Checksum of every evaluation and every chosen move.
    pub signature: String,
    /// The hidden-layer kernel used (`Scalar` or `Avx2`).
    pub kernel: String,
}

/// Times `work` over `items` for at least `min_time` on the current rayon pool; returns
/// items per second.
fn throughput<T: Sync>(items: &[T], min_time: Duration, work: impl Fn(&T) + Sync) -> f64 {
    let start = Instant::now();
    let mut done = 0usize;
    while done == 0 || start.elapsed() < min_time {
        items.par_chunks(64).for_each(|c| c.iter().for_each(&work));
        done += items.len();
    }
    done as f64 / start.elapsed().as_secs_f64()
}

/// The signature of [`evaluation`]: a checksum (FNV-1a, hex) of every evaluation of
/// `positions` (class and the five probabilities' bits) and every 0-ply move chosen for
/// `pairs`, computed sequentially so that it cannot depend on scheduling.
pub fn evaluation_signature(ev: &Evaluator, positions: &[Position], pairs: &[(Position, Dice)]) -> String {
    let mut hash = Fnv::new();
    for p in positions {
        let (out, class) = ev.evaluate(p).expect("evaluation");
        hash.word(class as u64);
        out.iter().for_each(|v| hash.word(u64::from(v.to_bits())));
    }
    let mut gen = MoveGen::new();
    for (p, d) in pairs {
        let best = ev.best_move(&mut gen, p, *d).expect("evaluation");
        let k = best.map_or([0u8; 10], |(m, _)| m.result.key());
        hash.word(u64::from_le_bytes(k[..8].try_into().unwrap()));
    }
    format!("{:016x}", hash.0)
}

/// Static evaluations of `positions` and 0-ply best moves of `pairs`, on `threads`
/// threads, each timed for at least `min_time`.
pub fn evaluation(
    ev: &Evaluator,
    positions: &[Position],
    pairs: &[(Position, Dice)],
    threads: usize,
    min_time: Duration,
) -> EvalReport {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("thread pool");
    let signature = evaluation_signature(ev, positions, pairs);
    let (static_rate, batched_rate, move_rate) = pool.install(|| {
        let s = throughput(positions, min_time, |p| {
            std::hint::black_box(ev.evaluate(p).expect("evaluation"));
        });
        let chunks: Vec<&[Position]> = positions.chunks(64).collect();
        let batched = throughput(&chunks, min_time, |c| {
            thread_local! { static OUT: std::cell::RefCell<Vec<(crate::eval::Probabilities, crate::PositionClass)>> = const { std::cell::RefCell::new(Vec::new()) }; }
            OUT.with(|o| ev.evaluate_all(c, &mut o.borrow_mut()).expect("evaluation"));
        }) * positions.len() as f64
            / chunks.len() as f64;
        let m = throughput(pairs, min_time, |(p, d)| {
            thread_local! { static GEN: std::cell::RefCell<MoveGen> = std::cell::RefCell::new(MoveGen::new()); }
            GEN.with(|g| std::hint::black_box(ev.best_move(&mut g.borrow_mut(), p, *d).expect("evaluation")));
        });
        (s, batched, m)
    });
    EvalReport {
        threads,
        static_positions: positions.len(),
        static_evals_per_sec: static_rate,
        static_evals_per_sec_batched: batched_rate,
        best_move_positions: pairs.len(),
        best_moves_per_sec: move_rate,
        signature,
        kernel: format!("{:?}", crate::simd::kernel()),
    }
}
