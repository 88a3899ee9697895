//! Playing one tournament game: its dice and the players' own random choices follow
//! from the tournament's seed (and seed rule) and the game's id alone, so a game gives the same result
//! whichever worker plays it, in whatever order, and can be replayed for its record.
//!
//! Games `2k` and `2k + 1` (the same pairing) use dice stream `k`, seeded with
//! `derive32(seed, DICE, k)` (by the tournament's [`Rule`]); the pairing's player `first`
//! moves first with the stream's opening roll, and after that each turn takes the
//! stream's next roll. Player `i` of game `id` makes its own random choices from
//! `derive32(seed, CHOICES, 2 · id + i)`.

use board::records::GamePlay;
use board::DiceStream;

use crate::error::TrainerError;
use crate::game::{play_game, GameOutcome};
use crate::player::{PlayContext, Player};
use crate::seed::Rule;
use crate::tourney::tournament::{Game, Outcome};

/// Seed tag of tournament dice streams ("TrnyDice").
pub const DICE: u64 = 0x5472_6e79_4469_6365;
/// Seed tag of the players' own choices in tournament games ("TrnyChoi").
pub const CHOICES: u64 = 0x5472_6e79_4368_6f69;

/// Plays `game` between the pairing's `players` (in the pairing's order); with
/// `record`, every turn is recorded (player 0 = White).
pub fn play(
    players: [&dyn Player; 2],
    rule: Rule,
    seed: u64,
    game: &Game,
    record: Option<&mut GamePlay>,
) -> Result<GameOutcome, TrainerError> {
    let mut dice = DiceStream::new(rule.derive32(seed, DICE, game.id / 2));
    let choices = |who: u64| rule.derive32(seed, CHOICES, 2 * game.id + who);
    let mut ctx = [PlayContext::new(choices(0)), PlayContext::new(choices(1))];
    play_game(players, usize::from(game.first), &mut dice, &mut ctx, record)
}

/// The file's form of an outcome.
pub fn outcome(o: &GameOutcome, versions: [usize; 2]) -> Outcome {
    Outcome {
        winner: o.winner as u8,
        points: o.points as u8,
        turns: o.turns,
        versions,
    }
}
