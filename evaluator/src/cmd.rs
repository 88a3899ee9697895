//! One module per subcommand, each with its `Args` and `run`.

pub mod bench;
pub mod best_move;
pub mod eval;
pub mod moves;
pub mod notation;
pub mod show;

use std::path::PathBuf;

use anyhow::{Context, Result};
use board::{Dice, Position};
use evaluator::bearoff::BearoffDbs;
use evaluator::datadir;
use evaluator::weights::Weights;
use evaluator::Evaluator;

/// Parses a Position ID, naming it in the error.
pub fn parse_position(id: &str) -> Result<Position> {
    Position::from_id(id).with_context(|| format!("bad --position-id '{id}'"))
}

/// Builds a roll from two dice, naming them in the error.
pub fn parse_dice(d: &[u8]) -> Result<Dice> {
    match d {
        [a, b] => Dice::new(*a, *b).context("bad --dice"),
        _ => anyhow::bail!("--dice takes two values, e.g. --dice 3 1"),
    }
}

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

impl EngineArgs {
    /// Loads the weights and opens the databases.
    pub fn evaluator(&self) -> Result<Evaluator> {
        let wpath = datadir::locate(
            self.weights.as_deref(),
            "weights file",
            "--weights",
            &datadir::weights_candidates(),
        )
        .map_err(anyhow::Error::msg)?;
        let weights = Weights::load(&wpath)?;
        let dbs = if self.no_bearoff {
            BearoffDbs::default()
        } else {
            let os = datadir::locate(
                self.bearoff_os.as_deref(),
                "one-sided bearoff database (gnubg_os0.bd)",
                "--bearoff-os",
                &datadir::one_sided_candidates(),
            )
            .map_err(anyhow::Error::msg)?;
            let ts = datadir::locate(
                self.bearoff_ts.as_deref(),
                "two-sided bearoff database (gnubg_ts0.bd)",
                "--bearoff-ts",
                &datadir::two_sided_candidates(),
            )
            .map_err(anyhow::Error::msg)?;
            BearoffDbs::open(Some(&os), Some(&ts)).context("cannot open the bearoff databases")?
        };
        Ok(Evaluator::new(weights, dbs))
    }
}

/// Reads a CSV file (or stdin for "-") and finds the named columns in its header.
pub struct CsvInput {
    /// The file name, for messages.
    pub name: String,
    /// The reader, positioned after the header.
    pub reader: csv::Reader<Box<dyn std::io::Read>>,
    /// Column index of each requested name.
    pub columns: Vec<usize>,
}

impl CsvInput {
    /// Opens `path` and locates `names` in the header.
    pub fn open(path: &std::path::Path, names: &[&str]) -> Result<CsvInput> {
        let name = path.display().to_string();
        let source: Box<dyn std::io::Read> = if name == "-" {
            Box::new(std::io::stdin())
        } else {
            Box::new(std::fs::File::open(path).with_context(|| format!("cannot open {name}"))?)
        };
        let mut reader = csv::Reader::from_reader(source);
        let headers = reader
            .headers()
            .with_context(|| format!("{name}: cannot read the CSV header"))?
            .clone();
        let columns = names
            .iter()
            .map(|want| {
                headers.iter().position(|h| h.trim() == *want).with_context(|| {
                    format!(
                        "{name}: the header has no '{want}' column (need {})",
                        names.join(",")
                    )
                })
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(CsvInput {
            name,
            reader,
            columns,
        })
    }
}
