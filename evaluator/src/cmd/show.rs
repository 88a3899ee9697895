//! `evaluator show`: draw a position.

use std::process::ExitCode;

use anyhow::Result;
use board::Variant;

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
    let board::AnyId { position: pos, state } = super::position::parse(&args.id, "ID")?;
    let most = args.variant.checkers();
    for (name, player) in [
        ("X (on roll)", board::Player::OnRoll),
        ("O", board::Player::Opponent),
    ] {
        let n = pos.checkers(player);
        if n > most {
            anyhow::bail!(
                "'{}': {name} has {n} checkers in play, more than {} has ({most} a side)",
                args.id,
                args.variant
            );
        }
    }
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
