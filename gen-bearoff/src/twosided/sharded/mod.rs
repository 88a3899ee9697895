//! Sharded two-sided builds: one database computed by many processes (e.g. the tasks of
//! a Slurm job array on several machines) that share a work directory.
//!
//! The build goes level by level, as the one-process generator does (pip-sum levels,
//! each needing only the 24 levels below it). A [`WorkPlan`] in the directory records
//! what is built. Each level's records, in the generator's level layout, are cut into `N`
//! contiguous runs of whole rows, one per task ([`Shard`] `K/N`); a task maps the parts
//! of the levels below its own read-only ([`part`]), computes its run with the
//! generator's own record loop and writes one part file atomically ([`task`]). Finished
//! parts are never recomputed; a killed task leaves at most a temporary file, which the
//! assembly's [`remove_leftovers`] sweeps. A task is either one shard of one level
//! (`--level I --shard K/N`, one job array per level) or a [`worker`] that goes through
//! every level and claims shards as it goes (`--shard K/N` alone: one job array for the
//! whole build). When every part is there, [`assemble()`] checks that each level is
//! covered exactly once and writes the database, byte for byte what one process writes.

pub mod assemble;
pub mod part;
mod slice;
pub mod task;
pub mod work;
pub mod worker;

pub use assemble::{assemble, check_complete};
pub use part::{is_work_file, remove_leftovers};
pub use slice::Shard;
pub use task::{run_shard, shard_records, ShardBuilder, ShardOutcome};
pub use work::WorkPlan;
pub use worker::{run_worker, WorkerEvent, WorkerReport, WorkerSettings};
