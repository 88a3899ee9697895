//! `evaluator eval`: cubeless evaluations (0-ply, or with lookahead).

use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Result};
use board::Player;
use evaluator::eval::{invert, money_equity};

use super::{EngineArgs, SearchArgs};

/// Evaluate positions, cubeless, as gnubg does (0 ply unless --plies).
///
/// With --input FILE.csv (a `position_id` column): CSV
/// `position_id,class,p_win,p_wg,p_wbg,p_lg,p_lbg`, probabilities for the side on roll
/// (gammons include backgammons), class as gnubg numbers it (0 over, 4 bearoff2,
/// 6 bearoff1, 8 race, 9 crashed, 10 contact). With --position-id: a readable report.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    engine: EngineArgs,
    #[command(flatten)]
    search: SearchArgs,
    /// CSV file with a position_id column ("-" for stdin).
    #[arg(long, conflicts_with = "position_id")]
    input: Option<PathBuf>,
    /// One position to evaluate.
    #[arg(long)]
    position_id: Option<String>,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let ev = args.search.evaluator(&args.engine)?;
    let (plies, look) = (args.search.plies, args.search.lookahead());
    let mut out = BufWriter::new(cli_support::stdout());
    match (&args.input, &args.position_id) {
        (Some(path), None) => super::process_rows(
            path,
            false,
            "position_id,class,p_win,p_wg,p_wbg,p_lg,p_lbg",
            &mut out,
            |row, out| {
                let class = ev.classify(&row.pos);
                let p = ev.evaluate_plied(&row.pos, plies, look)?;
                writeln!(
                    out,
                    "{},{},{:?},{:?},{:?},{:?},{:?}",
                    row.id, class as u8, p[0], p[1], p[2], p[3], p[4]
                )?;
                Ok(())
            },
        ),
        (None, Some(id)) => {
            let pos = super::parse_position(id)?;
            let class = ev.classify(&pos);
            let p = ev.evaluate_plied(&pos, plies, look)?;
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
        _ => bail!("give --input FILE.csv or --position-id ID"),
    }
}
