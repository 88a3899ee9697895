//! What `rollout` and `label` share: the flags of a job over an input file of
//! positions, the job they build and the common part of their `--json` summaries.

use std::path::PathBuf;

use anyhow::Result;
use cli_support::thread_count;
use datasets::format::Format;
use datasets::job::rollout::{Labels, RolloutJob, RolloutSummary};
use datasets::shard::Shard;
use fileio::Existing;
use serde_json::{json, Value};

use super::{engine_files_for, format_name, EngineArgs, FormatArg, JobArgs};

/// The flags of a job that gives every position of an input file its values.
#[derive(clap::Args)]
pub struct PositionsArgs {
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Positions: CSV with a position_id column, or a dataset file.
    #[arg(long, value_parser = cli_support::args::input_file())]
    pub input: PathBuf,
    /// Output file (.csv, .nn/.dat/.txt for gnubg-nn text, .bgds/.bin for binary).
    #[arg(short, long)]
    pub output: PathBuf,
    /// Output format (default: from the output's extension).
    #[arg(long, value_enum)]
    pub format: Option<FormatArg>,
    /// Do only shard K of N of the input (rows i with i % N == K-1); join the parts
    /// with `datasets merge`.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// Stop after this many minutes of this session (no position is started after it:
    /// the output holds the positions done, in input order), and the summary says what
    /// was left out. Not with --shard (a merge needs whole shards).
    #[arg(long, value_name = "M", conflicts_with = "shard")]
    pub minutes: Option<f64>,
    /// Print a summary of the run as JSON on stdout at the end (the output file is the
    /// same).
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub job: JobArgs,
}

impl PositionsArgs {
    /// The job these flags describe, after the checks every command makes (outputs,
    /// threads, `--minutes`).
    pub fn job(&self, labels: Labels, incremental: bool) -> Result<RolloutJob> {
        let engine = engine_files_for(&self.engine, &self.output, &[&self.input], self.job.force)?;
        Ok(RolloutJob {
            engine,
            input: self.input.clone(),
            output: self.output.clone(),
            format: self.format.map(Format::from),
            labels,
            incremental,
            shard: self.shard.unwrap_or(Shard::ALL),
            threads: thread_count(self.job.threads)?,
            fresh: self.job.fresh,
            existing: Existing::replace_if(self.job.force),
            deadline: cli_support::args::deadline(self.minutes)?,
        })
    }
}

/// The fields every `--json` summary of such a job has.
pub fn summary(job: &RolloutJob, done: &RolloutSummary) -> Result<Value> {
    Ok(json!({
        "output": job.output.display().to_string(),
        "format": format_name(Format::for_output(&job.output, job.format, "--format")?),
        "input": job.input.display().to_string(),
        "shard": job.shard.to_string(),
        "positions": done.positions,
        "new": done.new,
        "left": done.left,
        "resumed": done.positions - done.new,
        "threads": job.threads,
        "seconds": done.seconds,
    }))
}

/// What `--minutes` left out, for the summary line (nothing when the job finished).
pub fn stopped(done: &RolloutSummary) -> String {
    super::stopped_note(
        done.left as u64,
        (done.positions + done.left) as u64,
        "positions left out",
    )
}
