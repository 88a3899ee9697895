//! The trainer's models in the one engine: a [`Model`] is a [`NetSource`], so the
//! evaluator classifies, ends games, looks up bearoff databases, applies gnubg's
//! corrections (race backgammons, sanity checks) and chooses moves for it exactly as
//! for gnubg's nets, on the same SIMD kernels. What stays here is what training alone
//! needs: [`Model::forward`], the raw outputs of a class's net together with the
//! inputs and hidden activations that the gradient is computed from.
//!
//! A model configured without bearoff databases gets an evaluator with none: every
//! race is then the race net's, and the corrections that need the one-sided database
//! (race backgammons, the sanity checks' bearoff bounds) do not apply.

use std::sync::{Arc, OnceLock};

use board::Position;
use evaluator::bearoff::BearoffDbs;
use evaluator::eval::Probabilities;
use evaluator::weights::Net;
use evaluator::{Evaluator, NetSource, PositionClass};
use serde::{Deserialize, Serialize};

use crate::encoding::MAX_INPUTS;
use crate::model::{main_slot, prune_slot, Model};

/// How self-play scores its candidate moves.
///
/// Training nets do not owe gnubg's bits. [`EvalMode::Fused`], the default of
/// `trainer td`, is the evaluator's fused mode ([`evaluator::Evaluator::with_fused`]):
/// four candidates at a time through one pass over the weight rows, each hidden sum
/// built with fused multiply-adds (one rounding per input where gnubg's evaluation
/// rounds twice). A position's values depend on the position alone, so a run is the
/// same on any number of threads and threads may score each other's lists.
/// [`EvalMode::Incremental`] is the evaluator's incremental mode
/// ([`evaluator::Evaluator::with_incremental`]): the first candidate of a move list in
/// full, the others by the input rows in which they differ (equities within about
/// 2e-3 of exact with gnubg's nets; see trainer/tests/td_fast.rs). In both, the target is
/// the chosen move's value as scored, while the trained position's own outputs and
/// gradient ([`Model::forward`]) are exact. [`EvalMode::Exact`] plays gnubg's 0-ply
/// bits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EvalMode {
    /// Four candidates at a time with fused multiply-adds (the default of `trainer
    /// td`).
    #[default]
    Fused,
    /// Incremental evaluation of move lists (`fast` in checkpoints written before the
    /// fused mode, which read back as this mode).
    #[serde(alias = "fast")]
    Incremental,
    /// gnubg's exact 0-ply evaluation.
    Exact,
}

impl EvalMode {
    /// [`EvalMode::Exact`] (the serde default: checkpoints written before the setting).
    pub fn exact() -> EvalMode {
        EvalMode::Exact
    }
}

impl std::str::FromStr for EvalMode {
    type Err = String;
    fn from_str(s: &str) -> Result<EvalMode, String> {
        match s {
            "fused" => Ok(EvalMode::Fused),
            "incremental" => Ok(EvalMode::Incremental),
            "exact" => Ok(EvalMode::Exact),
            "fast" => Err(
                "evaluation mode 'fast' is now called 'incremental' (expected fused, incremental or exact)"
                    .into(),
            ),
            _ => Err(format!(
                "unknown evaluation mode '{s}' (expected fused, incremental or exact)"
            )),
        }
    }
}

impl std::fmt::Display for EvalMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            EvalMode::Fused => "fused",
            EvalMode::Incremental => "incremental",
            EvalMode::Exact => "exact",
        })
    }
}

/// Buffers of [`Model::forward`] (one per thread).
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

impl NetSource for Model {
    #[inline]
    fn write_inputs(&self, class: PositionClass, pos: &Position, inputs: &mut [f32]) -> usize {
        let fixed = self.config.fixed_pip_loss();
        self.config.encoding.write(class, pos, fixed, inputs);
        main_slot(self.config.layout, class)
    }

    /// Main nets first (file order), then the pruning nets.
    #[inline]
    fn net(&self, index: usize) -> &Net {
        match self.nets.get(index) {
            Some(n) => n,
            None => &self.prune[index - self.nets.len()],
        }
    }

    fn net_count(&self) -> usize {
        self.nets.len() + self.prune.len()
    }

    fn pruning_net(&self, class: PositionClass) -> Option<usize> {
        (!self.prune.is_empty()).then(|| self.nets.len() + prune_slot(class))
    }
}

/// The databases a model's evaluator uses: `dbs` if the model is configured with
/// bearoff databases, none otherwise.
pub fn databases_for(model: &Model, dbs: &Arc<BearoffDbs>) -> Arc<BearoffDbs> {
    static NONE: OnceLock<Arc<BearoffDbs>> = OnceLock::new();
    if model.config.bearoff {
        dbs.clone()
    } else {
        NONE.get_or_init(|| Arc::new(BearoffDbs::default())).clone()
    }
}

impl Model {
    /// The evaluator of this model (cheap: build one per decision while training).
    pub fn engine(&self, dbs: &Arc<BearoffDbs>) -> Evaluator<&Model> {
        Evaluator::with_nets(self, databases_for(self, dbs))
    }

    /// [`Model::engine`] scoring move lists as `mode` says ([`Evaluator::with_fused`],
    /// [`Evaluator::with_incremental`]).
    pub fn engine_for(&self, dbs: &Arc<BearoffDbs>, mode: EvalMode) -> Evaluator<&Model> {
        self.engine(dbs)
            .with_fused(mode == EvalMode::Fused)
            .with_incremental(mode == EvalMode::Incremental)
    }

    /// Runs the net of `class` on `pos` and returns its raw outputs (no corrections);
    /// `s` keeps the inputs and hidden activations for training. The same inputs and
    /// kernels as the evaluator's, so the outputs are the evaluator's before its
    /// corrections.
    pub fn forward(&self, class: PositionClass, pos: &Position, s: &mut Scratch) -> Probabilities {
        let k = self.write_inputs(class, pos, &mut s.inputs);
        let net = NetSource::net(self, k);
        s.n_inputs = net.inputs;
        let mut out = [0f32; 5];
        evaluator::net::evaluate(net, &s.inputs[..net.inputs], &mut s.hidden, &mut out);
        out
    }
}
