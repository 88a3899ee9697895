//! Two-sided bearoff databases: generation in bounded memory, layout and reader.
//!
//! Generation, by concept: [`record`] holds the rule for one record (the reference, also
//! used by `verify`); [`plan`] the layout in levels and the memory plan; `successors`,
//! `level_loop` (levels computed from the window), `assembly` (memory or bucket files,
//! the output) and `state` (the state file for resuming) do the work; [`generate`] drives
//! them. [`sharded`] builds the same file with many processes (one level's share each,
//! reading the levels below from part files through mmap) and assembles it.

mod assembly;
pub mod generate;
mod level_loop;
pub mod plan;
pub mod reader;
pub mod record;
pub mod sharded;
mod state;
mod successors;

pub use generate::generate_two_sided;
pub use plan::{TwoSidedPlan, TwoSidedRun};
pub use reader::{Equities, TwoSidedDb};
