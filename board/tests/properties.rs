//! Property tests: the fast move generator against a plain reading of the rules, and
//! round trips of IDs and notation, on random positions.

use std::collections::BTreeSet;

use board::{Dice, DiceStream, MoveGen, Position, Side, Variant, BAR, SLOTS};
use proptest::prelude::*;

/// A plain, slow reading of the rules, written independently of the generator: try
/// every order of the dice and every checker, keep the plays that use the most dice;
/// when only one die of a non-double can be used, keep the larger die if any play
/// uses it; merge plays with the same result.
fn reference_results(pos: &Position, dice: Dice) -> BTreeSet<[[u8; 25]; 2]> {
    fn can_bear_off(me: &Side) -> bool {
        me[6..].iter().all(|&n| n == 0)
    }
    /// One checker from slot `from` (24 = bar) by `die`, if legal.
    fn single(board: &[[u8; 25]; 2], from: usize, die: usize) -> Option<[[u8; 25]; 2]> {
        let [opp, me] = board;
        if me[from] == 0 || (from != BAR && me[BAR] > 0) {
            return None;
        }
        let mut b = *board;
        if from < die {
            // Bearing off: all home, and exact or no checker on a higher point.
            let exact = from + 1 == die;
            let highest = (0..SLOTS).rev().find(|&i| me[i] > 0).unwrap();
            if !can_bear_off(me) || !(exact || highest == from) {
                return None;
            }
            b[1][from] -= 1;
            return Some(b);
        }
        let to = from - die;
        match opp[23 - to] {
            0 => {}
            1 => {
                b[0][23 - to] = 0;
                b[0][BAR] += 1;
            }
            _ => return None,
        }
        b[1][from] -= 1;
        b[1][to] += 1;
        Some(b)
    }
    fn plays(
        board: [[u8; 25]; 2],
        dice: &[usize],
        used: Vec<usize>,
        out: &mut Vec<(Vec<usize>, [[u8; 25]; 2])>,
    ) {
        let Some((&die, rest)) = dice.split_first() else {
            out.push((used, board));
            return;
        };
        let mut any = false;
        for from in 0..SLOTS {
            if let Some(b) = single(&board, from, die) {
                any = true;
                let mut u = used.clone();
                u.push(die);
                plays(b, rest, u, out);
            }
        }
        if !any {
            out.push((used, board));
        }
    }
    let (hi, lo) = (dice.high() as usize, dice.low() as usize);
    let mut all = Vec::new();
    if hi == lo {
        plays(*pos.sides(), &[hi; 4], Vec::new(), &mut all);
    } else {
        plays(*pos.sides(), &[hi, lo], Vec::new(), &mut all);
        plays(*pos.sides(), &[lo, hi], Vec::new(), &mut all);
    }
    let most = all.iter().map(|(u, _)| u.len()).max().unwrap_or(0);
    all.retain(|(u, _)| u.len() == most);
    if most == 0 {
        return BTreeSet::new();
    }
    if hi != lo && most == 1 && all.iter().any(|(u, _)| u[0] == hi) {
        all.retain(|(u, _)| u[0] == hi);
    }
    all.into_iter().map(|(_, b)| b).collect()
}

/// A random valid position: each side gets up to 15 checkers on random free slots,
/// with a tilt towards bearoff, bar or contact positions depending on `style`.
fn random_position(seed: u32, style: u32) -> Position {
    let mut rng = DiceStream::new(seed);
    let mut sides = [[0u8; 25]; 2];
    for s in 0..2 {
        let n = 1 + rng.below(15);
        for _ in 0..n {
            let slot = match style % 3 {
                0 => rng.below(6) as usize,    // bearoff
                1 if rng.below(4) == 0 => BAR, // bar-heavy
                _ => rng.below(25) as usize,   // anywhere
            };
            let other = if slot == BAR { None } else { Some(23 - slot) };
            if other.is_some_and(|o| sides[1 - s][o] > 0) {
                continue;
            }
            sides[s][slot] += 1;
        }
    }
    Position::new(sides[0], sides[1]).unwrap_or(Variant::Backgammon.start())
}

/// Replays a move's steps on the board, independently of the generator.
fn replay(pos: &Position, m: &board::Move) -> [[u8; 25]; 2] {
    let mut b = *pos.sides();
    for s in m.steps() {
        b[1][s.from as usize - 1] -= 1;
        if s.to > 0 {
            let to = s.to as usize - 1;
            let there = 23 - to;
            assert_eq!(s.hit, b[0][there] == 1, "hit flag of {:?}", s);
            if b[0][there] == 1 {
                b[0][there] = 0;
                b[0][BAR] += 1;
            }
            assert!(b[0][there] == 0, "landed on a made point");
            b[1][to] += 1;
        }
    }
    b
}

fn check(pos: &Position, gen: &mut MoveGen) {
    for dice in Dice::all() {
        let key = format!("{} {dice}", pos.position_id());
        let moves = gen.moves(pos, dice).to_vec();
        let got: BTreeSet<[[u8; 25]; 2]> = moves.iter().map(|m| *m.result.sides()).collect();
        assert_eq!(got.len(), moves.len(), "{key}: duplicate results");
        assert_eq!(
            got,
            reference_results(pos, dice),
            "{key}: results differ from the rules"
        );
        let n_steps: BTreeSet<usize> = moves.iter().map(|m| m.steps().len()).collect();
        assert!(
            n_steps.len() <= 1,
            "{key}: moves use different numbers of dice {n_steps:?}"
        );
        for m in &moves {
            assert_eq!(replay(pos, m), *m.result.sides(), "{key}: steps do not replay");
            for text in [m.notation(), m.gnubg_notation()] {
                let back = pos
                    .parse_move(dice, &text)
                    .unwrap_or_else(|e| panic!("{key}: {e}"));
                assert_eq!(
                    back.result, m.result,
                    "{key}: '{text}' reads back as another move"
                );
            }
        }
        let results: Vec<Position> = moves.iter().map(|m| m.result).collect();
        assert_eq!(gen.positions(pos, dice), &results[..], "{key}: fast path differs");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn generator_follows_the_rules_on_random_positions(seed in any::<u32>(), style in 0u32..3) {
        let pos = random_position(seed, style);
        check(&pos, &mut MoveGen::new());
        check(&pos.swapped(), &mut MoveGen::new());
    }

    #[test]
    fn position_ids_round_trip(seed in any::<u32>(), style in 0u32..3) {
        let pos = random_position(seed, style);
        prop_assert_eq!(Position::from_id(&pos.position_id()).unwrap(), pos);
    }
}

/// Positions met in seeded random games of every variant, all 21 rolls each.
#[test]
fn generator_follows_the_rules_in_random_games() {
    let mut gen = MoveGen::new();
    let mut rng = DiceStream::new(99);
    for variant in Variant::ALL {
        for _ in 0..4 {
            let mut pos = variant.start();
            for _ in 0..400 {
                check(&pos, &mut gen);
                let children = gen.positions(&pos, rng.roll()).to_vec();
                let next = if children.is_empty() {
                    pos
                } else {
                    children[rng.below(children.len() as u32) as usize]
                };
                if next.on_roll().iter().all(|&n| n == 0) {
                    break;
                }
                pos = next.swapped();
            }
        }
    }
}
