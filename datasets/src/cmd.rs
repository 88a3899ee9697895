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
use std::path::Path;
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

/// The files an evaluator built from `files` opens: the weights and the bearoff
/// databases in use.
pub fn engine_inputs(files: &EngineFiles) -> Vec<&Path> {
    std::iter::once(files.weights.as_path())
        .chain(files.one_sided.as_deref())
        .chain(files.two_sided.as_deref())
        .collect()
}

/// The rule for the output of a job that builds an evaluator: `output` is checked
/// against `inputs` and the engine flags given ([`cli_support::outputs::check`]), then
/// the evaluator's files are found and `output` is refused, `--force` or not, when it
/// is one of them, also when they were found by default (`$BGKIT_DATA`, gnubg's
/// install directories) rather than named. Returns the files found.
pub fn engine_files_for(
    engine: &EngineArgs,
    output: &Path,
    inputs: &[&Path],
    force: bool,
) -> anyhow::Result<EngineFiles> {
    let mut given = engine.paths();
    given.extend_from_slice(inputs);
    cli_support::outputs::check(output, &given, force)?;
    let files = engine_files(engine)?;
    cli_support::outputs::check_not_input(output, &engine_inputs(&files))?;
    Ok(files)
}

/// The value parser of a count that must be at least 1 (`--max-positions`): the
/// message says so instead of clap's "number would be zero for non-zero type".
pub fn count_from_one(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => Err("must be at least 1".into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("must be a whole number from 1 to {}", usize::MAX)),
    }
}

/// The value parser of an `f32` setting that must be a finite number, at least 0
/// (`--noise`, `--threshold`); clap's message shows the value as typed (`1e300`, not
/// the `inf` it rounds to).
pub fn non_negative_f32(text: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(x) if x >= 0.0 && x.is_finite() => Ok(x),
        Ok(x) if x.is_infinite() && text.parse::<f64>().is_ok_and(f64::is_finite) => Err(format!(
            "must be a non-negative number no larger than {:e}",
            f32::MAX
        )),
        _ => Err("must be a non-negative number".into()),
    }
}

/// The value parser of a probability (`--epsilon`): a number from 0 to 1, shown as
/// typed when it is not one.
pub fn probability(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(p) if (0.0..=1.0).contains(&p) => Ok(p),
        _ => Err("must be a number between 0 and 1".into()),
    }
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
