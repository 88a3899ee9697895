//! Two-sided bearoff databases: generation in bounded memory, layout and reader.

pub mod generate;
pub mod reader;

pub use generate::{generate_two_sided, TwoSidedPlan, TwoSidedRun};
pub use reader::{Equities, TwoSidedDb};
