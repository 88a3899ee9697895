//! `evaluator moves`: every legal move of a position and roll.

use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Result};
use board::MoveGen;

use super::position::PositionArgs;

/// List every legal move.
///
/// With one POSITION (a Position ID, PositionID:MatchID or an XGID; or --position-id)
/// and --dice (or the dice rolled in the Match ID or XGID): one line per move, `<notation>\t<position ID after
/// the move>`. With --input FILE.csv (header `position_id,die1,die2`): CSV
/// `position_id,die1,die2,n_moves,after_ids` where n_moves is the number of distinct
/// resulting positions (0 when no move is legal) and after_ids their Position IDs,
/// space-separated, sorted by byte order.
///
/// Resulting positions are written from the mover's side, as gnubg stores them in its
/// move lists: the mover is still the player "on roll" of the ID (swap the sides to get
/// the position the opponent faces).
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    one: PositionArgs,
    /// The roll, e.g. --dice 3 1 (default: the dice rolled in POSITION's Match ID or
    /// XGID).
    #[arg(long, num_args = 2, value_names = ["D1", "D2"], conflicts_with = "input")]
    dice: Vec<i64>,
    /// CSV file with columns position_id,die1,die2 ("-" for stdin).
    #[arg(long, conflicts_with_all = ["position_id", "position"])]
    input: Option<PathBuf>,
    /// Notation style for the single-position listing.
    #[arg(long, value_enum, default_value = "standard", conflicts_with = "input")]
    style: Style,
}

/// How moves are written.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum Style {
    /// Standard notation: `24/18(2), 13/7(2)`.
    Standard,
    /// gnubg's own style: `24/18(2) 13/7(2)`.
    Gnubg,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let mut out = BufWriter::new(cli_support::stdout());
    match (args.one.given()?, &args.input) {
        (Some(given), None) => {
            let (_, dice) = super::position::roll(args.one.text(), &given, &args.dice)?;
            for m in MoveGen::new().moves(&given.position, dice) {
                let text = match args.style {
                    Style::Standard => m.notation(),
                    Style::Gnubg => m.gnubg_notation(),
                };
                writeln!(out, "{text}\t{}", m.result.position_id())?;
            }
            out.flush()?;
            Ok(ExitCode::SUCCESS)
        }
        (None, Some(path)) => batch(path, &mut out),
        _ => {
            bail!("give --input FILE.csv, or one POSITION (and --dice D1 D2 unless it carries a roll)")
        }
    }
}

fn batch(path: &std::path::Path, out: &mut impl Write) -> Result<ExitCode> {
    // One thread and no bar, as before: `moves` takes no --threads.
    super::process_rows(
        super::RowJob {
            path,
            with_dice: true,
            header: "position_id,die1,die2,n_moves,after_ids",
            unit: "positions",
            threads: Some(1),
            quiet: true,
            init: MoveGen::new,
            each: |gen: &mut MoveGen, row: &super::Row| {
                let (d1, d2, dice) = row.dice.expect("dice requested");
                let mut ids: Vec<String> = gen
                    .positions(&row.pos, dice)
                    .iter()
                    .map(|p| p.position_id())
                    .collect();
                ids.sort_unstable();
                Ok(format!(
                    "{},{d1},{d2},{},{}
",
                    row.id,
                    ids.len(),
                    ids.join(" ")
                ))
            },
        },
        out,
    )
}
