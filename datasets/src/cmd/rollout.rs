//! `datasets rollout`: cubeless rollouts of every input position, resumable (the job
//! itself is `datasets::job::rollout`).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use cli_support::thread_count;
use datasets::format::Format;
use datasets::job::rollout::{self, Labels, RolloutJob};
use datasets::shard::Shard;
use datasets::RolloutSettings;

use serde_json::json;

use super::{engine_files, format_name, note, print_json, Bar, EngineArgs, FormatArg, JobArgs};

/// Roll out positions: five cubeless probabilities and their standard errors each.
///
/// Reads a CSV file with a `position_id` column (or any dataset file) and writes, in
/// input order, `position_id,win,win_g,win_bg,lose_g,lose_bg,win_se,...,lose_bg_se`
/// (or the format of --format / the output's extension). Results are appended to
/// OUT.partial as they finish; rerun the same command to resume after an interruption.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    engine: EngineArgs,
    /// Positions to roll out: CSV with a position_id column, or a dataset file.
    #[arg(long)]
    input: PathBuf,
    /// Output file (.csv, .nn/.dat/.txt for gnubg-nn text, .bgds/.bin for binary).
    #[arg(short, long)]
    output: PathBuf,
    /// Output format (default: from the output's extension).
    #[arg(long, value_enum)]
    format: Option<FormatArg>,
    /// Trials (games) per position.
    #[arg(long, default_value_t = 1296)]
    trials: u32,
    /// Chequer play: 0 or 1 ply.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=1))]
    plies: u32,
    /// Stop each trial after N half-moves and use the 0-ply evaluation there.
    #[arg(long, value_name = "N")]
    truncate: Option<u32>,
    /// Seed: the same seed gives the same numbers, on any number of threads.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Turn off variance reduction (luck adjustment); about 20 times faster per trial,
    /// with a larger standard error.
    #[arg(long, alias = "no-vr")]
    no_variance_reduction: bool,
    /// Play bearoffs out instead of stopping at the two-sided database's exact values.
    #[arg(long)]
    no_bearoff_truncation: bool,
    /// Give each position its own dice (seed mixed with the position) instead of common
    /// random numbers, so that the errors of different positions are independent.
    #[arg(long)]
    position_seeds: bool,
    /// Evaluate each move list incrementally from its first position (as gnubg scores
    /// moves "from base"): 0-ply move choices and variance-reduction lookaheads, not
    /// the 1-ply search. About 3% faster, with 0-ply values within about 1e-4 of
    /// gnubg's instead of bit-identical; still the same numbers for the same seed.
    #[arg(long)]
    incremental: bool,
    /// Do only shard K of N of the input (rows i with i % N == K-1); join the parts
    /// with `datasets merge`.
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// Stop after this many minutes of this session (no position is started after it: the output holds
    /// the positions rolled out, in input order); the output
    /// holds what was done, and the summary says what was left out. Not with --shard
    /// (a merge needs whole shards).
    #[arg(long, value_name = "M", conflicts_with = "shard")]
    minutes: Option<f64>,
    /// Print a summary of the run as JSON on stdout at the end (the output file is the
    /// same).
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    job: JobArgs,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let mut inputs = args.engine.paths();
    inputs.push(&args.input);
    cli_support::outputs::check(&args.output, &inputs, args.job.force)?;
    let threads = thread_count(args.job.threads)?;
    let deadline = cli_support::args::deadline(args.minutes)?;
    let settings = RolloutSettings {
        trials: args.trials,
        plies: args.plies,
        truncate: args.truncate,
        seed: args.seed,
        variance_reduction: !args.no_variance_reduction,
        bearoff_truncation: !args.no_bearoff_truncation,
        position_seeds: args.position_seeds,
    };
    let job = RolloutJob {
        engine: engine_files(&args.engine)?,
        input: args.input,
        output: args.output,
        format: args.format.map(Format::from),
        labels: Labels::Rollout(settings.clone()),
        incremental: args.incremental,
        shard: args.shard.unwrap_or(Shard::ALL),
        threads,
        fresh: args.job.fresh,
        deadline,
    };
    let format = Format::for_output(&job.output, job.format)?;
    let done = rollout::run(&job, &mut Bar::new("positions", args.job.quiet))?;
    note(
        args.job.quiet,
        &format!(
            "datasets: rolled out {} positions ({} new) x {} trials in {:.1}s ({:.0} trials/s) -> {}{}",
            done.positions,
            done.new,
            args.trials,
            done.seconds,
            done.trials as f64 / done.seconds.max(1e-9),
            job.output.display(),
            super::stopped_note(
                done.left as u64,
                (done.positions + done.left) as u64,
                "positions left out"
            )
        ),
    );
    if args.json {
        print_json(&json!({
            "output": job.output.display().to_string(),
            "format": format_name(format),
            "input": job.input.display().to_string(),
            "shard": job.shard.to_string(),
            "positions": done.positions,
            "new": done.new,
            "left": done.left,
            "resumed": done.positions - done.new,
            "trials": settings.trials,
            "trials_played": done.trials,
            "plies": settings.plies,
            "truncate": settings.truncate,
            "seed": settings.seed,
            "variance_reduction": settings.variance_reduction,
            "bearoff_truncation": settings.bearoff_truncation,
            "position_seeds": settings.position_seeds,
            "incremental": job.incremental,
            "threads": threads,
            "seconds": done.seconds,
            "trials_per_second": done.trials as f64 / done.seconds.max(1e-9),
        }))?;
    }
    Ok(ExitCode::SUCCESS)
}
