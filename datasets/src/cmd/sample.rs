//! `datasets sample`: positions from self-play games, resumable (the job itself is
//! `datasets::job::sample`).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use cli_support::thread_count;
use datasets::class::parse_classes;
use datasets::job::sample::{self, SampleJob};
use datasets::sample::SampleSettings;
use datasets::shard::Shard;
use fileio::Existing;

use serde_json::json;

use super::{engine_files_for, note, print_json, Bar, EngineArgs, JobArgs};

/// Sample positions from self-play games at 0 ply.
///
/// Writes CSV with one column, `position_id` (wildbg's positions layout): every
/// position met with a side about to roll (and with --alternatives, the positions after
/// the next-best moves), of the chosen classes, first occurrence only, in game order.
/// Same seed, same file, on any number of threads.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    engine: EngineArgs,
    /// Self-play games to play.
    #[arg(long)]
    games: u64,
    /// Seed of the games' dice, noise and random moves.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Output CSV file.
    #[arg(short, long)]
    output: PathBuf,
    /// Standard deviation of normal noise added to each move's equity (like gnubg's
    /// noisy players).
    #[arg(long, default_value_t = 0.0, value_parser = super::non_negative_f32)]
    noise: f32,
    /// Probability of playing a uniformly random legal move instead.
    #[arg(long, default_value_t = 0.05, value_parser = super::probability)]
    epsilon: f64,
    /// Classes to keep, comma-separated: contact, crashed, race, bearoff1, bearoff2
    /// (bearoff = both).
    #[arg(long, default_value = "contact,crashed,race")]
    classes: String,
    /// At each move the policy ranks (not a random one), also sample the positions after
    /// the K next-best moves by 0-ply equity (the opponent on roll), right after the
    /// position they branch from: the positions a move decision compares. The games
    /// are the same.
    #[arg(long, value_name = "K", default_value_t = 0, value_parser = clap::value_parser!(u16).range(0..=32))]
    alternatives: u16,
    /// Keep only positions where the 0-ply and the N-ply evaluations disagree by more
    /// than --threshold (cubeless money equity).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=2))]
    disagree_plies: Option<u32>,
    /// Keep only positions where these weights and --weights (both at 0 ply) disagree by
    /// more than --threshold.
    #[arg(long, value_name = "FILE", conflicts_with = "disagree_plies")]
    disagree_weights: Option<PathBuf>,
    /// Disagreement threshold of --disagree-plies or --disagree-weights, in cubeless
    /// money equity [default: 0.05].
    #[arg(long, value_parser = super::non_negative_f32)]
    threshold: Option<f32>,
    /// Play only shard K of N of the games (the K-th of N contiguous blocks); join the
    /// parts with `datasets merge`.
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// Stop after this many minutes of this session (after the chunk of 256 games in progress, at
    /// least one: the first games of the whole run); the output
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
    let disagree = args.disagree_plies.is_some() || args.disagree_weights.is_some();
    if args.threshold.is_some() && !disagree {
        bail!("--threshold is for --disagree-plies or --disagree-weights");
    }
    // Checked by its parser (finite, at least 0).
    let threshold = args.threshold.unwrap_or(0.05);
    let classes = parse_classes(&args.classes)
        .map_err(anyhow::Error::msg)
        .context("--classes")?;
    let others: Vec<&std::path::Path> = args.disagree_weights.iter().map(PathBuf::as_path).collect();
    let engine = engine_files_for(&args.engine, &args.output, &others, args.job.force)?;
    let threads = thread_count(args.job.threads)?;
    let deadline = cli_support::args::deadline(args.minutes)?;
    let job = SampleJob {
        engine,
        output: args.output,
        games: args.games,
        shard: args.shard.unwrap_or(Shard::ALL),
        settings: SampleSettings {
            seed: args.seed,
            noise: args.noise,
            epsilon: args.epsilon,
            classes,
            alternatives: usize::from(args.alternatives),
        },
        disagree_plies: args.disagree_plies,
        disagree_weights: args.disagree_weights,
        threshold,
        threads,
        fresh: args.job.fresh,
        existing: Existing::replace_if(args.job.force),
        deadline,
    };
    let done = sample::run(&job, &mut Bar::new("games", args.job.quiet, job.deadline))?;
    note(
        args.job.quiet,
        &format!(
            "datasets: {} games, {} positions kept in {:.1}s -> {}{}",
            done.games,
            done.positions,
            done.seconds,
            job.output.display(),
            super::stopped_note(done.left, done.games + done.left, "games not played")
        ),
    );
    if args.json {
        print_json(&json!({
            "output": job.output.display().to_string(),
            "games": done.games,
            "games_left": done.left,
            "shard": job.shard.to_string(),
            "positions": done.positions,
            "seed": job.settings.seed,
            "noise": shortest(job.settings.noise),
            "epsilon": job.settings.epsilon,
            "classes": job.settings.classes.iter().map(|c| c.name()).collect::<Vec<_>>(),
            "alternatives": job.settings.alternatives,
            "disagree_plies": job.disagree_plies,
            "disagree_weights": job.disagree_weights.as_ref().map(|p| p.display().to_string()),
            "threshold": (job.disagree_plies.is_some() || job.disagree_weights.is_some()).then_some(shortest(job.threshold)),
            "threads": threads,
            "seconds": done.seconds,
        }))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// An `f32` setting as the decimal the user wrote (0.1, not 0.10000000149011612).
fn shortest(x: f32) -> f64 {
    x.to_string().parse().unwrap_or(f64::from(x))
}
