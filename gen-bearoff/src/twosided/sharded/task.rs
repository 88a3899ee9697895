//! One task of a sharded build: shard `K/N` of level `s`, computed from the parts of the
//! (up to) 24 levels below, mapped read-only, with the generator's own record loop
//! (`compute_chunk`), and written as one part.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

use rayon::prelude::*;

use super::super::level_loop::{compute_chunk, CHUNK};
use super::super::plan::{check_params, Layout, WINDOW};
use super::super::successors::Successors;
use super::part::{level_split, list_parts, open_level, part_name, refuse_other_split, write_part, Part};
use super::slice::{slice_of, Shard};
use super::work::WorkPlan;
use crate::error::BearoffError;

/// What a task did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShardOutcome {
    /// Computed and wrote its part (records computed).
    Computed {
        /// The part file.
        path: PathBuf,
        /// Records in it.
        records: u64,
    },
    /// Its part was already there (a finished part is not recomputed).
    AlreadyDone {
        /// The part file.
        path: PathBuf,
    },
}

/// Records in level `s`'s slice for `shard` (for a progress bar's length).
pub fn shard_records(plan: &WorkPlan, level: usize, shard: Shard) -> Result<u64, BearoffError> {
    let layout = layout_of(plan)?;
    check_level(plan, level)?;
    let slice = slice_of(&layout, level, shard);
    Ok(slice.end - slice.first)
}

fn layout_of(plan: &WorkPlan) -> Result<Layout, BearoffError> {
    let index = check_params(plan.params)?;
    Ok(Layout::new(index, if plan.params.cubeful { 4 } else { 1 }))
}

fn check_level(plan: &WorkPlan, level: usize) -> Result<(), BearoffError> {
    if level >= plan.levels {
        return Err(BearoffError::InvalidParameters(format!(
            "level {level} is out of range: {} has levels 0 to {}",
            plan.describe(),
            plan.levels - 1
        )));
    }
    Ok(())
}

/// Runs task `shard` of level `level` in work directory `dir` (whose plan is `plan`):
/// checks the levels below are complete, computes the slice and writes its part.
/// `progress(records done)`.
pub fn run_shard(
    dir: &Path,
    plan: &WorkPlan,
    level: usize,
    shard: Shard,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<ShardOutcome, BearoffError> {
    ShardBuilder::new(dir, plan)?.run(level, shard, progress)
}

/// What every shard of one build needs, made once per process: the layout and the
/// successor tables (built when the first shard is computed).
pub struct ShardBuilder<'a> {
    dir: &'a Path,
    plan: WorkPlan,
    layout: Layout,
    succ: OnceLock<Successors>,
}

impl<'a> ShardBuilder<'a> {
    /// The builder of the plan `plan` of work directory `dir`.
    pub fn new(dir: &'a Path, plan: &WorkPlan) -> Result<ShardBuilder<'a>, BearoffError> {
        Ok(ShardBuilder {
            dir,
            plan: *plan,
            layout: layout_of(plan)?,
            succ: OnceLock::new(),
        })
    }

    /// The path of `shard`'s part of `level`.
    pub fn part_path(&self, level: usize, shard: Shard) -> PathBuf {
        self.dir.join(part_name(level, shard))
    }

    /// Records in `level`'s slice for `shard`.
    pub fn records(&self, level: usize, shard: Shard) -> u64 {
        let slice = slice_of(&self.layout, level, shard);
        slice.end - slice.first
    }

    /// Computes `shard` of `level` and writes its part (a finished part is checked and
    /// kept). `progress(records done)`.
    pub fn run(
        &self,
        level: usize,
        shard: Shard,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<ShardOutcome, BearoffError> {
        let (dir, plan, layout) = (self.dir, &self.plan, &self.layout);
        check_level(plan, level)?;
        let listing = list_parts(dir)?;
        let slice = slice_of(layout, level, shard);
        let path = self.part_path(level, shard);
        refuse_other_split(dir, &listing, level, shard.n, |_| {
            "finish the first split, or delete its parts".into()
        })?;
        if listing
            .get(&level)
            .is_some_and(|parts| parts.contains_key(&shard))
        {
            // Finished before (a part only appears complete): check it, do not redo it.
            Part::open(&path, plan, level, shard, &slice)?;
            return Ok(ShardOutcome::AlreadyDone { path });
        }
        let first = level.saturating_sub(WINDOW);
        for s in first..level {
            level_split(dir, &listing, s)?;
        }
        let window: VecDeque<_> = (first..level)
            .map(|s| open_level(layout, plan, dir, &listing, s))
            .collect::<Result<_, _>>()?;
        let succ = match self.succ.get() {
            Some(succ) => succ,
            None => {
                let built = Successors::build(&layout.index, &layout.levels)?;
                self.succ.get_or_init(|| built)
            }
        };
        let planes = layout.planes;
        let levels = &layout.levels;
        let mut cur = vec![0i16; (slice.end - slice.first) as usize * planes];
        {
            // Split the slice into (block, row chunk) tasks, as the level loop does.
            let mut tasks = Vec::new();
            let mut rest: &mut [i16] = &mut cur;
            for r in &slice.rows {
                let nx = levels.len_of(r.x);
                let (block, tail) = rest.split_at_mut((r.ry1 - r.ry0) * nx * planes);
                rest = tail;
                for (c, chunk) in block.chunks_mut(CHUNK * nx * planes).enumerate() {
                    tasks.push((r.x, r.y, r.ry0 + c * CHUNK, chunk));
                }
            }
            let done = AtomicU64::new(0);
            tasks.into_par_iter().for_each(|(x, y, y0, chunk)| {
                compute_chunk(layout, succ, &window, level, x, y, y0, chunk);
                let d = done.fetch_add((chunk.len() / planes) as u64, Ordering::Relaxed);
                progress(d + (chunk.len() / planes) as u64);
            });
        }
        let path = write_part(dir, plan, level, shard, &slice, &cur)?;
        Ok(ShardOutcome::Computed {
            path,
            records: slice.end - slice.first,
        })
    }
}
