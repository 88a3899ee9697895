//! `datasets rollout`: cubeless rollouts of every input position, resumable (the job
//! itself is `datasets::job::rollout`).

use std::process::ExitCode;

use anyhow::Result;
use datasets::job::rollout::{self, Labels};
use datasets::RolloutSettings;
use serde_json::json;

use super::positions::{self, PositionsArgs};
use super::{note, print_json, Bar};

/// Roll out positions: five cubeless probabilities and their standard errors each.
///
/// Reads a CSV file with a `position_id` column (or any dataset file) and writes, in
/// input order, `position_id,win,win_g,win_bg,lose_g,lose_bg,win_se,...,lose_bg_se`
/// (or the format of --format / the output's extension). Results are appended to
/// OUT.partial as they finish; rerun the same command to resume after an interruption.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    positions: PositionsArgs,
    /// Trials (games) per position.
    #[arg(long, default_value_t = 1296, value_parser = clap::value_parser!(u32).range(1..))]
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
    /// Preselect the moves of every 0-ply choice (lookaheads included) with the
    /// pruning nets, as gnubg does inside its lookahead: faster, no longer gnubg's
    /// 0-ply play (the weights need pruning nets; gnubg's and the trainer's have them).
    #[arg(long)]
    prune_moves: bool,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let settings = RolloutSettings {
        trials: args.trials,
        plies: args.plies,
        truncate: args.truncate,
        seed: args.seed,
        variance_reduction: !args.no_variance_reduction,
        bearoff_truncation: !args.no_bearoff_truncation,
        position_seeds: args.position_seeds,
        prune_moves: args.prune_moves,
    };
    let job = args
        .positions
        .job(Labels::Rollout(settings.clone()), args.incremental)?;
    let quiet = args.positions.job.quiet;
    let done = rollout::run(&job, &mut Bar::new("positions", quiet, job.deadline))?;
    note(
        quiet,
        &format!(
            "datasets: rolled out {} positions ({} new) x {} trials in {:.1}s ({:.0} trials/s) -> {}{}",
            done.positions,
            done.new,
            args.trials,
            done.seconds,
            done.trials as f64 / done.seconds.max(1e-9),
            job.output.display(),
            positions::stopped(&done)
        ),
    );
    if args.positions.json {
        let mut out = positions::summary(&job, &done)?;
        for (key, value) in [
            ("trials", json!(settings.trials)),
            ("trials_played", json!(done.trials)),
            ("plies", json!(settings.plies)),
            ("truncate", json!(settings.truncate)),
            ("seed", json!(settings.seed)),
            ("variance_reduction", json!(settings.variance_reduction)),
            ("bearoff_truncation", json!(settings.bearoff_truncation)),
            ("position_seeds", json!(settings.position_seeds)),
            ("prune_moves", json!(settings.prune_moves)),
            ("incremental", json!(job.incremental)),
            (
                "trials_per_second",
                json!(done.trials as f64 / done.seconds.max(1e-9)),
            ),
        ] {
            out[key] = value;
        }
        print_json(&out)?;
    }
    Ok(ExitCode::SUCCESS)
}
