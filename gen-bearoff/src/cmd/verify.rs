//! `gen-bearoff verify`.
//!
//! Exit 0: the file is sound; 1: problems were found (listed); 2: the file could not be
//! checked at all (missing, unreadable, bad arguments). A file whose header or size is
//! damaged is a problem found (exit 1), as hyper verify reports its problems.

use std::cell::Cell;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Parser;
use serde::Serialize;

use gen_bearoff::error::BearoffError;
use gen_bearoff::reader::check_sidecar;
use gen_bearoff::verify::{verify, VerifyPass, VerifyReport};
use gen_bearoff::BearoffDb;

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
    /// Worker threads of the recomputation (default: one per core); the outcome is the
    /// same for any count.
    #[arg(long, short = 'j')]
    pub threads: Option<usize>,
    /// No progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Print the outcome as one JSON object (exit status unchanged).
    #[arg(long)]
    pub json: bool,
}

/// The sidecar checksum's state, for the text and the JSON.
enum Sidecar {
    Matches,
    Absent,
    Mismatch,
}

impl Sidecar {
    fn name(&self) -> &'static str {
        match self {
            Sidecar::Matches => "matches",
            Sidecar::Absent => "absent",
            Sidecar::Mismatch => "mismatch",
        }
    }
}

/// What one run of `verify` found, printed as text or as JSON.
struct Outcome<'a> {
    args: &'a Args,
    name: String,
    sidecar: Sidecar,
    kind: Option<String>,
    records: Option<u64>,
    report: VerifyReport,
}

/// `verify --json` (fields as in the README).
#[derive(Serialize)]
struct Doc<'a> {
    file: &'a str,
    kind: Option<&'a str>,
    records: Option<u64>,
    checked: u64,
    recomputed: u64,
    mode: &'static str,
    samples: Option<u64>,
    seed: u64,
    sidecar: &'static str,
    problem_count: u64,
    problems: &'a [String],
    notes: &'a [String],
    ok: bool,
}

impl Outcome<'_> {
    fn json(&self) -> Doc<'_> {
        let (a, r) = (self.args, &self.report);
        Doc {
            file: &self.name,
            kind: self.kind.as_deref(),
            records: self.records,
            checked: r.structural,
            recomputed: r.recomputed,
            mode: if a.full { "full" } else { "sampled" },
            samples: (!a.full).then_some(a.samples),
            seed: a.seed,
            sidecar: self.sidecar.name(),
            problem_count: r.problem_count,
            problems: &r.problems,
            notes: &r.notes,
            ok: r.ok(),
        }
    }

    /// Prints the outcome; exit status 0 if sound, 1 if a problem was found.
    fn print(&self) -> Result<ExitCode> {
        let code = if self.report.ok() {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        };
        if self.args.json {
            super::json::print(&self.json())?;
            return Ok(code);
        }
        let (name, r) = (&self.name, &self.report);
        let Some(kind) = &self.kind else {
            // Problems found before the records could be read.
            cli_support::outln!("{name}: {} problem(s)", r.problem_count)?;
            for p in &r.problems {
                cli_support::outln!("  {p}")?;
            }
            return Ok(code);
        };
        if r.ok() {
            cli_support::outln!(
                "{name}: OK ({kind}; {} records checked, {} recomputed from their successors)",
                r.structural,
                r.recomputed
            )?;
            let sidecar = match self.sidecar {
                Sidecar::Matches => format!("SHA-256 matches {name}.sha256"),
                _ => format!("no {name}.sha256 sidecar: SHA-256 not checked"),
            };
            cli_support::outln!("  {sidecar}")?;
            for n in &r.notes {
                cli_support::outln!("  {n}")?;
            }
        } else {
            cli_support::outln!(
                "{name}: {} problem(s) ({kind}; {} records checked, {} recomputed)",
                r.problem_count,
                r.structural,
                r.recomputed
            )?;
            for p in r.problems.iter().chain(&r.notes) {
                cli_support::outln!("  {p}")?;
            }
        }
        Ok(code)
    }
}

/// Runs `verify`: exit 0 if the file is sound, 1 if a problem was found.
pub fn run(args: Args) -> Result<ExitCode> {
    global_threads(args.threads)?;
    let name = args.file.display().to_string();
    let mut outcome = Outcome {
        args: &args,
        name: name.clone(),
        sidecar: Sidecar::Absent,
        kind: None,
        records: None,
        report: VerifyReport::default(),
    };
    // Problems found before the records can be read end the check (exit 1).
    let early = |mut outcome: Outcome, problem: String| {
        outcome.report.problem_count = 1;
        outcome.report.problems = vec![problem];
        outcome.print()
    };
    // The sidecar checksum first: it covers every byte, header included.
    outcome.sidecar = match check_sidecar(&args.file) {
        Ok(true) => Sidecar::Matches,
        Ok(false) => Sidecar::Absent,
        Err(e @ BearoffError::Corrupt { .. }) => {
            outcome.sidecar = Sidecar::Mismatch;
            return early(outcome, e.to_string());
        }
        Err(e) => return Err(e.into()),
    };
    let db = match open_db(&args.file, args.assume_header.as_deref()) {
        Ok(db) => db,
        Err(e) => match e.downcast_ref::<BearoffError>() {
            Some(b @ (BearoffError::Corrupt { .. } | BearoffError::Header { .. })) => {
                return early(outcome, b.to_string());
            }
            _ => return Err(e),
        },
    };
    outcome.kind = Some(db.kind().to_string());
    outcome.records = Some(match &db {
        BearoffDb::OneSided(d) => d.count(),
        BearoffDb::TwoSided(d) => d.count(),
        BearoffDb::Hypergammon(d) => d.count(),
    });
    // One bar, one phase per pass: the structural checks of every record, then the
    // recomputation of the records chosen (the slow part; every record with --full).
    let bar = phase_bar(1, VerifyPass::Structure.name(), args.quiet);
    let current = Cell::new(VerifyPass::Structure);
    let samples = if args.full { u64::MAX } else { args.samples };
    let report = verify(&db, samples, args.seed, &|pass, done, total| {
        if pass != current.get() {
            current.set(pass);
            bar.reset();
            bar.set_message(pass.name());
        }
        bar.set_length(total);
        bar.set_position(done);
    })
    .with_context(|| name.clone())?;
    bar.finish_and_clear();
    outcome.report = report;
    outcome.print()
}
