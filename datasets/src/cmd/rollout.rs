//! `datasets rollout`: cubeless rollouts of every input position, resumable.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use anyhow::{anyhow, Result};
use datasets::format::{self, Format, Sample};
use datasets::journal::RolloutJournal;
use datasets::shard::Shard;
use datasets::{Roller, RolloutSettings};
use rayon::prelude::*;
use serde_json::json;

use super::{note, positions_digest, progress_bar, read_positions, thread_pool, EngineArgs, JobArgs};

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
    format: Option<Format>,
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
    #[command(flatten)]
    job: JobArgs,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let out_format = Format::for_output(&args.output, args.format)?;
    let input = read_positions(&args.input)?;
    let files = args.engine.files()?;
    // Measured: at 0 ply the cache costs more than it saves (few positions repeat).
    let cache_bits = if args.plies > 0 { 20 } else { 0 };
    let ev = files
        .evaluator(None)?
        .with_cache(cache_bits)
        .with_incremental(args.incremental);
    let settings = RolloutSettings {
        trials: args.trials,
        plies: args.plies,
        truncate: args.truncate,
        seed: args.seed,
        variance_reduction: !args.no_variance_reduction,
        bearoff_truncation: !args.no_bearoff_truncation,
        position_seeds: args.position_seeds,
    };
    let roller = Roller::new(&ev, settings.clone())?;
    let shard = args.shard.unwrap_or(Shard::ALL);
    let mine: Vec<usize> = (0..input.len()).filter(|&i| shard.contains(i)).collect();
    let mut job = json!({
        "settings": settings,
        "shard": shard.to_string(),
        "input_rows": input.len(),
        "input_digest": positions_digest(&input),
        "engine": super::describe_files(&files)?,
    });
    if args.incremental {
        // Only when on, so that partial files of exact rollouts still resume.
        job["incremental"] = json!(true);
    }
    let (mut journal, mut done) = RolloutJournal::open(&args.output, &job, &input, args.job.fresh)?;
    let pending: Vec<usize> = mine.iter().copied().filter(|&i| done[i].is_none()).collect();
    if pending.len() < mine.len() {
        note(
            args.job.quiet,
            &format!(
                "datasets: resuming: {} of {} positions already rolled out",
                mine.len() - pending.len(),
                mine.len()
            ),
        );
    }
    let pool = thread_pool(args.job.threads)?;
    let bar = progress_bar(mine.len() as u64, "positions", args.job.quiet);
    bar.set_position((mine.len() - pending.len()) as u64);
    bar.reset_eta();
    let started = Instant::now();
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel();
    let mut trials_done = 0u64;
    let outcome: Result<()> = std::thread::scope(|scope| {
        let workers = scope.spawn(|| {
            pool.install(|| {
                pending
                    .par_iter()
                    .with_max_len(1)
                    .try_for_each_with(tx, |tx, &i| {
                        if stop.load(Ordering::Relaxed) {
                            return Err(anyhow!("stopped"));
                        }
                        let r = roller.rollout(&input[i]);
                        let failed = r.is_err();
                        let _ = tx.send((i, r));
                        if failed {
                            stop.store(true, Ordering::Relaxed);
                            return Err(anyhow!("stopped"));
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
            let appended = r.map_err(anyhow::Error::from).and_then(|r| {
                let (probs, se) = r.probabilities();
                let s = Sample {
                    position: input[i],
                    probs,
                    se: Some(se),
                    trials: r.trials,
                };
                journal.append(i, &s)?;
                done[i] = Some(s);
                Ok(())
            });
            match appended {
                Ok(()) => {
                    trials_done += u64::from(args.trials);
                    bar.inc(1);
                    let secs = started.elapsed().as_secs_f64().max(1e-9);
                    bar.set_message(format!("{:.0} trials/s", trials_done as f64 / secs));
                }
                Err(e) => {
                    stop.store(true, Ordering::Relaxed);
                    first_error = Some(e.context(format!(
                        "position {} (input row {})",
                        input[i].position_id(),
                        i + 2
                    )));
                }
            }
        }
        let _ = workers.join();
        first_error.map_or(Ok(()), Err)
    });
    bar.finish_and_clear();
    outcome?;
    let samples: Vec<Sample> = mine
        .iter()
        .map(|&i| done[i].expect("every position of the shard is done"))
        .collect();
    format::write(&args.output, out_format, &samples)?;
    journal.remove()?;
    let secs = started.elapsed().as_secs_f64();
    note(
        args.job.quiet,
        &format!(
            "datasets: rolled out {} positions ({} new) x {} trials in {secs:.1}s ({:.0} trials/s) -> {}",
            mine.len(),
            pending.len(),
            args.trials,
            trials_done as f64 / secs.max(1e-9),
            args.output.display()
        ),
    );
    Ok(ExitCode::SUCCESS)
}
