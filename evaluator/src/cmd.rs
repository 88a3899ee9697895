//! One module per subcommand, each with its `Args` and `run`.

pub mod bench;
pub mod moves;
pub mod notation;
pub mod show;

use anyhow::{Context, Result};
use board::{Dice, Position};

/// Parses a Position ID, naming it in the error.
pub fn parse_position(id: &str) -> Result<Position> {
    Position::from_id(id).with_context(|| format!("bad --position-id '{id}'"))
}

/// Builds a roll from two dice, naming them in the error.
pub fn parse_dice(d: &[u8]) -> Result<Dice> {
    match d {
        [a, b] => Dice::new(*a, *b).context("bad --dice"),
        _ => anyhow::bail!("--dice takes two values, e.g. --dice 3 1"),
    }
}
