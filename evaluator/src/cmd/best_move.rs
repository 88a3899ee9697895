//! `evaluator best-move`: gnubg's move choice.

use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Result};
use board::MoveGen;
use evaluator::search::FILTERS_NORMAL;

use super::{EngineArgs, SearchArgs};

/// Choose the best move by cubeless money equity, as gnubg does (0 ply unless
/// --plies; deeper searches use gnubg's "normal" move filters).
///
/// With --input FILE.csv (columns `position_id,die1,die2`): CSV
/// `position_id,die1,die2,best_move,best_after_id`, the move in gnubg's notation and the
/// position after it from the mover's side (as `moves` writes it); both empty when no
/// move is legal. With --position-id and --dice: the move, its equity and the ID.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    engine: EngineArgs,
    #[command(flatten)]
    search: SearchArgs,
    /// CSV file with columns position_id,die1,die2 ("-" for stdin).
    #[arg(long, conflicts_with = "position_id")]
    input: Option<PathBuf>,
    /// One position (with --dice).
    #[arg(long, requires = "dice")]
    position_id: Option<String>,
    /// The roll, e.g. --dice 3 1.
    #[arg(long, num_args = 2, value_names = ["D1", "D2"])]
    dice: Vec<u8>,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let ev = args.search.evaluator(&args.engine)?;
    let (plies, look) = (args.search.plies, args.search.lookahead());
    let mut gen = MoveGen::new();
    let mut out = BufWriter::new(cli_support::stdout());
    match (&args.input, &args.position_id) {
        (Some(path), None) => {
            let header = "position_id,die1,die2,best_move,best_after_id";
            super::process_rows(path, true, header, &mut out, |row, out| {
                let (d1, d2, dice) = row.dice.expect("dice requested");
                match ev.best_move_plied(&mut gen, &row.pos, dice, plies, &FILTERS_NORMAL, look)? {
                    Some((m, _)) => writeln!(
                        out,
                        "{},{d1},{d2},{},{}",
                        row.id,
                        m.gnubg_notation(),
                        m.result.position_id()
                    )?,
                    None => writeln!(out, "{},{d1},{d2},,", row.id)?,
                }
                Ok(())
            })
        }
        (None, Some(id)) => {
            let pos = super::parse_position(id)?;
            let dice = super::parse_dice(&args.dice)?;
            match ev.best_move_plied(&mut gen, &pos, dice, plies, &FILTERS_NORMAL, look)? {
                Some((m, eq)) => writeln!(out, "{}\t{eq:+.6}\t{}", m.notation(), m.result.position_id())?,
                None => writeln!(out, "no legal move")?,
            }
            out.flush()?;
            Ok(ExitCode::SUCCESS)
        }
        _ => bail!("give --input FILE.csv, or --position-id ID --dice D1 D2"),
    }
}
