//! Playing a game record through the rules: the state machine behind replay, the live
//! [`GamePlay`] recorder, and move checking.

use crate::dice::Dice;
use crate::movegen::Move;
use crate::position::{Position, BAR};
use crate::step::Step;
use crate::variant::Variant;

use super::error::RecordError;
use super::model::{Action, GameRecord, GameResult, MatchRecord, Resignation, Rules, Seat};
use super::resolve;

/// A position together with the seat whose array is `sides[1]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SeatedPosition {
    /// The board; `sides()[1]` belongs to `on_roll`.
    pub position: Position,
    /// The seat that owns `sides()[1]`.
    pub on_roll: Seat,
}

impl SeatedPosition {
    /// The board seen by `seat`: `sides()[1]` is `seat`'s array.
    pub fn seen_by(&self, seat: Seat) -> Position {
        if seat == self.on_roll {
            self.position
        } else {
            self.position.swapped()
        }
    }
}

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

/// What the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pending {
    /// The player to act may double, resign or roll.
    Nothing,
    /// `by` doubled; the other player takes, drops or beavers (or resigns).
    Double { by: Seat },
    /// `by` beavered `doubler`'s double; `doubler` takes or drops.
    Beaver { by: Seat },
    /// `by` offered to resign; the other player accepts or declines.
    Resign {
        by: Seat,
        level: Resignation,
        then: PendingAfterResign,
    },
}

/// What was pending before a resignation offer, restored when it is declined.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PendingAfterResign {
    Nothing,
    Double { by: Seat },
    Beaver { by: Seat },
}

/// The rules engine shared by replay and [`GamePlay`].
#[derive(Clone, Debug)]
pub(crate) struct GameState {
    variant: Variant,
    rules: Rules,
    match_length: u32,
    crawford_game: bool,
    /// `sides[1]` belongs to `turn` (White before the first move).
    board: Position,
    /// The player to roll next; `None` before the opening roll.
    turn: Option<Seat>,
    cube: u32,
    owner: Option<Seat>,
    pending: Pending,
    result: Option<GameResult>,
}

impl GameState {
    pub(crate) fn new(variant: Variant, rules: Rules, match_length: u32, crawford_game: bool) -> GameState {
        GameState {
            variant,
            rules,
            match_length,
            crawford_game,
            board: variant.start(),
            turn: None,
            cube: 1,
            owner: None,
            pending: Pending::Nothing,
            result: None,
        }
    }

    /// The seat whose array is `sides[1]` of `board`.
    fn board_seat(&self) -> Seat {
        self.turn.unwrap_or(Seat::White)
    }

    pub(crate) fn seated(&self) -> SeatedPosition {
        SeatedPosition {
            position: self.board,
            on_roll: self.board_seat(),
        }
    }

    pub(crate) fn result(&self) -> Option<GameResult> {
        self.result
    }

    pub(crate) fn cube(&self) -> (u32, Option<Seat>) {
        (self.cube, self.owner)
    }

    pub(crate) fn turn(&self) -> Option<Seat> {
        self.turn
    }

    /// The seat whose double (not yet answered, not a beaver) is pending.
    pub(crate) fn double_pending_by(&self) -> Option<Seat> {
        match self.pending {
            Pending::Double { by } => Some(by),
            _ => None,
        }
    }

    /// The seat whose beaver awaits the original doubler's answer.
    pub(crate) fn beaver_pending_by(&self) -> Option<Seat> {
        match self.pending {
            Pending::Beaver { by } => Some(by),
            _ => None,
        }
    }

    /// The pending resignation offer, if any.
    pub(crate) fn resign_pending(&self) -> Option<(Seat, Resignation)> {
        match self.pending {
            Pending::Resign { by, level, .. } => Some((by, level)),
            _ => None,
        }
    }

    /// Whether `seat` may double now (its turn, before rolling, cube available).
    pub(crate) fn may_double(&self, seat: Seat) -> bool {
        self.check_double(seat).is_ok()
    }

    fn check_double(&self, seat: Seat) -> Result<(), String> {
        if !self.rules.cube {
            return Err("the cube is not in use".into());
        }
        if self.crawford_game {
            return Err("no doubling in the Crawford game".into());
        }
        match self.turn {
            None => return Err("no doubling before the opening roll".into()),
            Some(t) if t != seat => return Err(format!("{seat} doubles, but it is {t}'s turn")),
            _ => {}
        }
        if self.pending != Pending::Nothing {
            return Err(format!("{seat} doubles while a decision is pending"));
        }
        if self.owner == Some(seat.other()) {
            return Err(format!("{seat} doubles, but {} owns the cube", seat.other()));
        }
        if self.cube >= 1 << 15 {
            return Err("the cube is already at its maximum (32768)".into());
        }
        Ok(())
    }

    /// 1, 2 (gammon) or 3 (backgammon) for the side in `sides[1]` of `loser_view`
    /// losing now, by the checkers it has left (no Jacoby rule).
    fn level_of(&self, loser_view: &Position) -> u32 {
        let loser = loser_view.on_roll();
        let on_board: u32 = loser.iter().map(|&n| u32::from(n)).sum();
        if on_board < self.variant.checkers() {
            1
        } else if loser[BAR] > 0 || loser[18..24].iter().any(|&c| c > 0) {
            3
        } else {
            2
        }
    }

    /// After a game ended by bearing off: 1, 2 or 3 by the loser's checkers, without
    /// the Jacoby rule (what gnubg's `.mat` export writes).
    pub(crate) fn bear_off_level(&self) -> u32 {
        self.level_of(&self.board)
    }

    /// Multiplier of a win by bearing off, with the Jacoby rule applied.
    fn bear_off_multiplier(&self, loser_view: &Position) -> u32 {
        let jacoby = self.match_length == 0 && self.rules.jacoby && self.owner.is_none() && self.cube == 1;
        if jacoby {
            1
        } else {
            self.level_of(loser_view)
        }
    }

    /// Applies one action; on success returns the action with its steps resolved (for
    /// moves: the legal steps with hits marked).
    pub(crate) fn apply(&mut self, action: &Action) -> Result<Action, String> {
        if let Some(r) = self.result {
            return Err(format!(
                "the game is already over ({} won {} point{})",
                r.winner,
                r.points,
                plural(r.points)
            ));
        }
        match action {
            Action::Move { seat, dice, steps } => {
                let pairs: Vec<(u8, u8)> = steps.iter().map(|s| (s.from, s.to)).collect();
                let steps = self.play(*seat, *dice, &pairs)?;
                Ok(Action::Move {
                    seat: *seat,
                    dice: *dice,
                    steps,
                })
            }
            other => {
                self.apply_other(other)?;
                Ok(other.clone())
            }
        }
    }

    /// Plays a roll with the given from/to pairs (see [`resolve`]); returns the steps.
    pub(crate) fn play(&mut self, seat: Seat, dice: Dice, pairs: &[(u8, u8)]) -> Result<Vec<Step>, String> {
        match self.pending {
            Pending::Nothing => {}
            Pending::Double { by } | Pending::Beaver { by } => {
                return Err(format!("{seat} rolls while {by}'s double awaits an answer"));
            }
            Pending::Resign { by, .. } => {
                return Err(format!("{seat} rolls while {by}'s resignation awaits an answer"));
            }
        }
        if let Some(t) = self.turn {
            if t != seat {
                return Err(format!("{seat} moves, but it is {t}'s turn"));
            }
        }
        let pos = self.seated().seen_by(seat);
        let steps = resolve::resolve(&pos, dice, pairs).map_err(|e| format!("{seat} {dice}: {e}"))?;
        let after = apply_steps(&pos, &steps);
        let mover_left: u32 = after.on_roll().iter().map(|&n| u32::from(n)).sum();
        self.turn = Some(seat.other());
        self.board = after.swapped();
        if mover_left == 0 {
            let n = self.bear_off_multiplier(&self.board);
            self.result = Some(GameResult {
                winner: seat,
                points: n * self.cube,
                resigned: false,
            });
        }
        Ok(steps)
    }

    fn apply_other(&mut self, action: &Action) -> Result<(), String> {
        match *action {
            Action::Move {
                seat,
                dice,
                ref steps,
            } => {
                let pairs: Vec<(u8, u8)> = steps.iter().map(|s| (s.from, s.to)).collect();
                self.play(seat, dice, &pairs)?;
            }
            Action::Double { seat } => {
                // A double answering a double is a beaver (gnubg writes it so).
                if let Pending::Double { by } = self.pending {
                    if by == seat.other() {
                        return self.apply_other(&Action::Beaver { seat });
                    }
                }
                self.check_double(seat)?;
                self.pending = Pending::Double { by: seat };
            }
            Action::Beaver { seat } => {
                let Pending::Double { by } = self.pending else {
                    return Err(format!("{seat} beavers, but no double is pending"));
                };
                if by == seat {
                    return Err(format!("{seat} beavers its own double"));
                }
                if self.match_length > 0 || !self.rules.beavers {
                    return Err("beavers are not allowed here (money play with beavers only)".into());
                }
                // Take at twice the cube, then redouble at once, keeping the cube.
                self.cube *= 2;
                self.owner = Some(seat);
                self.pending = Pending::Beaver { by: seat };
            }
            Action::Take { seat } => match self.pending {
                Pending::Double { by } if by == seat.other() => {
                    self.cube *= 2;
                    self.owner = Some(seat);
                    self.pending = Pending::Nothing;
                }
                Pending::Beaver { by } if by == seat.other() => {
                    // The beaver's redouble is accepted; the beaverer keeps the cube.
                    self.cube *= 2;
                    self.owner = Some(by);
                    self.pending = Pending::Nothing;
                }
                _ => return Err(format!("{seat} takes, but no double by the opponent is pending")),
            },
            Action::Drop { seat } => match self.pending {
                Pending::Double { by } | Pending::Beaver { by } if by == seat.other() => {
                    self.pending = Pending::Nothing;
                    self.result = Some(GameResult {
                        winner: by,
                        points: self.cube,
                        resigned: false,
                    });
                }
                _ => return Err(format!("{seat} drops, but no double by the opponent is pending")),
            },
            Action::Resign { seat, level } => {
                let then = match self.pending {
                    Pending::Nothing => PendingAfterResign::Nothing,
                    Pending::Double { by } => PendingAfterResign::Double { by },
                    Pending::Beaver { by } => PendingAfterResign::Beaver { by },
                    Pending::Resign { by, .. } => {
                        return Err(format!(
                            "{seat} resigns while {by}'s resignation awaits an answer"
                        ));
                    }
                };
                if self.turn.is_none() {
                    return Err(format!("{seat} resigns before the opening roll"));
                }
                self.pending = Pending::Resign {
                    by: seat,
                    level,
                    then,
                };
            }
            Action::AcceptResignation { seat } => match self.pending {
                Pending::Resign { by, level, .. } if by == seat.other() => {
                    self.pending = Pending::Nothing;
                    self.result = Some(GameResult {
                        winner: seat,
                        points: level.multiplier() * self.cube,
                        resigned: true,
                    });
                }
                _ => {
                    return Err(format!(
                        "{seat} accepts a resignation, but none by the opponent is pending"
                    ))
                }
            },
            Action::RejectResignation { seat } => match self.pending {
                Pending::Resign { by, then, .. } if by == seat.other() => {
                    self.pending = match then {
                        PendingAfterResign::Nothing => Pending::Nothing,
                        PendingAfterResign::Double { by } => Pending::Double { by },
                        PendingAfterResign::Beaver { by } => Pending::Beaver { by },
                    };
                }
                _ => {
                    return Err(format!(
                        "{seat} declines a resignation, but none by the opponent is pending"
                    ))
                }
            },
            Action::SetCube { value, owner } => {
                if !value.is_power_of_two() || value > 1 << 15 {
                    return Err(format!("cube value {value} is not a power of two up to 32768"));
                }
                if self.pending != Pending::Nothing {
                    return Err("the cube is set while a decision is pending".into());
                }
                self.cube = value;
                self.owner = owner;
            }
        }
        Ok(())
    }
}

fn plural(n: u32) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// Applies steps (mover in `sides[1]`) mechanically, hitting blots where they land.
fn apply_steps(pos: &Position, steps: &[Step]) -> Position {
    let mut b = *pos.sides();
    for s in steps {
        b[1][s.from as usize - 1] -= 1;
        if s.to > 0 {
            let dst = s.to as usize - 1;
            if b[0][23 - dst] == 1 {
                b[0][23 - dst] = 0;
                b[0][BAR] += 1;
            }
            b[1][dst] += 1;
        }
    }
    Position::new_unchecked(b[0], b[1])
}

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

    /// Plays a roll given as from/to pairs (see [`resolve`]).
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::DiceStream;
    use crate::records::test_games::{crawford_match, money_session, planned_match, Plan};

    fn dice(a: u8, b: u8) -> Dice {
        Dice::new(a, b).unwrap()
    }

    fn opening() -> (MatchRecord, GamePlay) {
        let m = MatchRecord::new("w", "b", 5, Variant::Backgammon);
        let mut g = m.next_game();
        let start = Variant::Backgammon.start();
        let mv = start.parse_move(dice(3, 1), "8/5 6/5").unwrap();
        g.play(Seat::White, dice(3, 1), &mv).unwrap();
        (m, g)
    }

    fn err(g: &mut GamePlay, a: Action) -> String {
        g.apply(a).unwrap_err().to_string()
    }

    #[test]
    fn the_board_turns_to_the_player_to_act() {
        let (_, g) = opening();
        assert_eq!(g.turn(), Some(Seat::Black));
        // Black to roll, seeing White's 8/5 6/5: the reference's Position ID.
        assert_eq!(g.position().position_id(), "sGfwATDgc/ABMA");
        assert_eq!(
            g.seated_position().seen_by(Seat::White).position_id(),
            "4HPwATCwZ/ABMA"
        );
    }

    #[test]
    fn cube_actions_follow_turn_ownership_and_crawford() {
        let (m, mut g) = opening();
        assert!(err(&mut g, Action::Double { seat: Seat::White })
            .contains("White doubles, but it is Black's turn"));
        assert!(
            err(&mut g, Action::Take { seat: Seat::White }).contains("no double by the opponent is pending")
        );
        assert!(err(&mut g, Action::Beaver { seat: Seat::White }).contains("no double is pending"));
        g.apply(Action::Double { seat: Seat::Black }).unwrap();
        let e = err(&mut g, Action::Beaver { seat: Seat::White });
        assert!(e.contains("beavers are not allowed"), "{e}");
        let e = g
            .play(Seat::Black, dice(2, 1), &g.position().legal_moves(dice(2, 1))[0])
            .unwrap_err()
            .to_string();
        assert!(e.contains("double awaits an answer"), "{e}");
        g.apply(Action::Take { seat: Seat::White }).unwrap();
        assert_eq!(g.cube(), (2, Some(Seat::White)));
        // Black rolls; then White may redouble, Black may not.
        let mv = g.position().legal_moves(dice(2, 1))[0];
        g.play(Seat::Black, dice(2, 1), &mv).unwrap();
        assert!(g.may_double(Seat::White));
        let mv = g.position().legal_moves(dice(4, 2))[0];
        g.play(Seat::White, dice(4, 2), &mv).unwrap();
        assert!(!g.may_double(Seat::Black));
        assert!(err(&mut g, Action::Double { seat: Seat::Black }).contains("White owns the cube"));

        let mut crawford = GamePlay::new(&m, [4, 2], true);
        let mv = Variant::Backgammon.start().legal_moves(dice(3, 1))[0];
        crawford.play(Seat::White, dice(3, 1), &mv).unwrap();
        assert!(err(&mut crawford, Action::Double { seat: Seat::Black }).contains("Crawford game"));
        let mut m = m;
        m.rules.cube = false;
        let mut cubeless = m.next_game();
        cubeless.play(Seat::White, dice(3, 1), &mv).unwrap();
        assert!(err(&mut cubeless, Action::Double { seat: Seat::Black }).contains("not in use"));
        let mut fresh = m.next_game();
        assert!(err(&mut fresh, Action::Double { seat: Seat::White }).contains("not in use"));
    }

    #[test]
    fn a_beaver_doubles_twice_and_the_beaverer_keeps_the_cube() {
        let mut m = MatchRecord::new("w", "b", 0, Variant::Backgammon);
        m.rules.beavers = true;
        let mut g = m.next_game();
        let mv = Variant::Backgammon.start().legal_moves(dice(3, 1))[0];
        g.play(Seat::White, dice(3, 1), &mv).unwrap();
        g.apply(Action::Double { seat: Seat::Black }).unwrap();
        g.apply(Action::Beaver { seat: Seat::White }).unwrap();
        assert!(err(&mut g, Action::Take { seat: Seat::White }).contains("no double by the opponent"));
        g.apply(Action::Take { seat: Seat::Black }).unwrap();
        // As gnubg 1.07 shows it after `double`, `beaver`, `take`: a 4-cube owned by
        // the beaverer (Match ID QgkAAAAAAAAA: cube 4, owner player 0).
        assert_eq!(g.cube(), (4, Some(Seat::White)));
        // A dropped beaver costs the doubler the cube after the first take.
        let mut g = m.next_game();
        g.play(Seat::White, dice(3, 1), &mv).unwrap();
        g.apply(Action::Double { seat: Seat::Black }).unwrap();
        g.apply(Action::Beaver { seat: Seat::White }).unwrap();
        g.apply(Action::Drop { seat: Seat::Black }).unwrap();
        assert_eq!(
            g.result(),
            Some(GameResult {
                winner: Seat::White,
                points: 2,
                resigned: false
            })
        );
    }

    #[test]
    fn resignations_end_or_continue_the_game() {
        let (_, mut g) = opening();
        assert!(err(&mut g, Action::AcceptResignation { seat: Seat::White }).contains("none by the opponent"));
        g.apply(Action::Resign {
            seat: Seat::Black,
            level: Resignation::Gammon,
        })
        .unwrap();
        let e = g
            .play(Seat::Black, dice(2, 1), &g.position().legal_moves(dice(2, 1))[0])
            .unwrap_err()
            .to_string();
        assert!(e.contains("resignation awaits an answer"), "{e}");
        g.apply(Action::RejectResignation { seat: Seat::White }).unwrap();
        g.apply(Action::Double { seat: Seat::Black }).unwrap();
        // Facing the double, White resigns a single game at the undoubled cube.
        g.apply(Action::Resign {
            seat: Seat::White,
            level: Resignation::Single,
        })
        .unwrap();
        g.apply(Action::AcceptResignation { seat: Seat::Black }).unwrap();
        assert_eq!(
            g.result(),
            Some(GameResult {
                winner: Seat::Black,
                points: 1,
                resigned: true
            })
        );
        let e = err(&mut g, Action::Double { seat: Seat::White });
        assert!(e.contains("already over (Black won 1 point)"), "{e}");
    }

    #[test]
    fn moves_are_checked_against_the_legal_moves() {
        let (_, mut g) = opening();
        let bad = Action::Move {
            seat: Seat::Black,
            dice: dice(6, 4),
            steps: vec![Step {
                from: 24,
                to: 13,
                hit: false,
            }],
        };
        let e = err(&mut g, bad);
        assert_eq!(e, "action 2: Black 64: 24/13 is not a legal move");
        let e = err(&mut g, Action::dance(Seat::Black, dice(6, 4)));
        assert!(e.contains("no checker moved, but 64 has"), "{e}");
        let start = Variant::Backgammon.start();
        let mv = start.legal_moves(dice(2, 1))[0];
        let e = g.play(Seat::White, dice(2, 1), &mv).unwrap_err().to_string();
        assert!(e.contains("White moves, but it is Black's turn"), "{e}");
    }

    /// Gammons and backgammons by the loser's checkers; the Jacoby rule makes them
    /// single in money play while the cube is centred.
    #[test]
    fn points_follow_gammons_backgammons_and_jacoby() {
        let mut seen = [false; 3];
        for seed in 0..200 {
            let mut m = planned_match(seed, 0, Variant::Backgammon, Rules::default(), &[Plan::Plain]);
            let game = &m.games[0];
            let r = game.result.unwrap();
            let replay = m.replay(0).unwrap();
            let loser = replay.final_position.seen_by(r.winner.other());
            let loser_side = loser.on_roll();
            let off = 15 - loser.checkers(crate::Player::OnRoll);
            let want = if off > 0 {
                1
            } else if loser_side[24] > 0 || loser_side[18..24].iter().any(|&n| n > 0) {
                3
            } else {
                2
            };
            assert_eq!(r.points, want, "seed {seed}");
            seen[want as usize - 1] = true;
            if want > 1 {
                m.rules.jacoby = true;
                let e = m.validate().unwrap_err().to_string();
                assert!(
                    e.contains(&format!("the record says {} wins {want} points", r.winner)),
                    "{e}"
                );
                m.games[0].result = Some(GameResult { points: 1, ..r });
                m.validate().unwrap();
            }
        }
        assert_eq!(
            seen, [true; 3],
            "200 random games gave no single, gammon or backgammon"
        );
    }

    #[test]
    fn validate_checks_scores_and_crawford_flags() {
        let m = crawford_match(1);
        let replays = m.validate().unwrap();
        assert_eq!(replays.len(), m.games.len());
        let k = m.games.iter().position(|g| g.crawford).unwrap();
        assert!(m.games[k].score.contains(&2));
        let mut bad = m.clone();
        bad.games[k].crawford = false;
        let e = bad.validate().unwrap_err().to_string();
        assert!(
            e.contains(&format!("game {}: the Crawford flag is false", k + 1)),
            "{e}"
        );
        let mut bad = m.clone();
        bad.games[1].score[0] += 1;
        let e = bad.validate().unwrap_err().to_string();
        assert!(e.contains("game 2: the game starts at"), "{e}");
        let mut bad = money_session(3, true);
        bad.games[0].crawford = true;
        assert!(bad
            .validate()
            .unwrap_err()
            .to_string()
            .contains("money game cannot be a Crawford game"));
        assert!(m
            .replay(99)
            .unwrap_err()
            .to_string()
            .contains("there is no game 100"));
    }

    #[test]
    fn every_planned_action_replays() {
        let m = money_session(9, true);
        assert_eq!(m.games.len(), 8);
        for (i, replay) in m.validate().unwrap().iter().enumerate() {
            assert_eq!(replay.result, m.games[i].result);
            assert_eq!(replay.steps.len(), m.games[i].actions.len());
        }
        // The cube set by hand to 4 for the player to move.
        let set = m.replay(7).unwrap();
        assert!(set
            .steps
            .iter()
            .any(|s| matches!(s.action, Action::SetCube { value: 4, .. })));
    }

    #[test]
    fn a_recorded_game_replays_to_the_positions_it_passed_through() {
        let m = MatchRecord::new("w", "b", 0, Variant::Backgammon);
        let mut g = m.next_game();
        let mut dice = DiceStream::new(4);
        let mut seat = Seat::Black;
        let mut seen = Vec::new();
        let mut roll = dice.opening_roll();
        while !g.is_over() {
            seen.push(g.seated_position().seen_by(seat));
            let moves = g.position().legal_moves(roll);
            match moves.first() {
                Some(mv) => g.play(seat, roll, mv).unwrap(),
                None => g.dance(seat, roll).unwrap(),
            }
            seat = seat.other();
            roll = dice.roll();
        }
        let mut m = m;
        m.push_game(g.finish());
        let replay = m.replay(0).unwrap();
        let before: Vec<Position> = replay.steps.iter().map(|s| s.before).collect();
        assert_eq!(before, seen);
        assert_eq!(replay.final_position.on_roll, seat);
    }
}
