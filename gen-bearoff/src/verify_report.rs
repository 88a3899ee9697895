//! What a `verify` found ([`VerifyReport`]) and which records it recomputes
//! (`sample`): shared by the bearoff checks ([`crate::verify`]) and the hypergammon
//! checks ([`crate::hyper::verify`]).

/// The two passes of a verify, as its progress reports name them: first every record
/// is read and checked (`Structure`), then the sample (or, with `--full`, every
/// record) is recomputed from its successors (`Recompute`, the slow part).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VerifyPass {
    /// Structural checks of every record.
    Structure,
    /// Recomputation of the sampled records.
    Recompute,
}

impl VerifyPass {
    /// A short name for a progress bar.
    pub fn name(self) -> &'static str {
        match self {
            VerifyPass::Structure => "structure",
            VerifyPass::Recompute => "recompute",
        }
    }
}

/// How often (in records) the passes report their progress.
pub(crate) const REPORT_EVERY: u64 = 1 << 12;

/// What `verify` found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VerifyReport {
    /// Records checked structurally (decoded and validated).
    pub structural: u64,
    /// Records recomputed from their successors.
    pub recomputed: u64,
    /// Human-readable descriptions of the problems found (at most 20 kept).
    pub problems: Vec<String>,
    /// Total number of problems.
    pub problem_count: u64,
    /// Measurements worth reporting even when all is well.
    pub notes: Vec<String>,
}

impl VerifyReport {
    pub(crate) fn problem(&mut self, text: String) {
        self.problem_count += 1;
        if self.problems.len() < KEPT_PROBLEMS {
            self.problems.push(text);
        }
    }

    /// True if nothing was wrong.
    pub fn ok(&self) -> bool {
        self.problem_count == 0
    }
}

/// A small deterministic generator for choosing samples: bgkit's SplitMix64
/// ([`board::seed::SplitMix`]) with a multiply-shift [`below`](SplitMix64::below).
#[derive(Clone, Debug)]
pub struct SplitMix64(board::seed::SplitMix);

impl SplitMix64 {
    /// Seeded generator.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(board::seed::SplitMix::new(seed))
    }

    /// Next value.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform value below `n` (> 0), with negligible bias for the sizes used here.
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }
}

/// The indices to recompute: the first and last few, then random ones.
pub(crate) fn sample(count: u64, samples: u64, seed: u64) -> Vec<u64> {
    let mut out: Vec<u64> = (0..count.min(8)).chain(count.saturating_sub(8)..count).collect();
    let mut rng = SplitMix64::new(seed);
    if samples >= count {
        out.extend(0..count);
    } else {
        for _ in 0..samples {
            out.push(rng.below(count));
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// What the recomputation found in one chunk of records: its problems (the first
/// [`KEPT_PROBLEMS`] of them, in record order), how many there were, and how many
/// records were recomputed.
#[derive(Debug, Default)]
pub(crate) struct ChunkFindings {
    problems: Vec<String>,
    problem_count: u64,
    pub(crate) recomputed: u64,
}

/// Problems a report keeps the text of.
pub(crate) const KEPT_PROBLEMS: usize = 20;

impl ChunkFindings {
    pub(crate) fn problem(&mut self, text: String) {
        self.problem_count += 1;
        if self.problems.len() < KEPT_PROBLEMS {
            self.problems.push(text);
        }
    }
}

impl VerifyReport {
    /// Adds a chunk's findings (chunks added in record order give the report a
    /// sequential pass would have given).
    pub(crate) fn add(&mut self, chunk: ChunkFindings) {
        let kept = chunk.problems.len() as u64;
        for text in chunk.problems {
            self.problem(text);
        }
        self.problem_count += chunk.problem_count - kept;
        self.recomputed += chunk.recomputed;
    }
}

/// Recomputes the `chosen` records on the rayon pool (`--threads`): `per_chunk` checks
/// a chunk of consecutive chosen records; the chunks' results come back in record
/// order, so the outcome is the same for any number of threads. Progress is reported
/// between waves of chunks, from the calling thread.
pub(crate) fn recompute_chunks<T: Send>(
    chosen: &[u64],
    progress: &dyn Fn(VerifyPass, u64, u64),
    per_chunk: impl Fn(&[u64]) -> T + Sync,
) -> Vec<T> {
    use rayon::prelude::*;
    let total = chosen.len() as u64;
    let chunk = REPORT_EVERY as usize;
    let wave = chunk * 4 * rayon::current_num_threads().max(1);
    let mut results = Vec::with_capacity(chosen.len().div_ceil(chunk));
    let mut done = 0u64;
    progress(VerifyPass::Recompute, 0, total);
    for records in chosen.chunks(wave) {
        results.par_extend(records.par_chunks(chunk).map(&per_chunk));
        done += records.len() as u64;
        progress(VerifyPass::Recompute, done, total);
    }
    results
}
