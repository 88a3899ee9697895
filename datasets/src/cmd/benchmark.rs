//! `datasets benchmark build`: move-error benchmark sets, resumable (the job itself is
//! `datasets::job::benchmark`).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use cli_support::thread_count;
use datasets::benchmark::BuildSettings;
use datasets::class::parse_classes;
use datasets::job::benchmark::{self, BenchmarkJob};
use datasets::shard::Shard;
use datasets::RolloutSettings;
use fileio::Existing;

use super::{engine_files_for, note, Bar, EngineArgs, JobArgs};

/// Move-error benchmark sets.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    Build(BuildArgs),
}

/// Build a benchmark set: for each input position a roll (seeded), the best
/// --candidates moves by --weights at --plies, and a rollout of each candidate.
///
/// Writes JSON lines: a header, then per position its Position ID, dice, class and
/// candidates (after-position ID, notation, rolled-out cubeless money equity with its
/// standard error, probabilities), best first. `trainer benchmark` scores players on
/// it. Positions with fewer than two legal moves are skipped. Rerun the same command to
/// resume after an interruption.
#[derive(clap::Args)]
pub struct BuildArgs {
    #[command(flatten)]
    engine: EngineArgs,
    /// Positions: CSV with a position_id column, or a dataset file.
    #[arg(long, value_parser = cli_support::args::input_file())]
    input: PathBuf,
    /// Output file (JSON lines, e.g. bench.jsonl).
    #[arg(short, long)]
    output: PathBuf,
    /// Candidate moves rolled out per position.
    #[arg(long, default_value_t = 5)]
    candidates: usize,
    /// Ply of the candidate selection: 0 or 1.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=1))]
    plies: u32,
    /// Trials per candidate rollout.
    #[arg(long, default_value_t = 1296, value_parser = clap::value_parser!(u32).range(1..))]
    trials: u32,
    /// Chequer play in the rollouts: 0 or 1 ply.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=1))]
    rollout_plies: u32,
    /// Stop each trial after N half-moves and use the 0-ply evaluation there.
    #[arg(long, value_name = "N")]
    truncate: Option<u32>,
    /// Seed of the rolls and of the rollouts' dice.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Turn off variance reduction in the rollouts.
    #[arg(long, alias = "no-vr")]
    no_variance_reduction: bool,
    /// Keep only positions of these classes (contact, crashed, race, bearoff1,
    /// bearoff2; comma-separated).
    #[arg(long, default_value = "contact,crashed,race")]
    classes: String,
    /// Use at most this many input positions (the first ones of the wanted classes).
    #[arg(long, value_name = "N", value_parser = super::count_from_one)]
    max_positions: Option<usize>,
    /// Build only shard K of N (the K-th of N contiguous blocks of the positions kept);
    /// join the parts with `datasets merge`.
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// Stop after this many minutes of this session (after the chunk of 16 positions
    /// in progress, at least one); the set holds the positions done, and the summary
    /// says how many were left out. Not with --shard (a merge needs whole shards).
    #[arg(long, value_name = "M", conflicts_with = "shard")]
    minutes: Option<f64>,
    #[command(flatten)]
    job: JobArgs,
}

pub fn run(args: Args) -> Result<ExitCode> {
    match args.command {
        Command::Build(b) => build(b),
    }
}

fn build(args: BuildArgs) -> Result<ExitCode> {
    if args.candidates < 2 {
        bail!("--candidates must be at least 2, got {}", args.candidates);
    }
    // Checked here to name the flag (the job checks them again).
    parse_classes(&args.classes)
        .map_err(anyhow::Error::msg)
        .context("--classes")?;
    let engine = engine_files_for(&args.engine, &args.output, &[&args.input], args.job.force)?;
    let threads = thread_count(args.job.threads)?;
    let deadline = cli_support::args::deadline(args.minutes)?;
    let job = BenchmarkJob {
        engine,
        input: args.input,
        output: args.output,
        build: BuildSettings {
            candidates: args.candidates,
            select_plies: args.plies,
            dice_seed: args.seed,
        },
        rollout: RolloutSettings {
            trials: args.trials,
            plies: args.rollout_plies,
            truncate: args.truncate,
            seed: args.seed,
            variance_reduction: !args.no_variance_reduction,
            bearoff_truncation: true,
            position_seeds: false,
            prune_moves: false,
        },
        classes: args.classes,
        max_positions: args.max_positions,
        shard: args.shard.unwrap_or(Shard::ALL),
        threads,
        fresh: args.job.fresh,
        existing: Existing::replace_if(args.job.force),
        deadline,
    };
    let done = benchmark::run(&job, &mut Bar::new("positions", args.job.quiet, job.deadline))?;
    note(
        args.job.quiet,
        &format!(
            "datasets: benchmark of {} positions ({} with a choice) x {} candidates x {} trials in {:.1}s -> {}{}",
            done.positions,
            done.entries,
            args.candidates,
            args.trials,
            done.seconds,
            job.output.display(),
            super::stopped_note(done.left as u64, (done.positions + done.left) as u64, "positions left out")
        ),
    );
    Ok(ExitCode::SUCCESS)
}
