//! Replaying a recorded game from the variant's starting position, and validating a
//! whole match: scores and Crawford flags from game to game.

use crate::position::Position;
use crate::records::error::RecordError;
use crate::records::model::{Action, GameRecord, GameResult, MatchRecord, Seat};

use super::state::{plural, GameState, SeatedPosition};

/// The state of one action in a replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayStep {
    /// The action as played: a move's steps are the legal steps it describes, in the
    /// recorded order when that order is playable, with hits marked from the board.
    pub action: Action,
    /// The board before the action, seen by the player who acts (`sides()[1]` is the
    /// actor; for [`Action::SetCube`] the player whose turn it is).
    pub before: Position,
    /// Cube value before the action.
    pub cube: u32,
    /// Cube owner before the action (`None` = centred).
    pub cube_owner: Option<Seat>,
}

/// A game played through from the variant's starting position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    /// One entry per action, in order.
    pub steps: Vec<ReplayStep>,
    /// The board after the last action. After a move, the opponent of the mover is
    /// `on_roll`; after a cube action or resignation, whoever was to play.
    pub final_position: SeatedPosition,
    /// Cube value at the end.
    pub cube: u32,
    /// Cube owner at the end (`None` = centred).
    pub cube_owner: Option<Seat>,
    /// How the game ended, `None` if it is unfinished.
    pub result: Option<GameResult>,
}

impl MatchRecord {
    /// Plays game `index` through from the variant's starting position, checking
    /// every action against the rules (moves against the move generator; cube and
    /// resignation actions against whose turn it is, the cube's owner, the Crawford
    /// game, beavers) and the stated result against the one the actions produce.
    pub fn replay(&self, index: usize) -> Result<Replay, RecordError> {
        let game = self.games.get(index).ok_or_else(|| {
            RecordError::inconsistent(format!(
                "there is no game {} (the record has {})",
                index + 1,
                self.games.len()
            ))
        })?;
        replay_game(self, game).map_err(|e| e.at_game(index + 1))
    }

    /// Replays every game (see [`MatchRecord::replay`]) and checks that the games fit
    /// together: each starts at the score the previous one ended with, scores stay
    /// below the match length until the last game, and Crawford flags are where the
    /// Crawford rule puts them. Returns the replays.
    pub fn validate(&self) -> Result<Vec<Replay>, RecordError> {
        MatchRecord::check_length(self.match_length)?;
        let mut replays = Vec::with_capacity(self.games.len());
        for (i, game) in self.games.iter().enumerate() {
            let err = |msg: String| RecordError::inconsistent(msg).at_game(i + 1);
            if self.match_length > 0 {
                if game.score.iter().any(|&s| s >= self.match_length) {
                    return Err(err(format!(
                        "the game starts at {}-{}, but the match is to {}",
                        game.score[0], game.score[1], self.match_length
                    )));
                }
            } else if game.crawford {
                return Err(err("a money game cannot be a Crawford game".into()));
            }
            if i > 0 {
                let prev = &self.games[i - 1];
                let Some(r) = prev.result else {
                    return Err(err("the previous game is unfinished".into()));
                };
                let mut want = prev.score;
                let w = &mut want[r.winner.index()];
                *w = w.saturating_add(r.points);
                if self.match_length == 0 {
                    // Money sessions: gnubg keeps running totals; accept them or zeros.
                    if game.score != want && game.score != [0, 0] {
                        return Err(err(format!(
                            "the game starts at {}-{}, but the previous one ended at {}-{}",
                            game.score[0], game.score[1], want[0], want[1]
                        )));
                    }
                } else if game.score != want {
                    return Err(err(format!(
                        "the game starts at {}-{}, but the previous one ended at {}-{}",
                        game.score[0], game.score[1], want[0], want[1]
                    )));
                }
                if self.match_length > 0 {
                    let due = self.crawford_due(i, game.score);
                    if game.crawford != due {
                        return Err(err(format!(
                            "the Crawford flag is {} but the Crawford rule says {}",
                            game.crawford, due
                        )));
                    }
                }
            } else if game.crawford
                && (!self.rules.crawford
                    || !game
                        .score
                        .iter()
                        .any(|&s| s.checked_add(1) == Some(self.match_length)))
            {
                return Err(err(format!(
                    "a Crawford game at {}-{} in a match to {}{}",
                    game.score[0],
                    game.score[1],
                    self.match_length,
                    if self.rules.crawford {
                        ""
                    } else {
                        " without the Crawford rule"
                    }
                )));
            }
            replays.push(self.replay(i)?);
        }
        Ok(replays)
    }
}

fn replay_game(m: &MatchRecord, game: &GameRecord) -> Result<Replay, RecordError> {
    let mut state = GameState::new(m.variant, m.rules, m.match_length, game.crawford);
    let mut steps = Vec::with_capacity(game.actions.len());
    for (k, action) in game.actions.iter().enumerate() {
        let actor = action.seat().unwrap_or(state.board_seat());
        let (cube, cube_owner) = state.cube();
        let before = state.seated().seen_by(actor);
        let resolved = state
            .apply(action)
            .map_err(|e| RecordError::illegal(e).at_action(k + 1))?;
        steps.push(ReplayStep {
            action: resolved,
            before,
            cube,
            cube_owner,
        });
    }
    let result = state.result();
    if game.result != result {
        let describe = |r: Option<GameResult>| match r {
            None => "unfinished".to_string(),
            Some(r) => format!(
                "{} wins {} point{}{}",
                r.winner,
                r.points,
                plural(r.points),
                if r.resigned { " by resignation" } else { "" }
            ),
        };
        return Err(RecordError::inconsistent(format!(
            "the record says {}, but the actions give {}",
            describe(game.result),
            describe(result)
        )));
    }
    let (cube, cube_owner) = state.cube();
    Ok(Replay {
        steps,
        final_position: state.seated(),
        cube,
        cube_owner,
        result,
    })
}
