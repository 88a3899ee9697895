/*!
The rules of backgammon for bgkit: positions in gnubg's layout, legal move generation,
gnubg Position and Match IDs, XGIDs, move notation, reproducible dice, the one seed rule
of every bgkit crate, and game records (matches checked against the rules, read and
written as SGF and Jellyfish `.mat`).

Every other bgkit crate builds on this one; it depends on no other bgkit crate.

# Overview

* [`Position`]: two arrays of 25 slots (points 1-24 from each side's own ace point,
  then the bar), `sides[1]` on roll, as gnubg's `TanBoard`; always valid.
* [`Variant`]: backgammon, nackgammon, hypergammon 1-3 and their starting positions.
* [`MoveGen`], [`Position::legal_moves`]: every legal move, one per distinct resulting
  position, in gnubg's order; a [`Move`] is its [`Step`]s (one checker movement per
  die) and the position it leads to; [`perft`] counts game trees.
* [`Position::position_id`], [`Position::from_id`], [`MatchState`], [`Xgid`]: IDs;
  [`parse_any_id`] reads whichever of them a user gives.
* [`notation`]: standard and gnubg-style move text; [`Position::parse_move`] reads it
  back into a legal move.
* [`Dice`], [`DiceStream`]: rolls and a seeded MT19937 dice stream; [`seed`]: bgkit's
  one seed rule ([`seed::derive`]) and the SplitMix64 generator.
* [`Position::finish`]: the end of a game, who won and how much ([`Finish`]).
* [`records`]: matches and money sessions as data, replayed and validated against the
  rules, and their SGF and `.mat` files.
* [`render()`]: a position drawn as text.

# Example

```
use board::{Dice, Position};

let start = Position::from_id("4HPwATDgc/ABMA").unwrap();
let moves = start.legal_moves(Dice::new(3, 1).unwrap());
assert_eq!(moves.len(), 16);
let best = start.parse_move(Dice::new(3, 1).unwrap(), "8/5 6/5").unwrap();
assert_eq!(best.notation(), "8/5, 6/5");
```
*/
#![deny(missing_docs)]

mod any_id;
mod base64;
mod dice;
mod finish;
mod match_id;
mod movegen;
pub mod notation;
pub mod parse_move;
mod position;
mod position_id;
pub mod records;
mod render;
pub mod seed;
mod step;
mod variant;
mod xgid;

pub use any_id::{parse_any_id, AnyId, AnyIdError};
pub use dice::{Dice, DiceError, DiceStream, Mt19937};
pub use finish::Finish;
pub use match_id::{CubeOwner, GameState, MatchIdError, MatchState, MATCH_ID_LEN, MAX_CUBE};
pub use movegen::{perft, Move, MoveGen};
pub use parse_move::MoveParseError;
pub use position::{pip_count, Player, Position, PositionError, Side, BAR, MAX_CHECKERS, SLOTS};
pub use position_id::{PositionIdError, POSITION_ID_LEN};
pub use render::render;
pub use step::Step;
pub use variant::Variant;
pub use xgid::{Xgid, XgidError};
