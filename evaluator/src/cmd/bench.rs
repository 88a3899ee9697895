//! `evaluator bench`: built-in benchmarks.

use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Result};
use evaluator::{bench, corpus};

/// Run the built-in benchmarks on fixed, built-in positions (single thread).
///
/// --movegen: move generation over a corpus of 200 seeded random games, reported as
/// distinct resulting positions per second, with a signature (count and checksum of
/// every result) that changes only when results change.
#[derive(clap::Args)]
pub struct Args {
    /// Benchmark move generation.
    #[arg(long)]
    movegen: bool,
    /// Instead of the built-in corpus, take Position IDs from this file (one per line;
    /// blank lines and a `position_id` header are skipped), each with all 21 rolls.
    #[arg(long)]
    positions: Option<std::path::PathBuf>,
    /// Minimum seconds of timed work.
    #[arg(long, default_value_t = 3.0)]
    seconds: f64,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<ExitCode> {
    if !args.movegen {
        bail!("choose a benchmark: --movegen");
    }
    if !(args.seconds > 0.0 && args.seconds.is_finite()) {
        bail!("--seconds must be a positive number, got {}", args.seconds);
    }
    let (corpus, label) = match &args.positions {
        Some(path) => (
            corpus::all_rolls_from_file(path)?,
            format!("{} x 21 rolls", path.display()),
        ),
        None => (corpus::movegen_corpus(), "200 random games".to_string()),
    };
    let report = bench::movegen(&corpus, Duration::from_secs_f64(args.seconds));
    if args.json {
        println!("{}", serde_json::to_string(&report)?);
    } else {
        println!(
            "movegen corpus: {} (position, roll) pairs from {label}",
            report.corpus_size
        );
        println!("passes:         {} in {:.2} s", report.passes, report.seconds);
        println!("positions/s:    {:.0}", report.positions_per_sec);
        println!("movegens/s:     {:.0}", report.calls_per_sec);
        println!(
            "signature:      {} positions per pass, checksum {}",
            report.positions_per_pass, report.signature
        );
    }
    Ok(ExitCode::SUCCESS)
}
