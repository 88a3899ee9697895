//! Playing a game record through the rules: the state machine behind replay
//! (`state`), replaying and validating records (`replay`), the live [`GamePlay`]
//! recorder (`play`), and the readers' action-by-action builder (`builder`).

mod builder;
mod play;
mod replay;
mod state;
#[cfg(test)]
mod tests;

pub(crate) use builder::Builder;
pub use play::GamePlay;
pub use replay::{Replay, ReplayStep};
pub(crate) use state::GameState;
pub use state::SeatedPosition;
