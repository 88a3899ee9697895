//! The rollout job: every position of an input file rolled out (or labelled by the
//! net's own lookahead, [`Labels::Search`]) on worker threads, each result journalled
//! as it arrives (so that a rerun resumes), then the dataset written in input order.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use evaluator::engine::EngineFiles;
use evaluator::search::Lookahead;
use fileio::Existing;
use rayon::prelude::*;
use serde_json::json;

use super::{describe_files, pool, positions_digest, read_positions, JobError, Progress};
use crate::format::{self, Format, Sample};
use crate::journal::RolloutJournal;
use crate::shard::{Manifest, Shard};
use crate::{Roller, RolloutSettings};

/// What to roll out, how, and where to.
#[derive(Clone, Debug)]
pub struct RolloutJob {
    /// The evaluator's files.
    pub engine: EngineFiles,
    /// Positions: a CSV file with a `position_id` column, or any dataset file.
    pub input: PathBuf,
    /// The dataset written (its journal is `OUTPUT.partial`).
    pub output: PathBuf,
    /// The output's format (default: from its extension).
    pub format: Option<Format>,
    /// How each position gets its values.
    pub labels: Labels,
    /// Evaluate move lists incrementally ([`evaluator::Evaluator::with_incremental`]).
    pub incremental: bool,
    /// The part of the input to roll out.
    pub shard: Shard,
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Discard an earlier run's partial results instead of resuming.
    pub fresh: bool,
    /// Whether the finished output may replace a file at its name (`--force`), or
    /// keeps one that appeared there while the job ran (the job then fails and its
    /// results stay in the journal, for a rerun with `--force`).
    pub existing: Existing,
    /// Start no position after this time: the output holds the positions rolled out
    /// (in input order), [`RolloutSummary::left`] says how many were not.
    pub deadline: Option<Instant>,
}

/// One position's values, their standard errors (rollouts) and the trials behind them.
type Label = ([f32; 5], Option<[f32; 5]>, u32);

/// How a job gets each position's five probabilities.
#[derive(Clone, Debug, PartialEq)]
pub enum Labels {
    /// Cubeless rollouts with these settings (values with standard errors).
    Rollout(RolloutSettings),
    /// The weights' own evaluation searched `plies` deep (gnubg's lookahead: every
    /// roll, each side's best move at 0 ply, pruned by the pruning nets when `prune`):
    /// search-bootstrapped labels, no standard errors, 0 trials.
    Search {
        /// Plies of lookahead (1 or more).
        plies: u32,
        /// Let the pruning nets preselect each roll's candidates.
        prune: bool,
    },
}

/// What a finished rollout job did.
#[derive(Clone, Debug, PartialEq)]
pub struct RolloutSummary {
    /// Positions of the shard written.
    pub positions: usize,
    /// Positions of the shard left out because the deadline came first.
    pub left: usize,
    /// Of those, rolled out by this run (the others came from the journal).
    pub new: usize,
    /// Trials played by this run (0 for search labels).
    pub trials: u64,
    /// Seconds this run took.
    pub seconds: f64,
}

/// Runs the job: rolls out the shard's positions not yet in the journal, then writes
/// the output and removes the journal. `progress` counts positions.
pub fn run(job: &RolloutJob, progress: &mut dyn Progress) -> Result<RolloutSummary, JobError> {
    let out_format = Format::for_output(&job.output, job.format, "--format")?;
    let input = read_positions(&job.input)?;
    // Measured: at 0 ply the cache costs more than it saves (few positions repeat);
    // lookahead from the positions of self-play games meets many positions again. Search
    // labels: a table of 2^16 entries (3 MB, in the L3 cache) is 20 % faster at 1 ply
    // than one of 2^20 (whose lookups miss into memory) and than none, and no slower at 2.
    let cache_bits = match &job.labels {
        Labels::Rollout(r) if r.plies == 0 => 0,
        Labels::Search { .. } => 16,
        Labels::Rollout(_) => 20,
    };
    let ev = job
        .engine
        .evaluator(None)?
        .with_cache(cache_bits)
        .with_incremental(job.incremental);
    // What labels each position: a roller, or the search (checked once, here).
    enum Source<'a> {
        Roll(Roller<'a>),
        Search(u32, Lookahead),
    }
    let source = match &job.labels {
        Labels::Rollout(settings) => Source::Roll(Roller::new(&ev, settings.clone())?),
        Labels::Search { plies: 0, .. } => {
            return Err(JobError::Invalid("search labels need at least 1 ply".into()));
        }
        Labels::Search { plies, prune } => Source::Search(*plies, Lookahead { prune: *prune }),
    };
    let trials_each = match &source {
        Source::Roll(roller) => u64::from(roller.settings().trials),
        Source::Search(..) => 0,
    };
    let label = |pos: &board::Position| -> Result<Label, evaluator::eval::EvalError> {
        match &source {
            Source::Search(plies, look) => {
                // Clamped as rollout means are: 1 − p can put a value a hair below 0,
                // which datasets refuse.
                let probs = ev.evaluate_plied(pos, *plies, *look)?;
                Ok((probs.map(|p| p.clamp(0.0, 1.0)), None, 0))
            }
            Source::Roll(roller) => {
                let r = roller.rollout(pos)?;
                let (probs, se) = r.probabilities();
                Ok((probs, Some(se), r.trials))
            }
        }
    };
    let shard = job.shard;
    let mine: Vec<usize> = (0..input.len()).filter(|&i| shard.contains(i)).collect();
    let mut description = match &job.labels {
        Labels::Rollout(settings) => json!({ "settings": settings }),
        // Its own key, so that a rollout's journal never resumes a search's.
        Labels::Search { plies, prune } => json!({ "search": { "plies": plies, "prune": prune } }),
    };
    description["shard"] = json!(shard.to_string());
    description["input_rows"] = json!(input.len());
    description["input_digest"] = json!(positions_digest(&input));
    description["engine"] = describe_files(&job.engine)?;
    if job.incremental {
        // Only when on, so that partial files of exact rollouts still resume.
        description["incremental"] = json!(true);
    }
    let (mut journal, mut done) = RolloutJournal::open(&job.output, &description, &input, job.fresh)?;
    let pending: Vec<usize> = mine.iter().copied().filter(|&i| done[i].is_none()).collect();
    if pending.len() < mine.len() {
        progress.note(&format!(
            "resuming: {} of {} positions already {}",
            mine.len() - pending.len(),
            mine.len(),
            if trials_each > 0 { "rolled out" } else { "labelled" }
        ));
    }
    let pool = pool(job.threads)?;
    let mut finished = (mine.len() - pending.len()) as u64;
    let resumed = finished;
    progress.start(mine.len() as u64, finished);
    let started = Instant::now();
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel();
    let mut trials_done = 0u64;
    let outcome: Result<(), JobError> = std::thread::scope(|scope| {
        let workers = scope.spawn(|| {
            pool.install(|| {
                pending
                    .par_iter()
                    .with_max_len(1)
                    .try_for_each_with(tx, |tx, &i| {
                        if stop.load(Ordering::Relaxed) || job.deadline.is_some_and(|d| Instant::now() >= d) {
                            return Err(());
                        }
                        let r = label(&input[i]);
                        let failed = r.is_err();
                        let _ = tx.send((i, r));
                        if failed {
                            stop.store(true, Ordering::Relaxed);
                            return Err(());
                        }
                        Ok(())
                    })
            })
        });
        let mut first_error = None;
        for (i, r) in rx {
            if first_error.is_some() {
                continue;
            }
            let appended = r.map_err(JobError::from).and_then(|(probs, se, trials)| {
                let s = Sample {
                    position: input[i],
                    probs,
                    se,
                    trials,
                };
                journal.append(i, &s)?;
                done[i] = Some(s);
                Ok(())
            });
            match appended {
                Ok(()) => {
                    trials_done += trials_each;
                    finished += 1;
                    let secs = started.elapsed().as_secs_f64().max(1e-9);
                    let rate = if trials_each > 0 {
                        format!("{:.0} trials/s", trials_done as f64 / secs)
                    } else {
                        format!("{:.0} positions/s", (finished - resumed) as f64 / secs)
                    };
                    progress.update(finished, Some(rate));
                }
                Err(e) => {
                    stop.store(true, Ordering::Relaxed);
                    first_error = Some(JobError::At {
                        context: format!("position {} (input row {})", input[i].position_id(), i + 2),
                        source: Box::new(e),
                    });
                }
            }
        }
        let _ = workers.join();
        first_error.map_or(Ok(()), Err)
    });
    progress.finish();
    outcome?;
    let samples: Vec<Sample> = mine.iter().filter_map(|&i| done[i]).collect();
    if job.deadline.is_none() {
        assert_eq!(samples.len(), mine.len(), "every position of the shard is done");
    }
    if shard != Shard::ALL {
        // Before the output: a rerun after a kill between the two writes both again.
        Manifest::new("rollout", shard, &description, samples.len()).write(&job.output)?;
    }
    format::write_with(&job.output, out_format, &samples, job.existing)
        .map_err(|e| crate::journal::kept_in_journal(&job.output, e))?;
    journal.remove()?;
    let left = mine.len() - samples.len();
    Ok(RolloutSummary {
        positions: samples.len(),
        left,
        new: pending.len() - left,
        trials: trials_done,
        seconds: started.elapsed().as_secs_f64(),
    })
}
