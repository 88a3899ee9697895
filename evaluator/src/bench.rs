//! Built-in benchmarks (the `evaluator bench` subcommand). Each prints a signature: a
//! checksum of the results, which changes only when results change (and is the same
//! for every SIMD kernel and thread count). Every rate is measured `repeat` times and
//! reported as its median and range, with the number of threads that did the work.

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

/// A rate measured `repeat` times: the median and the range of the repetitions, and the
/// number of threads that did the work.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rate {
    /// Threads that ran the measurement: the pool's size, or fewer when the work has
    /// fewer parallel parts (1 for a single-threaded measurement).
    pub threads: usize,
    /// Repetitions measured.
    pub repeat: usize,
    /// The median rate (items per second; the mean of the middle two for an even
    /// `repeat`).
    pub per_sec: f64,
    /// The slowest repetition's rate.
    pub per_sec_min: f64,
    /// The fastest repetition's rate.
    pub per_sec_max: f64,
}

impl Rate {
    /// The rate of `samples` (one per repetition, at least one) on `threads` threads.
    pub fn of(threads: usize, samples: &[f64]) -> Rate {
        assert!(!samples.is_empty(), "a rate needs a measurement");
        let mut s = samples.to_vec();
        s.sort_by(f64::total_cmp);
        let n = s.len();
        let median = if n % 2 == 1 {
            s[n / 2]
        } else {
            (s[n / 2 - 1] + s[n / 2]) / 2.0
        };
        Rate {
            threads,
            repeat: n,
            per_sec: median,
            per_sec_min: s[0],
            per_sec_max: s[n - 1],
        }
    }
}

/// Result of the move-generation benchmark (single-threaded).
#[derive(Clone, Debug, Serialize)]
pub struct MovegenReport {
    /// (position, roll) pairs in the corpus.
    pub corpus_size: usize,
    /// Full passes over the corpus that were timed (all repetitions).
    pub passes: u64,
    /// Distinct resulting positions generated per pass (the signature of the run).
    pub positions_per_pass: u64,
    /// Seconds spent in the timed passes (all repetitions).
    pub seconds: f64,
    /// Distinct resulting positions per second.
    pub positions: Rate,
    /// Move generations (one position and roll) per second.
    pub movegens: Rate,
    /// `positions.per_sec` (the median), under its earlier name.
    pub positions_per_sec: f64,
    /// `movegens.per_sec` (the median), under its earlier name.
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
/// `repeat` times, single-threaded.
pub fn movegen(corpus: &[(Position, Dice)], min_time: Duration, repeat: usize) -> MovegenReport {
    let (per_pass, hash) = movegen_signature(corpus);
    let mut gen = MoveGen::new();
    let (mut all_passes, mut all_seconds) = (0u64, 0.0);
    let (mut positions, mut calls) = (Vec::new(), Vec::new());
    for _ in 0..repeat.max(1) {
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
        positions.push(total as f64 / seconds);
        calls.push((corpus.len() as u64 * passes) as f64 / seconds);
        all_passes += passes;
        all_seconds += seconds;
    }
    let (positions, movegens) = (Rate::of(1, &positions), Rate::of(1, &calls));
    MovegenReport {
        corpus_size: corpus.len(),
        passes: all_passes,
        positions_per_pass: per_pass,
        seconds: all_seconds,
        positions_per_sec: positions.per_sec,
        calls_per_sec: movegens.per_sec,
        positions,
        movegens,
        signature: format!("{hash:016x}"),
    }
}

/// Result of the evaluation benchmark.
#[derive(Clone, Debug, Serialize)]
pub struct EvalReport {
    /// Contact positions in the static-evaluation set.
    pub static_positions: usize,
    /// (position, roll) pairs in the best-move set.
    pub best_move_positions: usize,
    /// Static (0-ply, single position) evaluations per second, one position per call
    /// (as gnubg's `calibrate`).
    pub static_evals: Rate,
    /// The same evaluations through `Evaluator::evaluate_all`, 64 positions per call
    /// (nets run two positions at a time; same results).
    pub static_evals_batched: Rate,
    /// Complete 0-ply best-move decisions (generate, evaluate every move, choose) per
    /// second.
    pub best_moves: Rate,
    /// `static_evals.per_sec` (the median), under its earlier name.
    pub static_evals_per_sec: f64,
    /// `static_evals_batched.per_sec` (the median), under its earlier name.
    pub static_evals_per_sec_batched: f64,
    /// `best_moves.per_sec` (the median), under its earlier name.
    pub best_moves_per_sec: f64,
    /// Checksum of every evaluation and every chosen move.
    pub signature: String,
    /// The hidden-layer kernel used (`Scalar`, `Avx2` or `Avx512`).
    pub simd_kernel: String,
}

/// Times `work` over `items`, `chunk` items per parallel task, for at least `min_time`
/// on the current rayon pool; returns items per second.
fn throughput<T: Sync>(items: &[T], chunk: usize, min_time: Duration, work: impl Fn(&T) + Sync) -> f64 {
    let start = Instant::now();
    let mut done = 0usize;
    while done == 0 || start.elapsed() < min_time {
        items.par_chunks(chunk).for_each(|c| c.iter().for_each(&work));
        done += items.len();
    }
    done as f64 / start.elapsed().as_secs_f64()
}

/// The threads that can work on `items` split into tasks of `chunk` on a pool of
/// `pool` threads.
fn threads_used(pool: usize, items: usize, chunk: usize) -> usize {
    pool.min(items.div_ceil(chunk)).max(1)
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

/// Positions per parallel task of the static evaluations, (position, roll) pairs per
/// task of the best moves: 64 tasks each, so that up to 64 threads take part.
const STATIC_CHUNK: usize = 64;
const MOVE_CHUNK: usize = 16;

/// Static evaluations of `positions` (one per call, and batched 64 per call) and 0-ply
/// best moves of `pairs`, on `threads` threads, each timed for at least `min_time`,
/// `repeat` times (the three measurements in turn, so that a slow spell of the machine
/// does not fall on one of them alone).
pub fn evaluation(
    ev: &Evaluator,
    positions: &[Position],
    pairs: &[(Position, Dice)],
    threads: usize,
    min_time: Duration,
    repeat: usize,
) -> EvalReport {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("thread pool");
    let signature = evaluation_signature(ev, positions, pairs);
    let chunks: Vec<&[Position]> = positions.chunks(64).collect();
    let (mut single, mut batched, mut moves) = (Vec::new(), Vec::new(), Vec::new());
    pool.install(|| {
        for _ in 0..repeat.max(1) {
            single.push(throughput(positions, STATIC_CHUNK, min_time, |p| {
                std::hint::black_box(ev.evaluate(p).expect("evaluation"));
            }));
            // One call of 64 positions per task.
            batched.push(
                throughput(&chunks, 1, min_time, |c| {
                    thread_local! { static OUT: std::cell::RefCell<Vec<(crate::eval::Probabilities, crate::PositionClass)>> = const { std::cell::RefCell::new(Vec::new()) }; }
                    OUT.with(|o| ev.evaluate_all(c, &mut o.borrow_mut()).expect("evaluation"));
                }) * positions.len() as f64
                    / chunks.len() as f64,
            );
            moves.push(throughput(pairs, MOVE_CHUNK, min_time, |(p, d)| {
                thread_local! { static GEN: std::cell::RefCell<MoveGen> = std::cell::RefCell::new(MoveGen::new()); }
                GEN.with(|g| std::hint::black_box(ev.best_move(&mut g.borrow_mut(), p, *d).expect("evaluation")));
            }));
        }
    });
    let n = pool.current_num_threads();
    let static_evals = Rate::of(threads_used(n, positions.len(), STATIC_CHUNK), &single);
    let static_evals_batched = Rate::of(threads_used(n, chunks.len(), 1), &batched);
    let best_moves = Rate::of(threads_used(n, pairs.len(), MOVE_CHUNK), &moves);
    EvalReport {
        static_positions: positions.len(),
        best_move_positions: pairs.len(),
        static_evals_per_sec: static_evals.per_sec,
        static_evals_per_sec_batched: static_evals_batched.per_sec,
        best_moves_per_sec: best_moves.per_sec,
        static_evals,
        static_evals_batched,
        best_moves,
        signature,
        simd_kernel: format!("{:?}", crate::simd::kernel()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rate_is_the_median_and_range_of_its_repetitions() {
        let r = Rate::of(2, &[3.0, 1.0, 2.0]);
        assert_eq!(
            (r.per_sec, r.per_sec_min, r.per_sec_max, r.repeat, r.threads),
            (2.0, 1.0, 3.0, 3, 2)
        );
        let r = Rate::of(1, &[4.0, 1.0, 2.0, 10.0]);
        assert_eq!((r.per_sec, r.per_sec_min, r.per_sec_max), (3.0, 1.0, 10.0));
        assert_eq!(Rate::of(1, &[5.0]).per_sec, 5.0);
    }

    #[test]
    fn the_threads_reported_are_those_that_can_work() {
        // 64 tasks: up to 64 threads.
        assert_eq!(threads_used(2, 4096, 64), 2);
        assert_eq!(threads_used(100, 4096, 64), 64);
        assert_eq!(threads_used(8, 64, 1), 8);
        assert_eq!(threads_used(8, 1024, 16), 8);
        assert_eq!(threads_used(8, 3, 64), 1);
        assert_eq!(threads_used(8, 0, 64), 1);
    }

    #[test]
    fn a_measurement_runs_on_the_threads_it_reports() {
        // 64 items as the batched measurement times them (64 calls, one task each), and
        // as it did before issue 19 (one task of 64: one thread, whatever the pool).
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        let items: Vec<usize> = (0..64).collect();
        for (chunk, want) in [(1, 2), (64, 1)] {
            let seen = std::sync::Mutex::new(std::collections::BTreeSet::new());
            pool.install(|| {
                throughput(&items, chunk, Duration::ZERO, |_| {
                    seen.lock().unwrap().insert(rayon::current_thread_index());
                    std::thread::sleep(Duration::from_millis(1));
                })
            });
            assert_eq!(seen.into_inner().unwrap().len(), want, "chunk {chunk}");
            assert_eq!(threads_used(2, items.len(), chunk), want);
        }
    }

    #[test]
    fn movegen_repeats_each_measurement() {
        let corpus = crate::corpus::movegen_corpus();
        let corpus = &corpus[..50];
        let r = movegen(corpus, Duration::ZERO, 3);
        let (count, hash) = movegen_signature(corpus);
        assert_eq!((r.passes, r.positions_per_pass), (3, count));
        assert_eq!(r.signature, format!("{hash:016x}"));
        assert_eq!(
            (r.positions.repeat, r.positions.threads, r.movegens.threads),
            (3, 1, 1)
        );
        assert!(
            r.positions.per_sec_min <= r.positions.per_sec && r.positions.per_sec <= r.positions.per_sec_max
        );
        // One pass per repetition: the rates of positions and of calls differ by the
        // positions per call, exactly.
        let ratio = count as f64 / corpus.len() as f64;
        assert!((r.positions.per_sec / r.movegens.per_sec - ratio).abs() < 1e-9 * ratio);
        assert_eq!(r.positions_per_sec, r.positions.per_sec);
    }
}
