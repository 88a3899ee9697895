//! One mini-batch step: inputs, forward and backward passes in fixed chunks on a
//! thread pool, gradients added in chunk order, the optimiser's step.

use evaluator::weights::Net;
use rayon::prelude::*;

use super::data::ClassData;
use super::net::{Chunk, Grads, Sums, CHUNK};
use super::optim::OptState;
use super::settings::SupervisedSettings;
use crate::encoding::Encoding;
use crate::error::TrainerError;

/// A pool of `threads` threads (at least one) for the steps.
pub fn pool(threads: usize) -> Result<rayon::ThreadPool, TrainerError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| TrainerError::Invalid(format!("cannot start {threads} threads: {e}")))
}

/// The working memory of mini-batch steps: one chunk and one gradient per chunk of a
/// batch.
pub struct Stepper {
    chunks: Vec<Chunk>,
    grads: Vec<Grads>,
}

impl Stepper {
    /// Memory for batches of `batch` positions of `net`'s shape.
    pub fn new(net: &Net, batch: usize) -> Stepper {
        let n = batch.div_ceil(CHUNK);
        Stepper {
            chunks: (0..n).map(|_| Chunk::new(net)).collect(),
            grads: (0..n).map(|_| Grads::zeros(net)).collect(),
        }
    }

    /// One mini-batch: inputs, forward and backward pass per chunk in parallel, then
    /// the optimiser's step with the chunks' gradients added in order. Returns the
    /// loss sums of the batch (before the step).
    #[allow(clippy::too_many_arguments)]
    pub fn step(
        &mut self,
        pool: &rayon::ThreadPool,
        data: &ClassData,
        (enc, fixed_pip_loss): (Encoding, bool),
        net: &mut Net,
        opt: &mut OptState,
        idx: &[u32],
        set: &SupervisedSettings,
        lr: f32,
    ) -> Sums {
        let used = idx.len().div_ceil(CHUNK);
        let frozen = &*net;
        let sums: Vec<Sums> = pool.install(|| {
            self.chunks[..used]
                .par_iter_mut()
                .zip(self.grads[..used].par_iter_mut())
                .zip(idx.par_chunks(CHUNK))
                .map(|((c, g), part)| {
                    data.fill(part, enc, fixed_pip_loss, c);
                    c.gradient(frozen, set.activation, set.loss, g)
                })
                .collect()
        });
        let mut total = Sums::default();
        sums.iter().for_each(|s| total.add(s));
        let grads = &self.grads[..used];
        pool.install(|| opt.step(net, grads, total.rows, lr, &set.optimizer));
        total
    }
}
