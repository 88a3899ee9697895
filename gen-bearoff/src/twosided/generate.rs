//! Two-sided generation, reproducing gnubg's `makebearoff -t` value for value, in
//! bounded memory.
//!
//! The values of a record are [`super::record`]'s.
//!
//! # Order and memory
//! Every move lowers the mover's pip count, so a record whose two sides have pip counts
//! summing to `s` depends only on records with sums `s - 24 .. s - 1`. Records are
//! computed one pip-sum *level* at a time (in parallel within a level), and only the last
//! 24 levels stay in memory: the **window**. Inside a level, records are stored in blocks
//! by the pair of pip counts, so a record's successors for a run of consecutive opponent
//! positions are contiguous.
//!
//! The output is row-major (`us * n + them`). Finished levels are scattered straight into
//! an in-memory output buffer when it fits the memory limit; otherwise the rows are cut
//! into **bands**, each level's records are appended to one temporary bucket file per
//! band, and at the end each band is assembled in memory and written in order. Memory is
//! then bounded by `window + one band + tables`, and temporary disk by the database size.
//! Long runs ([`LONG_RUN`] records and more) use bucket files even when everything would
//! fit in memory, because they make the run resumable.
//!
//! # Resuming
//! With bucket files, after every level the buckets are flushed and a small state file
//! (`FILE.state`, next to the buckets `FILE.bucketK`) records the last finished level and
//! the buckets' lengths. An interrupted run continues with `resume`: the buckets are cut
//! back to the recorded lengths, the window (the last 24 levels) is read back from them,
//! and generation goes on from the next level. The result is the same file as an
//! uninterrupted run's (tested). A run that would fit in memory resumes in bucket mode
//! too; without `resume` a leftover state file is an error, whatever the plan.

use std::collections::VecDeque;
use std::io::Write;

use super::assembly::{open_buckets, read_window, write_output, Sink};
use super::level_loop::run_levels;
use super::plan::{check_params, plan_for, Layout};
use super::state::State;
use super::successors::Successors;
use crate::error::BearoffError;
use crate::format::header::TwoSidedParams;

// What was defined here before generation was split by concept, at its old paths.
pub use super::plan::{plan, TwoSidedPlan, TwoSidedRun, LONG_RUN};
pub use super::record::{compute_record, EQUITY_M1, EQUITY_P1};

/// Generates a two-sided database and writes its data (after `header`, if any) to `out`.
/// `progress(done_records)`.
pub fn generate_two_sided(
    params: TwoSidedParams,
    run: &TwoSidedRun,
    header: Option<[u8; 40]>,
    out: &mut dyn Write,
    on_plan: &dyn Fn(&TwoSidedPlan),
    progress: &(dyn Fn(u64) + Sync),
) -> Result<TwoSidedPlan, BearoffError> {
    let index = check_params(params)?;
    let planes = if params.cubeful { 4 } else { 1 };
    let layout = Layout::new(index, planes);
    let mut plan = plan_for(&layout, params, run.memory_limit, run.band_limit)?;
    let state_path = TwoSidedRun::state_path(&run.scratch);
    // A leftover state file is resumed or refused, whatever this run's plan: a run that
    // would fit in memory now (a larger memory limit) resumes in bucket mode with the
    // interrupted run's bands, so that its bucket files are used and then removed.
    let resumed = if state_path.exists() {
        if !run.resume {
            return Err(BearoffError::InvalidParameters(format!(
                "{} is left from an interrupted run: pass --resume to continue it, or delete it and the bucket files next to it",
                state_path.display()
            )));
        }
        let state = State::read(&state_path)?;
        state.check(&state_path, &plan)?;
        // Keep the interrupted run's bands.
        let row_bytes = plan.n * 2 * planes as u64;
        plan.in_memory = false;
        plan.bands = state.bands.clone();
        plan.band_bytes = plan
            .bands
            .iter()
            .map(|&(a, b)| (b - a) * row_bytes)
            .max()
            .unwrap_or(0);
        Some(state)
    } else {
        None
    };
    on_plan(&plan);
    let succ = Successors::build(&index, &layout.levels)?;
    let n = plan.n;
    let mut first_level = 0;
    let mut window: VecDeque<Vec<i16>> = VecDeque::new();
    let mut sink = if plan.in_memory {
        Sink::Memory(vec![0u16; (n * n) as usize * planes])
    } else {
        let files = open_buckets(run, &plan, resumed.as_ref(), &state_path)?;
        if let Some(state) = &resumed {
            first_level = state.level + 1;
            window = read_window(&layout, &plan, run, state.level)?;
            progress(layout.level_records[..first_level].iter().sum());
        }
        Sink::Buckets(files)
    };
    run_levels(
        &layout,
        &succ,
        &plan,
        run,
        &mut sink,
        first_level,
        window,
        progress,
    )?;
    write_output(&layout, &plan, &mut sink, header, out, &run.scratch, &state_path)?;
    Ok(plan)
}
