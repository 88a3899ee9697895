//! `evaluator eval`: cubeless evaluations (0-ply, or with lookahead).

use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Result};
use board::Player;
use evaluator::eval::{invert, money_equity};

use super::position::PositionArgs;
use super::{BatchArgs, EngineArgs, RowJob, SearchArgs};

/// Evaluate positions, cubeless, as gnubg does (0 ply unless --plies).
///
/// With --input FILE.csv (a `position_id` column): CSV
/// `position_id,class,p_win,p_wg,p_wbg,p_lg,p_lbg`, probabilities for the side on roll
/// (gammons include backgammons), class as gnubg numbers it (0 over, 4 bearoff2,
/// 6 bearoff1, 8 race, 9 crashed, 10 contact), rows in the input's order on any number
/// of threads. With one POSITION (a Position ID, PositionID:MatchID or an XGID; or
/// --position-id): a readable report, or with --json one JSON object.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    engine: EngineArgs,
    #[command(flatten)]
    search: SearchArgs,
    #[command(flatten)]
    batch: BatchArgs,
    /// CSV file with a position_id column ("-" for stdin).
    #[arg(long, conflicts_with_all = ["position_id", "position"])]
    input: Option<PathBuf>,
    #[command(flatten)]
    one: PositionArgs,
    /// With POSITION: print one JSON object instead of the report.
    #[arg(long, conflicts_with = "input")]
    json: bool,
}

/// One position's evaluation, as `--json` prints it.
#[derive(serde::Serialize)]
struct Report {
    position_id: String,
    class: u8,
    class_name: String,
    plies: u32,
    pips_on_roll: u32,
    pips_opponent: u32,
    p_win: f32,
    p_wg: f32,
    p_wbg: f32,
    p_lg: f32,
    p_lbg: f32,
    equity: f32,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let ev = args.search.evaluator(&args.engine)?;
    let (plies, look) = (args.search.plies, args.search.lookahead());
    let mut out = BufWriter::new(cli_support::stdout());
    match (&args.input, args.one.given()?) {
        (Some(path), None) => super::process_rows(
            RowJob {
                path,
                with_dice: false,
                header: "position_id,class,p_win,p_wg,p_wbg,p_lg,p_lbg",
                unit: "positions",
                threads: args.batch.threads,
                quiet: args.batch.quiet,
                init: || (),
                each: |_: &mut (), row: &super::Row| {
                    let class = ev.classify(&row.pos);
                    let p = ev.evaluate_plied(&row.pos, plies, look)?;
                    Ok(format!(
                        "{},{},{:?},{:?},{:?},{:?},{:?}\n",
                        row.id, class as u8, p[0], p[1], p[2], p[3], p[4]
                    ))
                },
            },
            &mut out,
        ),
        (None, Some(given)) => {
            let pos = given.position;
            let class = ev.classify(&pos);
            let p = ev.evaluate_plied(&pos, plies, look)?;
            if args.json {
                let report = Report {
                    position_id: pos.position_id(),
                    class: class as u8,
                    class_name: class.to_string(),
                    plies,
                    pips_on_roll: pos.pips(Player::OnRoll),
                    pips_opponent: pos.pips(Player::Opponent),
                    p_win: p[0],
                    p_wg: p[1],
                    p_wbg: p[2],
                    p_lg: p[3],
                    p_lbg: p[4],
                    equity: money_equity(&p),
                };
                writeln!(out, "{}", serde_json::to_string(&report)?)?;
                out.flush()?;
                return Ok(ExitCode::SUCCESS);
            }
            write!(out, "{}", board::render(&pos, board::Variant::Backgammon))?;
            writeln!(out, " class: {class} ({}), {plies}-ply", class as u8)?;
            writeln!(
                out,
                " pips: X {} O {}",
                pos.pips(Player::OnRoll),
                pos.pips(Player::Opponent)
            )?;
            writeln!(out, "          win      gammon   backgammon")?;
            writeln!(
                out,
                " X:   {:8.4}%  {:8.4}%  {:8.4}%",
                100.0 * p[0],
                100.0 * p[1],
                100.0 * p[2]
            )?;
            let q = invert(&p);
            writeln!(
                out,
                " O:   {:8.4}%  {:8.4}%  {:8.4}%",
                100.0 * q[0],
                100.0 * q[1],
                100.0 * q[2]
            )?;
            writeln!(out, " cubeless money equity for X: {:+.4}", money_equity(&p))?;
            out.flush()?;
            Ok(ExitCode::SUCCESS)
        }
        _ => bail!("give --input FILE.csv or one POSITION"),
    }
}
