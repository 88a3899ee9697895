/*!
The command-line pieces that bgkit's binaries (`evaluator`, `gen-bearoff`, `datasets`,
`trainer`) share, so that one flag means one thing in every tool: the engine options
(`--weights`, `--bearoff-os`, `--bearoff-ts`, `--no-bearoff`), the job options
(`--threads`, `--fresh`, `--quiet`), progress bars and notes on stderr, worker
threads, the exit status with its one-line error message, the rule for outputs
([`outputs`]: an existing output needs `--force`, an output never replaces an input),
writes to stdout and stderr that never panic ([`stream`]: a closed stdout ends
the command quietly with status 0, a failed stderr is ignored), argument parsing with
clap's errors in the same one-line form ([`mod@parse`]), shell completions and man pages
generated from each tool's clap definition ([`docs`]), and what a benchmark ran on
([`about`]: version, git commit, CPU model, kernel).

# Design

This crate depends on no bgkit crate but `fileio` (atomic writes of man pages), and no
bgkit library depends on it. The
libraries (`evaluator`, `gen-bearoff`, `datasets`, `trainer`) compile without clap,
anyhow or indicatif (their `cli` feature, on by default, adds the binary); each
exposes plain settings types (for example `evaluator::engine::EngineOptions`,
`datasets::job::RolloutJob`) and a progress trait where a job is long. A binary
parses its arguments with the structs here, fills the library's settings from them,
calls the library, and reports the result with [`exit_status`].

The other way round (this crate building an `Evaluator` from its arguments) would make
it depend on the evaluator library while the evaluator's own binary depends on it:
cargo forbids that cycle within one package. Plain values cross the boundary instead.
*/
#![deny(missing_docs)]

pub mod about;
pub mod args;
pub mod docs;
pub mod outputs;
pub mod parse;
pub mod progress;
pub mod status;
pub mod stream;
pub mod threads;

pub use about::About;
pub use args::{BearoffArgs, EngineArgs, JobArgs};
pub use parse::parse;
pub use progress::{note, phase_bar, progress_bar};
pub use status::exit_status;
pub use stream::{stdout, Stdout};
pub use threads::{global_threads, thread_count, thread_pool};
