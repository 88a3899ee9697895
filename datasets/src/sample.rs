//! Self-play position sampling.
//!
//! Game `g` of a run with seed `s` is played from the starting position with its own
//! dice ([`board::DiceStream`] seeded from (s, g); the first roll is an opening roll,
//! never a double) and its own generator for noise and random moves, so each game
//! depends only on the seed and its number. Each side plays gnubg's 0-ply move, except
//! that:
//!
//! * with probability `epsilon` it plays a legal move drawn uniformly instead;
//! * with `noise > 0` each move's cubeless money equity gets a normal deviate with that
//!   standard deviation added before the best is chosen (like gnubg's noise setting).
//!
//! Every position met with a side about to roll is a candidate, in the side on roll's
//! view, and so, with `alternatives` = k, are the positions after the k best moves
//! (by 0-ply equity) the policy did not play, right after the position they branch
//! from; those of the wanted classes are kept, in game order. A game stops early once
//! no wanted class can occur any more (a race never returns to contact, a bearoff
//! never returns to a race).
//!
//! The "disagreement" filter keeps a position when two evaluators differ on its
//! cubeless money equity by more than a threshold: 0 ply against n-ply with the same
//! weights, or 0 ply against 0 ply with other weights.

use std::ops::Range;

use board::{DiceStream, MoveGen, Position, Variant};
use evaluator::choice::best_index;
use evaluator::class::PositionClass;
use evaluator::eval::{money_equity, mover_equity, EvalError};
use evaluator::search::Lookahead;
use evaluator::Evaluator;
use rayon::prelude::*;

use crate::play::{best_move_0ply, equity_after};
use crate::rng::{derive, derive32, SplitMix, STREAM_GAME_CHOICES, STREAM_GAME_DICE};

/// A game longer than this (in half-moves) is abandoned (a safeguard).
pub const MAX_HALF_MOVES: u32 = 5000;

/// How self-play games are played and which positions are kept.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct SampleSettings {
    /// The run's seed.
    pub seed: u64,
    /// Standard deviation of the noise added to each move's equity (0: none).
    pub noise: f32,
    /// Probability of a uniformly random legal move.
    pub epsilon: f64,
    /// Classes kept (gnubg's classes as the evaluator assigns them).
    #[serde(serialize_with = "class_names")]
    pub classes: Vec<PositionClass>,
    /// At each move the policy ranks (its 0-ply or noisy choice, not a random move),
    /// the positions after this many next-best moves by 0-ply equity are candidates too,
    /// the opponent on roll: the positions a move decision compares, where the chosen
    /// one alone would be met otherwise. The games themselves do not change.
    #[serde(skip_serializing_if = "is_zero")]
    pub alternatives: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

fn class_names<S: serde::Serializer>(classes: &[PositionClass], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(classes.iter().map(|c| c.name()))
}

/// The second opinion of the disagreement filter.
pub enum Referee<'a> {
    /// The same evaluator searched this many plies deeper than 0.
    Plies(u32),
    /// Another evaluator at 0 ply.
    Other(&'a Evaluator),
}

/// Plays self-play games and filters their positions.
pub struct Sampler<'a> {
    ev: &'a Evaluator,
    settings: SampleSettings,
    referee: Option<(Referee<'a>, f32)>,
}

impl<'a> Sampler<'a> {
    /// A sampler; with `referee`, only positions where the two opinions differ by more
    /// than the threshold pass [`Sampler::disagreeing`].
    pub fn new(
        ev: &'a Evaluator,
        settings: SampleSettings,
        referee: Option<(Referee<'a>, f32)>,
    ) -> Sampler<'a> {
        Sampler {
            ev,
            settings,
            referee,
        }
    }

    /// The wanted positions of game `game`, in the order met.
    pub fn play_game(&self, gen: &mut MoveGen, game: u64) -> Result<Vec<Position>, EvalError> {
        let s = &self.settings;
        let mut dice = DiceStream::new(derive32(s.seed, STREAM_GAME_DICE, game));
        let mut rng = SplitMix::new(derive(s.seed, STREAM_GAME_CHOICES, game));
        let mut pos = Variant::Backgammon.start();
        let mut out = Vec::new();
        let mut alternatives = Vec::new();
        for half in 0..MAX_HALF_MOVES {
            let class = self.ev.classify(&pos);
            if class == PositionClass::Over {
                break;
            }
            if s.classes.contains(&class) {
                out.push(pos);
            }
            if class <= PositionClass::Race && !s.classes.iter().any(|&c| c <= class) {
                break;
            }
            let roll = if half == 0 {
                dice.opening_roll()
            } else {
                dice.roll()
            };
            alternatives.clear();
            let next = self.choose(gen, &mut rng, &pos, roll, &mut alternatives)?;
            for &a in &alternatives {
                if s.classes.contains(&self.ev.classify(&a)) {
                    out.push(a);
                }
            }
            pos = next.swapped();
        }
        Ok(out)
    }

    /// The move played with `roll` (the position after it, mover still in
    /// `sides()[1]`); the positions after the next-best moves, opponent on roll, are
    /// appended to `alternatives` when the settings ask for them.
    fn choose(
        &self,
        gen: &mut MoveGen,
        rng: &mut SplitMix,
        pos: &Position,
        roll: board::Dice,
        alternatives: &mut Vec<Position>,
    ) -> Result<Position, EvalError> {
        let s = &self.settings;
        let n = gen.positions(pos, roll).len();
        if n <= 1 {
            return Ok(gen.positions(pos, roll).first().copied().unwrap_or(*pos));
        }
        if s.epsilon > 0.0 && rng.unit() < s.epsilon {
            let k = rng.below(n as u64) as usize;
            return Ok(gen.positions(pos, roll)[k]);
        }
        if s.noise > 0.0 {
            // Each move's equity plus noise, ranked by the evaluator's 0-ply rule.
            let results = gen.positions(pos, roll).to_vec();
            let mut equities = Vec::with_capacity(results.len());
            let mut noisy = Vec::with_capacity(results.len());
            for r in &results {
                let e = equity_after(self.ev, r)?;
                equities.push(e);
                noisy.push(e + s.noise * rng.gaussian() as f32);
            }
            let k = best_index(&results, noisy).expect("moves");
            self.next_best(&results, &equities, k, alternatives);
            return Ok(results[k]);
        }
        if s.alternatives == 0 {
            return Ok(best_move_0ply(self.ev, gen, pos, roll, false)?.result);
        }
        // The values best_move_0ply's choice ranks, kept for the next-best moves.
        let results = gen.positions(pos, roll);
        let (k, equities) = self.ev.with_values_after(results.iter().copied(), |values| {
            let equities: Vec<f32> = values.iter().map(|(p, _)| mover_equity(p)).collect();
            (
                best_index(results, equities.iter().copied()).expect("moves"),
                equities,
            )
        })?;
        self.next_best(results, &equities, k, alternatives);
        Ok(results[k])
    }

    /// Appends the positions after the `alternatives` best moves other than `chosen`
    /// (highest equity first, generation order among equals), opponent on roll.
    fn next_best(&self, results: &[Position], equities: &[f32], chosen: usize, out: &mut Vec<Position>) {
        if self.settings.alternatives == 0 {
            return;
        }
        let mut order: Vec<usize> = (0..results.len()).filter(|&i| i != chosen).collect();
        order.sort_by(|&a, &b| equities[b].total_cmp(&equities[a]));
        out.extend(
            order
                .into_iter()
                .take(self.settings.alternatives)
                .map(|i| results[i].swapped()),
        );
    }

    /// The wanted positions of games `games`, in game order (games run in parallel).
    pub fn play_games(&self, games: Range<u64>) -> Result<Vec<Position>, EvalError> {
        let per_game = games
            .into_par_iter()
            .map_init(MoveGen::new, |gen, g| self.play_game(gen, g))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(per_game.into_iter().flatten().collect())
    }

    /// How far the two opinions on `pos` are apart (cubeless money equity), or `None`
    /// without a referee.
    pub fn disagreement(&self, pos: &Position) -> Result<Option<f32>, EvalError> {
        let Some((referee, _)) = &self.referee else {
            return Ok(None);
        };
        let a = money_equity(&self.ev.evaluate(pos)?.0);
        let b = match referee {
            Referee::Plies(n) => money_equity(&self.ev.evaluate_plied(pos, *n, Lookahead::default())?),
            Referee::Other(other) => money_equity(&other.evaluate(pos)?.0),
        };
        Ok(Some((a - b).abs()))
    }

    /// The positions the disagreement filter keeps (all without a referee), order kept.
    pub fn disagreeing(&self, positions: Vec<Position>) -> Result<Vec<Position>, EvalError> {
        let Some((_, threshold)) = &self.referee else {
            return Ok(positions);
        };
        let keep = positions
            .par_iter()
            .map(|p| Ok(self.disagreement(p)?.is_some_and(|d| d > *threshold)))
            .collect::<Result<Vec<bool>, EvalError>>()?;
        Ok(positions
            .into_iter()
            .zip(keep)
            .filter(|(_, k)| *k)
            .map(|(p, _)| p)
            .collect())
    }
}
