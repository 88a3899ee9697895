//! `evaluator show`: draw a position.

use std::process::ExitCode;

use anyhow::{Context, Result};
use board::{MatchState, Position, Variant, Xgid};

/// Draw a position as text.
///
/// Accepts a Position ID, `PositionID:MatchID`, or an XGID.
#[derive(clap::Args)]
pub struct Args {
    /// Position ID, PositionID:MatchID, or XGID=...
    id: String,
    /// Variant (for the borne-off counts): backgammon, nackgammon, hypergammon1-3.
    #[arg(long, default_value = "backgammon")]
    variant: Variant,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let text = args.id.trim();
    let (pos, state) = if text.starts_with("XGID=") || text.matches(':').count() >= 9 {
        let x = Xgid::parse(text)?;
        (x.position, Some(x.state))
    } else if let Some((p, m)) = text.split_once(':') {
        let state = MatchState::from_id(m).with_context(|| format!("bad match ID in '{text}'"))?;
        (Position::from_id(p)?, Some(state))
    } else {
        (Position::from_id(text)?, None)
    };
    cli_support::out!("{}", board::render(&pos, args.variant))?;
    if let Some(s) = state {
        let length = if s.match_length == 0 {
            "money game".to_string()
        } else {
            format!("{}-point match", s.match_length)
        };
        let dice = s
            .dice
            .map_or("not rolled".to_string(), |(a, b)| format!("{a}{b}"));
        cli_support::outln!(
            " {length}, score {}-{}, cube {} ({:?}), player {} on roll, dice {dice}{}",
            s.score[0],
            s.score[1],
            s.cube,
            s.cube_owner,
            s.on_roll,
            if s.crawford { ", Crawford game" } else { "" }
        )?;
        cli_support::outln!(" Match ID: {}", s.match_id()?)?;
    }
    Ok(ExitCode::SUCCESS)
}
