//! `evaluator bench`: built-in benchmarks.

use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Result};
use evaluator::{bench, corpus};

use super::{engine_options, EngineArgs};

/// Run the built-in benchmarks on fixed, built-in positions.
///
/// Default: evaluation speed, like gnubg's `calibrate`: static 0-ply evaluations per
/// second on 4,096 contact positions, and complete 0-ply best-move decisions per second
/// on 1,024 (position, roll) pairs, both from seeded random games; with a signature
/// (checksum of every output) that changes only when results change.
///
/// --calibrate-boards: the static evaluations on 4,096 random boards drawn as gnubg's
/// `calibrate` draws them (blot-heavy), for a like-for-like comparison.
///
/// --movegen: move generation over 200 seeded random games, in distinct resulting
/// positions per second (single thread).
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    engine: EngineArgs,
    /// Time static evaluations on random boards drawn as gnubg's `calibrate` draws them
    /// instead of positions from random games.
    #[arg(long)]
    calibrate_boards: bool,
    /// Benchmark move generation instead of evaluation.
    #[arg(long)]
    movegen: bool,
    /// With --movegen: take Position IDs from this file (one per line; blank lines and
    /// a `position_id` header are skipped), each with all 21 rolls.
    #[arg(long)]
    positions: Option<std::path::PathBuf>,
    /// Worker threads for the evaluation benchmark.
    #[arg(long, short = 'j', default_value_t = 1)]
    threads: usize,
    /// Minimum seconds of timed work per measurement.
    #[arg(long, default_value_t = 3.0)]
    seconds: f64,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<ExitCode> {
    if !(args.seconds > 0.0 && args.seconds.is_finite()) {
        bail!("--seconds must be a positive number, got {}", args.seconds);
    }
    if args.threads == 0 {
        bail!("--threads must be at least 1");
    }
    let time = Duration::from_secs_f64(args.seconds);
    if args.movegen {
        let (corpus, label) = match &args.positions {
            Some(path) => (
                corpus::all_rolls_from_file(path)?,
                format!("{} x 21 rolls", path.display()),
            ),
            None => (corpus::movegen_corpus(), "200 random games".to_string()),
        };
        let r = bench::movegen(&corpus, time);
        if args.json {
            cli_support::outln!("{}", serde_json::to_string(&r)?)?;
        } else {
            cli_support::outln!(
                "movegen corpus: {} (position, roll) pairs from {label}",
                r.corpus_size
            )?;
            cli_support::outln!("passes:         {} in {:.2} s", r.passes, r.seconds)?;
            cli_support::outln!("positions/s:    {:.0}", r.positions_per_sec)?;
            cli_support::outln!("movegens/s:     {:.0}", r.calls_per_sec)?;
            cli_support::outln!(
                "signature:      {} positions per pass, checksum {}",
                r.positions_per_pass,
                r.signature
            )?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    if args.positions.is_some() {
        bail!("--positions applies to --movegen only");
    }
    let ev = engine_options(&args.engine).evaluator()?;
    let r = bench::evaluation(
        &ev,
        &if args.calibrate_boards {
            corpus::calibrate_boards()
        } else {
            corpus::contact_positions()
        },
        &corpus::best_move_pairs(),
        args.threads,
        time,
    );
    if args.json {
        cli_support::outln!("{}", serde_json::to_string(&r)?)?;
    } else {
        cli_support::outln!("threads:              {} ({} kernel)", r.threads, r.kernel)?;
        cli_support::outln!(
            "static evals/s:       {:.0} ({} {})",
            r.static_evals_per_sec,
            r.static_positions,
            if args.calibrate_boards {
                "calibrate-style random boards"
            } else {
                "contact positions"
            }
        )?;
        cli_support::outln!("  batched (64/call):  {:.0}", r.static_evals_per_sec_batched)?;
        cli_support::outln!(
            "best moves/s:         {:.0} ({} position/roll pairs)",
            r.best_moves_per_sec,
            r.best_move_positions
        )?;
        cli_support::outln!("signature:            {}", r.signature)?;
    }
    Ok(ExitCode::SUCCESS)
}
