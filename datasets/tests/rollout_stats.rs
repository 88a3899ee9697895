//! The statistics of rollouts, against exact values: the two-sided bearoff database
//! (gnubg's own file), the evaluator's 0-ply and 1-ply values, and each other.

mod common;

use board::{Dice, MoveGen, Position};
use datasets::play::{best_move_0ply, best_move_pruned, equity_after, value_after};
use datasets::rng::SplitMix;
use datasets::rollout::{lookahead, LookaheadMemo};
use datasets::{Roller, RolloutResult, RolloutSettings};
use evaluator::class::PositionClass;
use evaluator::search::Lookahead;
use evaluator::Evaluator;

/// A side with 1..=6 checkers on its 6 home points.
fn small_side(g: &mut SplitMix) -> [u8; 25] {
    let mut s = [0u8; 25];
    for _ in 0..1 + g.below(6) {
        s[g.below(6) as usize] += 1;
    }
    s
}

/// Positions inside the two-sided database whose exact win chance is not near 0 or 1.
fn two_sided_positions(ev: &Evaluator, n: usize) -> Vec<(Position, f32)> {
    let mut g = SplitMix::new(2024);
    let mut out = Vec::new();
    while out.len() < n {
        let pos = Position::new(small_side(&mut g), small_side(&mut g)).unwrap();
        assert_eq!(ev.classify(&pos), PositionClass::Bearoff2);
        let exact = ev.bearoff().eval_two_sided(&pos).unwrap()[0];
        if (0.1..=0.9).contains(&exact) {
            out.push((pos, exact));
        }
    }
    out
}

#[test]
fn rollouts_inside_the_two_sided_database_agree_with_its_exact_values() {
    let Some(ev) = common::gnubg_evaluator() else {
        return;
    };
    let plain = RolloutSettings {
        trials: 1296,
        variance_reduction: false,
        bearoff_truncation: false,
        seed: 7,
        ..RolloutSettings::default()
    };
    let roller = Roller::new(&ev, plain).unwrap();
    let mut z2 = 0f64;
    let positions = two_sided_positions(&ev, 24);
    for (pos, exact) in &positions {
        let r = roller.rollout(pos).unwrap();
        let z = (r.mean[0] - f64::from(*exact)) / r.se[0];
        eprintln!(
            "{} exact {exact:.5} rollout {:.5} se {:.5} z {z:+.2}",
            pos.position_id(),
            r.mean[0],
            r.se[0]
        );
        assert!(r.se[0] > 0.005, "a real spread of outcomes: {r:?}");
        assert!(z.abs() <= 3.0, "{}: {r:?} vs exact {exact}", pos.position_id());
        // No gammons are possible with six checkers or fewer a side.
        assert_eq!(&r.mean[1..], &[0.0; 4]);
        z2 += z * z;
    }
    // The z-scores' mean square is about 1 for honest standard errors (less with
    // stratified dice, which make the reported error conservative).
    let msq = z2 / positions.len() as f64;
    eprintln!("mean z^2 over {} positions: {msq:.3}", positions.len());
    assert!(msq < 2.0, "{msq}");
}

#[test]
fn variance_reduction_in_the_database_gives_its_exact_values() {
    // With exact evaluations the luck terms cancel the dice completely: every trial
    // returns the starting value (up to the database's 16-bit rounding).
    let Some(ev) = common::gnubg_evaluator() else {
        return;
    };
    let settings = RolloutSettings {
        trials: 72,
        variance_reduction: true,
        bearoff_truncation: false,
        seed: 3,
        ..RolloutSettings::default()
    };
    let roller = Roller::new(&ev, settings).unwrap();
    for (pos, exact) in two_sided_positions(&ev, 10) {
        let r = roller.rollout(&pos).unwrap();
        assert!((r.mean[0] - f64::from(exact)).abs() < 3e-4, "{r:?} vs {exact}");
        assert!(r.se[0] < 1e-4, "{r:?}");
    }
}

/// Positions from seeded random games whose class is `class` and whose 0-ply win
/// chance is between 0.2 and 0.8.
fn positions_of(ev: &Evaluator, class: PositionClass, n: usize, seed: u32) -> Vec<Position> {
    let all = common::random_game_positions(seed, 400, 3);
    let open = |p: &Position| (0.2..=0.8).contains(&ev.evaluate(p).unwrap().0[0]);
    let mut out: Vec<Position> = all
        .into_iter()
        .filter(|p| ev.classify(p) == class && open(p))
        .collect();
    let step = (out.len() / n).max(1);
    out = out.into_iter().step_by(step).take(n).collect();
    assert_eq!(out.len(), n);
    out
}

fn assert_consistent(a: &RolloutResult, b: &RolloutResult, what: &str) {
    for i in 0..5 {
        let tol = 3.0 * (a.se[i].powi(2) + b.se[i].powi(2)).sqrt();
        assert!(
            (a.mean[i] - b.mean[i]).abs() <= tol.max(1e-9),
            "{what}: output {i}: {a:?} vs {b:?}"
        );
    }
}

#[test]
fn variance_reduction_shrinks_the_error_without_moving_the_mean() {
    let Some(ev) = common::gnubg_evaluator() else {
        return;
    };
    let base = RolloutSettings {
        trials: 216,
        seed: 11,
        ..RolloutSettings::default()
    };
    let vr = Roller::new(&ev, base.clone()).unwrap();
    let plain = Roller::new(
        &ev,
        RolloutSettings {
            variance_reduction: false,
            ..base.clone()
        },
    )
    .unwrap();
    // Races played to the database; contact positions truncated after 8 half-moves
    // (the same estimand with and without the luck adjustment).
    let truncated = |r: &RolloutSettings| RolloutSettings {
        truncate: Some(8),
        trials: 144,
        ..r.clone()
    };
    let vr_t = Roller::new(&ev, truncated(&base)).unwrap();
    let plain_t = Roller::new(
        &ev,
        truncated(&RolloutSettings {
            variance_reduction: false,
            ..base.clone()
        }),
    )
    .unwrap();
    let mut ratios = Vec::new();
    let cases = positions_of(&ev, PositionClass::Race, 4, 5)
        .into_iter()
        .map(|p| (p, &vr, &plain))
        .chain(
            positions_of(&ev, PositionClass::Contact, 2, 6)
                .into_iter()
                .map(|p| (p, &vr_t, &plain_t)),
        );
    for (pos, with, without) in cases {
        let a = with.rollout(&pos).unwrap();
        let b = without.rollout(&pos).unwrap();
        eprintln!(
            "{} win {:.4}±{:.4} (vr) vs {:.4}±{:.4}",
            pos.position_id(),
            a.mean[0],
            a.se[0],
            b.mean[0],
            b.se[0]
        );
        assert!(a.se[0] < b.se[0], "{}: {a:?} vs {b:?}", pos.position_id());
        assert_consistent(&a, &b, &pos.position_id());
        ratios.push(a.se[0] / b.se[0]);
    }
    let mean_ratio = ratios.iter().sum::<f64>() / ratios.len() as f64;
    eprintln!("mean SE ratio (vr / plain): {mean_ratio:.3}");
    assert!(mean_ratio < 0.6, "{ratios:?}");
}

#[test]
fn same_seed_same_numbers_on_any_thread_count() {
    let Some(ev) = common::gnubg_evaluator() else {
        return;
    };
    let settings = RolloutSettings {
        trials: 40,
        truncate: Some(12),
        seed: 99,
        ..RolloutSettings::default()
    };
    let roller = Roller::new(&ev, settings).unwrap();
    let pos = positions_of(&ev, PositionClass::Contact, 1, 8)[0];
    let serial = roller.rollout_serial(&pos).unwrap();
    for threads in [1, 2, 3] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let par = pool.install(|| roller.rollout(&pos).unwrap());
        assert_eq!(par, serial, "{threads} threads");
    }
    let other = Roller::new(
        &ev,
        RolloutSettings {
            seed: 100,
            ..roller.settings().clone()
        },
    )
    .unwrap();
    assert_ne!(other.rollout(&pos).unwrap(), serial);
}

#[test]
fn truncation_at_zero_is_the_static_evaluation_and_over_positions_are_exact() {
    let Some(ev) = common::gnubg_evaluator() else {
        return;
    };
    let roller = Roller::new(
        &ev,
        RolloutSettings {
            trials: 10,
            truncate: Some(0),
            ..RolloutSettings::default()
        },
    )
    .unwrap();
    for pos in positions_of(&ev, PositionClass::Contact, 5, 9) {
        let r = roller.rollout(&pos).unwrap();
        let p = ev.evaluate(&pos).unwrap().0;
        assert_eq!(r.mean, p.map(f64::from));
        assert_eq!(r.se, [0.0; 5]);
    }
    // The side on roll has borne off everything but the opponent has all 15 left, two
    // in the winner's home board: a backgammon loss for the side on roll.
    let mut winner = [0u8; 25];
    winner[3] = 1;
    let mut loser = [0u8; 25];
    loser[22] = 2;
    loser[12] = 13;
    let won = Position::new(loser, [0; 25]).unwrap();
    let _ = winner;
    let r = Roller::new(&ev, RolloutSettings::default())
        .unwrap()
        .rollout(&won)
        .unwrap();
    assert_eq!(r.mean, [1.0, 1.0, 1.0, 0.0, 0.0]);
}

#[test]
fn the_0ply_choice_is_the_evaluators_and_the_lookahead_is_its_1ply_value() {
    let Some(ev) = common::gnubg_evaluator() else {
        return;
    };
    let mut gen = MoveGen::new();
    let mut gen2 = MoveGen::new();
    let mut memo = LookaheadMemo::default();
    let positions = common::random_game_positions(31, 30, 4);
    assert!(positions.len() > 150);
    for pos in positions.iter().take(150) {
        for d in Dice::all() {
            let mine = best_move_0ply(&ev, &mut gen, pos, d, true).unwrap();
            match ev.best_move(&mut gen2, pos, d).unwrap() {
                Some((m, eq)) => {
                    assert_eq!(mine.result, m.result, "{} {d}", pos.position_id());
                    let v = mine.value.unwrap();
                    assert_eq!(v, value_after(&ev, &m.result).unwrap());
                    if gen2.positions(pos, d).len() > 1 {
                        // The score the move was ranked by: the opponent's equity
                        // negated, as gnubg scores moves.
                        assert_eq!(equity_after(&ev, &m.result).unwrap(), eq);
                    }
                }
                None => assert_eq!(mine.result, *pos),
            }
        }
        if ev.classify(pos).uses_net() {
            let la = lookahead(&ev, &mut gen, &mut memo, pos, false).unwrap();
            let one_ply = ev.evaluate_plied(pos, 1, Lookahead { prune: false }).unwrap();
            // lookahead's mean is the mover's view after the roll; 1-ply is the same
            // average from the side on roll, computed in f32.
            for i in 0..5 {
                assert!(
                    (la.mean[i] - f64::from(one_ply[i])).abs() < 2e-6,
                    "{la:?} vs {one_ply:?}"
                );
            }
        }
    }
}

#[test]
fn pruned_lookahead_is_gnubgs_pruned_1ply_and_pruned_play_picks_among_the_kept() {
    let Some(ev) = common::gnubg_evaluator() else {
        return;
    };
    let mut gen = MoveGen::new();
    let mut memo = LookaheadMemo::default();
    let (mut rolls, mut pruned_rolls, mut other_choice) = (0, 0, 0);
    for pos in common::random_game_positions(37, 30, 4).iter().take(150) {
        if !ev.classify(pos).uses_net() {
            continue;
        }
        // gnubg's 1-ply (its lookahead chooses each roll's move among those its
        // pruning nets keep) against the rollouts' pruned lookahead.
        let la = lookahead(&ev, &mut gen, &mut memo, pos, true).unwrap();
        let one_ply = ev.evaluate_plied(pos, 1, Lookahead { prune: true }).unwrap();
        for i in 0..5 {
            assert!(
                (la.mean[i] - f64::from(one_ply[i])).abs() < 2e-6,
                "{}: {la:?} vs {one_ply:?}",
                pos.position_id()
            );
        }
        let full = lookahead(&ev, &mut gen, &mut memo, pos, false).unwrap();
        for (k, d) in Dice::all().enumerate() {
            rolls += 1;
            let moves = gen.positions(pos, d).to_vec();
            let kept = ev.pruned_candidates(&moves).unwrap();
            let chosen = best_move_pruned(&ev, &mut gen, pos, d).unwrap();
            assert_eq!(chosen, la.results[k], "{} {d}", pos.position_id());
            if let Some(kept) = kept {
                pruned_rolls += 1;
                // The choice is the best of the kept moves by 0-ply equity.
                let eq = |m: &Position| equity_after(&ev, m).unwrap();
                let best = kept.iter().map(|&i| eq(&moves[i])).fold(f32::MIN, f32::max);
                assert!(kept.iter().any(|&i| moves[i] == chosen));
                assert_eq!(eq(&chosen), best);
            }
            other_choice += usize::from(la.results[k] != full.results[k]);
        }
    }
    eprintln!(
        "{rolls} rolls, {pruned_rolls} pruned, {other_choice} with another move than the full 0-ply choice"
    );
    // The positions exercise pruning, and it changes some choices.
    assert!(pruned_rolls * 3 > rolls, "{pruned_rolls} of {rolls}");
    assert!(other_choice > 0);
}

#[test]
fn pruned_rollouts_agree_with_full_ones_and_keep_their_seeds() {
    let Some(ev) = common::gnubg_evaluator() else {
        return;
    };
    let full = RolloutSettings {
        trials: 144,
        truncate: Some(10),
        seed: 7,
        ..RolloutSettings::default()
    };
    let pruned = RolloutSettings {
        prune_moves: true,
        ..full.clone()
    };
    let (full, pruned) = (Roller::new(&ev, full).unwrap(), Roller::new(&ev, pruned).unwrap());
    let mut differ = 0;
    for pos in positions_of(&ev, PositionClass::Contact, 4, 12) {
        let a = full.rollout(&pos).unwrap();
        let b = pruned.rollout_serial(&pos).unwrap();
        assert_consistent(&a, &b, &pos.position_id());
        differ += usize::from(a != b);
        let pool = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
        assert_eq!(pool.install(|| pruned.rollout(&pos).unwrap()), b);
    }
    assert!(differ > 0, "pruning changed no rollout");
}
