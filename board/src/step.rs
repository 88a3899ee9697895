//! One checker movement of a move: the unit that move generation, notation, move
//! parsing and game records share.

/// One checker movement, in point numbers of the player who moves: `from` is 1..=25
/// (25 = the bar), `to` is 0..=24 (0 = borne off).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Step {
    /// Starting point (25 = bar).
    pub from: u8,
    /// Landing point (0 = off).
    pub to: u8,
    /// The landing point held a single opposing checker, which went to the bar.
    pub hit: bool,
}
