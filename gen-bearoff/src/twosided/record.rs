//! One two-sided record computed straight from the rules, as gnubg's `makebearoff -t`
//! does: the reference for the fast level loop and the recomputation of `verify`.
//!
//! A record `(us, them)` (the side on roll first) holds four signed 16-bit equities, all
//! "no double this turn" money equities per unit cube: cubeless, cube owned by the roller,
//! centred, owned by the opponent. For each roll and each cube state the roller takes the
//! best successor `(them, j)` (seen from the opponent, so negated with bitwise NOT), with
//! the opponent's cube decision applied in integers; the 36-weighted sum is divided by 36
//! with truncation toward zero.

use crate::format::index::PositionIndex;
use crate::movegen::{counts_of, successors, Ranker, ROLLS};

/// +1 as a stored signed equity.
pub const EQUITY_P1: i16 = 0x7FFF;
/// -1 as a stored signed equity (bitwise NOT of +1).
pub const EQUITY_M1: i16 = !EQUITY_P1;

/// The opponent's cube decision (gnubg's `CubeEquity` with DP = +1): no double, double
/// and take (twice the take equity) or double and pass (+1), in integers.
#[inline(always)]
pub(super) fn cube_equity(nd: i32, dt: i32) -> i32 {
    if dt >= nd / 2 {
        if dt >= i32::from(EQUITY_P1) / 2 {
            i32::from(EQUITY_P1)
        } else {
            2 * dt
        }
    } else {
        nd
    }
}

/// A single record computed straight from the rules, reading successor records through
/// `get(roller, other)`. Used by `verify` and as the reference for the fast generator.
pub fn compute_record(
    index: &PositionIndex,
    us: u64,
    them: u64,
    cubeful: bool,
    get: &dyn Fn(u64, u64) -> [i16; 4],
) -> [i16; 4] {
    if us == 0 {
        return [EQUITY_P1; 4];
    }
    if them == 0 {
        return [EQUITY_M1; 4];
    }
    let board = counts_of(index, us).expect("index in range");
    let ranker = Ranker::new(index);
    let mut succ = Vec::new();
    let mut total = [0i32; 4];
    for &(d0, d1, w) in &ROLLS {
        successors(&ranker, &board, us, d0, d1, &mut succ);
        let mut best = [i32::MIN; 4];
        for &j in &succ {
            let ps = get(them, j).map(i32::from);
            best[0] = best[0].max(!ps[0]);
            if cubeful {
                best[1] = best[1].max(!ps[3]);
                best[2] = best[2].max(!cube_equity(ps[2], ps[3]));
                best[3] = best[3].max(!cube_equity(ps[1], ps[3]));
            }
        }
        let used = if cubeful { 4 } else { 1 };
        for k in 0..used {
            total[k] += w as i32 * best[k];
        }
    }
    let mut out = [0i16; 4];
    for k in 0..if cubeful { 4 } else { 1 } {
        out[k] = (total[k] / 36) as i16;
    }
    out
}
