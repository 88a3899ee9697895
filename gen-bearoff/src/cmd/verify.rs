//! `gen-bearoff verify`.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Parser;

use gen_bearoff::verify::verify;

use super::common::{global_threads, open_db, phase_bar};

/// Options of `verify`.
#[derive(Parser, Debug)]
pub struct Args {
    /// The database file.
    pub file: PathBuf,
    /// Records to recompute from their successors (besides the first and last eight).
    #[arg(long, default_value_t = 10_000)]
    pub samples: u64,
    /// Seed choosing the sample.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// For a headerless file: its header text, e.g. "gnubg-OS-06-15-1-1-0".
    #[arg(long)]
    pub assume_header: Option<String>,
    /// Worker threads (unused by the checks themselves; accepted for symmetry).
    #[arg(long, short = 'j')]
    pub threads: Option<usize>,
    /// No progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// Runs `verify`: exit 0 if the file is sound, 1 if a problem was found.
pub fn run(args: Args) -> Result<ExitCode> {
    global_threads(args.threads)?;
    let db = open_db(&args.file, args.assume_header.as_deref())?;
    let bar = phase_bar(1, "verify", args.quiet);
    let report = verify(&db, args.samples, args.seed, &|done, total| {
        bar.set_length(total);
        bar.set_position(done);
    })
    .with_context(|| format!("{}", args.file.display()))?;
    bar.finish_and_clear();
    let kind = db.kind();
    if report.ok() {
        cli_support::outln!(
            "{}: OK ({kind}; {} records checked, {} recomputed from their successors)",
            args.file.display(),
            report.structural,
            report.recomputed
        )?;
        for n in &report.notes {
            cli_support::outln!("  {n}")?;
        }
        Ok(ExitCode::SUCCESS)
    } else {
        cli_support::outln!(
            "{}: {} problem(s) ({kind}; {} records checked, {} recomputed)",
            args.file.display(),
            report.problem_count,
            report.structural,
            report.recomputed
        )?;
        for p in report.problems.iter().chain(&report.notes) {
            cli_support::outln!("  {p}")?;
        }
        Ok(ExitCode::from(1))
    }
}
