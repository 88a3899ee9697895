//! The one position a command works on, as a user may have it: a Position ID,
//! `PositionID:MatchID` (as gnubg shows them) or an XGID (as eXtreme Gammon and most
//! sites write them), given as the POSITION argument or by `--position-id`; and the
//! roll, from `--dice` or else from the Match ID's or XGID's dice.

use anyhow::{bail, Context, Result};
use board::{AnyId, Dice};

/// The position of `eval`, `best-move` and `moves`: the POSITION argument or
/// `--position-id` (one meaning, two spellings; the flag came first).
#[derive(clap::Args, Clone, Debug)]
pub struct PositionArgs {
    /// One position: a Position ID (gnubg's 14 characters), PositionID:MatchID, or an
    /// XGID (`XGID=` optional). The side on roll is the one to move.
    #[arg(value_name = "POSITION", conflicts_with = "position_id")]
    pub position: Option<String>,
    /// The same as POSITION.
    #[arg(long, value_name = "POSITION")]
    pub position_id: Option<String>,
}

impl PositionArgs {
    /// The position given, if any (parsed; the error names the text and how it was
    /// given).
    pub fn given(&self) -> Result<Option<AnyId>> {
        match (&self.position, &self.position_id) {
            (Some(text), _) => parse(text, "POSITION").map(Some),
            (None, Some(text)) => parse(text, "--position-id").map(Some),
            (None, None) => Ok(None),
        }
    }

    /// The text given for the position ("" when none).
    pub fn text(&self) -> &str {
        self.position
            .as_deref()
            .or(self.position_id.as_deref())
            .unwrap_or("")
    }
}

/// The roll to play in `given` (read from `text`): `--dice` when given (`dice`, as
/// typed), else the dice rolled in its Match ID or XGID. Returns the two dice in the
/// order given and the roll.
pub fn roll(text: &str, given: &AnyId, dice: &[i64]) -> Result<((u8, u8), Dice)> {
    if !dice.is_empty() {
        let (d1, d2, roll) = parse_dice(dice)?;
        return Ok(((d1, d2), roll));
    }
    let text = text.trim();
    match &given.state {
        None => bail!("give the roll: --dice D1 D2 (the Position ID '{text}' carries no dice; PositionID:MatchID or an XGID may)"),
        Some(s) => match s.dice {
            Some((a, b)) => Ok(((a, b), Dice::new(a, b)?)),
            None if s.double_offered => {
                bail!("give the roll: --dice D1 D2 ('{text}' has a double offered, no dice rolled)")
            }
            None => bail!("give the roll: --dice D1 D2 ('{text}' has no dice rolled)"),
        },
    }
}

/// Builds a roll from two dice as given (any integers: `-1` or `300` is a bad die like
/// `7`, not a parse error about bytes), naming them in the error.
pub fn parse_dice(d: &[i64]) -> Result<(u8, u8, Dice)> {
    match d {
        // In range once Dice accepts them.
        [a, b] => Ok((*a as u8, *b as u8, Dice::from_ints(*a, *b).context("bad --dice")?)),
        _ => bail!("--dice takes two values, e.g. --dice 3 1"),
    }
}

/// Reads a Position ID, `PositionID:MatchID` or an XGID ([`board::parse_any_id`]);
/// `what` names the argument in the error (`bad --position-id: position ID 'TEXT'
/// has …`: every reason names the text).
pub fn parse(text: &str, what: &str) -> Result<AnyId> {
    board::parse_any_id(text).with_context(|| format!("bad {what}"))
}
