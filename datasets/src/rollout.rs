//! Cubeless rollouts.
//!
//! A trial plays the position out from the side on roll ("X") to the end of the game,
//! both sides choosing moves at the rollout's ply (0: gnubg's 0-ply choice; 1: gnubg's
//! 1-ply search with its normal move filters), with the dice of [`crate::dice`]. The
//! trial's result is the final outcome as five cumulative probabilities from X's view
//! (win, win gammon, win backgammon, lose gammon, lose backgammon; a backgammon also
//! counts as a gammon), each 0 or 1. It stops early:
//!
//! * when the position enters the two-sided bearoff database (if
//!   [`RolloutSettings::bearoff_truncation`]): its exact value;
//! * after [`RolloutSettings::truncate`] half-moves: the 0-ply evaluation there.
//!
//! **Variance reduction** (luck adjustment): before each roll, the side to move's
//! 0-ply best move is found for all 21 rolls, and each is valued at 0 ply. Their
//! weighted mean (non-doubles count twice, out of 36) is what the roll is expected to
//! bring; the trial adds (mean − value of the roll actually thrown), turned to X's view,
//! to its result. Every term has expectation zero whatever the evaluator, so the
//! estimate stays unbiased; with a good evaluator the terms cancel most of the luck of
//! the dice. At 1 ply the luck is measured the same way (0-ply choices and values) and
//! the move played is the 1-ply choice.
//!
//! Trial `t` takes its dice from the seed and `t` alone ([`crate::dice`]), so every
//! position rolled out with one seed sees the same dice in trial `t` (common random
//! numbers: differences between positions are measured precisely, but the errors of
//! different positions are correlated). [`RolloutSettings::position_seeds`] mixes the
//! position into the seed instead, for independent errors.
//!
//! The estimate is the mean of the trial results; its standard error is the sample
//! standard deviation over √trials. With stratified dice the true error is smaller than
//! this figure (so it is conservative). Trials are summed in trial order, so results
//! do not depend on how trials are spread over threads.

use board::{Dice, MoveGen, Position};
use evaluator::choice::best_index;
use evaluator::class::PositionClass;
use evaluator::eval::{invert, mover_equity, EvalError, Probabilities};
use evaluator::nets::GnubgNets;
use evaluator::nets::NetSource;
use evaluator::Evaluator;
use rayon::prelude::*;

use crate::dice::{roll_index, QuasiRandomDice};
use crate::error::DatasetError;
use crate::play::{best_move_plied, best_move_pruned, kept_moves};
use crate::rng::{derive, mix64, STREAM_POSITION};

/// A trial that has not ended after this many half-moves is cut off with a 0-ply
/// evaluation (a safeguard; games are far shorter).
pub const MAX_HALF_MOVES: u32 = 2000;

/// How positions are rolled out.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RolloutSettings {
    /// Trials (games) per position.
    pub trials: u32,
    /// Chequer play: 0 or 1 ply.
    pub plies: u32,
    /// Stop after this many half-moves and use the 0-ply evaluation there.
    pub truncate: Option<u32>,
    /// The seed: trial `t` sees the same dice for every position with this seed.
    pub seed: u64,
    /// Luck adjustment (see the module documentation).
    pub variance_reduction: bool,
    /// Stop at the two-sided bearoff database and use its exact value.
    pub bearoff_truncation: bool,
    /// Mix each position into the seed, so that different positions see independent
    /// dice instead of common random numbers (their errors are then uncorrelated).
    pub position_seeds: bool,
    /// Let the pruning nets preselect the candidates of every 0-ply move choice, the
    /// lookaheads' included, as gnubg does inside its own lookahead
    /// ([`Evaluator::pruned_candidates`]): faster, no longer gnubg's 0-ply play. Off in
    /// files written before it existed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub prune_moves: bool,
}

impl Default for RolloutSettings {
    fn default() -> RolloutSettings {
        RolloutSettings {
            trials: 1296,
            plies: 0,
            truncate: None,
            seed: 1,
            variance_reduction: true,
            bearoff_truncation: true,
            position_seeds: false,
            prune_moves: false,
        }
    }
}

/// The estimate for one position, from the side on roll's view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RolloutResult {
    /// Mean of the trial results: win, win gammon, win backgammon, lose gammon, lose
    /// backgammon (cumulative).
    pub mean: [f64; 5],
    /// Standard error of each mean.
    pub se: [f64; 5],
    /// Trials played.
    pub trials: u32,
}

impl RolloutResult {
    /// The estimate as `f32` probabilities clamped to [0, 1] (variance reduction can
    /// put a mean a hair outside), and the standard errors.
    pub fn probabilities(&self) -> ([f32; 5], [f32; 5]) {
        (
            self.mean.map(|m| m.clamp(0.0, 1.0) as f32),
            self.se.map(|s| s as f32),
        )
    }

    /// Mean and standard error of per-trial results.
    pub fn from_trials(results: &[[f64; 5]]) -> RolloutResult {
        let n = results.len();
        let mut mean = [0f64; 5];
        for r in results {
            for (m, v) in mean.iter_mut().zip(r) {
                *m += v;
            }
        }
        mean = mean.map(|m| m / n.max(1) as f64);
        let mut se = [0f64; 5];
        if n > 1 {
            for r in results {
                for i in 0..5 {
                    se[i] += (r[i] - mean[i]).powi(2);
                }
            }
            se = se.map(|ss| (ss / (n - 1) as f64 / n as f64).sqrt());
        }
        RolloutResult {
            mean,
            se,
            trials: n as u32,
        }
    }
}

/// The 21 rolls' 0-ply choices and values for one position (the side to move's view).
#[derive(Clone, Debug)]
pub struct Lookahead21 {
    /// The chosen result per roll, in [`Dice::all`] order.
    pub results: [Position; 21],
    /// Its 0-ply value, mover's view.
    pub values: [Probabilities; 21],
    /// The weighted mean of `values` (what a roll is expected to bring).
    pub mean: [f64; 5],
}

/// Turns a vector of probabilities from the mover's view to the other side's.
fn flip(p: [f64; 5]) -> [f64; 5] {
    [1.0 - p[0], p[3], p[4], p[1], p[2]]
}

/// Turns a difference of probability vectors to the other side's view.
fn flip_delta(d: [f64; 5]) -> [f64; 5] {
    [-d[0], d[3], d[4], d[1], d[2]]
}

/// Per-thread working memory of trials.
#[derive(Default)]
pub struct Scratch {
    gen: MoveGen,
    memo: LookaheadMemo,
}

/// Rolls out positions with one evaluator and one set of settings.
pub struct Roller<'a, N: NetSource = GnubgNets> {
    ev: &'a Evaluator<N>,
    settings: RolloutSettings,
    dice: QuasiRandomDice,
}

impl<'a, N: NetSource> Roller<'a, N> {
    /// A roller; fails on settings out of range (no trials, plies above 1).
    pub fn new(ev: &'a Evaluator<N>, settings: RolloutSettings) -> Result<Roller<'a, N>, DatasetError> {
        if settings.trials == 0 {
            return Err(DatasetError::Invalid("rollouts need at least 1 trial".into()));
        }
        if settings.plies > 1 {
            return Err(DatasetError::Invalid(format!(
                "rollout chequer play at {} plies is not supported (0 or 1)",
                settings.plies
            )));
        }
        if settings.prune_moves && ev.nets().pruning_net(PositionClass::Contact).is_none() {
            return Err(DatasetError::Invalid(
                "pruned move choices need weights with pruning nets (gnubg's encoding)".into(),
            ));
        }
        let dice = QuasiRandomDice::new(settings.seed, settings.trials);
        Ok(Roller { ev, settings, dice })
    }

    /// The settings.
    pub fn settings(&self) -> &RolloutSettings {
        &self.settings
    }

    /// The dice plan for a rollout of `pos`: the roller's, or with
    /// [`RolloutSettings::position_seeds`] one seeded from the seed and the position.
    fn plan(&self, pos: &Position) -> std::borrow::Cow<'_, QuasiRandomDice> {
        if !self.settings.position_seeds {
            return std::borrow::Cow::Borrowed(&self.dice);
        }
        let mut k = [0u8; 16];
        k[..10].copy_from_slice(&pos.key());
        let k = u128::from_le_bytes(k);
        let seed = derive(
            self.settings.seed,
            STREAM_POSITION,
            mix64(k as u64) ^ (k >> 64) as u64,
        );
        std::borrow::Cow::Owned(QuasiRandomDice::new(seed, self.settings.trials))
    }

    /// Rolls out `pos` (side on roll's view), trials spread over rayon's threads.
    pub fn rollout(&self, pos: &Position) -> Result<RolloutResult, EvalError> {
        Ok(RolloutResult::from_trials(&self.rollout_trials(pos)?))
    }

    /// The (luck-adjusted) result of every trial of a rollout of `pos`, in trial order
    /// (the values [`Self::rollout`] averages), for statistics of other quantities.
    pub fn rollout_trials(&self, pos: &Position) -> Result<Vec<[f64; 5]>, EvalError> {
        let first = self.first_lookahead(pos)?;
        let plan = self.plan(pos);
        (0..self.settings.trials)
            .into_par_iter()
            .map_init(Scratch::default, |sc, t| {
                self.trial(&plan, pos, t, sc, first.as_ref())
            })
            .collect()
    }

    /// Rolls out `pos` on the calling thread only (same numbers as [`Self::rollout`]).
    pub fn rollout_serial(&self, pos: &Position) -> Result<RolloutResult, EvalError> {
        let first = self.first_lookahead(pos)?;
        let plan = self.plan(pos);
        let mut sc = Scratch::default();
        let results = (0..self.settings.trials)
            .map(|t| self.trial(&plan, pos, t, &mut sc, first.as_ref()))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(RolloutResult::from_trials(&results))
    }

    /// The lookahead of the starting position, shared by every trial (variance
    /// reduction only, and only when the first turn is played).
    fn first_lookahead(&self, pos: &Position) -> Result<Option<Lookahead21>, EvalError> {
        if !self.settings.variance_reduction || self.stops(pos, 0).is_some() {
            return Ok(None);
        }
        let mut sc = Scratch::default();
        Ok(Some(lookahead(
            self.ev,
            &mut sc.gen,
            &mut sc.memo,
            pos,
            self.settings.prune_moves,
        )?))
    }

    /// Why a trial stops at `pos` after `half` half-moves, if it does.
    fn stops(&self, pos: &Position, half: u32) -> Option<PositionClass> {
        let class = self.ev.classify(pos);
        let stop = class == PositionClass::Over
            || (self.settings.bearoff_truncation && class == PositionClass::Bearoff2)
            || self.settings.truncate == Some(half)
            || half >= MAX_HALF_MOVES;
        stop.then_some(class)
    }

    /// Trial `t` of a rollout of `start` with the dice of `plan`: the (luck-adjusted)
    /// result from the view of the side on roll in `start`.
    pub fn trial(
        &self,
        plan: &QuasiRandomDice,
        start: &Position,
        t: u32,
        sc: &mut Scratch,
        first: Option<&Lookahead21>,
    ) -> Result<[f64; 5], EvalError> {
        let mut dice = plan.trial(t);
        let mut pos = *start;
        let mut x_moves = true;
        let mut luck = [0f64; 5];
        let mut half = 0u32;
        let end = loop {
            if self.stops(&pos, half).is_some() {
                break self.ev.evaluate(&pos)?.0.map(f64::from);
            }
            let roll = dice.next_roll();
            let next = if self.settings.variance_reduction {
                let computed;
                let la = match first {
                    Some(la) if half == 0 => la,
                    _ => {
                        computed = lookahead(
                            self.ev,
                            &mut sc.gen,
                            &mut sc.memo,
                            &pos,
                            self.settings.prune_moves,
                        )?;
                        &computed
                    }
                };
                let k = roll_index(roll);
                let mut delta = [0f64; 5];
                for (i, d) in delta.iter_mut().enumerate() {
                    *d = la.mean[i] - f64::from(la.values[k][i]);
                }
                let delta = if x_moves { delta } else { flip_delta(delta) };
                for (l, d) in luck.iter_mut().zip(delta) {
                    *l += d;
                }
                if self.settings.plies == 0 {
                    la.results[k]
                } else {
                    best_move_plied(self.ev, &mut sc.gen, &pos, roll, self.settings.plies)?
                }
            } else if self.settings.prune_moves && self.settings.plies == 0 {
                best_move_pruned(self.ev, &mut sc.gen, &pos, roll)?
            } else {
                best_move_plied(self.ev, &mut sc.gen, &pos, roll, self.settings.plies)?
            };
            pos = next.swapped();
            x_moves = !x_moves;
            half += 1;
        };
        let end = if x_moves { end } else { flip(end) };
        let mut out = [0f64; 5];
        for i in 0..5 {
            out[i] = end[i] + luck[i];
        }
        Ok(out)
    }
}

/// Values of positions already met in one lookahead: rolls with the same pip total
/// often reach the same position (a single checker moved 6 pips with 5-1 or 4-2), and
/// each is evaluated once. Values are kept as evaluated, from the opponent's view (the
/// opponent on roll after the move), which is what moves are ranked by
/// ([`mover_equity`]). Cleared (by a generation count) for every lookahead; the
/// table is allocated by the first lookahead (rollouts without variance reduction
/// never need it).
#[derive(Default)]
pub struct LookaheadMemo {
    slots: Vec<(u32, Position, Probabilities)>,
    generation: u32,
    /// The results waiting for evaluation: their index among the moves and their slot
    /// (kept to reuse the allocation).
    missing: Vec<(usize, usize)>,
    /// The values of the last [`LookaheadMemo::fill`]'s results, in order.
    values: Vec<Probabilities>,
}

const MEMO_BITS: u32 = 11;

impl LookaheadMemo {
    fn clear(&mut self) {
        if self.slots.is_empty() {
            let empty = Position::new_unchecked([0; 25], [0; 25]);
            self.slots = vec![(0, empty, [0.0; 5]); 1 << MEMO_BITS];
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.slots.iter_mut().for_each(|s| s.0 = 0);
            self.generation = 1;
        }
    }

    /// The table slot of a position: a hash of its 50 bytes (six words and the last
    /// two bytes), whatever the hash: a collision only costs an evaluation.
    fn slot(pos: &Position) -> usize {
        let b = pos.sides().as_flattened();
        let word = |i: usize| u64::from_le_bytes(b[8 * i..8 * i + 8].try_into().expect("8 bytes"));
        let mut h = u64::from(b[48]) | u64::from(b[49]) << 8;
        for i in 0..6 {
            h = (h ^ word(i)).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
        }
        (crate::rng::mix64(h) >> (64 - MEMO_BITS)) as usize
    }

    /// The 0-ply value of a move's result, mover's view (evaluated at most once per
    /// lookahead unless two results collide in the table).
    fn value_after<N: NetSource>(
        &mut self,
        ev: &Evaluator<N>,
        result: &Position,
    ) -> Result<Probabilities, EvalError> {
        if let Some(v) = self.get(result) {
            return Ok(invert(&v));
        }
        let v = ev.evaluate(&result.swapped())?.0;
        self.slots[Self::slot(result)] = (self.generation, *result, v);
        Ok(invert(&v))
    }

    /// The remembered value of a move's result, if any.
    fn get(&self, result: &Position) -> Option<Probabilities> {
        self.get_at(Self::slot(result), result)
    }

    fn get_at(&self, slot: usize, result: &Position) -> Option<Probabilities> {
        let s = &self.slots[slot];
        (s.0 == self.generation && s.1 == *result).then_some(s.2)
    }

    /// The values of the moves' `results` (opponent's view), in order: those not yet
    /// remembered evaluated together (see [`Evaluator::evaluate_all`]) and remembered.
    /// Each result is hashed once.
    fn fill<N: NetSource>(
        &mut self,
        ev: &Evaluator<N>,
        results: &[Position],
    ) -> Result<&[Probabilities], EvalError> {
        let mut missing = std::mem::take(&mut self.missing);
        let mut values = std::mem::take(&mut self.values);
        missing.clear();
        values.clear();
        for (i, r) in results.iter().enumerate() {
            let slot = Self::slot(r);
            values.push(self.get_at(slot, r).unwrap_or_else(|| {
                missing.push((i, slot));
                [0.0; 5]
            }));
        }
        let waiting = missing.iter().map(|&(i, _)| results[i]);
        let done = ev.with_values_after(waiting, |evaluated| {
            for (&(i, slot), (v, _)) in missing.iter().zip(evaluated) {
                values[i] = *v;
                self.slots[slot] = (self.generation, results[i], values[i]);
            }
        });
        (self.missing, self.values) = (missing, values);
        done.map(|()| &self.values[..])
    }
}

/// The 0-ply choice and value for each of the 21 rolls from `pos`, and their mean;
/// with `prune`, each choice among the moves the pruning nets keep ([`kept_moves`]).
pub fn lookahead<N: NetSource>(
    ev: &Evaluator<N>,
    gen: &mut MoveGen,
    memo: &mut LookaheadMemo,
    pos: &Position,
    prune: bool,
) -> Result<Lookahead21, EvalError> {
    memo.clear();
    let mut results = [*pos; 21];
    let mut values = [[0f32; 5]; 21];
    let mut mean = [0f64; 5];
    let mut kept = Vec::new();
    for (k, d) in Dice::all().enumerate() {
        let mut moves = gen.positions(pos, d);
        if prune {
            moves = kept_moves(ev, moves, &mut kept)?;
        }
        let (result, value) = if moves.is_empty() {
            (*pos, memo.value_after(ev, pos)?)
        } else {
            // Values from the memo, ranked by the evaluator's one 0-ply rule.
            let values = memo.fill(ev, moves)?;
            let i = best_index(moves, values.iter().map(mover_equity)).expect("moves");
            (moves[i], invert(&values[i]))
        };
        results[k] = result;
        values[k] = value;
        let w = f64::from(d.weight());
        for (m, v) in mean.iter_mut().zip(value) {
            *m += w * f64::from(v);
        }
    }
    Ok(Lookahead21 {
        results,
        values,
        mean: mean.map(|m| m / 36.0),
    })
}
