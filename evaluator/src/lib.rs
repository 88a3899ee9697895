/*!
The bgkit evaluator: gnubg-compatible position evaluation (neural nets and bearoff
lookups) and the benchmarks that measure the engine, behind the `evaluator` command.

# Overview

* [`Evaluator`]: 0-ply cubeless evaluation and best moves, gnubg-exact; the one
  engine every bgkit tool plays and evaluates with ([`eval`]: its errors and the
  equity helpers).
* [`search`]: lookahead: evaluations `plies` deep ([`Evaluator::evaluate_plied`]) and
  best moves with gnubg's move filters ([`Evaluator::best_move_plied`],
  [`search::FILTERS_NORMAL`], 0 to [`search::MAX_FILTER_PLIES`] plies), with or
  without the pruning nets ([`search::Lookahead`]).
* [`nets`]: the seam to the nets an evaluator runs ([`NetSource`]): gnubg's weights
  ([`GnubgNets`]) or a trainer's model. [`choice`]: gnubg's 0-ply move ranking.
* [`weights`]: gnubg's weights files (text and binary), read and written.
* [`inputs`], [`net`], [`simd`], [`sigmoid`]: the nets' inputs and forward pass (the
  kernels and their scalar twin in [`simd`], composed by [`net`]); [`aligned`]: the
  cache-line aligned arrays their weights live in.
* [`probabilities`]: the five cubeless probabilities and the equity computed from them.
* [`class`], [`sanity`], [`bearoff`]: classes, gnubg's corrections, database lookups.
* [`corpus`]: fixed, reproducible position sets for benchmarks.
* [`mod@bench`]: the built-in benchmarks of `evaluator bench`.
* [`engine`], [`datadir`]: which weights and databases build an evaluator (explicit
  paths, else `$BGKIT_DATA` and gnubg's install directories), found and opened.

The library needs neither clap nor anyhow; the `cli` feature (on by default) builds
the `evaluator` binary.
*/
#![deny(missing_docs)]

pub mod aligned;
pub mod bearoff;
pub mod bench;
mod cache;
pub mod choice;
pub mod class;
pub mod corpus;
pub mod datadir;
pub mod engine;
pub mod eval;
pub mod inputs;
pub mod net;
pub mod nets;
pub mod probabilities;
mod race_bg;
pub mod sanity;
pub mod search;
pub mod sigmoid;
pub mod simd;
pub mod weights;

pub use class::PositionClass;
pub use eval::{Evaluator, Probabilities};
pub use nets::{GnubgNets, NetSource};
