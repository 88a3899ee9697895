//! What a two-sided generation will do before it starts: how its records are laid out in
//! levels and blocks, how much memory the window, the output and the tables take, whether
//! the output stays in memory or goes through bucket files in bands, and the settings of
//! a run ([`TwoSidedRun`]).

use std::path::{Path, PathBuf};

use crate::byte_size::show;
use crate::error::BearoffError;
use crate::format::header::TwoSidedParams;
use crate::format::index::PositionIndex;
use crate::levels::PipLevels;

/// Sizes and memory plan of a two-sided generation, computed before any work.
#[derive(Clone, Debug)]
pub struct TwoSidedPlan {
    /// What is generated.
    pub params: TwoSidedParams,
    /// One-sided positions per side.
    pub n: u64,
    /// Values per record (4 cubeful, 1 cubeless).
    pub planes: usize,
    /// Records per pip-sum level.
    pub level_records: Vec<u64>,
    /// Peak bytes of the window (24 finished levels plus the one being computed).
    pub window_bytes: u64,
    /// Bytes of the output data (without header).
    pub output_bytes: u64,
    /// Row ranges `[first, end)` of the bands.
    pub bands: Vec<(u64, u64)>,
    /// Whether the whole output is kept in memory during generation (no bucket files).
    pub in_memory: bool,
    /// Bytes of the largest band buffer (the whole output with a single band, held during
    /// generation; otherwise allocated after generation, when the window is freed).
    pub band_bytes: u64,
    /// Estimated bytes of the other tables (successor lists, pip levels).
    pub table_bytes: u64,
}

impl TwoSidedPlan {
    /// Peak memory estimate: window + output + tables with a single band; otherwise the
    /// larger of window + tables (generation) and band + tables (assembly).
    pub fn peak_bytes(&self) -> u64 {
        if self.in_memory {
            self.window_bytes + self.band_bytes + self.table_bytes
        } else {
            self.window_bytes.max(self.band_bytes) + self.table_bytes
        }
    }
}

/// Window depth: a move lowers the pip count by at most 24.
pub(super) const WINDOW: usize = 24;

/// Runs with at least this many records use bucket files (and so can be resumed) even
/// when the output would fit in memory: about a minute of work on two cores.
pub const LONG_RUN: u64 = 1 << 28;

/// Where records lie in memory: levels by pip sum, blocks by the pair of pip counts.
pub(super) struct Layout {
    pub(super) index: PositionIndex,
    pub(super) levels: PipLevels,
    pub(super) planes: usize,
    pub(super) max_pip: usize,
    /// `block_start[s][x - lo(s)]`: record offset of block (x, s - x) inside level s.
    pub(super) block_start: Vec<Vec<u64>>,
    pub(super) level_records: Vec<u64>,
}

impl Layout {
    pub(super) fn new(index: PositionIndex, planes: usize) -> Layout {
        let levels = PipLevels::new(&index);
        let max_pip = levels.max_pip();
        let mut block_start = Vec::with_capacity(2 * max_pip + 1);
        let mut level_records = Vec::with_capacity(2 * max_pip + 1);
        for s in 0..=2 * max_pip {
            let (lo, hi) = Layout::x_range(max_pip, s);
            let mut starts = Vec::with_capacity(hi + 1 - lo);
            let mut at = 0u64;
            for x in lo..=hi {
                starts.push(at);
                at += (levels.len_of(x) * levels.len_of(s - x)) as u64;
            }
            block_start.push(starts);
            level_records.push(at);
        }
        Layout {
            index,
            levels,
            planes,
            max_pip,
            block_start,
            level_records,
        }
    }

    pub(super) fn x_range(max_pip: usize, s: usize) -> (usize, usize) {
        (s.saturating_sub(max_pip), s.min(max_pip))
    }

    fn window_records(&self) -> u64 {
        let mut best = 0;
        for s in 0..self.level_records.len() {
            let lo = s.saturating_sub(WINDOW);
            best = best.max(self.level_records[lo..=s].iter().sum::<u64>());
        }
        best
    }
}

fn plan_bands(n: u64, planes: usize, band_budget: u64) -> Vec<(u64, u64)> {
    let row_bytes = n * 2 * planes as u64;
    let rows_per_band = (band_budget / row_bytes).max(1);
    let count = n.div_ceil(rows_per_band);
    // Even split of rows.
    (0..count).map(|k| (k * n / count, (k + 1) * n / count)).collect()
}

/// Plans a generation under `memory_limit` bytes, with bands of at most `band_limit`
/// bytes if given (forcing bucket files). Fails if the window does not fit.
pub fn plan(
    params: TwoSidedParams,
    memory_limit: u64,
    band_limit: Option<u64>,
) -> Result<TwoSidedPlan, BearoffError> {
    let index = check_params(params)?;
    let planes = if params.cubeful { 4 } else { 1 };
    let layout = Layout::new(index, planes);
    plan_for(&layout, params, memory_limit, band_limit)
}

pub(super) fn check_params(params: TwoSidedParams) -> Result<PositionIndex, BearoffError> {
    if !(1..=24).contains(&params.points) || !(1..=15).contains(&params.checkers) {
        return Err(BearoffError::InvalidParameters(format!(
            "two-sided databases need 1-24 points and 1-15 checkers, got {}x{}",
            params.points, params.checkers
        )));
    }
    let index =
        PositionIndex::new(usize::from(params.points), usize::from(params.checkers)).expect("checked");
    if index.count() > u64::from(u32::MAX) {
        return Err(BearoffError::InvalidParameters(
            "too many positions per side".into(),
        ));
    }
    Ok(index)
}

pub(super) fn plan_for(
    layout: &Layout,
    params: TwoSidedParams,
    memory_limit: u64,
    band_limit: Option<u64>,
) -> Result<TwoSidedPlan, BearoffError> {
    let n = layout.index.count();
    let planes = layout.planes;
    let window_bytes = layout.window_records() * 2 * planes as u64;
    let output_bytes = n * n * 2 * planes as u64;
    // Successor lists: about 21 * 20 entries of 4 bytes for 15 checkers; pip levels 10 B.
    let table_bytes = n * (21 * 4 + 10) + n * 21 * 4 * (2 + u64::from(params.checkers));
    let fixed = window_bytes + table_bytes;
    let row_bytes = n * 2 * planes as u64;
    if fixed + (1 << 20) > memory_limit || table_bytes + row_bytes > memory_limit {
        return Err(BearoffError::Memory(format!(
            "two-sided {}x{} needs at least {} of memory (window {}, tables {}, and 1 MiB for a band of output, or one row of {} beside the tables); the limit is {} (see --memory-limit)",
            params.points,
            params.checkers,
            show((fixed + (1 << 20)).max(table_bytes + row_bytes)),
            show(window_bytes),
            show(table_bytes),
            show(row_bytes),
            show(memory_limit)
        )));
    }
    // Everything in memory if it fits; otherwise bands, assembled after the window is
    // freed, so a band may use all memory but the tables.
    let in_memory = fixed + output_bytes <= memory_limit && band_limit.is_none() && n * n < LONG_RUN;
    let bands = if in_memory {
        vec![(0, n)]
    } else {
        let budget = (memory_limit - table_bytes).min(band_limit.unwrap_or(u64::MAX));
        plan_bands(n, planes, budget)
    };
    let band_bytes = bands.iter().map(|&(a, b)| (b - a) * row_bytes).max().unwrap_or(0);
    Ok(TwoSidedPlan {
        params,
        n,
        planes,
        level_records: layout.level_records.clone(),
        window_bytes,
        output_bytes,
        bands,
        in_memory,
        band_bytes,
        table_bytes,
    })
}

/// How to run a two-sided generation.
#[derive(Clone, Debug)]
pub struct TwoSidedRun {
    /// Memory to plan for, bytes.
    pub memory_limit: u64,
    /// Cap on a band's bytes (forces bucket files).
    pub band_limit: Option<u64>,
    /// Path prefix of the temporary files: `<scratch>.bucketK`, `<scratch>.state` (the
    /// extension of `scratch` is replaced).
    pub scratch: PathBuf,
    /// Continue an interrupted run from its state file, if there is one.
    pub resume: bool,
    /// For tests: stop with an error after this level, as if interrupted.
    pub stop_after_level: Option<usize>,
}

impl TwoSidedRun {
    /// The state file of a run writing to `scratch`.
    pub fn state_path(scratch: &Path) -> PathBuf {
        scratch.with_extension("state")
    }

    pub(super) fn bucket_path(&self, k: usize) -> PathBuf {
        self.scratch.with_extension(format!("bucket{k}"))
    }
}
