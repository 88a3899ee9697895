/*!
The bgkit evaluator: position evaluation (gnubg-compatible nets and bearoff lookups, in
progress) and the benchmarks that measure the engine, behind the `evaluator` command.

# Overview

* [`corpus`]: fixed, reproducible position sets for benchmarks.
* [`bench`]: the built-in benchmarks of `evaluator bench`.
*/
#![deny(missing_docs)]

pub mod bench;
pub mod corpus;
