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
//! view; those of the wanted classes are kept, in game order. A game stops early once
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
use evaluator::eval::{money_equity, EvalError};
use evaluator::search::Lookahead;
use evaluator::Evaluator;
use rayon::prelude::*;

use crate::play::{best_move_0ply, value_after};
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
            let next = self.choose(gen, &mut rng, &pos, roll)?;
            pos = next.swapped();
        }
        Ok(out)
    }

    fn choose(
        &self,
        gen: &mut MoveGen,
        rng: &mut SplitMix,
        pos: &Position,
        roll: board::Dice,
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
            let mut noisy = Vec::with_capacity(results.len());
            for r in &results {
                noisy.push(money_equity(&value_after(self.ev, r)?) + s.noise * rng.gaussian() as f32);
            }
            return Ok(results[best_index(&results, noisy).expect("moves")]);
        }
        Ok(best_move_0ply(self.ev, gen, pos, roll, false)?.result)
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
