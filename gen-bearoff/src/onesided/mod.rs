//! One-sided bearoff databases: generation (exact distributions and the
//! normal-distribution approximation), file layouts and the reader.
//!
//! Exact generation, by concept: [`exact`] holds gnubg's rule for one position (the
//! reference, also used by `verify`); `single_moves`, `doubles` (the doubles window) and
//! `batch` (a level computed in prefetching stages) make it fast; [`generate`] runs the
//! level loop. [`normal`] is the normal-distribution approximation, [`layout`] the file
//! layouts, [`reader`] the memory-mapped reader, and [`build`] a whole database in one
//! call (what `gen-bearoff one-sided` runs).

mod batch;
pub mod build;
mod doubles;
pub mod exact;
pub mod generate;
pub mod layout;
pub mod normal;
pub mod reader;
mod single_moves;

pub use build::{build_one_sided, BuildError, OneSidedSpec};
pub use generate::{generate_exact, ExactTable};
pub use layout::OneSidedWriteOptions;
pub use normal::{generate_normal, NormalTable};
pub use reader::{Distribution, OneSidedDb, OneSidedProbabilities};
