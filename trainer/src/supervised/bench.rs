//! The throughput bench of supervised training: one epoch of a contact net on
//! synthetic positions, with inputs computed on the fly and then cached.

use std::time::Instant;

use serde::Serialize;

use super::data::{ClassData, NetClass};
use super::optim::OptState;
use super::order::shuffle;
use super::settings::SupervisedSettings;
use super::start::Start;
use super::stepper::{pool, Stepper};
use crate::encoding::Encoding;
use crate::error::TrainerError;
use crate::model::{self, Layout};

/// What [`bench`](fn@bench) measured.
#[derive(Clone, Debug, Serialize)]
pub struct BenchReport {
    /// Positions in the epoch.
    pub positions: u64,
    /// Net shape.
    pub inputs: usize,
    /// Hidden units.
    pub hidden: usize,
    /// Batch size.
    pub batch: usize,
    /// Threads.
    pub threads: usize,
    /// Seconds of the first epoch, inputs computed on the fly (forward, backward,
    /// steps included).
    pub seconds: f64,
    /// Positions per second of that epoch.
    pub samples_per_s: f64,
    /// Seconds for one such epoch of 1,000,000 positions.
    pub seconds_per_million: f64,
    /// Seconds to compute every position's inputs once (the input cache).
    pub cache_seconds: f64,
    /// Positions per second of a second epoch with the cached inputs.
    pub cached_samples_per_s: f64,
    /// Seconds for one epoch of 1,000,000 positions with cached inputs.
    pub cached_seconds_per_million: f64,
    /// CPU seconds (all threads) of the first epoch, where the system reports them
    /// (Linux): on a loaded machine the wall clock says little, and CPU seconds / cores
    /// is the epoch's time on that many free cores, if the work splits evenly.
    pub cpu_seconds: Option<f64>,
    /// CPU seconds of the epoch with cached inputs.
    pub cached_cpu_seconds: Option<f64>,
}

/// CPU seconds used by this process so far (user + system, all threads), on Linux.
fn process_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command name (in parentheses; it may hold spaces): utime and
    // stime are the 14th and 15th of the line, the 12th and 13th of these, in clock
    // ticks of 1/100 s on Linux.
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// Synthetic contact positions with targets, from seeded games of random legal moves
/// (for benchmarks).
pub fn synthetic_contact(n: usize, seed: u32) -> Vec<datasets::format::binary::Record> {
    use board::{DiceStream, MoveGen, Variant};
    let mut out = Vec::with_capacity(n);
    let mut gen = MoveGen::new();
    let mut dice = DiceStream::new(seed);
    while out.len() < n {
        let mut pos = Variant::Backgammon.start();
        for _ in 0..200 {
            if evaluator::class::classify_shape(&pos) != evaluator::PositionClass::Contact {
                break;
            }
            let r = (dice.below(1000) as f32) / 1000.0;
            out.push(datasets::format::binary::Record::of(&datasets::Sample {
                position: pos,
                probs: [r, r * 0.3, r * 0.02, (1.0 - r) * 0.3, (1.0 - r) * 0.02],
                se: None,
                trials: 0,
            }));
            if out.len() == n {
                break;
            }
            let results = gen.positions(&pos, dice.roll());
            if !results.is_empty() {
                pos = results[dice.below(results.len() as u32) as usize];
            }
            pos = pos.swapped();
        }
    }
    out
}

/// Times one epoch of training a 250-`hidden`-5 contact net (gnubg inputs, Adam) on
/// `positions` synthetic positions with `threads` threads.
pub fn bench(
    positions: usize,
    hidden: usize,
    batch: usize,
    threads: usize,
) -> Result<BenchReport, TrainerError> {
    let mut data = ClassData::from_records(NetClass::Contact, "synthetic", synthetic_contact(positions, 7))?;
    let start = Start::fresh(hidden, 1)?;
    let mut weights = start.weights;
    let slot = model::main_slot(Layout::Split, evaluator::PositionClass::Contact);
    let mut set = SupervisedSettings::new(NetClass::Contact);
    set.batch = batch;
    set.validate()?;
    let pool = pool(threads)?;
    let mut opt = OptState::new(&weights.nets[slot], &set.optimizer);
    let mut stepper = Stepper::new(&weights.nets[slot], batch);
    let mut order: Vec<u32> = (0..data.len() as u32).collect();
    shuffle(&mut order, 5);
    let mut epoch = |data: &ClassData| {
        let t = Instant::now();
        let cpu = process_cpu_seconds();
        for idx in order.chunks(batch) {
            stepper.step(
                &pool,
                data,
                (Encoding::Gnubg, false),
                &mut weights.nets[slot],
                &mut opt,
                idx,
                &set,
                set.lr,
            );
        }
        let used = cpu.zip(process_cpu_seconds()).map(|(a, b)| b - a);
        (t.elapsed().as_secs_f64().max(1e-9), used)
    };
    let (seconds, cpu_seconds) = epoch(&data);
    let t = Instant::now();
    pool.install(|| data.cache_inputs(Encoding::Gnubg, false, u64::MAX));
    let cache_seconds = t.elapsed().as_secs_f64();
    let (cached, cached_cpu_seconds) = epoch(&data);
    let n = data.len() as f64;
    Ok(BenchReport {
        positions: data.len() as u64,
        inputs: 250,
        hidden,
        batch,
        threads,
        seconds,
        samples_per_s: n / seconds,
        seconds_per_million: 1e6 * seconds / n,
        cache_seconds,
        cached_samples_per_s: n / cached,
        cached_seconds_per_million: 1e6 * cached / n,
        cpu_seconds,
        cached_cpu_seconds,
    })
}
