//! Recording a game as it is played: [`GamePlay`] checks each action as it comes.

use crate::dice::Dice;
use crate::movegen::Move;
use crate::position::Position;
use crate::records::error::RecordError;
use crate::records::model::{Action, GameRecord, GameResult, MatchRecord, Seat};

use super::state::{GameState, SeatedPosition};

/// A game being played, recorded action by action with every action checked as it
/// comes. The trainer's game loop drives it; [`GamePlay::finish`] gives the record.
///
/// ```
/// use board::records::{GamePlay, MatchRecord, Seat};
/// use board::{DiceStream, Variant};
///
/// let mut record = MatchRecord::new("pubeval", "net-42", 0, Variant::Backgammon);
/// let mut dice = DiceStream::new(7);
/// let mut game = record.next_game();
/// let mut seat = Seat::White;
/// while !game.is_over() {
///     let roll = dice.roll();
///     let moves = game.position().legal_moves(roll);
///     match moves.first() {
///         Some(mv) => game.play(seat, roll, mv).unwrap(),
///         None => game.dance(seat, roll).unwrap(),
///     }
///     seat = seat.other();
/// }
/// record.push_game(game.finish());
/// assert!(record.validate().is_ok());
/// ```
#[derive(Clone, Debug)]
pub struct GamePlay {
    state: GameState,
    record: GameRecord,
}

impl GamePlay {
    /// A new game of `settings`' variant, rules and match length, at this score.
    pub fn new(settings: &MatchRecord, score: [u32; 2], crawford: bool) -> GamePlay {
        GamePlay {
            state: GameState::new(settings.variant, settings.rules, settings.match_length, crawford),
            record: GameRecord::new(score, crawford),
        }
    }

    /// The board seen by the player to act next (`sides()[1]` is that player; before
    /// the opening roll either side may be taken, the start is symmetric).
    pub fn position(&self) -> Position {
        self.state.board
    }

    /// The board with its owner of `sides()[1]`.
    pub fn seated_position(&self) -> SeatedPosition {
        self.state.seated()
    }

    /// Whose turn it is to roll (`None` before the opening roll).
    pub fn turn(&self) -> Option<Seat> {
        self.state.turn()
    }

    /// Cube value and owner (`None` = centred).
    pub fn cube(&self) -> (u32, Option<Seat>) {
        self.state.cube()
    }

    /// Whether `seat` may double now.
    pub fn may_double(&self, seat: Seat) -> bool {
        self.state.may_double(seat)
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.state.result().is_some()
    }

    /// How the game ended, if it has.
    pub fn result(&self) -> Option<GameResult> {
        self.state.result()
    }

    /// The actions so far.
    pub fn actions(&self) -> &[Action] {
        &self.record.actions
    }

    /// Records any action after checking it against the rules. Moves are checked
    /// against the legal moves of the roll; they are stored with hit marks taken from
    /// the board.
    pub fn apply(&mut self, action: Action) -> Result<(), RecordError> {
        let n = self.record.actions.len() + 1;
        let resolved = self
            .state
            .apply(&action)
            .map_err(|e| RecordError::illegal(e).at_action(n))?;
        self.record.actions.push(resolved);
        self.record.result = self.state.result();
        Ok(())
    }

    /// Records `seat` rolling `dice` and playing `mv`, a legal move of
    /// [`GamePlay::position`].
    pub fn play(&mut self, seat: Seat, dice: Dice, mv: &Move) -> Result<(), RecordError> {
        self.apply(Action::from_move(seat, dice, mv))
    }

    /// Records `seat` rolling `dice` with no legal move.
    pub fn dance(&mut self, seat: Seat, dice: Dice) -> Result<(), RecordError> {
        self.apply(Action::dance(seat, dice))
    }

    /// The record so far (finished or not).
    pub fn finish(self) -> GameRecord {
        self.record
    }
}

impl MatchRecord {
    /// Starts the next game of this match: the score after the games so far, and the
    /// Crawford flag the rules give it. Record it with [`GamePlay`] and add it with
    /// [`MatchRecord::push_game`].
    pub fn next_game(&self) -> GamePlay {
        let score = self.score_after();
        let crawford = self.crawford_due(self.games.len(), score);
        GamePlay::new(self, score, crawford)
    }

    /// Appends a finished (or unfinished) game.
    pub fn push_game(&mut self, game: GameRecord) {
        self.games.push(game);
    }

    /// Appends a game of a money session played after the games so far, starting it at
    /// the score after them ([`MatchRecord::score_after`]): for games recorded apart
    /// (in parallel, or replayed) and put together in order, so that the session
    /// carries its running score as gnubg's own sessions do. Only the score is set: a
    /// match's game also needs its Crawford flag, which [`MatchRecord::next_game`]
    /// gives before the game is played.
    pub fn push_next(&mut self, mut game: GameRecord) {
        game.score = self.score_after();
        self.games.push(game);
    }
}
