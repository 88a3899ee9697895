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
