//! `evaluator best-move`: gnubg's move choice.

use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Result};
use board::MoveGen;
use evaluator::search::FILTERS_NORMAL;

use super::position::PositionArgs;
use super::{BatchArgs, EngineArgs, RowJob, SearchArgs};

/// Choose the best move by cubeless money equity, as gnubg does (0 ply unless
/// --plies; deeper searches use gnubg's "normal" move filters).
///
/// With --input FILE.csv (columns `position_id,die1,die2`): CSV
/// `position_id,die1,die2,best_move,best_after_id`, the move in gnubg's notation and the
/// position after it from the mover's side (as `moves` writes it); both empty when no
/// move is legal; rows in the input's order on any number of threads. With one
/// POSITION (a Position ID, PositionID:MatchID or an XGID; or --position-id) and
/// --dice (or the dice rolled in the Match ID or XGID): the move, its equity and the
/// ID, or with --json one JSON object.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    engine: EngineArgs,
    #[command(flatten)]
    search: SearchArgs,
    #[command(flatten)]
    batch: BatchArgs,
    /// CSV file with columns position_id,die1,die2 ("-" for stdin).
    #[arg(long, conflicts_with_all = ["position_id", "position"])]
    input: Option<PathBuf>,
    #[command(flatten)]
    one: PositionArgs,
    /// The roll, e.g. --dice 3 1 (default: the dice rolled in POSITION's Match ID or
    /// XGID).
    #[arg(long, num_args = 2, value_names = ["D1", "D2"], conflicts_with = "input")]
    dice: Vec<i64>,
    /// With POSITION: print one JSON object instead of the line.
    #[arg(long, conflicts_with = "input")]
    json: bool,
}

/// One decision, as `--json` prints it (the move fields are null when no move is legal).
#[derive(serde::Serialize)]
struct Report {
    position_id: String,
    dice: [u8; 2],
    plies: u32,
    best_move: Option<String>,
    best_move_gnubg: Option<String>,
    equity: Option<f32>,
    best_after_id: Option<String>,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let ev = args.search.evaluator(&args.engine)?;
    let (plies, look) = (args.search.plies, args.search.lookahead());
    let mut out = BufWriter::new(cli_support::stdout());
    match (&args.input, args.one.given()?) {
        (Some(path), None) => super::process_rows(
            RowJob {
                path,
                with_dice: true,
                header: "position_id,die1,die2,best_move,best_after_id",
                unit: "moves",
                threads: args.batch.threads,
                quiet: args.batch.quiet,
                init: MoveGen::new,
                each: |gen: &mut MoveGen, row: &super::Row| {
                    let (d1, d2, dice) = row.dice.expect("dice requested");
                    Ok(
                        match ev.best_move_plied(gen, &row.pos, dice, plies, &FILTERS_NORMAL, look)? {
                            Some((m, _)) => format!(
                                "{},{d1},{d2},{},{}\n",
                                row.id,
                                m.gnubg_notation(),
                                m.result.position_id()
                            ),
                            None => format!("{},{d1},{d2},,\n", row.id),
                        },
                    )
                },
            },
            &mut out,
        ),
        (None, Some(given)) => {
            let ((d1, d2), dice) = super::position::roll(args.one.text(), &given, &args.dice)?;
            let pos = given.position;
            let best = ev.best_move_plied(&mut MoveGen::new(), &pos, dice, plies, &FILTERS_NORMAL, look)?;
            if args.json {
                let report = Report {
                    position_id: pos.position_id(),
                    dice: [d1, d2],
                    plies,
                    best_move: best.as_ref().map(|(m, _)| m.notation()),
                    best_move_gnubg: best.as_ref().map(|(m, _)| m.gnubg_notation()),
                    equity: best.as_ref().map(|(_, eq)| *eq),
                    best_after_id: best.as_ref().map(|(m, _)| m.result.position_id()),
                };
                writeln!(out, "{}", serde_json::to_string(&report)?)?;
            } else {
                match best {
                    Some((m, eq)) => writeln!(out, "{}\t{eq:+.6}\t{}", m.notation(), m.result.position_id())?,
                    None => writeln!(out, "no legal move")?,
                }
            }
            out.flush()?;
            Ok(ExitCode::SUCCESS)
        }
        _ => bail!("give --input FILE.csv, or one POSITION (and --dice D1 D2 unless it carries a roll)"),
    }
}
