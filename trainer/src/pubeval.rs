//! pubeval: Gerald Tesauro's public linear move evaluator (rec.games.backgammon, 1993),
//! the customary benchmark opponent.
//!
//! pubeval scores the position right after a move from the mover's side as a dot
//! product of 122 inputs with one of two weight vectors: the race vector when the
//! position *before* the move has no contact, else the contact vector (the choice is
//! made once per decision, as Tesauro's instructions say). The inputs, for each point
//! from the mover's 24-point down to its ace point, are five values: an opposing blot,
//! a single own checker, two or more own checkers, exactly three, and (n − 3)/2 for
//! n ≥ 4 own checkers; then half the opponent's checkers on the bar and the mover's
//! borne-off checkers over 15. Checkers of the mover on the bar are not an input and are
//! **not** borne off (a bug of several re-implementations). A move that bears off the
//! last checker scores 99,999,999. Sums are taken in `f32` in input order, as the
//! original C code does.
//!
//! The weights are public domain (Tesauro's `WT.race` and `WT.cntc`); their sums and a
//! few values are checked in the tests against `testdata/pubeval/README.md`.

use board::{Dice, Move, MoveGen, Position};

/// Number of pubeval inputs.
pub const INPUTS: usize = 122;

/// Score of a move that bears off the mover's last checker.
pub const ALL_OFF: f32 = 99_999_999.0;

/// Race weights (`WT.race`): five per point from the mover's 24-point down to its ace
/// point, then the opponent's bar and the mover's borne-off checkers.
#[rustfmt::skip]
pub const RACE_WEIGHTS: [f32; INPUTS] = [
    0.00000, -0.17160, 0.27010, 0.29906, -0.08471,
    0.00000, -1.40375, -1.05121, 0.07217, -0.01351,
    0.00000, -1.29506, -2.16183, 0.13246, -1.03508,
    0.00000, -2.29847, -2.34631, 0.17253, 0.08302,
    0.00000, -1.27266, -2.87401, -0.07456, -0.34240,
    0.00000, -1.34640, -2.46556, -0.13022, -0.01591,
    0.00000, 0.27448, 0.60015, 0.48302, 0.25236,
    0.00000, 0.39521, 0.68178, 0.05281, 0.09266,
    0.00000, 0.24855, -0.06844, -0.37646, 0.05685,
    0.00000, 0.17405, 0.00430, 0.74427, 0.00576,
    0.00000, 0.12392, 0.31202, -0.91035, -0.16270,
    0.00000, 0.01418, -0.10839, -0.02781, -0.88035,
    0.00000, 1.07274, 2.00366, 1.16242, 0.22520,
    0.00000, 0.85631, 1.06349, 1.49549, 0.18966,
    0.00000, 0.37183, -0.50352, -0.14818, 0.12039,
    0.00000, 0.13681, 0.13978, 1.11245, -0.12707,
    0.00000, -0.22082, 0.20178, -0.06285, -0.52728,
    0.00000, -0.13597, -0.19412, -0.09308, -1.26062,
    0.00000, 3.05454, 5.16874, 1.50680, 5.35000,
    0.00000, 2.19605, 3.85390, 0.88296, 2.30052,
    0.00000, 0.92321, 1.08744, -0.11696, -0.78560,
    0.00000, -0.09795, -0.83050, -1.09167, -4.94251,
    0.00000, -1.00316, -3.66465, -2.56906, -9.67677,
    0.00000, -2.77982, -7.26713, -3.40177, -12.32252,
    0.00000, 3.42040,
];

/// Contact weights (`WT.cntc`), in the same order as [`RACE_WEIGHTS`].
#[rustfmt::skip]
pub const CONTACT_WEIGHTS: [f32; INPUTS] = [
    0.25696, -0.66937, -1.66135, -2.02487, -2.53398,
    -0.16092, -1.11725, -1.06654, -0.92830, -1.99558,
    -1.10388, -0.80802, 0.09856, -0.62086, -1.27999,
    -0.59220, -0.73667, 0.89032, -0.38933, -1.59847,
    -1.50197, -0.60966, 1.56166, -0.47389, -1.80390,
    -0.83425, -0.97741, -1.41371, 0.24500, 0.10970,
    -1.36476, -1.05572, 1.15420, 0.11069, -0.38319,
    -0.74816, -0.59244, 0.81116, -0.39511, 0.11424,
    -0.73169, -0.56074, 1.09792, 0.15977, 0.13786,
    -1.18435, -0.43363, 1.06169, -0.21329, 0.04798,
    -0.94373, -0.22982, 1.22737, -0.13099, -0.06295,
    -0.75882, -0.13658, 1.78389, 0.30416, 0.36797,
    -0.69851, 0.13003, 1.23070, 0.40868, -0.21081,
    -0.64073, 0.31061, 1.59554, 0.65718, 0.25429,
    -0.80789, 0.08240, 1.78964, 0.54304, 0.41174,
    -1.06161, 0.07851, 2.01451, 0.49786, 0.91936,
    -0.90750, 0.05941, 1.83120, 0.58722, 1.28777,
    -0.83711, -0.33248, 2.64983, 0.52698, 0.82132,
    -0.58897, -1.18223, 3.35809, 0.62017, 0.57353,
    -0.07276, -0.36214, 4.37655, 0.45481, 0.21746,
    0.10504, -0.61977, 3.54001, 0.04612, -0.18108,
    0.63211, -0.87046, 2.47673, -0.48016, -1.27157,
    0.86505, -1.11342, 1.24612, -0.82385, -2.77082,
    1.23606, -1.59529, 0.10438, -1.30206, -4.11520,
    5.62596, -2.75800,
];

/// pubeval's 28-slot board (`pos[]` of the original interface) of a position seen by
/// the mover (`sides()[1]`): 1..=24 the mover's points (own checkers positive, opposing
/// negative), 0 the opponent's bar (negative), 25 the mover's bar, 26 the mover's
/// borne-off checkers, 27 the opponent's (negative).
pub fn board_of(pos: &Position) -> [i32; 28] {
    let [opp, me] = pos.sides();
    let mut b = [0i32; 28];
    for p in 1..=24 {
        let own = i32::from(me[p - 1]);
        b[p] = if own != 0 { own } else { -i32::from(opp[24 - p]) };
    }
    b[0] = -i32::from(opp[24]);
    b[25] = i32::from(me[24]);
    let total = |s: &[u8; 25]| s.iter().map(|&n| i32::from(n)).sum::<i32>();
    b[26] = 15 - total(me);
    b[27] = -(15 - total(opp));
    b
}

/// The 122 inputs of a pubeval board.
pub fn inputs_of(b: &[i32; 28]) -> [f32; INPUTS] {
    let mut x = [0f32; INPUTS];
    for p in 1..=24 {
        let n = b[p];
        let v = &mut x[5 * (24 - p)..5 * (24 - p) + 5];
        match n {
            -1 => v[0] = 1.0,
            1 => v[1] = 1.0,
            _ => {}
        }
        if n >= 2 {
            v[2] = 1.0;
        }
        if n == 3 {
            v[3] = 1.0;
        }
        if n >= 4 {
            v[4] = (n - 3) as f32 / 2.0;
        }
    }
    x[120] = -b[0] as f32 / 2.0;
    x[121] = b[26] as f32 / 15.0;
    x
}

/// pubeval's score of `after` (the position right after a move, mover in `sides()[1]`),
/// with the race weights if `race`.
pub fn score(after: &Position, race: bool) -> f32 {
    let b = board_of(after);
    if b[26] == 15 {
        return ALL_OFF;
    }
    let w = if race { &RACE_WEIGHTS } else { &CONTACT_WEIGHTS };
    let x = inputs_of(&b);
    let mut s = 0f32;
    for i in 0..INPUTS {
        s += w[i] * x[i];
    }
    s
}

/// Whether pubeval uses its race weights for a decision in `before` (no contact).
pub fn is_race(before: &Position) -> bool {
    !before.has_contact()
}

/// The index of pubeval's choice among `candidates` (positions after the legal moves
/// of `before`, mover in `sides()[1]`): the highest score, the first one on ties.
/// `None` when there are no candidates.
pub fn choose(before: &Position, candidates: &[Position]) -> Option<(usize, f32)> {
    let race = is_race(before);
    let mut best: Option<(usize, f32)> = None;
    for (i, c) in candidates.iter().enumerate() {
        let s = score(c, race);
        if best.is_none_or(|(_, b)| s > b) {
            best = Some((i, s));
        }
    }
    best
}

/// pubeval's move for `dice` in `pos` (mover = `sides()[1]`), or `None` if no move is
/// legal.
pub fn best_move(gen: &mut MoveGen, pos: &Position, dice: Dice) -> Option<Move> {
    let moves = gen.moves(pos, dice);
    let race = is_race(pos);
    let mut best: Option<(usize, f32)> = None;
    for (i, m) in moves.iter().enumerate() {
        let s = score(&m.result, race);
        if best.is_none_or(|(_, b)| s > b) {
            best = Some((i, s));
        }
    }
    best.map(|(i, _)| moves[i])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checks from testdata/pubeval/README.md: sums and single values.
    #[test]
    fn weights_match_the_published_checks() {
        let sum = |w: &[f32]| w.iter().map(|&v| f64::from(v)).sum::<f64>();
        assert!((sum(&RACE_WEIGHTS) - -31.29905).abs() < 1e-4);
        assert!((sum(&CONTACT_WEIGHTS) - -6.72565).abs() < 1e-4);
        assert_eq!(RACE_WEIGHTS[0], 0.0);
        assert_eq!(RACE_WEIGHTS[119], -12.32252);
        assert_eq!(RACE_WEIGHTS[120], 0.0);
        assert_eq!(RACE_WEIGHTS[121], 3.42040);
        assert_eq!(CONTACT_WEIGHTS[0], 0.25696);
        assert_eq!(CONTACT_WEIGHTS[119], -4.11520);
        assert_eq!(CONTACT_WEIGHTS[120], 5.62596);
        assert_eq!(CONTACT_WEIGHTS[121], -2.75800);
        assert!((0..INPUTS).step_by(5).take(24).all(|i| RACE_WEIGHTS[i] == 0.0));
    }

    /// Example 4 of the fixture README: a checker still on the bar is not borne off.
    #[test]
    fn bar_checkers_are_not_borne_off() {
        let after = Position::from_id("OM+pBgDmdgAgTQ").unwrap();
        let b = board_of(&after);
        assert_eq!(b[25], 1);
        assert_eq!(b[26], 0);
        assert!((score(&after, false) - 7.81594).abs() < 1e-4);
    }
}
