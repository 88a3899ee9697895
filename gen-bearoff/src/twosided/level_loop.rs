//! The level loop: records computed one pip-sum level at a time, in parallel within a
//! level, from the window of the last 24 levels; after each level its records go to the
//! sink and, in bucket mode, the state file is updated.

use std::collections::VecDeque;
use std::io::Write;

use rayon::prelude::*;

use super::assembly::{append_level, scatter_level, Sink};
use super::plan::{Layout, TwoSidedPlan, TwoSidedRun, WINDOW};
use super::record::{cube_equity, EQUITY_M1, EQUITY_P1};
use super::state::State;
use super::successors::Successors;
use crate::error::BearoffError;
use crate::movegen::ROLLS;

/// Chunk of consecutive opponent positions computed together.
pub(super) const CHUNK: usize = 64;

#[allow(clippy::too_many_arguments)]
pub(super) fn run_levels(
    layout: &Layout,
    succ: &Successors,
    plan: &TwoSidedPlan,
    run: &TwoSidedRun,
    sink: &mut Sink,
    first_level: usize,
    mut window: VecDeque<Vec<i16>>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<(), BearoffError> {
    let planes = layout.planes;
    let max_pip = layout.max_pip;
    let levels = &layout.levels;
    let mut done: u64 = layout.level_records[..first_level].iter().sum();
    let state_path = TwoSidedRun::state_path(&run.scratch);
    for s in first_level..=2 * max_pip {
        let (lo, hi) = Layout::x_range(max_pip, s);
        let mut cur = vec![0i16; layout.level_records[s] as usize * planes];
        {
            // Split the level into (block, row chunk) tasks.
            let mut tasks = Vec::new();
            let mut rest: &mut [i16] = &mut cur;
            for x in lo..=hi {
                let y = s - x;
                let (nx, ny) = (levels.len_of(x), levels.len_of(y));
                let (block, tail) = rest.split_at_mut(nx * ny * planes);
                rest = tail;
                if nx == 0 || ny == 0 {
                    continue;
                }
                for (c, chunk) in block.chunks_mut(CHUNK * nx * planes).enumerate() {
                    tasks.push((x, y, c * CHUNK, chunk));
                }
            }
            let win = &window;
            tasks.into_par_iter().for_each(|(x, y, y0, chunk)| {
                compute_chunk(layout, succ, win, s, x, y, y0, chunk);
            });
        }
        match sink {
            Sink::Memory(buf) => scatter_level(layout, s, &cur, plan.n, buf),
            Sink::Buckets(files) => {
                append_level(layout, plan, s, &cur, files)?;
                let mut lengths = Vec::with_capacity(files.len());
                for (p, w) in files.iter_mut() {
                    w.flush().map_err(|e| BearoffError::io(p, "cannot write", e))?;
                    let len = w
                        .get_ref()
                        .metadata()
                        .map_err(|e| BearoffError::io(p, "cannot stat", e))?
                        .len();
                    lengths.push(len);
                }
                let p = plan.params;
                State {
                    points: p.points,
                    checkers: p.checkers,
                    cubeful: p.cubeful,
                    bands: plan.bands.clone(),
                    level: s,
                    buckets: lengths,
                }
                .write(&state_path)?;
            }
        }
        done += layout.level_records[s];
        progress(done);
        window.push_back(cur);
        if window.len() > WINDOW {
            window.pop_front();
        }
        if run.stop_after_level == Some(s) {
            return Err(BearoffError::InvalidParameters(format!(
                "stopped after level {s} as asked (continue with --resume)"
            )));
        }
    }
    Ok(())
}

/// A finished level as the level loop reads it: its values in the level's layout (blocks
/// by pip pair; in a block, per opponent rank, `planes` runs of roller values). In memory
/// one vector; in a sharded build the level's parts, each a memory-mapped run of whole
/// rows.
pub(super) trait LevelData: Sync {
    /// The `len` values at value offset `at`; a range inside one row (one opponent rank
    /// of a block: `planes × roller positions` values) always lies in one piece.
    fn values(&self, at: usize, len: usize) -> &[i16];
}

impl LevelData for Vec<i16> {
    #[inline]
    fn values(&self, at: usize, len: usize) -> &[i16] {
        &self[at..at + len]
    }
}

/// Computes rows `y0 ..` (opponent ranks) of block (x, y) of level s into `out`, from the
/// window of the levels before s (the last one is s − 1).
#[allow(clippy::too_many_arguments)]
pub(super) fn compute_chunk<L: LevelData>(
    layout: &Layout,
    succ: &Successors,
    window: &VecDeque<L>,
    s: usize,
    x: usize,
    y: usize,
    y0: usize,
    out: &mut [i16],
) {
    let planes = layout.planes;
    let levels = &layout.levels;
    let nx = levels.len_of(x);
    let ny = levels.len_of(y);
    let rows = out.len() / (nx * planes);
    let xs = levels.level(x);
    // out[(row * planes + q) * nx + rx]
    if x == 0 {
        out.fill(EQUITY_P1);
        return;
    }
    if y == 0 {
        out.fill(EQUITY_M1);
        return;
    }
    // Level holding successor records (b, j) with pip(b) = y, pip(j) = x - dp:
    // level y + x - dp = s - dp, which is window[len - dp].
    let wlen = window.len();
    // For each pip drop dp: the level s - dp (window[len - dp]) and the start of its
    // block (y, x - dp), whose rows (by successor rank) hold `planes` runs of ny values.
    let mut bases: [(Option<&L>, usize); WINDOW + 1] = [(None, 0); WINDOW + 1];
    for (dp, base) in bases.iter_mut().enumerate().take(WINDOW.min(x) + 1).skip(1) {
        let lvl = s - dp;
        let (lo, _) = Layout::x_range(layout.max_pip, lvl);
        *base = (
            Some(&window[wlen - dp]),
            layout.block_start[lvl][y - lo] as usize * planes,
        );
    }
    let stride = ny;
    let mut best = [[0i32; CHUNK]; 4];
    let mut total = [[0i32; CHUNK]; 4];
    let cubeful = planes == 4;
    for (rx, &a) in xs.iter().enumerate() {
        for t in total.iter_mut() {
            t[..rows].fill(0);
        }
        for (r, &(_, _, w)) in ROLLS.iter().enumerate() {
            for b in best.iter_mut() {
                b[..rows].fill(i32::MIN);
            }
            for &e in succ.of(a as usize, r) {
                let dp = (e >> 24) as usize;
                let rj = (e & 0xFF_FFFF) as usize;
                let (level, start) = bases[dp];
                let data = level
                    .expect("a successor's level is in the window")
                    .values(start + rj * planes * stride, planes * stride);
                let p0 = &data[y0..y0 + rows];
                if cubeful {
                    let p1 = &data[stride + y0..stride + y0 + rows];
                    let p2 = &data[2 * stride + y0..2 * stride + y0 + rows];
                    let p3 = &data[3 * stride + y0..3 * stride + y0 + rows];
                    let [b0, b1, b2, b3] = &mut best;
                    for k in 0..rows {
                        let (v0, v1, v2, v3) = (
                            i32::from(p0[k]),
                            i32::from(p1[k]),
                            i32::from(p2[k]),
                            i32::from(p3[k]),
                        );
                        b0[k] = b0[k].max(!v0);
                        b1[k] = b1[k].max(!v3);
                        b2[k] = b2[k].max(!cube_equity(v2, v3));
                        b3[k] = b3[k].max(!cube_equity(v1, v3));
                    }
                } else {
                    let b0 = &mut best[0];
                    for k in 0..rows {
                        b0[k] = b0[k].max(!i32::from(p0[k]));
                    }
                }
            }
            for q in 0..planes {
                for k in 0..rows {
                    total[q][k] += w as i32 * best[q][k];
                }
            }
        }
        for q in 0..planes {
            for k in 0..rows {
                out[(k * planes + q) * nx + rx] = (total[q][k] / 36) as i16;
            }
        }
    }
}
