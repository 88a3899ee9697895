//! `gen-bearoff verify`.
//!
//! Exit 0: the file is sound; 1: problems were found (listed); 2: the file could not be
//! checked at all (missing, unreadable, bad arguments). A file whose header or size is
//! damaged is a problem found (exit 1), as hyper verify reports its problems.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Parser;

use gen_bearoff::error::BearoffError;
use gen_bearoff::reader::check_sidecar;
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
    /// Recompute every record from its successors, not a sample.
    #[arg(long, conflicts_with = "samples")]
    pub full: bool,
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
    let name = args.file.display().to_string();
    // The sidecar checksum first: it covers every byte, header included.
    let sidecar = match check_sidecar(&args.file) {
        Ok(true) => format!("SHA-256 matches {name}.sha256"),
        Ok(false) => format!("no {name}.sha256 sidecar: SHA-256 not checked"),
        Err(e @ BearoffError::Corrupt { .. }) => return problems(&name, &[e.to_string()]),
        Err(e) => return Err(e.into()),
    };
    let db = match open_db(&args.file, args.assume_header.as_deref()) {
        Ok(db) => db,
        Err(e) => match e.downcast_ref::<BearoffError>() {
            Some(b @ (BearoffError::Corrupt { .. } | BearoffError::Header { .. })) => {
                return problems(&name, &[b.to_string()]);
            }
            _ => return Err(e),
        },
    };
    let bar = phase_bar(1, "verify", args.quiet);
    let samples = if args.full { u64::MAX } else { args.samples };
    let report = verify(&db, samples, args.seed, &|done, total| {
        bar.set_length(total);
        bar.set_position(done);
    })
    .with_context(|| name.clone())?;
    bar.finish_and_clear();
    let kind = db.kind();
    if report.ok() {
        cli_support::outln!(
            "{name}: OK ({kind}; {} records checked, {} recomputed from their successors)",
            report.structural,
            report.recomputed
        )?;
        cli_support::outln!("  {sidecar}")?;
        for n in &report.notes {
            cli_support::outln!("  {n}")?;
        }
        Ok(ExitCode::SUCCESS)
    } else {
        cli_support::outln!(
            "{name}: {} problem(s) ({kind}; {} records checked, {} recomputed)",
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

/// Lists problems found before the records could be read; exit status 1.
fn problems(name: &str, list: &[String]) -> Result<ExitCode> {
    cli_support::outln!("{name}: {} problem(s)", list.len())?;
    for p in list {
        cli_support::outln!("  {p}")?;
    }
    Ok(ExitCode::from(1))
}
