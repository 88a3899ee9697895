//! Games played through the rules: turns, the cube, beavers, resignations, moves,
//! points, and match validation.

use super::GamePlay;
use crate::dice::{Dice, DiceStream};
use crate::position::Position;
use crate::records::model::{Action, GameResult, MatchRecord, Resignation, Rules, Seat};
use crate::records::test_games::{crawford_match, money_session, planned_match, Plan};
use crate::step::Step;
use crate::variant::Variant;

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
    assert!(
        err(&mut g, Action::Double { seat: Seat::White }).contains("White doubles, but it is Black's turn")
    );
    assert!(err(&mut g, Action::Take { seat: Seat::White }).contains("no double by the opponent is pending"));
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
