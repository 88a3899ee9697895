//! Race backgammons: gnubg overrides the race net's backgammon output when one side
//! still has a checker in the winner's home board.
//!
//! The loser's checkers in the winner's home board form a small "escape" position:
//! each must travel (its distance into the home board) pips to get out, any die that
//! covers the distance taking it out. If the loser needs more turns to escape than the
//! winner needs to bear off, the game is a backgammon. For up to 6 such checkers
//! (outside the winner's ace point) the loser's escape-time distribution is computed
//! exactly here — with each roll played to minimise the expected number of turns — and
//! combined with the winner's one-sided bear-off distribution over the first five
//! turns, as gnubg does with its built-in table. Larger cases use the bearoff
//! databases on the two armies directly.

use std::collections::HashMap;
use std::sync::OnceLock;

use board::{Position, Side};
use gen_bearoff::BearoffError;

use crate::bearoff::BearoffDbs;

/// Turns covered by the escape distribution.
const TURNS: usize = 5;

/// Applies gnubg's race-backgammon override to `out` (side on roll's view).
pub fn race_backgammon(pos: &Position, out: &mut [f32; 5], dbs: &BearoffDbs) -> Result<(), BearoffError> {
    let [opp, me] = pos.sides();
    let on = |s: &Side| s[..24].iter().map(|&n| u32::from(n)).sum::<u32>();
    let in_winner_home = |s: &Side| s[18..24].iter().any(|&n| n > 0);
    // The side that can win a backgammon: 1 = on roll (its opponent still has 15 and a
    // checker in its home board), else 0.
    let side = if on(opp) == 15 && in_winner_home(opp) {
        1
    } else if on(me) == 15 && in_winner_home(me) {
        0
    } else {
        return Ok(());
    };
    let p = backgammon_probability(pos, side, dbs)?;
    let (bg, g) = if side == 1 { (2, 1) } else { (4, 3) };
    if p > 0.0 {
        out[bg] = p;
        if out[g] < out[bg] {
            out[g] = out[bg];
        }
    } else {
        out[bg] = 0.0;
    }
    Ok(())
}

/// Probability that `side` (1 = on roll) wins a backgammon.
fn backgammon_probability(pos: &Position, side: usize, dbs: &BearoffDbs) -> Result<f32, BearoffError> {
    let sides = pos.sides();
    let (winner, loser) = (&sides[side], &sides[1 - side]);
    let men_home: i32 = winner[..6].iter().map(|&n| i32::from(n)).sum();
    let pips_in: i32 = (18..=22).map(|i| i32::from(loser[i]) * (i as i32 - 17)).sum();
    if (men_home + 3) / 4 - i32::from(side == 1) > (pips_in + 2) / 3 {
        return Ok(0.0);
    }
    let mut escape = [0u8; 6];
    escape.copy_from_slice(&loser[18..24]);
    if let Some(bgp) = escape_counts(&escape) {
        let Some(dist) = dbs.distribution(winner)? else {
            return fallback(winner, &escape, side, dbs);
        };
        let mut p = 0.0f32;
        let mut scale: u64 = if side == 0 { 36 } else { 1 };
        for (j, &count) in bgp.iter().enumerate().skip(1 - side) {
            scale *= 36;
            let sum: u64 = dist[1..=j + side].iter().map(|&v| u64::from(v)).sum();
            p += count as f32 / scale as f32 * sum as f32;
        }
        // gnubg's reciprocal-math build multiplies by f32(1/65535) (a true division
        // differs in the last bit, e.g. 34gA8AM+AAAAAA) and caps the result at 1 (read
        // off its compiled code).
        return Ok((p * (1.0 / 65535.0)).min(1.0));
    }
    fallback(winner, &escape, side, dbs)
}

/// gnubg's fallback: evaluate the winner's army against the loser's escape position as
/// if both were bearing off.
fn fallback(winner: &Side, escape: &[u8; 6], side: usize, dbs: &BearoffDbs) -> Result<f32, BearoffError> {
    let mut loser: Side = [0; 25];
    loser[..6].copy_from_slice(escape);
    let (opp, me) = if side == 1 {
        (loser, *winner)
    } else {
        (*winner, loser)
    };
    let dummy = Position::new_unchecked(opp, me);
    let many = |s: &Side| s.iter().map(|&n| u32::from(n)).sum::<u32>() > 6;
    let p = if many(&opp) || many(&me) || !dbs.two_sided_covers(&dummy) {
        if !dbs.one_sided_covers(&dummy) {
            return Ok(0.0);
        }
        dbs.eval_one_sided(&dummy)?
    } else {
        dbs.eval_two_sided(&dummy)?
    };
    Ok(if side == 1 { p[0] } else { 1.0 - p[0] })
}

/// `counts[j]` = number of the 36^(j+1) roll sequences with which the escape position
/// gets its last checker out on turn j+1 (for j = 4: on turn 5 or later), for positions of at most 6 checkers
/// none of which stands on the winner's ace point (index 5); `None` otherwise.
pub fn escape_counts(escape: &[u8; 6]) -> Option<[u64; TURNS]> {
    let total: u32 = escape.iter().map(|&n| u32::from(n)).sum();
    if total == 0 || total > 6 || escape[5] != 0 {
        return None;
    }
    let key: [u8; 5] = escape[..5].try_into().unwrap();
    escape_table().get(&key).copied()
}

/// The counts of every escape position of 1 to 6 checkers (461 of them), solved once
/// per process by one solver whose memos serve them all; read without a lock.
fn escape_table() -> &'static HashMap<[u8; 5], [u64; TURNS]> {
    static TABLE: OnceLock<HashMap<[u8; 5], [u64; TURNS]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut solver = Escape::default();
        let mut table = HashMap::new();
        for code in 0..7u32.pow(5) {
            let mut key = [0u8; 5];
            let mut rest = code;
            for slot in &mut key {
                *slot = (rest % 7) as u8;
                rest /= 7;
            }
            let total: u32 = key.iter().map(|&n| u32::from(n)).sum();
            if (1..=6).contains(&total) {
                table.insert(key, solver.counts(key));
            }
        }
        table
    })
}

/// Exact escape-time solver: states are checker counts per distance 1..=5.
#[derive(Default)]
struct Escape {
    expected: HashMap<[u8; 5], f64>,
    counts: HashMap<[u8; 5], [u64; TURNS + 1]>,
}

impl Escape {
    /// Every state reachable by playing `dice` (in order) from `state`.
    fn play(state: [u8; 5], dice: &[usize], out: &mut Vec<[u8; 5]>) {
        let Some((&die, rest)) = dice.split_first() else {
            out.push(state);
            return;
        };
        if state.iter().all(|&n| n == 0) {
            out.push(state);
            return;
        }
        for d in 0..5 {
            if state[d] == 0 {
                continue;
            }
            let mut next = state;
            next[d] -= 1;
            if d + 1 > die {
                next[d - die] += 1;
            }
            Self::play(next, rest, out);
        }
    }

    /// The successor chosen for each of the 21 rolls (minimum expected turns), with
    /// the roll's weight.
    fn best_moves(&mut self, state: [u8; 5]) -> Vec<([u8; 5], u64)> {
        let mut chosen = Vec::with_capacity(21);
        for a in 1..=6usize {
            for b in 1..=a {
                let mut next = Vec::new();
                if a == b {
                    Self::play(state, &[a; 4], &mut next);
                } else {
                    Self::play(state, &[a, b], &mut next);
                    Self::play(state, &[b, a], &mut next);
                }
                let mut best = next[0];
                let mut best_e = self.expected_turns(best);
                for &n in &next[1..] {
                    let e = self.expected_turns(n);
                    if e < best_e {
                        best = n;
                        best_e = e;
                    }
                }
                chosen.push((best, if a == b { 1 } else { 2 }));
            }
        }
        chosen
    }

    fn expected_turns(&mut self, state: [u8; 5]) -> f64 {
        if state.iter().all(|&n| n == 0) {
            return 0.0;
        }
        if let Some(&e) = self.expected.get(&state) {
            return e;
        }
        let e = 1.0
            + self
                .best_moves(state)
                .iter()
                .map(|&(n, w)| w as f64 * self.expected_turns(n))
                .sum::<f64>()
                / 36.0;
        self.expected.insert(state, e);
        e
    }

    /// Counts of roll sequences finishing on each turn 0..=5.
    fn turn_counts(&mut self, state: [u8; 5]) -> [u64; TURNS + 1] {
        let mut c = [0u64; TURNS + 1];
        if state.iter().all(|&n| n == 0) {
            c[0] = 1;
            return c;
        }
        if let Some(&c) = self.counts.get(&state) {
            return c;
        }
        for (next, w) in self.best_moves(state) {
            let sub = self.turn_counts(next);
            for k in 1..=TURNS {
                c[k] += w * sub[k - 1];
            }
        }
        self.counts.insert(state, c);
        c
    }

    /// Counts for turns 1..=4, and for "turn 5 or later" in the last entry (so that
    /// the entries weighted by 36^(5−turn) add up to 36⁵).
    fn counts(&mut self, state: [u8; 5]) -> [u64; TURNS] {
        let c = self.turn_counts(state);
        let mut out: [u64; TURNS] = c[1..].try_into().unwrap();
        let earlier: u64 = (0..TURNS - 1)
            .map(|j| out[j] * 36u64.pow((TURNS - 1 - j) as u32))
            .sum();
        out[TURNS - 1] = 36u64.pow(TURNS as u32) - earlier;
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_counts_of_simple_positions_follow_from_the_dice() {
        // One checker one pip deep: out with any roll.
        assert_eq!(escape_counts(&[1, 0, 0, 0, 0, 0]).unwrap(), [36, 0, 0, 0, 0]);
        // Three one pip deep: doubles take them all at once, other rolls take two.
        assert_eq!(escape_counts(&[3, 0, 0, 0, 0, 0]).unwrap(), [6, 1080, 0, 0, 0]);
        // Five: out on turn 2 only if a double comes (1 − (30/36)²), else on turn 3.
        assert_eq!(escape_counts(&[5, 0, 0, 0, 0, 0]).unwrap(), [0, 396, 32400, 0, 0]);
        // Two checkers two pips deep: one turn with both dice ≥ 2, or 1-1.
        assert_eq!(escape_counts(&[0, 2, 0, 0, 0, 0]).unwrap()[0], 26);
        // The last entry takes every sequence not finished earlier.
        let c = escape_counts(&[1, 0, 0, 0, 5, 0]).unwrap();
        let total: u64 = c
            .iter()
            .enumerate()
            .map(|(j, &n)| n * 36u64.pow((TURNS - 1 - j) as u32))
            .sum();
        assert_eq!(total, 36u64.pow(TURNS as u32));
        assert!(escape_counts(&[0, 0, 0, 0, 0, 1]).is_none());
        assert!(escape_counts(&[7, 0, 0, 0, 0, 0]).is_none());
    }

    #[test]
    fn the_shared_table_equals_a_fresh_solve_of_each_position() {
        // 1 to 6 checkers on 5 distances: C(11, 5) - 1 positions.
        let table = escape_table();
        assert_eq!(table.len(), 461);
        for (key, counts) in table {
            assert_eq!(Escape::default().counts(*key), *counts, "{key:?}");
        }
    }
}
