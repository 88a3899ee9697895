//! Evaluating positions and choosing moves with a [`Model`]: the same code plays in
//! training, in benchmarks and in duels.
//!
//! A position is classified as gnubg does (over, bearoff databases when the model uses
//! them, race, crashed, contact); a bearoff class is looked up, a net class is given to
//! its net and the outputs go through gnubg's sanity checks
//! ([`evaluator::sanity::sanity_check`]). gnubg's race-backgammon correction is not
//! applied (the evaluator crate keeps it private). Moves are ranked as gnubg 1.07 ranks
//! its 0-ply move list: bearing off the last checker first, then the mover's cubeless
//! money equity, then fewer checkers left, then the lower rearmost checker, then
//! generation order.

use board::Position;
use evaluator::bearoff::BearoffDbs;
use evaluator::class::classify_shape;
use evaluator::eval::{invert, money_equity, Probabilities};
use evaluator::sanity::{max_turns_of, sanity_check};
use evaluator::PositionClass;

use crate::encoding::MAX_INPUTS;
use crate::error::TrainerError;
use crate::model::Model;

/// Buffers reused across evaluations (one per thread).
#[derive(Clone, Debug)]
pub struct Scratch {
    /// Inputs of the last net evaluated.
    pub inputs: Vec<f32>,
    /// Hidden activations of the last net evaluated.
    pub hidden: Vec<f32>,
    /// Number of inputs in `inputs`.
    pub n_inputs: usize,
}

impl Default for Scratch {
    fn default() -> Scratch {
        Scratch {
            inputs: vec![0.0; MAX_INPUTS],
            hidden: Vec::with_capacity(512),
            n_inputs: 0,
        }
    }
}

/// The class of `pos`, with bearoff classes only if `dbs` is given.
pub fn classify(dbs: Option<&BearoffDbs>, pos: &Position) -> PositionClass {
    match classify_shape(pos) {
        PositionClass::Race => match dbs {
            Some(d) if d.two_sided_covers(pos) => PositionClass::Bearoff2,
            Some(d) if d.one_sided_covers(pos) => PositionClass::Bearoff1,
            _ => PositionClass::Race,
        },
        c => c,
    }
}

/// The result of a finished game from the side on roll's view (`sides()[1]`), when one
/// side has no checkers left: gammon if the loser bore off none, backgammon if it also
/// still has a checker in the winner's home board or on the bar.
pub fn game_over(pos: &Position) -> Option<Probabilities> {
    let [opp, me] = pos.sides();
    let total = |s: &[u8; 25]| s.iter().map(|&n| u32::from(n)).sum::<u32>();
    // The loser's slots 18..=23 are the winner's home board; 24 is the bar.
    let deep = |s: &[u8; 25]| s[18..25].iter().any(|&n| n > 0);
    if total(me) == 0 {
        let g = total(opp) == 15;
        let bg = g && deep(opp);
        Some([1.0, f32::from(u8::from(g)), f32::from(u8::from(bg)), 0.0, 0.0])
    } else if total(opp) == 0 {
        let g = total(me) == 15;
        let bg = g && deep(me);
        Some([0.0, 0.0, 0.0, f32::from(u8::from(g)), f32::from(u8::from(bg))])
    } else {
        None
    }
}

/// Points a finished game is worth (1, 2 or 3) and whether the side on roll won.
pub fn points_of(result: &Probabilities) -> (bool, u32) {
    let won = result[0] > 0.5;
    let p = if won {
        1 + u32::from(result[1] > 0.5) + u32::from(result[2] > 0.5)
    } else {
        1 + u32::from(result[3] > 0.5) + u32::from(result[4] > 0.5)
    };
    (won, p)
}

impl Model {
    /// Runs the net of `class` on `pos` and returns its raw outputs (no corrections);
    /// `s` keeps the inputs and hidden activations for training.
    pub fn forward(&self, class: PositionClass, pos: &Position, s: &mut Scratch) -> Probabilities {
        let net = self.net(class);
        let n = self
            .config
            .encoding
            .write(class, pos, self.config.fixed_pip_loss(), &mut s.inputs);
        debug_assert_eq!(n, net.inputs);
        s.n_inputs = n;
        let mut out = [0f32; 5];
        evaluator::net::evaluate(net, &s.inputs[..n], &mut s.hidden, &mut out);
        out
    }

    /// The bearoff databases to use, if the model uses them.
    fn dbs<'a>(&self, dbs: &'a BearoffDbs) -> Option<&'a BearoffDbs> {
        self.config.bearoff.then_some(dbs)
    }

    /// 0-ply cubeless evaluation of `pos` for the side on roll, and its class.
    pub fn evaluate(
        &self,
        dbs: &BearoffDbs,
        pos: &Position,
        s: &mut Scratch,
    ) -> Result<(Probabilities, PositionClass), TrainerError> {
        let class = classify(self.dbs(dbs), pos);
        let out = match class {
            PositionClass::Over => game_over(pos).unwrap_or_default(),
            PositionClass::Bearoff2 => dbs.eval_two_sided(pos)?,
            PositionClass::Bearoff1 => dbs.eval_one_sided(pos)?,
            _ => {
                let mut out = self.forward(class, pos, s);
                let db = self.dbs(dbs);
                sanity_check(pos, &mut out, |side| {
                    db.and_then(|d| d.distribution(side).ok().flatten())
                        .map(|d| max_turns_of(&d))
                });
                out
            }
        };
        Ok((out, class))
    }

    /// The best of `candidates` (positions right after the legal moves, mover in
    /// `sides()[1]`), ranked as the module documentation says: its index, and the
    /// mover's probabilities after it. `None` for an empty list.
    pub fn best_of(
        &self,
        dbs: &BearoffDbs,
        candidates: &[Position],
        s: &mut Scratch,
    ) -> Result<Option<(usize, Probabilities)>, TrainerError> {
        let mut best: Option<(usize, Rank, Probabilities)> = None;
        for (k, c) in candidates.iter().enumerate() {
            let (p, _) = self.evaluate(dbs, &c.swapped(), s)?;
            let mine = invert(&p);
            let rank = Rank::of(c, money_equity(&mine));
            if best.as_ref().is_none_or(|(_, b, _)| rank.beats(b)) {
                best = Some((k, rank, mine));
            }
        }
        Ok(best.map(|(k, _, p)| (k, p)))
    }
}

impl Model {
    /// Like [`Model::best_of`], but with gnubg's move preselection: when there are more
    /// than k = 5 + ⌊log2 n⌋ candidates, all of the same net class, each is first
    /// scored by its class's pruning net (200 base inputs, a few hidden units) and only
    /// the best k by that score are evaluated fully. Falls back to [`Model::best_of`]
    /// for models without pruning nets, few candidates or mixed classes.
    pub fn best_of_pruned(
        &self,
        dbs: &BearoffDbs,
        candidates: &[Position],
        s: &mut Scratch,
        keep: &mut Vec<(f32, usize)>,
        selected: &mut Vec<Position>,
    ) -> Result<Option<(usize, Probabilities)>, TrainerError> {
        let n = candidates.len();
        let k = 5 + n.max(1).ilog2() as usize;
        if self.prune.is_empty() || n <= k {
            return self.best_of(dbs, candidates, s);
        }
        let use_dbs = self.dbs(dbs);
        let first = classify(use_dbs, &candidates[0].swapped());
        if !first.uses_net() {
            return self.best_of(dbs, candidates, s);
        }
        let net = &self.prune[crate::model::prune_slot(first)];
        keep.clear();
        for (i, c) in candidates.iter().enumerate() {
            let after = c.swapped();
            if classify(use_dbs, &after) != first {
                return self.best_of(dbs, candidates, s);
            }
            let x = &mut s.inputs[..evaluator::inputs::BASE_INPUTS];
            evaluator::inputs::base_inputs(&after, x);
            let mut out = [0f32; 5];
            evaluator::net::evaluate(net, x, &mut s.hidden, &mut out);
            keep.push((money_equity(&invert(&out)), i));
        }
        // The k best by pruning score, then back in generation order for the ranking.
        keep.select_nth_unstable_by(k - 1, |a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        keep.truncate(k);
        keep.sort_unstable_by_key(|&(_, i)| i);
        selected.clear();
        selected.extend(keep.iter().map(|&(_, i)| candidates[i]));
        Ok(self.best_of(dbs, selected, s)?.map(|(j, p)| (keep[j].1, p)))
    }
}

/// What gnubg compares when it sorts a 0-ply move list.
#[derive(Clone, Copy, Debug)]
pub struct Rank {
    /// Mover's cubeless money equity after the move.
    pub equity: f32,
    /// The mover's rearmost checker after the move (−1: all borne off).
    pub back: i32,
    /// The mover's checkers left.
    pub left: u32,
}

impl Rank {
    /// The rank of a candidate (mover in `sides()[1]`) with this equity.
    pub fn of(after: &Position, equity: f32) -> Rank {
        let (back, left) = evaluator::eval::move_shape(after);
        Rank { equity, back, left }
    }

    /// Whether this candidate sorts strictly before `other` (gnubg's order, as
    /// [`evaluator::eval::sorts_before`]).
    pub fn beats(&self, other: &Rank) -> bool {
        evaluator::eval::sorts_before(
            self.equity,
            (self.back, self.left),
            other.equity,
            (other.back, other.left),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn side(points: &[(usize, u8)]) -> [u8; 25] {
        let mut s = [0; 25];
        for &(p, n) in points {
            s[p - 1] = n;
        }
        s
    }

    #[test]
    fn finished_games_score_single_gammon_and_backgammon() {
        // The side on roll has borne off everything.
        let single = Position::new(side(&[(1, 3)]), side(&[])).unwrap();
        let single = game_over(&single).unwrap();
        assert_eq!(single, [1.0, 0.0, 0.0, 0.0, 0.0]);
        assert_eq!(points_of(&single), (true, 1));
        let gammon = Position::new(side(&[(7, 15)]), side(&[])).unwrap();
        assert_eq!(points_of(&game_over(&gammon).unwrap()), (true, 2));
        // A checker on the loser's 19-point = the winner's 6-point: backgammon.
        let bg = Position::new(side(&[(7, 14), (19, 1)]), side(&[])).unwrap();
        assert_eq!(game_over(&bg).unwrap(), [1.0, 1.0, 1.0, 0.0, 0.0]);
        let bar = Position::new(side(&[(7, 14), (25, 1)]), side(&[])).unwrap();
        assert_eq!(points_of(&game_over(&bar).unwrap()), (true, 3));
        // Seen by the loser.
        let lost = game_over(&bg.swapped()).unwrap();
        assert_eq!(lost, [0.0, 0.0, 0.0, 1.0, 1.0]);
        assert_eq!(points_of(&lost), (false, 3));
        assert!(game_over(&board::Variant::Backgammon.start()).is_none());
    }
}
