//! Supervised training of one class's net on rolled-out positions.
//!
//! * [`data`]: the positions of a class in dataset files (binary datasets are
//!   memory-mapped), checked up front, and their net inputs.
//! * [`net`]: batched forward and backward passes with gnubg's activations.
//! * [`optim`]: SGD with momentum and Adam in the slope-free parametrisation, and
//!   their checkpoint file.
//! * [`run`]: a run — validation split, schedule, early stopping, checkpoints and
//!   resumption, the weights written in gnubg's formats; and the throughput bench.
//! * [`curve`]: the learning curve (CSV and PNG).

pub mod curve;
pub mod data;
pub mod net;
pub mod optim;
pub mod run;

pub use data::NetClass;
pub use run::{Limits, Run, Start, SupervisedSettings};
