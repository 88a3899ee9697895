//! TD(λ) self-play: one game at a time, the model learning as it plays.
//!
//! Both sides are the same model choosing 0-ply moves through the evaluator
//! ([`evaluator::Evaluator::best_of`]; the model is its [`evaluator::NetSource`], see
//! [`crate::engine`]), fused, exactly or incrementally ([`EvalMode`]). After each move,
//! the position the mover faced, `s`, is trained towards the evaluation of
//! the position after the move seen from the mover's side (the opponent's evaluation
//! inverted, with gnubg's corrections: race backgammons and sanity checks; the exact
//! result when the move ends the game, gammons and backgammons included; a bearoff
//! lookup where the databases cover it). Only positions of a net
//! class (contact, crashed, race) are trained, each by its own net; bearoff positions
//! are exact and never trained.
//!
//! The update is gradient TD(λ) with one accumulating eligibility trace per output
//! (the five outputs are five value functions sharing the hidden layer), γ = 1:
//! `e ← λ·e + ∇o(s)`, `w ← w + α·Σ_k δ_k·e_k` with `δ_k = target_k − o_k(s)`, the raw
//! net output before gnubg's sanity corrections. With λ = 0 the trace is the gradient
//! itself and only the weights of non-zero inputs change (the fast path). Traces are
//! kept only for inputs seen in the game and dropped once λ^age < 10⁻⁴.
//!
//! Learning rates are for the slope-free parametrisation: the nets store gnubg's
//! slopes (hidden 0.1, output 1), and a step of α on an effective weight `β·w` is a
//! step of α/β on the stored weight, so α means what it means for a plain sigmoid net.
//!
//! With gnubg's encoding the three pruning nets (200 base inputs) learn alongside,
//! each towards its main net's raw outputs on the same positions (distillation), so
//! that gnubg's lookahead has usable pruning nets.

use std::sync::Arc;

use board::{DiceStream, MoveGen, Position, Variant};
use evaluator::bearoff::BearoffDbs;
use evaluator::eval::{invert, Probabilities};
use evaluator::simd::add_outer;
use evaluator::weights::Net;
use evaluator::PositionClass;
use serde::{Deserialize, Serialize};

pub use crate::engine::EvalMode;
use crate::engine::Scratch;
use crate::error::TrainerError;
use crate::help::{Helpers, Values};
use crate::model::{main_slot, prune_slot, Model};
use crate::rows::Rows;

/// Turns after which a self-play game is cut off. Sensible play needs a few hundred
/// turns at most; nets that have learned nothing can keep hitting each other for
/// thousands, and every turn of such a loop would be trained.
pub const MAX_TURNS: u32 = 1_000;

/// Traces weaker than this are dropped.
const TRACE_FLOOR: f32 = 1e-4;

/// TD settings.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct TdParams {
    /// Trace decay λ (0 = TD(0)).
    pub lambda: f32,
    /// Initial learning rate α.
    pub alpha: f32,
    /// Annealing exponent: the rate for game n is α / (1 + n/1000)^anneal.
    pub anneal: f32,
    /// Preselect self-play moves with the pruning nets, as gnubg does inside its
    /// lookahead (gnubg encoding only; see [`evaluator::Evaluator::best_of_pruned`]).
    #[serde(default)]
    pub prune_moves: bool,
    /// How self-play scores its move lists (checkpoints from before the setting were
    /// [`EvalMode::Exact`]).
    #[serde(default = "EvalMode::exact")]
    pub eval: EvalMode,
}

/// `trainer td`'s defaults: TD(0), α 0.2 annealed with exponent 0.3, no pruning, the
/// fused evaluation.
impl Default for TdParams {
    fn default() -> TdParams {
        TdParams {
            lambda: 0.0,
            alpha: 0.2,
            anneal: 0.3,
            prune_moves: false,
            eval: EvalMode::Fused,
        }
    }
}

impl TdParams {
    /// Checks the ranges.
    pub fn validate(&self) -> Result<(), TrainerError> {
        let bad = |what: &str, v: f32| TrainerError::Invalid(format!("{what} out of range: {v}"));
        if !(0.0..=1.0).contains(&self.lambda) {
            return Err(bad("--lambda (0..=1)", self.lambda));
        }
        if !(self.alpha > 0.0 && self.alpha <= 100.0) {
            return Err(bad("--alpha (0 < alpha <= 100)", self.alpha));
        }
        if !(0.0..=4.0).contains(&self.anneal) {
            return Err(bad("--anneal (0..=4)", self.anneal));
        }
        Ok(())
    }

    /// The learning rate of game number `game` (0-based).
    pub fn rate(&self, game: u64) -> f32 {
        (f64::from(self.alpha) / (1.0 + game as f64 / 1000.0).powf(f64::from(self.anneal))) as f32
    }
}

/// What a training game did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameStats {
    /// Turns played.
    pub turns: u32,
    /// Net updates (positions trained).
    pub positions: u32,
    /// Points of the result (1, 2 or 3; 0 if the game was cut off or settled).
    pub points: u32,
    /// The game reached [`MAX_TURNS`] and was cut off (nets that have learned
    /// nothing yet can keep hitting each other for thousands of turns).
    pub truncated: bool,
    /// The game stopped at its first position in the bearoff databases: it is exact
    /// from there on, so nothing after it would be trained ([`Learner::train_game`]).
    pub settled: bool,
}

/// Eligibility traces of one net.
#[derive(Clone, Debug, Default)]
struct Traces {
    /// Hidden weights: row i, output k, unit j at `(i * 5 + k) * hidden + j`.
    hw: Vec<f32>,
    /// Hidden thresholds: `k * hidden + j`.
    ht: Vec<f32>,
    /// Output weights: `k * hidden + j`.
    ow: Vec<f32>,
    /// Output thresholds.
    ot: [f32; 5],
    /// Whether row i has a non-zero trace, and the list of such rows.
    touched: Vec<bool>,
    rows: Vec<u32>,
    /// λ^(steps since the net was last evaluated); 0 = no live trace.
    strength: f32,
}

impl Traces {
    fn ensure(&mut self, net: &Net) {
        let h = net.hidden;
        if self.ht.len() != 5 * h || self.touched.len() != net.inputs {
            self.hw = vec![0.0; net.inputs * 5 * h];
            self.ht = vec![0.0; 5 * h];
            self.ow = vec![0.0; 5 * h];
            self.touched = vec![false; net.inputs];
            self.rows.clear();
            self.strength = 0.0;
        }
    }

    fn clear(&mut self, hidden: usize) {
        for &i in &self.rows {
            let i = i as usize;
            self.hw[i * 5 * hidden..(i + 1) * 5 * hidden].fill(0.0);
            self.touched[i] = false;
        }
        self.rows.clear();
        self.ht.fill(0.0);
        self.ow.fill(0.0);
        self.ot = [0.0; 5];
        self.strength = 0.0;
    }

    fn decay(&mut self, lambda: f32, hidden: usize) {
        for &i in &self.rows {
            let i = i as usize;
            self.hw[i * 5 * hidden..(i + 1) * 5 * hidden]
                .iter_mut()
                .for_each(|v| *v *= lambda);
        }
        self.ht.iter_mut().for_each(|v| *v *= lambda);
        self.ow.iter_mut().for_each(|v| *v *= lambda);
        self.ot.iter_mut().for_each(|v| *v *= lambda);
        self.strength *= lambda;
    }
}

/// How [`Learner::play`] plays a game.
#[derive(Clone, Copy)]
pub(crate) struct How<'a> {
    /// Stop at the first position in the bearoff databases (else play to the end).
    pub settle: bool,
    /// Share exact move lists with idle threads (`help`): the help desk and
    /// this thread's number. The same game, bit for bit.
    pub help: Option<(&'a Helpers, usize)>,
}

/// A thread's working memory for training games.
#[derive(Debug)]
pub struct Learner {
    gen: MoveGen,
    s: Scratch,
    /// Hidden-unit gradient (per output with traces).
    grad: Vec<f32>,
    base: Vec<f32>,
    prune_hidden: Vec<f32>,
    traces: Vec<Traces>,
    /// Buffers of shared move lists.
    own: Values,
    after: Vec<Position>,
    /// The hidden-weight rows the last game changed ([`Learner::touched`]), for a
    /// learner that records them.
    touched: Option<Rows>,
}

impl Default for Learner {
    fn default() -> Learner {
        Learner {
            gen: MoveGen::new(),
            s: Scratch::default(),
            grad: Vec::new(),
            base: vec![0.0; evaluator::inputs::BASE_INPUTS],
            prune_hidden: Vec::new(),
            traces: Vec::new(),
            own: Vec::new(),
            after: Vec::new(),
            touched: None,
        }
    }
}

impl Learner {
    /// A learner that records the hidden-weight rows each game changes
    /// ([`Learner::touched`]), for a scheme that copies and merges only those rows.
    pub(crate) fn recording_rows() -> Learner {
        Learner {
            touched: Some(Rows::default()),
            ..Learner::default()
        }
    }

    /// The hidden-weight rows the last game ([`Learner::play`]) changed. Only a learner
    /// of [`Learner::recording_rows`] records them: asking another one would hand a
    /// merge an empty set, so it panics (a scheme's bug, not a user's).
    pub(crate) fn touched(&self) -> &Rows {
        self.touched.as_ref().expect("the learner does not record rows")
    }

    /// Plays one self-play game on the dice stream seeded with `dice_seed`, training
    /// `model` after every move with learning rate `rate`.
    ///
    /// The game stops at its first position in the bearoff databases
    /// ([`GameStats::settled`]): such a position has no contact and every position
    /// after it is in the databases too (checkers only move home and off), so the rest
    /// of the game would train nothing (with λ > 0 the traces would only decay). The
    /// model learns exactly what playing the game out would teach it.
    pub fn train_game(
        &mut self,
        model: &mut Model,
        dbs: &Arc<BearoffDbs>,
        dice_seed: u32,
        params: &TdParams,
        rate: f32,
    ) -> Result<GameStats, TrainerError> {
        // A library caller's NaN or negative rate would train the nets into NaNs.
        params.validate()?;
        if !(rate.is_finite() && rate >= 0.0) {
            return Err(TrainerError::Invalid(format!(
                "learning rate out of range: {rate} (a finite number, 0 or more)"
            )));
        }
        let how = How {
            settle: true,
            help: None,
        };
        self.play(model, dbs, dice_seed, params, rate, how)
    }

    /// [`Learner::train_game`] played as `how` says.
    pub(crate) fn play(
        &mut self,
        model: &mut Model,
        dbs: &Arc<BearoffDbs>,
        dice_seed: u32,
        params: &TdParams,
        rate: f32,
        how: How,
    ) -> Result<GameStats, TrainerError> {
        let lambda = params.lambda;
        if let Some(t) = &mut self.touched {
            t.clear_for(model);
        }
        if lambda > 0.0 {
            self.traces.resize_with(model.nets.len(), Traces::default);
            for (t, net) in self.traces.iter_mut().zip(&model.nets) {
                t.ensure(net);
                t.clear(net.hidden);
            }
        }
        let mut dice = DiceStream::new(dice_seed);
        let mut pos: Position = Variant::Backgammon.start();
        let mut roll = dice.opening_roll();
        let mut stats = GameStats::default();
        for turn in 1..=MAX_TURNS {
            let engine = model.engine_for(dbs, params.eval);
            let class = engine.classify(&pos);
            if how.settle && !class.uses_net() {
                stats.turns = turn - 1;
                stats.settled = true;
                return Ok(stats);
            }
            let candidates = self.gen.positions(&pos, roll);
            let best = match how.help {
                _ if params.prune_moves => engine.best_of_pruned(candidates)?,
                Some((helpers, me)) if params.eval != EvalMode::Incremental => {
                    let (own, after) = (&mut self.own, &mut self.after);
                    helpers.best_of(me, dbs, &engine, candidates, own, after)?
                }
                _ => engine.best_of(candidates)?,
            };
            let (next, target) = match best {
                Some((k, mine)) => (candidates[k].swapped(), mine),
                None => {
                    let next = pos.swapped();
                    (next, invert(&engine.evaluate(&next)?.0))
                }
            };
            drop(engine);
            if class.uses_net() {
                self.train_position(model, class, &pos, &target, lambda, rate);
                stats.positions += 1;
            } else if lambda > 0.0 {
                // Bearoff positions are exact: the traces of earlier positions still
                // decay (δ = 0 here), as V has no parameters at this position.
                for (t, net) in self.traces.iter_mut().zip(&model.nets) {
                    if t.strength > 0.0 {
                        t.decay(lambda, net.hidden);
                    }
                }
            }
            if let Some(end) = next.swapped().finish(Variant::Backgammon) {
                stats.turns = turn;
                stats.points = end.points;
                return Ok(stats);
            }
            pos = next;
            roll = dice.roll();
        }
        // Cut off: every position so far was trained towards the evaluation of the next
        // one; there is simply no terminal target.
        stats.turns = MAX_TURNS;
        stats.truncated = true;
        Ok(stats)
    }

    fn train_position(
        &mut self,
        model: &mut Model,
        class: PositionClass,
        pos: &Position,
        target: &Probabilities,
        lambda: f32,
        rate: f32,
    ) {
        let out = model.forward(class, pos, &mut self.s);
        let slot = main_slot(model.config.layout, class);
        let n = self.s.n_inputs;
        // The rows this step changes (with traces, those of every position seen in the
        // game so far: all marked when seen).
        if let Some(t) = &mut self.touched {
            t.mark_nonzero(slot, &self.s.inputs[..n]);
        }
        if lambda == 0.0 {
            let net = &mut model.nets[slot];
            sgd_step(
                net,
                &self.s.inputs[..n],
                &self.s.hidden,
                &out,
                target,
                rate,
                &mut self.grad,
            );
        } else {
            self.trace_step(model, slot, &out, target, lambda, rate);
        }
        if model.config.has_prune_nets() {
            let x = &mut self.base;
            let p = model.nets.len() + prune_slot(class);
            if class == PositionClass::Race {
                evaluator::inputs::base_inputs(pos, x);
                if let Some(t) = &mut self.touched {
                    t.mark_nonzero(p, x);
                }
            } else {
                // Contact and crashed inputs start with the 200 base inputs.
                x.copy_from_slice(&self.s.inputs[..evaluator::inputs::BASE_INPUTS]);
                if let Some(t) = &mut self.touched {
                    t.mark_prefix(p, slot, evaluator::inputs::BASE_INPUTS);
                }
            }
            let net = &mut model.prune[prune_slot(class)];
            let mut q = [0f32; 5];
            evaluator::net::evaluate(net, x, &mut self.prune_hidden, &mut q);
            sgd_step(net, x, &self.prune_hidden, &q, &out, rate, &mut self.grad);
        }
    }

    fn trace_step(
        &mut self,
        model: &mut Model,
        slot: usize,
        out: &Probabilities,
        target: &Probabilities,
        lambda: f32,
        rate: f32,
    ) {
        // Decay every live trace, then add this position's gradient to its net's.
        for (t, net) in self.traces.iter_mut().zip(&model.nets) {
            if t.strength > 0.0 {
                t.decay(lambda, net.hidden);
                if t.strength < TRACE_FLOOR {
                    t.clear(net.hidden);
                }
            }
        }
        {
            let net = &model.nets[slot];
            let t = &mut self.traces[slot];
            let h = net.hidden;
            let x = &self.s.inputs[..self.s.n_inputs];
            let a = &self.s.hidden;
            let bo = net.beta_output;
            self.grad.resize(5 * h, 0.0);
            for (k, &o) in out.iter().enumerate() {
                let g = o * (1.0 - o);
                t.ot[k] += g;
                let v = &net.output_weights[k * h..(k + 1) * h];
                let gk = &mut self.grad[k * h..(k + 1) * h];
                let ow = &mut t.ow[k * h..(k + 1) * h];
                let ht = &mut t.ht[k * h..(k + 1) * h];
                for ((((gj, &vj), &aj), owj), htj) in gk.iter_mut().zip(v).zip(a).zip(ow).zip(ht) {
                    *owj += g * aj;
                    *gj = g * bo * vj * aj * (1.0 - aj);
                    *htj += *gj;
                }
            }
            for (i, &xi) in x.iter().enumerate() {
                if xi == 0.0 {
                    continue;
                }
                if !t.touched[i] {
                    t.touched[i] = true;
                    t.rows.push(i as u32);
                }
                let row = &mut t.hw[i * 5 * h..(i + 1) * 5 * h];
                for (r, g) in row.iter_mut().zip(&self.grad[..5 * h]) {
                    *r += g * xi;
                }
            }
            t.strength = 1.0;
        }
        let delta: [f32; 5] = std::array::from_fn(|k| target[k] - out[k]);
        for (t, net) in self.traces.iter().zip(model.nets.iter_mut()) {
            if t.strength > 0.0 {
                apply_traces(net, t, &delta, rate, &mut self.grad);
            }
        }
    }
}

/// w += α·Σ_k δ_k·e_k for one net (in the slope-free parametrisation).
fn apply_traces(net: &mut Net, t: &Traces, delta: &[f32; 5], rate: f32, buf: &mut Vec<f32>) {
    let h = net.hidden;
    let so = rate / net.beta_output;
    let sh = rate / net.beta_hidden;
    for (k, &dk) in delta.iter().enumerate() {
        let d = so * dk;
        net.output_thresholds[k] += d * t.ot[k];
        let v = &mut net.output_weights[k * h..(k + 1) * h];
        for (w, e) in v.iter_mut().zip(&t.ow[k * h..(k + 1) * h]) {
            *w += d * e;
        }
    }
    let d: [f32; 5] = std::array::from_fn(|k| sh * delta[k]);
    buf.resize(h, 0.0);
    for (j, b) in buf.iter_mut().enumerate() {
        *b = d.iter().enumerate().map(|(k, dk)| dk * t.ht[k * h + j]).sum();
    }
    for (th, &u) in net.hidden_thresholds.iter_mut().zip(buf.iter()) {
        *th += u;
    }
    for &i in &t.rows {
        let i = i as usize;
        let e = &t.hw[i * 5 * h..(i + 1) * 5 * h];
        let w = &mut net.hidden_weights[i * h..(i + 1) * h];
        for (k, &dk) in d.iter().enumerate() {
            for (w, &e) in w.iter_mut().zip(&e[k * h..(k + 1) * h]) {
                *w += dk * e;
            }
        }
    }
}

/// One gradient step of `net` towards `target` on inputs `x` with hidden activations
/// `a` and outputs `out` (slope-free parametrisation; only non-zero inputs change).
pub fn sgd_step(
    net: &mut Net,
    x: &[f32],
    a: &[f32],
    out: &Probabilities,
    target: &Probabilities,
    rate: f32,
    grad: &mut Vec<f32>,
) {
    let h = net.hidden;
    let bo = net.beta_output;
    let c: [f32; 5] = std::array::from_fn(|k| (target[k] - out[k]) * out[k] * (1.0 - out[k]));
    grad.clear();
    grad.resize(h, 0.0);
    for (k, &ck) in c.iter().enumerate() {
        add_outer(grad, &[ck * bo], 1.0, &net.output_weights[k * h..(k + 1) * h]);
    }
    for (g, &aj) in grad.iter_mut().zip(a) {
        *g *= aj * (1.0 - aj);
    }
    let so = rate / bo;
    for (t, &ck) in net.output_thresholds.iter_mut().zip(&c) {
        *t += so * ck;
    }
    add_outer(&mut net.output_weights[..5 * h], &c, so, &a[..h]);
    let sh = rate / net.beta_hidden;
    add_outer(&mut net.hidden_thresholds, &[1.0], sh, grad);
    add_outer(&mut net.hidden_weights, x, sh, grad);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::Encoding;
    use crate::model::{Init, Layout, ModelConfig};

    #[test]
    #[should_panic(expected = "does not record rows")]
    fn a_learner_that_does_not_record_rows_has_none_to_hand_out() {
        let _ = Learner::default().touched();
    }

    fn model() -> Model {
        let config = ModelConfig {
            encoding: Encoding::Tesauro,
            layout: Layout::Split,
            hidden: 12,
            init: Init::Xavier,
            weights_version: "1.00".into(),
            bearoff: false,
        };
        Model::new(config, 5).unwrap()
    }

    fn forward(net: &Net, x: &[f32]) -> (Probabilities, Vec<f32>) {
        let mut hidden = Vec::new();
        let mut out = [0f32; 5];
        evaluator::net::evaluate(net, x, &mut hidden, &mut out);
        (out, hidden)
    }

    fn squared_error(a: &Probabilities, b: &Probabilities) -> f32 {
        a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum()
    }

    #[test]
    fn a_small_step_reduces_the_error_on_its_own_position() {
        let mut m = model();
        let mut s = Scratch::default();
        let pos = Variant::Backgammon.start();
        let out = m.forward(PositionClass::Contact, &pos, &mut s);
        let target = [0.9, 0.3, 0.02, 0.05, 0.001];
        let x = s.inputs[..s.n_inputs].to_vec();
        let mut grad = Vec::new();
        sgd_step(&mut m.nets[0], &x, &s.hidden, &out, &target, 0.05, &mut grad);
        let (after, _) = forward(&m.nets[0], &x);
        assert!(squared_error(&after, &target) < squared_error(&out, &target));
        // Only the contact net changed.
        let fresh = model();
        assert_ne!(m.nets[0], fresh.nets[0]);
        assert_eq!(m.nets[1], fresh.nets[1]);
    }

    /// The step follows the gradient of each output, checked against central
    /// differences. The hidden layer's table sigmoid and approximate reciprocal are
    /// only smooth at a coarse scale, hence the large step there and the 10 % margin.
    #[test]
    fn step_direction_follows_the_gradient() {
        let m = model();
        let mut s = Scratch::default();
        let pos = Variant::Backgammon.start();
        let out = m.forward(PositionClass::Contact, &pos, &mut s);
        let x = s.inputs[..s.n_inputs].to_vec();
        // A target that raises output 0 only: the step must raise o0 and, to first
        // order, move each weight by rate/β · δ · ∂o0/∂(β·w).
        let mut target = out;
        target[0] = (out[0] + 0.1).min(1.0);
        let mut stepped = m.nets[0].clone();
        let rate = 1e-3;
        sgd_step(&mut stepped, &x, &s.hidden, &out, &target, rate, &mut Vec::new());
        // Pick a hidden weight of a non-zero input and an output weight; compare with
        // finite differences of o0.
        let i = x.iter().position(|&v| v == 1.0).unwrap();
        let h = m.nets[0].hidden;
        for (which, idx) in [("hidden", i * h + 3), ("output", 3)] {
            let mut plus = m.nets[0].clone();
            let mut minus = m.nets[0].clone();
            let eps = if which == "hidden" { 0.5 } else { 1e-2 };
            let (p, q) = match which {
                "hidden" => (&mut plus.hidden_weights[idx], &mut minus.hidden_weights[idx]),
                _ => (&mut plus.output_weights[idx], &mut minus.output_weights[idx]),
            };
            *p += eps;
            *q -= eps;
            let d = (forward(&plus, &x).0[0] - forward(&minus, &x).0[0]) / (2.0 * eps);
            let (beta, moved) = match which {
                "hidden" => (
                    m.nets[0].beta_hidden,
                    stepped.hidden_weights[idx] - m.nets[0].hidden_weights[idx],
                ),
                _ => (
                    m.nets[0].beta_output,
                    stepped.output_weights[idx] - m.nets[0].output_weights[idx],
                ),
            };
            // Predicted move: rate/β² · δ0 · ∂o0/∂w (∂o0/∂(βw) = ∂o0/∂w / β).
            let predicted = rate / (beta * beta) * (target[0] - out[0]) * d;
            assert!(
                (moved - predicted).abs() <= 0.1 * predicted.abs() + 1e-9,
                "{which}: moved {moved}, predicted {predicted}"
            );
        }
    }

    #[test]
    fn first_trace_step_equals_the_plain_step() {
        let mut a = model();
        let mut b = model();
        let pos = Variant::Backgammon.start();
        let target = [0.7, 0.2, 0.01, 0.1, 0.002];
        let mut la = Learner::default();
        la.train_position(&mut a, PositionClass::Contact, &pos, &target, 0.0, 0.1);
        let mut lb = Learner::default();
        lb.traces.resize_with(b.nets.len(), Traces::default);
        for (t, net) in lb.traces.iter_mut().zip(&b.nets) {
            t.ensure(net);
        }
        lb.train_position(&mut b, PositionClass::Contact, &pos, &target, 0.7, 0.1);
        let close = |x: &[f32], y: &[f32]| {
            x.iter()
                .zip(y)
                .all(|(p, q)| (p - q).abs() <= 1e-5 * (1.0 + p.abs()))
        };
        assert!(close(&a.nets[0].hidden_weights, &b.nets[0].hidden_weights));
        assert!(close(&a.nets[0].output_weights, &b.nets[0].output_weights));
        assert!(close(&a.nets[0].hidden_thresholds, &b.nets[0].hidden_thresholds));
        assert_ne!(a.nets[0], model().nets[0]);
    }

    #[test]
    fn games_are_reproducible_and_learn() {
        let params = TdParams {
            lambda: 0.0,
            alpha: 0.1,
            anneal: 0.0,
            prune_moves: false,
            eval: EvalMode::Exact,
        };
        let dbs = Arc::new(BearoffDbs::default());
        let mut a = model();
        let stats = Learner::default()
            .train_game(&mut a, &dbs, 11, &params, 0.1)
            .unwrap();
        let mut b = model();
        assert_eq!(
            Learner::default()
                .train_game(&mut b, &dbs, 11, &params, 0.1)
                .unwrap(),
            stats
        );
        assert_eq!(a, b);
        assert!(stats.positions > 0 && (1..=3).contains(&stats.points));
        // With traces the game is played and trained too.
        let mut c = model();
        let p7 = TdParams {
            lambda: 0.7,
            ..params
        };
        Learner::default().train_game(&mut c, &dbs, 11, &p7, 0.1).unwrap();
        assert_ne!(c, model());
        // A NaN rate or α is refused, and leaves the nets as they were (they used to
        // turn into NaNs with Ok(stats)).
        let mut d = model();
        let nan_alpha = TdParams {
            alpha: f32::NAN,
            ..params
        };
        for (p, rate) in [(&params, f32::NAN), (&params, -0.1), (&nan_alpha, 0.1)] {
            let e = Learner::default()
                .train_game(&mut d, &dbs, 11, p, rate)
                .unwrap_err();
            assert!(e.to_string().contains("out of range"), "{e}");
        }
        assert_eq!(d, model());
        // The defaults are trainer td's.
        let td = TdParams::default();
        assert_eq!(
            (td.lambda, td.alpha, td.anneal, td.prune_moves, td.eval),
            (0.0, 0.2, 0.3, false, EvalMode::Fused)
        );
    }

    /// Stopping at the bearoff teaches exactly what playing the game out teaches:
    /// gnubg's inputs, both bearoff databases, TD(0) and TD(λ), with and without
    /// pruning, over games long enough to reach the databases.
    #[test]
    fn settled_games_learn_what_played_out_games_learn() {
        use test_support::{have, OS, TS};
        if !have(&[OS, TS]) {
            return;
        }
        let dbs = Arc::new(
            BearoffDbs::open(Some(std::path::Path::new(OS)), Some(std::path::Path::new(TS))).unwrap(),
        );
        let config = ModelConfig::gnubg(16, true);
        let mut settled_games = 0;
        for (seed, lambda, prune_moves) in [(1, 0.0, false), (2, 0.0, false), (3, 0.7, false), (4, 0.0, true)]
        {
            let params = TdParams {
                lambda,
                alpha: 0.1,
                anneal: 0.0,
                prune_moves,
                eval: EvalMode::Exact,
            };
            // A model that has learned a little plays races to the end.
            let mut start = Model::new(config.clone(), 3).unwrap();
            let mut learner = Learner::default();
            for g in 0..30 {
                learner
                    .train_game(&mut start, &dbs, 100 + g, &params, 0.1)
                    .unwrap();
            }
            let how = |settle| How { settle, help: None };
            for g in 0..10 {
                let (mut a, mut b) = (start.clone(), start.clone());
                let short = learner
                    .play(&mut a, &dbs, seed * 1000 + g, &params, 0.1, how(true))
                    .unwrap();
                let full = learner
                    .play(&mut b, &dbs, seed * 1000 + g, &params, 0.1, how(false))
                    .unwrap();
                assert_eq!(a, b, "seed {seed} game {g}");
                assert_eq!(short.positions, full.positions);
                assert!(!full.settled && (full.truncated || full.points > 0));
                if short.settled {
                    settled_games += 1;
                    assert!(short.turns < full.turns && short.points == 0);
                } else {
                    assert_eq!(short, full);
                }
            }
        }
        assert!(
            settled_games >= 6,
            "only {settled_games} of 40 games reached the databases"
        );
    }

    #[test]
    fn learning_rate_schedule() {
        let p = TdParams {
            lambda: 0.0,
            alpha: 0.2,
            anneal: 0.5,
            prune_moves: false,
            eval: EvalMode::Exact,
        };
        assert_eq!(p.rate(0), 0.2);
        assert!((p.rate(3000) - 0.1).abs() < 1e-7);
        assert!(TdParams { lambda: 1.5, ..p }.validate().is_err());
        assert!(TdParams { alpha: 0.0, ..p }.validate().is_err());
    }
}
