//! The seam between the evaluator and the nets it runs.
//!
//! [`Evaluator`](crate::Evaluator) classifies a position, ends games, looks up bearoff
//! databases, applies gnubg's corrections and chooses moves; which nets score the
//! net classes (contact, crashed, race), and how a position becomes their inputs, is
//! a [`NetSource`]. [`GnubgNets`] is gnubg's: a weights file's six nets with gnubg's
//! inputs. The trainer's models are another source, so that a net being trained is
//! played, evaluated and corrected by the same code, on the same SIMD kernels, as
//! gnubg's.

use board::Position;

use crate::class::PositionClass;
use crate::inputs;
use crate::weights::{Net, Weights};

/// Nets for the evaluator's net classes.
pub trait NetSource: Send + Sync {
    /// Writes the inputs of `pos` (side on roll's view) for the net that evaluates
    /// `class` (race, crashed or contact) into the front of `inputs` (at least
    /// [`inputs::CONTACT_INPUTS`] long) and returns that net's index for
    /// [`NetSource::net`]. The net's `inputs` says how many were written.
    fn write_inputs(&self, class: PositionClass, pos: &Position, inputs: &mut [f32]) -> usize;

    /// Net number `index`.
    fn net(&self, index: usize) -> &Net;

    /// How many nets [`NetSource::net`] numbers (0..count).
    fn net_count(&self) -> usize;

    /// The index of the pruning net of a net class, if the source has pruning nets
    /// (gnubg's: a few hidden units on the 200 [`inputs::base_inputs`]).
    fn pruning_net(&self, class: PositionClass) -> Option<usize>;
}

impl<T: NetSource + ?Sized> NetSource for &T {
    fn write_inputs(&self, class: PositionClass, pos: &Position, inputs: &mut [f32]) -> usize {
        (**self).write_inputs(class, pos, inputs)
    }
    fn net(&self, index: usize) -> &Net {
        (**self).net(index)
    }
    fn net_count(&self) -> usize {
        (**self).net_count()
    }
    fn pruning_net(&self, class: PositionClass) -> Option<usize> {
        (**self).pruning_net(class)
    }
}

/// Index of gnubg's nets in a weights file: contact, race, crashed, then the pruning
/// nets for contact, crashed and race.
const CONTACT: usize = 0;
const RACE: usize = 1;
const CRASHED: usize = 2;
const PRUNE_CONTACT: usize = 3;
const PRUNE_CRASHED: usize = 4;
const PRUNE_RACE: usize = 5;

/// gnubg's nets: a weights file with gnubg's inputs; the PIPLOSS input follows the
/// weights' version ([`Weights::fixed_pip_loss`]).
#[derive(Clone, Debug)]
pub struct GnubgNets {
    weights: Weights,
    fixed_pip_loss: bool,
}

impl GnubgNets {
    /// gnubg's nets from a weights file's contents.
    pub fn new(weights: Weights) -> GnubgNets {
        let fixed_pip_loss = weights.fixed_pip_loss();
        GnubgNets {
            weights,
            fixed_pip_loss,
        }
    }

    /// The weights.
    pub fn weights(&self) -> &Weights {
        &self.weights
    }
}

impl NetSource for GnubgNets {
    #[inline]
    fn write_inputs(&self, class: PositionClass, pos: &Position, out: &mut [f32]) -> usize {
        match class {
            PositionClass::Race => {
                inputs::race_inputs(pos, &mut out[..inputs::RACE_INPUTS]);
                RACE
            }
            PositionClass::Crashed => {
                inputs::crashed_inputs(pos, self.fixed_pip_loss, out);
                CRASHED
            }
            _ => {
                inputs::contact_inputs(pos, self.fixed_pip_loss, out);
                CONTACT
            }
        }
    }

    #[inline]
    fn net(&self, index: usize) -> &Net {
        &self.weights.nets[index]
    }

    fn net_count(&self) -> usize {
        self.weights.nets.len()
    }

    fn pruning_net(&self, class: PositionClass) -> Option<usize> {
        let index = match class {
            PositionClass::Race => PRUNE_RACE,
            PositionClass::Crashed => PRUNE_CRASHED,
            _ => PRUNE_CONTACT,
        };
        (index < self.weights.nets.len()).then_some(index)
    }
}
