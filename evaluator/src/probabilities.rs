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

/// Cubeless money equity `2·win − 1 + (wg − lg) + (wbg − lbg)`, in gnubg's `f32`
/// operation order.
pub fn money_equity(p: &Probabilities) -> f32 {
    p[0] * 2.0 - 1.0 + (p[1] - p[3]) * 1.0 + (p[2] - p[4]) * 1.0
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
