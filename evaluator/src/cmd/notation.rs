//! `evaluator notation`: rewrite a play in standard notation.

use std::process::ExitCode;

use anyhow::{Context, Result};
use board::notation::{format_gnubg, format_standard};
use board::parse_move::parse_steps;

/// Write a play in standard notation.
///
/// Without a position, the play is a list of simple moves (`24/22, 22/20*, 20/18`;
/// hits marked with `*`) and is rewritten as is. With --position-id (a Position ID,
/// PositionID:MatchID or an XGID) and --dice (or the dice rolled in its Match ID or
/// XGID), any notation is accepted (standard, gnubg's, `8-5,6-5`) and must be a legal
/// move of that position and roll; hits then come from the board.
#[derive(clap::Args)]
pub struct Args {
    /// The play, e.g. "24/22, 22/20*, 20/18, 18/16".
    play: String,
    /// Check the play against this position (side on roll moves): a Position ID,
    /// PositionID:MatchID or an XGID.
    #[arg(long, value_name = "POSITION")]
    position_id: Option<String>,
    /// The roll, with --position-id (default: the dice rolled in its Match ID or XGID).
    #[arg(long, num_args = 2, value_names = ["D1", "D2"], requires = "position_id")]
    dice: Vec<i64>,
    /// Print gnubg's style instead of the standard notation.
    #[arg(long)]
    gnubg: bool,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let steps = match &args.position_id {
        Some(text) => {
            let given = super::position::parse(text, "--position-id")?;
            let (_, dice) = super::position::roll(text, &given, &args.dice)?;
            given.position.parse_move(dice, &args.play)?.steps().to_vec()
        }
        None => parse_steps(&args.play).context("bad play")?,
    };
    let text = if args.gnubg {
        format_gnubg(&steps)
    } else {
        format_standard(&steps)
    };
    cli_support::outln!("{text}")?;
    Ok(ExitCode::SUCCESS)
}
