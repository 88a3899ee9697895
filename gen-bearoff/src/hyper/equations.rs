//! The equations of hypergammon's money values, which every solver and check uses: the
//! roll weights, the opponent's cube decision, what a successor is worth to the mover
//! (`candidate`), the rule for rolls that cannot be played ([`DanceRule`]) and the
//! right-hand side of one record's equations ([`bellman`]). The equations themselves are
//! described in [`super::exact`]; this module only evaluates them.

use super::moves::{MoveTable, Path};
use super::space::{invert, HyperSpace, Outputs};

/// How a roll without a legal move is valued.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DanceRule {
    /// The turn passes: the opponent is on roll in the same position, with his cube
    /// decision (the correct rule).
    Correct,
    /// gnubg's `makehyper`: the reverse record's five equities negated, slots unchanged.
    Gnubg,
}

/// Equities of one record: cubeless, owned, centred, centred with Jacoby, opponent owns.
pub type Equities = [f64; 5];

/// Weight of each roll in [`super::moves::rolls`] order, out of 36.
pub const WEIGHTS: [f64; 21] = {
    let mut w = [2.0; 21];
    let mut k = 0;
    let mut hi = 1;
    while hi <= 6 {
        let mut lo = 1;
        while lo <= hi {
            if lo == hi {
                w[k] = 1.0;
            }
            k += 1;
            lo += 1;
        }
        hi += 1;
    }
    w
};

/// `max` that compiles to one instruction (no NaN ever reaches it).
#[inline(always)]
pub(super) fn fmax(a: f64, b: f64) -> f64 {
    if a > b {
        a
    } else {
        b
    }
}

/// `min` likewise.
#[inline(always)]
fn fmin(a: f64, b: f64) -> f64 {
    if a < b {
        a
    } else {
        b
    }
}

/// The opponent's optimal cube action before his roll, per unit cube, from his side:
/// no double `nd`; double/take `2·dt`; double/pass `+1`.
#[inline(always)]
fn cube_equity(nd: f64, dt: f64) -> f64 {
    fmax(nd, fmin(2.0 * dt, 1.0))
}

/// What moving to a successor with equities `e` is worth to the mover, per quantity.
#[inline(always)]
pub(super) fn candidate(e: &Equities) -> Equities {
    [
        -e[0],
        -e[4],
        -cube_equity(e[2], e[4]),
        -cube_equity(e[3], e[4]),
        -cube_equity(e[1], e[4]),
    ]
}

/// The right-hand side of the equations for record `r` (see the module notes), with the
/// values of successor record `s` (`us * n + them`) from `eq` and `out`.
#[inline(always)]
pub fn bellman(
    space: &HyperSpace,
    table: &MoveTable,
    dance: DanceRule,
    r: usize,
    eq: impl Fn(usize) -> Equities,
    out: impl Fn(usize) -> Outputs,
) -> (Equities, Outputs) {
    let n = space.n();
    let (a, b) = (r / n, r % n);
    let view = space.view(b);
    let block = usize::from(view.block);
    // Successor record of a path: the opponent (after hits) on roll, then the mover.
    let rows = view.hit.map(|h| h as usize * n);
    let bits = view.blot_bits.map(u32::from);
    let record = |p: &Path| {
        let h = p.lands & view.blots;
        let k = ((h >> bits[0]) & 1) | ((h >> bits[1]) & 1) << 1 | ((h >> bits[2]) & 1) << 2;
        rows[k as usize] + p.to as usize
    };
    let mut acc_e = [0.0; 5];
    let mut acc_o = [0.0; 5];
    for (k, &w) in WEIGHTS.iter().enumerate() {
        let paths = table.paths(a, k, block);
        let (best, best_s) = if paths.is_empty() {
            let s = b * n + a;
            match dance {
                DanceRule::Correct => (candidate(&eq(s)), s),
                DanceRule::Gnubg => (eq(s).map(|x| -x), s),
            }
        } else {
            let mut best = [f64::NEG_INFINITY; 5];
            let mut best_s = usize::MAX;
            for (p, path) in paths.iter().enumerate() {
                let s = record(path);
                let c = candidate(&eq(s));
                // Exact ties keep the later move, as gnubg does, unless it only repeats
                // a position already listed (gnubg lists each position once).
                if c[0] == best[0]
                    && s != best_s
                    && (path.lands & Path::REPEATS == 0 || paths[..p].iter().all(|q| record(q) != s))
                {
                    best_s = s;
                }
                let better = c[0] > best[0];
                best_s = if better { s } else { best_s };
                best[0] = if better { c[0] } else { best[0] };
                for q in 1..5 {
                    best[q] = fmax(best[q], c[q]);
                }
            }
            (best, best_s)
        };
        let o = invert(&out(best_s));
        for q in 0..5 {
            acc_e[q] += w * best[q];
            acc_o[q] += w * o[q];
        }
    }
    (acc_e.map(|x| x / 36.0), acc_o.map(|x| x / 36.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_sum_to_36() {
        assert_eq!(WEIGHTS.iter().sum::<f64>(), 36.0);
        assert_eq!(WEIGHTS[0], 1.0);
        assert_eq!(WEIGHTS[1], 2.0);
        assert_eq!(WEIGHTS[2], 1.0);
    }

    #[test]
    fn cube_decisions() {
        // Too good to double: play on for the gammon.
        assert_eq!(cube_equity(1.2, 0.9), 1.2);
        // Double, pass.
        assert_eq!(cube_equity(0.8, 0.6), 1.0);
        // Double, take.
        assert_eq!(cube_equity(0.3, 0.2), 0.4);
        // No double.
        assert_eq!(cube_equity(0.3, 0.1), 0.3);
    }
}
