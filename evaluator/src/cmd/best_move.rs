//! `evaluator best-move`: gnubg's 0-ply move choice.

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use board::{Dice, MoveGen, Position};
use evaluator::search::{Lookahead, FILTERS_NORMAL};

use super::{CsvInput, EngineArgs};

/// Choose the best move at 0 ply, cubeless money equity, as gnubg does.
///
/// With --input FILE.csv (columns `position_id,die1,die2`): CSV
/// `position_id,die1,die2,best_move,best_after_id`, the move in gnubg's notation and the
/// position after it from the mover's side (as `moves` writes it); both empty when no
/// move is legal. With --position-id and --dice: the move, its equity and the ID.
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
    let ev = args
        .engine
        .evaluator()?
        .with_cache(if args.plies > 0 { 20 } else { 0 });
    let look = Lookahead {
        prune: !args.no_prune,
    };
    let mut gen = MoveGen::new();
    let out = io::stdout();
    let mut out = BufWriter::new(out.lock());
    match (&args.input, &args.position_id) {
        (Some(path), None) => {
            let mut csv = CsvInput::open(path, &["position_id", "die1", "die2"])?;
            writeln!(out, "position_id,die1,die2,best_move,best_after_id")?;
            let mut errors = 0usize;
            for (n, record) in csv.reader.records().enumerate() {
                let line = n + 2;
                let result = record.map_err(anyhow::Error::from).and_then(|r| {
                    let field = |k: usize| r.get(csv.columns[k]).unwrap_or("").trim().to_string();
                    let id = field(0);
                    let pos = Position::from_id(&id)?;
                    let die = |k: usize| -> Result<u8> {
                        let t = field(k);
                        t.parse().with_context(|| format!("die '{t}' is not a number"))
                    };
                    let (d1, d2) = (die(1)?, die(2)?);
                    let best = ev.best_move_plied(
                        &mut gen,
                        &pos,
                        Dice::new(d1, d2)?,
                        args.plies,
                        &FILTERS_NORMAL,
                        look,
                    )?;
                    Ok((id, d1, d2, best))
                });
                match result {
                    Ok((id, d1, d2, Some((m, _)))) => writeln!(
                        out,
                        "{id},{d1},{d2},{},{}",
                        m.gnubg_notation(),
                        m.result.position_id()
                    )?,
                    Ok((id, d1, d2, None)) => writeln!(out, "{id},{d1},{d2},,")?,
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
            let dice = super::parse_dice(&args.dice)?;
            match ev.best_move_plied(&mut gen, &pos, dice, args.plies, &FILTERS_NORMAL, look)? {
                Some((m, eq)) => writeln!(out, "{}\t{eq:+.6}\t{}", m.notation(), m.result.position_id())?,
                None => writeln!(out, "no legal move")?,
            }
            out.flush()?;
        }
        _ => bail!("give --input FILE.csv, or --position-id ID --dice D1 D2"),
    }
    Ok(ExitCode::SUCCESS)
}
