//! Lookahead (1-ply and 2-ply evaluation, n-ply move choice) against gnubg run on this
//! machine.
//!
//! gnubg's own lookahead values are not exactly repeatable: positions met while scoring
//! moves can be evaluated incrementally (a different rounding) and cached, so the last
//! bits depend on what the process evaluated before. Repeated runs of gnubg differ by a
//! few 1e-7; bgkit's values are deterministic and match gnubg's to that level (most of
//! them bit for bit), so these tests allow 1e-5 and report how many are identical.

mod common;

use board::{Dice, MoveGen, Position};
use common::*;
use evaluator::search::{Lookahead, FILTERS_NORMAL};

fn sample_positions(n: usize, seed: u32) -> Vec<Position> {
    evaluator::corpus::random_game_corpus(seed, 20)
        .into_iter()
        .step_by(7)
        .map(|(p, _)| p)
        .take(n)
        .collect()
}

fn compare_plied(plies: u32, prune: bool, positions: &[Position]) {
    let Some(ev) = gnubg_evaluator() else { return };
    if !have(&[GNUBG]) {
        return;
    }
    let ids: Vec<String> = positions.iter().map(Position::position_id).collect();
    let body = format!(
        "ec = gnubg.evalcontext(0, {plies}, 1, {}, 0.0)\nfor pid in lines:\n    e = gnubg.evaluate(gnubg.positionfromid(pid), ci, ec)\n    out.write(' '.join(repr(x) for x in e[:5]) + '\\n')",
        u8::from(prune)
    );
    let results = gnubg_python(&body, &ids, 6);
    let (mut identical, mut worst) = (0, 0f32);
    let mut failures = Vec::new();
    for ((pos, id), line) in positions.iter().zip(&ids).zip(&results) {
        let want: Vec<f32> = line
            .split(' ')
            .map(|x| x.parse::<f64>().unwrap() as f32)
            .collect();
        let got = ev.evaluate_plied(pos, plies, Lookahead { prune }).unwrap();
        let d = got
            .iter()
            .zip(&want)
            .map(|(a, b)| (a - b).abs())
            .fold(0f32, f32::max);
        worst = worst.max(d);
        if d == 0.0 {
            identical += 1;
        }
        if d > 1e-5 {
            failures.push(format!("{id}: got {got:?}, gnubg {want:?}"));
        }
    }
    eprintln!(
        "{plies}-ply (prune {prune}): {identical}/{} bit-identical, max |diff| {worst:e}",
        positions.len()
    );
    assert!(
        failures.is_empty(),
        "{}",
        failures[..failures.len().min(10)].join("\n")
    );
}

#[test]
fn one_ply_evaluations_match_gnubg_with_and_without_pruning() {
    let positions = sample_positions(120, 501);
    compare_plied(1, true, &positions);
    compare_plied(1, false, &positions[..60]);
}

#[test]
fn two_ply_evaluations_match_gnubg() {
    compare_plied(2, true, &sample_positions(8, 502));
}

#[test]
fn one_ply_best_moves_match_gnubg() {
    let Some(ev) = gnubg_evaluator() else { return };
    if !have(&[GNUBG]) {
        return;
    }
    let pairs: Vec<(Position, Dice)> = evaluator::corpus::random_game_corpus(503, 10)
        .into_iter()
        .step_by(5)
        .take(60)
        .collect();
    let input: Vec<String> = pairs
        .iter()
        .map(|(p, d)| format!("{} {} {}", p.position_id(), d.high(), d.low()))
        .collect();
    let body = "ec = gnubg.evalcontext(0, 1, 1, 1, 0.0)\nfor l in lines:\n    pid, a, b = l.split()\n    m = gnubg.findbestmove(gnubg.positionfromid(pid), ci, ec, (int(a), int(b)))\n    out.write(gnubg.movetupletostring(m, gnubg.positionfromid(pid)) if m else '-')\n    out.write('\\n')";
    let results = gnubg_python(body, &input, 6);
    let mut gen = MoveGen::new();
    let mut failures = Vec::new();
    for ((pos, dice), want) in pairs.iter().zip(&results) {
        let got = ev
            .best_move_plied(&mut gen, pos, *dice, 1, &FILTERS_NORMAL, Lookahead::default())
            .unwrap()
            .map_or("-".to_string(), |(m, _)| m.gnubg_notation());
        if &got != want {
            failures.push(format!("{} {dice}: ours {got}, gnubg {want}", pos.position_id()));
        }
    }
    eprintln!(
        "1-ply best moves: {}/{} identical",
        pairs.len() - failures.len(),
        pairs.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_cache_changes_nothing_but_time() {
    let Some(plain) = gnubg_evaluator() else { return };
    let cached = gnubg_evaluator().unwrap().with_cache(12);
    for pos in sample_positions(6, 504) {
        let a = plain.evaluate_plied(&pos, 1, Lookahead::default()).unwrap();
        let b = cached.evaluate_plied(&pos, 1, Lookahead::default()).unwrap();
        let c = cached.evaluate_plied(&pos, 1, Lookahead::default()).unwrap();
        assert_eq!(a.map(f32::to_bits), b.map(f32::to_bits));
        assert_eq!(b.map(f32::to_bits), c.map(f32::to_bits));
    }
    let batch: Vec<Position> = sample_positions(40, 505);
    let results = plain.evaluate_batch(&batch).unwrap();
    for (p, r) in batch.iter().zip(&results) {
        assert_eq!(
            plain.evaluate(p).unwrap().0.map(f32::to_bits),
            r.0.map(f32::to_bits)
        );
    }
}

#[test]
fn pruning_nets_score_pairs_as_they_score_one_position() {
    // The pruning search scores a move list two positions at a time; each value must be
    // the one-at-a-time value, bit for bit (gnubg scores them one at a time).
    let Some(ev) = gnubg_evaluator() else { return };
    let positions = sample_positions(400, 3);
    let mut pairs = 0;
    for two in positions.windows(2) {
        let class = ev.classify(&two[0]);
        if !class.uses_net() || ev.classify(&two[1]) != class {
            continue;
        }
        let single = [
            ev.evaluate_pruning(&two[0], class).unwrap().unwrap(),
            ev.evaluate_pruning(&two[1], class).unwrap().unwrap(),
        ];
        let pair = ev
            .evaluate_pruning_pair([&two[0], &two[1]], class)
            .unwrap()
            .unwrap();
        let bits = |p: &[[f32; 5]; 2]| p.map(|q| q.map(f32::to_bits));
        assert_eq!(
            bits(&pair),
            bits(&single),
            "{} {}",
            two[0].position_id(),
            two[1].position_id()
        );
        pairs += 1;
    }
    assert!(pairs > 100, "only {pairs} pairs of one class");
}

/// gnubg's move filters have rows for 1 to 4 plies: a deeper best-move search is an
/// error saying so (it used to search 17 s and answer "no legal move", `Ok(None)`).
#[test]
fn a_best_move_deeper_than_the_filters_is_an_error() {
    let Some(ev) = gnubg_evaluator() else { return };
    let start = board::Variant::Backgammon.start();
    let d21 = Dice::new(2, 1).unwrap();
    let e = ev
        .best_move_plied(
            &mut MoveGen::new(),
            &start,
            d21,
            5,
            &FILTERS_NORMAL,
            Lookahead::default(),
        )
        .unwrap_err();
    assert!(
        matches!(e, evaluator::eval::EvalError::TooDeep { plies: 5 }),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        "a best move 5 plies deep: gnubg's move filters go at most 4 plies deep"
    );
    assert_eq!(evaluator::search::MAX_FILTER_PLIES, 4);
}

/// A second evaluator on the first one's databases (`bearoff_shared`, nothing mapped
/// again) evaluates as the first.
#[test]
fn shared_databases_give_the_same_evaluations() {
    let Some(ev) = gnubg_evaluator() else { return };
    let shared = ev.bearoff_shared();
    assert!(std::sync::Arc::ptr_eq(&shared, &ev.bearoff_shared()));
    let weights = evaluator::weights::Weights::load(WD).unwrap();
    let second = evaluator::Evaluator::with_nets(evaluator::nets::GnubgNets::new(weights), shared);
    for p in sample_positions(40, 503) {
        assert_eq!(ev.evaluate(&p).unwrap(), second.evaluate(&p).unwrap());
    }
}
