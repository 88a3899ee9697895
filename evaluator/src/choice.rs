//! gnubg's 0-ply move choice: how a list of candidate moves is ranked once each has
//! an equity. [`crate::Evaluator::best_of`] evaluates and ranks; callers that obtain
//! the values another way (a rollout's memo of already evaluated positions, a
//! sampler's noisy equities) rank with [`best_index`], so that every 0-ply decision
//! follows one rule.

use board::Position;

use crate::class::PositionClass;
use crate::probabilities::{invert, mover_equity, Probabilities};

/// What gnubg compares, besides equity, when it sorts a move list: the mover's rearmost
/// checker after the move (−1 once all are off) and the mover's checkers left.
pub fn move_shape(result: &Position) -> (i32, u32) {
    let me = result.on_roll();
    (
        crate::simd::slot_masks(me).rearmost(),
        me.iter().map(|&n| u32::from(n)).sum(),
    )
}

/// Whether a move with (equity, [`move_shape`]) sorts strictly before the current best
/// in gnubg's order: bearing off the last checker first, then higher equity, then fewer
/// checkers left, then the lower rearmost checker; otherwise the earlier move stays.
pub fn sorts_before(eq: f32, shape: (i32, u32), best_eq: f32, best_shape: (i32, u32)) -> bool {
    if best_shape.0 == -1 {
        return false;
    }
    if shape.0 == -1 {
        return true;
    }
    if eq != best_eq {
        return eq > best_eq;
    }
    if shape.1 != best_shape.1 {
        return shape.1 < best_shape.1;
    }
    shape.0 < best_shape.0
}

/// The index of the move gnubg 1.07 plays at 0 ply: `results` are the positions the
/// moves lead to (mover still in `sides()[1]`, in generation order) and `equities`
/// the mover's cubeless money equity after each (consumed in order, one per result).
/// A move that bears off the last checker comes first; then higher equity; then fewer
/// of the mover's checkers left; then the lower rearmost checker; then generation
/// order. `None` for an empty list.
pub fn best_index<'a>(
    results: impl IntoIterator<Item = &'a Position>,
    equities: impl IntoIterator<Item = f32>,
) -> Option<usize> {
    let mut best: Option<(usize, f32, (i32, u32))> = None;
    for (k, (r, eq)) in results.into_iter().zip(equities).enumerate() {
        let shape = move_shape(r);
        if best.is_none_or(|(_, e, s)| sorts_before(eq, shape, e, s)) {
            best = Some((k, eq, shape));
        }
    }
    best.map(|(k, _, _)| k)
}

/// [`crate::Evaluator::best_of`]'s choice from the values it computed: `values` are
/// the positions after the moves with the opponent on roll, one per result, as
/// [`crate::Evaluator::evaluate_all`] gives them. Returns the chosen index and its
/// probabilities from the mover's view; `None` for an empty list.
pub fn best_of_values(
    results: &[Position],
    values: &[(Probabilities, PositionClass)],
) -> Option<(usize, Probabilities)> {
    let best = best_index(results, values.iter().map(|(p, _)| mover_equity(p)));
    best.map(|k| (k, invert(&values[k].0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(me: &[(usize, u8)]) -> Position {
        let mut opp = [0u8; 25];
        opp[20] = 2;
        let mut side = [0u8; 25];
        for &(p, n) in me {
            side[p - 1] = n;
        }
        Position::new(opp, side).unwrap()
    }

    #[test]
    fn bearing_off_the_last_checker_beats_any_equity() {
        let off = Position::new(
            {
                let mut o = [0u8; 25];
                o[20] = 2;
                o
            },
            [0; 25],
        )
        .unwrap();
        let rs = [pos(&[(1, 1)]), off, pos(&[(2, 1)])];
        assert_eq!(best_index(&rs, [0.9, -1.0, 0.95]), Some(1));
    }

    #[test]
    fn ties_go_to_fewer_checkers_then_the_lower_rearmost_then_the_first() {
        let rs = [pos(&[(3, 2)]), pos(&[(3, 1)]), pos(&[(2, 1)]), pos(&[(2, 1)])];
        // Higher equity wins outright.
        assert_eq!(best_index(&rs, [0.5, 0.1, 0.1, 0.1]), Some(0));
        // Equal equity: one checker left beats two; the lower rearmost (point 2) beats
        // point 3; of two identical shapes the first stays.
        assert_eq!(best_index(&rs, [0.5; 4]), Some(2));
        assert_eq!(best_index(&rs[..0], []), None);
    }
}
