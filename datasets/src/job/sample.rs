//! The sampling job: self-play games in chunks on worker threads, the new positions of
//! each chunk journalled (so that a rerun resumes), then the positions written as CSV.

use std::collections::HashSet;
use std::path::PathBuf;
use std::time::Instant;

use board::Position;
use evaluator::engine::EngineFiles;
use fileio::Existing;
use serde_json::json;

use super::{describe_files, file_digest, pool, JobError, Progress};
use crate::format::write_text;
use crate::journal::ChunkJournal;
use crate::sample::{Referee, SampleSettings, Sampler};
use crate::shard::{Manifest, Shard};

/// Games played between checkpoints.
const CHUNK_GAMES: u64 = 256;

/// Which positions to sample, and where to.
#[derive(Clone, Debug)]
pub struct SampleJob {
    /// The evaluator's files.
    pub engine: EngineFiles,
    /// The CSV file written (`position_id` column; its journal is `OUTPUT.partial`).
    pub output: PathBuf,
    /// Self-play games.
    pub games: u64,
    /// The games played here: shard `K/N` plays the K-th of N contiguous blocks of the
    /// games (its parts, joined in shard order by `datasets merge` keeping each
    /// position's first occurrence, are the whole run's file).
    pub shard: Shard,
    /// Seed, noise, random moves and classes kept.
    pub settings: SampleSettings,
    /// Keep only positions where the evaluator at 0 ply and at this many plies
    /// disagree by more than `threshold`.
    pub disagree_plies: Option<u32>,
    /// Keep only positions where these weights and the engine's (both at 0 ply)
    /// disagree by more than `threshold` (not with `disagree_plies`).
    pub disagree_weights: Option<PathBuf>,
    /// The disagreement threshold, in cubeless money equity.
    pub threshold: f32,
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Discard an earlier run's partial results instead of resuming.
    pub fresh: bool,
    /// Whether the finished output may replace a file at its name (`--force`), or
    /// keeps one that appeared there while the job ran (the job then fails and its
    /// results stay in the journal, for a rerun with `--force`).
    pub existing: Existing,
    /// Stop after the chunk of games in progress at this time (at least one chunk is
    /// played): the output holds the positions of the games played (whole chunks of
    /// 256, so the first games of the whole run's file).
    pub deadline: Option<Instant>,
}

/// What a finished sampling job did.
#[derive(Clone, Debug, PartialEq)]
pub struct SampleSummary {
    /// Games played (this run and the resumed one; the shard's games unless stopped by
    /// the deadline).
    pub games: u64,
    /// Games not played because the deadline came first.
    pub left: u64,
    /// Positions kept and written.
    pub positions: usize,
    /// Seconds this run took.
    pub seconds: f64,
}

/// Runs the job: plays the games not yet journalled, then writes the output and
/// removes the journal. `progress` counts games.
pub fn run(job: &SampleJob, progress: &mut dyn Progress) -> Result<SampleSummary, JobError> {
    let ev = job
        .engine
        .evaluator(None)?
        .with_cache(if job.disagree_plies.is_some() { 18 } else { 0 });
    let other = job
        .disagree_weights
        .as_deref()
        .map(|w| job.engine.evaluator(Some(w)))
        .transpose()?;
    let referee = match (job.disagree_plies, &other) {
        (Some(n), _) => Some((Referee::Plies(n), job.threshold)),
        (None, Some(o)) => Some((Referee::Other(o), job.threshold)),
        _ => None,
    };
    let mut engine = describe_files(&job.engine)?;
    if let Some(w) = &job.disagree_weights {
        engine["disagree_weights"] = json!({ "path": w.display().to_string(), "digest": file_digest(w)? });
    }
    let mut description = json!({
        "settings": job.settings,
        "games": job.games,
        "disagree_plies": job.disagree_plies,
        "threshold": referee.as_ref().map(|_| job.threshold),
        "engine": engine,
        "chunk_games": CHUNK_GAMES,
    });
    let games = job.shard.block(job.games);
    if job.shard != Shard::ALL {
        // Only when sharded, so that partial files of whole runs still resume.
        description["shard"] = json!(job.shard.to_string());
    }
    let sampler = Sampler::new(&ev, job.settings.clone(), referee);
    let (mut journal, lines, chunks_done) = ChunkJournal::open(&job.output, &description, job.fresh)?;
    let mut kept: Vec<String> = lines;
    let mut seen: HashSet<[u8; 10]> = HashSet::new();
    for id in &kept {
        let p = Position::from_id(id).map_err(|e| {
            JobError::Invalid(format!("{}.partial: bad line '{id}': {e}", job.output.display()))
        })?;
        seen.insert(p.key());
    }
    let pool = pool(job.threads)?;
    let mut next = (games.start + chunks_done * CHUNK_GAMES).min(games.end);
    if next > games.start {
        progress.note(&format!(
            "resuming after {} games ({} positions kept)",
            next - games.start,
            kept.len()
        ));
    }
    progress.start(games.end - games.start, next - games.start);
    let started = Instant::now();
    let outcome = (|| -> Result<(), JobError> {
        while next < games.end {
            let end = (next + CHUNK_GAMES).min(games.end);
            let fresh: Vec<Position> = pool.install(|| -> Result<Vec<Position>, JobError> {
                let played = sampler.play_games(next..end)?;
                let mut new = Vec::new();
                for p in played {
                    if seen.insert(p.key()) {
                        new.push(p);
                    }
                }
                Ok(sampler.disagreeing(new)?)
            })?;
            let ids: Vec<String> = fresh.iter().map(Position::position_id).collect();
            journal.append_chunk(&ids)?;
            kept.extend(ids);
            next = end;
            progress.update(next - games.start, Some(format!("{} positions", kept.len())));
            if job.deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
        }
        Ok(())
    })();
    progress.finish();
    outcome?;
    if job.shard != Shard::ALL {
        Manifest::new("sample", job.shard, &description, kept.len()).write(&job.output)?;
    }
    write_text(&job.output, job.existing, |w| {
        writeln!(w, "position_id")?;
        for id in &kept {
            writeln!(w, "{id}")?;
        }
        Ok(())
    })
    .map_err(|e| crate::journal::kept_in_journal(&job.output, e))?;
    journal.remove()?;
    Ok(SampleSummary {
        games: next - games.start,
        left: games.end - next,
        positions: kept.len(),
        seconds: started.elapsed().as_secs_f64(),
    })
}
