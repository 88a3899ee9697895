//! Move choice for self-play and rollouts.
//!
//! [`best_move_0ply`] makes gnubg's 0-ply choice through the evaluator's one move
//! choice ([`Evaluator::best_of`]) and also returns the value of the chosen move, which
//! the rollouts' variance reduction needs; when only one move is legal it skips the
//! evaluation unless the value is asked for.

use board::{Dice, MoveGen, Position};
use evaluator::eval::{invert, mover_equity, EvalError, Probabilities};
use evaluator::nets::NetSource;
use evaluator::search::{Lookahead, FILTERS_NORMAL};
use evaluator::Evaluator;

/// The outcome of a move choice.
#[derive(Clone, Copy, Debug)]
pub struct Choice {
    /// The position after the move, the mover still in `sides()[1]` (the board unchanged
    /// when no move is legal).
    pub result: Position,
    /// The 0-ply value of `result` from the mover's view, when it was computed.
    pub value: Option<Probabilities>,
}

/// The 0-ply value of a position reached by a move, from the mover's view.
pub fn value_after<N: NetSource>(ev: &Evaluator<N>, result: &Position) -> Result<Probabilities, EvalError> {
    Ok(invert(&ev.evaluate(&result.swapped())?.0))
}

/// The 0-ply score of a move reaching `result`: the mover's cubeless money equity as
/// gnubg ranks moves ([`mover_equity`] of the opponent's view).
pub fn equity_after<N: NetSource>(ev: &Evaluator<N>, result: &Position) -> Result<f32, EvalError> {
    Ok(mover_equity(&ev.evaluate(&result.swapped())?.0))
}

/// gnubg's 0-ply move choice with `dice`, and the chosen move's value (always computed
/// when `want_value`, otherwise only when there was a choice to make).
pub fn best_move_0ply<N: NetSource>(
    ev: &Evaluator<N>,
    gen: &mut MoveGen,
    pos: &Position,
    dice: Dice,
    want_value: bool,
) -> Result<Choice, EvalError> {
    let results = gen.positions(pos, dice);
    match results.len() {
        0 => Ok(Choice {
            result: *pos,
            value: if want_value {
                Some(value_after(ev, pos)?)
            } else {
                None
            },
        }),
        1 => Ok(Choice {
            result: results[0],
            value: if want_value {
                Some(value_after(ev, &results[0])?)
            } else {
                None
            },
        }),
        _ => {
            let (k, p) = ev.best_of(results)?.expect("at least two moves");
            Ok(Choice {
                result: results[k],
                value: Some(p),
            })
        }
    }
}

/// The moves the pruning nets keep among `moves` ([`Evaluator::pruned_candidates`],
/// copied in its order into `kept`), or all of `moves` where pruning does not apply.
pub fn kept_moves<'a, N: NetSource>(
    ev: &Evaluator<N>,
    moves: &'a [Position],
    kept: &'a mut Vec<Position>,
) -> Result<&'a [Position], EvalError> {
    Ok(match ev.pruned_candidates(moves)? {
        Some(keep) => {
            kept.clear();
            kept.extend(keep.iter().map(|&i| moves[i]));
            kept
        }
        None => moves,
    })
}

/// The 0-ply choice with `dice` among the moves the pruning nets keep ([`kept_moves`]),
/// ranked among themselves by [`best_move_0ply`]'s rule (so unlike gnubg's pruned
/// choice, [`Evaluator::best_of_pruned`], only in exact ties of equity).
pub fn best_move_pruned<N: NetSource>(
    ev: &Evaluator<N>,
    gen: &mut MoveGen,
    pos: &Position,
    dice: Dice,
) -> Result<Position, EvalError> {
    let results = gen.positions(pos, dice);
    if results.len() <= 1 {
        return Ok(results.first().copied().unwrap_or(*pos));
    }
    let mut kept = Vec::new();
    let moves = kept_moves(ev, results, &mut kept)?;
    let (k, _) = ev.best_of(moves)?.expect("at least two moves");
    Ok(moves[k])
}

/// The move chosen at `plies` plies (0: [`best_move_0ply`]; more: gnubg's
/// `FindnSaveBestMoves` with the normal move filters and pruning), without its value.
pub fn best_move_plied<N: NetSource>(
    ev: &Evaluator<N>,
    gen: &mut MoveGen,
    pos: &Position,
    dice: Dice,
    plies: u32,
) -> Result<Position, EvalError> {
    if plies == 0 {
        return Ok(best_move_0ply(ev, gen, pos, dice, false)?.result);
    }
    if gen.positions(pos, dice).len() <= 1 {
        return Ok(gen.positions(pos, dice).first().copied().unwrap_or(*pos));
    }
    Ok(ev
        .best_move_plied(gen, pos, dice, plies, &FILTERS_NORMAL, Lookahead::default())?
        .map_or(*pos, |(m, _)| m.result))
}
