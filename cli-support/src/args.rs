//! Options shared by several subcommands, as clap argument groups of plain values.

use std::path::PathBuf;

/// Options that build an evaluator: weights and bearoff databases (plain paths; the
/// evaluator library finds the defaults and opens the files).
#[derive(clap::Args, Clone, Debug)]
pub struct EngineArgs {
    /// Weights file (gnubg.wd or gnubg.weights). Default: $BGKIT_DATA, then gnubg's
    /// install directories (/usr/lib/gnubg, /usr/share/gnubg).
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// One-sided bearoff database (gnubg_os0.bd). Default: $BGKIT_DATA, then
    /// /usr/share/gnubg, /var/lib/gnubg.
    #[arg(long)]
    pub bearoff_os: Option<PathBuf>,
    /// Two-sided bearoff database (gnubg_ts0.bd). Default: $BGKIT_DATA, then
    /// /var/lib/gnubg, /usr/share/gnubg.
    #[arg(long)]
    pub bearoff_ts: Option<PathBuf>,
    /// Evaluate without bearoff databases (race net everywhere; not gnubg's answers).
    #[arg(long, conflicts_with_all = ["bearoff_os", "bearoff_ts"])]
    pub no_bearoff: bool,
}

impl EngineArgs {
    /// The files given on the command line (inputs an output must not replace). Only
    /// those named by a flag: the files found by default (`$BGKIT_DATA`, gnubg's
    /// install directories) are known once the evaluator's options are resolved, and a
    /// command must refuse an output that is one of those too (`datasets` does it in
    /// its `cmd::engine_files_for`, with [`crate::outputs::check_not_input`]).
    pub fn paths(&self) -> Vec<&std::path::Path> {
        [&self.weights, &self.bearoff_os, &self.bearoff_ts]
            .into_iter()
            .flatten()
            .map(PathBuf::as_path)
            .collect()
    }
}

impl BearoffArgs {
    /// The files given on the command line (inputs an output must not replace); as
    /// with [`EngineArgs::paths`], the databases found by default must be checked
    /// once resolved.
    pub fn paths(&self) -> Vec<&std::path::Path> {
        [&self.bearoff_os, &self.bearoff_ts]
            .into_iter()
            .flatten()
            .map(PathBuf::as_path)
            .collect()
    }
}

/// Where the bearoff databases are, for commands that take no weights of their own
/// (the same flags and defaults as in [`EngineArgs`]).
#[derive(clap::Args, Clone, Debug)]
pub struct BearoffArgs {
    /// One-sided bearoff database (gnubg_os0.bd). Default: $BGKIT_DATA, then
    /// /usr/share/gnubg, /var/lib/gnubg.
    #[arg(long)]
    pub bearoff_os: Option<PathBuf>,
    /// Two-sided bearoff database (gnubg_ts0.bd). Default: $BGKIT_DATA, then
    /// /var/lib/gnubg, /usr/share/gnubg.
    #[arg(long)]
    pub bearoff_ts: Option<PathBuf>,
}

/// Options shared by the resumable jobs (sample, rollout, benchmark build).
#[derive(clap::Args, Clone, Debug)]
pub struct JobArgs {
    /// Worker threads (default: one per core).
    #[arg(long, short = 'j')]
    pub threads: Option<usize>,
    /// Discard partial results of an earlier run instead of resuming.
    #[arg(long)]
    pub fresh: bool,
    /// No progress bar or summary.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Replace an existing output file (an output is never allowed to replace an
    /// input). Without it, a file that appears at the output's name while the job
    /// runs is kept too. An interrupted run's partial results are resumed without it.
    #[arg(long)]
    pub force: bool,
}

/// The longest time any flag accepts (a thousand years): a longer one means "never",
/// and saying so with a number this large is almost always a slip.
pub const LONGEST_SECONDS: f64 = 1000.0 * 365.25 * 86400.0;

/// The unit a time flag counts in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeUnit {
    /// `--seconds`, `--stale-after`.
    Seconds,
    /// `--minutes`.
    Minutes,
}

impl TimeUnit {
    fn seconds(self) -> f64 {
        match self {
            TimeUnit::Seconds => 1.0,
            TimeUnit::Minutes => 60.0,
        }
    }

    fn name(self) -> &'static str {
        match self {
            TimeUnit::Seconds => "seconds",
            TimeUnit::Minutes => "minutes",
        }
    }
}

/// `value` of `flag` counted in `unit`, as a duration: the same check for every flag
/// that takes a time (`--minutes`, `--seconds`, `--stale-after`). It must be a
/// positive number no longer than [`LONGEST_SECONDS`].
pub fn positive_duration(flag: &str, value: f64, unit: TimeUnit) -> anyhow::Result<std::time::Duration> {
    if !(value > 0.0 && value.is_finite()) {
        anyhow::bail!(
            "{flag} must be a positive number of {}, got {}",
            unit.name(),
            short_number(value)
        );
    }
    let seconds = value * unit.seconds();
    if seconds > LONGEST_SECONDS {
        anyhow::bail!(
            "{flag} {} is longer than a thousand years (the most it accepts is {} {})",
            short_number(value),
            LONGEST_SECONDS / unit.seconds(),
            unit.name()
        );
    }
    Ok(std::time::Duration::from_secs_f64(seconds))
}

/// The deadline of `--minutes M` ("stop after this many minutes of this session"), the
/// same check in every tool: M must be a positive number (see [`positive_duration`]).
pub fn deadline(minutes: Option<f64>) -> anyhow::Result<Option<std::time::Instant>> {
    let Some(m) = minutes else { return Ok(None) };
    let span = positive_duration("--minutes", m, TimeUnit::Minutes)?;
    let now = std::time::Instant::now();
    match now.checked_add(span) {
        Some(at) => Ok(Some(at)),
        None => anyhow::bail!(
            "--minutes {} reaches past the end of this system's clock",
            short_number(m)
        ),
    }
}

/// A number for a message, as short as it reads: Rust's plain decimal (`0.5`, `1440`)
/// unless scientific notation is shorter (`1e300`, not 301 digits; `1e-30`).
pub fn short_number(x: f64) -> String {
    let plain = x.to_string();
    let scientific = format!("{x:e}");
    if plain.len() > 12 && scientific.len() < plain.len() {
        scientific
    } else {
        plain
    }
}

/// The value parser of an input file that is read by its path (mapped, read twice, or
/// named again on `--resume`): `-` is refused with one clear message instead of being
/// looked up as a file called `-` (only the evaluator's `--input` reads standard input).
/// Any other name is taken as it is, UTF-8 or not.
pub fn input_file() -> impl clap::builder::TypedValueParser<Value = PathBuf> {
    use clap::builder::TypedValueParser;
    clap::builder::PathBufValueParser::new().try_map(|p: PathBuf| {
        if p.as_os_str() == "-" {
            Err("standard input ('-') is not read here; give a file")
        } else {
            Ok(p)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_positive_finite_and_at_most_a_thousand_years() {
        for (m, says) in [
            (0.0, "--minutes must be a positive number of minutes, got 0"),
            (-1.0, "--minutes must be a positive number of minutes, got -1"),
            (
                f64::NAN,
                "--minutes must be a positive number of minutes, got NaN",
            ),
            (
                f64::INFINITY,
                "--minutes must be a positive number of minutes, got inf",
            ),
            (
                1e30,
                "--minutes 1e30 is longer than a thousand years (the most it accepts is 525960000 minutes)",
            ),
            (
                1e300,
                "--minutes 1e300 is longer than a thousand years (the most it accepts is 525960000 minutes)",
            ),
            (
                -1e-300,
                "--minutes must be a positive number of minutes, got -1e-300",
            ),
        ] {
            assert_eq!(deadline(Some(m)).unwrap_err().to_string(), says);
        }
        assert_eq!(deadline(None).unwrap(), None);
        let before = std::time::Instant::now();
        let at = deadline(Some(0.5)).unwrap().unwrap();
        assert!(at >= before + std::time::Duration::from_secs(30));
        assert!(at <= std::time::Instant::now() + std::time::Duration::from_secs(30));
        assert_eq!(
            positive_duration("--seconds", 2.5, TimeUnit::Seconds).unwrap(),
            std::time::Duration::from_millis(2500)
        );
        assert!(positive_duration("--seconds", LONGEST_SECONDS, TimeUnit::Seconds).is_ok());
        assert!(positive_duration("--seconds", LONGEST_SECONDS * 1.01, TimeUnit::Seconds).is_err());
    }

    #[test]
    fn numbers_in_messages_are_short() {
        for (x, says) in [
            (0.5, "0.5"),
            (1440.0, "1440"),
            (525960000.0, "525960000"),
            (123456789.125, "123456789.125"),
            (1e300, "1e300"),
            (2.5e-20, "2.5e-20"),
            (f64::INFINITY, "inf"),
        ] {
            assert_eq!(short_number(x), says);
        }
    }

    #[test]
    fn an_input_file_is_a_path_but_not_standard_input() {
        use std::ffi::OsString;
        use std::os::unix::ffi::OsStringExt;
        let cmd = || clap::Command::new("t").arg(clap::Arg::new("input").value_parser(input_file()));
        let parse = |v: OsString| {
            cmd()
                .try_get_matches_from([OsString::from("t"), v])
                .map(|m| m.get_one::<PathBuf>("input").cloned().unwrap())
        };
        assert_eq!(parse("a/b.csv".into()).unwrap(), PathBuf::from("a/b.csv"));
        assert_eq!(parse("./-".into()).unwrap(), PathBuf::from("./-"));
        let odd = OsString::from_vec(b"x\xff.csv".to_vec());
        assert_eq!(parse(odd.clone()).unwrap(), PathBuf::from(odd));
        let e = parse("-".into()).unwrap_err().to_string();
        assert!(
            e.contains("standard input ('-') is not read here; give a file"),
            "{e}"
        );
    }
}
