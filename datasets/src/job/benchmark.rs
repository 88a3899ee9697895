//! The benchmark build job: for each input position a seeded roll, the best candidate
//! moves and a rollout of each, in chunks on worker threads, journalled (so that a
//! rerun resumes), then the set written with its header ([`crate::benchmark::write`]).

use std::path::PathBuf;
use std::time::Instant;

use board::MoveGen;
use evaluator::engine::EngineFiles;
use fileio::Existing;
use rayon::prelude::*;
use serde_json::json;

use super::{describe_files, pool, positions_digest, read_positions, JobError, Progress};
use crate::benchmark::{self, BuildSettings};
use crate::class::{dataset_class, parse_classes};
use crate::journal::ChunkJournal;
use crate::shard::{Manifest, Shard};
use crate::{Roller, RolloutSettings};

/// Input positions per checkpoint.
const CHUNK_POSITIONS: usize = 16;

/// Which benchmark set to build, and where to.
#[derive(Clone, Debug)]
pub struct BenchmarkJob {
    /// The evaluator's files (candidate selection and rollouts).
    pub engine: EngineFiles,
    /// Positions: a CSV file with a `position_id` column, or any dataset file.
    pub input: PathBuf,
    /// The JSON-lines file written (its journal is `OUTPUT.partial`).
    pub output: PathBuf,
    /// Candidates per position, the selection's plies, the rolls' seed.
    pub build: BuildSettings,
    /// The candidates' rollouts.
    pub rollout: RolloutSettings,
    /// Classes of positions kept, comma-separated (as `parse_classes` reads them).
    pub classes: String,
    /// Use at most this many input positions (the first ones of the wanted classes).
    pub max_positions: Option<usize>,
    /// The positions built here: shard `K/N` builds the K-th of N contiguous blocks of
    /// the positions kept (its parts, joined in shard order by `datasets merge`, are
    /// the whole set).
    pub shard: Shard,
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Discard an earlier run's partial results instead of resuming.
    pub fresh: bool,
    /// Whether the finished output may replace a file at its name (`--force`), or
    /// keeps one that appeared there while the job ran (the job then fails and its
    /// results stay in the journal, for a rerun with `--force`).
    pub existing: Existing,
    /// Stop after the chunk of 16 positions in progress at this time (at least one
    /// chunk is built): the set holds the entries of the positions done.
    pub deadline: Option<Instant>,
}

/// What a finished benchmark build did.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchmarkSummary {
    /// Input positions of the wanted classes used (of the shard).
    pub positions: usize,
    /// Positions of the shard left out because the deadline came first.
    pub left: usize,
    /// Of those, positions with a choice of moves (the set's entries).
    pub entries: usize,
    /// Seconds this run took.
    pub seconds: f64,
}

/// Runs the job: builds the entries not yet journalled, then writes the set and
/// removes the journal. `progress` counts input positions.
pub fn run(job: &BenchmarkJob, progress: &mut dyn Progress) -> Result<BenchmarkSummary, JobError> {
    let classes = parse_classes(&job.classes).map_err(JobError::Invalid)?;
    let all = read_positions(&job.input)?;
    let mut input: Vec<_> = all
        .iter()
        .copied()
        .filter(|p| classes.contains(&dataset_class(p)))
        .collect();
    if let Some(m) = job.max_positions {
        input.truncate(m);
    }
    if input.is_empty() {
        return Err(JobError::Invalid(format!(
            "{}: no positions of the classes {}",
            job.input.display(),
            job.classes
        )));
    }
    let cache_bits = if job.build.select_plies > 0 || job.rollout.plies > 0 {
        20
    } else {
        0
    };
    let ev = job.engine.evaluator(None)?.with_cache(cache_bits);
    let roller = Roller::new(&ev, job.rollout.clone())?;
    let settings = &job.build;
    let mut description = json!({
        "build": settings,
        "rollout": job.rollout,
        "classes": job.classes,
        "input_rows": input.len(),
        "input_digest": positions_digest(&input),
        "engine": describe_files(&job.engine)?,
        "chunk": CHUNK_POSITIONS,
    });
    let block = job.shard.block(input.len() as u64);
    let block = block.start as usize..block.end as usize;
    if job.shard != Shard::ALL {
        // Only when sharded, so that partial files of whole builds still resume.
        description["shard"] = json!(job.shard.to_string());
    }
    let (mut journal, mut lines, chunks_done) = ChunkJournal::open(&job.output, &description, job.fresh)?;
    let start = (block.start + chunks_done as usize * CHUNK_POSITIONS).min(block.end);
    let mine = block.len();
    if start > block.start {
        progress.note(&format!(
            "resuming: {} of {mine} positions done",
            start - block.start
        ));
    }
    let pool = pool(job.threads)?;
    progress.start(mine as u64, (start - block.start) as u64);
    let started = Instant::now();
    let mut at = start;
    let outcome = (|| -> Result<(), JobError> {
        while at < block.end {
            let end = (at + CHUNK_POSITIONS).min(block.end);
            let entries: Vec<Option<String>> = pool.install(|| {
                (at..end)
                    .into_par_iter()
                    .with_max_len(1)
                    .map_init(MoveGen::new, |gen, i| {
                        let dice = benchmark::dice_for(settings.dice_seed, i as u64);
                        benchmark::build_entry(&ev, &roller, gen, &input[i], dice, settings)
                            .map(|e| e.map(|e| benchmark::entry_line(&e)))
                            .map_err(|e| {
                                JobError::Invalid(format!(
                                    "position {} (row {}): {e}",
                                    input[i].position_id(),
                                    i + 1
                                ))
                            })
                    })
                    .collect::<Result<_, JobError>>()
            })?;
            let chunk: Vec<String> = entries.into_iter().flatten().collect();
            journal.append_chunk(&chunk)?;
            lines.extend(chunk);
            at = end;
            progress.update((at - block.start) as u64, None);
            if job.deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
        }
        Ok(())
    })();
    progress.finish();
    outcome?;
    let header = json!({
        "format": benchmark::FORMAT,
        "version": benchmark::VERSION,
        "candidates": settings.candidates,
        "select_plies": settings.select_plies,
        "dice_seed": settings.dice_seed,
        "rollout": job.rollout,
        "engine": describe_files(&job.engine)?,
        "input_rows": input.len(),
        "positions": lines.len(),
    });
    if job.shard != Shard::ALL {
        Manifest::new("benchmark", job.shard, &description, lines.len()).write(&job.output)?;
    }
    benchmark::write(&job.output, &header, &lines, job.existing)
        .map_err(|e| crate::journal::kept_in_journal(&job.output, e))?;
    journal.remove()?;
    Ok(BenchmarkSummary {
        positions: at - block.start,
        left: block.end - at,
        entries: lines.len(),
        seconds: started.elapsed().as_secs_f64(),
    })
}
