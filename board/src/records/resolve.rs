//! Turning the from/to pairs a file gives for a move into the legal move they describe.
//!
//! Files write moves in two ways. gnubg writes one pair per die, in the order played
//! (`24/18 18/15`); Jellyfish, XG and the SGF specification's own example may join the
//! dice one checker used into one pair (`11/4`, `9/Off`, `B[61yg]`). Both are read
//! here, against the position and the legal moves of the roll:
//!
//! 1. If every pair is one die's movement and playing them in the given order obeys the
//!    rules step by step (bar first, open landing points, bearing off only with all
//!    checkers home and the exact or a larger die from the highest point), and the
//!    result is one of the roll's legal moves, the pairs are kept as they are, in their
//!    order, with hits found on the board.
//! 2. Otherwise each pair is taken as one checker's path. A legal move matches when
//!    its steps can be grouped into chains, one per pair, each running from the pair's
//!    start to its end. Matches whose chains hit nothing at an intermediate point are
//!    preferred (a joined pair means the checker went straight on). One resulting
//!    position must remain; its steps are returned chain by chain.

use crate::dice::Dice;
use crate::movegen::Move;
use crate::position::{Position, BAR};
use crate::step::Step;

/// The legal moves and the steps that describe the pairs, or why they describe none.
pub(crate) fn resolve(pos: &Position, dice: Dice, pairs: &[(u8, u8)]) -> Result<Vec<Step>, String> {
    let legal = pos.legal_moves(dice);
    if pairs.is_empty() {
        return if legal.is_empty() {
            Ok(Vec::new())
        } else {
            Err(format!(
                "no checker moved, but {dice} has {} legal move{}",
                legal.len(),
                if legal.len() == 1 { "" } else { "s" }
            ))
        };
    }
    if legal.is_empty() {
        return Err(format!("{dice} has no legal move here, but a move is given"));
    }
    for &(from, to) in pairs {
        if !(1..=25).contains(&from) || to > 24 || to >= from {
            return Err(format!(
                "{} is not a forward checker movement",
                pair_text(from, to)
            ));
        }
    }
    if let Some(steps) = as_single_steps(pos, dice, pairs, &legal) {
        return Ok(steps);
    }
    as_chains(pairs, &legal)
}

fn point_name(p: u8) -> String {
    match p {
        25 => "bar".into(),
        0 => "off".into(),
        p => p.to_string(),
    }
}

fn pair_text(from: u8, to: u8) -> String {
    format!("{}/{}", point_name(from), point_name(to))
}

/// Describes pairs for messages: `24/18 18/15`.
pub(crate) fn pairs_text(pairs: &[(u8, u8)]) -> String {
    pairs
        .iter()
        .map(|&(a, b)| pair_text(a, b))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Plays the pairs as single-die steps in the given order, checking each step; returns
/// the steps when the result is a legal move using as many dice.
fn as_single_steps(pos: &Position, dice: Dice, pairs: &[(u8, u8)], legal: &[Move]) -> Option<Vec<Step>> {
    let mut dice_left: Vec<u8> = if dice.is_double() {
        vec![dice.high(); 4]
    } else {
        vec![dice.high(), dice.low()]
    };
    let mut board = *pos.sides();
    let mut steps = Vec::with_capacity(pairs.len());
    for &(from, to) in pairs {
        let [opp, me] = &mut board;
        let src = from as usize - 1;
        if me[src] == 0 || (me[BAR] > 0 && from != 25) {
            return None;
        }
        let distance = from - to;
        let die = if to == 0 {
            // Bearing off: all checkers home; exact die, or a larger one from the
            // highest occupied point.
            if me[6..].iter().any(|&n| n > 0) {
                return None;
            }
            let highest = me[..6].iter().rposition(|&n| n > 0)? as u8 + 1;
            if dice_left.contains(&distance) {
                distance
            } else if from == highest {
                *dice_left.iter().filter(|&&d| d > distance).min()?
            } else {
                return None;
            }
        } else {
            if !dice_left.contains(&distance) {
                return None;
            }
            distance
        };
        let k = dice_left.iter().position(|&d| d == die)?;
        dice_left.swap_remove(k);
        me[src] -= 1;
        let mut hit = false;
        if to > 0 {
            let dst = to as usize - 1;
            match opp[23 - dst] {
                0 => {}
                1 => {
                    opp[23 - dst] = 0;
                    opp[BAR] += 1;
                    hit = true;
                }
                _ => return None,
            }
            me[dst] += 1;
        }
        steps.push(Step { from, to, hit });
    }
    let result = Position::new_unchecked(board[0], board[1]);
    legal
        .iter()
        .any(|m| m.result == result && m.steps().len() == steps.len())
        .then_some(steps)
}

/// Whether a legal move's steps can be grouped into one chain per pair, each chain
/// running from its pair's start to its end; `Some(true)` when every grouping hits at
/// an intermediate point of a chain, `Some(false)` when one grouping does not.
fn grouping(steps: &[Step], pairs: &[(u8, u8)]) -> Option<bool> {
    fn walk(
        steps: &[Step],
        used: &mut [bool],
        pairs: &[(u8, u8)],
        at: Option<u8>,
        inner_hit: bool,
    ) -> Option<bool> {
        let Some(&(from, to)) = pairs.first() else {
            return used.iter().all(|&u| u).then_some(inner_hit);
        };
        let at = at.unwrap_or(from);
        let mut best: Option<bool> = None;
        for i in 0..steps.len() {
            let s = steps[i];
            if used[i] || s.from != at || s.to < to {
                continue;
            }
            used[i] = true;
            let found = if s.to == to {
                walk(steps, used, &pairs[1..], None, inner_hit)
            } else {
                walk(steps, used, pairs, Some(s.to), inner_hit || s.hit)
            };
            used[i] = false;
            best = match (best, found) {
                (Some(false), _) | (_, Some(false)) => Some(false),
                (b, f) => b.or(f),
            };
            if best == Some(false) {
                break;
            }
        }
        best
    }
    let mut used = vec![false; steps.len()];
    walk(steps, &mut used, pairs, None, false)
}

/// Reads the pairs as checker paths and finds the one legal move they describe.
fn as_chains(pairs: &[(u8, u8)], legal: &[Move]) -> Result<Vec<Step>, String> {
    let matches: Vec<(&Move, bool)> = legal
        .iter()
        .filter_map(|m| grouping(m.steps(), pairs).map(|inner_hit| (m, inner_hit)))
        .collect();
    let straight: Vec<&Move> = matches.iter().filter(|(_, h)| !h).map(|(m, _)| *m).collect();
    let candidates: Vec<&Move> = if straight.is_empty() {
        matches.iter().map(|(m, _)| *m).collect()
    } else {
        straight
    };
    match candidates.split_first() {
        None => Err(format!("{} is not a legal move", pairs_text(pairs))),
        Some((first, rest)) if rest.iter().all(|m| m.result == first.result) => Ok(first.steps().to_vec()),
        Some(_) => Err(format!(
            "{} is ambiguous: it describes more than one legal move",
            pairs_text(pairs)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Side;
    use crate::Variant;

    fn dice(a: u8, b: u8) -> Dice {
        Dice::new(a, b).unwrap()
    }

    fn side(points: &[(usize, u8)]) -> Side {
        let mut s = [0; 25];
        for &(p, n) in points {
            s[p - 1] = n;
        }
        s
    }

    /// The position after the steps (mover still in `sides[1]`).
    fn after(pos: &Position, steps: &[Step]) -> Position {
        let mut b = *pos.sides();
        for s in steps {
            b[1][s.from as usize - 1] -= 1;
            if s.to > 0 {
                let d = s.to as usize - 1;
                if b[0][23 - d] == 1 {
                    b[0][23 - d] = 0;
                    b[0][24] += 1;
                }
                b[1][d] += 1;
            }
        }
        Position::new(b[0], b[1]).unwrap()
    }

    #[test]
    fn single_die_pairs_keep_their_order_and_get_hits_from_the_board() {
        let start = Variant::Backgammon.start();
        let steps = resolve(&start, dice(3, 1), &[(6, 5), (8, 5)]).unwrap();
        assert_eq!(
            steps.iter().map(|s| (s.from, s.to)).collect::<Vec<_>>(),
            [(6, 5), (8, 5)]
        );
        // The reference's Position ID after 8/5 6/5, opponent to roll.
        assert_eq!(after(&start, &steps).swapped().position_id(), "sGfwATDgc/ABMA");
        // X on the bar against a blot on its 4-point (O's 21): bar/21* hits.
        let pos = Position::from_id("yOfgAyDgc/AAWA").unwrap();
        let steps = resolve(&pos, dice(4, 2), &[(25, 21), (13, 11)]).unwrap();
        assert!(steps[0].hit && !steps[1].hit, "{steps:?}");
    }

    /// gnubg 1.07's import of `65: 24/13` from the start splits it into 24/18 18/13
    /// and shows O the board `4HPwAyDgc/ABMA`.
    #[test]
    fn a_checker_moved_with_both_dice_may_be_one_pair() {
        let start = Variant::Backgammon.start();
        let steps = resolve(&start, dice(6, 5), &[(24, 13)]).unwrap();
        assert_eq!(steps.len(), 2);
        assert_eq!(after(&start, &steps).swapped().position_id(), "4HPwAyDgc/ABMA");
    }

    /// gnubg 1.07's import of `33: 13/7 13/7` in the position it shows as
    /// `sGfiATDgc+SDAA`: 13/10 13/10 10/7 10/7.
    #[test]
    fn joined_pairs_with_doubles_split_into_single_steps() {
        let pos = Position::from_id("sGfiATDgc+SDAA").unwrap();
        let mut steps: Vec<(u8, u8)> = resolve(&pos, dice(3, 3), &[(13, 7), (13, 7)])
            .unwrap()
            .iter()
            .map(|s| (s.from, s.to))
            .collect();
        steps.sort_unstable();
        assert_eq!(steps, [(10, 7), (10, 7), (13, 10), (13, 10)]);
    }

    /// The SGF specification's `B[61yg]`: bar/18 with one pair. The 6 cannot enter
    /// (the opponent holds its 6-point), so the checker enters with the 1.
    #[test]
    fn a_bar_entry_with_both_dice_is_one_pair() {
        let pos = Position::from_id("yOfgAyDgc/AAWA").unwrap();
        let steps = resolve(&pos, dice(6, 1), &[(25, 18)]).unwrap();
        let pairs: Vec<(u8, u8)> = steps.iter().map(|s| (s.from, s.to)).collect();
        assert_eq!(pairs, [(25, 24), (24, 18)]);
    }

    #[test]
    fn a_bear_off_with_overage_may_be_one_pair() {
        // Checkers on the 9 and 1 points, all else off; the opponent far away.
        let pos = Position::new(side(&[(6, 3)]), side(&[(9, 1), (1, 1)])).unwrap();
        let steps = resolve(&pos, dice(6, 5), &[(9, 0)]).unwrap();
        assert_eq!(steps.len(), 2);
        assert_eq!(steps.last().unwrap().to, 0);
        let left = after(&pos, &steps);
        assert_eq!(left.checkers(crate::Player::OnRoll), 1);
    }

    #[test]
    fn the_larger_die_must_be_played_when_only_one_can() {
        // One checker on the 10, fourteen on the 1; the opponent holds the 2-point,
        // so 10/4/2 and 10/8/2 are both blocked: only one die can be played.
        let pos = Position::new(side(&[(23, 2), (1, 13)]), side(&[(10, 1), (1, 14)])).unwrap();
        assert!(resolve(&pos, dice(6, 2), &[(10, 4)]).is_ok());
        let e = resolve(&pos, dice(6, 2), &[(10, 8)]).unwrap_err();
        assert!(e.contains("not a legal move"), "{e}");
    }

    #[test]
    fn wrong_and_missing_moves_are_explained() {
        let start = Variant::Backgammon.start();
        let e = resolve(&start, dice(3, 1), &[(8, 5)]).unwrap_err();
        assert_eq!(e, "8/5 is not a legal move");
        let e = resolve(&start, dice(3, 1), &[(13, 7), (13, 8)]).unwrap_err();
        assert!(e.contains("13/7 13/8 is not a legal move"), "{e}");
        let e = resolve(&start, dice(3, 1), &[(5, 8)]).unwrap_err();
        assert!(e.contains("not a forward checker movement"), "{e}");
        let e = resolve(&start, dice(3, 1), &[]).unwrap_err();
        assert!(e.contains("no checker moved, but 31 has 16 legal moves"), "{e}");
        // Closed out on the bar: a dance, and nothing else.
        let closed = side(&[(1, 2), (2, 2), (3, 2), (4, 2), (5, 2), (6, 2)]);
        let pos = Position::new(closed, side(&[(25, 1), (6, 14)])).unwrap();
        assert_eq!(resolve(&pos, dice(6, 6), &[]), Ok(Vec::new()));
        let e = resolve(&pos, dice(6, 6), &[(25, 19)]).unwrap_err();
        assert!(e.contains("66 has no legal move"), "{e}");
    }

    #[test]
    fn a_pair_that_fits_two_different_moves_is_ambiguous() {
        // A checker on the 5; opponent blots on the mover's 4 and 3 points. 21 played
        // as 5/2 may hit either blot on the way.
        let pos = Position::new(side(&[(21, 1), (22, 1), (1, 13)]), side(&[(5, 1), (1, 14)])).unwrap();
        let e = resolve(&pos, dice(2, 1), &[(5, 2)]).unwrap_err();
        assert!(e.contains("ambiguous"), "{e}");
        // Written step by step it is clear.
        let steps = resolve(&pos, dice(2, 1), &[(5, 4), (4, 2)]).unwrap();
        assert!(steps[0].hit && !steps[1].hit);
    }
}
