/*!
Training data for backgammon nets: self-play position sampling, cubeless rollouts with
exact statistics, and the dataset files they are stored in, behind the `datasets`
command.

# Overview

* [`sample`]: self-play games at 0 ply with noise and random moves, class filters,
  de-duplication by position, and a "disagreement" filter between two evaluators.
* [`rollout`]: cubeless rollouts at 0 or 1 ply: quasi-random (stratified) dice for the
  first turns ([`dice`]), common random numbers per trial, luck-adjusted variance
  reduction, exact two-sided bearoff values, truncation; standard errors per output.
* [`play`]: gnubg's 0-ply move choice, returning the value of the chosen move too.
* [`mod@format`]: the three dataset files (wildbg-style CSV, gnubg-nn's training text,
  and a memory-mapped binary file with a versioned header and a checksum).
* [`journal`]: results appended as they are computed, so that long runs resume.
* [`shard`], [`merge`]: splitting a job across machines and joining the parts.
* [`stats`]: a summary of a dataset (counts per class, mean targets).
* [`benchmark`]: move-error benchmark sets (positions, rolls, rolled-out candidate
  moves) in bgkit's JSON-lines format, and gnubg-nn's `.bm` files read.
* [`job`]: the long jobs (rollout, sample, benchmark build) as functions over plain
  settings, with progress reported through a trait; the `datasets` binary (the `cli`
  feature, on by default) parses arguments and calls them.
*/
#![deny(missing_docs)]

pub mod benchmark;
pub mod class;
pub mod dice;
pub mod error;
pub mod format;
pub mod job;
pub mod journal;
pub mod merge;
pub mod play;
pub mod rng;
pub mod rollout;
pub mod sample;
pub mod shard;
pub mod stats;

pub use error::DatasetError;
pub use format::{Format, Input, Sample};
pub use rollout::{Roller, RolloutResult, RolloutSettings};
