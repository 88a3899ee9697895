//! The matches the oracle tests play: random legal moves from seeded dice, random cube
//! actions and resignations, and planned sequences for the rare cases; and a count of
//! what they contain.

use std::collections::BTreeMap;

use board::records::{Action, Date, GameRecord, MatchRecord, Resignation, Rules, Seat};
use board::{DiceStream, Variant};

/// Plays one game of `record` with random legal moves; doubles, answers and
/// resignations are drawn from the same stream.
fn random_game(record: &MatchRecord, dice: &mut DiceStream) -> GameRecord {
    let mut g = record.next_game();
    let money = record.match_length == 0;
    let mut seat = if dice.below(2) == 0 {
        Seat::White
    } else {
        Seat::Black
    };
    let mut roll = dice.opening_roll();
    'game: loop {
        let moves = g.position().legal_moves(roll);
        if moves.is_empty() {
            g.dance(seat, roll).unwrap();
        } else {
            let k = dice.below(moves.len() as u32) as usize;
            g.play(seat, roll, &moves[k]).unwrap();
        }
        if g.is_over() {
            break;
        }
        seat = seat.other();
        let opp = seat.other();
        if dice.below(250) == 0 {
            let level = Resignation::from_multiplier(1 + dice.below(3));
            g.apply(Action::Resign { seat, level }).unwrap();
            if dice.below(3) > 0 {
                g.apply(Action::AcceptResignation { seat: opp }).unwrap();
                break;
            }
            g.apply(Action::RejectResignation { seat: opp }).unwrap();
        }
        if g.may_double(seat) && dice.below(40) == 0 {
            g.apply(Action::Double { seat }).unwrap();
            match dice.below(20) {
                0..=3 => {
                    g.apply(Action::Drop { seat: opp }).unwrap();
                    break 'game;
                }
                4..=7 if money && record.rules.beavers => {
                    g.apply(Action::Beaver { seat: opp }).unwrap();
                    if dice.below(4) == 0 {
                        g.apply(Action::Drop { seat }).unwrap();
                        break 'game;
                    }
                    g.apply(Action::Take { seat }).unwrap();
                }
                8 => {
                    g.apply(Action::Resign {
                        seat: opp,
                        level: Resignation::Single,
                    })
                    .unwrap();
                    g.apply(Action::AcceptResignation { seat }).unwrap();
                    break 'game;
                }
                _ => g.apply(Action::Take { seat: opp }).unwrap(),
            }
        }
        roll = dice.roll();
    }
    g.finish()
}

/// Cube and resignation sequences forced at a game's sixth turn, so that the rare
/// cases occur whatever the seeds.
#[derive(Clone, Copy, Debug)]
enum Plan {
    /// Double, beaver, the doubler drops.
    DroppedBeaver,
    /// Double, beaver, the doubler takes; play on.
    TakenBeaver,
    /// Double; the doubled player resigns a gammon instead of answering; accepted.
    ResignFacingDouble,
    /// A resignation declined, then a double taken; play on.
    DeclinedThenTaken,
}

/// Random moves, with `plan` carried out before the roll of the sixth turn.
fn planned_game(record: &MatchRecord, dice: &mut DiceStream, plan: Plan) -> GameRecord {
    let mut g = record.next_game();
    let mut seat = Seat::Black;
    let mut roll = dice.opening_roll();
    for turn in 0.. {
        if turn == 5 {
            let opp = seat.other();
            let mut act = |a: Action| g.apply(a).unwrap();
            match plan {
                Plan::DroppedBeaver => {
                    act(Action::Double { seat });
                    act(Action::Beaver { seat: opp });
                    act(Action::Drop { seat });
                }
                Plan::TakenBeaver => {
                    act(Action::Double { seat });
                    act(Action::Beaver { seat: opp });
                    act(Action::Take { seat });
                }
                Plan::ResignFacingDouble => {
                    act(Action::Double { seat });
                    act(Action::Resign {
                        seat: opp,
                        level: Resignation::Gammon,
                    });
                    act(Action::AcceptResignation { seat });
                }
                Plan::DeclinedThenTaken => {
                    act(Action::Resign {
                        seat,
                        level: Resignation::Single,
                    });
                    act(Action::RejectResignation { seat: opp });
                    act(Action::Double { seat });
                    act(Action::Take { seat: opp });
                }
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

/// A money session of planned games, each plan in turn.
fn planned_session(seed: u32, rules: Rules) -> MatchRecord {
    let mut record = MatchRecord::new("uma", "walter", 0, Variant::Backgammon);
    record.rules = rules;
    let mut dice = DiceStream::new(seed);
    for plan in [
        Plan::DroppedBeaver,
        Plan::TakenBeaver,
        Plan::ResignFacingDouble,
        Plan::DeclinedThenTaken,
    ] {
        let game = planned_game(&record, &mut dice, plan);
        record.push_game(game);
    }
    record
}

/// A whole match (or `money_games` money games) of random play.
fn random_match(
    seed: u32,
    names: [&str; 2],
    length: u32,
    variant: Variant,
    rules: Rules,
    money_games: usize,
) -> MatchRecord {
    let mut record = MatchRecord::new(names[0], names[1], length, variant);
    record.rules = rules;
    let mut dice = DiceStream::new(seed);
    while if length == 0 {
        record.games.len() < money_games
    } else {
        !record.is_over()
    } {
        let game = random_game(&record, &mut dice);
        record.push_game(game);
    }
    record
}

/// The matches the oracle tests use: match and money play, Crawford games, beavers,
/// Jacoby, nackgammon, a cubeless match, descriptions in the header.
pub(crate) fn test_matches() -> Vec<MatchRecord> {
    let match_rules = Rules::default();
    let money_rules = Rules {
        jacoby: true,
        beavers: true,
        ..Rules::default()
    };
    let mut m = vec![
        random_match(11, ["alice", "bob"], 5, Variant::Backgammon, match_rules, 0),
        random_match(12, ["carol", "dave"], 3, Variant::Backgammon, match_rules, 0),
        random_match(13, ["erin", "frank"], 0, Variant::Backgammon, money_rules, 12),
        random_match(14, ["grace", "heidi"], 3, Variant::Nackgammon, match_rules, 0),
        random_match(
            15,
            ["ivan", "judy"],
            0,
            Variant::Backgammon,
            Rules {
                beavers: true,
                ..Rules::default()
            },
            8,
        ),
        random_match(16, ["mallory", "niaj"], 9, Variant::Backgammon, match_rules, 0),
        random_match(17, ["olivia", "peggy"], 2, Variant::Backgammon, match_rules, 0),
        random_match(18, ["rupert", "sybil"], 3, Variant::Hypergammon3, match_rules, 0),
        random_match(
            19,
            ["trent", "victor"],
            2,
            Variant::Backgammon,
            Rules {
                cube: false,
                ..Rules::default()
            },
            0,
        ),
        planned_session(
            20,
            Rules {
                beavers: true,
                ..Rules::default()
            },
        ),
    ];
    let info = &mut m[0].info;
    info.event = Some("bgkit oracle test".into());
    info.round = Some("final".into());
    info.place = Some("the lab".into());
    info.annotator = Some("records_gnubg.rs".into());
    info.date = Some(Date {
        year: 2025,
        month: 2,
        day: 3,
    });
    m
}

/// Counts what the test matches contain, so that a change of seeds cannot silently
/// drop a feature from the oracle comparison.
pub(crate) fn coverage(matches: &[MatchRecord]) -> BTreeMap<&'static str, usize> {
    let mut c = BTreeMap::new();
    let mut add = |k: &'static str| *c.entry(k).or_insert(0) += 1;
    for m in matches {
        for (game, replay) in m.games.iter().zip(m.validate().unwrap()) {
            if game.crawford {
                add("crawford game");
            }
            match game.result {
                Some(r) if r.resigned => add("resigned"),
                Some(r) if matches!(game.actions.last(), Some(Action::Drop { .. })) => {
                    let _ = r;
                    add("dropped")
                }
                Some(r) if r.points > replay.cube => add("gammon or backgammon"),
                Some(_) => add("single game"),
                None => add("unfinished"),
            }
            for w in game.actions.windows(2) {
                match w {
                    [Action::Beaver { .. }, Action::Drop { .. }] => add("dropped beaver"),
                    [Action::Double { .. }, Action::Resign { .. }] => add("resignation facing a double"),
                    _ => {}
                }
            }
            for a in &game.actions {
                match a {
                    Action::Move { steps, .. } if steps.is_empty() => add("dance"),
                    Action::Move { steps, .. } => {
                        if steps.iter().any(|s| s.from == 25) {
                            add("bar entry");
                        }
                        if steps.iter().any(|s| s.hit) {
                            add("hit");
                        }
                        if steps.iter().any(|s| s.to == 0) {
                            add("bear-off");
                        }
                    }
                    Action::Double { .. } => add("double"),
                    Action::Take { .. } => add("take"),
                    Action::Drop { .. } => add("drop"),
                    Action::Beaver { .. } => add("beaver"),
                    Action::Resign { .. } => add("resignation offer"),
                    Action::RejectResignation { .. } => add("resignation declined"),
                    Action::AcceptResignation { .. } => add("resignation accepted"),
                    Action::SetCube { .. } => add("cube set"),
                }
            }
        }
    }
    c
}
