//! The file readers' side of a game: actions checked one by one as they are read, with
//! errors that name the action and the line.

use crate::dice::Dice;
use crate::records::error::RecordError;
use crate::records::model::{Action, Rules, Seat};
use crate::variant::Variant;

use super::state::GameState;

/// Builds a game's actions while reading a file: each action is checked as it comes,
/// and errors name the action and line.
pub(crate) struct Builder {
    pub(crate) state: GameState,
    pub(crate) actions: Vec<Action>,
}

impl Builder {
    pub(crate) fn new(variant: Variant, rules: Rules, match_length: u32, crawford_game: bool) -> Builder {
        Builder {
            state: GameState::new(variant, rules, match_length, crawford_game),
            actions: Vec::new(),
        }
    }

    /// Applies an action; `text` (the file's words for it) prefixes any error.
    pub(crate) fn apply(&mut self, action: Action, line: usize, text: &str) -> Result<(), RecordError> {
        let n = self.actions.len() + 1;
        let resolved = self.state.apply(&action).map_err(|e| {
            RecordError::illegal(format!("{text}: {e}"))
                .at_action(n)
                .at_line(line)
        })?;
        self.actions.push(resolved);
        Ok(())
    }

    /// Plays a roll given as from/to pairs (see [`resolve`](crate::records::resolve)).
    pub(crate) fn play(
        &mut self,
        seat: Seat,
        dice: Dice,
        pairs: &[(u8, u8)],
        line: usize,
        text: &str,
    ) -> Result<(), RecordError> {
        let n = self.actions.len() + 1;
        let steps = self.state.play(seat, dice, pairs).map_err(|e| {
            RecordError::illegal(format!("{text}: {e}"))
                .at_action(n)
                .at_line(line)
        })?;
        self.actions.push(Action::Move { seat, dice, steps });
        Ok(())
    }

    /// The number the next action will have (1-based).
    pub(crate) fn next_number(&self) -> usize {
        self.actions.len() + 1
    }
}
