//! `evaluator bench`: built-in benchmarks.

use std::process::ExitCode;

use anyhow::{bail, Result};
use cli_support::About;
use evaluator::bench::{self, Rate};
use evaluator::corpus;

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
///
/// Each figure is followed by the threads it ran on; with --repeat N, by the range of
/// N runs after the median. The output starts with the version, commit, CPU, kernel
/// and SIMD kernel.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    engine: EngineArgs,
    /// Time static evaluations on random boards drawn as gnubg's `calibrate` draws them
    /// instead of positions from random games.
    #[arg(long, conflicts_with = "movegen")]
    calibrate_boards: bool,
    /// Benchmark move generation instead of evaluation (no nets or databases: the
    /// engine's flags are refused with it).
    #[arg(long, conflicts_with_all = ["weights", "bearoff_os", "bearoff_ts", "no_bearoff"])]
    movegen: bool,
    /// With --movegen: take Position IDs from this file (one per line; blank lines and
    /// a `position_id` header are skipped), each with all 21 rolls.
    #[arg(long, requires = "movegen")]
    positions: Option<std::path::PathBuf>,
    /// Worker threads for the evaluation benchmark (default: one per core). Each figure
    /// states the threads it ran on.
    #[arg(long, short = 'j', conflicts_with = "movegen")]
    threads: Option<usize>,
    /// Minimum seconds of timed work per measurement.
    #[arg(long, default_value_t = 3.0)]
    seconds: f64,
    /// Measure each figure N times and report the median and the range.
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1000))]
    repeat: u32,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// A report with what it ran on, as one JSON object.
#[derive(serde::Serialize)]
struct Json<'a, R> {
    #[serde(flatten)]
    about: &'a About,
    #[serde(flatten)]
    report: &'a R,
}

/// A rate for the text output: the median, the range when measured more than once, and
/// the threads.
fn rate(r: &Rate) -> String {
    let threads = match r.threads {
        1 => "1 thread".to_string(),
        n => format!("{n} threads"),
    };
    if r.repeat > 1 {
        format!(
            "{:.0} ({:.0} … {:.0}, {} runs; {threads})",
            r.per_sec, r.per_sec_min, r.per_sec_max, r.repeat
        )
    } else {
        format!("{:.0} ({threads})", r.per_sec)
    }
}

/// The header of the text output: the build and the machine.
fn header(about: &About, simd: Option<&str>) -> std::io::Result<()> {
    cli_support::outln!(
        "version:              {} (commit {})",
        about.version,
        about.git_commit
    )?;
    cli_support::outln!("cpu:                  {}", about.cpu)?;
    cli_support::outln!("kernel:               {}", about.kernel)?;
    if let Some(simd) = simd {
        cli_support::outln!("simd kernel:          {simd}")?;
    }
    Ok(())
}

pub fn run(args: Args) -> Result<ExitCode> {
    let threads = cli_support::thread_count(args.threads)?;
    let repeat = args.repeat as usize;
    let time = cli_support::args::positive_duration(
        "--seconds",
        args.seconds,
        cli_support::args::TimeUnit::Seconds,
    )?;
    let about = About::collect(env!("CARGO_PKG_VERSION"));
    if args.movegen {
        let (corpus, label) = match &args.positions {
            Some(path) => (
                corpus::all_rolls_from_file(path)?,
                format!("{} x 21 rolls", path.display()),
            ),
            None => (corpus::movegen_corpus(), "200 random games".to_string()),
        };
        let r = bench::movegen(&corpus, time, repeat);
        if args.json {
            let json = Json {
                about: &about,
                report: &r,
            };
            cli_support::outln!("{}", serde_json::to_string(&json)?)?;
        } else {
            header(&about, None)?;
            cli_support::outln!(
                "movegen corpus:       {} (position, roll) pairs from {label}",
                r.corpus_size
            )?;
            cli_support::outln!("passes:               {} in {:.2} s", r.passes, r.seconds)?;
            cli_support::outln!("positions/s:          {}", rate(&r.positions))?;
            cli_support::outln!("movegens/s:           {}", rate(&r.movegens))?;
            cli_support::outln!(
                "signature:            {} positions per pass, checksum {}",
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
        threads,
        time,
        repeat,
    );
    if args.json {
        let json = Json {
            about: &about,
            report: &r,
        };
        cli_support::outln!("{}", serde_json::to_string(&json)?)?;
    } else {
        header(&about, Some(&r.simd_kernel))?;
        cli_support::outln!(
            "static evals/s:       {} on {} {}",
            rate(&r.static_evals),
            r.static_positions,
            if args.calibrate_boards {
                "calibrate-style random boards"
            } else {
                "contact positions"
            }
        )?;
        cli_support::outln!("  batched (64/call):  {}", rate(&r.static_evals_batched))?;
        cli_support::outln!(
            "best moves/s:         {} on {} position/roll pairs",
            rate(&r.best_moves),
            r.best_move_positions
        )?;
        cli_support::outln!("signature:            {}", r.signature)?;
    }
    Ok(ExitCode::SUCCESS)
}
