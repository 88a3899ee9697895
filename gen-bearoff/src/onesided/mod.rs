//! One-sided bearoff databases: generation (exact distributions and the
//! normal-distribution approximation), file layouts and the reader.
//!
//! Exact generation, by concept: [`exact`] holds gnubg's rule for one position (the
//! reference, also used by `verify`); `single_moves`, `doubles` (the doubles window) and
//! `batch` (a level computed in prefetching stages) make it fast; [`generate`] runs the
//! level loop. [`normal`] is the normal-distribution approximation, [`layout`] the file
//! layouts, [`reader`] the memory-mapped reader.

mod batch;
mod doubles;
pub mod exact;
pub mod generate;
pub mod layout;
pub mod normal;
pub mod reader;
mod single_moves;

pub use generate::{generate_exact, ExactTable};
pub use layout::{write_one_sided, OneSidedWriteOptions};
pub use normal::{generate_normal, NormalTable};
pub use reader::{Distribution, OneSidedDb, OneSidedProbabilities};
