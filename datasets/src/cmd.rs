//! One module per subcommand, each with its `Args` and `run`, and what they share.

pub mod benchmark;
pub mod convert;
pub mod label;
pub mod merge;
pub mod positions;
pub mod rollout;
pub mod sample;
pub mod stats;

use cli_support::progress::progress_bar_resumed;
pub use cli_support::{note, EngineArgs, JobArgs};
use datasets::format::Format;
use datasets::job::Progress;
use evaluator::engine::{EngineFiles, EngineOptions};
use indicatif::ProgressBar;
use std::time::Instant;

/// Finds the evaluator's files from the engine flags.
pub fn engine_files(a: &EngineArgs) -> anyhow::Result<EngineFiles> {
    let options = EngineOptions {
        weights: a.weights.clone(),
        bearoff_os: a.bearoff_os.clone(),
        bearoff_ts: a.bearoff_ts.clone(),
        no_bearoff: a.no_bearoff,
    };
    Ok(options.files()?)
}

/// `--format`, `--from`, `--to`: a dataset file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FormatArg {
    /// CSV with a header (`.csv`).
    Csv,
    /// gnubg-nn training text (`.nn`, `.dat`, `.txt`).
    GnubgNn,
    /// bgkit's binary dataset (`.bgds`, `.bin`).
    Binary,
}

/// The name of a format, as `--format` spells it (for JSON summaries).
pub fn format_name(f: Format) -> &'static str {
    match f {
        Format::Csv => "csv",
        Format::GnubgNn => "gnubg-nn",
        Format::Binary => "binary",
    }
}

/// Prints a JSON value on stdout, pretty, as the `--json` summaries do.
pub fn print_json(value: &serde_json::Value) -> anyhow::Result<()> {
    cli_support::outln!("{}", serde_json::to_string_pretty(value)?)?;
    Ok(())
}

impl From<FormatArg> for Format {
    fn from(f: FormatArg) -> Format {
        match f {
            FormatArg::Csv => Format::Csv,
            FormatArg::GnubgNn => Format::GnubgNn,
            FormatArg::Binary => Format::Binary,
        }
    }
}

/// A job's progress on stderr: a bar counting `unit` and notes prefixed with
/// `datasets: ` (nothing with `--quiet`).
pub struct Bar {
    bar: Option<ProgressBar>,
    unit: &'static str,
    quiet: bool,
    deadline: Option<Instant>,
}

impl Bar {
    /// Progress counting `unit` (positions, games); with a `--minutes` deadline the
    /// ETA is the time to whichever comes first, the end of the work or the deadline.
    pub fn new(unit: &'static str, quiet: bool, deadline: Option<Instant>) -> Bar {
        Bar {
            bar: None,
            unit,
            quiet,
            deadline,
        }
    }
}

impl Progress for Bar {
    fn start(&mut self, total: u64, done: u64) {
        // The rate and ETA count this run's units only (see cli_support::progress).
        self.bar = Some(progress_bar_resumed(
            total,
            done,
            self.unit,
            self.quiet,
            self.deadline,
        ));
    }

    fn update(&mut self, done: u64, status: Option<String>) {
        if let Some(bar) = &self.bar {
            bar.set_position(done);
            if let Some(s) = status {
                bar.set_message(s);
            }
        }
    }

    fn note(&mut self, text: &str) {
        note(self.quiet, &format!("datasets: {text}"));
    }

    fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

/// What a run stopped by `--minutes` left out, for its summary line: ` (stopped by
/// --minutes: LEFT of TOTAL WHAT)`, or nothing when it finished.
pub fn stopped_note(left: u64, total: u64, what: &str) -> String {
    if left == 0 {
        return String::new();
    }
    format!(" (stopped by --minutes: {left} of {total} {what})")
}
