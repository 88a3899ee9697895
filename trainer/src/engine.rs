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

use crate::encoding::MAX_INPUTS;
use crate::model::{main_slot, prune_slot, Model};

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
