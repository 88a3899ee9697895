//! `datasets benchmark build`: move-error benchmark sets, resumable.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Result};
use board::MoveGen;
use datasets::benchmark::{self, BuildSettings};
use datasets::class::{dataset_class, parse_classes};
use datasets::journal::ChunkJournal;
use datasets::{Roller, RolloutSettings};
use rayon::prelude::*;
use serde_json::json;

use super::{note, positions_digest, progress_bar, read_positions, thread_pool, EngineArgs, JobArgs};

/// Input positions per checkpoint.
const CHUNK_POSITIONS: usize = 16;

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
    #[arg(long)]
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
    #[arg(long, default_value_t = 1296)]
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
    #[arg(long)]
    max_positions: Option<usize>,
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
    if args.trials == 0 {
        bail!("--trials must be at least 1");
    }
    let classes = parse_classes(&args.classes).map_err(anyhow::Error::msg)?;
    let all = read_positions(&args.input)?;
    let mut input: Vec<_> = all
        .iter()
        .copied()
        .filter(|p| classes.contains(&dataset_class(p)))
        .collect();
    if let Some(m) = args.max_positions {
        input.truncate(m);
    }
    if input.is_empty() {
        bail!(
            "{}: no positions of the classes {}",
            args.input.display(),
            args.classes
        );
    }
    let files = args.engine.files()?;
    let cache_bits = if args.plies > 0 || args.rollout_plies > 0 {
        20
    } else {
        0
    };
    let ev = files.evaluator(None)?.with_cache(cache_bits);
    let rollout = RolloutSettings {
        trials: args.trials,
        plies: args.rollout_plies,
        truncate: args.truncate,
        seed: args.seed,
        variance_reduction: !args.no_variance_reduction,
        bearoff_truncation: true,
        position_seeds: false,
    };
    let roller = Roller::new(&ev, rollout.clone())?;
    let settings = BuildSettings {
        candidates: args.candidates,
        select_plies: args.plies,
        dice_seed: args.seed,
    };
    let job = json!({
        "build": settings,
        "rollout": rollout,
        "classes": args.classes,
        "input_rows": input.len(),
        "input_digest": positions_digest(&input),
        "engine": super::describe_files(&files)?,
        "chunk": CHUNK_POSITIONS,
    });
    let (mut journal, mut lines, chunks_done) = ChunkJournal::open(&args.output, &job, args.job.fresh)?;
    let start = (chunks_done as usize * CHUNK_POSITIONS).min(input.len());
    if start > 0 {
        note(
            args.job.quiet,
            &format!("datasets: resuming: {start} of {} positions done", input.len()),
        );
    }
    let pool = thread_pool(args.job.threads)?;
    let bar = progress_bar(input.len() as u64, "positions", args.job.quiet);
    bar.set_position(start as u64);
    bar.reset_eta();
    let started = Instant::now();
    let mut at = start;
    while at < input.len() {
        let end = (at + CHUNK_POSITIONS).min(input.len());
        let entries: Vec<Option<String>> = pool.install(|| {
            (at..end)
                .into_par_iter()
                .with_max_len(1)
                .map_init(MoveGen::new, |gen, i| {
                    let dice = benchmark::dice_for(args.seed, i as u64);
                    benchmark::build_entry(&ev, &roller, gen, &input[i], dice, &settings)
                        .map(|e| e.map(|e| benchmark::entry_line(&e)))
                        .map_err(|e| {
                            anyhow::anyhow!("position {} (row {}): {e}", input[i].position_id(), i + 1)
                        })
                })
                .collect::<Result<_>>()
        })?;
        let chunk: Vec<String> = entries.into_iter().flatten().collect();
        journal.append_chunk(&chunk)?;
        lines.extend(chunk);
        at = end;
        bar.set_position(at as u64);
    }
    bar.finish_and_clear();
    let header = json!({
        "format": benchmark::FORMAT,
        "version": benchmark::VERSION,
        "candidates": settings.candidates,
        "select_plies": settings.select_plies,
        "dice_seed": settings.dice_seed,
        "rollout": rollout,
        "engine": super::describe_files(&files)?,
        "input_rows": input.len(),
        "positions": lines.len(),
    });
    benchmark::write(&args.output, &header, &lines)?;
    journal.remove()?;
    note(
        args.job.quiet,
        &format!(
            "datasets: benchmark of {} positions ({} with a choice) x {} candidates x {} trials in {:.1}s -> {}",
            input.len(),
            lines.len(),
            args.candidates,
            args.trials,
            started.elapsed().as_secs_f64(),
            args.output.display()
        ),
    );
    Ok(ExitCode::SUCCESS)
}
