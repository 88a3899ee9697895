//! One-sided bearoff databases: generation (exact distributions and the
//! normal-distribution approximation), file layouts and the reader.

pub mod generate;
pub mod layout;
pub mod reader;

pub use generate::{generate_exact, generate_normal, ExactTable, NormalTable};
pub use layout::{write_one_sided, OneSidedWriteOptions};
pub use reader::{Distribution, OneSidedDb, OneSidedProbabilities};
