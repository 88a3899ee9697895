//! Playing one cubeless money game between two players.

use board::records::{GamePlay, Seat};
use board::{DiceStream, Position, Variant};

use crate::error::TrainerError;
use crate::player::{PlayContext, Player};

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameOutcome {
    /// The winner: 0 or 1, the index of the player.
    pub winner: usize,
    /// 1 single, 2 gammon, 3 backgammon.
    pub points: u32,
    /// Turns played (dances included).
    pub turns: u32,
}

/// The most turns a game may last before it is declared broken (real games take
/// about 60; two random players rarely more than 400).
pub const MAX_TURNS: u32 = 10_000;

/// Plays a game from the standard start: `players[first]` moves first with the
/// stream's opening roll (two different dice), then the players alternate, each turn
/// taking the next roll of `dice`. `ctx[i]` is player `i`'s context. If `record` is
/// given, every turn is recorded in it (player 0 = White, player 1 = Black).
pub fn play_game(
    players: [&dyn Player; 2],
    first: usize,
    dice: &mut DiceStream,
    ctx: &mut [PlayContext; 2],
    mut record: Option<&mut GamePlay>,
) -> Result<GameOutcome, TrainerError> {
    let mut pos: Position = Variant::Backgammon.start();
    let mut mover = first;
    let mut roll = dice.opening_roll();
    for turn in 1..=MAX_TURNS {
        let choice = players[mover].choose(&mut ctx[mover], &pos, roll)?;
        let seat = Seat::from_index(mover).expect("0 or 1");
        let after = match choice {
            Some(m) => {
                if let Some(r) = record.as_deref_mut() {
                    r.play(seat, roll, &m)?;
                }
                m.result
            }
            None => {
                if let Some(r) = record.as_deref_mut() {
                    r.dance(seat, roll)?;
                }
                pos
            }
        };
        if let Some(end) = after.finish(Variant::Backgammon) {
            let winner = if end.on_roll_won { mover } else { 1 - mover };
            return Ok(GameOutcome {
                winner,
                points: end.points,
                turns: turn,
            });
        }
        pos = after.swapped();
        mover = 1 - mover;
        roll = dice.roll();
    }
    Err(TrainerError::Invalid(format!(
        "a game between {} and {} lasted more than {MAX_TURNS} turns",
        players[0].name(),
        players[1].name()
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::{Pubeval, RandomPlayer};
    use board::records::MatchRecord;

    #[test]
    fn recorded_games_replay_to_the_same_result() {
        let mut record = MatchRecord::new("pubeval", "random", 0, Variant::Backgammon);
        record.rules.cube = false;
        for g in 0..6u32 {
            let mut game = record.next_game();
            let mut ctx = [PlayContext::new(1), PlayContext::new(2 + g)];
            let out = play_game(
                [&Pubeval, &RandomPlayer],
                (g % 2) as usize,
                &mut DiceStream::new(g),
                &mut ctx,
                Some(&mut game),
            )
            .unwrap();
            let result = game.result().expect("the record knows the game is over");
            assert_eq!(result.winner.index(), out.winner);
            assert_eq!(result.points, out.points);
            record.push_game(game.finish());
        }
        // The board crate's replay checks every move against the rules.
        assert!(record.validate().is_ok());
    }
}
