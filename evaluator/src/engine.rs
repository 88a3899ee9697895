//! Building an evaluator from files: which weights and bearoff databases (explicit
//! paths, else the defaults of [`datadir`]), found, loaded and opened. The binaries
//! fill [`EngineOptions`] from their `--weights`, `--bearoff-os`, `--bearoff-ts` and
//! `--no-bearoff` flags.

use std::path::{Path, PathBuf};

use crate::bearoff::BearoffDbs;
use crate::datadir;
use crate::weights::{Weights, WeightsError};
use crate::Evaluator;
use gen_bearoff::BearoffError;

/// Which files build an evaluator: each path if given, else the default search.
#[derive(Clone, Debug, Default)]
pub struct EngineOptions {
    /// The weights file (gnubg.wd or gnubg.weights).
    pub weights: Option<PathBuf>,
    /// The one-sided bearoff database (gnubg_os0.bd).
    pub bearoff_os: Option<PathBuf>,
    /// The two-sided bearoff database (gnubg_ts0.bd).
    pub bearoff_ts: Option<PathBuf>,
    /// No bearoff databases (race net everywhere; not gnubg's answers).
    pub no_bearoff: bool,
}

/// The files an evaluator is built from, once found.
#[derive(Clone, Debug)]
pub struct EngineFiles {
    /// The weights file.
    pub weights: PathBuf,
    /// The one-sided bearoff database, unless without databases.
    pub one_sided: Option<PathBuf>,
    /// The two-sided bearoff database, unless without databases.
    pub two_sided: Option<PathBuf>,
}

/// Why an evaluator could not be built.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EngineError {
    /// A file was not given and is in none of the default places (the message lists
    /// them and names the flag).
    #[error("{0}")]
    NotFound(String),
    /// The weights file could not be read.
    #[error(transparent)]
    Weights(#[from] WeightsError),
    /// A bearoff database could not be opened.
    #[error("cannot open the bearoff databases")]
    Bearoff(#[source] BearoffError),
}

/// How a caller names the three files, for the advice in "not found" errors: the
/// command-line flags ([`OptionNames::FLAGS`]), or the Python package's arguments.
#[derive(Clone, Copy, Debug)]
pub struct OptionNames {
    /// How to give the weights file (`--weights FILE`).
    pub weights: &'static str,
    /// How to give the one-sided database (`--bearoff-os FILE`).
    pub bearoff_os: &'static str,
    /// How to give the two-sided database (`--bearoff-ts FILE`).
    pub bearoff_ts: &'static str,
}

impl OptionNames {
    /// The command-line tools' flags.
    pub const FLAGS: OptionNames = OptionNames {
        weights: "--weights FILE",
        bearoff_os: "--bearoff-os FILE",
        bearoff_ts: "--bearoff-ts FILE",
    };
}

impl EngineOptions {
    /// Finds the files: explicit paths first, then `$BGKIT_DATA` and gnubg's install
    /// directories; an error says what was looked for and where, and names the flags
    /// that give a file.
    pub fn files(&self) -> Result<EngineFiles, EngineError> {
        self.files_named(&OptionNames::FLAGS)
    }

    /// [`files`](Self::files), with errors that name the files' options as `names`.
    pub fn files_named(&self, names: &OptionNames) -> Result<EngineFiles, EngineError> {
        let find = |given: Option<&Path>, what: &str, flag: &str, candidates: &[PathBuf]| {
            datadir::locate(given, what, flag, candidates).map_err(EngineError::NotFound)
        };
        let weights = find(
            self.weights.as_deref(),
            "weights file",
            names.weights,
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
            names.bearoff_os,
            &datadir::one_sided_candidates(),
        )?;
        let two_sided = find(
            self.bearoff_ts.as_deref(),
            "two-sided bearoff database (gnubg_ts0.bd)",
            names.bearoff_ts,
            &datadir::two_sided_candidates(),
        )?;
        Ok(EngineFiles {
            weights,
            one_sided: Some(one_sided),
            two_sided: Some(two_sided),
        })
    }

    /// Finds the files, loads the weights and opens the databases.
    pub fn evaluator(&self) -> Result<Evaluator, EngineError> {
        self.files()?.evaluator(None)
    }
}

impl EngineFiles {
    /// Loads the weights (or `other_weights` instead) and opens the databases.
    pub fn evaluator(&self, other_weights: Option<&Path>) -> Result<Evaluator, EngineError> {
        let weights = Weights::load(other_weights.unwrap_or(&self.weights))?;
        let dbs = BearoffDbs::open(self.one_sided.as_deref(), self.two_sided.as_deref())
            .map_err(EngineError::Bearoff)?;
        Ok(Evaluator::new(weights, dbs))
    }
}
