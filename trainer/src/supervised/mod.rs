//! Supervised training of one class's net on rolled-out positions.
//!
//! From the bottom up:
//!
//! * [`data`]: the positions of a class in dataset files (binary datasets are
//!   memory-mapped), checked up front, and their net inputs.
//! * [`net`]: batched forward and backward passes with gnubg's activations.
//! * [`optim`]: SGD with momentum and Adam in the slope-free parametrisation, and
//!   their checkpoint file.
//! * [`curve`]: the learning curve (CSV and PNG).
//! * [`settings`]: what a run computes, and the learning-rate schedule.
//! * [`state`]: the checkpoint (`supervised.json`).
//! * [`start`]: the starting weights (gnubg weights, a trainer model, or fresh nets).
//! * [`order`]: the validation split and each epoch's order, from the seed.
//! * [`stepper`]: one mini-batch step on a thread pool.
//! * [`run`]: a run — epochs, validation, schedule, early stopping, checkpoints and
//!   resumption, the weights written in gnubg's formats.
//! * [`bench`](mod@bench): the throughput bench.

pub mod bench;
pub mod curve;
pub mod data;
pub mod net;
pub mod optim;
pub mod order;
pub mod run;
pub mod settings;
pub mod start;
pub mod state;
pub mod stepper;

pub use data::NetClass;
pub use run::{Limits, Run};
pub use settings::SupervisedSettings;
pub use start::Start;
