//! `datasets label`: every input position labelled by the weights' own lookahead
//! (search-bootstrapped training targets), resumable; the job is
//! `datasets::job::rollout` with [`Labels::Search`].

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use cli_support::thread_count;
use datasets::format::Format;
use datasets::job::rollout::{self, Labels, RolloutJob};
use datasets::shard::Shard;
use serde_json::json;

use super::{engine_files, format_name, note, print_json, Bar, EngineArgs, FormatArg, JobArgs};

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
    engine: EngineArgs,
    /// Positions to label: CSV with a position_id column, or a dataset file.
    #[arg(long)]
    input: PathBuf,
    /// Output file (.csv, .nn/.dat/.txt for gnubg-nn text, .bgds/.bin for binary).
    #[arg(short, long)]
    output: PathBuf,
    /// Output format (default: from the output's extension).
    #[arg(long, value_enum)]
    format: Option<FormatArg>,
    /// Plies of lookahead: 1 (21 rolls, about 2,000 positions/s per thread) up to 3.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=3))]
    plies: u32,
    /// Score every move of each roll fully instead of letting the pruning nets preselect
    /// candidates.
    #[arg(long)]
    no_prune: bool,
    /// Do only shard K of N of the input (rows i with i % N == K-1); join the parts
    /// with `datasets merge`.
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// Stop after this many minutes of this session (no position is started after it:
    /// the output holds the positions labelled, in input order), and the summary says
    /// what was left out. Not with --shard (a merge needs whole shards).
    #[arg(long, value_name = "M", conflicts_with = "shard")]
    minutes: Option<f64>,
    /// Print a summary of the run as JSON on stdout at the end.
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
    let job = RolloutJob {
        engine: engine_files(&args.engine)?,
        input: args.input,
        output: args.output,
        format: args.format.map(Format::from),
        labels: Labels::Search {
            plies: args.plies,
            prune: !args.no_prune,
        },
        incremental: false,
        shard: args.shard.unwrap_or(Shard::ALL),
        threads,
        fresh: args.job.fresh,
        deadline,
    };
    let format = Format::for_output(&job.output, job.format)?;
    let done = rollout::run(&job, &mut Bar::new("positions", args.job.quiet))?;
    let rate = done.new as f64 / done.seconds.max(1e-9);
    note(
        args.job.quiet,
        &format!(
            "datasets: labelled {} positions ({} new) at {} ply in {:.1}s ({:.0} positions/s) -> {}{}",
            done.positions,
            done.new,
            args.plies,
            done.seconds,
            rate,
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
            "plies": args.plies,
            "prune": !args.no_prune,
            "threads": threads,
            "seconds": done.seconds,
            "positions_per_second": rate,
        }))?;
    }
    Ok(ExitCode::SUCCESS)
}
