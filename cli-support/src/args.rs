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
    /// The files given on the command line (inputs an output must not replace).
    pub fn paths(&self) -> Vec<&std::path::Path> {
        [&self.weights, &self.bearoff_os, &self.bearoff_ts]
            .into_iter()
            .flatten()
            .map(PathBuf::as_path)
            .collect()
    }
}

impl BearoffArgs {
    /// The files given on the command line (inputs an output must not replace).
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
    /// input). An interrupted run's partial results are resumed without it.
    #[arg(long)]
    pub force: bool,
}

/// The deadline of `--minutes M` ("stop after this many minutes of this session"), the
/// same check in every tool: M must be a positive number.
pub fn deadline(minutes: Option<f64>) -> anyhow::Result<Option<std::time::Instant>> {
    match minutes {
        Some(m) if !(m > 0.0 && m.is_finite()) => {
            anyhow::bail!("--minutes must be a positive number, got {m}")
        }
        Some(m) => Ok(Some(
            std::time::Instant::now() + std::time::Duration::from_secs_f64(m * 60.0),
        )),
        None => Ok(None),
    }
}
