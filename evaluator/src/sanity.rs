//! gnubg's `SanityCheck`: corrections applied to the nets' outputs.
//!
//! Without contact, certain wins and losses (and certain or impossible gammons) follow
//! from counting: a side's crossovers bound how many turns it needs, and the one-sided
//! bearoff distribution bounds how many the other side takes. Gammons are impossible
//! once a side has borne off, backgammons once its rearmost checker has left the
//! winner's home board area. Finally the outputs are made consistent (gammons ≤ wins,
//! backgammons ≤ gammons) and, with contact, tiny gammon values are zeroed.

use board::Position;

/// Per-side counts used by the checks.
struct SideCounts {
    /// Checkers on the board (bar included).
    on_board: i32,
    /// Highest occupied slot (bar = 24).
    back: i32,
    /// Crossovers: 1..4 per checker by quarter, 5 on the bar.
    cross: i32,
    /// 1 + crossovers needed to reach the home board.
    gammon_cross: i32,
}

fn counts(side: &[u8; 25]) -> SideCounts {
    // Crossovers per checker by slot: quarter + 1 on the board, 5 on the bar.
    const CROSS: [i32; 25] = {
        let mut w = [5; 25];
        let mut i = 0;
        while i < 24 {
            w[i] = i as i32 / 6 + 1;
            i += 1;
        }
        w
    };
    let (mut on_board, mut cross, mut back) = (0i32, 0i32, 0i32);
    for (i, (&n, &w)) in side.iter().zip(&CROSS).enumerate() {
        let n = i32::from(n);
        on_board += n;
        cross += w * n;
        back = if n > 0 { i as i32 } else { back };
    }
    SideCounts {
        on_board,
        back,
        cross,
        // One crossover fewer per checker: to reach the home board, not to bear off.
        gammon_cross: 1 + cross - on_board,
    }
}

/// Applies gnubg's sanity checks to `out` (`[win, wg, wbg, lg, lbg]` for the side on
/// roll). `max_turns(side)` gives the largest number of rolls the one-sided database
/// allows a side whose checkers are all home (`None` without a database).
pub fn sanity_check(pos: &Position, out: &mut [f32; 5], max_turns: impl Fn(&[u8; 25]) -> Option<i32>) {
    out[0] = out[0].clamp(0.0, 1.0);
    let [opp, me] = pos.sides();
    let back = |side: &[u8; 25]| crate::simd::slot_masks(side).rearmost().max(0);
    let contact = back(opp) + back(me) >= 24;
    if contact {
        // With contact only the checkers still on the board matter (the checks on
        // crossovers and turns are for races): skip the crossover counts.
        let on_board = |side: &[u8; 25]| crate::simd::checker_total(side);
        if on_board(opp) < 15 {
            out[1] = 0.0;
            out[2] = 0.0;
        }
        if on_board(me) < 15 {
            out[3] = 0.0;
            out[4] = 0.0;
        }
        cap_gammons(out);
        // Tiny gammon and backgammon chances are noise with contact.
        for v in &mut out[1..] {
            if *v < 1.0e-4 {
                *v = 0.0;
            }
        }
        return;
    }
    // A race: crossovers and the turns each side needs decide the clear cases.
    let c = [counts(opp), counts(me)];
    let mut turns = [0i32; 2];
    for (s, side) in [opp, me].into_iter().enumerate() {
        turns[s] = match (c[s].back < 6).then(|| max_turns(side)).flatten() {
            Some(t) => t,
            None => c[s].cross * 2,
        };
    }
    if turns[1] == 0 {
        turns[1] = 1;
    }
    if c[0].cross > 4 * (turns[1] - 1) {
        out[0] = 1.0;
    }
    if c[0].on_board < 15 {
        out[1] = 0.0;
        out[2] = 0.0;
    } else {
        if c[1].cross > 8 * c[0].gammon_cross {
            out[1] = 0.0;
        } else if c[0].gammon_cross > 4 * (turns[1] - 1) {
            out[1] = 1.0;
        }
        if c[0].back < 18 {
            out[2] = 0.0;
        }
    }
    if c[1].cross > 4 * turns[0] {
        out[0] = 0.0;
    }
    if c[1].on_board < 15 {
        out[3] = 0.0;
        out[4] = 0.0;
    } else {
        if c[0].cross > 8 * c[1].gammon_cross - 4 {
            out[3] = 0.0;
        } else if c[1].gammon_cross > 4 * turns[0] {
            out[3] = 1.0;
        }
        if c[1].back < 18 {
            out[4] = 0.0;
        }
    }
    cap_gammons(out);
}

/// The last of the checks: gammons at most the wins (losses), backgammons at most the
/// gammons.
fn cap_gammons(out: &mut [f32; 5]) {
    if out[1] > out[0] {
        out[1] = out[0];
    }
    let lose = 1.0 - out[0];
    if out[3] > lose {
        out[3] = lose;
    }
    if out[2] > out[1] {
        out[2] = out[1];
    }
    if out[4] > out[3] {
        out[4] = out[3];
    }
}

/// The largest number of rolls with non-zero probability in a stored distribution.
pub fn max_turns_of(dist: &[u16; 32]) -> i32 {
    dist.iter().rposition(|&v| v != 0).map_or(-1, |i| i as i32)
}
