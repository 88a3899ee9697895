//! Bearoff and hypergammon databases in gnubg's file formats: this crate owns their
//! generation (one-sided and two-sided bearoff, byte-identical to gnubg 1.07's
//! `makebearoff`, parallel, in bounded memory; hypergammon solved exactly, or
//! byte-identical to `makehyper`), their file formats (gnubg's and bgkit's 64-bit "wide"
//! variant) and the memory-mapped readers the evaluator uses; the `gen-bearoff` binary is
//! a thin command line over it.
//!
//! * [`format`](mod@format): indexing, headers, value encodings, mapped-file access
//!   (shared layer); [`error`]: the error types; [`output`]: atomic output files;
//!   [`byte_size`]: byte counts in messages.
//! * [`onesided`], [`twosided`], [`hyper`]: generators, layouts and readers, each split by
//!   concept (rule for one record, planning, level loop, assembly, checkpoints).
//! * [`movegen`], [`levels`]: one side's moves in gnubg's order and positions grouped by
//!   pip count, shared by the bearoff generators.
//! * [`BearoffDb`]: open any supported file and find out what it holds.
//! * [`dump`], [`verify`]: gnubg-`bearoffdump`-style text and self-consistency checks
//!   ([`verify_report`]: their report and sampler, shared with [`hyper::verify`]).

pub mod byte_size;
pub mod dump;
pub mod error;
pub mod format;
pub mod hyper;
pub mod levels;
pub mod movegen;
pub mod onesided;
pub mod output;
mod prefetch;
pub mod reader;
pub mod twosided;
pub mod verify;
pub mod verify_report;

pub use error::BearoffError;
pub use format::encoding;
pub use format::header::{Header, HeaderStyle, Kind, OneSidedParams, TwoSidedParams};
pub use format::index::PositionIndex;
pub use hyper::HyperDb;
pub use onesided::OneSidedDb;
pub use reader::BearoffDb;
pub use twosided::TwoSidedDb;
