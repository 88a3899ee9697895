//! One module per subcommand, each with its `Args` and `run`.

pub mod bench;
pub mod best_move;
pub mod eval;
pub mod moves;
pub mod notation;
pub mod show;

use anyhow::{Context, Result};
use board::{Dice, Position};
pub use cli_support::EngineArgs;
use evaluator::engine::EngineOptions;
use evaluator::Evaluator;

/// The evaluator library's engine options from the shared engine flags.
pub fn engine_options(a: &EngineArgs) -> EngineOptions {
    EngineOptions {
        weights: a.weights.clone(),
        bearoff_os: a.bearoff_os.clone(),
        bearoff_ts: a.bearoff_ts.clone(),
        no_bearoff: a.no_bearoff,
    }
}

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

/// One row of an input CSV: its Position ID as written, the position, and the dice
/// (`(die1, die2, roll)` as written) when the command reads dice.
pub struct Row {
    /// The `position_id` field, trimmed.
    pub id: String,
    /// The decoded position.
    pub pos: Position,
    /// `die1`, `die2` and the roll, for commands that read dice.
    pub dice: Option<(u8, u8, Dice)>,
}

/// Reads a CSV (a path, or stdin for "-") with a `position_id` column (and `die1`,
/// `die2` when `with_dice`), writes `header`, then calls `each` for every row. A row
/// that cannot be read, or for which `each` fails, is reported on stderr with its file
/// and line and skipped; the exit status is then 2.
pub fn process_rows(
    path: &std::path::Path,
    with_dice: bool,
    header: &str,
    out: &mut impl std::io::Write,
    mut each: impl FnMut(&Row, &mut dyn std::io::Write) -> Result<()>,
) -> Result<std::process::ExitCode> {
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
    let names: &[&str] = if with_dice {
        &["position_id", "die1", "die2"]
    } else {
        &["position_id"]
    };
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
    writeln!(out, "{header}")?;
    let mut errors = 0usize;
    for (n, record) in reader.records().enumerate() {
        let line = n + 2;
        let result = record.context("malformed CSV").and_then(|r| {
            let field = |k: usize| r.get(columns[k]).unwrap_or("").trim().to_string();
            let id = field(0);
            let pos = Position::from_id(&id)?;
            let dice = if with_dice {
                let die = |k: usize| -> Result<u8> {
                    let t = field(k);
                    t.parse().with_context(|| format!("die '{t}' is not a number"))
                };
                let (d1, d2) = (die(1)?, die(2)?);
                Some((d1, d2, Dice::new(d1, d2)?))
            } else {
                None
            };
            Ok(Row { id, pos, dice })
        });
        // A bad row is reported and skipped; a failed write (a closed or full stdout)
        // ends the command at once.
        let result = match result {
            Ok(row) => each(&row, out).map_err(|e| match e.downcast::<std::io::Error>() {
                Ok(io) => Stop::Output(io),
                Err(e) => Stop::Row(e),
            }),
            Err(e) => Err(Stop::Row(e)),
        };
        match result {
            Ok(()) => {}
            Err(Stop::Output(io)) => return Err(io.into()),
            Err(Stop::Row(e)) => {
                cli_support::errln!("evaluator: {name}:{line}: {e:#}");
                errors += 1;
            }
        }
    }
    out.flush()?;
    if errors > 0 {
        cli_support::errln!("evaluator: {name}: {errors} bad row(s) skipped");
        return Ok(std::process::ExitCode::from(2));
    }
    Ok(std::process::ExitCode::SUCCESS)
}

/// Why a row was not written: the row itself, or the output.
enum Stop {
    Row(anyhow::Error),
    Output(std::io::Error),
}

/// Lookahead options shared by `eval` and `best-move`.
#[derive(clap::Args, Clone, Debug)]
pub struct SearchArgs {
    /// Search depth: 0 (static, default) up to 4 plies of lookahead (gnubg's method).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=4))]
    pub plies: u32,
    /// In lookahead, score every move fully instead of letting gnubg's pruning nets
    /// preselect candidates.
    #[arg(long)]
    pub no_prune: bool,
}

impl SearchArgs {
    /// The lookahead settings.
    pub fn lookahead(&self) -> evaluator::search::Lookahead {
        evaluator::search::Lookahead {
            prune: !self.no_prune,
        }
    }

    /// The evaluator from `engine`, with a cache when searching.
    pub fn evaluator(&self, engine: &EngineArgs) -> Result<Evaluator> {
        Ok(engine_options(engine)
            .evaluator()?
            .with_cache(if self.plies > 0 { 20 } else { 0 }))
    }
}
