//! The rules engine of one game: whose turn it is, the cube, what is pending (a
//! double, a beaver, a resignation), and the result; every action is checked against
//! them.

use crate::dice::Dice;
use crate::match_id::MAX_CUBE;
use crate::position::{Position, BAR};
use crate::records::model::{Action, GameResult, Resignation, Rules, Seat};
use crate::records::resolve;
use crate::step::Step;
use crate::variant::Variant;

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

/// The rules engine shared by replay and [`GamePlay`](super::GamePlay).
#[derive(Clone, Debug)]
pub(crate) struct GameState {
    variant: Variant,
    rules: Rules,
    match_length: u32,
    crawford_game: bool,
    /// `sides[1]` belongs to `turn` (White before the first move).
    pub(super) board: Position,
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
    pub(super) fn board_seat(&self) -> Seat {
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
        if self.cube >= MAX_CUBE {
            return Err(format!("the cube is already at {MAX_CUBE}, gnubg's largest cube"));
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
                if !value.is_power_of_two() || value > MAX_CUBE {
                    return Err(format!(
                        "cube value {value} is not a power of two up to {MAX_CUBE} (gnubg's largest cube)"
                    ));
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

pub(super) fn plural(n: u32) -> &'static str {
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
