//! Test helpers: matches played with random legal moves from seeded dice, with every
//! kind of action forced in somewhere.

use crate::dice::DiceStream;
use crate::variant::Variant;

use super::model::{Action, GameRecord, MatchRecord, Resignation, Rules, Seat};

/// What a planned game does at its sixth turn, before the roll.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Plan {
    /// Nothing special: random moves to the end.
    Plain,
    /// Double and take.
    DoubleTaken,
    /// Double and drop.
    DoubleDropped,
    /// Double, beaver, the doubler takes.
    BeaverTaken,
    /// Double, beaver, the doubler drops.
    BeaverDropped,
    /// A gammon resignation declined, then a single one accepted.
    ResignDeclinedThenAccepted,
    /// Double; the doubled player resigns instead.
    ResignFacingDouble,
    /// The cube set by hand to 4, owned by the player to move (SGF only).
    CubeSet,
}

/// Plays one game of `record` with random legal moves, carrying out `plan`.
pub(crate) fn planned_game(record: &MatchRecord, dice: &mut DiceStream, plan: Plan) -> GameRecord {
    let mut g = record.next_game();
    let mut seat = if dice.below(2) == 0 {
        Seat::White
    } else {
        Seat::Black
    };
    let mut roll = dice.opening_roll();
    for turn in 0.. {
        if turn == 5 {
            let opp = seat.other();
            let can_double = g.may_double(seat);
            let mut act = |a: Action| g.apply(a).unwrap();
            match plan {
                Plan::Plain => {}
                Plan::DoubleTaken
                | Plan::DoubleDropped
                | Plan::BeaverTaken
                | Plan::BeaverDropped
                | Plan::ResignFacingDouble
                    if !can_double => {}
                Plan::DoubleTaken => {
                    act(Action::Double { seat });
                    act(Action::Take { seat: opp });
                }
                Plan::DoubleDropped => {
                    act(Action::Double { seat });
                    act(Action::Drop { seat: opp });
                }
                Plan::BeaverTaken => {
                    act(Action::Double { seat });
                    act(Action::Beaver { seat: opp });
                    act(Action::Take { seat });
                }
                Plan::BeaverDropped => {
                    act(Action::Double { seat });
                    act(Action::Beaver { seat: opp });
                    act(Action::Drop { seat });
                }
                Plan::ResignDeclinedThenAccepted => {
                    act(Action::Resign {
                        seat,
                        level: Resignation::Gammon,
                    });
                    act(Action::RejectResignation { seat: opp });
                    act(Action::Resign {
                        seat,
                        level: Resignation::Single,
                    });
                    act(Action::AcceptResignation { seat: opp });
                }
                Plan::ResignFacingDouble => {
                    act(Action::Double { seat });
                    act(Action::Resign {
                        seat: opp,
                        level: Resignation::Backgammon,
                    });
                    act(Action::AcceptResignation { seat });
                }
                Plan::CubeSet => act(Action::SetCube {
                    value: 4,
                    owner: Some(seat),
                }),
            }
            if g.is_over() {
                break;
            }
        }
        let moves = g.position().legal_moves(roll);
        match moves.len() {
            0 => g.dance(seat, roll).unwrap(),
            n => g.play(seat, roll, &moves[dice.below(n as u32) as usize]).unwrap(),
        }
        if g.is_over() {
            break;
        }
        seat = seat.other();
        roll = dice.roll();
    }
    g.finish()
}

/// A match of planned games, plans taken in turn (and `Plain` once they run out),
/// until it is won; for money play one game per plan.
pub(crate) fn planned_match(
    seed: u32,
    length: u32,
    variant: Variant,
    rules: Rules,
    plans: &[Plan],
) -> MatchRecord {
    let mut record = MatchRecord::new("white player", "black player", length, variant);
    record.rules = rules;
    let mut dice = DiceStream::new(seed);
    let mut k = 0;
    loop {
        let done = if length == 0 {
            k >= plans.len()
        } else {
            record.is_over()
        };
        if done {
            break;
        }
        let plan = plans.get(k).copied().unwrap_or(Plan::Plain);
        let game = planned_game(&record, &mut dice, plan);
        record.push_game(game);
        k += 1;
    }
    record
}

/// Money play with Jacoby and beavers, one game per cube and resignation plan
/// (`CubeSet` only when `with_cube_set`).
pub(crate) fn money_session(seed: u32, with_cube_set: bool) -> MatchRecord {
    let mut plans = vec![
        Plan::Plain,
        Plan::DoubleTaken,
        Plan::DoubleDropped,
        Plan::BeaverTaken,
        Plan::BeaverDropped,
        Plan::ResignDeclinedThenAccepted,
        Plan::ResignFacingDouble,
    ];
    if with_cube_set {
        plans.push(Plan::CubeSet);
    }
    let rules = Rules {
        jacoby: true,
        beavers: true,
        ..Rules::default()
    };
    planned_match(seed, 0, Variant::Backgammon, rules, &plans)
}

/// A 3-point match that reaches its Crawford game, with a taken double on the way.
pub(crate) fn crawford_match(seed: u32) -> MatchRecord {
    for s in seed.. {
        let m = planned_match(
            s,
            3,
            Variant::Backgammon,
            Rules::default(),
            &[Plan::Plain, Plan::Plain, Plan::DoubleTaken],
        );
        if m.games.iter().any(|g| g.crawford) {
            return m;
        }
    }
    unreachable!()
}
