//! Sharded two-sided builds: one database computed by many processes (e.g. the tasks of
//! a Slurm job array on several machines) that share a work directory.
//!
//! The build goes level by level, as the one-process generator does (pip-sum levels,
//! each needing only the 24 levels below it). A [`WorkPlan`] in the directory records
//! what is built. Each level's records, in the generator's level layout, are cut into `N`
//! contiguous runs of whole rows, one per task ([`Shard`] `K/N`); a task maps the parts
//! of the levels below its own read-only ([`part`]), computes its run with the
//! generator's own record loop and writes one part file atomically ([`task`]). Finished
//! parts are never recomputed; a killed task leaves at most a `.partial` file, which its
//! rerun replaces. When every part is there, [`assemble`] checks that each level is
//! covered exactly once and writes the database, byte for byte what one process writes.

pub mod assemble;
pub mod part;
mod slice;
pub mod task;
pub mod work;

pub use assemble::{assemble, check_complete};
pub use slice::Shard;
pub use task::{run_shard, shard_records, ShardOutcome};
pub use work::WorkPlan;
