//! The five cubeless probabilities an evaluation returns, and what is computed from them
//! alone.

/// Cubeless probabilities from the side on roll's view:
/// `[win, win gammon, win backgammon, lose gammon, lose backgammon]` (gammons include
/// backgammons, as in gnubg).
pub type Probabilities = [f32; 5];

/// The probabilities seen from the other side.
pub fn invert(p: &Probabilities) -> Probabilities {
    [1.0 - p[0], p[3], p[4], p[1], p[2]]
}

/// Cubeless money equity `2·win − 1 + (wg − lg) + (wbg − lbg)`, bit for bit as gnubg
/// 1.07 (Debian's build) computes it: its `Utility` is written left to right, but the
/// build's `-ffast-math` lets the compiler regroup the sum, as
/// `(−1 − lbg) + ((2·win − lg) + (wg + wbg))` in `f32`. That grouping was found by
/// trying every way to add the six terms against 10,093 of gnubg's evaluations (the
/// equity `gnubg.evaluate` returns), and it alone reproduces them all; the
/// left-to-right sum reproduces 68 % of them. `evaluator/tests/gnubg_eval.rs` checks it
/// against gnubg run on the machine.
pub fn money_equity(p: &Probabilities) -> f32 {
    let [win, wg, wbg, lg, lbg] = *p;
    (-1.0 - lbg) + ((win * 2.0 - lg) + (wg + wbg))
}

/// The mover's cubeless money equity of a move, from `after`, the probabilities of the
/// position it leads to from the opponent's view (opponent on roll): the opponent's
/// equity negated, as gnubg scores a move (`ScoreMove` negates the equity when it
/// inverts the evaluation). Every move ranking in bgkit uses it. The equity of the
/// inverted probabilities, `money_equity(&invert(after))`, is the same number in exact
/// arithmetic, but its `1 − win` step rounds: it differs in the last bit about a
/// quarter of the time, enough to break gnubg's exact ties in decided races.
pub fn mover_equity(after: &Probabilities) -> f32 {
    -money_equity(after)
}

/// The exact probabilities of a finished game (side on roll's view): gnubg's
/// `EvalOver`.
pub fn of_finish(f: board::Finish) -> Probabilities {
    let (g, bg) = (f.points >= 2, f.points >= 3);
    let won = |b: bool| if b { 1.0 } else { 0.0 };
    if f.on_roll_won {
        [1.0, won(g), won(bg), 0.0, 0.0]
    } else {
        [0.0, 0.0, 0.0, won(g), won(bg)]
    }
}
