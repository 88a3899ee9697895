//! `evaluator eval`: 0-ply cubeless evaluations.

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Result};
use board::{Player, Position};
use evaluator::eval::{invert, money_equity};
use evaluator::search::Lookahead;

use super::{CsvInput, EngineArgs};

/// Evaluate positions at 0 ply, cubeless, as gnubg does.
///
/// With --input FILE.csv (a `position_id` column): CSV
/// `position_id,class,p_win,p_wg,p_wbg,p_lg,p_lbg`, probabilities for the side on roll
/// (gammons include backgammons), class as gnubg numbers it (0 over, 4 bearoff2,
/// 6 bearoff1, 8 race, 9 crashed, 10 contact). With --position-id: a readable report.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    engine: EngineArgs,
    /// Search depth: 0 (static, default), 1 or 2 plies of lookahead (gnubg's method).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=4))]
    plies: u32,
    /// In lookahead, score every move fully instead of letting gnubg's pruning nets
    /// preselect candidates.
    #[arg(long)]
    no_prune: bool,
    /// CSV file with a position_id column ("-" for stdin).
    #[arg(long, conflicts_with = "position_id")]
    input: Option<PathBuf>,
    /// One position to evaluate.
    #[arg(long)]
    position_id: Option<String>,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let ev = args
        .engine
        .evaluator()?
        .with_cache(if args.plies > 0 { 20 } else { 0 });
    let look = Lookahead {
        prune: !args.no_prune,
    };
    let out = io::stdout();
    let mut out = BufWriter::new(out.lock());
    match (&args.input, &args.position_id) {
        (Some(path), None) => {
            let mut csv = CsvInput::open(path, &["position_id"])?;
            writeln!(out, "position_id,class,p_win,p_wg,p_wbg,p_lg,p_lbg")?;
            let mut errors = 0usize;
            for (n, record) in csv.reader.records().enumerate() {
                let line = n + 2;
                let result = record.map_err(anyhow::Error::from).and_then(|r| {
                    let id = r.get(csv.columns[0]).unwrap_or("").trim().to_string();
                    let pos = Position::from_id(&id)?;
                    let class = ev.classify(&pos);
                    Ok((id, (ev.evaluate_plied(&pos, args.plies, look)?, class)))
                });
                match result {
                    Ok((id, (p, class))) => {
                        writeln!(
                            out,
                            "{id},{},{:?},{:?},{:?},{:?},{:?}",
                            class as u8, p[0], p[1], p[2], p[3], p[4]
                        )?;
                    }
                    Err(e) => {
                        eprintln!("evaluator: {}:{line}: {e:#}", csv.name);
                        errors += 1;
                    }
                }
            }
            out.flush()?;
            if errors > 0 {
                eprintln!("evaluator: {}: {errors} bad row(s) skipped", csv.name);
                return Ok(ExitCode::from(2));
            }
        }
        (None, Some(id)) => {
            let pos = super::parse_position(id)?;
            let class = ev.classify(&pos);
            let p = ev.evaluate_plied(&pos, args.plies, look)?;
            write!(out, "{}", board::render(&pos, board::Variant::Backgammon))?;
            writeln!(out, " class: {class} ({}), {}-ply", class as u8, args.plies)?;
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
        }
        _ => bail!("give --input FILE.csv or --position-id ID"),
    }
    Ok(ExitCode::SUCCESS)
}
