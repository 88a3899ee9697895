//! `datasets label`: every input position labelled by the weights' own lookahead
//! (search-bootstrapped training targets), resumable; the job is
//! `datasets::job::rollout` with [`Labels::Search`].

use std::process::ExitCode;

use anyhow::Result;
use datasets::job::rollout::{self, Labels};
use serde_json::json;

use super::positions::{self, PositionsArgs};
use super::{note, print_json, Bar};

/// Label positions with the weights' own N-ply evaluation (search-bootstrapped targets).
///
/// Each position of the input (a CSV file with a `position_id` column, or any dataset
/// file) gets the five cubeless probabilities of gnubg's lookahead with these weights:
/// for every roll, the best move at 0 ply (the pruning nets preselect candidates unless
/// --no-prune), averaged over the 21 rolls, N plies deep. Written in input order as a
/// dataset without standard errors, for `trainer supervised` (expert iteration: a net
/// trained towards its own 1-ply learns some of what the search knows). Results are
/// appended to OUT.partial as they finish; rerun the same command to resume.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    positions: PositionsArgs,
    /// Plies of lookahead: 1 (21 rolls, about 2,000 positions/s per thread) up to 3.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=3))]
    plies: u32,
    /// Score every move of each roll fully instead of letting the pruning nets preselect
    /// candidates.
    #[arg(long)]
    no_prune: bool,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let labels = Labels::Search {
        plies: args.plies,
        prune: !args.no_prune,
    };
    let job = args.positions.job(labels, false)?;
    let quiet = args.positions.job.quiet;
    let done = rollout::run(&job, &mut Bar::new("positions", quiet, job.deadline))?;
    let rate = done.new as f64 / done.seconds.max(1e-9);
    note(
        quiet,
        &format!(
            "datasets: labelled {} positions ({} new) at {} ply in {:.1}s ({:.0} positions/s) -> {}{}",
            done.positions,
            done.new,
            args.plies,
            done.seconds,
            rate,
            job.output.display(),
            positions::stopped(&done)
        ),
    );
    if args.positions.json {
        let mut out = positions::summary(&job, &done)?;
        out["plies"] = json!(args.plies);
        out["prune"] = json!(!args.no_prune);
        out["positions_per_second"] = json!(rate);
        print_json(&out)?;
    }
    Ok(ExitCode::SUCCESS)
}
