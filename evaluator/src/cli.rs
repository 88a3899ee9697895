//! Command-line plumbing shared by bgkit's binaries (`evaluator`, `datasets`,
//! `trainer`): the options that build an evaluator and the exit-status convention.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};

use crate::bearoff::BearoffDbs;
use crate::datadir;
use crate::weights::Weights;
use crate::Evaluator;

/// Options that build an evaluator: weights and bearoff databases.
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

/// The files an evaluator is built from, once found.
#[derive(Clone, Debug)]
pub struct EngineFiles {
    /// The weights file.
    pub weights: PathBuf,
    /// The one-sided bearoff database, unless `--no-bearoff`.
    pub one_sided: Option<PathBuf>,
    /// The two-sided bearoff database, unless `--no-bearoff`.
    pub two_sided: Option<PathBuf>,
}

impl EngineArgs {
    /// Finds the files: explicit paths first, then `$BGKIT_DATA` and gnubg's install
    /// directories; an error says what was looked for and where.
    pub fn files(&self) -> Result<EngineFiles> {
        let find = |given: Option<&Path>, what: &str, flag: &str, candidates: &[PathBuf]| {
            datadir::locate(given, what, flag, candidates).map_err(anyhow::Error::msg)
        };
        let weights = find(
            self.weights.as_deref(),
            "weights file",
            "--weights",
            &datadir::weights_candidates(),
        )?;
        if self.no_bearoff {
            return Ok(EngineFiles {
                weights,
                one_sided: None,
                two_sided: None,
            });
        }
        let one_sided = find(
            self.bearoff_os.as_deref(),
            "one-sided bearoff database (gnubg_os0.bd)",
            "--bearoff-os",
            &datadir::one_sided_candidates(),
        )?;
        let two_sided = find(
            self.bearoff_ts.as_deref(),
            "two-sided bearoff database (gnubg_ts0.bd)",
            "--bearoff-ts",
            &datadir::two_sided_candidates(),
        )?;
        Ok(EngineFiles {
            weights,
            one_sided: Some(one_sided),
            two_sided: Some(two_sided),
        })
    }

    /// Finds the files, loads the weights and opens the databases.
    pub fn evaluator(&self) -> Result<Evaluator> {
        self.files()?.evaluator(None)
    }
}

impl EngineFiles {
    /// Loads the weights (or `other_weights` instead) and opens the databases.
    pub fn evaluator(&self, other_weights: Option<&Path>) -> Result<Evaluator> {
        let weights = Weights::load(other_weights.unwrap_or(&self.weights))?;
        let dbs = BearoffDbs::open(self.one_sided.as_deref(), self.two_sided.as_deref())
            .context("cannot open the bearoff databases")?;
        Ok(Evaluator::new(weights, dbs))
    }
}

/// The exit status of a bgkit command from its result: the command's own status, or
/// for an error its message (with causes) on stderr after `program: ` and status 2.
/// A closed output pipe (`… | head`) ends the command quietly with success.
pub fn exit_status(program: &str, result: Result<ExitCode>) -> ExitCode {
    match result {
        Ok(code) => code,
        Err(err) => {
            let broken_pipe = err.chain().any(|e| {
                e.downcast_ref::<std::io::Error>()
                    .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            });
            if broken_pipe {
                return ExitCode::SUCCESS;
            }
            let _ = std::io::stdout().flush();
            eprintln!("{program}: {err:#}");
            ExitCode::from(2)
        }
    }
}
