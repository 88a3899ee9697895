//! Lookahead: n-ply evaluation and n-ply move choice with gnubg's move filters.
//!
//! * [`Evaluator::evaluate_plied`]: at 0 ply the static evaluation; above, for each of
//!   the 21 rolls the side on roll plays its best move (chosen at 0 ply, or with the
//!   pruning nets preselecting candidates, as gnubg's `FindBestMoveInEval`), the result
//!   is evaluated from the opponent's side one ply shallower, and the 21 results are
//!   averaged (weight 2 for non-doubles) and turned back to the mover's view. Exact
//!   classes (game over, two-sided bearoff) are never searched.
//! * [`Evaluator::best_move_plied`]: gnubg's `FindnSaveBestMoves`: score every move at
//!   0 ply, keep those a [`MoveFilter`] passes, score them deeper, and so on.
//!
//! Both follow gnubg's order of operations so that, with its weights, the numbers are
//! gnubg's own (checked against live gnubg in the tests).

use board::{Dice, Move, MoveGen, Position};

use crate::class::PositionClass;
use crate::eval::{invert, money_equity, mover_equity, EvalError, Evaluator, Probabilities};
use crate::nets::NetSource;

/// One ply of a move filter: keep `accept` moves, and up to `extra` more within
/// `threshold` equity of the best; `accept < 0` skips the ply.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveFilter {
    /// Moves always kept (negative: do not filter at this ply).
    pub accept: i32,
    /// Further moves kept when close enough.
    pub extra: i32,
    /// How close (in equity) a further move must be to the best.
    pub threshold: f32,
}

/// gnubg's "normal" move filters, per search depth (1..=4 plies) and ply.
pub const FILTERS_NORMAL: [[MoveFilter; 4]; 4] = {
    const KEEP: MoveFilter = MoveFilter {
        accept: 0,
        extra: 8,
        threshold: 0.16,
    };
    const SKIP: MoveFilter = MoveFilter {
        accept: -1,
        extra: 0,
        threshold: 0.0,
    };
    const NONE: MoveFilter = MoveFilter {
        accept: 0,
        extra: 0,
        threshold: 0.0,
    };
    const FINE: MoveFilter = MoveFilter {
        accept: 0,
        extra: 2,
        threshold: 0.04,
    };
    [
        [KEEP, NONE, NONE, NONE],
        [KEEP, SKIP, NONE, NONE],
        [KEEP, SKIP, FINE, NONE],
        [KEEP, SKIP, FINE, SKIP],
    ]
};

pub use crate::eval::MAX_FILTER_PLIES;

/// Fewest candidate moves the pruning nets keep (plus ⌊log2 of the move count⌋).
const MIN_PRUNE_MOVES: usize = 5;

/// How lookahead evaluations choose each roll's move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lookahead {
    /// Let the pruning nets preselect candidate moves (gnubg's default).
    pub prune: bool,
}

impl Default for Lookahead {
    fn default() -> Lookahead {
        Lookahead { prune: true }
    }
}

impl<N: NetSource> Evaluator<N> {
    /// The evaluation of `pos` (side on roll's view) searched `plies` deep.
    pub fn evaluate_plied(
        &self,
        pos: &Position,
        plies: u32,
        look: Lookahead,
    ) -> Result<Probabilities, EvalError> {
        let class = self.classify(pos);
        if plies == 0 || class <= PositionClass::BearoffTs {
            return Ok(self.evaluate(pos)?.0);
        }
        let mut gen = MoveGen::new();
        let mut sum = [0f32; 5];
        for high in 1..=6u8 {
            for low in 1..=high {
                let dice = Dice::new(high, low).expect("valid dice");
                let after = self.chosen_result(&mut gen, pos, dice, look)?;
                let p = self.evaluate_plied(&after.swapped(), plies - 1, look)?;
                let w = if high == low { 1.0f32 } else { 2.0 };
                for (s, v) in sum.iter_mut().zip(p) {
                    *s += w * v;
                }
            }
        }
        Ok(invert(&sum.map(|s| s * (1.0 / 36.0))))
    }

    /// The position the side on roll reaches with `dice` inside a lookahead (the board
    /// unchanged when no move is legal).
    fn chosen_result(
        &self,
        gen: &mut MoveGen,
        pos: &Position,
        dice: Dice,
        look: Lookahead,
    ) -> Result<Position, EvalError> {
        let results = gen.positions(pos, dice);
        match results.len() {
            0 => Ok(*pos),
            1 => Ok(results[0]),
            _ if look.prune => {
                let results = results.to_vec();
                Ok(results[self.best_of_pruned(&results)?.expect("moves exist").0])
            }
            _ => Ok(self.best_move(gen, pos, dice)?.expect("moves exist").0.result),
        }
    }

    /// gnubg's `FindBestMoveInEval`, its 0-ply choice inside lookahead: with many
    /// moves, the pruning nets pick the 5 + ⌊log2 n⌋ most promising
    /// ([`Evaluator::pruned_candidates`]), which are then scored with the full
    /// evaluation; the highest equity wins, ties to the earliest candidate considered
    /// (unlike [`Evaluator::best_of`], no other tie-breaks). Nets without pruning nets
    /// score every move fully. `results` as for [`Evaluator::best_of`]; returns the
    /// index and the mover's probabilities.
    pub fn best_of_pruned(&self, results: &[Position]) -> Result<Option<(usize, Probabilities)>, EvalError> {
        match self.pruned_candidates(results)? {
            Some(chosen) => self.first_best(results, &chosen),
            None => self.first_best(results, &(0..results.len()).collect::<Vec<usize>>()),
        }
    }

    /// The moves the pruning nets keep among `results` (as for [`Evaluator::best_of`]):
    /// the 5 + ⌊log2 n⌋ whose positions score best for the mover by the pruning net of
    /// their class, in gnubg's order of consideration. `None` when every move is to be
    /// scored fully: few moves, results of different classes or of a class without a
    /// net, or nets without pruning nets.
    pub fn pruned_candidates(&self, results: &[Position]) -> Result<Option<Vec<usize>>, EvalError> {
        let keep = MIN_PRUNE_MOVES + results.len().max(1).ilog2() as usize;
        if results.len() <= keep {
            return Ok(None);
        }
        // Every result must be of one class with a net: the positions after the moves
        // (opponent on roll).
        let mut after = Vec::with_capacity(results.len());
        Position::extend_swapped(&mut after, results.iter().copied());
        let class = self.classify(&after[0]);
        if !class.uses_net() || after[1..].iter().any(|a| self.classify(a) != class) {
            return Ok(None);
        }
        // The opponent's equity after each move, by pruning net (lower is better for
        // the mover), two positions at a time.
        let mut scores = Vec::with_capacity(results.len());
        for two in after.chunks(2) {
            match two {
                [a, b] => match self.evaluate_pruning_pair([a, b], class)? {
                    Some([p, q]) => scores.extend([money_equity(&p), money_equity(&q)]),
                    None => return Ok(None),
                },
                _ => match self.evaluate_pruning(&two[0], class)? {
                    Some(p) => scores.push(money_equity(&p)),
                    None => return Ok(None),
                },
            }
        }
        // `chosen[0]` always holds the worst of those kept.
        let mut chosen = vec![0usize; keep];
        for i in 0..scores.len() {
            if i < keep {
                chosen[i] = i;
                if scores[i] > scores[chosen[0]] {
                    chosen[i] = chosen[0];
                    chosen[0] = i;
                }
            } else if scores[i] < scores[chosen[0]] {
                chosen[0] = i;
                let mut worst = 0;
                for k in 1..keep {
                    if scores[chosen[k]] > scores[chosen[worst]] {
                        worst = k;
                    }
                }
                chosen.swap(0, worst);
            }
        }
        Ok(Some(chosen))
    }

    /// The candidate (in the given order) with the highest 0-ply equity, the first on
    /// ties, and its probabilities (mover's view); `None` without candidates.
    fn first_best(
        &self,
        results: &[Position],
        candidates: &[usize],
    ) -> Result<Option<(usize, Probabilities)>, EvalError> {
        // The positions after the moves, scored as a list (two at a time exactly, or
        // four at a time in fused mode) where a position's values do not depend on
        // its list: not in incremental mode, whose lists score approximately.
        let mut after = Vec::with_capacity(candidates.len());
        Position::extend_swapped(&mut after, candidates.iter().map(|&i| results[i]));
        let mut values = Vec::with_capacity(after.len());
        if self.incremental && !self.fused {
            for a in &after {
                values.push(self.evaluate(a)?);
            }
        } else {
            self.evaluate_all(&after, &mut values)?;
        }
        let mut best: Option<(usize, f32, Probabilities)> = None;
        for (&i, (v, _)) in candidates.iter().zip(&values) {
            let eq = mover_equity(v);
            if best.is_none_or(|(_, b, _)| eq > b) {
                best = Some((i, eq, invert(v)));
            }
        }
        Ok(best.map(|(i, _, p)| (i, p)))
    }

    /// The best move searched `plies` deep (0 to [`MAX_FILTER_PLIES`]) with gnubg's
    /// filters (as its `FindnSaveBestMoves`): every move scored at 0 ply, the filter's
    /// survivors at each further ply, ranked as gnubg sorts its move lists. Returns the
    /// move and its equity at the deepest ply it was scored; `None` when no move is
    /// legal; [`EvalError::TooDeep`] past [`MAX_FILTER_PLIES`] (the filters have no
    /// rows there).
    pub fn best_move_plied(
        &self,
        gen: &mut MoveGen,
        pos: &Position,
        dice: Dice,
        plies: u32,
        filters: &[[MoveFilter; 4]; 4],
        look: Lookahead,
    ) -> Result<Option<(Move, f32)>, EvalError> {
        if plies == 0 {
            return self.best_move(gen, pos, dice);
        }
        if plies > MAX_FILTER_PLIES {
            return Err(EvalError::TooDeep { plies });
        }
        let mut list: Vec<(Move, f32)> = gen.moves(pos, dice).iter().map(|m| (*m, 0.0)).collect();
        if list.is_empty() {
            return Ok(None);
        }
        let row = &filters[plies as usize - 1];
        let mut done = false;
        for ply in 0..plies {
            let f = row[ply as usize];
            if f.accept < 0 {
                continue;
            }
            self.score(&mut list, ply, look)?;
            sort_like_gnubg(&mut list);
            let all = list.len();
            let mut kept = (f.accept as usize).min(all);
            let limit = all.min(kept + f.extra as usize);
            while kept < limit && list[kept].1 >= list[0].1 - f.threshold {
                kept += 1;
            }
            list.truncate(kept);
            if list.len() == 1 && f.accept != 1 {
                done = true;
                break;
            }
        }
        if !done {
            self.score(&mut list, plies, look)?;
            sort_like_gnubg(&mut list);
        }
        Ok(list.first().copied())
    }

    fn score(&self, list: &mut [(Move, f32)], plies: u32, look: Lookahead) -> Result<(), EvalError> {
        for (m, eq) in list.iter_mut() {
            *eq = mover_equity(&self.evaluate_plied(&m.result.swapped(), plies, look)?);
        }
        Ok(())
    }
}

/// gnubg's move-list order: bearing off the last checker first, then equity, then
/// fewer checkers left, then the lower rearmost checker; stable otherwise.
fn sort_like_gnubg(list: &mut [(Move, f32)]) {
    let key = |m: &Move| crate::choice::move_shape(&m.result);
    list.sort_by(|(a, ea), (b, eb)| {
        let ((ba, la), (bb, lb)) = (key(a), key(b));
        (bb == -1)
            .cmp(&(ba == -1))
            .then(eb.partial_cmp(ea).unwrap_or(std::cmp::Ordering::Equal))
            .then(la.cmp(&lb))
            .then(ba.cmp(&bb))
    });
}
